//! Dig: a rectangular hole whose top layer is at a given position, dug top-down.
//!
//! Size: `width` along x, `length` along z, `depth` downwards. The default is CraftAssist's:
//! when a dig command names no size, its interpreter used `has_size: 2`, i.e. a 2×2×2 hole
//! ([`DigSize::default`]). The top layer is centred on the position (for even sizes the extra
//! column goes to +x / +z), and the top layer includes that position itself — usually the
//! ground block the player pointed at.
//!
//! A hole that would reach bedrock or leave the world is refused before anything is dug, with a
//! message saying where the bedrock is.

use super::edit::{Edit, EditStep};
use super::limits::check_in_world;
use super::{ChildOutcome, Limits, Step, Task, TaskContext, TaskError, TaskKind};
use crate::world::{BBox, Block, Pos, World, rules};
use serde::{Deserialize, Serialize};

/// How big a hole: `width` (x) × `length` (z) × `depth` (down).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DigSize {
    pub width: i32,
    pub length: i32,
    pub depth: i32,
}

impl Default for DigSize {
    /// CraftAssist's default hole: 2×2×2.
    fn default() -> Self {
        DigSize { width: 2, length: 2, depth: 2 }
    }
}

impl DigSize {
    pub fn new(width: i32, length: i32, depth: i32) -> Self {
        DigSize { width, length, depth }
    }
}

pub struct Dig {
    top: Pos,
    size: DigSize,
    region: BBox,
    edit: Edit,
}

impl Dig {
    /// Dig a hole of `size` whose top layer is at `top`.
    pub fn new(top: Pos, size: DigSize, limits: &Limits) -> Result<Dig, TaskError> {
        if size.width < 1 || size.length < 1 || size.depth < 1 {
            return Err(TaskError::Invalid(format!(
                "a hole needs a size of at least 1 (I was asked for {}x{}x{})",
                size.width, size.length, size.depth
            )));
        }
        let volume = (size.width as i64).saturating_mul(size.length as i64).saturating_mul(size.depth as i64);
        limits.check_blocks(volume.clamp(0, u32::MAX as i64) as usize, "dig")?;
        check_in_world(&[top])?;
        let min = Pos::new(top.x - (size.width - 1) / 2, top.y - size.depth + 1, top.z - (size.length - 1) / 2);
        let region = BBox::new(min, Pos::new(min.x + size.width - 1, top.y, min.z + size.length - 1));
        check_in_world(&[region.min, region.max])?;
        let edit = Edit::new(region.iter().map(|p| (p, Block::AIR)).collect());
        Ok(Dig { top, size, region, edit })
    }

    pub fn size(&self) -> DigSize {
        self.size
    }
}

impl Task for Dig {
    fn progress(&self) -> Option<(usize, usize)> {
        Some(self.edit.progress())
    }

    fn kind(&self) -> TaskKind {
        TaskKind::Dig
    }

    fn describe(&self) -> String {
        let s = self.size;
        format!("digging a {}x{}x{} hole at {}", s.width, s.length, s.depth, self.top)
    }

    /// Refuse a hole through bedrock (the floor of the world).
    fn check(&self, world: &dyn World, _limits: &Limits) -> Result<(), TaskError> {
        let bedrock = self.region.iter().find(|p| rules::unbreakable(world.block_at(*p)));
        match bedrock {
            Some(p) => Err(TaskError::Bedrock(p)),
            None => Ok(()),
        }
    }

    fn step(&mut self, ctx: &mut TaskContext) -> Step {
        match self.edit.step(ctx) {
            EditStep::Step(s) => s,
            EditStep::Finished => {
                let s = self.size;
                if self.edit.report.broken == 0 {
                    Step::Done(format!("There is already a hole at {}.", self.top))
                } else {
                    Step::Done(format!("I dug a {}x{}x{} hole.", s.width, s.length, s.depth))
                }
            }
        }
    }

    fn child_finished(&mut self, outcome: ChildOutcome) -> Option<Step> {
        self.edit.child_finished(outcome)
    }

    fn region(&self) -> Option<BBox> {
        Some(self.region)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hole_geometry() {
        let l = Limits::default();
        let d = Dig::new(Pos::new(10, 4, 10), DigSize::default(), &l).unwrap();
        assert_eq!(d.region(), Some(BBox::new(Pos::new(10, 3, 10), Pos::new(11, 4, 11))));
        let d = Dig::new(Pos::new(10, 4, 10), DigSize::new(3, 5, 1), &l).unwrap();
        assert_eq!(d.region(), Some(BBox::new(Pos::new(9, 4, 8), Pos::new(11, 4, 12))));
        let e = Dig::new(Pos::new(0, 4, 0), DigSize::new(100, 100, 2), &l).err().unwrap();
        assert!(matches!(e, TaskError::TooManyBlocks { requested: 20_000, .. }));
    }
}
