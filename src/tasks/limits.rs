//! Limits: how much one command may ask for and how hard the planner may try.
//!
//! A command over a limit is refused up front with a clear message instead of running for
//! minutes. The defaults suit the embedded world and a creative-mode server.

use super::TaskError;
use crate::world::rules::in_world;
use crate::world::{Block, Pos};
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Limits {
    /// Most blocks one build, destroy, dig or fill may touch.
    pub max_blocks: usize,
    /// Most positions one path search may expand before it gives up.
    pub max_path_nodes: usize,
    /// Farthest goal (in blocks, along the longest axis) a single walk may aim for.
    pub max_path_distance: i32,
    /// How far around the start/goal box the planner may wander (detours around walls).
    pub path_margin: i32,
    /// How far from its eyes the agent places or breaks blocks. The embedded world allows 5.0;
    /// planning for a little less leaves a margin on a real server.
    pub reach: f64,
    /// Drops up to this many blocks are taken like any step (they would not hurt in survival).
    pub safe_drop: i32,
    /// Deepest drop at all. The game runs in creative mode, where falling does no damage, so
    /// the agent may jump off what it built rather than be stuck on top; deeper drops than
    /// `safe_drop` cost extra, so they are only taken when needed. Set it to `safe_drop` for a
    /// survival server.
    pub max_drop: i32,
    /// How often a walk may re-plan after a failed step before giving up.
    pub max_replans: u32,
    /// Ticks to wait for the agent to land after a drop before giving up.
    pub max_fall_ticks: u32,
    /// Ticks a build waits for a player to step out of the way.
    pub player_wait_ticks: u32,
    /// Ticks a task may go without progress (every action failing) before it gives up.
    pub max_stalled_ticks: u32,
    /// Ticks a command that changes blocks may show no progress at all (no block, no step)
    /// before it is stopped with a message (60 seconds).
    pub max_idle_ticks: u32,
    /// Temporary block for pillars and supports; it is removed when the work is done.
    pub scaffold: Block,
    /// Most rounds of a loop that waits for a condition ("dig until ...").
    pub max_repeats: u32,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_blocks: 10_000,
            max_path_nodes: 60_000,
            max_path_distance: 128,
            path_margin: 16,
            reach: 4.5,
            safe_drop: 3,
            max_drop: 64,
            max_replans: 12,
            max_fall_ticks: 400,
            player_wait_ticks: 200,
            max_stalled_ticks: 60,
            max_idle_ticks: 1200,
            scaffold: Block::from_name("dirt").unwrap_or(Block::AIR),
            max_repeats: 200,
        }
    }
}

impl Limits {
    /// Refuse a request for more than [`Limits::max_blocks`] blocks, or for nothing at all.
    pub fn check_blocks(&self, count: usize, verb: &'static str) -> Result<(), TaskError> {
        if count == 0 {
            return Err(TaskError::Nothing(verb));
        }
        if count > self.max_blocks {
            return Err(TaskError::TooManyBlocks { requested: count, limit: self.max_blocks });
        }
        Ok(())
    }
}

/// Refuse positions above or below the world, or beyond its border.
pub fn check_in_world<'a>(positions: impl IntoIterator<Item = &'a Pos>) -> Result<(), TaskError> {
    match positions.into_iter().find(|p| !in_world(**p)) {
        Some(p) => Err(TaskError::OutsideWorld(*p)),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn block_limit_and_world_height() {
        let l = Limits::default();
        assert!(l.check_blocks(10_000, "build").is_ok());
        let e = l.check_blocks(20_000, "build").unwrap_err();
        assert!(e.to_string().contains("20000") && e.to_string().contains("10000"), "{e}");
        assert_eq!(l.check_blocks(0, "build").unwrap_err().to_string(), "there is nothing to build");
        assert!(check_in_world(&[Pos::new(0, 319, 0), Pos::new(0, -64, 0)]).is_ok());
        assert!(check_in_world(&[Pos::new(0, 320, 0)]).is_err());
        assert!(check_in_world(&[Pos::new(i32::MIN, 5, 0)]).is_err());
        assert_eq!(l.scaffold.name(), "dirt");
    }
}
