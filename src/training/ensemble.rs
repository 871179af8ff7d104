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

use std::path::{Path, PathBuf};

use crate::parser::pretrained;
use crate::parser::{
    CONFIG_FILE, FEATURES_DIR, ModelMeta, PARTNERS_DIR, ParserError, Result, TOKENIZER_FILE, WEIGHTS_FILE,
};
use crate::training::average::read;
use crate::training::model_dir::{ensure_new, write_checked};
use crate::training::save::copy_features;

/// An error unless the members' word-features models are the same files: the partners read the
/// first network's features, computed once per chat line.
fn same_features(base: &Path, other: &Path) -> Result<()> {
    for name in [pretrained::CONFIG_FILE, pretrained::TOKENIZER_FILE, pretrained::WEIGHTS_FILE] {
        if read(base, name)? != read(other, name)? {
            return Err(ParserError::Data(format!(
                "the word features in {} and {} differ in their {name}: ensemble members must read the same \
                 features model",
                base.display(),
                other.display()
            )));
        }
    }
    Ok(())
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
        if features {
            same_features(&first.join(FEATURES_DIR), &dir.join(FEATURES_DIR))?;
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
        }
        Ok(())
    })
}
