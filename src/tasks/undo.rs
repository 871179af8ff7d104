//! Undo: revert the block changes one earlier command made.
//!
//! The stack keeps every command's changes (sub-tasks included) in its history record. Undo
//! first nets them out per position — the block before the command's *first* change there and
//! the block after its *last* — so scaffold that came and went is ignored. A position is then
//! reverted only if it still holds what the command left; anything changed since (by a player,
//! or by a later command) is skipped and counted. The reverting itself is done by the
//! engine of `edit.rs`, whose order (breaks top-down, then places bottom-up) is the reverse of how
//! builds and digs proceed.

use super::edit::{Edit, EditStep};
use super::record::{TaskId, TaskRecord};
use super::{ChildOutcome, Step, Task, TaskContext, TaskError, TaskKind};
use crate::world::{Block, Pos};
use rustc_hash::FxHashMap;

pub struct Undo {
    of: TaskId,
    what: String,
    /// (position, block to restore, block the command left), most recent change first.
    net: Vec<(Pos, Block, Block)>,
    edit: Option<Edit>,
    skipped: usize,
}

impl Undo {
    /// An undo of the command in `record`. Refused if it changed nothing.
    pub fn of(record: &TaskRecord) -> Result<Undo, TaskError> {
        // pos → (before its first change, after its last change, index of the last change)
        let mut net: FxHashMap<Pos, (Block, Block, usize)> = FxHashMap::default();
        for (i, c) in record.changes.iter().enumerate() {
            let e = net.entry(c.pos).or_insert((c.before, c.after, i));
            e.1 = c.after;
            e.2 = i;
        }
        let mut net: Vec<(Pos, Block, Block, usize)> =
            net.into_iter().filter(|(_, (b, a, _))| b != a).map(|(p, (b, a, i))| (p, b, a, i)).collect();
        if net.is_empty() {
            return Err(TaskError::NothingToUndo);
        }
        net.sort_by_key(|t| std::cmp::Reverse(t.3));
        Ok(Undo {
            of: record.id,
            what: record.description.clone(),
            net: net.into_iter().map(|(p, b, a, _)| (p, b, a)).collect(),
            edit: None,
            skipped: 0,
        })
    }

    /// The id of the command being undone.
    pub fn target(&self) -> TaskId {
        self.of
    }
}

impl Task for Undo {
    fn kind(&self) -> TaskKind {
        TaskKind::Undo
    }

    fn describe(&self) -> String {
        format!("undoing {}", self.what)
    }

    fn step(&mut self, ctx: &mut TaskContext) -> Step {
        if self.edit.is_none() {
            // Decide once, at the start, which positions still hold what the command left. One
            // that holds what it held before needs nothing (a change the server refused, or one
            // somebody put back already): neither undone nor "changed since".
            let now = |p: Pos| ctx.world.block_at(p);
            let keep: Vec<_> = self.net.iter().filter(|(p, _, after)| now(*p) == *after).collect();
            self.skipped = self.net.iter().filter(|(p, before, after)| now(*p) != *after && now(*p) != *before).count();
            if keep.is_empty() && self.skipped == 0 {
                return Step::Done("There was nothing left to undo: it is all as it was before.".into());
            }
            if keep.is_empty() {
                return Step::Done(format!(
                    "There was nothing left to undo: all {} blocks have been changed since.",
                    self.skipped
                ));
            }
            self.edit = Some(Edit::new(keep.into_iter().map(|&(p, before, _)| (p, before)).collect()));
        }
        let Some(edit) = self.edit.as_mut() else { return Step::Continue };
        match edit.step(ctx) {
            EditStep::Step(s) => s,
            EditStep::Finished => {
                // Counted in the world, not from the plan: a block nobody can break (bedrock)
                // is no block put back.
                // Per block targeted: whether it holds its target now, and whether that is air.
                let done: Vec<(bool, bool)> =
                    edit.targets().iter().map(|(p, b)| (ctx.world.block_at(*p) == *b, b.is_air())).collect();
                let reverted: Vec<bool> = done.iter().filter(|(ok, _)| *ok).map(|(_, air)| *air).collect();
                let mut msg = format!("I undid {}: {}.", self.what, reverted_in_words(&reverted));
                let stuck: Vec<bool> = done.iter().filter(|(ok, _)| !*ok).map(|(_, air)| *air).collect();
                if !stuck.is_empty() {
                    let how = if stuck.iter().all(|air| *air) { "taken down" } else { "changed back" };
                    msg.push_str(&format!(" {} could not be {how}: nobody can break them.", stuck.len()));
                }
                if self.skipped > 0 {
                    msg.push_str(&match self.skipped {
                        1 => " I left 1 block alone because it was changed since.".to_string(),
                        n => format!(" I left {n} blocks alone because they were changed since."),
                    });
                }
                Step::Done(msg)
            }
        }
    }

    fn child_finished(&mut self, outcome: ChildOutcome) -> Option<Step> {
        self.edit.as_mut().and_then(|e| e.child_finished(outcome))
    }
}

/// What undoing did, in words that fit it: a build undone takes blocks down, a destroy undone
/// puts them back (`reverted`: per block changed back, whether it is now air).
fn reverted_in_words(reverted: &[bool]) -> String {
    let blocks = |n: usize| if n == 1 { "1 block".to_string() } else { format!("{n} blocks") };
    let down = reverted.iter().filter(|air| **air).count();
    let back = reverted.len() - down;
    match (down, back) {
        (0, 0) => "no block changed".into(),
        (d, 0) => format!("{} taken down", blocks(d)),
        (0, b) => format!("{} put back", blocks(b)),
        (d, b) => format!("{} taken down and {} put back", blocks(d), blocks(b)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tasks::record::{Change, TaskKind, TaskMeta, TaskState};
    use crate::tasks::testing::block;

    fn record(changes: Vec<Change>) -> TaskRecord {
        TaskRecord {
            id: TaskId(7),
            kind: TaskKind::Build,
            description: "building a hut".into(),
            meta: TaskMeta::default(),
            state: TaskState::Done,
            outcome: None,
            changes,
            created_tick: 0,
            finished_tick: Some(9),
            undone: false,
        }
    }

    #[test]
    fn says_what_undoing_did_in_fitting_words() {
        assert_eq!(reverted_in_words(&[true; 216]), "216 blocks taken down");
        assert_eq!(reverted_in_words(&[false; 3]), "3 blocks put back");
        assert_eq!(reverted_in_words(&[true, false]), "1 block taken down and 1 block put back");
    }

    #[test]
    fn nets_out_changes_per_position() {
        let (air, dirt, wool) = (Block::AIR, block("dirt"), block("red_wool"));
        let c = |pos, before, after| Change { tick: 0, pos, before, after };
        let (a, s) = (Pos::new(1, 5, 1), Pos::new(2, 5, 1));
        // A scaffold block that came and went, and a block placed then replaced.
        let u = Undo::of(&record(vec![c(s, air, dirt), c(a, air, dirt), c(s, dirt, air), c(a, dirt, wool)])).unwrap();
        assert_eq!(u.net, vec![(a, air, wool)]);
        assert_eq!((u.target(), u.describe()), (TaskId(7), "undoing building a hut".to_string()));
        assert!(matches!(Undo::of(&record(vec![c(s, air, dirt), c(s, dirt, air)])), Err(TaskError::NothingToUndo)));
    }

    fn undo_in(w: &mut crate::world::embedded::EmbeddedWorld, undo: Undo) -> String {
        let mut stack = crate::tasks::TaskStack::default();
        let id = stack.push(Box::new(undo), TaskMeta::default());
        for _ in 0..400 {
            w.advance();
            stack.tick(w);
        }
        let r = stack.record(id).unwrap();
        assert_eq!(r.state, TaskState::Done);
        r.outcome.clone().unwrap_or_default()
    }

    /// A half-built house on a server: a block the record has as placed was refused by the
    /// server, so it holds what it held before. That is no block "changed since".
    #[test]
    fn a_block_that_never_changed_is_not_reported_as_changed_since() {
        use crate::world::embedded::EmbeddedWorld;
        use crate::world::{Actor, World};
        let mut w = EmbeddedWorld::flat();
        let (placed, refused, moved) = (Pos::new(2, 5, 0), Pos::new(3, 5, 0), Pos::new(4, 5, 0));
        let plank = block("oak_planks");
        w.set_block_by(placed, plank, Actor::Agent);
        w.set_block_by(moved, block("glass"), Actor::Player("alice".into()));
        let c = |pos| Change { tick: 0, pos, before: Block::AIR, after: plank };
        let undo = Undo::of(&record(vec![c(placed), c(refused), c(moved)])).unwrap();
        assert_eq!(
            undo_in(&mut w, undo),
            "I undid building a hut: 1 block taken down. I left 1 block alone because it was changed since."
        );
        assert_eq!((w.block_at(placed), w.block_at(moved)), (Block::AIR, block("glass")));
        let undo = Undo::of(&record(vec![c(refused)])).unwrap();
        assert_eq!(undo_in(&mut w, undo), "There was nothing left to undo: it is all as it was before.");
    }

    /// An old build left bedrock (before bedrock was refused as a material): undo says what it
    /// could not put back instead of counting it as done.
    #[test]
    fn bedrock_it_cannot_break_is_not_counted_as_put_back() {
        use crate::world::embedded::EmbeddedWorld;
        use crate::world::{Actor, World};
        let mut w = EmbeddedWorld::flat();
        let (stone, bedrock) = (Pos::new(2, 5, 0), Pos::new(2, 6, 0));
        w.set_block_by(stone, block("stone"), Actor::World);
        w.set_block_by(bedrock, block("bedrock"), Actor::World);
        let c = |pos, after| Change { tick: 0, pos, before: Block::AIR, after };
        let undo = Undo::of(&record(vec![c(stone, block("stone")), c(bedrock, block("bedrock"))])).unwrap();
        assert_eq!(undo_in(&mut w, undo), "I undid building a hut: 1 block taken down. 1 could not be taken down: nobody can break them.");
        assert_eq!((w.block_at(stone), w.block_at(bedrock)), (Block::AIR, block("bedrock")));
    }
}
