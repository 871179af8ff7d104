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
//! large remembered world costs its cell count, not its volume. A cell the world cannot see yet
//! (a live server sends terrain only around the bot) is not taken for air: it is left as
//! remembered and checked once it can be seen ([`recheck`]).

use rustc_hash::FxHashMap;

use super::tracker::{Edit, Tracker};
use super::{Effect, PerceptionConfig, effects, is_built};
use crate::world::{Actor, BBox, BlockChange, Pos, World};

/// What the look around found: edits for the block and hole trackers, and the remembered cells
/// the world could not show yet.
pub struct Reconciled {
    pub blocks: Vec<Edit>,
    pub holes: Vec<Edit>,
    pub unseen: Vec<Pos>,
}

/// Edits that bring the block and hole trackers in line with the world.
pub fn reconcile(
    world: &dyn World,
    config: &PerceptionConfig,
    history: &[BlockChange],
    blocks: &Tracker,
    holes: &Tracker,
) -> Reconciled {
    let agent = world.agent_pos();
    // Pos arithmetic saturates: at the edge of the coordinates the box is cut, never wrapped.
    let area = BBox::new(
        agent - Pos::new(config.scan_radius, config.scan_below, config.scan_radius),
        agent + Pos::new(config.scan_radius, config.scan_above, config.scan_radius),
    );
    let mut block_edits = Vec::new();
    let mut hole_edits = Vec::new();

    // Remembered blocks: still there, changed, or gone? Unknown is not gone.
    let mut remembered: Vec<Pos> = blocks.all_cells().map(|(p, _, _)| p).collect();
    remembered.sort_unstable();
    let mut unseen = Vec::new();
    for p in remembered {
        if world.is_known(p) {
            block_edits.extend(remembered_block(world, blocks, p));
        } else {
            unseen.push(p);
        }
    }
    // Built things around the agent that memory does not have yet.
    let mut seen: Vec<(Pos, crate::world::Block)> = world
        .blocks_in(area)
        .into_iter()
        .filter(|(p, b)| is_built(*b, &Actor::World) && blocks.owner_of(*p).is_none() && !world.made_by_world(*p))
        .collect();
    seen.sort_unstable_by_key(|(p, _)| *p);
    block_edits.extend(seen.into_iter().map(|(p, b)| Edit::Set(p, b)));

    // The record, cell by cell in order: natural blocks someone placed, and cells dug out of
    // the terrain. Before the record starts every cell holds what the world made, nothing built.
    let effects = effects(history, |_| false);
    let mut cells: FxHashMap<Pos, Vec<(&BlockChange, Effect)>> = FxHashMap::default();
    for (c, e) in history.iter().zip(effects) {
        cells.entry(c.pos).or_default().push((c, e));
    }
    let mut positions: Vec<Pos> = cells.keys().copied().collect();
    positions.sort_unstable();
    for p in positions.into_iter().filter(|p| world.is_known(*p)) {
        let now = world.block_at(p);
        let changes = &cells[&p];
        let (last, _) = changes[changes.len() - 1];
        if last.after == now && now.is_natural() && is_built(now, &last.by) && blocks.owner_of(p).is_none() {
            block_edits.push(Edit::Set(p, now));
        }
        // The terrain block taken out when the cell last became a hole, if it did.
        let mut dug_out = None;
        for (c, e) in changes {
            if *e == Effect::Dug {
                dug_out = Some(c.before);
            } else if !c.after.is_air() {
                dug_out = None;
            }
        }
        if let Some(terrain) = dug_out
            && now.is_air()
            && holes.owner_of(p).is_none()
        {
            hole_edits.push(Edit::Set(p, terrain));
        }
    }
    // Remembered holes that were filled in meanwhile.
    let mut hole_cells: Vec<Pos> = holes.all_cells().map(|(p, _, _)| p).collect();
    hole_cells.sort_unstable();
    for p in hole_cells {
        if !world.is_known(p) {
            unseen.push(p);
        } else if !world.block_at(p).is_air() {
            hole_edits.push(Edit::Clear(p));
        }
    }
    Reconciled { blocks: block_edits, holes: hole_edits, unseen }
}

/// The edit a remembered block's cell needs, if the world shows something else there now.
fn remembered_block(world: &dyn World, blocks: &Tracker, p: Pos) -> Option<Edit> {
    let now = world.block_at(p);
    let remembered = blocks.owner_of(p).and_then(|id| blocks.cells(id)?.get(&p).copied());
    match remembered {
        Some(b) if b == now => None,
        Some(_) => Some(if is_built(now, &Actor::World) { Edit::Set(p, now) } else { Edit::Clear(p) }),
        None => None,
    }
}

/// Checks the remembered cells the world could not show before and can now, as the look around
/// would have (`unseen` keeps the rest). A block cell changed meanwhile is set or cleared; a
/// hole cell filled meanwhile is cleared.
pub fn recheck(world: &dyn World, unseen: &mut Vec<Pos>, blocks: &Tracker, holes: &Tracker) -> (Vec<Edit>, Vec<Edit>) {
    let (mut block_edits, mut hole_edits) = (Vec::new(), Vec::new());
    unseen.retain(|&p| {
        if !world.is_known(p) {
            return true;
        }
        if holes.owner_of(p).is_some() {
            if !world.block_at(p).is_air() {
                hole_edits.push(Edit::Clear(p));
            }
        } else {
            block_edits.extend(remembered_block(world, blocks, p));
        }
        false
    });
    (block_edits, hole_edits)
}
