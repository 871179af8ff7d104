//! Schema migrations: turning a memory file written by an older craftmate into the current
//! schema, one version step at a time, inside a single transaction.
//!
//! Each step is a function from version N to N+1. `Memory::open` keeps a copy of the old file
//! before calling [`upgrade`], and a failed step rolls everything back, so a file is either fully
//! migrated or exactly as it was.
//!
//! History:
//! - v1: the first layout (`schema_v1.sql`): triples without confidence, source or match key;
//!   tasks without a description; schematics matched by exact name only.
//! - v2: triples gain `confidence`, `source` (told/perceived/inferred) and `obj_key` (the lemma
//!   form queries match), a trigger that forgets a triple's memory row with it, and the indexes
//!   queries need; tasks gain `description`; schematics gain `name_key`.
//! - v3: the `learned` table (lines players taught the bot by answering "did you mean?").
//! - v4: the `plans` table (the cells a running build still means to place for its object).
//! - v5: an index on `tasks.parent`: without it every deleted memory (a forgotten triple, a
//!   destroyed object) scanned the whole task history for sub-tasks to unlink.
//! - v6: a lesson belongs to the player who taught it: `learned` is keyed by (speaker, key),
//!   with an index on `key` for the owner's choice to share lessons.

use rusqlite::{Connection, params};

use super::query::names::{name_key, stored_key};
use super::store::{APPLICATION_ID, SCHEMA_VERSION};

/// One step: migrates a database at version `from` to `from + 1`.
type Step = fn(&rusqlite::Transaction) -> rusqlite::Result<()>;

/// Steps indexed by the version they start from.
const STEPS: &[(u32, Step)] = &[(1, v1_to_v2), (2, v2_to_v3), (3, v3_to_v4), (4, v4_to_v5), (5, v5_to_v6)];

/// Brings the database from `from` up to [`SCHEMA_VERSION`]. On error nothing has changed.
pub fn upgrade(conn: &mut Connection, from: u32) -> Result<(), String> {
    upgrade_to(conn, from, SCHEMA_VERSION)
}

/// Brings the database from `from` up to `to`. The file check builds each older version's
/// schema this way, so the tables a version names are defined once, by its migrations.
pub fn upgrade_to(conn: &mut Connection, from: u32, to: u32) -> Result<(), String> {
    // Rebuilding a table must not trip foreign keys half-way; they are checked at the end instead.
    // (This pragma has no effect inside a transaction, so it is set before opening one.)
    conn.execute_batch("PRAGMA foreign_keys = OFF").map_err(|e| e.to_string())?;
    let result = run_steps(conn, from, to);
    conn.execute_batch("PRAGMA foreign_keys = ON").map_err(|e| e.to_string())?;
    result
}

fn run_steps(conn: &mut Connection, from: u32, to: u32) -> Result<(), String> {
    let tx = conn.transaction().map_err(|e| e.to_string())?;
    let mut version = from;
    while version < to {
        let Some((_, step)) = STEPS.iter().find(|(v, _)| *v == version) else {
            return Err(format!("no migration step from schema version {version}"));
        };
        step(&tx).map_err(|e| format!("step v{version}→v{}: {e}", version + 1))?;
        version += 1;
    }
    let dangling: i64 = tx
        .query_row("SELECT COUNT(*) FROM pragma_foreign_key_check", [], |r| r.get(0))
        .map_err(|e| e.to_string())?;
    if dangling > 0 {
        return Err(format!("{dangling} rows point at memories that do not exist"));
    }
    tx.execute_batch(&format!("PRAGMA application_id = {APPLICATION_ID}; PRAGMA user_version = {to};"))
        .map_err(|e| e.to_string())?;
    tx.commit().map_err(|e| e.to_string())
}

/// v2 → v3: a new table, nothing else changes.
fn v2_to_v3(tx: &rusqlite::Transaction) -> rusqlite::Result<()> {
    tx.execute_batch(
        "CREATE TABLE learned (key TEXT PRIMARY KEY, text TEXT NOT NULL, form TEXT NOT NULL, speaker TEXT NOT NULL, tick INTEGER NOT NULL);",
    )
}

/// v3 → v4: a new table, nothing else changes.
fn v3_to_v4(tx: &rusqlite::Transaction) -> rusqlite::Result<()> {
    tx.execute_batch(
        "CREATE TABLE plans (object_id INTEGER NOT NULL REFERENCES memories(id) ON DELETE CASCADE,
             x INTEGER NOT NULL, y INTEGER NOT NULL, z INTEGER NOT NULL, block TEXT NOT NULL,
             PRIMARY KEY (object_id, x, y, z)) WITHOUT ROWID;",
    )
}

fn v4_to_v5(tx: &rusqlite::Transaction) -> rusqlite::Result<()> {
    tx.execute_batch("CREATE INDEX tasks_parent ON tasks(parent);")
}

/// v5 → v6: the table of lessons rebuilt with the speaker in its key (one lesson per line
/// before, so every row carries over).
fn v5_to_v6(tx: &rusqlite::Transaction) -> rusqlite::Result<()> {
    tx.execute_batch(
        "CREATE TABLE learned_v6 (key TEXT NOT NULL, text TEXT NOT NULL, form TEXT NOT NULL, speaker TEXT NOT NULL,
             tick INTEGER NOT NULL, PRIMARY KEY (speaker, key)) WITHOUT ROWID;
         INSERT INTO learned_v6 (key, text, form, speaker, tick) SELECT key, text, form, speaker, tick FROM learned;
         DROP TABLE learned;
         ALTER TABLE learned_v6 RENAME TO learned;
         CREATE INDEX learned_key ON learned(key, tick);",
    )
}

/// v1 → v2. The triples table is rebuilt (a new CHECK constraint cannot be added in place), the
/// match keys are computed with the same word rules queries use, and the other tables gain their
/// new columns.
fn v1_to_v2(tx: &rusqlite::Transaction) -> rusqlite::Result<()> {
    tx.execute_batch(
        "CREATE TABLE triples_v2 (
             id         INTEGER PRIMARY KEY REFERENCES memories(id) ON DELETE CASCADE,
             subj       INTEGER NOT NULL REFERENCES memories(id) ON DELETE CASCADE,
             pred       TEXT    NOT NULL,
             obj        INTEGER REFERENCES memories(id) ON DELETE CASCADE,
             obj_text   TEXT,
             obj_key    TEXT,
             confidence REAL    NOT NULL DEFAULT 1.0,
             source     TEXT    NOT NULL CHECK (source IN ('told', 'perceived', 'inferred')),
             CHECK ((obj IS NULL) <> (obj_text IS NULL))
         );
         -- v1 only ever stored what players told it.
         INSERT INTO triples_v2 (id, subj, pred, obj, obj_text, confidence, source)
             SELECT id, subj, pred, obj, CASE WHEN obj IS NULL THEN coalesce(obj_text, '') END, 1.0, 'told'
             FROM triples;
         DROP TABLE triples;
         ALTER TABLE triples_v2 RENAME TO triples;
         CREATE INDEX triples_subject ON triples(subj, pred, obj_key);
         CREATE INDEX triples_match ON triples(pred, obj_key, subj);
         CREATE INDEX triples_object ON triples(obj) WHERE obj IS NOT NULL;
         CREATE TRIGGER triples_forget AFTER DELETE ON triples BEGIN
             DELETE FROM memories WHERE id = OLD.id;
         END;

         ALTER TABLE tasks ADD COLUMN description TEXT NOT NULL DEFAULT '';
         UPDATE tasks SET description = lower(action);
         ALTER TABLE schematics ADD COLUMN name_key TEXT NOT NULL DEFAULT '';

         CREATE INDEX IF NOT EXISTS memories_kind ON memories(kind);
         CREATE INDEX IF NOT EXISTS memories_attended ON memories(attended_tick) WHERE attended_tick IS NOT NULL;
         CREATE INDEX IF NOT EXISTS reference_objects_type ON reference_objects(ref_type);
         CREATE UNIQUE INDEX IF NOT EXISTS reference_objects_entity ON reference_objects(entity_id) WHERE entity_id IS NOT NULL;
         CREATE INDEX IF NOT EXISTS reference_objects_player ON reference_objects(player) WHERE player IS NOT NULL;
         CREATE INDEX IF NOT EXISTS object_blocks_at ON object_blocks(x, y, z);
         CREATE INDEX IF NOT EXISTS chats_tick ON chats(tick);
         CREATE INDEX IF NOT EXISTS tasks_state ON tasks(state);
         CREATE INDEX IF NOT EXISTS schematics_name ON schematics(name_key);",
    )?;
    // Match keys need the word rules, which live in Rust.
    let rows: Vec<(i64, String, String)> = {
        let mut stmt = tx.prepare("SELECT id, pred, obj_text FROM triples WHERE obj_text IS NOT NULL")?;
        let mapped = stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?;
        mapped.collect::<rusqlite::Result<_>>()?
    };
    let mut update = tx.prepare("UPDATE triples SET obj_key = ?2 WHERE id = ?1")?;
    for (id, pred, text) in rows {
        update.execute(params![id, stored_key(&pred, &text)])?;
    }
    let names: Vec<(i64, String)> = {
        let mut stmt = tx.prepare("SELECT id, name FROM schematics")?;
        let mapped = stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?;
        mapped.collect::<rusqlite::Result<_>>()?
    };
    let mut update = tx.prepare("UPDATE schematics SET name_key = ?2 WHERE id = ?1")?;
    for (id, name) in names {
        update.execute(params![id, name_key(&name)])?;
    }
    Ok(())
}
