//! The small vocabulary shared by every part of the memory: ids, kinds of memory, where a fact
//! came from, and the object kinds perception and the interpreter talk about.

use serde::{Deserialize, Serialize};

/// A memory's id. Ids are never reused, so an old id can only ever mean the thing it was given to.
pub type MemoryId = i64;

/// What a memory is. Stored as text in `memories.kind`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum MemoryKind {
    /// A connected group of placed blocks (a house, a tower).
    BlockObject,
    /// Connected air where natural terrain used to be.
    Hole,
    Mob,
    Player,
    /// The agent itself ("you", SELF).
    SelfAgent,
    /// A named place ("home", "the meeting point").
    Location,
    Triple,
    Chat,
    Task,
    Schematic,
}

impl MemoryKind {
    pub const ALL: [MemoryKind; 10] = [
        MemoryKind::BlockObject,
        MemoryKind::Hole,
        MemoryKind::Mob,
        MemoryKind::Player,
        MemoryKind::SelfAgent,
        MemoryKind::Location,
        MemoryKind::Triple,
        MemoryKind::Chat,
        MemoryKind::Task,
        MemoryKind::Schematic,
    ];

    /// The spelling stored in the database.
    pub fn as_str(self) -> &'static str {
        match self {
            MemoryKind::BlockObject => "block_object",
            MemoryKind::Hole => "hole",
            MemoryKind::Mob => "mob",
            MemoryKind::Player => "player",
            MemoryKind::SelfAgent => "self",
            MemoryKind::Location => "location",
            MemoryKind::Triple => "triple",
            MemoryKind::Chat => "chat",
            MemoryKind::Task => "task",
            MemoryKind::Schematic => "schematic",
        }
    }

    pub fn parse(text: &str) -> Option<MemoryKind> {
        MemoryKind::ALL.into_iter().find(|k| k.as_str() == text)
    }

    /// Is this a thing in the world (a row of `reference_objects`)?
    pub fn is_reference_object(self) -> bool {
        matches!(
            self,
            MemoryKind::BlockObject
                | MemoryKind::Hole
                | MemoryKind::Mob
                | MemoryKind::Player
                | MemoryKind::SelfAgent
                | MemoryKind::Location
        )
    }
}

impl std::fmt::Display for MemoryKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Where a triple came from. Perceived facts are rewritten whenever perception looks again; told
/// facts (names and tags players gave) are only ever removed by a player.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Source {
    /// A player said so ("that is a house").
    Told,
    /// Perception computed it (colours, size, shape guess, a mob's kind).
    Perceived,
    /// Derived by the bot from other facts.
    Inferred,
}

impl Source {
    pub fn as_str(self) -> &'static str {
        match self {
            Source::Told => "told",
            Source::Perceived => "perceived",
            Source::Inferred => "inferred",
        }
    }

    pub fn parse(text: &str) -> Option<Source> {
        // lexicon: stored spellings of an enum (database values).
        match text {
            "told" => Some(Source::Told),
            "perceived" => Some(Source::Perceived),
            "inferred" => Some(Source::Inferred),
            _ => None,
        }
    }
}

/// The bookkeeping every memory has.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MemoryInfo {
    pub id: MemoryId,
    pub kind: MemoryKind,
    pub created_tick: u64,
    pub updated_tick: u64,
    pub attended_tick: Option<u64>,
}
