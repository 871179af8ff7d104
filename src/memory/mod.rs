//! The bot's memory: everything it knows, in one SQLite database, answering every question and
//! resolving every reference ("the blue house", "that", "the tallest tower").
//!
//! Following CraftAssist, facts live in a single triple store where any memory — an object, a
//! chat line, a task, even another triple — can be the subject or object of a triple. Around it,
//! one table per kind of memory holds what that kind needs: reference objects with their position,
//! box and blocks; chats; tasks with their logical forms; schematics.
//!
//! The memory is in RAM by default ([`Memory::in_memory`]); [`Memory::open`] keeps it in a file
//! so a restarted bot still knows its world, with a versioned schema that older files are migrated
//! from and that refuses files it cannot read instead of replacing them.
//!
//! Map: [`store`] (opening, transactions, shared bookkeeping), `file` (checking a file before it is opened), `cache` (recent lookups), [`migrate`], [`objects`],
//! [`triples`], [`builds`] (what a build makes keeps its name), [`chats`], [`retention`] (how much history is kept), [`tasks`], [`schematics`], [`query`] (filters → answers), [`types`],
//! [`error`]. `schema.sql` is the current schema; `schema_v1.sql` the first one.

pub mod builds;
pub(crate) mod cache;
pub mod chats;
pub mod error;
pub(crate) mod file;
pub mod learned;
pub mod migrate;
pub mod objects;
pub mod query;
pub mod retention;
pub mod schematics;
pub mod store;
pub mod tasks;
pub mod triples;
pub mod types;

#[cfg(test)]
pub(crate) mod fixture;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod file_tests;

/// The current schema (version [`store::SCHEMA_VERSION`]).
pub const SCHEMA_SQL: &str = include_str!("schema.sql");
/// The first schema, kept to build version-1 files in migration tests.
pub const SCHEMA_V1_SQL: &str = include_str!("schema_v1.sql");

pub use builds::Made;
pub use chats::ChatRecord;
pub use error::MemoryError;
pub use objects::{BlockObject, EntitySighting, RefObject};
pub use retention::Retention;
pub use query::{Answer, Hit, QueryContext, QueryResult, Value};
pub use schematics::Schematic;
pub use store::{Memory, SCHEMA_VERSION};
pub use tasks::{NewTask, TaskRecord, TaskState};
pub use triples::{NewTriple, TripleObject, TripleRow};
pub use types::{MemoryId, MemoryInfo, MemoryKind, Source};
