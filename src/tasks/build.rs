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
use super::movement::{Move, MoveOptions};
use crate::world::{BBox, Block, Pos, World};

pub struct Build {
    label: String,
    /// What the agent says it is doing: "building", or "painting" over a thing's old blocks.
    verb: &'static str,
    edit: Edit,
    /// The closing line, held while the agent walks out of what it built.
    leaving: Option<String>,
}

impl Build {
    /// Build `blocks` (absolute positions); `label` names the thing for chat ("a red cube").
    /// Refused up front when empty, over [`Limits::max_blocks`], or outside the world.
    pub fn new(blocks: Vec<(Pos, Block)>, label: impl Into<String>, limits: &Limits) -> Result<Build, TaskError> {
        limits.check_blocks(blocks.len(), "build")?;
        check_in_world(blocks.iter().map(|(p, _)| p))?;
        Ok(Build { label: label.into(), verb: "building", edit: Edit::new(blocks), leaving: None })
    }

    /// The same build, said as `verb` ("painting the tower red").
    pub fn said_as(self, verb: &'static str) -> Build {
        Build { verb, ..self }
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
        format!("{} {} at {}", self.verb, self.label, self.origin())
    }

    fn step(&mut self, ctx: &mut TaskContext) -> Step {
        match self.edit.step(ctx) {
            EditStep::Step(s) => s,
            EditStep::Finished => {
                let r = self.edit.report;
                let mut msg = if r.placed == 0 && r.broken == 0 {
                    format!("{} was already there.", capitalise(&self.label))
                } else {
                    format!("I finished {} {}.", self.verb, self.label)
                };
                if r.missing > 0 {
                    msg.push_str(&format!(" {} blocks could not be placed.", r.missing));
                }
                if r.scaffold_left > 0 {
                    msg.push_str(&format!(" I had to leave {} scaffold blocks behind.", r.scaffold_left));
                }
                // Never end inside what was built (a dome closed over the agent): walk out first,
                // breaking out if there is no door.
                if self.leaving.is_none()
                    && let Some(out) = self.edit.bbox().and_then(|b| way_out(&*ctx.world, b))
                {
                    self.leaving = Some(msg);
                    let goal = super::Goal::Near { target: out, tolerance: 1 };
                    let walk = Move::with_goal(goal, MoveOptions::breaking_out()).labelled("stepping out of what I built");
                    return Step::Push(Box::new(walk));
                }
                Step::Done(msg)
            }
        }
    }

    fn child_finished(&mut self, outcome: ChildOutcome) -> Option<Step> {
        match (self.leaving.take(), outcome) {
            (Some(msg), ChildOutcome::Done(_)) => Some(Step::Done(msg)),
            (Some(msg), ChildOutcome::Failed(why)) => Some(Step::Done(format!("{msg} I couldn't get out of it: {why}."))),
            (None, outcome) => self.edit.child_finished(outcome),
        }
    }

    fn region(&self) -> Option<BBox> {
        self.edit.bbox()
    }
}

/// Where to stand outside `b` if the agent ended up inside it: two blocks out on the nearest
/// side, on the ground. `None` when the agent is not inside.
fn way_out(world: &dyn World, b: BBox) -> Option<Pos> {
    let a = world.agent_pos();
    let inside = a.x > b.min.x && a.x < b.max.x && a.z > b.min.z && a.z < b.max.z && a.y >= b.min.y && a.y <= b.max.y;
    if !inside {
        return None;
    }
    let sides = [
        (a.x - b.min.x, Pos::new(b.min.x - 2, a.y, a.z)),
        (b.max.x - a.x, Pos::new(b.max.x + 2, a.y, a.z)),
        (a.z - b.min.z, Pos::new(a.x, a.y, b.min.z - 2)),
        (b.max.z - a.z, Pos::new(a.x, a.y, b.max.z + 2)),
    ];
    let (_, mut p) = sides.into_iter().min_by_key(|(d, _)| *d)?;
    // On the ground there: up out of anything solid, down onto something solid.
    for _ in 0..16 {
        if world.block_at(p).is_solid() || world.block_at(p.up(1)).is_solid() {
            p = p.up(1);
        } else if !world.block_at(p.down(1)).is_solid() {
            p = p.down(1);
        } else {
            break;
        }
    }
    Some(p)
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
