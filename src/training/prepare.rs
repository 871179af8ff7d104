//! What a training run derives from its examples before the first step: the word and output
//! vocabularies, the grammar, the network's sizes, every usable example as ids, seeded initial
//! weights (or a saved model's, grown to new output tokens), and the frozen word features of
//! every sentence, computed once.

use std::collections::{BTreeSet, HashMap};
use std::path::Path;
use std::time::Instant;

use candle_core::{Device, Tensor};
use candle_nn::VarMap;
use indicatif::{ProgressBar, ProgressStyle};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

use super::data::Example;
use super::trainer::Options;
use crate::parser::grammar::Grammar;
use crate::parser::linearize;
use crate::parser::model::Config;
use crate::parser::pretrained::WordFeatures;
use crate::parser::vocab::{OutVocab, WordVocab};
use crate::parser::{CONFIG_FILE, ModelMeta, ParserError, Result, TOKENIZER_FILE};

const MAX_WORDS: usize = 64;
const MAX_TOKENS: usize = 160;

/// A training example as ids: words, output token ids, and the span of each `<span>` token.
pub(crate) struct Prepared {
    pub(crate) words: Vec<String>,
    pub(crate) tokens: Vec<u32>,
    pub(crate) spans: Vec<(usize, usize)>,
}

/// Words and linearised form of each usable training example.
type Kept = Vec<(Vec<String>, linearize::Linear)>;

/// The linearised form of an example the network can learn: a valid form for its text, not too
/// long, spans inside the text.
fn usable(ex: &Example) -> Option<linearize::Linear> {
    let lf = crate::logical_form::LogicalForm::from_json_value(&ex.json).ok()?;
    crate::logical_form::validate(&ex.words.join(" "), &lf).ok()?;
    let lin = linearize::linearize(&ex.json)?;
    let ok = !ex.words.is_empty()
        && ex.words.len() <= MAX_WORDS
        && lin.tokens.len() + 1 < MAX_TOKENS
        && lin.spans.iter().all(|s| s.start <= s.end && s.end < ex.words.len());
    ok.then_some(lin)
}

/// Vocabularies and grammar from the training forms; examples the scheme cannot express are dropped.
fn build_vocab(train: &[Example], opts: &Options) -> Result<(WordVocab, OutVocab, Grammar, Kept)> {
    let mut counts: HashMap<String, usize> = HashMap::new();
    let mut grammar = Grammar::default();
    let mut tokens = BTreeSet::new();
    let mut kept = Vec::new();
    for ex in train {
        let Some(lin) = usable(ex) else { continue };
        for w in &ex.words {
            *counts.entry(w.clone()).or_default() += 1;
        }
        grammar.observe(&ex.json);
        tokens.extend(lin.tokens.iter().cloned());
        kept.push((ex.words.clone(), lin));
    }
    let words = WordVocab::build(&counts, opts.min_count)?;
    let out = OutVocab::new(tokens.into_iter().collect());
    Ok((words, out, grammar, kept))
}

/// Seeded initialisation of every variable (candle's own initialisers use an unseeded RNG).
pub(crate) fn initialise(varmap: &VarMap, seed: u64, device: &Device) -> Result<()> {
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
pub(crate) fn batch_features(cache: &[Tensor], batch: &[usize], device: &Device) -> Result<Tensor> {
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
pub(crate) fn feature_cache(features: &WordFeatures, prepared: &[Prepared], progress: bool) -> Result<Vec<Tensor>> {
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

/// Everything a training run derives from the training examples before the first step.
pub(crate) struct Vocabularies {
    pub(crate) words: WordVocab,
    pub(crate) out: OutVocab,
    pub(crate) grammar: Grammar,
    pub(crate) cfg: Config,
    pub(crate) prepared: Vec<Prepared>,
}

/// Builds vocabularies, grammar and network sizes, and turns every usable example into ids.
pub(crate) fn prepare(train: &[Example], opts: &Options) -> Result<Vocabularies> {
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
pub(crate) fn prepare_from(dir: &Path, train: &[Example]) -> Result<Vocabularies> {
    let read = |name: &str| {
        let path = dir.join(name);
        std::fs::read(&path).map_err(|source| ParserError::Io { path, source })
    };
    let meta: ModelMeta = serde_json::from_slice(&read(CONFIG_FILE)?)?;
    let words = WordVocab::from_bytes(&read(TOKENIZER_FILE)?)?;
    let mut grammar = meta.grammar;
    let mut kept = Vec::new();
    let mut new_tokens = BTreeSet::new();
    for ex in train {
        let Some(lin) = usable(ex) else { continue };
        new_tokens.extend(lin.tokens.iter().filter(|t| !meta.out_tokens.contains(t)).cloned());
        grammar.observe(&ex.json);
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
pub(crate) fn load_grown(varmap: &VarMap, path: &Path, device: &Device) -> Result<()> {
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

