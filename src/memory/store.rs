//! Opening the memory: in RAM by default, or in a file so a restarted bot still knows its world.
//!
//! A file is checked before anything writes to it ([`super::file`]): a damaged file, a database of
//! some other program, one written by a newer craftmate or one missing its tables is refused with a
//! message that says so; a log a stopped bot left is applied to a copy first. An older schema is migrated (see [`super::migrate`]) inside one
//! transaction, after a copy of the file is kept beside it.
//!
//! Also here: the bookkeeping shared by every kind of memory (create, touch, attend, forget) and
//! [`Memory::batch`], which groups many writes into one transaction — perception writes a whole
//! tick's worth of changes at once, which is both atomic and far faster than one commit per row.

use std::path::{Path, PathBuf};

use rusqlite::{Connection, OptionalExtension, params};

use super::cache::LookupCache;
use super::error::{MemoryError, Result};
use super::file::{self, FileState};
use super::migrate;
use super::retention::Retention;
use super::types::{MemoryId, MemoryInfo, MemoryKind};

/// "CRFT": marks a database file as a craftmate memory (SQLite's `application_id`).
pub const APPLICATION_ID: i32 = 0x4352_4654;
/// The schema version this build writes. Older files are migrated on open.
pub const SCHEMA_VERSION: u32 = 6;

/// The bot's memory: an SQLite triple store plus tables for objects, chats, tasks and schematics.
pub struct Memory {
    pub(crate) conn: Connection,
    path: Option<PathBuf>,
    /// Nesting depth of [`Memory::batch`] (each level is an SQLite savepoint).
    depth: u32,
    /// The game tick new memories are stamped with (perception sets it every tick).
    now: u64,
    /// Id lists of recent triple lookups (see [`super::cache`]).
    pub(crate) lookups: LookupCache,
    /// Moves when a build's plan changes (see [`super::builds`]).
    pub(crate) plans_changed: u64,
    /// Inside the tick's transaction ([`Memory::begin_tick`]).
    in_tick: bool,
    /// Where the original file was kept when a leftover log was recovered.
    recovered: Option<PathBuf>,
    /// How much history is kept, and the writes of it since the last pruning (see [`super::retention`]).
    pub(crate) retention: Retention,
    pub(crate) history_writes: u32,
}

/// Ticks are u64 in the game and i64 in SQLite; a game never gets near the difference.
pub(crate) fn tick_sql(tick: u64) -> i64 {
    tick.min(i64::MAX as u64) as i64
}

pub(crate) fn tick_rust(tick: i64) -> u64 {
    tick.max(0) as u64
}

impl Memory {
    /// A fresh memory that lives in RAM only (the default; tests and one-off sessions).
    pub fn in_memory() -> Result<Memory> {
        let conn = Connection::open_in_memory()?;
        let mut memory = Memory::configure(conn, None)?;
        memory.create_schema()?;
        Ok(memory)
    }

    /// Opens (or creates) a memory file. [`super::file`] checks it first; see there for what is
    /// refused and what is recovered.
    pub fn open(path: impl AsRef<Path>) -> Result<Memory> {
        let path = path.as_ref().to_path_buf();
        let checked = file::check(&path)?;
        if let FileState::Version(v) = checked.state
            && v < SCHEMA_VERSION
        {
            // Keep the old file next to the new one: a migration is the one moment a bug of
            // ours could cost a player their world knowledge.
            std::fs::copy(&path, backup_path(&path, v))?;
        }
        let conn = Connection::open(&path)?;
        let mut memory = Memory::configure(conn, Some(path.clone()))?;
        memory.recovered = checked.recovered;
        match checked.state {
            FileState::New | FileState::Empty => memory.create_schema()?,
            FileState::Version(v) if v < SCHEMA_VERSION => {
                migrate::upgrade(&mut memory.conn, v).map_err(|detail| MemoryError::Migration {
                    path: path.clone(),
                    from: v,
                    detail,
                })?;
            }
            FileState::Version(_) => {}
        }
        Ok(memory)
    }

    /// Where the original file was kept, when opening it applied a log a stopped bot had left
    /// (its log lies beside it, named alike). `play` and `connect` say so.
    pub fn recovered_from(&self) -> Option<&Path> {
        self.recovered.as_deref()
    }

    fn configure(conn: Connection, path: Option<PathBuf>) -> Result<Memory> {
        // Cascades and the triple trigger rely on these two; they are per connection.
        conn.execute_batch(
            "PRAGMA foreign_keys = ON;
             PRAGMA recursive_triggers = ON;
             PRAGMA synchronous = NORMAL;
             PRAGMA temp_store = MEMORY;",
        )?;
        if path.is_some() {
            // A write-ahead log: a commit is one append (no sync until a checkpoint), a killed
            // process loses at most the transaction it was in, and the embedded world's own
            // connection to the same file can write between the memory's transactions.
            conn.query_row("PRAGMA journal_mode = WAL", [], |_| Ok(()))?;
            conn.busy_timeout(std::time::Duration::from_secs(5))?;
        }
        conn.set_prepared_statement_cache_capacity(128);
        Ok(Memory { conn, path, depth: 0, now: 0, lookups: LookupCache::default(), plans_changed: 0, in_tick: false, recovered: None, retention: Retention::default(), history_writes: 0 })
    }

    fn create_schema(&mut self) -> Result<()> {
        let tx = self.conn.transaction()?;
        tx.execute_batch(super::SCHEMA_SQL)?;
        tx.execute_batch(&format!(
            "PRAGMA application_id = {APPLICATION_ID}; PRAGMA user_version = {SCHEMA_VERSION};"
        ))?;
        tx.commit()?;
        Ok(())
    }

    /// Opens the tick's transaction: every write until [`Memory::end_tick`] is committed at
    /// once — one write to the log a tick, not one (with its syncs) per row. A kill in between
    /// loses that tick, never half of it; [`Memory::batch`]es inside are savepoints.
    pub fn begin_tick(&mut self) -> Result<()> {
        if !self.in_tick && self.conn.is_autocommit() {
            self.conn.execute_batch("BEGIN")?;
            self.in_tick = true;
        }
        Ok(())
    }

    /// Commits the tick's transaction (see [`Memory::begin_tick`]). Should the commit fail, the
    /// tick's writes are rolled back and the next tick starts afresh.
    pub fn end_tick(&mut self) -> Result<()> {
        if !std::mem::replace(&mut self.in_tick, false) {
            return Ok(());
        }
        if let Err(e) = self.conn.execute_batch("COMMIT") {
            self.lookups.clear();
            let _ = self.conn.execute_batch("ROLLBACK");
            return Err(e.into());
        }
        Ok(())
    }

    /// A number that grows with every row written (SQLite's count of changes on this
    /// connection): a watcher compares it to know whether anything might have changed.
    pub fn changes(&self) -> u64 {
        self.conn.total_changes()
    }

    /// Sets the current game tick; new and changed memories are stamped with it.
    pub fn set_tick(&mut self, tick: u64) {
        self.now = tick;
    }

    /// The current game tick as last set.
    pub fn tick(&self) -> u64 {
        self.now
    }

    /// The latest tick anything in this memory was stamped with (0 for a new one). A world that
    /// starts counting again at 0 — a live server joined anew — goes on from here, so history
    /// stays in order across restarts.
    pub fn last_tick(&self) -> Result<u64> {
        let latest: Option<i64> = self.conn.query_row(
            "SELECT MAX(t) FROM (SELECT MAX(updated_tick) AS t FROM memories UNION ALL SELECT MAX(attended_tick) FROM memories
             UNION ALL SELECT MAX(finished_tick) FROM tasks UNION ALL SELECT MAX(tick) FROM chats)",
            [],
            |r| r.get(0),
        )?;
        Ok(latest.map_or(0, tick_rust))
    }

    /// The file this memory lives in, or `None` when it is in RAM.
    pub fn path(&self) -> Option<&Path> {
        self.path.as_deref()
    }

    /// The schema version of the open database.
    pub fn schema_version(&self) -> Result<u32> {
        Ok(self.conn.query_row("PRAGMA user_version", [], |r| r.get::<_, i64>(0))? as u32)
    }

    /// Runs `f` as one transaction: everything it wrote is kept, or (if it fails) nothing is.
    /// Batches nest (inner ones are savepoints).
    pub fn batch<T>(&mut self, f: impl FnOnce(&mut Memory) -> Result<T>) -> Result<T> {
        let name = format!("batch_{}", self.depth);
        self.conn.execute_batch(&format!("SAVEPOINT {name}"))?;
        self.depth += 1;
        let out = f(self);
        self.depth -= 1;
        match out {
            Ok(value) => {
                self.conn.execute_batch(&format!("RELEASE {name}"))?;
                Ok(value)
            }
            Err(e) => {
                // Rolled-back triples may be in cached lookups.
                self.lookups.clear();
                // The rollback itself failing would only hide the first error.
                let _ = self.conn.execute_batch(&format!("ROLLBACK TO {name}; RELEASE {name}"));
                Err(e)
            }
        }
    }

    // ---------- bookkeeping shared by every kind ----------

    /// Inserts the `memories` row for a new memory of `kind`.
    pub(crate) fn new_memory(&self, kind: MemoryKind, tick: u64) -> Result<MemoryId> {
        let mut stmt = self
            .conn
            .prepare_cached("INSERT INTO memories (kind, created_tick, updated_tick) VALUES (?1, ?2, ?2)")?;
        stmt.execute(params![kind.as_str(), tick_sql(tick)])?;
        Ok(self.conn.last_insert_rowid())
    }

    /// Marks a memory as changed at `tick`.
    pub(crate) fn touch(&self, id: MemoryId, tick: u64) -> Result<()> {
        let mut stmt = self.conn.prepare_cached("UPDATE memories SET updated_tick = ?2 WHERE id = ?1")?;
        stmt.execute(params![id, tick_sql(tick)])?;
        Ok(())
    }

    /// Records that a player referred to this memory at `tick`: "that" and "it" mean the most
    /// recently attended memory. Kept in the file, so it survives a restart.
    pub fn attend(&mut self, id: MemoryId, tick: u64) -> Result<()> {
        let n = self
            .conn
            .prepare_cached("UPDATE memories SET attended_tick = ?2 WHERE id = ?1")?
            .execute(params![id, tick_sql(tick)])?;
        if n == 0 { Err(MemoryError::NotFound(id)) } else { Ok(()) }
    }

    /// The most recently attended memory of one of `kinds` (any kind when empty).
    pub fn last_attended(&self, kinds: &[MemoryKind]) -> Result<Option<MemoryId>> {
        let mut stmt = self.conn.prepare_cached(
            "SELECT id, kind FROM memories WHERE attended_tick IS NOT NULL
             ORDER BY attended_tick DESC, id DESC",
        )?;
        let mut rows = stmt.query([])?;
        while let Some(row) = rows.next()? {
            let kind: String = row.get(1)?;
            let matches = kinds.is_empty() || MemoryKind::parse(&kind).is_some_and(|k| kinds.contains(&k));
            if matches {
                return Ok(Some(row.get(0)?));
            }
        }
        Ok(None)
    }

    /// The memories of `id`'s kind attended at the same tick as it, `id` among them: things made
    /// or talked about together ("build 2 cubes", then "destroy them").
    pub fn attended_with(&self, id: MemoryId) -> Result<Vec<MemoryId>> {
        let mut stmt = self.conn.prepare_cached(
            "SELECT m.id FROM memories m JOIN memories o ON o.id = ?1
             WHERE m.attended_tick = o.attended_tick AND m.kind = o.kind ORDER BY m.id",
        )?;
        let ids = stmt.query_map([id], |row| row.get(0))?.collect::<std::result::Result<Vec<MemoryId>, _>>()?;
        Ok(if ids.is_empty() { vec![id] } else { ids })
    }

    /// Kind and times of a memory, if it exists.
    pub fn info(&self, id: MemoryId) -> Result<Option<MemoryInfo>> {
        let row = self
            .conn
            .prepare_cached(
                "SELECT kind, created_tick, updated_tick, attended_tick FROM memories WHERE id = ?1",
            )?
            .query_row([id], |r| {
                Ok((r.get::<_, String>(0)?, r.get::<_, i64>(1)?, r.get::<_, i64>(2)?, r.get::<_, Option<i64>>(3)?))
            })
            .optional()?;
        let Some((kind, created, updated, attended)) = row else { return Ok(None) };
        let kind = MemoryKind::parse(&kind)
            .ok_or_else(|| MemoryError::BadData { id, detail: format!("unknown memory kind {kind:?}") })?;
        Ok(Some(MemoryInfo {
            id,
            kind,
            created_tick: tick_rust(created),
            updated_tick: tick_rust(updated),
            attended_tick: attended.map(tick_rust),
        }))
    }

    /// The kind of a memory, if it exists.
    pub fn kind_of(&self, id: MemoryId) -> Result<Option<MemoryKind>> {
        Ok(self.info(id)?.map(|i| i.kind))
    }

    /// Forgets a memory and everything hanging off it (its blocks, its triples, triples about it).
    /// Returns whether it existed.
    pub fn forget(&mut self, id: MemoryId) -> Result<bool> {
        self.lookups.clear();
        let n = self.conn.prepare_cached("DELETE FROM memories WHERE id = ?1")?.execute([id])?;
        Ok(n > 0)
    }

    /// How many memories of each kind there are.
    pub fn counts(&self) -> Result<Vec<(MemoryKind, u64)>> {
        let mut stmt = self.conn.prepare_cached("SELECT kind, COUNT(*) FROM memories GROUP BY kind ORDER BY kind")?;
        let rows = stmt.query_map([], |r| Ok((r.get::<_, String>(0)?, r.get::<_, i64>(1)?)))?;
        let mut out = Vec::new();
        for row in rows {
            let (kind, n) = row?;
            if let Some(kind) = MemoryKind::parse(&kind) {
                out.push((kind, n as u64));
            }
        }
        Ok(out)
    }

    /// Bytes the database occupies (pages in use times page size), in RAM or on disk.
    pub fn size_bytes(&self) -> Result<u64> {
        let pages: i64 = self.conn.query_row("PRAGMA page_count", [], |r| r.get(0))?;
        let size: i64 = self.conn.query_row("PRAGMA page_size", [], |r| r.get(0))?;
        Ok((pages * size) as u64)
    }
}

/// `memory.db` → `memory.db.v1.bak` (numbered if that exists already).
fn backup_path(path: &Path, version: u32) -> PathBuf {
    let base = format!("{}.v{version}.bak", path.display());
    let mut candidate = PathBuf::from(&base);
    let mut n = 1;
    while candidate.exists() {
        candidate = PathBuf::from(format!("{base}.{n}"));
        n += 1;
    }
    candidate
}
