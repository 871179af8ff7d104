//! Stage 1 of a query: the memories that pass the where clause, read with what later stages
//! need (position, box, times) in one SQL statement.
//!
//! Every memory type is read into the same [`Candidate`] shape, so selection and output do not
//! care whether they rank block objects, tasks or chat lines. The SQL text only depends on the
//! shape of the filters, not on the words, so SQLite's prepared statements are reused.

use rusqlite::types::Value as SqlValue;

use super::super::error::Result;
use super::super::store::{Memory, tick_rust};
use super::super::types::{MemoryId, MemoryKind};
use crate::world::{BBox, Look, Pos, Vec3};

/// Which table a query reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Source {
    /// Reference objects of every kind (REFERENCE_OBJECT, the default).
    Objects,
    /// Only the agent itself (AGENT).
    Agent,
    Tasks,
    Chats,
    Triples,
}

impl Source {
    /// Things with a place in the world.
    pub fn is_spatial(self) -> bool {
        matches!(self, Source::Objects | Source::Agent)
    }
}

/// A compiled condition: SQL text over the aliases of [`fetch`] plus its parameters.
#[derive(Debug, Clone, Default)]
pub struct Condition {
    pub sql: String,
    pub params: Vec<SqlValue>,
    /// When set, only these memories can match (the pre-intersected simple lookups).
    pub ids: Option<Vec<MemoryId>>,
}

/// A memory that passed the where clause.
#[derive(Debug, Clone, PartialEq)]
pub struct Candidate {
    pub id: MemoryId,
    pub kind: MemoryKind,
    pub created: u64,
    pub updated: u64,
    pub attended: Option<u64>,
    pub pos: Option<Vec3>,
    pub bbox: Option<BBox>,
    pub look: Option<Look>,
    pub voxels: u64,
}

impl Candidate {
    /// Distance from `p`: to the nearest point of the box for block objects and holes, to the
    /// position for everything else; `None` for memories with no place.
    pub fn distance_to(&self, p: Vec3) -> Option<f64> {
        match (self.kind, self.bbox) {
            (MemoryKind::BlockObject | MemoryKind::Hole, Some(b)) => Some(super::super::objects::distance_to_box(&b, p)),
            _ => self.pos.map(|q| q.distance(p)),
        }
    }
}

/// Reads the candidates of `source` passing `condition`.
///
/// Aliases available to conditions: `m` (memories) always; `o` (reference_objects) for objects;
/// `k` (tasks), `c` (chats) or `t` (triples) for those sources.
pub fn fetch(memory: &Memory, source: Source, condition: &Condition) -> Result<Vec<Candidate>> {
    let mut params = condition.params.clone();
    let condition_sql = match &condition.ids {
        Some(ids) if ids.is_empty() => return Ok(Vec::new()),
        Some(ids) => {
            // One JSON parameter keeps the statement text (and so the prepared statement) stable.
            let list = ids.iter().map(|i| i.to_string()).collect::<Vec<_>>().join(",");
            params.push(SqlValue::Text(format!("[{list}]")));
            format!("m.id IN (SELECT value FROM json_each(?{})) AND ({})", params.len(), condition.sql)
        }
        None => condition.sql.clone(),
    };
    let condition = Condition { sql: condition_sql, params, ids: None };
    let sql = match source {
        Source::Objects | Source::Agent => format!(
            "SELECT m.id, m.kind, m.created_tick, m.updated_tick, m.attended_tick,
                    o.x, o.y, o.z, o.min_x, o.min_y, o.min_z, o.max_x, o.max_y, o.max_z, o.yaw, o.pitch, o.voxels
             FROM reference_objects o JOIN memories m ON m.id = o.id
             WHERE {} ({})",
            if source == Source::Agent { "o.ref_type = 'self' AND" } else { "" },
            condition.sql
        ),
        Source::Tasks => table_sql("tasks k", &condition.sql),
        Source::Chats => table_sql("chats c", &condition.sql),
        Source::Triples => table_sql("triples t", &condition.sql),
    };
    let mut stmt = memory.conn.prepare_cached(&sql)?;
    let rows = stmt.query_map(rusqlite::params_from_iter(condition.params.iter()), |r| {
        let kind: String = r.get(1)?;
        let x: Option<f64> = r.get(5)?;
        let pos = match (x, r.get::<_, Option<f64>>(6)?, r.get::<_, Option<f64>>(7)?) {
            (Some(x), Some(y), Some(z)) => Some(Vec3::new(x, y, z)),
            _ => None,
        };
        let corner = |i: usize| -> rusqlite::Result<Option<Pos>> {
            Ok(match (r.get::<_, Option<i32>>(i)?, r.get::<_, Option<i32>>(i + 1)?, r.get::<_, Option<i32>>(i + 2)?) {
                (Some(x), Some(y), Some(z)) => Some(Pos::new(x, y, z)),
                _ => None,
            })
        };
        let bbox = match (corner(8)?, corner(11)?) {
            (Some(min), Some(max)) => Some(BBox { min, max }),
            _ => None,
        };
        let look = match (r.get::<_, Option<f64>>(14)?, r.get::<_, Option<f64>>(15)?) {
            (Some(yaw), Some(pitch)) => Some(Look::new(yaw as f32, pitch as f32)),
            _ => None,
        };
        Ok(Candidate {
            id: r.get(0)?,
            kind: MemoryKind::parse(&kind).unwrap_or(MemoryKind::BlockObject),
            created: tick_rust(r.get(2)?),
            updated: tick_rust(r.get(3)?),
            attended: r.get::<_, Option<i64>>(4)?.map(tick_rust),
            pos,
            bbox,
            look,
            voxels: r.get::<_, Option<i64>>(16)?.unwrap_or(0).max(0) as u64,
        })
    })?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// The same columns for a table without a place: positions are NULL.
fn table_sql(table: &str, condition: &str) -> String {
    let alias = table.rsplit(' ').next().unwrap_or("x");
    format!(
        "SELECT m.id, m.kind, m.created_tick, m.updated_tick, m.attended_tick,
                NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL
         FROM {table} JOIN memories m ON m.id = {alias}.id
         WHERE ({condition})"
    )
}
