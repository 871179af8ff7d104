//! Everything that can go wrong with the memory, as messages a person can act on.
//!
//! Opening a file is where most real failures happen (a damaged file, a file from a newer
//! craftmate, something that is not a memory file at all), so those cases get their own variants
//! and always name the path. None of them ever replaces or rewrites the file.

use std::path::PathBuf;

use super::types::MemoryId;

#[derive(Debug, thiserror::Error)]
pub enum MemoryError {
    #[error("the memory file {path} is damaged or is not a database ({detail}); it was left untouched")]
    Corrupt { path: PathBuf, detail: String },

    #[error("{path} is not a craftmate memory file (it is an SQLite database of another program); it was left untouched")]
    Foreign { path: PathBuf },

    #[error(
        "the memory file {path} has schema version {found}, newer than this craftmate understands (up to {supported}); \
         update craftmate or use another file — it was left untouched"
    )]
    TooNew { path: PathBuf, found: u32, supported: u32 },

    #[error("the memory file {path} cannot be written ({detail}); nothing the bot learns could be kept — fix its permissions or use another file")]
    ReadOnly { path: PathBuf, detail: String },

    #[error("migrating the memory file {path} from schema version {from} failed ({detail}); the file was left as it was")]
    Migration { path: PathBuf, from: u32, detail: String },

    #[error("there is no memory with id {0}")]
    NotFound(MemoryId),

    #[error("memory {id} is a {actual}, not a {expected}")]
    WrongKind { id: MemoryId, expected: &'static str, actual: String },

    #[error("memory {id} holds data this build cannot read: {detail}")]
    BadData { id: MemoryId, detail: String },

    #[error("invalid request to the memory: {0}")]
    Invalid(String),

    #[error("could not read or write the memory file: {0}")]
    Io(#[from] std::io::Error),

    #[error("database error: {0}")]
    Sqlite(#[from] rusqlite::Error),
}

pub type Result<T, E = MemoryError> = std::result::Result<T, E>;
