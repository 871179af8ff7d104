//! Writing a new model directory (an ensemble, a half-size copy, a run's last epoch): refuse
//! one that already holds files, and never leave behind one that would not load.
//!
//! These commands write a model that may later replace the shipped one, so each ends by loading
//! what it wrote, exactly as `eval-parser --model` would. Whatever fails on the way, the
//! half-written directory is removed: a model directory that exists is one that loads.

use std::path::Path;

use crate::parser::{NeuralParser, ParserError, Result};

/// An error unless `out` is missing or empty; `what` names the model for the message. This also
/// refuses `out` = the source directory, whose files would be overwritten.
pub fn ensure_new(out: &Path, what: &str) -> Result<()> {
    if out.exists() && std::fs::read_dir(out).map_err(ParserError::io(out))?.next().is_some() {
        return Err(ParserError::Data(format!("{} already exists: write {what} to a new directory", out.display())));
    }
    Ok(())
}

/// Runs `write`, which fills `out`, then loads `out` as a parser; on any error `out` is removed.
pub fn write_checked<T>(out: &Path, write: impl FnOnce() -> Result<T>) -> Result<T> {
    let result = write().and_then(|done| NeuralParser::load_dir(out).map(|_| done));
    if result.is_err() {
        let _ = std::fs::remove_dir_all(out);
    }
    result
}
