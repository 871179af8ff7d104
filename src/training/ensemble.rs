//! Ensembles: several separately trained parser networks written as one model directory, which
//! the parser decodes with all of them voting at every step ([`crate::parser::decode::Ensemble`]).
//!
//! Where [`average`](super::average) merges versions of one run into one network, an ensemble
//! keeps networks from different runs (other seeds) whole: their weights cannot be averaged, but
//! their predictions can, and runs that err differently are right together more often. The cost is
//! one more encoder and decoder per member at parse time (the pretrained word features are shared).
//!
//! Layout: the first model's files and `features/` as they are, its grammar widened by the others',
//! and each further model's `config.json`, `tokenizer.json` and weights in `partners/NN/`.
//! Networks trained with tuned word features (`train --tune-features`) each bring their own
//! features model, tuned from the same one: their word-piece embeddings, most of the bytes, stayed
//! frozen and are the same, so a partner's `features/` keeps only the tensors that differ from the
//! first network's (its layers: 5.4 of the 10.3 MB of MiniLM's three packed layers), and it costs
//! a second features pass at parse time.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use candle_core::{DType, Device, Tensor};

use crate::parser::pretrained;
use crate::parser::{
    CONFIG_FILE, FEATURES_DIR, ModelMeta, PARTNERS_DIR, ParserError, Result, TOKENIZER_FILE, WEIGHTS_FILE,
};
use crate::training::average::read;
use crate::training::model_dir::{ensure_new, write_checked};
use crate::training::trainer::copy_features;

/// The tensors of features model `other` that differ from those of `base`, or `None` when the two
/// are the same file. An error unless they share their configuration, vocabulary and tensor names
/// and shapes: only features tuned from one model can share its unchanged tensors.
fn changed_features(base: &Path, other: &Path) -> Result<Option<HashMap<String, Tensor>>> {
    if read(base, pretrained::WEIGHTS_FILE)? == read(other, pretrained::WEIGHTS_FILE)? {
        return Ok(None);
    }
    let unrelated = |why: &str| {
        ParserError::Data(format!(
            "the word features in {} and {} {why}: ensemble members must read the same features model, or \
             ones tuned from it",
            base.display(),
            other.display()
        ))
    };
    for name in [pretrained::CONFIG_FILE, pretrained::TOKENIZER_FILE] {
        if read(base, name)? != read(other, name)? {
            return Err(unrelated(&format!("differ in their {name}")));
        }
    }
    let load = |dir: &Path| {
        let path = dir.join(pretrained::WEIGHTS_FILE);
        candle_core::safetensors::load(&path, &Device::Cpu)
    };
    let (base, other) = (load(base)?, load(other)?);
    if base.len() != other.len() {
        return Err(unrelated("hold different tensors"));
    }
    let values = |t: &Tensor| t.flatten_all()?.to_dtype(DType::F64)?.to_vec1::<f64>();
    let mut changed = HashMap::new();
    for (name, t) in other {
        let was = base.get(&name).ok_or_else(|| unrelated(&format!("hold different tensors ({name})")))?;
        if was.shape() != t.shape() || was.dtype() != t.dtype() {
            return Err(unrelated(&format!("give {name} different shapes")));
        }
        if values(was)? != values(&t)? {
            changed.insert(name, t);
        }
    }
    Ok(Some(changed))
}

fn write(dir: &Path, name: &str, bytes: &[u8]) -> Result<()> {
    std::fs::create_dir_all(dir).map_err(ParserError::io(dir))?;
    let path = dir.join(name);
    std::fs::write(&path, bytes).map_err(ParserError::io(&path))
}

/// Writes the models in `dirs` (two or more, each a single network) to `out` as one ensemble. They
/// must write the same output tokens and read the same pretrained word features; their sizes and
/// word vocabularies may differ. `out` must be new (or empty): the result is loaded once before this
/// returns and removed if it would not parse, which must never take other files with it.
pub fn ensemble_models(dirs: &[PathBuf], out: &Path) -> Result<()> {
    let [first, rest @ ..] = dirs else {
        return Err(ParserError::Data("no models to put together".into()));
    };
    if rest.is_empty() {
        return Err(ParserError::Data("an ensemble needs at least two models".into()));
    }
    ensure_new(out, "the ensemble")?;
    let mut meta: ModelMeta = serde_json::from_slice(&read(first, CONFIG_FILE)?)?;
    let features = meta.model.word_features > 0;
    for dir in dirs {
        if dir.join(PARTNERS_DIR).exists() {
            return Err(ParserError::Data(format!("{} is already an ensemble", dir.display())));
        }
    }
    for dir in rest {
        let other: ModelMeta = serde_json::from_slice(&read(dir, CONFIG_FILE)?)?;
        let mismatch = |what: &str| {
            ParserError::Data(format!(
                "{} and {} differ in their {what}: ensemble members must share them",
                first.display(),
                dir.display()
            ))
        };
        if other.out_tokens != meta.out_tokens {
            return Err(mismatch("output tokens"));
        }
        if other.model.word_features != meta.model.word_features {
            return Err(mismatch("pretrained word features"));
        }
        if other.model.max_tokens != meta.model.max_tokens {
            return Err(mismatch("longest output"));
        }
        // Only the first model's grammar constrains decoding: widen it by what the others wrote.
        meta.grammar.merge(&other.grammar);
    }
    // Everything is written and then loaded once: a directory that would not parse is removed.
    write_checked(out, || {
        write(out, CONFIG_FILE, serde_json::to_string(&meta)?.as_bytes())?;
        write(out, TOKENIZER_FILE, &read(first, TOKENIZER_FILE)?)?;
        write(out, WEIGHTS_FILE, &read(first, WEIGHTS_FILE)?)?;
        if features {
            copy_features(&first.join(FEATURES_DIR), &out.join(FEATURES_DIR))?;
        }
        for (i, dir) in rest.iter().enumerate() {
            let partner = out.join(PARTNERS_DIR).join(format!("{:02}", i + 1));
            for name in [CONFIG_FILE, TOKENIZER_FILE, WEIGHTS_FILE] {
                write(&partner, name, &read(dir, name)?)?;
            }
            if features && let Some(changed) = changed_features(&first.join(FEATURES_DIR), &dir.join(FEATURES_DIR))? {
                let own = partner.join(FEATURES_DIR);
                std::fs::create_dir_all(&own).map_err(ParserError::io(&own))?;
                candle_core::safetensors::save(&changed, own.join(pretrained::WEIGHTS_FILE))?;
            }
        }
        Ok(())
    })
}
