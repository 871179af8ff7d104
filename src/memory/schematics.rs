//! Schematics: named shapes the bot knows how to build ("build another one of those", "build
//! alice's hut"). Blocks are stored relative to the schematic's origin, as JSON of block ids, so
//! a file stays readable whatever order the block registry has in a later version.

use rusqlite::{OptionalExtension, params};

use super::error::{MemoryError, Result};
use super::query::names::name_key;
use super::store::Memory;
use super::types::{MemoryId, MemoryKind};
use crate::world::{Block, Pos};

/// A stored schematic.
#[derive(Debug, Clone, PartialEq)]
pub struct Schematic {
    pub id: MemoryId,
    pub name: String,
    /// Relative positions and blocks.
    pub blocks: Vec<(Pos, Block)>,
}

impl Memory {
    /// Saves a shape under `name` (a later one with the same name wins on lookup; both are kept).
    pub fn save_schematic(&mut self, name: &str, blocks: &[(Pos, Block)]) -> Result<MemoryId> {
        if name.trim().is_empty() {
            return Err(MemoryError::Invalid("a schematic needs a name".into()));
        }
        let cells: Vec<(i32, i32, i32, &str)> = blocks.iter().map(|(p, b)| (p.x, p.y, p.z, b.name())).collect();
        let json = serde_json::to_string(&cells).map_err(|e| MemoryError::Invalid(e.to_string()))?;
        self.batch(|m| {
            let id = m.new_memory(MemoryKind::Schematic, m.tick())?;
            m.conn
                .prepare_cached("INSERT INTO schematics (id, name, name_key, blocks) VALUES (?1, ?2, ?3, ?4)")?
                .execute(params![id, name.trim(), name_key(name), json])?;
            m.name(id, name)?;
            Ok(id)
        })
    }

    /// The newest schematic whose name matches `name` by lemma ("houses" finds "house").
    pub fn schematic_by_name(&self, name: &str) -> Result<Option<Schematic>> {
        let mut stmt = self.conn.prepare_cached(
            "SELECT id, name, blocks FROM schematics WHERE name_key = ?1 ORDER BY id DESC LIMIT 1",
        )?;
        let row = stmt
            .query_row([name_key(name)], |r| Ok((r.get::<_, MemoryId>(0)?, r.get::<_, String>(1)?, r.get::<_, String>(2)?)))
            .optional()?;
        let Some((id, name, json)) = row else { return Ok(None) };
        let cells: Vec<(i32, i32, i32, String)> =
            serde_json::from_str(&json).map_err(|e| MemoryError::BadData { id, detail: e.to_string() })?;
        let blocks = cells.into_iter().map(|(x, y, z, b)| (Pos::new(x, y, z), Block::intern(&b))).collect();
        Ok(Some(Schematic { id, name, blocks }))
    }

    /// Names of all schematics, oldest first.
    pub fn schematic_names(&self) -> Result<Vec<String>> {
        let mut stmt = self.conn.prepare_cached("SELECT name FROM schematics ORDER BY id")?;
        let rows = stmt.query_map([], |r| r.get(0))?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }
}
