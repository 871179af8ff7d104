//! Relative directions in the speaker's frame: "to my left", "in front of you", "behind the
//! house". A direction becomes a unit step on the block grid, snapped to the axis the viewer
//! faces most, because players think in whole blocks and cardinal-ish directions.

use crate::lexicon::Compass;
use crate::logical_form::RelativeDirection;
use crate::world::{Look, Pos};

/// The horizontal unit step a viewer with `look` calls "forward", snapped to an axis.
pub fn forward(look: Look) -> Pos {
    let d = look.direction();
    if d.x.abs() > d.z.abs() { Pos::new(d.x.signum() as i32, 0, 0) } else { Pos::new(0, 0, if d.z >= 0.0 { 1 } else { -1 }) }
}

/// The viewer's right: forward × up in Minecraft's right-handed frame (x east, y up, z south).
/// Facing south (+z), your right is west (−x).
pub fn right(look: Look) -> Pos {
    let f = forward(look);
    Pos::new(-f.z, 0, f.x)
}

/// The unit step for a direction as `look`'s owner sees it; `None` for directions that are not
/// a single step (NEAR, AROUND, BETWEEN, INSIDE, …).
pub fn offset(dir: RelativeDirection, look: Look) -> Option<Pos> {
    let f = forward(look);
    let r = right(look);
    Some(match dir {
        RelativeDirection::Left => Pos::new(-r.x, 0, -r.z),
        RelativeDirection::Right => r,
        RelativeDirection::Front => f,
        RelativeDirection::Back => Pos::new(-f.x, 0, -f.z),
        RelativeDirection::Up => Pos::new(0, 1, 0),
        RelativeDirection::Down => Pos::new(0, -1, 0),
        _ => return None,
    })
}

/// The unit step of a compass heading: north is −z, east is +x (Minecraft's frame).
pub fn cardinal(c: Compass) -> Pos {
    let (dx, dz) = c.offset();
    Pos::new(dx, 0, dz)
}

/// `n` blocks along a horizontal unit step: a diagonal step ("northeast") keeps the distance,
/// n/√2 blocks along each axis, so "100 blocks northwest" is 100 blocks away, not 141.
pub fn along(step: Pos, n: i32) -> Pos {
    let per_axis = if step.x != 0 && step.z != 0 { (f64::from(n) / std::f64::consts::SQRT_2).round() as i32 } else { n };
    Pos::new(step.x * per_axis, step.y * n, step.z * per_axis)
}

/// The unit step of the eight compass ways nearest to a horizontal offset: a diagonal when
/// the offset lies within 22.5° of one (tan 22.5° ≈ 0.414), so "33 blocks northwest" is said
/// of (-24, -23), never "west".
pub fn heading(dx: f64, dz: f64) -> Pos {
    let (ax, az) = (dx.abs(), dz.abs());
    let sign = |v: f64| if v < 0.0 { -1 } else { 1 };
    if az <= ax * 0.414 {
        Pos::new(sign(dx), 0, 0)
    } else if ax <= az * 0.414 {
        Pos::new(0, 0, sign(dz))
    } else {
        Pos::new(sign(dx), 0, sign(dz))
    }
}

/// A compass word for a unit step ("north", "northeast", "up"…), for answers.
pub fn compass(step: Pos) -> &'static str {
    match (step.x.signum(), step.y.signum(), step.z.signum()) {
        (0, 1, 0) => "up",
        (0, -1, 0) => "down",
        (1, _, 0) => "east",
        (-1, _, 0) => "west",
        (0, _, 1) => "south",
        (0, _, -1) => "north",
        (1, _, -1) => "northeast",
        (-1, _, -1) => "northwest",
        (1, _, 1) => "southeast",
        (-1, _, 1) => "southwest",
        _ => "nowhere",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn minecraft_frame() {
        let south = Look::new(0.0, 0.0);
        assert_eq!(forward(south), Pos::new(0, 0, 1));
        assert_eq!(offset(RelativeDirection::Right, south), Some(Pos::new(-1, 0, 0)), "facing south, right is west");
        assert_eq!(offset(RelativeDirection::Left, south), Some(Pos::new(1, 0, 0)));
        let west = Look::new(90.0, 0.0);
        assert_eq!(forward(west), Pos::new(-1, 0, 0));
        assert_eq!(offset(RelativeDirection::Right, west), Some(Pos::new(0, 0, -1)), "facing west, right is north");
        assert_eq!(offset(RelativeDirection::Back, west), Some(Pos::new(1, 0, 0)));
        assert_eq!(forward(Look::new(180.0, 0.0)), Pos::new(0, 0, -1));
        assert_eq!(forward(Look::new(-90.0, 0.0)), Pos::new(1, 0, 0));
        assert_eq!(forward(Look::new(30.0, 80.0)), Pos::new(0, 0, 1), "looking down still has a heading");
        assert_eq!(offset(RelativeDirection::Near, south), None);
        assert_eq!(compass(Pos::new(0, 0, -1)), "north");
        assert_eq!(compass(Pos::new(-1, 0, -1)), "northwest");
        assert_eq!(compass(heading(-24.0, -23.0)), "northwest");
        assert_eq!(compass(heading(-24.0, -5.0)), "west");
        assert_eq!(compass(heading(3.0, 20.0)), "south");
        // A diagonal keeps the distance said: 100 blocks northwest is 71 west and 71 north.
        assert_eq!(along(cardinal(Compass::NorthWest), 100), Pos::new(-71, 0, -71));
        assert_eq!(along(cardinal(Compass::East), 10), Pos::new(10, 0, 0));
    }
}
