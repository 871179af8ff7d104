//! The training loop: trains one network with teacher forcing (token cross-entropy + start/end
//! pointer cross-entropy, [`super::loss`]), validates after every epoch by exact match, keeps the
//! best weights (early stopping), and writes a checkpoint each epoch so an interrupted run can
//! resume ([`super::checkpoint`]). Everything random is seeded, per epoch, and the checkpoint
//! carries the optimizer's state: a run paused (`pause_after`) or stopped between epochs and
//! resumed ends with the weights of one that never stopped. The shipped recipe, several such runs
//! combined, is [`super::recipe`].

use std::path::{Path, PathBuf};
use std::time::Instant;

use candle_core::DType;
use candle_nn::{ParamsAdamW, VarBuilder, VarMap};
use indicatif::{ProgressBar, ProgressStyle};
use rand::SeedableRng;
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use serde::{Deserialize, Serialize};

use super::adamw::AdamW;
use super::checkpoint::{
    CHECKPOINT_STATE, CHECKPOINT_WEIGHTS, Checkpoint, OPTIMIZER_STATE, Writer, changed_settings,
    refuse_to_overwrite_a_checkpoint, resume_note, write_file, write_together,
};
use super::data::Example;
use super::eval;
use super::loss::batch_loss;
use super::prepare::{
    Prepared, Vocabularies, batch_features, feature_cache, initialise, load_grown, prepare, prepare_from,
};
use super::save::{copy_features, save_model};
use super::schedule::Schedule;
use crate::parser::layers::Dropout;
use crate::parser::model::Seq2Seq;
use crate::parser::pretrained::WordFeatures;
use crate::parser::{FEATURES_DIR, NeuralParser, ParserError, Result, WEIGHTS_FILE};

/// Training settings (the CLI exposes the important ones).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Options {
    pub epochs: usize,
    pub batch_size: usize,
    pub lr: f64,
    pub seed: u64,
    /// Stop after this many epochs without a better validation score.
    pub patience: usize,
    pub d_model: usize,
    pub heads: usize,
    pub d_ff: usize,
    pub encoder_layers: usize,
    pub decoder_layers: usize,
    pub trigram_buckets: usize,
    pub dropout: f32,
    /// Probability of replacing a word by `[UNK]` in training, so the trigram features learn to cover.
    pub word_dropout: f32,
    /// Words seen fewer times than this are `[UNK]` (their trigrams still count).
    pub min_count: usize,
    /// Stop after this many optimizer steps (tests).
    pub max_steps: Option<usize>,
    /// Stop after this epoch of the `epochs`-long schedule, leaving the checkpoint for a resumed
    /// run to continue exactly where this one stopped: a long run trained in parts.
    #[serde(default)]
    pub pause_after: Option<usize>,
    /// Validate on at most this many examples per epoch.
    pub valid_limit: Option<usize>,
    /// Validate after every this many epochs (and after the last). Decoding the rows one by one
    /// costs more than an epoch's training steps on a GPU, and a recipe that keeps the last
    /// epoch only watches the score.
    #[serde(default = "every_epoch")]
    pub valid_every: usize,
    pub progress: bool,
    /// A pretrained word-features model (see [`crate::parser::pretrained`]) whose vectors the
    /// encoder adds to its own; fine-tuning a model without them adds a zero-initialised
    /// projection, so training starts exactly from the old model's behaviour.
    #[serde(default)]
    pub features: Option<PathBuf>,
}

fn every_epoch() -> usize {
    1
}

impl Default for Options {
    fn default() -> Self {
        Options {
            epochs: 30,
            batch_size: 64,
            lr: 1e-3,
            seed: 42,
            patience: 4,
            d_model: 128,
            heads: 4,
            d_ff: 256,
            encoder_layers: 2,
            decoder_layers: 2,
            trigram_buckets: 4096,
            dropout: 0.1,
            word_dropout: 0.1,
            min_count: 2,
            max_steps: None,
            pause_after: None,
            valid_limit: None,
            valid_every: 1,
            progress: true,
            features: None,
        }
    }
}

/// What a run did.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct TrainReport {
    pub train_examples: usize,
    pub valid_examples: usize,
    pub epochs_run: usize,
    pub best_epoch: usize,
    pub best_valid_exact: f64,
    pub epoch_losses: Vec<f32>,
    pub step_losses: Vec<f32>,
    pub seconds: f64,
    /// Time spent in the optimizer steps themselves (forward, backward, update), without the
    /// word features, validation and saving: `craftmate bench training` divides it by the steps.
    #[serde(default)]
    pub step_seconds: f64,
    /// Each epoch's validation exact match.
    #[serde(default)]
    pub epoch_valid: Vec<f64>,
    /// The run stopped at `pause_after` before its last epoch; `--resume` continues it.
    #[serde(default)]
    pub paused: bool,
}

/// Shuffles the training rows for `epoch`, with length bucketing: pools of 50 batches are sorted
/// by output length so batches carry little padding. Returns the epoch's generator, which then
/// shuffles the batches.
fn arrange(order: &mut [usize], prepared: &[Prepared], opts: &Options, epoch: usize) -> StdRng {
    let mut rng = StdRng::seed_from_u64(opts.seed.wrapping_add(epoch as u64));
    order.shuffle(&mut rng);
    for pool in order.chunks_mut(opts.batch_size * 50) {
        pool.sort_by_key(|&i| prepared[i].tokens.len());
    }
    rng
}

/// Where a run's weights start.
#[derive(Debug, Clone, Copy)]
pub enum Start<'a> {
    /// Seeded random weights and vocabularies built from the training examples.
    Fresh,
    /// `out`'s checkpoint (weights, optimizer state, epoch and best score carry over: the run
    /// goes on as if it had never stopped), or fresh when there is none.
    Resume,
    /// Fine-tune the model in this directory: its weights, vocabularies and sizes; its grammar
    /// extended by the training forms.
    From(&'a Path),
}

/// Exact match on the validation rows, decoded in batches, and the seconds it took.
fn validation(parser: &NeuralParser, valid: &[Example]) -> (f64, f64) {
    let started = Instant::now();
    let score = eval::evaluate_in_batches(parser, valid, eval::batch_for(&parser.device)).overall.percent();
    (score, started.elapsed().as_secs_f64())
}

/// Trains a parser on `train`, validating on `valid`; writes the best model to `out` (when given)
/// and returns it with a report.
pub fn train(
    train: &[Example],
    valid: &[Example],
    opts: &Options,
    out: Option<&Path>,
    start: Start,
) -> Result<(NeuralParser, TrainReport)> {
    let started = Instant::now();
    refuse_to_overwrite_a_checkpoint(out, start)?;
    let device = crate::parser::model::default_device();
    let Vocabularies { words, out: out_vocab, grammar, mut cfg, prepared } = match start {
        Start::From(dir) => prepare_from(dir, train)?,
        Start::Fresh | Start::Resume => prepare(train, opts)?,
    };
    tracing::info!(examples = prepared.len(), words = words.size, tokens = out_vocab.len(), "vocabularies built");
    // The pretrained word features: the ones asked for, else those of the model fine-tuned.
    let features_dir = match (&opts.features, start) {
        (Some(dir), _) => Some(dir.clone()),
        (None, Start::From(dir)) if cfg.word_features > 0 => Some(dir.join(FEATURES_DIR)),
        _ => None,
    };
    let features = features_dir.as_deref().map(|dir| WordFeatures::load_dir(dir, &device)).transpose()?;
    if let Some(f) = &features {
        if cfg.word_features != 0 && cfg.word_features != f.dim {
            return Err(ParserError::Data(format!(
                "the model uses {}-long word features, {} gives {}",
                cfg.word_features,
                features_dir.as_deref().unwrap_or(Path::new("?")).display(),
                f.dim
            )));
        }
        cfg.word_features = f.dim;
    }
    // The features model is frozen, so each sentence's features are computed once.
    let feature_cache = features.as_ref().map(|f| feature_cache(f, &prepared, opts.progress)).transpose()?;
    if let (Some(src), Some(dir)) = (&features_dir, out) {
        copy_features(src, &dir.join(FEATURES_DIR))?;
    }
    let mut varmap = VarMap::new();
    let vb = VarBuilder::from_varmap(&varmap, DType::F32, &device);
    let net = Seq2Seq::load(cfg, vb)?;
    initialise(&varmap, opts.seed, &device)?;
    if let Start::From(dir) = start {
        load_grown(&varmap, &dir.join(WEIGHTS_FILE), &device)?;
    }
    let resume = matches!(start, Start::Resume);
    // Validation between epochs decodes greedily, many lines side by side: fast, and the same for
    // every epoch, so epochs compare fairly.
    let parser = NeuralParser {
        net,
        words,
        partners: Vec::new(),
        out: out_vocab,
        grammar,
        features,
        device,
        beam_width: 1,
    };

    let mut report = TrainReport { train_examples: prepared.len(), valid_examples: valid.len(), ..Default::default() };
    let mut state = Checkpoint {
        epoch: 0,
        best_valid_exact: -1.0,
        best_epoch: 0,
        bad_epochs: 0,
        epoch_losses: vec![],
        epoch_valid: vec![],
        planned_epochs: opts.epochs,
        planned_lr: opts.lr,
        settings: Some(serde_json::to_value(opts)?),
    };
    let ckpt_path = |name: &str| out.map(|d| d.join(name)).unwrap_or_else(|| PathBuf::from(name));
    let batches_per_epoch = prepared.len().div_ceil(opts.batch_size);
    if resume && out.is_some() && ckpt_path(CHECKPOINT_STATE).exists() {
        varmap.load(ckpt_path(CHECKPOINT_WEIGHTS))?;
        let text = std::fs::read_to_string(ckpt_path(CHECKPOINT_STATE))
            .map_err(|source| ParserError::Io { path: ckpt_path(CHECKPOINT_STATE), source })?;
        state = serde_json::from_str(&text)?;
        tracing::info!(epoch = state.epoch, "resumed from checkpoint");
        if let Some(note) = resume_note(&state, opts.epochs, opts.lr, batches_per_epoch) {
            tracing::warn!("{note}");
        }
        (state.planned_epochs, state.planned_lr) = (opts.epochs, opts.lr);
        let settings = serde_json::to_value(opts)?;
        let changed = state.settings.as_ref().map(|saved| changed_settings(saved, &settings)).unwrap_or_default();
        if !changed.is_empty() {
            tracing::warn!(
                "resuming with other settings than the checkpoint was written with ({}): the rest of the run is not \
                 the one it continues",
                changed.join(", ")
            );
        }
        state.settings = Some(settings);
    } else if resume {
        // A mistyped --out would otherwise start over without a word.
        tracing::warn!(
            "nothing to resume: {} holds no checkpoint ({CHECKPOINT_STATE}), so this is a new run",
            out.map_or_else(|| ".".to_string(), |d| d.display().to_string())
        );
    }

    let mut opt = AdamW::new(&varmap, ParamsAdamW { lr: opts.lr, weight_decay: 0.01, ..Default::default() })?;
    if resume && state.epoch > 0 {
        if ckpt_path(OPTIMIZER_STATE).exists() {
            opt.load(&ckpt_path(OPTIMIZER_STATE))?;
        } else {
            // Checkpoints written before the optimizer's state was saved.
            tracing::warn!(
                "the checkpoint in {} has no optimizer state ({OPTIMIZER_STATE}): AdamW's moment estimates restart \
                 from zero, so the next steps differ from those of a run that never stopped",
                out.map_or_else(String::new, |d| d.display().to_string())
            );
        }
    }
    let schedule = Schedule::new(opts.lr, batches_per_epoch, opts.epochs);
    let mut step = state.epoch * batches_per_epoch;
    let valid_set = &valid[..valid.len().min(opts.valid_limit.unwrap_or(usize::MAX))];
    let mut order: Vec<usize> = (0..prepared.len()).collect();
    // Each epoch reorders the last one's order, so a resumed run replays the earlier epochs'
    // reorderings (not their training) to draw the batches the run would have drawn.
    for epoch in 0..state.epoch {
        arrange(&mut order, &prepared, opts, epoch);
    }

    for epoch in state.epoch..opts.epochs {
        let dropout = Dropout::new(opts.dropout, opts.seed.wrapping_add(epoch as u64 * 7919));
        let mut rng = arrange(&mut order, &prepared, opts, epoch);
        let mut batches: Vec<&[usize]> = order.chunks(opts.batch_size).collect();
        batches.shuffle(&mut rng);
        let bar = if opts.progress { ProgressBar::new(batches_per_epoch as u64) } else { ProgressBar::hidden() };
        bar.set_style(
            ProgressStyle::with_template("epoch {prefix} [{bar:30}] {pos}/{len} {msg} ({eta})")
                .unwrap_or_else(|_| ProgressStyle::default_bar()),
        );
        bar.set_prefix(format!("{}/{}", epoch + 1, opts.epochs));
        let mut sum = 0.0;
        let mut n = 0;
        let epoch_start = Instant::now();
        for chunk in batches {
            let lr = schedule.lr(step);
            opt.set_learning_rate(lr);
            let step_start = Instant::now();
            let batch: Vec<&Prepared> = chunk.iter().map(|&i| &prepared[i]).collect();
            let feats = feature_cache.as_deref().map(|c| batch_features(c, chunk, &parser.device)).transpose()?;
            let loss = batch_loss(&parser, &batch, feats.as_ref(), &dropout, opts.word_dropout)?;
            let grads = loss.backward()?;
            opt.step(&grads)?;
            let value = loss.to_scalar::<f32>()?;
            report.step_seconds += step_start.elapsed().as_secs_f64();
            report.step_losses.push(value);
            sum += value;
            n += 1;
            step += 1;
            bar.inc(1);
            bar.set_message(format!("loss {:.3}", sum / n as f32));
            if opts.progress && bar.is_hidden() && n % 50 == 0 {
                eprintln!(
                    "  step {n}/{batches_per_epoch}: loss {:.4} ({:.2}s/step)",
                    sum / n as f32,
                    epoch_start.elapsed().as_secs_f64() / n as f64
                );
            }
            if opts.max_steps.is_some_and(|m| report.step_losses.len() >= m) {
                break;
            }
        }
        bar.finish_and_clear();
        let mean = sum / n.max(1) as f32;
        state.epoch_losses.push(mean);
        report.epochs_run = epoch + 1;
        if opts.max_steps.is_some_and(|m| report.step_losses.len() >= m) {
            break;
        }
        let validate = !valid_set.is_empty() && ((epoch + 1) % opts.valid_every.max(1) == 0 || epoch + 1 == opts.epochs);
        let (score, valid_seconds) = if validate { validation(&parser, valid_set) } else { (0.0, 0.0) };
        if validate {
            state.epoch_valid.push(score);
        }
        // Without validation rows every epoch counts as the best so far: the last one is kept.
        let improved = valid_set.is_empty() || score > state.best_valid_exact;
        if !validate && !valid_set.is_empty() {
            // Not validated: neither better nor worse.
        } else if improved {
            state.best_valid_exact = score;
            state.best_epoch = epoch + 1;
            state.bad_epochs = 0;
            if let Some(dir) = out {
                save_model(&parser, &varmap, dir)?;
            }
        } else {
            state.bad_epochs += 1;
        }
        state.epoch = epoch + 1;
        if opts.progress {
            let checked = if validate {
                let best = if improved { ", best, saved" } else { "" };
                format!(", validation exact match {score:.2}% ({} lines in {valid_seconds:.1}s{best})", valid_set.len())
            } else {
                String::new()
            };
            eprintln!("epoch {}/{}: loss {mean:.4}{checked} [{:.0}s]", epoch + 1, opts.epochs, started.elapsed().as_secs_f64());
        }
        if let Some(dir) = out {
            let mut files: Vec<(&str, Writer)> = vec![
                (CHECKPOINT_WEIGHTS, Box::new(|path| Ok(varmap.save(path)?))),
                (OPTIMIZER_STATE, Box::new(|path| opt.save(path))),
            ];
            let json = serde_json::to_string(&state)?;
            files.push((CHECKPOINT_STATE, Box::new(move |path| write_file(path, json.as_bytes()))));
            write_together(dir, files)?;
        }
        if opts.pause_after == Some(epoch + 1) && epoch + 1 < opts.epochs {
            if opts.progress {
                eprintln!("paused after epoch {} of {}: `--resume` continues the run", epoch + 1, opts.epochs);
            }
            report.paused = true;
            break;
        }
        if state.bad_epochs >= opts.patience {
            if opts.progress {
                eprintln!("early stop: no improvement for {} epochs", opts.patience);
            }
            break;
        }
    }
    report.best_epoch = state.best_epoch;
    report.best_valid_exact = state.best_valid_exact.max(0.0);
    report.epoch_losses = state.epoch_losses;
    report.epoch_valid = state.epoch_valid;
    report.seconds = started.elapsed().as_secs_f64();
    Ok((parser, report))
}

