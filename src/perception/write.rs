//! Writing a tracker's regrouping into memory: new objects get rows, moved cells follow their
//! owner, merged objects hand their names to the survivor, destroyed ones are forgotten, and every
//! object that changed gets its perceived attributes recomputed.

use super::attributes;
use super::tracker::{Edit, Tracker};
use super::PerceptionReport;
use crate::memory::{Memory, MemoryError, MemoryKind};
use crate::world::{BBox, Pos, Vec3};

/// Applies `edits` to `tracker` and mirrors the outcome into `memory`.
pub fn apply(
    tracker: &mut Tracker,
    kind: MemoryKind,
    edits: &[Edit],
    memory: &mut Memory,
    report: &mut PerceptionReport,
) -> Result<(), MemoryError> {
    if edits.is_empty() {
        return Ok(());
    }
    let outcome = {
        let mut new_id = || -> Result<i64, MemoryError> {
            let id = memory.new_memory(kind, memory.tick())?;
            // A placeholder extent; the attribute pass below fills in the real one.
            memory.insert_object_row(id, kind, Vec3::default(), BBox::new(Pos::default(), Pos::default()), 0)?;
            Ok(id)
        };
        tracker.apply(edits, &mut new_id)?
    };
    // Survivors inherit what players said about the objects merged into them.
    for &(from, into) in &outcome.merged {
        memory.move_facts(from, into)?;
    }
    for &(from, _) in &outcome.merged {
        memory.forget(from)?;
    }
    for &id in &outcome.destroyed {
        memory.forget(id)?;
    }
    for w in &outcome.writes {
        match (w.old, w.new) {
            (Some(old), Some((new, _))) if old != new => memory.remove_cell(old, w.pos)?,
            (Some(old), None) => memory.remove_cell(old, w.pos)?,
            _ => {}
        }
        if let Some((new, block)) = w.new {
            memory.put_cell(new, w.pos, block)?;
        }
    }
    for &id in &outcome.changed {
        let Some(cells) = tracker.cells(id) else { continue };
        let summary = match kind {
            MemoryKind::Hole => attributes::hole(cells),
            // What a build made is what it was asked to be: no shape guess beside its name.
            _ if tracker.is_pinned(id) => attributes::built_object(cells),
            _ => attributes::block_object(cells),
        };
        let Some(summary) = summary else { continue };
        memory.set_object_extent(id, summary.pos, summary.bbox, summary.voxels)?;
        memory.set_perceived(id, &summary.facts)?;
    }
    report.created.extend(&outcome.created);
    report.changed.extend(outcome.changed.iter().filter(|id| !outcome.created.contains(id)));
    report.merged.extend(&outcome.merged);
    report.destroyed.extend(&outcome.destroyed);
    Ok(())
}
