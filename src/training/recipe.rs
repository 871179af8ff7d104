//! The recipe: how `craftmate train` makes a parser like the one in `models/parser/`, as data and
//! one combining step.
//!
//! Two networks are trained from scratch around the same frozen pretrained word features (the
//! shipped `features/`), on the same data: the annotated training split, 3,000 chit-chat lines as
//! NOOP and 4,000 rows of the generated corpus ([`super::corpus`]; the same draw for both, so they
//! write the same output tokens and can vote together). They differ in their seed (initial
//! weights, batch order, dropout) and length. Each keeps its last epoch: nothing is chosen on the
//! held-out rows, so all of them measure the result. The two then vote at every decoding step (an
//! ensemble), and their weights are stored as f16. `craftmate train` runs each network as its own
//! process (one core each) and then [`combine`]s them; `models/parser/CARD.md` records what the
//! recipe and the shipped model score (the shipped model is older: its first network kept the
//! mean of its best and last epochs, [`Keep::BestAndLast`]).

use std::path::{Path, PathBuf};

use super::trainer::Options;
use super::{average, checkpoint_model, ensemble, half};
use crate::parser::{ParserError, Result};

/// Which of a run's epochs becomes its network in the ensemble.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Keep {
    /// The element-wise mean of the best-scoring epoch's weights and the last epoch's.
    BestAndLast,
    /// The last epoch's weights (a whole decayed schedule; the best epoch is picked on few rows).
    Last,
}

/// One network of the recipe.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Network {
    /// Its directory's name under `networks/`.
    pub name: &'static str,
    pub seed: u64,
    pub epochs: usize,
    pub keep: Keep,
}

/// The shipped ensemble's networks, in voting order.
pub const NETWORKS: [Network; 2] = [
    Network { name: "a", seed: 42, epochs: 60, keep: Keep::Last },
    Network { name: "b", seed: 13, epochs: 50, keep: Keep::Last },
];

/// Seed of the NOOP sample and the templated commands, the same for every network.
pub const DATA_SEED: u64 = 42;
/// Chit-chat lines mixed in as NOOP examples, per network.
pub const NOOP_LINES: usize = 3000;
/// Rows of the generated corpus ([`super::corpus`]) mixed in, per network.
pub const TEMPLATED: usize = 4000;
/// Validation rows scored now and then to watch a run (no epoch is chosen on them: every
/// network keeps its last, so every held-out row stays unseen by the recipe).
pub const VALID_LIMIT: usize = 500;
/// Validate after every this many epochs.
pub const VALID_EVERY: usize = 10;

/// The training options of `network`, reading the word features in `features`. Runs never stop
/// early (the patience is the whole run): the schedule decays over the planned epochs.
pub fn options(network: &Network, features: &Path) -> Options {
    Options {
        epochs: network.epochs,
        seed: network.seed,
        patience: network.epochs,
        valid_limit: Some(VALID_LIMIT),
        valid_every: VALID_EVERY,
        features: Some(features.to_path_buf()),
        ..Options::default()
    }
}

/// Where the recipe keeps its parts inside the `--out` directory.
pub struct Layout {
    pub root: PathBuf,
}

impl Layout {
    pub fn new(root: &Path) -> Self {
        Layout { root: root.to_path_buf() }
    }
    /// The word-features model every network reads (written once, from the shipped one).
    pub fn features(&self) -> PathBuf {
        self.root.join("features")
    }
    /// A network's training run (best epoch, checkpoint, log).
    pub fn network(&self, network: &Network) -> PathBuf {
        self.root.join("networks").join(network.name)
    }
    /// Intermediate model directories made while combining.
    pub fn parts(&self) -> PathBuf {
        self.root.join("parts")
    }
    /// The finished model: what `eval-parser --model` reads and what ships.
    pub fn model(&self) -> PathBuf {
        self.root.join("model")
    }
}

/// Combines the trained networks into the finished model (`layout.model()`): each network's kept
/// epoch, the ensemble of them, its weights as f16. Intermediate directories are rebuilt from the
/// runs each time, so a combining step that failed can simply be run again.
pub fn combine(layout: &Layout, networks: &[Network]) -> Result<PathBuf> {
    if networks.is_empty() {
        return Err(ParserError::Data("no networks to combine".into()));
    }
    let parts = layout.parts();
    if parts.exists() {
        std::fs::remove_dir_all(&parts).map_err(ParserError::io(&parts))?;
    }
    let model = layout.model();
    if model.exists() {
        std::fs::remove_dir_all(&model).map_err(ParserError::io(&model))?;
    }
    let mut members = Vec::new();
    for network in networks {
        let run = layout.network(network);
        let last = parts.join(format!("{}-last", network.name));
        checkpoint_model::checkpoint_model(&run, &last)?;
        members.push(match network.keep {
            Keep::Last => last,
            Keep::BestAndLast => {
                let mean = parts.join(format!("{}-mean", network.name));
                average::average_models(&[run, last], &mean)?;
                mean
            }
        });
    }
    let full = match members.as_slice() {
        [one] => one.clone(),
        _ => {
            let joined = parts.join("ensemble");
            ensemble::ensemble_models(&members, &joined)?;
            joined
        }
    };
    half::half_model(&full, &model)?;
    Ok(model)
}
