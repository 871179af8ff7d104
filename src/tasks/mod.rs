//! The task system: what the agent *does*, one small step per game tick.
//!
//! The interpreter turns a logical form into tasks with everything already resolved (absolute
//! positions, concrete blocks, player names); tasks never look at chat, memory or the parser.
//! A [`Task`] is a little state machine: every tick the [`TaskStack`] calls [`Task::step`] on the
//! task at the top, which does at most one world action (place or break one block, take one
//! step, turn once) and says what happens next with a [`Step`]. A task that needs something
//! else done first (Build needs to walk somewhere) pushes a sub-task; when that finishes, the
//! parent runs again and is told how it went ([`Task::child_finished`]).
//!
//! Everything a task changes goes through [`TaskContext`], which records each block change
//! against the *top-level* task, so "undo" can revert exactly that command's changes.
//!
//! Files, one idea each:
//! - [`stack`]: the interruptible stack of commands (push, tick, stop, resume, history, events);
//! - [`context`]: what a step may touch, and the change ledger;
//! - [`record`]: ids, kinds, states, history records and events;
//! - [`path`]: the A* planner over the voxel grid; [`movement`]: Move, Follow, come here;
//! - [`blueprint`], [`edit`], [`support`]: the shared engine that makes positions hold given blocks;
//! - [`build`], [`destroy`], [`dig`], [`fill`], [`undo`]: commands on top of that engine;
//! - [`spawn`], [`dance`], [`get`]: the small commands;
//! - [`gather`], [`farm`], [`items`]: a companion's jobs: mine, chop, harvest, plant a field,
//!   chests, dropping and crafting;
//! - [`repeat`], [`condition`]: loops ("3 times", "until you hit stone", "forever");
//! - [`limits`], [`error`]: what a single command may ask for, and why it may be refused.

pub mod blueprint;
pub mod breakout;
pub mod build;
pub mod condition;
pub mod context;
pub mod dance;
pub mod destroy;
pub mod dig;
pub mod edit;
pub mod error;
#[cfg(test)]
pub(crate) mod fake_server;
pub mod farm;
pub mod fill;
pub mod gather;
pub mod get;
pub mod items;
pub mod limits;
pub mod movement;
pub mod path;
pub mod record;
pub mod repeat;
pub mod spawn;
pub mod stack;
pub mod support;
pub mod undo;

pub use blueprint::Blueprint;
pub use build::Build;
pub use condition::Condition;
pub use context::{Ledger, TaskContext};
pub use dance::{Dance, DanceMove, Turn};
pub use destroy::Destroy;
pub use dig::{Dig, DigSize};
pub use error::TaskError;
pub use farm::Plant;
pub use fill::Fill;
pub use gather::{Delivery, Gather};
pub use get::{Get, Give};
pub use items::{Craft, Drop, Fetch, PickUp, Store};
pub use limits::Limits;
pub use movement::{Follow, Move, MoveOptions};
pub use path::{Goal, Path, PathError, PathOptions, PathStep, StepKind};
pub use record::{Change, TakenDown, TaskEvent, TaskEventKind, TaskId, TaskKind, TaskMeta, TaskRecord, TaskState};
pub use repeat::{Repeat, TaskFactory, Times};
pub use spawn::Spawn;
pub use stack::TaskStack;
pub use undo::Undo;

use crate::world::{BBox, World};

/// What a task wants after one step.
pub enum Step {
    /// Not finished: call me again next tick.
    Continue,
    /// Run this sub-task first, then come back to me (it belongs to the same command: its block
    /// changes count for my top-level task).
    Push(Box<dyn Task>),
    /// Finished; the text is a short summary the bot can say in chat.
    Done(String),
    /// Gave up; the text is the reason, written for a player to read.
    Failed(String),
}

impl std::fmt::Debug for Step {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Step::Continue => f.write_str("Continue"),
            Step::Push(t) => write!(f, "Push({})", t.describe()),
            Step::Done(m) => write!(f, "Done({m:?})"),
            Step::Failed(m) => write!(f, "Failed({m:?})"),
        }
    }
}

/// How a sub-task ended, as reported to its parent.
#[derive(Clone, Debug, PartialEq)]
pub enum ChildOutcome {
    Done(String),
    Failed(String),
}

/// One thing the agent does over several ticks.
///
/// Implementations keep their own progress and re-read the world every step: the world may have
/// changed while they were interrupted, so nothing seen on an earlier tick is trusted blindly.
pub trait Task {
    /// Which kind of command this is (used by "undo the last build", history and events).
    fn kind(&self) -> TaskKind;
    /// What the task is doing, for "what are you doing?": `building a red cube at (3, 5, 2)`.
    fn describe(&self) -> String;
    /// Do one small thing.
    fn step(&mut self, ctx: &mut TaskContext) -> Step;
    /// Checks that need the world, run before the first step (and by
    /// [`TaskStack::push_checked`] so a bad request is refused before it is accepted).
    fn check(&self, _world: &dyn World, _limits: &Limits) -> Result<(), TaskError> {
        Ok(())
    }
    /// A sub-task this task pushed has finished. Return `None` to simply be stepped again next
    /// tick, or a step to take instead. By default a failed sub-task fails its parent with the
    /// same reason.
    fn child_finished(&mut self, outcome: ChildOutcome) -> Option<Step> {
        match outcome {
            ChildOutcome::Done(_) => None,
            ChildOutcome::Failed(reason) => Some(Step::Failed(reason)),
        }
    }
    /// How far along the task is, `(blocks done, blocks in all)`, for tasks that change blocks.
    /// The items the command was after and got (a gathering job's), for "it" and "them" in
    /// the step that follows ("mine 10 cobblestone then put it in the chest").
    fn yields(&self) -> Vec<String> {
        Vec::new()
    }

    fn progress(&self) -> Option<(usize, usize)> {
        None
    }
    /// The blocks this task works on, if it has such a region (loops use it to test conditions
    /// at the "front" of a dig).
    fn region(&self) -> Option<BBox> {
        None
    }
}

/// Helpers for the unit tests of the task files.
#[cfg(test)]
pub(crate) mod testing {
    use super::*;
    use crate::world::embedded::EmbeddedWorld;

    /// Run one task as a command until it ends; returns its final state and message.
    pub fn run_task(w: &mut EmbeddedWorld, task: impl Task + 'static, budget: u32) -> (TaskState, String) {
        let mut s = TaskStack::default();
        let id = s.push(Box::new(task), TaskMeta::default());
        for _ in 0..budget {
            w.advance();
            s.tick(w);
            if s.is_idle() {
                break;
            }
        }
        let r = s.record(id).expect("the task's record");
        (r.state, r.outcome.clone().unwrap_or_default())
    }

    pub fn block(name: &str) -> crate::world::Block {
        crate::world::Block::from_name(name).expect("a known block")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Nothing;
    impl Task for Nothing {
        fn kind(&self) -> TaskKind {
            TaskKind::Dance
        }
        fn describe(&self) -> String {
            "doing nothing".into()
        }
        fn step(&mut self, _: &mut TaskContext) -> Step {
            Step::Done("done".into())
        }
    }

    #[test]
    fn a_failed_sub_task_fails_its_parent_by_default() {
        let mut t = Nothing;
        assert_eq!(t.child_finished(ChildOutcome::Done("ok".into())).map(|s| format!("{s:?}")), None);
        let s = t.child_finished(ChildOutcome::Failed("no room".into()));
        assert_eq!(format!("{s:?}"), "Some(Failed(\"no room\"))");
        assert_eq!(format!("{:?}", Step::Push(Box::new(Nothing))), "Push(doing nothing)");
        assert!(t.region().is_none());
    }
}
