//! The geometry of acting like a player: which neighbouring block to click (and on which face)
//! to put a block somewhere, where to look, which face to hit when breaking, and where the body
//! goes for a step. Pure functions over positions, so they are tested without a server.
//!
//! A Minecraft client places a block by clicking a face of an existing block: the new block
//! appears on the other side of that face. So placing at `target` means clicking the face of a
//! neighbour `n` that points at `target`, at the centre of that face, while looking at it.

use crate::world::{Look, Pos, Vec3};

/// A block face, named by the direction it points (Minecraft's `Direction`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Face {
    Down,
    Up,
    /// −z
    North,
    /// +z
    South,
    /// −x
    West,
    /// +x
    East,
}

impl Face {
    pub const ALL: [Face; 6] = [Face::Down, Face::Up, Face::North, Face::South, Face::West, Face::East];

    /// The unit step this face points along.
    pub fn offset(self) -> Pos {
        match self {
            Face::Down => Pos::new(0, -1, 0),
            Face::Up => Pos::new(0, 1, 0),
            Face::North => Pos::new(0, 0, -1),
            Face::South => Pos::new(0, 0, 1),
            Face::West => Pos::new(-1, 0, 0),
            Face::East => Pos::new(1, 0, 0),
        }
    }

    pub fn opposite(self) -> Face {
        match self {
            Face::Down => Face::Up,
            Face::Up => Face::Down,
            Face::North => Face::South,
            Face::South => Face::North,
            Face::West => Face::East,
            Face::East => Face::West,
        }
    }

    /// The face of `from` that touches `to`, when they share one.
    pub fn between(from: Pos, to: Pos) -> Option<Face> {
        let d = to - from;
        Face::ALL.into_iter().find(|f| f.offset() == d)
    }
}

/// The middle of face `face` of block `p`.
pub fn face_centre(p: Pos, face: Face) -> Vec3 {
    let c = p.center();
    let o = face.offset();
    Vec3::new(c.x + 0.5 * o.x as f64, c.y + 0.5 * o.y as f64, c.z + 0.5 * o.z as f64)
}

/// What to click to put a block at `target`: the neighbour `clickable` accepts whose shared face
/// is nearest to `eye`, and that neighbour's face pointing at `target`. `None` when nothing
/// around `target` can be clicked (a block needs something to lean on).
pub fn click_for(target: Pos, eye: Vec3, clickable: impl Fn(Pos) -> bool) -> Option<(Pos, Face)> {
    Face::ALL.into_iter().map(|f| (target + f.offset(), f.opposite())).filter(|(n, _)| clickable(*n)).min_by(|a, b| {
        let da = face_centre(a.0, a.1).distance(eye);
        let db = face_centre(b.0, b.1).distance(eye);
        da.total_cmp(&db)
    })
}

/// The face of block `p` a player at `eye` would hit first (the one turned towards the eye).
pub fn facing_face(p: Pos, eye: Vec3) -> Face {
    let c = p.center();
    let (dx, dy, dz) = (eye.x - c.x, eye.y - c.y, eye.z - c.z);
    if dy.abs() >= dx.abs() && dy.abs() >= dz.abs() {
        if dy >= 0.0 { Face::Up } else { Face::Down }
    } else if dx.abs() >= dz.abs() {
        if dx >= 0.0 { Face::East } else { Face::West }
    } else if dz >= 0.0 {
        Face::South
    } else {
        Face::North
    }
}

/// How far above the block a body going straight up is put: like the top of a jump, so a block
/// can be placed under the feet in the same tick (a pillar step) without touching the body.
pub const STRAIGHT_UP_LIFT: f64 = 0.3;

/// Where the feet go for a step from block `from` to the adjacent block `to`: the middle of the
/// block's floor, lifted by [`STRAIGHT_UP_LIFT`] when the step is straight up.
pub fn step_target(from: Pos, to: Pos) -> Vec3 {
    let feet = to.feet();
    if to.x == from.x && to.z == from.z && to.y == from.y + 1 {
        Vec3::new(feet.x, feet.y + STRAIGHT_UP_LIFT, feet.z)
    } else {
        feet
    }
}

/// The look from `eye` at `point`.
pub fn look_at(eye: Vec3, point: Vec3) -> Look {
    Look::towards(eye, point)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::world::rules::eye_of;

    #[test]
    fn faces_and_offsets_agree() {
        for f in Face::ALL {
            assert_eq!(f.opposite().opposite(), f);
            assert_eq!(f.offset() + f.opposite().offset(), Pos::new(0, 0, 0));
            assert_eq!(Face::between(Pos::new(3, 4, 5), Pos::new(3, 4, 5) + f.offset()), Some(f));
        }
        assert_eq!(Face::between(Pos::new(0, 0, 0), Pos::new(1, 1, 0)), None);
        assert_eq!(Face::between(Pos::new(0, 0, 0), Pos::new(0, 0, 0)), None);
        assert_eq!(Face::North.offset(), Pos::new(0, 0, -1), "north is -z");
        assert_eq!(Face::West.offset(), Pos::new(-1, 0, 0), "west is -x");
    }

    #[test]
    fn face_centres() {
        assert_eq!(face_centre(Pos::new(0, 4, 0), Face::Up), Vec3::new(0.5, 5.0, 0.5));
        assert_eq!(face_centre(Pos::new(-2, 4, 3), Face::West), Vec3::new(-2.0, 4.5, 3.5));
        assert_eq!(face_centre(Pos::new(-2, 4, 3), Face::South), Vec3::new(-1.5, 4.5, 4.0));
    }

    #[test]
    fn clicks_the_ground_under_a_block_on_flat_land() {
        let ground = |p: Pos| p.y <= 4;
        let eye = eye_of(Pos::new(0, 5, 0).feet());
        assert_eq!(click_for(Pos::new(2, 5, 0), eye, ground), Some((Pos::new(2, 4, 0), Face::Up)));
        // Floating: nothing to click.
        assert_eq!(click_for(Pos::new(2, 7, 0), eye, ground), None);
    }

    #[test]
    fn prefers_the_neighbour_face_nearest_the_eyes() {
        // A wall at x=3 and the ground: placing at (2, 6, 0) can lean on the wall's west face
        // (x=3) or on nothing below (air at y=5). Only the wall qualifies.
        let solid = |p: Pos| p.y <= 4 || p.x == 3;
        let eye = eye_of(Pos::new(0, 5, 0).feet());
        assert_eq!(click_for(Pos::new(2, 6, 0), eye, solid), Some((Pos::new(3, 6, 0), Face::West)));
        // Both the ground below and a block beside: the face nearer the eyes wins (the side
        // block's face is 2.3 blocks from the eyes, the ground's 3.3).
        let solid = |p: Pos| p.y <= 4 || p == Pos::new(2, 5, 1);
        assert_eq!(click_for(Pos::new(2, 5, 0), eye, solid), Some((Pos::new(2, 5, 1), Face::North)));
        let eye_high = eye_of(Pos::new(2, 9, 0).feet());
        let solid = |p: Pos| p == Pos::new(2, 6, 0) || p == Pos::new(1, 7, 0);
        assert_eq!(click_for(Pos::new(2, 7, 0), eye_high, solid), Some((Pos::new(1, 7, 0), Face::East)));
    }

    #[test]
    fn hit_face_turns_towards_the_eye() {
        let p = Pos::new(0, 4, 0);
        assert_eq!(facing_face(p, Vec3::new(0.5, 6.6, 0.5)), Face::Up);
        assert_eq!(facing_face(p, Vec3::new(3.0, 4.6, 0.5)), Face::East);
        assert_eq!(facing_face(p, Vec3::new(-3.0, 4.6, 0.5)), Face::West);
        assert_eq!(facing_face(p, Vec3::new(0.5, 4.6, -3.0)), Face::North);
        assert_eq!(facing_face(p, Vec3::new(0.5, 4.6, 3.0)), Face::South);
        assert_eq!(facing_face(p, Vec3::new(0.5, 1.0, 0.5)), Face::Down);
    }

    #[test]
    fn steps_land_in_the_middle_and_straight_up_is_lifted() {
        let from = Pos::new(0, 5, 0);
        assert_eq!(step_target(from, Pos::new(1, 5, 0)), Vec3::new(1.5, 5.0, 0.5));
        assert_eq!(step_target(from, Pos::new(1, 6, -1)), Vec3::new(1.5, 6.0, -0.5));
        assert_eq!(step_target(from, Pos::new(0, 6, 0)), Vec3::new(0.5, 6.0 + STRAIGHT_UP_LIFT, 0.5));
        assert_eq!(step_target(from, Pos::new(0, 4, 0)), Vec3::new(0.5, 4.0, 0.5));
    }

    #[test]
    fn looks_follow_minecraft_conventions() {
        let eye = Vec3::new(0.5, 6.62, 0.5);
        // Straight down at the block under the feet.
        let down = look_at(eye, face_centre(Pos::new(0, 4, 0), Face::Up));
        assert!((down.pitch - 90.0).abs() < 1e-3);
        // East (+x) is yaw 270 (-90).
        let east = look_at(eye, Vec3::new(5.5, 6.62, 0.5));
        assert!((east.yaw - 270.0).abs() < 1e-3 && east.pitch.abs() < 1e-3, "{east:?}");
    }
}
