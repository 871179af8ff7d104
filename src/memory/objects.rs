//! Reference objects: the things in the world words can point at.
//!
//! Block objects (what people built), holes (what was dug), mobs, players, the agent itself and
//! named locations share one table with a position, a bounding box and, for entities, a look. The
//! blocks of block objects and holes are kept too, one row per cell, so "destroy that" knows
//! exactly which blocks to break and a restarted bot still has the shapes it saw.
//!
//! Perception is the main writer; the interpreter mostly reads (and may add locations).

use rusqlite::{OptionalExtension, Row, params};

use super::error::{MemoryError, Result};
use super::query::names::name_key;
use super::store::{Memory, tick_sql};
use super::triples::NewTriple;
use super::types::{MemoryId, MemoryKind, Source};
use crate::world::{BBox, Block, Look, Pos, Vec3};

/// A reference object as stored.
#[derive(Debug, Clone, PartialEq)]
pub struct RefObject {
    pub id: MemoryId,
    pub kind: MemoryKind,
    /// Centre of a block object or hole; feet of an entity; the spot of a location.
    pub pos: Vec3,
    pub bbox: BBox,
    /// Entities only.
    pub look: Option<Look>,
    /// Number of cells (blocks of a block object, air cells of a hole); 1 for others.
    pub voxels: u64,
    /// A mob's entity id in the world.
    pub entity_id: Option<u64>,
    /// A player's name (also the agent's own name for SELF).
    pub player: Option<String>,
}

impl RefObject {
    /// Distance from `p` to the object: to the nearest point of its box for block objects and
    /// holes (a long wall is close when any part of it is), to its position otherwise.
    pub fn distance_to(&self, p: Vec3) -> f64 {
        match self.kind {
            MemoryKind::BlockObject | MemoryKind::Hole => distance_to_box(&self.bbox, p),
            _ => self.pos.distance(p),
        }
    }
}

/// Distance from a point to the nearest point of an inclusive block box.
pub fn distance_to_box(b: &BBox, p: Vec3) -> f64 {
    let clamp = |v: f64, lo: i32, hi: i32| v.clamp(lo as f64, hi as f64 + 1.0);
    p.distance(Vec3::new(clamp(p.x, b.min.x, b.max.x), clamp(p.y, b.min.y, b.max.y), clamp(p.z, b.min.z, b.max.z)))
}

/// A block object or hole with its cells.
#[derive(Debug, Clone, PartialEq)]
pub struct BlockObject {
    pub id: MemoryId,
    pub kind: MemoryKind,
    pub bbox: BBox,
    /// For a hole, the block that was dug out of each cell.
    pub blocks: Vec<(Pos, Block)>,
}

/// A new position (and look) for an entity, as perception sees it each tick.
#[derive(Debug, Clone, PartialEq)]
pub struct EntitySighting {
    /// [`MemoryKind::Mob`], [`MemoryKind::Player`] or [`MemoryKind::SelfAgent`].
    pub kind: MemoryKind,
    /// Mobs: the world's entity id.
    pub entity_id: Option<u64>,
    /// Players and the agent: their name.
    pub player: Option<String>,
    /// The name triple a new entity gets: the mob kind ("pig") or the player's name.
    pub name: String,
    pub pos: Vec3,
    pub look: Option<Look>,
}

pub(crate) const OBJECT_COLUMNS: &str =
    "o.id, o.ref_type, o.x, o.y, o.z, o.min_x, o.min_y, o.min_z, o.max_x, o.max_y, o.max_z, o.yaw, o.pitch, o.voxels, o.entity_id, o.player";

pub(crate) fn read_object(r: &Row) -> rusqlite::Result<RefObject> {
    let kind: String = r.get(1)?;
    let yaw: Option<f64> = r.get(11)?;
    let pitch: Option<f64> = r.get(12)?;
    Ok(RefObject {
        id: r.get(0)?,
        kind: MemoryKind::parse(&kind).unwrap_or(MemoryKind::BlockObject),
        pos: Vec3::new(r.get(2)?, r.get(3)?, r.get(4)?),
        bbox: BBox {
            min: Pos::new(r.get(5)?, r.get(6)?, r.get(7)?),
            max: Pos::new(r.get(8)?, r.get(9)?, r.get(10)?),
        },
        look: match (yaw, pitch) {
            (Some(y), Some(p)) => Some(Look::new(y as f32, p as f32)),
            _ => None,
        },
        voxels: r.get::<_, i64>(13)?.max(0) as u64,
        entity_id: r.get::<_, Option<i64>>(14)?.map(|e| e as u64),
        player: r.get(15)?,
    })
}

impl Memory {
    /// A reference object by id.
    pub fn object(&self, id: MemoryId) -> Result<Option<RefObject>> {
        let mut stmt = self.conn.prepare_cached(&format!("SELECT {OBJECT_COLUMNS} FROM reference_objects o WHERE o.id = ?1"))?;
        Ok(stmt.query_row([id], read_object).optional()?)
    }

    /// All reference objects of one kind, oldest first.
    pub fn objects_of_kind(&self, kind: MemoryKind) -> Result<Vec<RefObject>> {
        let mut stmt = self
            .conn
            .prepare_cached(&format!("SELECT {OBJECT_COLUMNS} FROM reference_objects o WHERE o.ref_type = ?1 ORDER BY o.id"))?;
        let rows = stmt.query_map([kind.as_str()], read_object)?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    /// A block object or hole with its cells and box.
    pub fn block_object(&self, id: MemoryId) -> Result<Option<BlockObject>> {
        let Some(obj) = self.object(id)? else { return Ok(None) };
        if !matches!(obj.kind, MemoryKind::BlockObject | MemoryKind::Hole) {
            return Err(MemoryError::WrongKind { id, expected: "block object or hole", actual: obj.kind.to_string() });
        }
        let mut stmt = self
            .conn
            .prepare_cached("SELECT x, y, z, block FROM object_blocks WHERE object_id = ?1 ORDER BY y, z, x")?;
        let rows = stmt.query_map([id], |r| {
            Ok((Pos::new(r.get(0)?, r.get(1)?, r.get(2)?), r.get::<_, String>(3)?))
        })?;
        let mut blocks = Vec::new();
        for row in rows {
            let (pos, name) = row?;
            blocks.push((pos, Block::intern(&name)));
        }
        Ok(Some(BlockObject { id, kind: obj.kind, bbox: obj.bbox, blocks }))
    }

    /// Reference objects a name, tag or perceived shape calls `name` ("houses" finds a house).
    pub fn objects_with_name(&self, name: &str) -> Result<Vec<MemoryId>> {
        let key = name_key(name);
        let mut stmt = self.conn.prepare_cached(
            "SELECT DISTINCT t.subj FROM triples t JOIN reference_objects o ON o.id = t.subj
             WHERE t.pred IN ('has_name', 'has_tag', 'has_shape') AND t.obj_key = ?1 ORDER BY t.subj",
        )?;
        let rows = stmt.query_map([key], |r| r.get(0))?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    /// Is `word` one word of a name or tag a thing was given ("tim" of "big tim")? A word the
    /// player used in a name is theirs, never a typo.
    pub fn is_word_of_a_name(&self, word: &str) -> Result<bool> {
        let key = name_key(word);
        let mut stmt = self.conn.prepare_cached(
            "SELECT 1 FROM triples t JOIN reference_objects o ON o.id = t.subj
             WHERE t.pred IN ('has_name', 'has_tag') AND (' ' || t.obj_key || ' ') LIKE ('% ' || ?1 || ' %') LIMIT 1",
        )?;
        Ok(stmt.exists([key])?)
    }

    /// The block object or hole occupying cell `p`, if any.
    pub fn object_at(&self, p: Pos) -> Result<Option<MemoryId>> {
        let mut stmt =
            self.conn.prepare_cached("SELECT object_id FROM object_blocks WHERE x = ?1 AND y = ?2 AND z = ?3 LIMIT 1")?;
        Ok(stmt.query_row(params![p.x, p.y, p.z], |r| r.get(0)).optional()?)
    }

    /// The reference object of one of `kinds` (any kind when empty) closest to `p`, with its distance.
    pub fn closest_object_to(&self, p: Vec3, kinds: &[MemoryKind]) -> Result<Option<(MemoryId, f64)>> {
        let mut stmt = self.conn.prepare_cached(&format!("SELECT {OBJECT_COLUMNS} FROM reference_objects o"))?;
        let rows = stmt.query_map([], read_object)?;
        let mut best: Option<(MemoryId, f64)> = None;
        for row in rows {
            let obj = row?;
            if !kinds.is_empty() && !kinds.contains(&obj.kind) {
                continue;
            }
            let d = obj.distance_to(p);
            if best.is_none_or(|(_, bd)| d < bd) {
                best = Some((obj.id, d));
            }
        }
        Ok(best)
    }

    /// Remembers a named place ("this spot is home").
    pub fn add_location(&mut self, name: &str, at: Pos) -> Result<MemoryId> {
        if name.trim().is_empty() {
            return Err(MemoryError::Invalid("a location needs a name".into()));
        }
        self.batch(|m| {
            let id = m.new_memory(MemoryKind::Location, m.tick())?;
            m.insert_object_row(id, MemoryKind::Location, at.center(), BBox::new(at, at), 1)?;
            m.name(id, name)?;
            Ok(id)
        })
    }

    /// Stores a block object from its blocks (perception normally does this; the interpreter may
    /// use it for something it knows it built). Returns the new id.
    pub fn add_block_object(&mut self, blocks: &[(Pos, Block)]) -> Result<MemoryId> {
        self.add_cells(MemoryKind::BlockObject, blocks)
    }

    /// Stores a block object or hole with its cells.
    pub(crate) fn add_cells(&mut self, kind: MemoryKind, cells: &[(Pos, Block)]) -> Result<MemoryId> {
        let Some(bbox) = bbox_of(cells.iter().map(|(p, _)| *p)) else {
            return Err(MemoryError::Invalid("an object needs at least one block".into()));
        };
        self.batch(|m| {
            let id = m.new_memory(kind, m.tick())?;
            m.insert_object_row(id, kind, centroid(cells.iter().map(|(p, _)| *p)), bbox, cells.len() as u64)?;
            for &(p, b) in cells {
                m.put_cell(id, p, b)?;
            }
            Ok(id)
        })
    }

    pub(crate) fn insert_object_row(&self, id: MemoryId, kind: MemoryKind, pos: Vec3, bbox: BBox, voxels: u64) -> Result<()> {
        self.conn
            .prepare_cached(
                "INSERT INTO reference_objects (id, ref_type, x, y, z, min_x, min_y, min_z, max_x, max_y, max_z, voxels)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)",
            )?
            .execute(params![
                id, kind.as_str(), pos.x, pos.y, pos.z, bbox.min.x, bbox.min.y, bbox.min.z, bbox.max.x, bbox.max.y,
                bbox.max.z, voxels as i64
            ])?;
        Ok(())
    }

    /// Updates the position, box and cell count of a block object or hole.
    pub(crate) fn set_object_extent(&self, id: MemoryId, pos: Vec3, bbox: BBox, voxels: u64) -> Result<()> {
        self.conn
            .prepare_cached(
                "UPDATE reference_objects SET x = ?2, y = ?3, z = ?4, min_x = ?5, min_y = ?6, min_z = ?7,
                 max_x = ?8, max_y = ?9, max_z = ?10, voxels = ?11 WHERE id = ?1",
            )?
            .execute(params![
                id, pos.x, pos.y, pos.z, bbox.min.x, bbox.min.y, bbox.min.z, bbox.max.x, bbox.max.y, bbox.max.z,
                voxels as i64
            ])?;
        self.touch(id, self.tick())
    }

    /// Sets (or moves) one cell of a block object or hole.
    pub(crate) fn put_cell(&self, id: MemoryId, p: Pos, block: Block) -> Result<()> {
        self.conn
            .prepare_cached("INSERT OR REPLACE INTO object_blocks (object_id, x, y, z, block) VALUES (?1, ?2, ?3, ?4, ?5)")?
            .execute(params![id, p.x, p.y, p.z, block.name()])?;
        Ok(())
    }

    /// Removes one cell from a block object or hole.
    pub(crate) fn remove_cell(&self, id: MemoryId, p: Pos) -> Result<()> {
        self.conn
            .prepare_cached("DELETE FROM object_blocks WHERE object_id = ?1 AND x = ?2 AND y = ?3 AND z = ?4")?
            .execute(params![id, p.x, p.y, p.z])?;
        Ok(())
    }

    /// Every stored cell of every object of `kind` (perception reloads these after a restart).
    pub(crate) fn all_cells(&self, kind: MemoryKind) -> Result<Vec<(MemoryId, Pos, Block)>> {
        let mut stmt = self.conn.prepare_cached(
            "SELECT b.object_id, b.x, b.y, b.z, b.block FROM object_blocks b
             JOIN reference_objects o ON o.id = b.object_id WHERE o.ref_type = ?1",
        )?;
        read_cells(&mut stmt, [kind.as_str()])
    }

    // ---------- entities ----------

    /// The agent's own memory (SELF), once perception has seen it.
    pub fn self_id(&self) -> Result<Option<MemoryId>> {
        let mut stmt = self.conn.prepare_cached("SELECT id FROM reference_objects WHERE ref_type = 'self' LIMIT 1")?;
        Ok(stmt.query_row([], |r| r.get(0)).optional()?)
    }

    /// A player's memory by name.
    pub fn player_id(&self, name: &str) -> Result<Option<MemoryId>> {
        let mut stmt =
            self.conn.prepare_cached("SELECT id FROM reference_objects WHERE ref_type = 'player' AND player = ?1 LIMIT 1")?;
        Ok(stmt.query_row([name], |r| r.get(0)).optional()?)
    }

    /// A mob's memory by the world's entity id.
    pub fn mob_id(&self, entity_id: u64) -> Result<Option<MemoryId>> {
        let mut stmt = self.conn.prepare_cached("SELECT id FROM reference_objects WHERE entity_id = ?1")?;
        Ok(stmt.query_row([entity_id as i64], |r| r.get(0)).optional()?)
    }

    /// Creates or moves an entity. Returns its id and whether it was new. A new entity gets a
    /// perceived `has_name` triple (the mob kind, the player's name).
    pub fn sight_entity(&mut self, s: &EntitySighting) -> Result<(MemoryId, bool)> {
        let existing = match s.kind {
            MemoryKind::SelfAgent => self.self_id()?,
            MemoryKind::Player => match &s.player {
                Some(name) => self.player_id(name)?,
                None => return Err(MemoryError::Invalid("a player sighting needs the player's name".into())),
            },
            MemoryKind::Mob => match s.entity_id {
                Some(e) => self.mob_id(e)?,
                None => return Err(MemoryError::Invalid("a mob sighting needs its entity id".into())),
            },
            other => return Err(MemoryError::Invalid(format!("{other} is not an entity"))),
        };
        let cell = s.pos.block();
        let (yaw, pitch) = match s.look {
            Some(l) => (Some(l.yaw as f64), Some(l.pitch as f64)),
            None => (None, None),
        };
        if let Some(id) = existing {
            self.conn
                .prepare_cached(
                    "UPDATE reference_objects SET x = ?2, y = ?3, z = ?4, min_x = ?5, min_y = ?6, min_z = ?7,
                     max_x = ?5, max_y = ?6, max_z = ?7, yaw = ?8, pitch = ?9, player = coalesce(?10, player)
                     WHERE id = ?1",
                )?
                .execute(params![id, s.pos.x, s.pos.y, s.pos.z, cell.x, cell.y, cell.z, yaw, pitch, s.player])?;
            self.conn
                .prepare_cached("UPDATE memories SET updated_tick = ?2 WHERE id = ?1")?
                .execute(params![id, tick_sql(self.tick())])?;
            return Ok((id, false));
        }
        self.batch(|m| {
            let id = m.new_memory(s.kind, m.tick())?;
            m.insert_object_row(id, s.kind, s.pos, BBox::new(cell, cell), 1)?;
            m.conn
                .prepare_cached("UPDATE reference_objects SET yaw = ?2, pitch = ?3, entity_id = ?4, player = ?5 WHERE id = ?1")?
                .execute(params![id, yaw, pitch, s.entity_id.map(|e| e as i64), s.player])?;
            let name = s.name.replace('_', " ");
            m.add_triple(NewTriple::text(id, "has_name", &name).source(Source::Perceived))?;
            Ok((id, true))
        })
    }
}

/// The smallest box holding all positions, `None` for none.
/// Rows of (object id, x, y, z, block name) as cells.
pub(crate) fn read_cells(stmt: &mut rusqlite::Statement, params: impl rusqlite::Params) -> Result<Vec<(MemoryId, Pos, Block)>> {
    let rows = stmt.query_map(params, |r| {
        Ok((r.get::<_, MemoryId>(0)?, Pos::new(r.get(1)?, r.get(2)?, r.get(3)?), r.get::<_, String>(4)?))
    })?;
    let mut out = Vec::new();
    for row in rows {
        let (id, p, name) = row?;
        out.push((id, p, Block::intern(&name)));
    }
    Ok(out)
}

pub fn bbox_of(positions: impl IntoIterator<Item = Pos>) -> Option<BBox> {
    let mut it = positions.into_iter();
    let first = it.next()?;
    Some(it.fold(BBox::new(first, first), |b, p| b.union(&BBox::new(p, p))))
}

/// The mean of block centres.
pub fn centroid(positions: impl IntoIterator<Item = Pos>) -> Vec3 {
    let (mut sx, mut sy, mut sz, mut n) = (0.0, 0.0, 0.0, 0usize);
    for p in positions {
        let c = p.center();
        sx += c.x;
        sy += c.y;
        sz += c.z;
        n += 1;
    }
    if n == 0 { Vec3::default() } else { Vec3::new(sx / n as f64, sy / n as f64, sz / n as f64) }
}
