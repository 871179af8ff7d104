//! The one-time look around: what perception does when it cannot trust the change record alone —
//! at start-up (a world loaded from disk, a restarted bot) and when the record's cursor went
//! backwards (a reconnect).
//!
//! It compares three sources and turns the differences into ordinary tracker edits, so the usual
//! identity rules decide what is new, what grew and what is gone:
//! - what memory remembers (the trackers, loaded from the database);
//! - the blocks around the agent now (unnatural blocks are built things);
//! - the change record so far, which alone can tell natural blocks a player placed from terrain,
//!   and which cells were dug out of the ground.
//!
//! Remembered cells far from the agent are checked one by one rather than by scanning, so a
//! large remembered world costs its cell count, not its volume.

use rustc_hash::{FxHashMap, FxHashSet};

use super::tracker::{Edit, Tracker};
use super::{PerceptionConfig, is_built, is_dug};
use crate::world::{Actor, BBox, BlockChange, Pos, World};

/// Edits that bring the block and hole trackers in line with the world.
pub fn reconcile(
    world: &dyn World,
    config: &PerceptionConfig,
    history: &[BlockChange],
    blocks: &Tracker,
    holes: &Tracker,
) -> (Vec<Edit>, Vec<Edit>) {
    let agent = world.agent_pos();
    let area = BBox::new(
        Pos::new(agent.x - config.scan_radius, agent.y - config.scan_below, agent.z - config.scan_radius),
        Pos::new(agent.x + config.scan_radius, agent.y + config.scan_above, agent.z + config.scan_radius),
    );
    let mut block_edits = Vec::new();
    let mut hole_edits = Vec::new();

    // Remembered blocks: still there, changed, or gone?
    let mut remembered: Vec<(Pos, crate::world::Block)> = blocks.all_cells().map(|(p, _, b)| (p, b)).collect();
    remembered.sort_unstable_by_key(|(p, _)| *p);
    for (p, b) in remembered {
        let now = world.block_at(p);
        if now == b {
            continue;
        }
        block_edits.push(if is_built(now, &Actor::World) { Edit::Set(p, now) } else { Edit::Clear(p) });
    }
    // Built things around the agent that memory does not have yet.
    let mut seen: Vec<(Pos, crate::world::Block)> = world
        .blocks_in(area)
        .into_iter()
        .filter(|(p, b)| is_built(*b, &Actor::World) && blocks.owner_of(*p).is_none())
        .collect();
    seen.sort_unstable_by_key(|(p, _)| *p);
    block_edits.extend(seen.into_iter().map(|(p, b)| Edit::Set(p, b)));

    // The record: natural blocks someone placed, and cells dug out of the terrain.
    let mut first: FxHashMap<Pos, &BlockChange> = FxHashMap::default();
    let mut last: FxHashMap<Pos, &BlockChange> = FxHashMap::default();
    for c in history {
        first.entry(c.pos).or_insert(c);
        last.insert(c.pos, c);
    }
    let mut positions: Vec<Pos> = last.keys().copied().collect();
    positions.sort_unstable();
    let mut placed_natural = FxHashSet::default();
    for &p in &positions {
        let now = world.block_at(p);
        let l = last[&p];
        if l.after == now && now.is_natural() && is_built(now, &l.by) && blocks.owner_of(p).is_none() {
            block_edits.push(Edit::Set(p, now));
            placed_natural.insert(p);
        }
        let f = first[&p];
        let dug = is_dug(&BlockChange { after: crate::world::Block::AIR, ..f.clone() });
        if dug && now.is_air() && holes.owner_of(p).is_none() {
            hole_edits.push(Edit::Set(p, f.before));
        }
    }
    // Remembered holes that were filled in meanwhile.
    let mut hole_cells: Vec<Pos> = holes.all_cells().map(|(p, _, _)| p).collect();
    hole_cells.sort_unstable();
    for p in hole_cells {
        if !world.block_at(p).is_air() {
            hole_edits.push(Edit::Clear(p));
        }
    }
    (block_edits, hole_edits)
}
