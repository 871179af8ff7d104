//! Where the world ends: the lowest and highest block rows, and the border in x and z.
//!
//! A live server reports its own height range (a datapack can change it), so the checks that
//! depend on height take it as a `(lowest, highest)` pair; [`HEIGHT`] is vanilla's.

use crate::world::Pos;

/// The lowest and highest block rows of the world, as in Minecraft.
pub const MIN_Y: i32 = -64;
pub const MAX_Y: i32 = 319;
/// Vanilla's height range as the `(lowest, highest)` pair the checks take.
pub const HEIGHT: (i32, i32) = (MIN_Y, MAX_Y);
/// How far from the origin x and z may go (Minecraft's world border).
pub const WORLD_BORDER: i32 = 30_000_000;

/// Is row `y` inside the `(lowest, highest)` range?
pub fn in_height(y: i32, height: (i32, i32)) -> bool {
    (height.0..=height.1).contains(&y)
}

/// Is `p` a block of the world (between bedrock level and the build limit, inside the border)?
pub fn in_world(p: Pos) -> bool {
    in_height(p.y, HEIGHT) && p.x.unsigned_abs() <= WORLD_BORDER as u32 && p.z.unsigned_abs() <= WORLD_BORDER as u32
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn height_and_border() {
        assert!(in_world(Pos::new(0, 319, 0)) && in_world(Pos::new(0, -64, 0)));
        assert!(!in_world(Pos::new(0, 320, 0)) && !in_world(Pos::new(0, -65, 0)));
        assert!(!in_world(Pos::new(i32::MIN, 5, 0)) && !in_world(Pos::new(0, 5, WORLD_BORDER + 1)));
        assert!(in_height(0, (0, 255)) && !in_height(256, (0, 255)));
    }
}
