//! Writing a trained network as a model directory (`config.json`, `tokenizer.json`,
//! `model.safetensors`, and `features/` when it reads pretrained word features).

use std::path::Path;

use candle_nn::VarMap;

use super::checkpoint::{write_file, write_together};
use crate::parser::pretrained;
use crate::parser::vocab::WordVocab;
use crate::parser::{CONFIG_FILE, ModelMeta, NeuralParser, ParserError, Result, TOKENIZER_FILE, WEIGHTS_FILE};

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
pub(crate) fn save_meta(meta: &ModelMeta, words: &WordVocab, dir: &Path) -> Result<()> {
    std::fs::create_dir_all(dir).map_err(|source| ParserError::Io { path: dir.into(), source })?;
    write_file(&dir.join(CONFIG_FILE), serde_json::to_string(meta)?.as_bytes())?;
    write_file(&dir.join(TOKENIZER_FILE), words.to_json()?.as_bytes())
}

