//! Plant: turn ground into a wheat field — till each cell into farmland, put water where the
//! field needs it, and plant wheat on the farmland — with the shared edit engine, which walks
//! and reaches. The crops then grow with the world's ticks (see the world's crops).

use super::edit::{Edit, EditStep};
use super::{ChildOutcome, Limits, Step, Task, TaskContext, TaskError, TaskKind};
use crate::world::{BBox, Block, Pos};

pub struct Plant {
    label: String,
    edit: Edit,
    crops: usize,
}

impl Plant {
    /// Till `ground` (the cells of the ground itself) and plant wheat above each, except at
    /// `water`, which holds water instead.
    pub fn new(ground: Vec<Pos>, water: Vec<Pos>, label: impl Into<String>, limits: &Limits) -> Result<Plant, TaskError> {
        limits.check_blocks(ground.len() * 2, "plant")?;
        super::limits::check_in_world(&ground)?;
        let block = |n: &str| Block::from_name(n).expect("a known block");
        let (farmland, wheat, still) = (block("farmland"), block("wheat"), block("water"));
        let mut targets = Vec::new();
        let mut crops = 0;
        for g in &ground {
            if water.contains(g) {
                targets.push((*g, still));
            } else {
                targets.push((*g, farmland));
                targets.push((g.up(1), wheat));
                crops += 1;
            }
        }
        Ok(Plant { label: label.into(), edit: Edit::new(targets), crops })
    }
}

impl Task for Plant {
    fn kind(&self) -> TaskKind {
        TaskKind::Farm
    }

    fn describe(&self) -> String {
        format!("planting {}", self.label)
    }

    fn progress(&self) -> Option<(usize, usize)> {
        Some(self.edit.progress())
    }

    fn region(&self) -> Option<BBox> {
        self.edit.bbox()
    }

    fn step(&mut self, ctx: &mut TaskContext) -> Step {
        match self.edit.step(ctx) {
            EditStep::Step(s) => s,
            EditStep::Finished => {
                // Seeds it carries are used first (creative supply for the rest).
                ctx.world.use_carried("wheat_seeds", self.crops as u32);
                let missing = self.edit.report.missing;
                match missing {
                    0 => Step::Done(format!("I planted {} ({} wheat). It will be ripe in about half a minute; say \"harvest the wheat\" then.", self.label, self.crops)),
                    n => Step::Done(format!("I planted {}, but {n} cells couldn't be done.", self.label)),
                }
            }
        }
    }

    fn child_finished(&mut self, outcome: ChildOutcome) -> Option<Step> {
        self.edit.child_finished(outcome)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tasks::TaskState;
    use crate::tasks::testing::run_task;
    use crate::world::World;
    use crate::world::embedded::EmbeddedWorld;

    #[test]
    fn a_field_is_tilled_watered_in_the_middle_and_planted() {
        let mut w = EmbeddedWorld::flat();
        let ground: Vec<Pos> = BBox::new(Pos::new(2, 4, 2), Pos::new(4, 4, 4)).iter().collect();
        let middle = Pos::new(3, 4, 3);
        let (state, said) = run_task(&mut w, Plant::new(ground.clone(), vec![middle], "a 3 by 3 wheat field", &Limits::default()).unwrap(), 4000);
        assert_eq!(state, TaskState::Done, "{said}");
        assert_eq!(w.block_at(middle).name(), "water");
        let planted = ground.iter().filter(|g| w.block_at(g.up(1)).name() == "wheat" && w.block_at(**g).name() == "farmland").count();
        assert_eq!(planted, 8, "{said}");
    }
}
