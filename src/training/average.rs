//! Weight averaging ("model soup"): the element-wise mean of several fine-tuned versions of one
//! model, written as a new model directory.
//!
//! Runs fine-tuned from the same weights stay in one basin of the loss, so the mean of their
//! weights is itself a good model and often a better one than each run: it smooths out the luck of
//! any single run's data order and template sample (Wortsman et al., 2022, "Model soups"). Only
//! models that share sizes, output tokens and word vocabulary can be averaged; the decoding grammar
//! of the result is the union of theirs, so no form any of them could write is lost.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use candle_core::{DType, Device, Tensor};

use crate::parser::{CONFIG_FILE, FEATURES_DIR, ModelMeta, ParserError, Result, TOKENIZER_FILE, WEIGHTS_FILE};
use crate::training::save::copy_features;

/// The bytes of file `name` in model directory `dir`; an error names the path.
pub(crate) fn read(dir: &Path, name: &str) -> Result<Vec<u8>> {
    let path = dir.join(name);
    std::fs::read(&path).map_err(|source| ParserError::Io { path, source })
}

/// Averages the weights of the models in `dirs` (two or more) into `out`. The first model's
/// `tokenizer.json` (and `features/`, for networks trained with pretrained word features) is
/// copied; every model must have the same tokenizer, features, sizes and output tokens.
pub fn average_models(dirs: &[PathBuf], out: &Path) -> Result<()> {
    let [first, rest @ ..] = dirs else {
        return Err(ParserError::Data("no models to average".into()));
    };
    if rest.is_empty() {
        return Err(ParserError::Data("averaging needs at least two models".into()));
    }
    let mut meta: ModelMeta = serde_json::from_slice(&read(first, CONFIG_FILE)?)?;
    let tokenizer = read(first, TOKENIZER_FILE)?;
    let mut sum = load_f32(&first.join(WEIGHTS_FILE))?;
    let features =
        if meta.model.word_features > 0 { Some(read(&first.join(FEATURES_DIR), WEIGHTS_FILE)?) } else { None };
    for dir in rest {
        let other: ModelMeta = serde_json::from_slice(&read(dir, CONFIG_FILE)?)?;
        let mismatch = |what: &str| {
            ParserError::Data(format!(
                "{} and {} differ in their {what}: only versions of one model can be averaged",
                first.display(),
                dir.display()
            ))
        };
        if serde_json::to_value(&other.model)? != serde_json::to_value(&meta.model)? {
            return Err(mismatch("sizes"));
        }
        if other.out_tokens != meta.out_tokens {
            return Err(mismatch("output tokens"));
        }
        if read(dir, TOKENIZER_FILE)? != tokenizer {
            return Err(mismatch("word vocabulary"));
        }
        if let Some(features) = &features
            && read(&dir.join(FEATURES_DIR), WEIGHTS_FILE)? != *features
        {
            return Err(mismatch("pretrained word features"));
        }
        meta.grammar.merge(&other.grammar);
        let weights = load_f32(&dir.join(WEIGHTS_FILE))?;
        add_into(&mut sum, weights).map_err(|name| mismatch(&format!("tensor {name}")))?;
    }
    let n = dirs.len() as f64;
    let mean = sum.into_iter().map(|(name, t)| Ok((name, (t / n)?))).collect::<Result<HashMap<_, _>>>()?;
    std::fs::create_dir_all(out).map_err(|source| ParserError::Io { path: out.into(), source })?;
    let write = |name: &str, bytes: &[u8]| {
        let path = out.join(name);
        std::fs::write(&path, bytes).map_err(|source| ParserError::Io { path, source })
    };
    write(CONFIG_FILE, serde_json::to_string(&meta)?.as_bytes())?;
    write(TOKENIZER_FILE, &tokenizer)?;
    if features.is_some() {
        copy_features(&first.join(FEATURES_DIR), &out.join(FEATURES_DIR))?;
    }
    candle_core::safetensors::save(&mean, out.join(WEIGHTS_FILE))?;
    Ok(())
}

/// A network's weights in f32, whatever float type they were saved in (half-size models are f16),
/// so the mean is taken at full precision.
fn load_f32(path: &Path) -> Result<HashMap<String, Tensor>> {
    candle_core::safetensors::load(path, &Device::Cpu)?
        .into_iter()
        .map(|(name, t)| Ok((name, t.to_dtype(DType::F32)?)))
        .collect()
}

/// Adds `weights` into `sum` tensor by tensor; `Err(name)` for a tensor one side lacks or whose
/// shape differs.
fn add_into(sum: &mut HashMap<String, Tensor>, weights: HashMap<String, Tensor>) -> std::result::Result<(), String> {
    if weights.len() != sum.len() {
        let missing =
            sum.keys().find(|k| !weights.contains_key(*k)).or_else(|| weights.keys().find(|k| !sum.contains_key(*k)));
        return Err(missing.cloned().unwrap_or_default());
    }
    for (name, t) in weights {
        let acc = sum.get_mut(&name).ok_or_else(|| name.clone())?;
        if acc.shape() != t.shape() {
            return Err(name);
        }
        *acc = (&*acc + &t).map_err(|_| name.clone())?;
    }
    Ok(())
}
