//! Where a block may go: into air, a liquid or a plant, within reach, never into a body, and
//! against a neighbouring block's face, as a player places it.

use super::{REACH, in_body, in_height, reach_distance};
use crate::world::{ActionError, Block, Pos};

/// Can a block go where `b` is without breaking it first (air, a liquid, grass and the like)?
pub fn replaceable(b: Block) -> bool {
    b.is_air() || b.is_liquid() || (!b.is_solid() && b.is_natural())
}

/// Can a block be placed against this one (clicked on)?
pub fn clickable(b: Block) -> bool {
    !b.is_air() && !b.is_liquid()
}

/// Has `p` a face neighbour a block placed there can lean against?
pub fn has_support(p: Pos, block_at: impl Fn(Pos) -> Block) -> bool {
    p.faces().iter().any(|&n| clickable(block_at(n)))
}

/// May `block` go at `p` for a bot standing at `agent`, with other bodies (players') at
/// `bodies`? Checks height, reach, what is there, bodies and something to place against.
pub fn check_place(
    p: Pos,
    block: Block,
    agent: Pos,
    bodies: &[Pos],
    height: (i32, i32),
    block_at: impl Fn(Pos) -> Block,
) -> Result<(), ActionError> {
    if !in_height(p.y, height) {
        return Err(ActionError::OutOfWorld(p));
    }
    if reach_distance(agent, p) > REACH {
        return Err(ActionError::OutOfReach(p));
    }
    if !replaceable(block_at(p)) {
        return Err(ActionError::Blocked(p));
    }
    if block.is_solid() && (in_body(p, agent) || bodies.iter().any(|b| in_body(p, *b))) {
        return Err(ActionError::Occupied(p));
    }
    if !has_support(p, &block_at) {
        return Err(ActionError::NoFooting(p));
    }
    // A crop grows only on farmland.
    // lexicon: Minecraft block ids (game knowledge), not words.
    if block.name() == "wheat" && block_at(p.down(1)).name() != "farmland" {
        return Err(ActionError::NoFooting(p));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::super::testing::{H, b, world};
    use super::*;

    #[test]
    fn placing() {
        let agent = Pos::new(0, 5, 0);
        let red = b("red_wool");
        let alice = [Pos::new(1, 5, 1)];
        type Error = fn(Pos) -> ActionError;
        // (where, players standing there, what goes wrong; None = allowed)
        let cases: [(Pos, &[Pos], Option<Error>); 8] = [
            (Pos::new(2, 5, 0), &[], None),
            (Pos::new(0, 5, -3), &[], None), // into water
            (Pos::new(3, 5, 0), &[], Some(ActionError::Blocked)),
            (Pos::new(9, 5, 0), &[], Some(ActionError::OutOfReach)),
            (Pos::new(0, 6, 0), &[], Some(ActionError::Occupied)), // the agent's own head
            (Pos::new(1, 5, 1), &alice, Some(ActionError::Occupied)),
            (Pos::new(1, 7, 1), &[], Some(ActionError::NoFooting)),
            (Pos::new(0, 400, 0), &[], Some(ActionError::OutOfWorld)),
        ];
        for (at, players, error) in cases {
            assert_eq!(check_place(at, red, agent, players, H, world), error.map_or(Ok(()), |e| Err(e(at))), "{at:?}");
        }
    }

    #[test]
    fn what_a_block_replaces_and_leans_on() {
        assert!(replaceable(Block::AIR) && replaceable(b("water")) && replaceable(b("short_grass")));
        assert!(!replaceable(b("stone")) && !replaceable(b("torch")));
        assert!(clickable(b("stone")) && !clickable(Block::AIR) && !clickable(b("water")));
        assert!(has_support(Pos::new(0, 5, 0), world), "the ground below");
        assert!(!has_support(Pos::new(0, 8, 0), world), "mid-air");
        assert!(!has_support(Pos::new(0, 6, -3), world), "only water below");
    }
}
