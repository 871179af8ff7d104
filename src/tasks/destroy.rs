//! Destroy: break a given set of positions (an object's blocks), top-down, walking within reach.
//!
//! Bedrock is skipped (it cannot be broken). Positions that are already empty count as done.

use super::edit::{Edit, EditStep};
use super::limits::check_in_world;
use super::{ChildOutcome, Limits, Step, Task, TaskContext, TaskError, TaskKind};
use crate::world::{BBox, Block, Pos};

pub struct Destroy {
    label: String,
    edit: Edit,
}

impl Destroy {
    /// Break every block at `positions`; `label` names the thing for chat ("the tower").
    pub fn new(positions: Vec<Pos>, label: impl Into<String>, limits: &Limits) -> Result<Destroy, TaskError> {
        limits.check_blocks(positions.len(), "destroy")?;
        check_in_world(&positions)?;
        let targets = positions.into_iter().map(|p| (p, Block::AIR)).collect();
        Ok(Destroy { label: label.into(), edit: Edit::new(targets) })
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
                if r.broken == 0 {
                    Step::Done(format!("There was nothing left of {} to destroy.", self.label))
                } else if r.missing > 0 {
                    Step::Done(format!("I destroyed {}, except {} blocks I can't break.", self.label, r.missing))
                } else {
                    Step::Done(format!("I destroyed {}.", self.label))
                }
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

    #[test]
    fn nothing_left_to_destroy() {
        let mut w = EmbeddedWorld::flat();
        let d = Destroy::new(vec![Pos::new(3, 6, 3)], "the ghost house", &Limits::default()).unwrap();
        assert_eq!(d.describe(), "destroying the ghost house");
        let out = run_task(&mut w, d, 10);
        assert_eq!(out, (TaskState::Done, "There was nothing left of the ghost house to destroy.".into()));
    }
}
