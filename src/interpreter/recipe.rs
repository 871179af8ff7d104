//! Recipes: a resolved command, kept as plain data so it can be turned into a task as often as
//! needed — once, N times, forever, or until a condition holds. A recipe is what the interpreter
//! decided; the task stack decides nothing about words. Each action's recipe lives in its own
//! file under [`crate::interpreter::actions`].

use crate::memory::{Made, MemoryId};
use crate::tasks::{Limits, Task, TaskError, TaskKind};
use crate::world::{Block, Pos};

/// A thing a recipe's task will make, for memory to hold before the first block is placed (see
/// `memory::builds`): a new object with what it was asked to be, or one already there to finish.
#[derive(Debug, Clone, PartialEq)]
pub enum Making {
    New(Made, Vec<(Pos, Block)>),
    Existing(MemoryId, Vec<(Pos, Block)>),
}

/// What one action will do, as data.
pub trait Recipe: std::fmt::Debug + Send + Sync {
    /// The kind of task it makes (what "undo the build" or "stop digging" refer to).
    fn kind(&self) -> TaskKind;

    /// Make the task for round `round` (0 for a one-off).
    fn task(&self, limits: &Limits, round: u32) -> Result<Box<dyn Task>, TaskError>;

    /// What the bot says it is doing, given the plan's label: "building a red cube". The label
    /// alone unless the action words it otherwise.
    fn doing(&self, label: &str, _speaker: &str) -> String {
        label.to_string()
    }

    /// What a player should hear to know exactly what will be done — sizes and place
    /// ("20 long and 5 high, at (3, 5, 4)") — when the label does not say it.
    fn details(&self) -> Option<String> {
        None
    }

    /// The things its task will make, for `speaker`.
    fn makes(&self, _speaker: &str) -> Vec<Making> {
        Vec::new()
    }

    /// The things (memory ids) its task will take down, for an undo to bring back.
    fn takes_down(&self) -> Vec<MemoryId> {
        Vec::new()
    }

    /// The recipe as its own type, for tests and callers that look inside one.
    fn as_any(&self) -> &dyn std::any::Any;
}
