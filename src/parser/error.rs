//! Errors of the parser library: loading a model, running the network, reading training files.
//! The CLI turns them into `anyhow` reports; parsing itself never fails (it falls back to NOOP).

use std::path::{Path, PathBuf};

/// Everything that can go wrong while loading or training a parser.
#[derive(Debug, thiserror::Error)]
pub enum ParserError {
    #[error("tensor operation failed: {0}")]
    Candle(#[from] candle_core::Error),
    #[error("tokenizer: {0}")]
    Tokenizer(String),
    #[error("reading {path}: {source}")]
    Io { path: PathBuf, source: std::io::Error },
    #[error("model config: {0}")]
    Config(#[from] serde_json::Error),
    #[error("data: {0}")]
    Data(String),
}

impl ParserError {
    /// Turns an I/O error on `path` into [`ParserError::Io`] (for `map_err`).
    pub fn io(path: &Path) -> impl FnOnce(std::io::Error) -> ParserError + '_ {
        move |source| ParserError::Io { path: path.into(), source }
    }
}

pub type Result<T> = std::result::Result<T, ParserError>;
