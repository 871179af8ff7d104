//! Conditions that end a loop: "until you hit stone", "until you are next to the house".
//!
//! A condition looks at the world now, plus the region the loop's latest round worked on (the
//! "front" of a repeated dig), so "dig until you hit stone" can stop as soon as either the
//! agent or the bottom of the hole touches stone.

use crate::world::{BBox, Block, Pos, World};

#[derive(Clone, Debug, PartialEq)]
pub enum Condition {
    /// Never holds: the loop runs until stopped ("forever", "follow me").
    Never,
    /// The agent's body, or the sides/bottom of the latest round's region, touches this block.
    AdjacentToBlockType(Block),
    /// The block at a position is (or becomes) this block.
    BlockAt {
        pos: Pos,
        block: Block,
    },
    /// The agent's feet are within `distance` blocks (every axis) of `pos`.
    AgentNear {
        pos: Pos,
        distance: i32,
    },
    Not(Box<Condition>),
    Any(Vec<Condition>),
    All(Vec<Condition>),
}

/// Largest region whose outside faces are scanned for adjacency.
const MAX_FRONT_CELLS: u64 = 20_000;

impl Condition {
    /// Does the condition hold now? `front` is the region the latest round worked on.
    pub fn holds(&self, world: &dyn World, front: Option<BBox>) -> bool {
        match self {
            Condition::Never => false,
            Condition::AdjacentToBlockType(b) => {
                touches_agent(world, *b) || front.is_some_and(|r| touches_region(world, r, *b))
            }
            Condition::BlockAt { pos, block } => world.block_at(*pos) == *block,
            Condition::AgentNear { pos, distance } => world.agent_pos().chebyshev(*pos) <= *distance,
            Condition::Not(c) => !c.holds(world, front),
            Condition::Any(cs) => cs.iter().any(|c| c.holds(world, front)),
            Condition::All(cs) => cs.iter().all(|c| c.holds(world, front)),
        }
    }
}

/// Any face neighbour of the agent's feet or head (including the block it stands on).
fn touches_agent(world: &dyn World, b: Block) -> bool {
    let feet = world.agent_pos();
    [feet, feet.up(1)].iter().flat_map(|p| p.faces()).any(|n| world.block_at(n) == b)
}

/// The cells just outside `r` on its four sides and below it (not above: that is where the
/// digging came from).
fn touches_region(world: &dyn World, r: BBox, b: Block) -> bool {
    let outer = BBox::new(r.min - Pos::new(1, 1, 1), Pos::new(r.max.x + 1, r.max.y, r.max.z + 1));
    if outer.volume() > MAX_FRONT_CELLS {
        return false;
    }
    outer.iter().filter(|p| !r.contains(*p)).any(|p| {
        // Skip the edges and corners of the shell: only face-adjacent cells count.
        let outside_axes = [p.x < r.min.x || p.x > r.max.x, p.y < r.min.y, p.z < r.min.z || p.z > r.max.z];
        outside_axes.iter().filter(|o| **o).count() == 1 && world.block_at(p) == b
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::world::Actor;
    use crate::world::embedded::EmbeddedWorld;

    #[test]
    fn adjacency_to_agent_and_to_a_dig_front() {
        let mut w = EmbeddedWorld::flat();
        let stone = Block::from_name("stone").unwrap();
        let dirt = Block::from_name("dirt").unwrap();
        let c = Condition::AdjacentToBlockType(stone);
        assert!(!c.holds(&w, None));
        assert!(Condition::AdjacentToBlockType(Block::from_name("grass_block").unwrap()).holds(&w, None));
        let hole = BBox::new(Pos::new(5, 3, 5), Pos::new(6, 4, 6));
        assert!(!c.holds(&w, Some(hole)));
        w.set_block_by(Pos::new(5, 2, 6), stone, Actor::World);
        assert!(c.holds(&w, Some(hole)), "stone under the hole");
        assert!(!Condition::Not(Box::new(c.clone())).holds(&w, Some(hole)));
        w.set_block_by(Pos::new(5, 2, 6), dirt, Actor::World);
        w.set_block_by(Pos::new(7, 2, 7), stone, Actor::World);
        assert!(!c.holds(&w, Some(hole)), "a diagonal corner does not count");
        assert!(!Condition::Never.holds(&w, None));
        assert!(Condition::AgentNear { pos: Pos::new(1, 5, 1), distance: 1 }.holds(&w, None));
    }
}
