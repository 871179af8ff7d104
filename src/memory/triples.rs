//! The triple store: "subject predicate object" facts about memories.
//!
//! Names and tags players give ("that is a house" → `has_name house`), the colours, sizes and
//! shapes perception computes, and relations between memories all live in one table. A triple is a
//! memory too, so a fact can be about another fact. Each triple records where it came from
//! ([`Source`]) and how sure the bot is, so perception can refresh its own facts without ever
//! touching what a player said.

use rusqlite::{OptionalExtension, Row, params};

use super::error::{MemoryError, Result};
use super::query::names::stored_key;
use super::store::Memory;
use super::types::{MemoryId, MemoryKind, Source};

/// What a triple points at: another memory, or a piece of text.
#[derive(Debug, Clone, PartialEq)]
pub enum TripleObject {
    Memory(MemoryId),
    Text(String),
}

/// A triple to add. Built with [`NewTriple::text`] or [`NewTriple::memory`]; told and certain
/// unless said otherwise.
#[derive(Debug, Clone, PartialEq)]
pub struct NewTriple {
    pub subj: MemoryId,
    pub pred: String,
    pub obj: TripleObject,
    pub confidence: f64,
    pub source: Source,
}

impl NewTriple {
    pub fn text(subj: MemoryId, pred: &str, text: &str) -> NewTriple {
        NewTriple {
            subj,
            pred: pred.to_string(),
            obj: TripleObject::Text(text.to_string()),
            confidence: 1.0,
            source: Source::Told,
        }
    }

    pub fn memory(subj: MemoryId, pred: &str, obj: MemoryId) -> NewTriple {
        NewTriple { subj, pred: pred.to_string(), obj: TripleObject::Memory(obj), confidence: 1.0, source: Source::Told }
    }

    pub fn source(mut self, source: Source) -> NewTriple {
        self.source = source;
        self
    }

    pub fn confidence(mut self, confidence: f64) -> NewTriple {
        self.confidence = confidence;
        self
    }
}

/// A stored triple.
#[derive(Debug, Clone, PartialEq)]
pub struct TripleRow {
    pub id: MemoryId,
    pub subj: MemoryId,
    pub pred: String,
    pub obj: TripleObject,
    pub confidence: f64,
    pub source: Source,
}

impl TripleRow {
    /// The object's text, if it is text.
    pub fn text(&self) -> Option<&str> {
        match &self.obj {
            TripleObject::Text(t) => Some(t),
            TripleObject::Memory(_) => None,
        }
    }
}

const COLUMNS: &str = "id, subj, pred, obj, obj_text, confidence, source";

fn read_row(r: &Row) -> rusqlite::Result<TripleRow> {
    let id: MemoryId = r.get(0)?;
    let obj = match r.get::<_, Option<MemoryId>>(3)? {
        Some(m) => TripleObject::Memory(m),
        None => TripleObject::Text(r.get::<_, Option<String>>(4)?.unwrap_or_default()),
    };
    let source: String = r.get(6)?;
    Ok(TripleRow {
        id,
        subj: r.get(1)?,
        pred: r.get(2)?,
        obj,
        confidence: r.get(5)?,
        // The column has a CHECK constraint, so any other value cannot be stored.
        source: Source::parse(&source).unwrap_or(Source::Told),
    })
}

impl Memory {
    /// Adds a fact. The subject (and an object memory) must exist. Adding a fact that is already
    /// stored with the same source returns the existing triple's id instead of a duplicate.
    pub fn add_triple(&mut self, t: NewTriple) -> Result<MemoryId> {
        let pred = t.pred.trim().to_lowercase();
        if pred.is_empty() {
            return Err(MemoryError::Invalid("a triple needs a predicate".into()));
        }
        if !t.confidence.is_finite() || !(0.0..=1.0).contains(&t.confidence) {
            return Err(MemoryError::Invalid(format!("confidence {} is not between 0 and 1", t.confidence)));
        }
        if self.info(t.subj)?.is_none() {
            return Err(MemoryError::NotFound(t.subj));
        }
        let (obj, text, key) = match &t.obj {
            TripleObject::Memory(m) => {
                if self.info(*m)?.is_none() {
                    return Err(MemoryError::NotFound(*m));
                }
                (Some(*m), None, None)
            }
            TripleObject::Text(text) => {
                let text = text.trim();
                if text.is_empty() {
                    return Err(MemoryError::Invalid(format!("empty {pred} for memory {}", t.subj)));
                }
                (None, Some(text.to_string()), Some(stored_key(&pred, text)))
            }
        };
        let existing: Option<MemoryId> = self
            .conn
            .prepare_cached(
                "SELECT id FROM triples WHERE subj = ?1 AND pred = ?2 AND obj IS ?3 AND obj_text IS ?4 AND source = ?5",
            )?
            .query_row(params![t.subj, pred, obj, text, t.source.as_str()], |r| r.get(0))
            .optional()?;
        if let Some(id) = existing {
            return Ok(id);
        }
        self.lookups.clear();
        let tick = self.tick();
        let id = self.new_memory(MemoryKind::Triple, tick)?;
        self.conn
            .prepare_cached(
                "INSERT INTO triples (id, subj, pred, obj, obj_text, obj_key, confidence, source)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
            )?
            .execute(params![id, t.subj, pred, obj, text, key, t.confidence, t.source.as_str()])?;
        self.touch(t.subj, tick)?;
        Ok(id)
    }

    /// A player's tag for a memory ("that barn is tall" → `has_tag tall`).
    pub fn tag(&mut self, id: MemoryId, text: &str) -> Result<MemoryId> {
        self.add_triple(NewTriple::text(id, "has_tag", text))
    }

    /// A player's name for a memory ("that is alice's house" → `has_name alice's house`).
    pub fn name(&mut self, id: MemoryId, text: &str) -> Result<MemoryId> {
        self.add_triple(NewTriple::text(id, "has_name", text))
    }

    /// Every triple whose subject is `id`, oldest first.
    pub fn triples_of(&self, id: MemoryId) -> Result<Vec<TripleRow>> {
        let mut stmt = self.conn.prepare_cached(&format!("SELECT {COLUMNS} FROM triples WHERE subj = ?1 ORDER BY id"))?;
        let rows = stmt.query_map([id], read_row)?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    /// Every triple whose object is the memory `id`.
    pub fn triples_about(&self, id: MemoryId) -> Result<Vec<TripleRow>> {
        let mut stmt = self.conn.prepare_cached(&format!("SELECT {COLUMNS} FROM triples WHERE obj = ?1 ORDER BY id"))?;
        let rows = stmt.query_map([id], read_row)?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    /// The texts of `id`'s triples with predicate `pred`, told ones first.
    pub fn values_of(&self, id: MemoryId, pred: &str) -> Result<Vec<String>> {
        let mut stmt = self.conn.prepare_cached(
            "SELECT obj_text FROM triples WHERE subj = ?1 AND pred = ?2 AND obj_text IS NOT NULL
             ORDER BY source = 'perceived', confidence DESC, id",
        )?;
        let rows = stmt.query_map(params![id, pred], |r| r.get::<_, String>(0))?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    /// Removes one triple (and any triples about it). Returns whether it existed.
    pub fn remove_triple(&mut self, triple: MemoryId) -> Result<bool> {
        match self.kind_of(triple)? {
            Some(MemoryKind::Triple) => self.forget(triple),
            Some(other) => Err(MemoryError::WrongKind { id: triple, expected: "triple", actual: other.to_string() }),
            None => Ok(false),
        }
    }

    /// Replaces the perceived facts of `id` with `facts` (predicate, text), touching only the
    /// triples that differ, so an unchanged object costs no writes. Told triples are kept.
    pub(crate) fn set_perceived(&mut self, id: MemoryId, facts: &[(&str, String)]) -> Result<()> {
        let current: Vec<(MemoryId, String, String)> = {
            let mut stmt = self.conn.prepare_cached(
                "SELECT id, pred, obj_text FROM triples WHERE subj = ?1 AND source = 'perceived' AND obj_text IS NOT NULL",
            )?;
            let rows = stmt.query_map([id], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?;
            rows.collect::<rusqlite::Result<_>>()?
        };
        for (triple, pred, text) in &current {
            if !facts.iter().any(|(p, t)| p == pred && t == text) {
                self.forget(*triple)?;
            }
        }
        for (pred, text) in facts {
            if !current.iter().any(|(_, p, t)| p == pred && t == text) {
                self.add_triple(NewTriple::text(id, pred, text).source(Source::Perceived))?;
            }
        }
        Ok(())
    }

    /// Copies the told and inferred triples of `from` onto `to` (when two objects merge, the
    /// survivor keeps both names), and re-points triples about `from` at `to`.
    pub(crate) fn move_facts(&mut self, from: MemoryId, to: MemoryId) -> Result<()> {
        self.lookups.clear();
        for t in self.triples_of(from)? {
            if t.source == Source::Perceived {
                continue;
            }
            self.add_triple(NewTriple { subj: to, pred: t.pred, obj: t.obj, confidence: t.confidence, source: t.source })?;
        }
        self.conn.prepare_cached("UPDATE triples SET obj = ?2 WHERE obj = ?1")?.execute(params![from, to])?;
        // Whoever was attending to the merged object now attends to the survivor.
        self.conn
            .prepare_cached(
                "UPDATE memories SET attended_tick = max(coalesce(attended_tick, 0),
                    coalesce((SELECT attended_tick FROM memories WHERE id = ?1), 0))
                 WHERE id = ?2 AND (SELECT attended_tick FROM memories WHERE id = ?1) IS NOT NULL",
            )?
            .execute(params![from, to])?;
        Ok(())
    }
}
