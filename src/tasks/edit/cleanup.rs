//! The cleanup at the end of an edit: scaffold still standing (pillars the agent climbed) comes
//! down, and the tidy-up always ends. Pillars come down from the top; whatever is within reach
//! is taken before the agent walks off; and when walks put up as much scaffold as the cleanup
//! takes down, the walks go on foot, so the scaffold can only shrink.

use super::{Edit, Job};
use crate::tasks::TaskContext;
use crate::world::Pos;

/// Cleanup walks that may leave the scaffold no smaller than it has been before the walks stop
/// pillaring: a walk up to a high scaffold block can put up as many blocks as the cleanup takes
/// down, and the two would take turns for ever. On foot, every block broken shrinks the
/// scaffold for good, so the cleanup ends; what it cannot reach is left and reported.
const CLEANUP_WALKS_WITHOUT_SHRINKING: u32 = 8;

impl Edit {
    /// Cleanup: scaffold still standing, pillar by pillar from the top. The highest top comes
    /// down first; but whatever is within reach from where the agent stands, down to the block
    /// under its feet, comes down before it walks off: two pillars of one height taken in turns,
    /// or a pillar left half-way for a higher one, would each need a new pillar to climb back.
    pub(super) fn cleanup_job(&mut self, ctx: &mut TaskContext) -> Job {
        let scaffold = ctx.limits.scaffold;
        let agent = ctx.world.agent_pos();
        let all = ctx.scaffold();
        let order = |p: &&Pos| (p.y, -p.manhattan(agent), **p);
        let tops: Vec<Pos> = all.iter().filter(|p| !self.unreachable.contains_key(p) && !all.contains(&p.up(1))).copied().collect();
        let highest = tops.iter().max_by_key(order).copied();
        let here = tops.iter().filter(|p| p.y + 1 >= agent.y && ctx.in_reach(**p)).max_by_key(order).copied();
        let top = match highest {
            Some(h) if ctx.in_reach(h) => Some(h),
            _ => here.or(highest),
        };
        match top {
            Some(p) if ctx.world.block_at(p) != scaffold => {
                ctx.forget_scaffold(p);
                Job::Again
            }
            Some(p) => self.pick(ctx, &[p], "take down the scaffold at"),
            // On foot, a block broken may open the way to others: once more round them all.
            None if self.on_foot && self.broken_this_round => {
                self.broken_this_round = false;
                self.unreachable.clear();
                Job::Again
            }
            None => {
                self.report.scaffold_left = ctx.scaffold().len();
                Job::Finished
            }
        }
    }

    /// Counts a cleanup walk; true once cleanup walks must go on foot (see
    /// [`CLEANUP_WALKS_WITHOUT_SHRINKING`]).
    pub(super) fn cleanup_walk(&mut self, ctx: &TaskContext) -> bool {
        let left = ctx.scaffold().len();
        if left < self.cleanup_least {
            self.cleanup_least = left;
            self.cleanup_walks = 0;
        }
        self.cleanup_walks += 1;
        if self.cleanup_walks > CLEANUP_WALKS_WITHOUT_SHRINKING && !self.on_foot {
            tracing::debug!(left, "the scaffold is not shrinking; cleanup walks go on foot");
            self.on_foot = true;
        }
        self.on_foot
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tasks::Limits;
    use crate::tasks::testing::block;
    use crate::world::embedded::EmbeddedWorld;

    /// Cleanup walks that leave the scaffold no smaller go on foot after a while; a block
    /// taken down starts the count again.
    #[test]
    fn cleanup_walks_go_on_foot_when_the_scaffold_stops_shrinking() {
        let mut w = EmbeddedWorld::flat();
        let limits = Limits::default();
        let (mut changes, mut ledger) = (Vec::new(), crate::tasks::context::Ledger::default());
        let mut ctx = TaskContext::new(&mut w, &limits, &mut changes, &mut ledger);
        for y in 5..8 {
            ctx.place_scaffold(Pos::new(4, y, 4)).unwrap();
        }
        let mut e = Edit::new(vec![(Pos::new(9, 5, 9), block("stone"))]);
        e.cleaning = true;
        let on_foot: Vec<bool> = (0..=CLEANUP_WALKS_WITHOUT_SHRINKING).map(|_| e.cleanup_walk(&ctx)).collect();
        assert!(!on_foot[..CLEANUP_WALKS_WITHOUT_SHRINKING as usize].iter().any(|f| *f), "{on_foot:?}");
        assert!(on_foot[CLEANUP_WALKS_WITHOUT_SHRINKING as usize], "{on_foot:?}");
        // On foot the rounds end: with every block out of reach and none broken, it finishes.
        for y in 5..8 {
            e.unreachable.insert(Pos::new(4, y, 4), "walled off".into());
        }
        assert!(matches!(e.cleanup_job(&mut ctx), Job::Finished));
        assert_eq!(e.report.scaffold_left, 3);
        // A block broken on foot tries the unreachable once more.
        e.broken_this_round = true;
        assert!(matches!(e.cleanup_job(&mut ctx), Job::Again) && e.unreachable.is_empty());
    }
}
