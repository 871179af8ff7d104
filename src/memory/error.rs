//! Everything that can go wrong with the memory, as messages a person can act on.
//!
//! Opening a file is where most real failures happen (a damaged file, a file from a newer
//! craftmate, something that is not a memory file at all, a log that belongs elsewhere), so those
//! cases get their own variants and always name the path. None of them ever replaces or rewrites
//! the file, and "left untouched" is only said when that was checked (see [`Untouched`]).

use std::path::PathBuf;

use super::types::MemoryId;

/// Whether a refused file and its logs were found as they were before the checks (size and
/// modification time). Another program may write a file while it is being looked at.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Untouched {
    Yes,
    ChangedMeanwhile,
}

impl std::fmt::Display for Untouched {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Untouched::Yes => "it was left untouched",
            Untouched::ChangedMeanwhile => {
                "it changed while it was being checked (another program is writing it?), and craftmate wrote nothing to it"
            }
        })
    }
}

#[derive(Debug, thiserror::Error)]
pub enum MemoryError {
    #[error("the memory file {path} is damaged or is not a database ({detail}); {untouched}")]
    Corrupt { path: PathBuf, detail: String, untouched: Untouched },

    #[error("{path} is not a craftmate memory file (it is an SQLite database of another program); {untouched}")]
    Foreign { path: PathBuf, untouched: Untouched },

    #[error(
        "the memory file {path} has schema version {found}, newer than this craftmate understands (up to {supported}); \
         update craftmate or use another file — {untouched}"
    )]
    TooNew { path: PathBuf, found: u32, supported: u32, untouched: Untouched },

    #[error("the memory file {path} does not have the tables its version names ({detail}); {untouched}")]
    SchemaMismatch { path: PathBuf, detail: String, untouched: Untouched },

    #[error(
        "the log {log} beside the memory file {path} does not belong to it (applied to a copy, it makes {detail}); \
         {untouched} — move the log away if the file alone is what you want"
    )]
    ForeignLog { path: PathBuf, log: PathBuf, detail: String, untouched: Untouched },

    #[error(
        "the log {log} lies beside {path}, but the memory file itself is missing or empty; \
         the log was left untouched — put its database back, or move the log away to start a new memory"
    )]
    LogWithoutDatabase { path: PathBuf, log: PathBuf },

    #[error("the memory file {path} cannot be written ({detail}); nothing the bot learns could be kept — fix its permissions or use another file")]
    ReadOnly { path: PathBuf, detail: String },

    #[error(
        "the folder {folder} of the memory file {path} cannot be written ({detail}); SQLite keeps its log beside \
         the file — make the folder writable or use a file elsewhere"
    )]
    FolderReadOnly { path: PathBuf, folder: PathBuf, detail: String },

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

impl MemoryError {
    /// The same error, saying the file changed during the checks when `untouched` is false.
    pub(crate) fn with_untouched(mut self, untouched: bool) -> MemoryError {
        if !untouched {
            if let MemoryError::Corrupt { untouched, .. }
            | MemoryError::Foreign { untouched, .. }
            | MemoryError::TooNew { untouched, .. }
            | MemoryError::SchemaMismatch { untouched, .. }
            | MemoryError::ForeignLog { untouched, .. } = &mut self
            {
                *untouched = Untouched::ChangedMeanwhile;
            }
        }
        self
    }
}

pub type Result<T, E = MemoryError> = std::result::Result<T, E>;
