//! Undo: revert the block changes one earlier command made.
//!
//! The stack keeps every command's changes (sub-tasks included) in its history record. Undo
//! first nets them out per position — the block before the command's *first* change there and
//! the block after its *last* — so scaffold that came and went is ignored. A position is then
//! reverted only if it still holds what the command left; anything changed since (by a player,
//! or by a later command) is skipped and counted. The reverting itself is done by the
//! [`Edit`] engine, whose order (breaks top-down, then places bottom-up) is the reverse of how
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
            // Decide once, at the start, which positions still hold what the command left.
            let (keep, skip): (Vec<_>, Vec<_>) =
                self.net.iter().partition(|(p, _, after)| ctx.world.block_at(*p) == *after);
            self.skipped = skip.len();
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
                let reverted = edit.len() - edit.report.missing;
                let mut msg = format!("I undid {}: {reverted} blocks put back.", self.what);
                if self.skipped > 0 {
                    msg.push_str(&format!(" I left {} blocks alone because they were changed since.", self.skipped));
                }
                Step::Done(msg)
            }
        }
    }

    fn child_finished(&mut self, outcome: ChildOutcome) -> Option<Step> {
        self.edit.as_mut().and_then(|e| e.child_finished(outcome))
    }
}
