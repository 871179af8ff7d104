//! The training loop: builds vocabularies and the grammar from the training forms, trains the
//! network with teacher forcing (token cross-entropy + start/end pointer cross-entropy), validates
//! after every epoch by exact match, keeps the best weights (early stopping), and writes a
//! checkpoint each epoch so an interrupted run can resume. Everything random is seeded, per epoch,
//! and the checkpoint carries the optimizer's state: a run paused (`--pause-after`) or stopped
//! between epochs and resumed ends with the weights of one that never stopped.

use std::collections::{BTreeSet, HashMap};
use std::path::{Path, PathBuf};
use std::time::Instant;

use candle_core::{DType, Device, Tensor};
use candle_nn::{ParamsAdamW, VarBuilder, VarMap};
use indicatif::{ProgressBar, ProgressStyle};
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use serde::{Deserialize, Serialize};

use super::adamw::AdamW;
use super::data::Example;
use super::ema::WeightAverage;
use super::eval;
use super::tune::TunedFeatures;
use crate::parser::grammar::Grammar;
use crate::parser::layers::Dropout;
use crate::parser::linearize::{self, BOS, EOS, PAD, SPAN};
use crate::parser::model::{Config, Seq2Seq};
use crate::parser::pretrained::{self, Unpacked, WordFeatures};
use crate::parser::vocab::{OutVocab, WordVocab};
use crate::parser::{
    CONFIG_FILE, FEATURES_DIR, ModelMeta, NeuralParser, ParserError, Result, TOKENIZER_FILE, WEIGHTS_FILE,
    input_tensors,
};

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
    pub progress: bool,
    /// A pretrained word-features model (see [`crate::parser::pretrained`]) whose vectors the
    /// encoder adds to its own; fine-tuning a model without them adds a zero-initialised
    /// projection, so training starts exactly from the old model's behaviour.
    #[serde(default)]
    pub features: Option<PathBuf>,
    /// Keep a running average of the weights with this decay (0.999: about the last thousand
    /// steps) and validate and save the averaged weights instead of the trained ones (see
    /// [`super::ema`]); `None` keeps the trained weights.
    #[serde(default)]
    pub ema: Option<f64>,
    /// Teach the network to name the annotation conventions a form follows: each training form
    /// is preceded by a style token for its origin
    /// ([`Origin::style`](crate::training::data::Origin::style)), annotated rows cut into batches
    /// at these row numbers. The annotated file is ordered by annotation batch and the
    /// batches differ (the share of objects written with a `text_span` falls from over 80 % to none
    /// through the file), so a network that must learn every batch's habits as one blurs them; with
    /// styles it learns each batch's own and, decoding, writes the style it finds most likely first
    /// and the form in that style. `None`: no styles.
    #[serde(default)]
    pub styles: Option<Vec<usize>>,
    /// Train the pretrained word features' layers too, at this peak learning rate (see
    /// [`super::tune`]); `None` keeps them frozen.
    #[serde(default)]
    pub tune_features: Option<f64>,
    /// Spread this share of each output token's target over the whole output vocabulary (label
    /// smoothing; 0 keeps the plain cross-entropy). Meant for annotators who disagree on forms the
    /// network cannot tell apart; measured at 0.1 on the shipped recipe, it cost 1.4–1.6 points
    /// (models/parser/CARD.md, session 30).
    #[serde(default)]
    pub label_smoothing: f32,
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
            progress: true,
            features: None,
            ema: None,
            styles: None,
            tune_features: None,
            label_smoothing: 0.0,
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
    /// Each epoch's validation exact match (of the averaged weights when averaging).
    #[serde(default)]
    pub epoch_valid: Vec<f64>,
    /// With weight averaging: each epoch's validation exact match of the trained weights, to
    /// compare with `epoch_valid`.
    #[serde(default)]
    pub epoch_valid_trained: Vec<f64>,
    /// The run stopped at `pause_after` before its last epoch; `--resume` continues it.
    #[serde(default)]
    pub paused: bool,
}

/// Resume point written after every epoch.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub(crate) struct Checkpoint {
    pub(crate) epoch: usize,
    best_valid_exact: f64,
    pub(crate) best_epoch: usize,
    bad_epochs: usize,
    epoch_losses: Vec<f32>,
    #[serde(default)]
    epoch_valid: Vec<f64>,
    #[serde(default)]
    epoch_valid_trained: Vec<f64>,
    /// The schedule the run was written under (0 in checkpoints from before these were kept), so
    /// a resumed run can tell when `--epochs` or `--lr` changed its learning rate.
    #[serde(default)]
    pub(crate) planned_epochs: usize,
    #[serde(default)]
    planned_lr: f64,
    /// The run's [`Options`] when the checkpoint was written (absent in checkpoints from before
    /// session 28), so a resumed run can say which of its settings differ.
    #[serde(default)]
    settings: Option<serde_json::Value>,
}

/// The learning-rate schedule: a linear warm-up over half an epoch (at most 400 steps) to the
/// peak, then a linear decay to 10 % of it at the run's last step. It depends on the run's
/// length, so a resumed run given more epochs finds its rate moved (see [`resume_note`]).
#[derive(Debug, Clone, Copy)]
struct Schedule {
    peak: f64,
    warmup: usize,
    total_steps: usize,
}

impl Schedule {
    fn new(peak: f64, batches_per_epoch: usize, epochs: usize) -> Self {
        Schedule {
            peak,
            warmup: (batches_per_epoch / 2).clamp(1, 400),
            total_steps: (batches_per_epoch * epochs).max(1),
        }
    }

    fn lr(&self, step: usize) -> f64 {
        if step < self.warmup {
            self.peak * (step + 1) as f64 / self.warmup as f64
        } else {
            let decayed = (step - self.warmup) as f64 / (self.total_steps.saturating_sub(self.warmup)).max(1) as f64;
            self.peak * (1.0 - 0.9 * decayed).max(0.1)
        }
    }
}

/// What a resumed run should tell its user about the schedule: nothing when it goes on as the
/// checkpoint planned; a note when the checkpoint already ran every asked-for epoch, or when a
/// new `--epochs` or `--lr` moves the learning rate (a longer run raises it again: a warm
/// restart, not the single schedule a run of that length from scratch would follow).
fn resume_note(state: &Checkpoint, epochs: usize, peak: f64, batches_per_epoch: usize) -> Option<String> {
    if state.epoch >= epochs {
        return Some(format!(
            "the checkpoint has already trained {} epochs and --epochs is {epochs}: nothing left to train \
             (ask for more epochs to go on)",
            state.epoch
        ));
    }
    let same_plan = state.planned_epochs == epochs && state.planned_lr == peak;
    if state.planned_epochs == 0 || same_plan {
        return None;
    }
    let step = state.epoch * batches_per_epoch;
    let was = Schedule::new(state.planned_lr, batches_per_epoch, state.planned_epochs).lr(step.saturating_sub(1));
    let now = Schedule::new(peak, batches_per_epoch, epochs).lr(step);
    let plan = format!(
        "this run was planned for {} epoch{} at lr {:.1e} and goes on for {epochs} at lr {peak:.1e}",
        state.planned_epochs,
        if state.planned_epochs == 1 { "" } else { "s" },
        state.planned_lr,
    );
    Some(if (now - was).abs() <= 1e-3 * was {
        format!("{plan}: the rest of its learning-rate schedule ({now:.2e} at epoch {}) changes", state.epoch + 1)
    } else {
        format!(
            "{plan}: the learning rate moves from {was:.2e} to {now:.2e} at epoch {}{}",
            state.epoch + 1,
            if now > was { " (a warm restart, not the schedule of a run this long from scratch)" } else { "" }
        )
    })
}

/// Settings a resumed run may change without becoming another run: the schedule's (see
/// [`resume_note`]), and when to stop, pause, validate and show progress.
const FREE_ON_RESUME: &[&str] = &["epochs", "lr", "patience", "valid_limit", "progress", "max_steps", "pause_after"];

/// The settings (`Options` as JSON) a resumed run changes from those its checkpoint was written
/// with, as `seed 42 → 13`: each makes the rest of the run differ from the one it continues
/// (another seed draws other batches and dropout; another dropout or feature setting trains
/// another network).
fn changed_settings(saved: &serde_json::Value, now: &serde_json::Value) -> Vec<String> {
    let (Some(saved), Some(now)) = (saved.as_object(), now.as_object()) else { return Vec::new() };
    now.iter()
        .filter(|(key, _)| !FREE_ON_RESUME.contains(&key.as_str()))
        .filter_map(|(key, value)| {
            // A setting the checkpoint's version did not have yet cannot be compared.
            let was = saved.get(key)?;
            (was != value).then(|| format!("{key} {} → {}", show(was), show(value)))
        })
        .collect()
}

/// A setting's value as a user typed it: an f32 option (dropout 0.1) reads back from JSON as the
/// nearest f64 (0.10000000149011612), so a value that is an f32 is shown as one.
fn show(value: &serde_json::Value) -> String {
    match value.as_f64() {
        Some(v) if value.is_f64() && (v as f32) as f64 == v => (v as f32).to_string(),
        _ => value.to_string(),
    }
}

/// The network's weights after the last epoch, in f32 (`model.safetensors` holds the best epoch's).
pub const CHECKPOINT_WEIGHTS: &str = "checkpoint.safetensors";
/// The run's progress after the last epoch: epochs trained, losses, validation scores, settings.
pub const CHECKPOINT_STATE: &str = "checkpoint.json";
/// The optimizer's moments and step count after the last epoch ([`AdamW::save`]).
pub const OPTIMIZER_STATE: &str = "optimizer.safetensors";
/// With `--tune-features`: the features' trained layers after the last epoch, in f32.
pub const FEATURES_CHECKPOINT: &str = "features.checkpoint.safetensors";
/// With `--tune-features`: their optimizer's state after the last epoch.
pub const FEATURES_OPTIMIZER: &str = "features.optimizer.safetensors";
/// With `--ema`: the averaged weights after the last epoch (a run's "last" model when averaging).
pub const AVERAGE_WEIGHTS: &str = "average.safetensors";
const MAX_WORDS: usize = 64;
const MAX_TOKENS: usize = 160;

/// A training example as ids: words, output token ids, and the span of each `<span>` token.
struct Prepared {
    words: Vec<String>,
    tokens: Vec<u32>,
    spans: Vec<(usize, usize)>,
}

/// Words and linearised form of each usable training example.
type Kept = Vec<(Vec<String>, linearize::Linear)>;

/// The linearised form of an example the network can learn: a valid form for its text, not too
/// long, spans inside the text; preceded by the example's style token when training with styles.
fn usable(ex: &Example, styles: Option<&[usize]>) -> Option<linearize::Linear> {
    let lf = crate::logical_form::LogicalForm::from_json_value(&ex.json).ok()?;
    crate::logical_form::validate(&ex.words.join(" "), &lf).ok()?;
    let mut lin = linearize::linearize(&ex.json)?;
    if let Some(batches) = styles {
        lin.tokens.insert(0, ex.origin.style(batches));
    }
    let ok = !ex.words.is_empty()
        && ex.words.len() <= MAX_WORDS
        && lin.tokens.len() + 1 < MAX_TOKENS
        && lin.spans.iter().all(|s| s.start <= s.end && s.end < ex.words.len());
    ok.then_some(lin)
}

/// Records the style token a training sequence starts with (if any) in the grammar.
fn observe_style(grammar: &mut Grammar, lin: &linearize::Linear) {
    if let Some(first) = lin.tokens.first().filter(|t| linearize::is_style(t)) {
        grammar.styles.insert(first.clone());
    }
}

/// Vocabularies and grammar from the training forms; examples the scheme cannot express are dropped.
fn build_vocab(train: &[Example], opts: &Options) -> Result<(WordVocab, OutVocab, Grammar, Kept)> {
    let mut counts: HashMap<String, usize> = HashMap::new();
    let mut grammar = Grammar::default();
    let mut tokens = BTreeSet::new();
    let mut kept = Vec::new();
    for ex in train {
        let Some(lin) = usable(ex, opts.styles.as_deref()) else { continue };
        for w in &ex.words {
            *counts.entry(w.clone()).or_default() += 1;
        }
        grammar.observe(&ex.json);
        observe_style(&mut grammar, &lin);
        tokens.extend(lin.tokens.iter().cloned());
        kept.push((ex.words.clone(), lin));
    }
    let words = WordVocab::build(&counts, opts.min_count)?;
    let out = OutVocab::new(tokens.into_iter().collect());
    Ok((words, out, grammar, kept))
}

/// Seeded initialisation of every variable (candle's own initialisers use an unseeded RNG).
fn initialise(varmap: &VarMap, seed: u64, device: &Device) -> Result<()> {
    let mut rng = StdRng::seed_from_u64(seed);
    let data = varmap.data().lock().map_err(|_| ParserError::Data("variable map poisoned".into()))?;
    let mut names: Vec<&String> = data.keys().collect();
    names.sort();
    for name in names {
        let var = &data[name];
        let dims = var.dims().to_vec();
        let n: usize = dims.iter().product();
        let values: Vec<f32> = if name.ends_with("bias") {
            vec![0.0; n]
        } else if name.contains("norm") {
            vec![1.0; n]
        } else if name.starts_with("feat_proj") {
            // Pretrained features start switched off: the model learns how much to trust them.
            vec![0.0; n]
        } else {
            // Embeddings are (rows, dim); linear weights are (out, in): scale by 1/sqrt(fan in).
            let std = if name.contains("emb") || name.contains("pos") { 0.05 } else { 1.0 / (dims[1] as f32).sqrt() };
            (0..n)
                .map(|_| {
                    // Box–Muller normal sample.
                    let (u1, u2): (f32, f32) = (rng.random::<f32>().max(1e-7), rng.random());
                    std * (-2.0 * u1.ln()).sqrt() * (std::f32::consts::TAU * u2).cos()
                })
                .collect()
        };
        var.set(&Tensor::from_vec(values, dims, device)?)?;
    }
    Ok(())
}

/// The pretrained features of a batch, stacked from the per-example cache: (B, S, F), zero-padded.
fn batch_features(cache: &[Tensor], batch: &[usize], device: &Device) -> Result<Tensor> {
    let s = batch.iter().map(|&i| cache[i].dim(0)).collect::<candle_core::Result<Vec<_>>>()?;
    let longest = s.iter().copied().max().unwrap_or(1);
    let rows = batch
        .iter()
        .zip(&s)
        .map(|(&i, &n)| cache[i].pad_with_zeros(0, 0, longest - n))
        .collect::<candle_core::Result<Vec<_>>>()?;
    Ok(Tensor::stack(&rows, 0)?.to_device(device)?)
}

/// Computes every training example's pretrained features once (the features model is frozen).
fn feature_cache(features: &WordFeatures, prepared: &[Prepared], progress: bool) -> Result<Vec<Tensor>> {
    let bar = if progress { ProgressBar::new(prepared.len() as u64) } else { ProgressBar::hidden() };
    bar.set_style(
        ProgressStyle::with_template("word features [{bar:30}] {pos}/{len} ({eta})")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let started = Instant::now();
    // Batches of sentences of about the same length, so little of the work is padding.
    let mut order: Vec<usize> = (0..prepared.len()).collect();
    order.sort_by_key(|&i| prepared[i].words.len());
    let mut cache = vec![None; prepared.len()];
    for chunk in order.chunks(32) {
        let rows: Vec<&[String]> = chunk.iter().map(|&i| prepared[i].words.as_slice()).collect();
        let batch = features.features(&rows)?.to_device(&Device::Cpu)?;
        for (j, &i) in chunk.iter().enumerate() {
            cache[i] = Some(batch.get(j)?.narrow(0, 0, prepared[i].words.len())?.contiguous()?);
        }
        bar.inc(chunk.len() as u64);
    }
    bar.finish_and_clear();
    if progress {
        eprintln!("word features: {} sentences in {:.0}s", prepared.len(), started.elapsed().as_secs_f64());
    }
    Ok(cache.into_iter().flatten().collect())
}

/// One batch's loss: token cross-entropy plus start and end pointer cross-entropies.
fn batch_loss(
    parser: &NeuralParser,
    batch: &[&Prepared],
    features: Option<&Tensor>,
    dropout: &Dropout,
    opts: &Options,
) -> Result<Tensor> {
    let dev = &parser.device;
    let pad = parser.out.id(PAD).unwrap_or(0);
    let bos = parser.out.id(BOS).unwrap_or(0);
    let eos = parser.out.id(EOS).unwrap_or(0);
    let span_id = parser.out.id(SPAN).unwrap_or(0);
    let rows: Vec<&[String]> = batch.iter().map(|p| p.words.as_slice()).collect();
    let unk = || dropout.draw() < opts.word_dropout;
    let (ids, tri, lengths) = input_tensors(&parser.words, parser.net.cfg.trigram_buckets, &rows, Some(&unk), dev)?;
    let enc = parser.net.encode(&ids, &tri, &lengths, features, Some(dropout))?;
    let s = ids.dims2()?.1;
    let t = batch.iter().map(|p| p.tokens.len() + 1).max().unwrap_or(1);
    let (mut inputs, mut targets, mut span_words, mut span_mask) = (vec![], vec![], vec![], vec![]);
    let (mut tok_rows, mut tok_targets, mut ptr_rows, mut starts, mut ends) = (vec![], vec![], vec![], vec![], vec![]);
    for (b, p) in batch.iter().enumerate() {
        let seq: Vec<u32> = std::iter::once(bos).chain(p.tokens.iter().copied()).chain(std::iter::once(eos)).collect();
        let mut next_span = 0;
        let mut input_span = None;
        for i in 0..t {
            let input = seq.get(i).copied().unwrap_or(pad);
            let target = seq.get(i + 1).copied().unwrap_or(pad);
            inputs.push(input);
            targets.push(target);
            let (a, z) = input_span.take().unwrap_or((0, 0));
            span_words.extend([(b * s + a) as u32, (b * s + z) as u32]);
            span_mask.push(if input == span_id && i > 0 { 1f32 } else { 0.0 });
            if target != pad {
                tok_rows.push((b * t + i) as u32);
                tok_targets.push(target);
            }
            if target == span_id && i + 1 < seq.len() {
                let (a, z) = p.spans[next_span];
                next_span += 1;
                ptr_rows.push((b * t + i) as u32);
                starts.push(a as u32);
                ends.push(z as u32);
                input_span = Some((a, z));
            }
        }
    }
    let bsz = batch.len();
    let inputs = Tensor::from_vec(inputs, (bsz, t), dev)?;
    let span_words = Tensor::from_vec(span_words, (bsz, t, 2), dev)?;
    let span_mask = Tensor::from_vec(span_mask, (bsz, t, 1), dev)?;
    let out = parser.net.decode_train(&enc, &inputs, &span_words, &span_mask, Some(dropout))?;
    let _ = targets;
    let v = parser.out.len();
    let tok_rows = Tensor::new(tok_rows.as_slice(), dev)?;
    let logits = out.logits.reshape((bsz * t, v))?.index_select(&tok_rows, 0)?;
    let mut loss = smoothed_cross_entropy(&logits, &Tensor::new(tok_targets.as_slice(), dev)?, opts.label_smoothing)?;
    if !ptr_rows.is_empty() {
        let ptr_rows = Tensor::new(ptr_rows.as_slice(), dev)?;
        let start = out.start.reshape((bsz * t, s))?.index_select(&ptr_rows, 0)?;
        let end = out.end.reshape((bsz * t, s))?.index_select(&ptr_rows, 0)?;
        loss = (loss + candle_nn::loss::cross_entropy(&start, &Tensor::new(starts.as_slice(), dev)?)?)?;
        loss = (loss + candle_nn::loss::cross_entropy(&end, &Tensor::new(ends.as_slice(), dev)?)?)?;
    }
    Ok(loss)
}

/// Cross-entropy of `logits` (rows × classes) against `targets`, with a share `eps` of each
/// target spread evenly over all classes: `(1 - eps) · nll + eps · mean over classes of -log p`.
/// `eps = 0` is candle's own cross-entropy, so runs without smoothing compute exactly what they did.
fn smoothed_cross_entropy(logits: &Tensor, targets: &Tensor, eps: f32) -> Result<Tensor> {
    let nll = candle_nn::loss::cross_entropy(logits, targets)?;
    if eps == 0.0 {
        return Ok(nll);
    }
    let spread = candle_nn::ops::log_softmax(logits, candle_core::D::Minus1)?.mean_all()?.neg()?;
    Ok(((nll * (1.0 - eps as f64))? + (spread * eps as f64)?)?)
}

/// Everything a training run derives from the training examples before the first step.
struct Vocabularies {
    words: WordVocab,
    out: OutVocab,
    grammar: Grammar,
    cfg: Config,
    prepared: Vec<Prepared>,
}

/// Builds vocabularies, grammar and network sizes, and turns every usable example into ids.
fn prepare(train: &[Example], opts: &Options) -> Result<Vocabularies> {
    let (words, out, grammar, kept) = build_vocab(train, opts)?;
    let cfg = Config {
        d_model: opts.d_model,
        heads: opts.heads,
        d_ff: opts.d_ff,
        encoder_layers: opts.encoder_layers,
        decoder_layers: opts.decoder_layers,
        word_vocab: words.size,
        trigram_buckets: opts.trigram_buckets,
        out_vocab: out.len(),
        max_words: MAX_WORDS,
        max_tokens: MAX_TOKENS,
        word_features: 0,
    };
    let prepared = to_ids(kept, &out);
    Ok(Vocabularies { words, out, grammar, cfg, prepared })
}

/// Vocabularies, sizes and grammar of an existing model directory, for fine-tuning it. New words
/// are fine (they become `[UNK]` plus their trigrams); output tokens the model lacks (a new value
/// such as `COUNT` that only the templates use) are appended to its output vocabulary, after the
/// old ids, so [`load_grown`] can keep every trained row. The grammar learns the new forms' shapes.
fn prepare_from(dir: &Path, train: &[Example], opts: &Options) -> Result<Vocabularies> {
    let read = |name: &str| {
        let path = dir.join(name);
        std::fs::read(&path).map_err(|source| ParserError::Io { path, source })
    };
    let meta: ModelMeta = serde_json::from_slice(&read(CONFIG_FILE)?)?;
    let words = WordVocab::from_bytes(&read(TOKENIZER_FILE)?)?;
    let mut grammar = meta.grammar;
    // A network that writes a style first must keep being taught to, and one that never did
    // cannot start in the middle of its life.
    if grammar.styles.is_empty() != opts.styles.is_none() {
        return Err(ParserError::Data(format!(
            "{} was trained {} styles: fine-tune it {} --styles",
            dir.display(),
            if grammar.styles.is_empty() { "without" } else { "with" },
            if grammar.styles.is_empty() { "without" } else { "with" },
        )));
    }
    let mut kept = Vec::new();
    let mut new_tokens = BTreeSet::new();
    for ex in train {
        let Some(lin) = usable(ex, opts.styles.as_deref()) else { continue };
        new_tokens.extend(lin.tokens.iter().filter(|t| !meta.out_tokens.contains(t)).cloned());
        grammar.observe(&ex.json);
        observe_style(&mut grammar, &lin);
        kept.push((ex.words.clone(), lin));
    }
    if !new_tokens.is_empty() {
        tracing::info!(tokens = ?new_tokens, "output vocabulary grows");
    }
    let mut tokens = meta.out_tokens;
    tokens.extend(new_tokens);
    let out = OutVocab::new(tokens);
    let cfg = Config { out_vocab: out.len(), ..meta.model };
    let prepared = to_ids(kept, &out);
    Ok(Vocabularies { words, out, grammar, cfg, prepared })
}

/// Loads saved weights into `varmap`, whose output-token tables may have more rows than the saved
/// ones (see [`prepare_from`]): the saved rows are kept, the new rows keep their fresh
/// initialisation, and new output biases start at the mean of the trained ones (neither favoured
/// nor ruled out). Saved weights of another float type (a half-size model, see
/// [`half`](super::half)) are widened to the variables' own.
fn load_grown(varmap: &VarMap, path: &Path, device: &Device) -> Result<()> {
    let saved = candle_core::safetensors::load(path, device)?;
    let data = varmap.data().lock().map_err(|_| ParserError::Data("variable map poisoned".into()))?;
    for (name, var) in data.iter() {
        let Some(old) = saved.get(name) else {
            if name.starts_with("feat_proj") {
                // Pretrained features added to a model trained without them: they start at zero.
                continue;
            }
            return Err(ParserError::Data(format!("{}: no weights named {name}", path.display())));
        };
        let old = &old.to_dtype(var.dtype())?;
        let (new_dims, old_dims) = (var.dims(), old.dims());
        if new_dims == old_dims {
            var.set(old)?;
            continue;
        }
        let grows = new_dims.len() == old_dims.len() && new_dims[0] > old_dims[0] && new_dims[1..] == old_dims[1..];
        if !grows {
            return Err(ParserError::Data(format!(
                "{}: {name} is {old_dims:?}, the model needs {new_dims:?}",
                path.display()
            )));
        }
        let extra = var.as_tensor().narrow(0, old_dims[0], new_dims[0] - old_dims[0])?;
        let extra = if new_dims.len() == 1 { extra.zeros_like()?.broadcast_add(&old.mean_all()?)? } else { extra };
        var.set(&Tensor::cat(&[old, &extra], 0)?)?;
    }
    Ok(())
}

fn to_ids(kept: Kept, out: &OutVocab) -> Vec<Prepared> {
    kept.into_iter()
        .map(|(w, lin)| Prepared {
            words: w,
            tokens: lin.tokens.iter().map(|t| out.id(t).unwrap_or(0)).collect(),
            spans: lin.spans.iter().map(|s| (s.start, s.end)).collect(),
        })
        .collect()
}

/// Writes the three model files.
pub fn save_model(parser: &NeuralParser, varmap: &VarMap, dir: &Path) -> Result<()> {
    let meta = ModelMeta {
        model: parser.net.cfg.clone(),
        out_tokens: parser.out.tokens.clone(),
        grammar: parser.grammar.clone(),
    };
    save_meta(&meta, &parser.words, dir)?;
    write_together(dir, vec![(WEIGHTS_FILE, Box::new(|path| Ok(varmap.save(path)?)))])
}

/// Copies a word-features model's three files next to a saved network.
pub fn copy_features(src: &Path, dst: &Path) -> Result<()> {
    if src == dst {
        return Ok(());
    }
    std::fs::create_dir_all(dst).map_err(|source| ParserError::Io { path: dst.into(), source })?;
    for name in [pretrained::CONFIG_FILE, pretrained::TOKENIZER_FILE, pretrained::WEIGHTS_FILE] {
        let from = src.join(name);
        std::fs::copy(&from, dst.join(name)).map_err(|source| ParserError::Io { path: from.clone(), source })?;
    }
    Ok(())
}

/// Writes `config.json` and `tokenizer.json`: a model directory but for its weights.
fn save_meta(meta: &ModelMeta, words: &WordVocab, dir: &Path) -> Result<()> {
    std::fs::create_dir_all(dir).map_err(|source| ParserError::Io { path: dir.into(), source })?;
    write_file(&dir.join(CONFIG_FILE), serde_json::to_string(meta)?.as_bytes())?;
    write_file(&dir.join(TOKENIZER_FILE), words.to_json()?.as_bytes())
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

/// A new run (from scratch or fine-tuning) into a directory that holds a run's checkpoint would
/// overwrite it at its first epoch: hours of training lost to a forgotten `--resume`. Refused with
/// what to do instead.
fn refuse_to_overwrite_a_checkpoint(out: Option<&Path>, start: Start) -> Result<()> {
    let Some(dir) = out else { return Ok(()) };
    let path = dir.join(CHECKPOINT_STATE);
    if matches!(start, Start::Resume) || !path.exists() {
        return Ok(());
    }
    let state = std::fs::read_to_string(&path).ok().and_then(|text| serde_json::from_str::<Checkpoint>(&text).ok());
    let trained = match state {
        Some(state) if state.planned_epochs > 0 => {
            format!(" ({} of {} epochs trained)", state.epoch, state.planned_epochs)
        }
        Some(state) => format!(" ({} epochs trained)", state.epoch),
        None => String::new(),
    };
    Err(ParserError::Data(format!(
        "{} holds the checkpoint of another run{trained}: --resume continues it; to train a new run there, \
         delete {} first, or choose another --out",
        dir.display(),
        path.display()
    )))
}

/// Writes one checkpoint file to the path it is given.
type Writer<'a> = Box<dyn FnOnce(&Path) -> Result<()> + 'a>;

fn write_file(path: &Path, bytes: &[u8]) -> Result<()> {
    std::fs::write(path, bytes).map_err(|source| ParserError::Io { path: path.into(), source })
}

/// Writes a checkpoint's files so that a run stopped at any moment (Ctrl-C, a closed laptop, a
/// full disk) leaves a whole checkpoint to resume from, this epoch's or the last one's: every file
/// is written under a `.partial` name first, and only when all are written are they renamed over
/// the old ones, the state that names the epoch last.
fn write_together(dir: &Path, files: Vec<(&str, Writer)>) -> Result<()> {
    let partial = |name: &str| dir.join(format!("{name}.partial"));
    let names: Vec<&str> = files.iter().map(|(name, _)| *name).collect();
    for (name, write) in files {
        write(&partial(name))?;
    }
    for name in names {
        let to = dir.join(name);
        std::fs::rename(partial(name), &to).map_err(|source| ParserError::Io { path: to, source })?;
    }
    Ok(())
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
    if !(0.0..1.0).contains(&opts.label_smoothing) {
        let eps = opts.label_smoothing;
        return Err(ParserError::Data(format!("label smoothing must be in [0, 1), not {eps}")));
    }
    let device = crate::parser::model::default_device();
    let Vocabularies { words, out: out_vocab, grammar, mut cfg, prepared } = match start {
        Start::From(dir) => prepare_from(dir, train, opts)?,
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
    let mut tuned = match (opts.tune_features, &features_dir) {
        (None, _) => None,
        (Some(_), None) => {
            return Err(ParserError::Data(
                "tuning word features needs a features model (--features, or a model trained with one)".into(),
            ));
        }
        (Some(_), Some(_)) if opts.ema.is_some() => {
            return Err(ParserError::Data("tuned word features and a weight average do not go together".into()));
        }
        (Some(lr), Some(dir)) => Some(TunedFeatures::new(Unpacked::load_dir(dir, &device)?, lr)?),
    };
    // Frozen features never change, so each sentence's are computed once; tuned ones every step.
    let feature_cache = match &tuned {
        None => features.as_ref().map(|f| feature_cache(f, &prepared, opts.progress)).transpose()?,
        Some(_) => None,
    };
    // The features model is copied beside the network once. Tuned, it is rewritten at each save,
    // and a resumed run keeps the best epoch's beside the best network until it beats them.
    let resuming_tuned = tuned.is_some() && matches!(start, Start::Resume);
    if let (Some(src), Some(dir), false) = (&features_dir, out, resuming_tuned) {
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
    // Validation between epochs decodes greedily in the most probable style: fast, and the same
    // for every epoch, so epochs compare fairly.
    let mut parser = NeuralParser {
        net,
        words,
        partners: Vec::new(),
        out: out_vocab,
        grammar,
        features,
        device,
        beam_width: 1,
        styles_decoded: 1,
    };

    let mut report = TrainReport { train_examples: prepared.len(), valid_examples: valid.len(), ..Default::default() };
    let mut state = Checkpoint {
        epoch: 0,
        best_valid_exact: -1.0,
        best_epoch: 0,
        bad_epochs: 0,
        epoch_losses: vec![],
        epoch_valid: vec![],
        epoch_valid_trained: vec![],
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
        if let (Some(tuned), true) = (&mut tuned, ckpt_path(FEATURES_CHECKPOINT).exists()) {
            let optimizer = ckpt_path(FEATURES_OPTIMIZER);
            tuned
                .load_checkpoint(&ckpt_path(FEATURES_CHECKPOINT), optimizer.exists().then_some(optimizer.as_path()))?;
            parser.features = Some(tuned.word_features(&parser.device)?);
        }
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
    let mut average = opts.ema.map(|decay| WeightAverage::new(&varmap, decay, step as u64)).transpose()?;
    if let (Some(average), true) = (&mut average, resume && ckpt_path(AVERAGE_WEIGHTS).exists()) {
        average.load(&ckpt_path(AVERAGE_WEIGHTS))?;
    }
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
            let feats = match (&tuned, &parser.features) {
                (Some(tuned), Some(features)) => {
                    let rows: Vec<&[String]> = batch.iter().map(|p| p.words.as_slice()).collect();
                    Some(tuned.forward(&features.pieces(&rows)?)?)
                }
                _ => feature_cache.as_deref().map(|c| batch_features(c, chunk, &parser.device)).transpose()?,
            };
            let loss = batch_loss(&parser, &batch, feats.as_ref(), &dropout, opts)?;
            let grads = loss.backward()?;
            opt.step(&grads)?;
            if let Some(tuned) = &mut tuned {
                tuned.step(&grads, lr / opts.lr)?;
            }
            if let Some(average) = &mut average {
                average.update()?;
            }
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
        // Validation reads the features as they are now, packed as parse time reads them.
        if let Some(tuned) = &mut tuned {
            parser.features = Some(tuned.word_features(&parser.device)?);
        }
        let validate = || -> Result<f64> {
            Ok(if valid_set.is_empty() { 0.0 } else { eval::evaluate(&parser, valid_set).overall.percent() })
        };
        // With averaging, the averaged weights are the ones scored and kept; the trained ones are
        // scored too, so a run shows what the average bought.
        let trained_score = validate()?;
        let score = match &average {
            Some(average) => average.with_averaged(validate)?,
            None => trained_score,
        };
        state.epoch_valid.push(score);
        if average.is_some() {
            state.epoch_valid_trained.push(trained_score);
        }
        // Without validation rows every epoch counts as the best so far: the last one is kept.
        let improved = valid_set.is_empty() || score > state.best_valid_exact;
        if improved {
            state.best_valid_exact = score;
            state.best_epoch = epoch + 1;
            state.bad_epochs = 0;
            if let Some(dir) = out {
                match &average {
                    Some(average) => average.with_averaged(|| save_model(&parser, &varmap, dir))?,
                    None => save_model(&parser, &varmap, dir)?,
                }
                if let Some(tuned) = &mut tuned {
                    tuned.save_packed(&dir.join(FEATURES_DIR))?;
                }
            }
        } else {
            state.bad_epochs += 1;
        }
        state.epoch = epoch + 1;
        if opts.progress {
            let trained = if average.is_some() {
                format!(" (averaged weights; the trained ones {trained_score:.2}%)")
            } else {
                String::new()
            };
            eprintln!(
                "epoch {}/{}: loss {mean:.4}, validation exact match {score:.2}%{trained}{} [{:.0}s]",
                epoch + 1,
                opts.epochs,
                if improved { " (best, saved)" } else { "" },
                started.elapsed().as_secs_f64()
            );
        }
        if let Some(dir) = out {
            let mut files: Vec<(&str, Writer)> = vec![
                (CHECKPOINT_WEIGHTS, Box::new(|path| Ok(varmap.save(path)?))),
                (OPTIMIZER_STATE, Box::new(|path| opt.save(path))),
            ];
            if let Some(average) = &average {
                files.push((AVERAGE_WEIGHTS, Box::new(|path| average.save(path))));
            }
            if let Some(tuned) = &tuned {
                files.push((FEATURES_CHECKPOINT, Box::new(|path| tuned.save_layers(path))));
                files.push((FEATURES_OPTIMIZER, Box::new(|path| tuned.save_optimizer(path))));
            }
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
    report.epoch_valid_trained = state.epoch_valid_trained;
    report.seconds = started.elapsed().as_secs_f64();
    Ok((parser, report))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn smoothed_cross_entropy_spreads_a_share_of_the_target_over_every_class() {
        let logits = Tensor::new(&[[1f32, 2.0, 3.0]], &Device::Cpu).unwrap();
        let targets = Tensor::new(&[2u32], &Device::Cpu).unwrap();
        let loss = |eps| smoothed_cross_entropy(&logits, &targets, eps).unwrap().to_scalar::<f32>().unwrap();
        // log-softmax of (1, 2, 3): -2.4076, -1.4076, -0.4076.
        assert!((loss(0.0) - 0.407_606).abs() < 1e-5, "{}", loss(0.0));
        let plain = candle_nn::loss::cross_entropy(&logits, &targets).unwrap().to_scalar::<f32>().unwrap();
        assert_eq!(loss(0.0), plain);
        // 0.9 · 0.4076 + 0.1 · (2.4076 + 1.4076 + 0.4076) / 3
        assert!((loss(0.1) - 0.507_606).abs() < 1e-5, "{}", loss(0.1));
    }

    fn checkpoint(epoch: usize, planned_epochs: usize, planned_lr: f64) -> Checkpoint {
        Checkpoint {
            epoch,
            best_valid_exact: 50.0,
            best_epoch: epoch,
            bad_epochs: 0,
            epoch_losses: vec![0.1; epoch],
            epoch_valid: vec![],
            epoch_valid_trained: vec![],
            planned_epochs,
            planned_lr,
            settings: None,
        }
    }

    #[test]
    fn a_resumed_run_names_the_settings_it_changes_but_not_the_free_ones() {
        let saved = serde_json::to_value(Options { seed: 42, ..Default::default() }).unwrap();
        let same =
            Options { seed: 42, epochs: 60, lr: 3e-4, patience: 100, pause_after: Some(30), ..Default::default() };
        assert!(changed_settings(&saved, &serde_json::to_value(same).unwrap()).is_empty());
        let other = Options { seed: 13, dropout: 0.2, tune_features: Some(3e-5), ..Default::default() };
        let changed = changed_settings(&saved, &serde_json::to_value(other).unwrap());
        assert_eq!(changed.len(), 3, "{changed:?}");
        assert!(changed.contains(&"seed 42 → 13".to_string()), "{changed:?}");
        assert!(changed.contains(&"dropout 0.1 → 0.2".to_string()), "{changed:?}");
        assert!(changed.iter().any(|c| c.starts_with("tune_features null → ")), "{changed:?}");
        // A setting the checkpoint's version lacked is not a change.
        let mut old = saved.clone();
        old.as_object_mut().unwrap().remove("tune_features");
        let changed = changed_settings(
            &old,
            &serde_json::to_value(Options { tune_features: Some(3e-5), ..Default::default() }).unwrap(),
        );
        assert!(changed.is_empty(), "{changed:?}");
    }

    #[test]
    fn the_schedule_warms_up_to_its_peak_then_decays_to_a_tenth() {
        let s = Schedule::new(1e-3, 100, 10);
        assert_eq!(s.warmup, 50);
        assert!((s.lr(0) - 1e-3 / 50.0).abs() < 1e-12);
        assert!((s.lr(49) - 1e-3).abs() < 1e-12);
        assert!((s.lr(999) - 1e-4).abs() < 1e-6);
        let rates: Vec<f64> = (50..1000).map(|step| s.lr(step)).collect();
        assert!(rates.windows(2).all(|w| w[1] <= w[0]));
        // Steps past the plan stay at the floor rather than going negative.
        assert_eq!(s.lr(5000), 1e-4);
    }

    #[test]
    fn a_resumed_run_is_told_when_its_schedule_moves() {
        // The same plan, or a checkpoint from before plans were kept: nothing to say.
        assert_eq!(resume_note(&checkpoint(20, 40, 1e-3), 40, 1e-3, 247), None);
        assert_eq!(resume_note(&checkpoint(20, 0, 0.0), 40, 1e-3, 247), None);
        // Twenty epochs planned, forty asked: the decayed rate rises again at epoch 21.
        let note = resume_note(&checkpoint(20, 20, 1e-3), 40, 1e-3, 247).unwrap();
        assert!(note.contains("planned for 20 epochs") && note.contains("goes on for 40"), "{note}");
        assert!(
            note.contains("1.00e-4 to 5.56e-4") && note.contains("epoch 21") && note.contains("warm restart"),
            "{note}"
        );
        // A lower peak on the same plan lowers the rate: no restart.
        let note = resume_note(&checkpoint(10, 20, 1e-3), 20, 1e-4, 247).unwrap();
        assert!(!note.contains("warm restart"), "{note}");
        // A plan changed where the rate happens not to move (the end of the warm-up).
        let note = resume_note(&checkpoint(1, 1, 1e-3), 3, 1e-3, 1).unwrap();
        assert!(note.contains("planned for 1 epoch at") && note.contains("rest of its"), "{note}");
        // Every asked-for epoch already ran.
        let note = resume_note(&checkpoint(20, 20, 1e-3), 20, 1e-3, 247).unwrap();
        assert!(note.contains("nothing left to train"), "{note}");
    }
}
