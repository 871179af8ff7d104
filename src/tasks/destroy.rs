//! Destroy: break a given set of positions (an object's blocks), top-down, walking within reach.
//!
//! Bedrock is skipped (nobody can break it, in any game mode), and the report says how many of
//! the thing's blocks are left for that reason. Positions that are already empty count as done.

use super::edit::{Edit, EditStep};
use super::limits::check_in_world;
use super::{ChildOutcome, Limits, Step, Task, TaskContext, TaskError, TaskKind};
use crate::world::rules::unbreakable;
use crate::world::{BBox, Block, Pos};

pub struct Destroy {
    label: String,
    edit: Edit,
    /// The thing's cells, to count at the end those nobody can break.
    positions: Vec<Pos>,
}

impl Destroy {
    /// Break every block at `positions`; `label` names the thing for chat ("the tower").
    pub fn new(positions: Vec<Pos>, label: impl Into<String>, limits: &Limits) -> Result<Destroy, TaskError> {
        limits.check_blocks(positions.len(), "destroy")?;
        check_in_world(&positions)?;
        let targets = positions.iter().map(|p| (*p, Block::AIR)).collect();
        Ok(Destroy { label: label.into(), edit: Edit::new(targets), positions })
    }
}

impl Task for Destroy {
    fn progress(&self) -> Option<(usize, usize)> {
        Some(self.edit.progress())
    }

    fn kind(&self) -> TaskKind {
        TaskKind::Destroy
    }

    fn describe(&self) -> String {
        format!("destroying {}", self.label)
    }

    fn step(&mut self, ctx: &mut TaskContext) -> Step {
        match self.edit.step(ctx) {
            EditStep::Step(s) => s,
            EditStep::Finished => {
                let r = self.edit.report;
                let left = self.positions.iter().filter(|p| unbreakable(ctx.world.block_at(**p))).count();
                let blocks = |n: usize| if n == 1 { "1 block".to_string() } else { format!("{n} blocks") };
                Step::Done(match (r.broken, left) {
                    (0, 0) => format!("There was nothing left of {} to destroy.", self.label),
                    (0, n) => format!("I couldn't destroy {}: its {} can't be broken by anyone.", self.label, blocks(n)),
                    (_, n) if n > 0 => format!("I destroyed {}, except {} nobody can break.", self.label, blocks(n)),
                    _ if r.missing > 0 => format!("I destroyed {}, except {} I couldn't break.", self.label, blocks(r.missing)),
                    _ => format!("I destroyed {}.", self.label),
                })
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tasks::TaskState;
    use crate::tasks::testing::run_task;
    use crate::world::embedded::EmbeddedWorld;
    use crate::world::{Actor, World};

    #[test]
    fn nothing_left_to_destroy() {
        let mut w = EmbeddedWorld::flat();
        let d = Destroy::new(vec![Pos::new(3, 6, 3)], "the ghost house", &Limits::default()).unwrap();
        assert_eq!(d.describe(), "destroying the ghost house");
        let out = run_task(&mut w, d, 10);
        assert_eq!(out, (TaskState::Done, "There was nothing left of the ghost house to destroy.".into()));
    }

    #[test]
    fn blocks_nobody_can_break_are_reported_as_left() {
        let mut w = EmbeddedWorld::flat();
        let bedrock = Block::from_name("bedrock").unwrap();
        let floor: Vec<Pos> = (0..3).flat_map(|x| (0..3).map(move |z| Pos::new(x + 2, 5, z + 2))).collect();
        for p in &floor {
            w.set_block_by(*p, bedrock, Actor::World);
        }
        let d = Destroy::new(floor.clone(), "the black floor", &Limits::default()).unwrap();
        let out = run_task(&mut w, d, 400);
        assert_eq!(out, (TaskState::Done, "I couldn't destroy the black floor: its 9 blocks can't be broken by anyone.".into()));

        // Two of them bedrock, the rest stone: the stone goes, and the report says what stayed.
        let stone = Block::from_name("stone").unwrap();
        for p in &floor[2..] {
            w.set_block_by(*p, stone, Actor::World);
        }
        let d = Destroy::new(floor.clone(), "the black floor", &Limits::default()).unwrap();
        let out = run_task(&mut w, d, 2000);
        assert_eq!(out, (TaskState::Done, "I destroyed the black floor, except 2 blocks nobody can break.".into()));
        assert!(floor[2..].iter().all(|p| w.block_at(*p).is_air()));
    }
}
