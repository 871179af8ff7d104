//! Build: place a list of absolute (position, block) pairs.
//!
//! The interpreter computes the list from a schematic at a location (or, for "copy that", from
//! the blocks of an existing object shifted to the new place: a copy is just a build). Positions
//! that already hold the right block are skipped; a position holding something else is cleared
//! first; an air entry means "make this empty". The work itself — order, reaching, scaffolding,
//! cleanup — is the engine's in `edit.rs`.

use super::edit::{Edit, EditStep};
use super::limits::check_in_world;
use super::{ChildOutcome, Limits, Step, Task, TaskContext, TaskError, TaskKind};
use crate::world::{BBox, Block, Pos};

pub struct Build {
    label: String,
    edit: Edit,
}

impl Build {
    /// Build `blocks` (absolute positions); `label` names the thing for chat ("a red cube").
    /// Refused up front when empty, over [`Limits::max_blocks`], or outside the world.
    pub fn new(blocks: Vec<(Pos, Block)>, label: impl Into<String>, limits: &Limits) -> Result<Build, TaskError> {
        limits.check_blocks(blocks.len(), "build")?;
        check_in_world(blocks.iter().map(|(p, _)| p))?;
        Ok(Build { label: label.into(), edit: Edit::new(blocks) })
    }

    /// Number of distinct positions in the plan.
    pub fn len(&self) -> usize {
        self.edit.len()
    }

    pub fn is_empty(&self) -> bool {
        self.edit.len() == 0
    }

    pub fn blocks(&self) -> &[(Pos, Block)] {
        self.edit.targets()
    }

    fn origin(&self) -> Pos {
        self.edit.bbox().map_or(Pos::default(), |b| b.min)
    }
}

impl Task for Build {
    fn progress(&self) -> Option<(usize, usize)> {
        Some(self.edit.progress())
    }

    fn kind(&self) -> TaskKind {
        TaskKind::Build
    }

    fn describe(&self) -> String {
        format!("building {} at {}", self.label, self.origin())
    }

    fn step(&mut self, ctx: &mut TaskContext) -> Step {
        match self.edit.step(ctx) {
            EditStep::Step(s) => s,
            EditStep::Finished => {
                let r = self.edit.report;
                let mut msg = if r.placed == 0 && r.broken == 0 {
                    format!("{} was already there.", capitalise(&self.label))
                } else {
                    format!("I finished building {}.", self.label)
                };
                if r.missing > 0 {
                    msg.push_str(&format!(" {} blocks could not be placed.", r.missing));
                }
                if r.scaffold_left > 0 {
                    msg.push_str(&format!(" I had to leave {} scaffold blocks behind.", r.scaffold_left));
                }
                Step::Done(msg)
            }
        }
    }

    fn child_finished(&mut self, outcome: ChildOutcome) -> Option<Step> {
        self.edit.child_finished(outcome)
    }

    fn region(&self) -> Option<BBox> {
        self.edit.bbox()
    }
}

pub(crate) fn capitalise(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tasks::TaskState;
    use crate::tasks::testing::{block, run_task};
    use crate::world::embedded::EmbeddedWorld;
    use crate::world::{Actor, World};

    #[test]
    fn replaces_what_is_in_the_way_and_skips_what_is_there() {
        let mut w = EmbeddedWorld::flat();
        w.set_block_by(Pos::new(2, 5, 0), block("stone"), Actor::World);
        w.set_block_by(Pos::new(3, 5, 0), block("red_wool"), Actor::World);
        let blocks = vec![(Pos::new(2, 5, 0), block("red_wool")), (Pos::new(3, 5, 0), block("red_wool"))];
        let build = Build::new(blocks, "a red wall", &Limits::default()).unwrap();
        assert_eq!((build.len(), build.describe()), (2, "building a red wall at (2, 5, 0)".to_string()));
        assert_eq!(run_task(&mut w, build, 50), (TaskState::Done, "I finished building a red wall.".into()));
        assert_eq!(w.block_at(Pos::new(2, 5, 0)).name(), "red_wool");
        let again = Build::new(vec![(Pos::new(3, 5, 0), block("red_wool"))], "the wall", &Limits::default()).unwrap();
        assert_eq!(run_task(&mut w, again, 50).1, "The wall was already there.");
    }
}
