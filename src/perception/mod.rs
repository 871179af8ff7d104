//! Perception: turning what the world shows into memories, every tick.
//!
//! - **Block objects** are maximal 26-connected groups of placed (non-natural) blocks. They are
//!   kept up to date *incrementally* from the world's block-change record
//!   ([`World::changes_since`]): each tick only the changed cells and the objects they touch are
//!   looked at, never the whole area. Identity survives edits (see [`tracker`]): a tower that
//!   grows keeps its id and its names, a split keeps the id on the largest part, a merge keeps
//!   the older id and both objects' names, and an object whose last block goes is forgotten.
//! - **Holes** are connected air cells where natural terrain was dug out (the record shows a
//!   natural block nobody had placed turned into air), so "fill that hole" has something to
//!   point at; taking down the agent's dirt scaffold is not digging ([`effects`]).
//! - **Attributes** (colour, block types, size class, extents, a shape guess) are stored as
//!   perceived triples and refreshed when an object changes ([`attributes`], [`shape`]).
//! - **Players, mobs and the agent itself** (SELF) are reference objects whose position and look
//!   are rewritten every tick they move ([`entities`]).
//!
//! On the first update — and whenever the change record's cursor goes backwards (a reconnect, a
//! world swapped under the bot) — perception reloads what memory already knows and looks once at
//! the area around the agent ([`scan`]), so a bot restarted on a saved world keeps the ids, and
//! so the names, it had. Everything one update writes is one transaction.

pub mod attributes;
pub mod entities;
pub mod scan;
pub mod shape;
pub mod tracker;
mod write;

#[cfg(test)]
mod tests;
#[cfg(test)]
mod unseen_tests;

use rustc_hash::FxHashMap;

use crate::memory::{Memory, MemoryError, MemoryId, MemoryKind};
use crate::world::{Actor, Block, BlockChange, ChatMessage, Pos, World};

use entities::EntityCache;
use tracker::{Edit, Tracker};

/// How far around the agent the start-up scan looks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PerceptionConfig {
    /// Blocks from the agent along x and z.
    pub scan_radius: i32,
    /// Blocks below the agent's feet.
    pub scan_below: i32,
    /// Blocks above the agent's feet.
    pub scan_above: i32,
}

impl Default for PerceptionConfig {
    fn default() -> Self {
        PerceptionConfig { scan_radius: 24, scan_below: 12, scan_above: 24 }
    }
}

/// What one update did.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PerceptionReport {
    /// Block changes read from the change record.
    pub block_changes: usize,
    /// Whether this update scanned the area (start-up, or the cursor went backwards).
    pub scanned: bool,
    pub created: Vec<MemoryId>,
    pub changed: Vec<MemoryId>,
    /// `(from, into)` pairs of merged objects.
    pub merged: Vec<(MemoryId, MemoryId)>,
    pub destroyed: Vec<MemoryId>,
    /// Entities whose row was written (new or moved).
    pub entities_written: usize,
}

/// The perception module: call [`Perception::update`] once per tick.
#[derive(Debug, Default)]
pub struct Perception {
    config: PerceptionConfig,
    /// Position in the world's change record; `None` until the first update.
    cursor: Option<usize>,
    /// Trackers reflect memory; false until loaded, and again after a failed write.
    loaded: bool,
    blocks: Tracker,
    holes: Tracker,
    entities: EntityCache,
    /// Cells running builds mean to place, and for which object (see `memory::builds`).
    planned: FxHashMap<Pos, MemoryId>,
    /// The memory's plans version `planned` was read at.
    plans_seen: Option<u64>,
    /// Remembered cells the world could not show at the last look around (see [`scan::recheck`]).
    unseen: Vec<Pos>,
}

/// Ticks between two looks at the remembered cells the world could not show yet.
const RECHECK_EVERY: u64 = 20;

impl Perception {
    pub fn new() -> Perception {
        Perception::default()
    }

    pub fn with_config(config: PerceptionConfig) -> Perception {
        Perception { config, ..Perception::default() }
    }

    /// Looks at the world and writes what changed into memory (one transaction). On error nothing
    /// of this update is kept, and the next update reloads from memory and rescans.
    pub fn update(&mut self, world: &dyn World, memory: &mut Memory) -> Result<PerceptionReport, MemoryError> {
        memory.set_tick(world.tick());
        let result = memory.batch(|m| self.update_inner(world, m));
        if result.is_err() {
            self.loaded = false;
            self.cursor = None;
            self.entities = EntityCache::default();
        }
        result
    }

    /// Makes the next update reload from memory and scan the area again.
    pub fn request_rescan(&mut self) {
        self.cursor = None;
    }

    /// Stores chat lines as they arrive (the agent hands them over after `take_chats`).
    pub fn record_chats(&self, chats: &[ChatMessage], memory: &mut Memory) -> Result<Vec<MemoryId>, MemoryError> {
        memory.batch(|m| chats.iter().map(|c| m.record_chat(&c.speaker, &c.text, c.tick)).collect())
    }

    /// The block object holding a cell, as perception currently sees it.
    pub fn object_at(&self, p: Pos) -> Option<MemoryId> {
        self.blocks.owner_of(p).or_else(|| self.holes.owner_of(p))
    }

    fn update_inner(&mut self, world: &dyn World, memory: &mut Memory) -> Result<PerceptionReport, MemoryError> {
        let mut report = PerceptionReport::default();
        if !self.loaded {
            self.blocks = Tracker::load(memory.all_cells(MemoryKind::BlockObject)?);
            self.blocks.pin(memory.built_objects()?);
            self.holes = Tracker::load(memory.all_cells(MemoryKind::Hole)?);
            self.plans_seen = None;
            self.entities = EntityCache::load(memory)?;
            self.loaded = true;
            self.cursor = None;
        }
        // Cells the agent itself built or dug this update: a thing the agent starts making is
        // what "it" and "that" mean next, so a new object of the agent's is marked as attended
        // (once, when it appears: what players talk about later, even mid-build, wins).
        let mut by_agent: Vec<(Pos, bool)> = Vec::new();
        if self.plans_seen != Some(memory.plans_version()) {
            let plans = memory.plans()?;
            self.blocks.pin(plans.iter().map(|(id, _, _)| *id));
            // What a build is making stays while it runs, even emptied by a fresh world; once
            // its build is over, an empty one is gone.
            for id in self.blocks.reserve(plans.iter().map(|(id, _, _)| *id)) {
                if memory.forget(id)? {
                    report.destroyed.push(id);
                }
            }
            self.planned = plans.into_iter().map(|(id, p, _)| (p, id)).collect();
            self.plans_seen = Some(memory.plans_version());
        }
        let (block_edits, hole_edits) = match self.cursor {
            Some(cursor) => {
                let (changes, next) = world.changes_since(cursor);
                if next < cursor {
                    // The record restarted under us: look again instead of trusting the cursor.
                    report.scanned = true;
                    self.scan(world, &mut report)
                } else {
                    report.block_changes = changes.len();
                    self.cursor = Some(next);
                    // Far cells the world shows now are checked first; this tick's changes follow.
                    let (mut blocks, mut holes) = if !self.unseen.is_empty() && world.tick() % RECHECK_EVERY == 0 {
                        scan::recheck(world, &mut self.unseen, &self.blocks, &self.holes)
                    } else {
                        (Vec::new(), Vec::new())
                    };
                    let effects = effects(&changes, |p| self.blocks.owner_of(p).is_some());
                    by_agent = agent_made(&changes, &effects);
                    let (new_blocks, new_holes) = edits_from_changes(&changes, &effects);
                    let first = blocks.len();
                    blocks.extend(new_blocks);
                    holes.extend(new_holes);
                    // The bot's blocks on a build's planned cells belong to what it builds.
                    for (edit, change) in blocks[first..].iter_mut().zip(&changes) {
                        if let (Edit::Set(p, b), Actor::Agent) = (*edit, &change.by)
                            && let Some(&id) = self.planned.get(&p)
                        {
                            *edit = Edit::Join(p, b, id);
                        }
                    }
                    (blocks, holes)
                }
            }
            None => {
                report.scanned = true;
                let (mut blocks, holes) = self.scan(world, &mut report);
                // Looking again (a restart): a planned cell that holds a block is the build's.
                for edit in blocks.iter_mut() {
                    if let Edit::Set(p, b) = *edit
                        && let Some(&id) = self.planned.get(&p)
                    {
                        *edit = Edit::Join(p, b, id);
                    }
                }
                (blocks, holes)
            }
        };
        write::apply(&mut self.blocks, MemoryKind::BlockObject, &block_edits, memory, &mut report)?;
        write::apply(&mut self.holes, MemoryKind::Hole, &hole_edits, memory, &mut report)?;
        let mut attended: Vec<MemoryId> = Vec::new();
        for (pos, dug) in by_agent {
            // A build's own object was marked when it was reserved; its scaffold is not news.
            if !dug && self.planned.contains_key(&pos) {
                continue;
            }
            let owner = if dug { self.holes.owner_of(pos) } else { self.blocks.owner_of(pos) };
            if let Some(id) = owner.filter(|id| !attended.contains(id) && report.created.contains(id)) {
                if let Err(e) = memory.attend(id, world.tick()) {
                    tracing::debug!("could not mark {id} as attended: {e}");
                }
                attended.push(id);
            }
        }
        report.entities_written = self.entities.update(world, memory)?;
        Ok(report)
    }

    fn scan(&mut self, world: &dyn World, report: &mut PerceptionReport) -> (Vec<Edit>, Vec<Edit>) {
        let (history, end) = world.changes_since(0);
        report.block_changes = history.len();
        self.cursor = Some(end);
        let found = scan::reconcile(world, &self.config, &history, &self.blocks, &self.holes);
        self.unseen = found.unseen;
        (found.blocks, found.holes)
    }
}

/// Is this block, placed by `by`, part of something built? Unnatural blocks always are; natural
/// ones (dirt, stone) only when a player or the agent placed them. Liquids never are.
pub fn is_built(block: Block, by: &Actor) -> bool {
    !block.is_air() && !block.is_liquid() && (!block.is_natural() || matches!(by, Actor::Player(_) | Actor::Agent))
}

/// Does this change take a natural block (dirt, stone) away? It is digging out terrain only
/// when nobody placed that block: see [`effects`].
fn removes_natural(change: &BlockChange) -> bool {
    change.after.is_air() && change.before.is_natural() && !change.before.is_air() && !change.before.is_liquid()
}

/// What one change meant to perception.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Effect {
    /// Something built now stands in the cell.
    Built,
    /// Terrain was dug out: the cell belongs to a hole.
    Dug,
    /// Anything else: a built block taken away, terrain put back, a liquid flowing.
    Other,
}

/// The effect of each change, in order. `built_before` says whether a cell held a built block
/// before these changes (perception's block tracker knows); the changes update that as they go.
/// Taking away a natural block somebody placed — the dirt of the agent's scaffold, the dirt that
/// filled a hole — is not digging: without this, every scaffold the agent removed became a
/// "hole" in mid-air, and the newest thing "that" could mean.
pub fn effects(changes: &[BlockChange], built_before: impl Fn(Pos) -> bool) -> Vec<Effect> {
    let mut built_now: FxHashMap<Pos, bool> = FxHashMap::default();
    changes
        .iter()
        .map(|c| {
            let was_built = built_now.get(&c.pos).copied().unwrap_or_else(|| built_before(c.pos));
            let effect = if is_built(c.after, &c.by) {
                Effect::Built
            } else if removes_natural(c) && !was_built {
                Effect::Dug
            } else {
                Effect::Other
            };
            built_now.insert(c.pos, effect == Effect::Built);
            effect
        })
        .collect()
}

/// Cells the agent built (`false`) or dug out (`true`) in a run of changes.
fn agent_made(changes: &[BlockChange], effects: &[Effect]) -> Vec<(Pos, bool)> {
    changes
        .iter()
        .zip(effects)
        .filter(|(c, _)| matches!(c.by, Actor::Agent))
        .filter_map(|(c, e)| match e {
            Effect::Built => Some((c.pos, false)),
            Effect::Dug => Some((c.pos, true)),
            Effect::Other => None,
        })
        .collect()
}

/// The tracker edits for a run of block changes and their [`effects`], in order.
pub fn edits_from_changes(changes: &[BlockChange], effects: &[Effect]) -> (Vec<Edit>, Vec<Edit>) {
    let mut blocks = Vec::with_capacity(changes.len());
    let mut holes = Vec::new();
    for (c, e) in changes.iter().zip(effects) {
        blocks.push(if *e == Effect::Built { Edit::Set(c.pos, c.after) } else { Edit::Clear(c.pos) });
        if *e == Effect::Dug {
            holes.push(Edit::Set(c.pos, c.before));
        } else if !c.after.is_air() {
            holes.push(Edit::Clear(c.pos));
        }
    }
    (blocks, holes)
}
