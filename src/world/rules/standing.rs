//! Where a body (two blocks high) can be and how it moves: room for it, something to stand on,
//! and one step at a time.

use crate::world::{ActionError, Block, Pos};

/// Is there room for a body with its feet in `feet` (feet and head blocks not solid)?
pub fn has_room(feet: Pos, block_at: impl Fn(Pos) -> Block) -> bool {
    !block_at(feet).is_solid() && !block_at(feet.up(1)).is_solid()
}

/// Does a body with feet in `feet` stand on something solid, or float in a liquid (rather than
/// fall)?
pub fn supported(feet: Pos, block_at: impl Fn(Pos) -> Block) -> bool {
    block_at(feet.down(1)).is_solid() || block_at(feet).is_liquid()
}

/// Is `p` inside the body of something standing with its feet in block `feet`?
pub fn in_body(p: Pos, feet: Pos) -> bool {
    p == feet || p == feet.up(1)
}

/// May the body step from `from` to `to`? `height` is the world's lowest and highest row.
///
/// A step must be adjacent (each axis differs by at most one), stay in the world, have room for
/// the body, have something to jump from (or water to swim in) and headroom for the jump when it
/// goes up, and not squeeze diagonally between two solid corners.
pub fn check_step(from: Pos, to: Pos, height: (i32, i32), block_at: impl Fn(Pos) -> Block) -> Result<(), ActionError> {
    if from.chebyshev(to) != 1 {
        return Err(ActionError::NotAdjacent(to));
    }
    if !super::in_height(to.y, height) {
        return Err(ActionError::OutOfWorld(to));
    }
    if !has_room(to, &block_at) {
        return Err(ActionError::Blocked(to));
    }
    if to.y > from.y && (!supported(from, &block_at) || block_at(from.up(2)).is_solid()) {
        return Err(ActionError::NoFooting(to));
    }
    if to.x != from.x && to.z != from.z {
        let side_a = Pos::new(to.x, from.y.max(to.y), from.z);
        let side_b = Pos::new(from.x, from.y.max(to.y), to.z);
        if !has_room(side_a, &block_at) && !has_room(side_b, &block_at) {
            return Err(ActionError::Blocked(to));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::super::testing::{H, b, world};
    use super::*;

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
    fn standing_and_floating() {
        assert!(supported(Pos::new(0, 5, 0), world), "on the grass");
        assert!(!supported(Pos::new(0, 7, 0), world), "in the air");
        assert!(supported(Pos::new(0, 5, -3), world), "in water");
        assert!(has_room(Pos::new(0, 5, 0), world) && !has_room(Pos::new(3, 5, 0), world));
        assert!(!has_room(Pos::new(3, 6, 0), world), "head in the wall's top");
        assert!(in_body(Pos::new(0, 6, 0), Pos::new(0, 5, 0)) && !in_body(Pos::new(0, 7, 0), Pos::new(0, 5, 0)));
    }
}
