//! Keeping the embedded world in a file, one transaction a tick.
//!
//! `play --memory FILE` keeps the bot's memory in an SQLite file; this keeps the world it lives
//! in beside that memory, in two tables of the same file (the memory never reads them): the
//! sections somebody edited, and everything else — tick, the bot, players, mobs, items, chests and
//! crops — as one JSON row.
//! [`WorldStore::save`] writes only the sections edited since the last save, so a tick of building
//! costs a few kilobytes, and all of it commits at once: a process killed at any moment leaves the
//! world as it was at the end of some tick, never half of one. The change record is not kept: a
//! restarted bot looks at the world afresh (perception's start-up scan), as it would after a
//! reconnect.

use std::path::{Path, PathBuf};

use rusqlite::{Connection, OptionalExtension, params};
use serde::{Deserialize, Serialize};

use super::sections::{SECTION_VOLUME, Section, SectionKey, block_from_index};
use super::{EmbeddedWorld, Mob, Player, Preset};
use crate::world::{Block, Look, Pos};

#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("the world in {path} cannot be read: {detail}")]
    Damaged { path: PathBuf, detail: String },
    #[error("could not keep the world in {path}: {source}")]
    Sqlite { path: PathBuf, source: rusqlite::Error },
}

/// Everything about the world but its blocks and its history.
#[derive(Serialize, Deserialize)]
struct Header {
    preset: Preset,
    seed: u64,
    tick: u64,
    agent_name: String,
    agent_pos: Pos,
    agent_look: Look,
    players: Vec<Player>,
    mobs: Vec<Mob>,
    next_mob_id: u64,
    /// What the bot carries, chests' contents, lying items and crops (absent in older files).
    #[serde(default)]
    things: super::things::Things,
}

const SCHEMA: &str = "
    CREATE TABLE IF NOT EXISTS world_state (id INTEGER PRIMARY KEY CHECK (id = 0), header TEXT NOT NULL);
    CREATE TABLE IF NOT EXISTS world_sections (
        x INTEGER NOT NULL, y INTEGER NOT NULL, z INTEGER NOT NULL,
        palette TEXT NOT NULL,   -- JSON list of the block names the section uses
        runs BLOB NOT NULL,      -- (count, palette index) pairs, little-endian u16, in cell order
        PRIMARY KEY (x, y, z)
    ) WITHOUT ROWID;";

/// A section as stored: its palette of block names and its cells run-length coded (a section of
/// a flat world with a few blocks placed is a handful of runs, not 4096 cells).
fn encode(section: &Section) -> (String, Vec<u8>) {
    let mut palette: Vec<u16> = Vec::new();
    let mut runs: Vec<u8> = Vec::new();
    let flush = |count: u16, index: u16, runs: &mut Vec<u8>| {
        runs.extend_from_slice(&count.to_le_bytes());
        runs.extend_from_slice(&index.to_le_bytes());
    };
    let mut current: Option<(u16, u16)> = None; // (palette index, count)
    for &b in &section.blocks {
        let i = match palette.iter().position(|p| *p == b) {
            Some(i) => i as u16,
            None => {
                palette.push(b);
                (palette.len() - 1) as u16
            }
        };
        current = match current {
            Some((j, n)) if j == i && n < u16::MAX => Some((j, n + 1)),
            Some((j, n)) => {
                flush(n, j, &mut runs);
                Some((i, 1))
            }
            None => Some((i, 1)),
        };
    }
    if let Some((j, n)) = current {
        flush(n, j, &mut runs);
    }
    let names: Vec<Block> = palette.into_iter().map(block_from_index).collect();
    (serde_json::to_string(&names).expect("block names serialize"), runs)
}

fn decode(palette: &str, runs: &[u8]) -> Result<Section, String> {
    let names: Vec<Block> = serde_json::from_str(palette).map_err(|e| format!("a section's palette: {e}"))?;
    let mut blocks = Vec::with_capacity(SECTION_VOLUME);
    for pair in runs.chunks(4) {
        let [a, b, c, d] = pair else { return Err("a section's runs are cut short".into()) };
        let (count, index) = (u16::from_le_bytes([*a, *b]), u16::from_le_bytes([*c, *d]));
        let block = names.get(index as usize).ok_or("a section refers past its palette")?;
        blocks.extend(std::iter::repeat_n(block.index(), count as usize));
    }
    if blocks.len() != SECTION_VOLUME {
        return Err(format!("a section has {} cells, not {SECTION_VOLUME}", blocks.len()));
    }
    Ok(Section { blocks })
}

/// The world's tables in a file.
pub struct WorldStore {
    conn: Connection,
    path: PathBuf,
}

impl WorldStore {
    /// Opens the world tables of `path` (made if missing; the file itself must exist or be
    /// creatable). The memory's own checks on the file run before this, in `Memory::open`.
    pub fn open(path: impl AsRef<Path>) -> Result<WorldStore, StoreError> {
        let path = path.as_ref().to_path_buf();
        let sql = |source| StoreError::Sqlite { path: path.clone(), source };
        let conn = Connection::open(&path).map_err(sql)?;
        conn.busy_timeout(std::time::Duration::from_secs(5)).map_err(sql)?;
        conn.query_row("PRAGMA journal_mode = WAL", [], |_| Ok(())).map_err(sql)?;
        conn.execute_batch("PRAGMA synchronous = NORMAL;").map_err(sql)?;
        conn.execute_batch(SCHEMA).map_err(sql)?;
        Ok(WorldStore { conn, path })
    }

    fn sql(&self, source: rusqlite::Error) -> StoreError {
        StoreError::Sqlite { path: self.path.clone(), source }
    }

    fn damaged(&self, detail: impl Into<String>) -> StoreError {
        StoreError::Damaged { path: self.path.clone(), detail: detail.into() }
    }

    /// The world last saved, or `None` if none was.
    pub fn load(&self) -> Result<Option<EmbeddedWorld>, StoreError> {
        let header: Option<String> = self
            .conn
            .query_row("SELECT header FROM world_state WHERE id = 0", [], |r| r.get(0))
            .optional()
            .map_err(|e| self.sql(e))?;
        let Some(header) = header else { return Ok(None) };
        let h: Header = serde_json::from_str(&header).map_err(|e| self.damaged(format!("its state: {e}")))?;
        let mut world = EmbeddedWorld::new(h.preset, &h.agent_name, h.agent_pos);
        world.seed = h.seed;
        world.tick = h.tick;
        world.agent_look = h.agent_look;
        world.players = h.players;
        world.mobs = h.mobs;
        world.next_mob_id = h.next_mob_id;
        world.things = h.things;
        let mut stmt = self.conn.prepare("SELECT x, y, z, palette, runs FROM world_sections").map_err(|e| self.sql(e))?;
        let rows = stmt
            .query_map([], |r| Ok(((r.get(0)?, r.get(1)?, r.get(2)?), r.get::<_, String>(3)?, r.get::<_, Vec<u8>>(4)?)))
            .map_err(|e| self.sql(e))?;
        for row in rows {
            let (key, palette, runs): (SectionKey, String, Vec<u8>) = row.map_err(|e| self.sql(e))?;
            let section = decode(&palette, &runs).map_err(|e| self.damaged(e))?;
            world.sections.insert(key, section);
        }
        Ok(Some(world))
    }

    /// Saves what changed since the last save (all of it the first time), in one transaction.
    pub fn save(&mut self, world: &mut EmbeddedWorld) -> Result<(), StoreError> {
        let header = Header {
            preset: world.preset,
            seed: world.seed,
            tick: world.tick,
            agent_name: world.agent_name.clone(),
            agent_pos: world.agent_pos,
            agent_look: world.agent_look,
            players: world.players.clone(),
            mobs: world.mobs.clone(),
            next_mob_id: world.next_mob_id,
            things: world.things.clone(),
        };
        let header = serde_json::to_string(&header).map_err(|e| self.damaged(e.to_string()))?;
        let mut keys: Vec<_> = world.dirty.iter().copied().collect();
        keys.sort_unstable();
        let tx = self.conn.transaction().map_err(|e| StoreError::Sqlite { path: self.path.clone(), source: e })?;
        let result = (|| {
            tx.execute("INSERT OR REPLACE INTO world_state (id, header) VALUES (0, ?1)", [&header])?;
            let mut put =
                tx.prepare_cached("INSERT OR REPLACE INTO world_sections (x, y, z, palette, runs) VALUES (?1, ?2, ?3, ?4, ?5)")?;
            for key in &keys {
                if let Some(section) = world.sections.get(key) {
                    let (palette, runs) = encode(section);
                    put.execute(params![key.0, key.1, key.2, palette, runs])?;
                }
            }
            Ok(())
        })();
        match result.and_then(|()| tx.commit()) {
            Ok(()) => {
                world.dirty.clear();
                Ok(())
            }
            Err(e) => Err(StoreError::Sqlite { path: self.path.clone(), source: e }),
        }
    }

    /// Marks every section as edited, so the next save writes the whole world (a world that
    /// was loaded from elsewhere, or made before the store was opened).
    pub fn mark_all(world: &mut EmbeddedWorld) {
        let keys: Vec<_> = world.sections.keys().copied().collect();
        world.dirty.extend(keys);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::world::{Actor, BBox, Block, Vec3, World};

    #[test]
    fn a_saved_world_comes_back_block_for_block() {
        let dir = std::env::temp_dir().join(format!("craftmate-world-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("w.db");
        let _ = std::fs::remove_file(&path);
        let mut w = EmbeddedWorld::flat();
        w.add_player("alice", Vec3::new(3.5, 5.0, 0.5), Look::new(90.0, 0.0));
        let mut store = WorldStore::open(&path).unwrap();
        assert!(store.load().unwrap().is_none());
        w.fill_by(BBox::new(Pos::new(0, 5, 3), Pos::new(20, 7, 3)), Block::from_name("red_wool").unwrap(), Actor::Agent);
        store.save(&mut w).unwrap();
        w.set_block_by(Pos::new(40, 5, 40), Block::from_name("stone").unwrap(), Actor::Player("alice".into()));
        w.set_block_by(Pos::new(41, 5, 40), Block::from_name("chest").unwrap(), Actor::Player("alice".into()));
        w.stock_container(Pos::new(41, 5, 40), "iron_pickaxe", 1);
        w.give_agent("coal", 4);
        w.advance();
        store.save(&mut w).unwrap();
        drop(store);
        let back = WorldStore::open(&path).unwrap().load().unwrap().expect("a saved world");
        assert_eq!(back.same_blocks(&w), None);
        assert_eq!(back.tick(), w.tick());
        assert_eq!(back.player("alice").map(|p| p.pos), Some(Vec3::new(3.5, 5.0, 0.5)));
        assert_eq!(back.carried().count("coal"), 4, "what the bot carries is kept");
        assert_eq!(back.container(Pos::new(41, 5, 40)).map(|c| c.count("iron_pickaxe")), Some(1), "and what chests hold");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
