//! Fill: put one block type into the positions of a hole, bottom-up.
//!
//! The interpreter finds the hole (perception knows which empty cells form it) and passes its
//! positions. Cells that already hold a solid block are left alone: filling never replaces.
//! If the agent stands in the hole, it fills around itself and climbs out on what it placed.

use super::edit::{Edit, EditStep};
use super::limits::check_in_world;
use super::{ChildOutcome, Limits, Step, Task, TaskContext, TaskError, TaskKind};
use crate::world::{BBox, Block, Pos, World};

pub struct Fill {
    block: Block,
    positions: Vec<Pos>,
    edit: Option<Edit>,
    anchor: Pos,
}

impl Fill {
    pub fn new(positions: Vec<Pos>, block: Block, limits: &Limits) -> Result<Fill, TaskError> {
        limits.check_blocks(positions.len(), "fill")?;
        check_in_world(&positions)?;
        if block.is_air() {
            return Err(TaskError::Invalid("I can't fill a hole with air".into()));
        }
        let anchor = positions.iter().copied().max_by_key(|p| (p.y, -p.x, -p.z)).unwrap_or_default();
        Ok(Fill { block, positions, edit: None, anchor })
    }
}

impl Task for Fill {
    fn progress(&self) -> Option<(usize, usize)> {
        Some(self.edit.as_ref().map_or((0, self.positions.len()), |e| e.progress()))
    }

    fn kind(&self) -> TaskKind {
        TaskKind::Fill
    }

    fn describe(&self) -> String {
        format!("filling the hole at {} with {}", self.anchor, crate::lexicon::lexicon().display_name(self.block.name()))
    }

    fn check(&self, world: &dyn World, _limits: &Limits) -> Result<(), TaskError> {
        if self.positions.iter().all(|p| world.block_at(*p).is_solid()) {
            return Err(TaskError::Invalid("that hole is already full".into()));
        }
        Ok(())
    }

    fn step(&mut self, ctx: &mut TaskContext) -> Step {
        let block = self.block;
        let edit = self.edit.get_or_insert_with(|| {
            // Only the cells that are open now: filling never replaces a solid block.
            let open = self.positions.iter().filter(|p| !ctx.world.block_at(**p).is_solid());
            Edit::new(open.map(|p| (*p, block)).collect())
        });
        match edit.step(ctx) {
            EditStep::Step(s) => s,
            EditStep::Finished => {
                Step::Done(format!("I filled the hole with {}.", crate::lexicon::lexicon().display_name(self.block.name())))
            }
        }
    }

    fn child_finished(&mut self, outcome: ChildOutcome) -> Option<Step> {
        self.edit.as_mut().and_then(|e| e.child_finished(outcome))
    }

    fn region(&self) -> Option<BBox> {
        self.positions.iter().map(|p| BBox::new(*p, *p)).reduce(|a, b| a.union(&b))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tasks::TaskState;
    use crate::tasks::testing::{block, run_task};
    use crate::world::Actor;
    use crate::world::embedded::EmbeddedWorld;

    #[test]
    fn fills_only_open_cells() {
        let mut w = EmbeddedWorld::flat();
        let hole = [Pos::new(3, 4, 0), Pos::new(4, 4, 0)];
        w.set_block_by(hole[0], Block::AIR, Actor::World);
        let fill = Fill::new(hole.to_vec(), block("sand"), &Limits::default()).unwrap();
        assert_eq!(fill.describe(), "filling the hole at (3, 4, 0) with sand");
        assert_eq!(run_task(&mut w, fill, 50).0, TaskState::Done);
        assert_eq!(w.block_at(hole[0]).name(), "sand");
        assert_eq!(w.block_at(hole[1]).name(), "grass_block", "a filled cell is never replaced");
        let full = Fill::new(hole.to_vec(), block("sand"), &Limits::default()).unwrap();
        assert_eq!(full.check(&w, &Limits::default()).unwrap_err().to_string(), "that hole is already full");
    }
}
