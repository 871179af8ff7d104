//! How far the bot reaches: from its eyes to the nearest point of a block.

use crate::world::types::EYE_HEIGHT;
use crate::world::{Pos, Vec3};

/// How far from its eyes the bot places and breaks (creative-mode interaction range). The
/// server allows a little more; the planner plans for less (`Limits::reach`).
pub const REACH: f64 = 5.0;

/// The eyes of a body standing with its feet at `feet` (a position, not a block).
pub fn eye_of(feet: Vec3) -> Vec3 {
    Vec3::new(feet.x, feet.y + EYE_HEIGHT, feet.z)
}

/// Distance from the eyes of a body standing in block `feet` (in the middle of it) to the
/// nearest point of block `p`.
pub fn reach_distance(feet: Pos, p: Pos) -> f64 {
    let eye = eye_of(feet.feet());
    let clamp = |v: f64, lo: i32| v.clamp(lo as f64, lo as f64 + 1.0);
    eye.distance(Vec3::new(clamp(eye.x, p.x), clamp(eye.y, p.y), clamp(eye.z, p.z)))
}

/// Can a body standing in block `feet` reach block `p` within `reach`?
pub fn within_reach(feet: Pos, p: Pos, reach: f64) -> bool {
    reach_distance(feet, p) <= reach
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distance_is_from_the_eyes_to_the_nearest_point_of_the_block() {
        let feet = Pos::new(0, 5, 0);
        // The eyes are at (0.5, 6.62, 0.5).
        assert!(reach_distance(feet, Pos::new(0, 6, 0)).abs() < 1e-9, "the own head block");
        let d = reach_distance(feet, Pos::new(3, 11, 0));
        assert!((d - (2.5f64.powi(2) + 4.38f64.powi(2)).sqrt()).abs() < 1e-9, "{d}");
        let d = reach_distance(feet, Pos::new(0, 1, 0));
        assert!((d - 4.62).abs() < 1e-9, "{d}");
        let d = reach_distance(feet, Pos::new(-5, 5, 0));
        assert!((d - (4.5f64.powi(2) + 0.62f64.powi(2)).sqrt()).abs() < 1e-9, "{d}");
        assert!(within_reach(feet, Pos::new(-5, 5, 0), REACH) && !within_reach(feet, Pos::new(3, 11, 0), REACH));
    }
}
