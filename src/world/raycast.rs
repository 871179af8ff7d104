//! Line of sight: the first solid block along a look, which is what players mean by "that",
//! "there" and "where I'm looking" (SPEAKER_LOOK). Walks the voxel grid cell by cell (the
//! Amanatides–Woo traversal), so no block is skipped however steep the look.

use super::{Look, Pos, Vec3, World};

/// What a look hits: the block, and the empty cell in front of the face that was hit (where a
/// block placed "there" would go).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Hit {
    pub block: Pos,
    pub before: Pos,
}

/// The first non-air, non-liquid block within `max` blocks of `eye` along `look`.
pub fn first_block(world: &dyn World, eye: Vec3, look: Look, max: f64) -> Option<Hit> {
    let d = look.direction();
    let mut cell = eye.block();
    let step = |v: f64| if v > 0.0 { 1 } else if v < 0.0 { -1 } else { 0 };
    let (sx, sy, sz) = (step(d.x), step(d.y), step(d.z));
    // Distance along the ray to the first boundary on each axis, and between boundaries.
    let first = |p: f64, c: i32, dv: f64, s: i32| {
        if s == 0 {
            f64::INFINITY
        } else {
            let edge = if s > 0 { c as f64 + 1.0 } else { c as f64 };
            (edge - p) / dv
        }
    };
    let (mut tx, mut ty, mut tz) = (first(eye.x, cell.x, d.x, sx), first(eye.y, cell.y, d.y, sy), first(eye.z, cell.z, d.z, sz));
    let delta = |dv: f64| if dv == 0.0 { f64::INFINITY } else { 1.0 / dv.abs() };
    let (dx, dy, dz) = (delta(d.x), delta(d.y), delta(d.z));
    loop {
        let t = tx.min(ty).min(tz);
        if !t.is_finite() || t > max {
            return None;
        }
        let previous = cell;
        if tx <= ty && tx <= tz {
            cell.x += sx;
            tx += dx;
        } else if ty <= tz {
            cell.y += sy;
            ty += dy;
        } else {
            cell.z += sz;
            tz += dz;
        }
        let b = world.block_at(cell);
        if !b.is_air() && !b.is_liquid() {
            return Some(Hit { block: cell, before: previous });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::world::embedded::EmbeddedWorld;
    use crate::world::{Actor, Block};

    #[test]
    fn looks_hit_the_ground_and_walls() {
        let mut w = EmbeddedWorld::flat();
        // Standing at (0,5,0), eyes at y 6.62, looking straight down: the grass below the feet.
        let eye = Vec3::new(0.5, 6.62, 0.5);
        let hit = first_block(&w, eye, Look::new(0.0, 90.0), 20.0).unwrap();
        assert_eq!(hit, Hit { block: Pos::new(0, 4, 0), before: Pos::new(0, 5, 0) });
        // Looking south and 45° down hits the ground about 2 blocks ahead.
        let hit = first_block(&w, eye, Look::new(0.0, 45.0), 20.0).unwrap();
        assert_eq!(hit.block.y, 4);
        assert!((1..=2).contains(&hit.block.z), "{hit:?}");
        // A wall to the west stops a level look.
        w.set_block_by(Pos::new(-4, 6, 0), Block::from_name("stone").unwrap(), Actor::World);
        let hit = first_block(&w, eye, Look::new(90.0, 0.0), 20.0).unwrap();
        assert_eq!(hit, Hit { block: Pos::new(-4, 6, 0), before: Pos::new(-3, 6, 0) });
        // Looking up at the sky hits nothing.
        assert_eq!(first_block(&w, eye, Look::new(0.0, -90.0), 50.0), None);
    }
}
