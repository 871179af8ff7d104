//! A training run's last epoch as a model directory.
//!
//! `train --out DIR` keeps two things in DIR: the model of the epoch that scored best on the
//! validation rows (`model.safetensors`, `features/`: what `eval-parser --model DIR` reads), and
//! a checkpoint of the last epoch, to resume from. The two differ whenever a run's best score came
//! before its end, and the last epoch is often the better model: the validation rows that picked
//! the "best" one are few, so its lead can be noise, while the last epoch had the whole decayed
//! schedule (the shipped partner is one such last epoch). This writes the checkpoint out as a
//! model directory of its own, so it can be scored, averaged, halved or put in an ensemble like
//! any other.
//!
//! The checkpoint's network weights become the model; its `features/` are the run's own (frozen,
//! copied), so the result needs nothing outside DIR.

use std::path::Path;

use super::model_dir::{ensure_new, write_checked};
use super::checkpoint::{CHECKPOINT_STATE, CHECKPOINT_WEIGHTS, Checkpoint};
use super::save::copy_features;
use crate::parser::{CONFIG_FILE, FEATURES_DIR, ParserError, Result, TOKENIZER_FILE, WEIGHTS_FILE};

/// What [`checkpoint_model`] wrote.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LastEpoch {
    /// The epoch the checkpoint was written after (counted from 1).
    pub epoch: usize,
    /// The epochs the run was planned for (0 for checkpoints from before this was recorded).
    pub planned_epochs: usize,
    /// The epoch whose model `train` kept as the best (0: none scored above 0 %).
    pub best_epoch: usize,
}

/// Writes the last checkpoint of the training run in `run` (a `train --out` directory) to `out`
/// as a model directory. `out` must be new or empty (so not `run`, whose best model it would
/// overwrite); it is loaded once before this returns, and removed if it would not load.
pub fn checkpoint_model(run: &Path, out: &Path) -> Result<LastEpoch> {
    let state_path = run.join(CHECKPOINT_STATE);
    if !state_path.is_file() || !run.join(CHECKPOINT_WEIGHTS).is_file() {
        return Err(ParserError::Data(format!(
            "{} holds no training checkpoint ({CHECKPOINT_STATE} and {CHECKPOINT_WEIGHTS}, written by `craftmate \
             train --out`)",
            run.display()
        )));
    }
    let text = std::fs::read_to_string(&state_path).map_err(ParserError::io(&state_path))?;
    let state: Checkpoint = serde_json::from_str(&text)
        .map_err(|e| ParserError::Data(format!("{}: not a training checkpoint ({e})", state_path.display())))?;
    ensure_new(out, "the checkpoint's model")?;
    write_checked(out, || {
        std::fs::create_dir_all(out).map_err(ParserError::io(out))?;
        for name in [CONFIG_FILE, TOKENIZER_FILE] {
            let from = run.join(name);
            std::fs::copy(&from, out.join(name)).map_err(ParserError::io(&from))?;
        }
        let weights = run.join(CHECKPOINT_WEIGHTS);
        std::fs::copy(&weights, out.join(WEIGHTS_FILE)).map_err(ParserError::io(&weights))?;
        let features = run.join(FEATURES_DIR);
        if features.is_dir() {
            copy_features(&features, &out.join(FEATURES_DIR))?;
        }
        Ok(())
    })?;
    Ok(LastEpoch {
        epoch: state.epoch,
        planned_epochs: state.planned_epochs,
        best_epoch: state.best_epoch,
    })
}
