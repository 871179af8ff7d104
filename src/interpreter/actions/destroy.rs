//! DESTROY: "destroy the red tower", "break that". Only things that were built come down, never
//! the ground; taking down several things, or a big one, is asked first.

use crate::interpreter::describe;
use crate::interpreter::recipe::Recipe;
use crate::interpreter::reference::{self, Want};
use crate::logical_form::Action;
use crate::tasks::{Destroy as DestroyTask, Limits, Task, TaskError, TaskKind, Times};
use crate::memory::MemoryId;
use crate::world::Pos;

use super::{Plan, push};
use crate::interpreter::context::Turn;
use crate::interpreter::problem::{Problem, Result};

/// Destroying more than this many blocks (or more than one thing) asks first.
pub const CONFIRM_BLOCKS: usize = 300;

/// Break these blocks.
#[derive(Debug, Clone, PartialEq)]
pub struct Destroy {
    pub positions: Vec<Pos>,
    pub label: String,
    /// The things taken down (memory ids), for an undo to bring back with their names.
    pub objects: Vec<MemoryId>,
}

impl Recipe for Destroy {
    fn kind(&self) -> TaskKind {
        TaskKind::Destroy
    }
    fn task(&self, limits: &Limits, _: u32) -> std::result::Result<Box<dyn Task>, TaskError> {
        Ok(Box::new(DestroyTask::new(self.positions.clone(), self.label.clone(), limits)?))
    }
    fn takes_down(&self) -> Vec<MemoryId> {
        self.objects.clone()
    }
    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}

pub(super) fn destroy(turn: &mut Turn, a: &Action, times: Times) -> Result<Plan> {
    let r = a.reference_object.as_ref().and_then(|r| r.as_object()).ok_or_else(|| Problem::say("What should I destroy?"))?;
    let found = reference::resolve(turn, r, Want::Blocks)?;
    let mut positions = Vec::new();
    let mut names = Vec::new();
    let mut objects = Vec::new();
    for f in &found {
        let Some(id) = f.id() else {
            return Err(Problem::say("That's the ground itself; I only take down things that were built."));
        };
        if let Some(obj) = turn.memory.block_object(id)? {
            positions.extend(obj.blocks.iter().map(|(p, _)| *p));
            names.push(describe::the(turn.memory, id));
            objects.push(id);
        }
    }
    if positions.is_empty() {
        return Err(Problem::say("There is nothing there for me to destroy."));
    }
    let label = if names.len() == 1 { names[0].clone() } else { format!("{} things", names.len()) };
    let plan = push(Destroy { positions: positions.clone(), label: label.clone(), objects }, times, format!("destroying {label}"));
    // Several things found by their description are checked with the player; "them", the things
    // just made or talked about together, were meant.
    let several = found.len() > 1 && !reference::points_at_several(turn, r);
    if several || positions.len() > CONFIRM_BLOCKS {
        let what = if found.len() > 1 { format!("{} things ({} blocks)", found.len(), positions.len()) } else { format!("{label} ({} blocks)", positions.len()) };
        return Ok(Plan::Confirm { question: format!("That would destroy {what}. Are you sure? (yes/no)"), plans: vec![plan] });
    }
    Ok(plan)
}

