//! What a task step may touch: the world, the limits, and the ledger of the top-level command it
//! belongs to.
//!
//! Tasks change blocks only through [`TaskContext::place`] and [`TaskContext::break_block`]:
//! these call the [`World`] *and* write a [`Change`] into the ledger of the current top-level
//! command, so "undo" later reverts exactly what that command did, sub-tasks included.
//! Temporary scaffold blocks are tracked here too, so whoever finishes the command can take
//! them down again.

use super::Limits;
use super::record::Change;
use crate::world::rules::{self, in_body};
use crate::world::{ActionError, Block, Pos, World};
use rustc_hash::FxHashSet;

/// Per top-level command bookkeeping that its sub-tasks share (besides the change list, which
/// lives in the command's [`super::TaskRecord`]).
#[derive(Debug, Default, Clone)]
pub struct Ledger {
    /// Scaffold blocks placed and not yet removed.
    pub scaffold: FxHashSet<Pos>,
    /// Remarks to pass on to the player (drained into events by the stack).
    pub notes: Vec<String>,
}

/// The handle a task gets for one step.
pub struct TaskContext<'a> {
    pub world: &'a mut dyn World,
    pub limits: &'a Limits,
    /// The world's tick when this step started.
    pub tick: u64,
    changes: &'a mut Vec<Change>,
    ledger: &'a mut Ledger,
}

impl<'a> TaskContext<'a> {
    /// A context whose changes are appended to `changes` (the top-level command's record).
    pub fn new(
        world: &'a mut dyn World,
        limits: &'a Limits,
        changes: &'a mut Vec<Change>,
        ledger: &'a mut Ledger,
    ) -> Self {
        let tick = world.tick();
        TaskContext { world, limits, tick, changes, ledger }
    }

    /// Place `block` at `p` and record the change.
    pub fn place(&mut self, p: Pos, block: Block) -> Result<(), ActionError> {
        let before = self.world.block_at(p);
        self.world.place_block(p, block)?;
        self.record(p, before, block);
        Ok(())
    }

    /// Break the block at `p` and record the change (it also stops counting as scaffold).
    pub fn break_block(&mut self, p: Pos) -> Result<(), ActionError> {
        let before = self.world.block_at(p);
        self.world.break_block(p)?;
        self.ledger.scaffold.remove(&p);
        self.record(p, before, Block::AIR);
        Ok(())
    }

    /// Place a temporary block (the limits' scaffold block) that must be removed later.
    pub fn place_scaffold(&mut self, p: Pos) -> Result<(), ActionError> {
        self.place(p, self.limits.scaffold)?;
        self.ledger.scaffold.insert(p);
        Ok(())
    }

    pub fn is_scaffold(&self, p: Pos) -> bool {
        self.ledger.scaffold.contains(&p)
    }

    /// Scaffold blocks placed by this command and still standing.
    pub fn scaffold(&self) -> &FxHashSet<Pos> {
        &self.ledger.scaffold
    }

    /// Stop tracking a scaffold position (somebody else removed or replaced it).
    pub fn forget_scaffold(&mut self, p: Pos) {
        self.ledger.scaffold.remove(&p);
    }

    /// Pass a remark on to the player (it becomes a `Note` event).
    pub fn note(&mut self, text: impl Into<String>) {
        self.ledger.notes.push(text.into());
    }

    /// Block changes made so far by the current top-level command.
    pub fn changes(&self) -> &[Change] {
        self.changes
    }

    fn record(&mut self, pos: Pos, before: Block, after: Block) {
        self.changes.push(Change { tick: self.tick, pos, before, after });
    }

    // ---- small questions about the agent, asked by many tasks ----

    pub fn agent_pos(&self) -> Pos {
        self.world.agent_pos()
    }

    /// Can the agent reach block `p` from where it stands?
    pub fn in_reach(&self, p: Pos) -> bool {
        rules::within_reach(self.world.agent_pos(), p, self.limits.reach)
    }

    /// Is the agent standing on something (or floating in water), rather than falling?
    pub fn agent_resting(&self) -> bool {
        let world = &*self.world;
        rules::supported(world.agent_pos(), |q| world.block_at(q))
    }

    /// Is `p` inside the agent's or a player's body (feet or head)?
    pub fn body_at(&self, p: Pos) -> bool {
        in_body(p, self.world.agent_pos()) || self.world.players().iter().any(|pl| in_body(p, pl.pos.block()))
    }

    /// The name of a player whose body covers `p`, if any.
    pub fn player_at(&self, p: Pos) -> Option<String> {
        self.world.players().into_iter().find(|pl| in_body(p, pl.pos.block())).map(|pl| pl.name)
    }
}

/// Waiting for the agent to land, with an end. A landing that never comes (in a real world, a
/// body held up by the edge of a neighbouring block while its own block has air under it) shows
/// as [`Landing::Overdue`] after `max_fall_ticks` in the air.
#[derive(Debug, Default, Clone, Copy)]
pub struct FallWatch {
    ticks: u32,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Landing {
    Resting,
    Falling,
    Overdue,
}

impl FallWatch {
    /// Called once a tick by a task that must not act in mid-air.
    pub fn check(&mut self, ctx: &TaskContext) -> Landing {
        if ctx.agent_resting() {
            self.ticks = 0;
            return Landing::Resting;
        }
        self.ticks = self.ticks.saturating_add(1);
        if self.ticks <= ctx.limits.max_fall_ticks {
            return Landing::Falling;
        }
        if self.ticks == ctx.limits.max_fall_ticks + 1 {
            tracing::debug!(at = %ctx.agent_pos(), "no landing after {} ticks in the air", self.ticks - 1);
        }
        Landing::Overdue
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::world::embedded::EmbeddedWorld;

    #[test]
    fn changes_and_scaffold_are_recorded() {
        let mut w = EmbeddedWorld::flat();
        let limits = Limits::default();
        let (mut changes, mut ledger) = (Vec::new(), Ledger::default());
        let red = Block::from_name("red_wool").unwrap();
        let mut ctx = TaskContext::new(&mut w, &limits, &mut changes, &mut ledger);
        ctx.place(Pos::new(1, 5, 1), red).unwrap();
        ctx.place_scaffold(Pos::new(1, 6, 1)).unwrap();
        assert!(ctx.is_scaffold(Pos::new(1, 6, 1)));
        ctx.break_block(Pos::new(1, 6, 1)).unwrap();
        assert!(ctx.scaffold().is_empty());
        assert!(ctx.place(Pos::new(0, 5, 0), red).is_err(), "failed actions record nothing");
        assert_eq!(changes.len(), 3);
        assert_eq!((changes[0].before, changes[0].after), (Block::AIR, red));
        assert_eq!(changes[2].after, Block::AIR);
    }
}
