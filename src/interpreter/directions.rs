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

/// A compass word for a unit step ("north", "up"…), for answers.
pub fn compass(step: Pos) -> &'static str {
    match (step.x.signum(), step.y.signum(), step.z.signum()) {
        (0, 1, 0) => "up",
        (0, -1, 0) => "down",
        (1, _, 0) => "east",
        (-1, _, 0) => "west",
        (0, _, 1) => "south",
        (0, _, -1) => "north",
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
    }
}
