//! The checks the live world makes before it asks the server for anything.
//!
//! They are the embedded world's rules (see `world::embedded`), so a plan fails the same way on
//! both: a step must be adjacent, have room for the body, have footing to jump from when it goes
//! up, and not squeeze between two corners; a block goes within reach, never into a body, and
//! against a neighbour. Catching these here gives the task a clear reason at once, instead of a
//! server correction later. They are pure functions over a block lookup, tested without a server.

use crate::tasks::context::reach_distance;
use crate::world::{ActionError, Block, Pos};

/// How far from its eyes the bot places and breaks (creative-mode reach; the server allows a
/// little more, the planner plans for less).
pub const REACH: f64 = 5.0;

fn has_room(block_at: &impl Fn(Pos) -> Block, p: Pos) -> bool {
    !block_at(p).is_solid() && !block_at(p.up(1)).is_solid()
}

fn supported(block_at: &impl Fn(Pos) -> Block, p: Pos) -> bool {
    block_at(p.down(1)).is_solid() || block_at(p).is_liquid()
}

/// May the body step from `from` to `to`? `height` is the world's lowest and highest row.
pub fn check_step(from: Pos, to: Pos, height: (i32, i32), block_at: impl Fn(Pos) -> Block) -> Result<(), ActionError> {
    if from.chebyshev(to) != 1 {
        return Err(ActionError::NotAdjacent(to));
    }
    if to.y < height.0 || to.y > height.1 {
        return Err(ActionError::OutOfWorld(to));
    }
    if !has_room(&block_at, to) {
        return Err(ActionError::Blocked(to));
    }
    if to.y > from.y && (!supported(&block_at, from) || block_at(from.up(2)).is_solid()) {
        return Err(ActionError::NoFooting(to));
    }
    if to.x != from.x && to.z != from.z {
        let side_a = Pos::new(to.x, from.y.max(to.y), from.z);
        let side_b = Pos::new(from.x, from.y.max(to.y), to.z);
        if !has_room(&block_at, side_a) && !has_room(&block_at, side_b) {
            return Err(ActionError::Blocked(to));
        }
    }
    Ok(())
}

/// Is `p` inside the body of something standing with its feet in block `feet`?
pub fn in_body(p: Pos, feet: Pos) -> bool {
    p == feet || p == feet.up(1)
}

/// May `block` go at `p` for a bot standing at `agent`, with bodies (players') at `bodies`?
/// Checks height, reach, what is there, bodies and something to place against.
pub fn check_place(
    p: Pos,
    block: Block,
    agent: Pos,
    bodies: &[Pos],
    height: (i32, i32),
    block_at: impl Fn(Pos) -> Block,
) -> Result<(), ActionError> {
    if p.y < height.0 || p.y > height.1 {
        return Err(ActionError::OutOfWorld(p));
    }
    if reach_distance(agent, p) > REACH {
        return Err(ActionError::OutOfReach(p));
    }
    let here = block_at(p);
    let replaceable = here.is_air() || here.is_liquid() || (!here.is_solid() && here.is_natural());
    if !replaceable {
        return Err(ActionError::Blocked(p));
    }
    if block.is_solid() && (in_body(p, agent) || bodies.iter().any(|b| in_body(p, *b))) {
        return Err(ActionError::Occupied(p));
    }
    if !p.faces().iter().any(|&n| clickable(block_at(n))) {
        return Err(ActionError::NoFooting(p));
    }
    Ok(())
}

/// Can a block be placed against this one (clicked on)?
pub fn clickable(b: Block) -> bool {
    !b.is_air() && !b.is_liquid()
}

/// May the block at `p` be broken by a bot standing at `agent`?
pub fn check_break(p: Pos, agent: Pos, height: (i32, i32), block_at: impl Fn(Pos) -> Block) -> Result<(), ActionError> {
    if p.y < height.0 || p.y > height.1 {
        return Err(ActionError::OutOfWorld(p));
    }
    if reach_distance(agent, p) > REACH {
        return Err(ActionError::OutOfReach(p));
    }
    let here = block_at(p);
    if here.is_air() || here.is_liquid() {
        return Err(ActionError::NothingThere(p));
    }
    if here.name() == "bedrock" {
        return Err(ActionError::Unbreakable(p));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn b(name: &str) -> Block {
        Block::from_name(name).unwrap()
    }

    /// Flat ground (grass at y=4), a stone wall at x=3 two high, water at (0, 5, -3).
    fn world(p: Pos) -> Block {
        match p {
            _ if p.y <= 4 => b("grass_block"),
            _ if p.x == 3 && p.y <= 6 => b("stone"),
            _ if p == Pos::new(0, 5, -3) => b("water"),
            _ => Block::AIR,
        }
    }

    const H: (i32, i32) = (-64, 319);

    #[test]
    fn steps() {
        let at = Pos::new(0, 5, 0);
        assert_eq!(check_step(at, Pos::new(1, 5, 0), H, world), Ok(()));
        assert_eq!(check_step(at, Pos::new(1, 5, 1), H, world), Ok(()));
        assert_eq!(check_step(at, Pos::new(2, 5, 0), H, world), Err(ActionError::NotAdjacent(Pos::new(2, 5, 0))));
        assert_eq!(check_step(at, at, H, world), Err(ActionError::NotAdjacent(at)));
        assert_eq!(
            check_step(Pos::new(2, 5, 0), Pos::new(3, 5, 0), H, world),
            Err(ActionError::Blocked(Pos::new(3, 5, 0)))
        );
        // Up onto a block needs footing: fine from the ground, not from mid-air.
        assert_eq!(check_step(Pos::new(2, 7, 0), Pos::new(3, 7, 0), H, world), Ok(()));
        assert_eq!(
            check_step(Pos::new(0, 8, 0), Pos::new(0, 9, 0), H, world),
            Err(ActionError::NoFooting(Pos::new(0, 9, 0)))
        );
        assert_eq!(check_step(at, Pos::new(0, 6, 0), H, world), Ok(()), "jumping in place");
        assert_eq!(
            check_step(Pos::new(0, 319, 0), Pos::new(1, 320, 0), H, world),
            Err(ActionError::OutOfWorld(Pos::new(1, 320, 0)))
        );
        // Diagonal between two solid corners.
        let corners = |p: Pos| if p == Pos::new(1, 5, 0) || p == Pos::new(0, 5, 1) { b("stone") } else { world(p) };
        assert_eq!(check_step(at, Pos::new(1, 5, 1), H, corners), Err(ActionError::Blocked(Pos::new(1, 5, 1))));
    }

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
    fn breaking() {
        let agent = Pos::new(0, 5, 0);
        let bedrock = |p: Pos| if p.y == 0 { b("bedrock") } else { world(p) };
        assert_eq!(check_break(Pos::new(1, 4, 0), agent, H, world), Ok(()));
        assert_eq!(check_break(Pos::new(1, 5, 0), agent, H, world), Err(ActionError::NothingThere(Pos::new(1, 5, 0))));
        assert_eq!(
            check_break(Pos::new(0, 0, 0), Pos::new(0, 1, 0), H, bedrock),
            Err(ActionError::Unbreakable(Pos::new(0, 0, 0)))
        );
        assert_eq!(check_break(Pos::new(8, 4, 0), agent, H, world), Err(ActionError::OutOfReach(Pos::new(8, 4, 0))));
    }
}
