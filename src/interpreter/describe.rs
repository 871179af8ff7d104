//! Naming things in replies: "the red tower", "alice", "a pig", "the hole". The words come from
//! memory (names players gave first, then perceived colour and shape), so the bot describes
//! objects the way players can refer back to them.

use crate::memory::{Memory, MemoryId, MemoryKind};

/// A short noun phrase without an article: "red tower", "alice", "pig".
pub fn noun(memory: &Memory, id: MemoryId) -> String {
    let first = |pred: &str| memory.values_of(id, pred).ok().and_then(|v| v.into_iter().next());
    let kind = memory.kind_of(id).ok().flatten();
    match kind {
        Some(MemoryKind::Player) => first("has_name").unwrap_or_else(|| "a player".into()),
        Some(MemoryKind::SelfAgent) => "me".into(),
        Some(MemoryKind::Mob) => first("has_name").unwrap_or_else(|| "animal".into()),
        Some(MemoryKind::Hole) => "hole".into(),
        Some(MemoryKind::Location) => first("has_name").unwrap_or_else(|| "place".into()),
        _ => {
            let shape = first("has_shape").filter(|s| s != "structure");
            let name = first("has_name").or(shape).unwrap_or_else(|| "structure".into());
            match first("has_colour") {
                Some(c) if !name.contains(&c) => format!("{} {name}", c.replace('_', " ")),
                _ => name,
            }
        }
    }
}

/// "the red tower", or a player's bare name.
pub fn the(memory: &Memory, id: MemoryId) -> String {
    match memory.kind_of(id).ok().flatten() {
        Some(MemoryKind::Player) | Some(MemoryKind::SelfAgent) => noun(memory, id),
        _ => format!("the {}", noun(memory, id)),
    }
}
