//! Relative directions in the speaker's frame: "to my left", "in front of you", "behind the
//! house". A direction becomes a unit step on the block grid, snapped to the axis the viewer
//! faces most, because players think in whole blocks and cardinal-ish directions.

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

/// The unit step of a compass word: north is −z, east is +x (Minecraft's frame).
pub fn cardinal(word: &str) -> Option<Pos> {
    Some(match word {
        "north" | "northward" | "northwards" => Pos::new(0, 0, -1),
        "south" | "southward" | "southwards" => Pos::new(0, 0, 1),
        "east" | "eastward" | "eastwards" => Pos::new(1, 0, 0),
        "west" | "westward" | "westwards" => Pos::new(-1, 0, 0),
        _ => return None,
    })
}

/// A distance and direction said in words — "10 blocks north", "5 to my right", "3 steps left" —
/// as the number and the unit step (left, right, front and back in `look`'s frame).
pub fn said_offset(tokens: &[String], look: Look) -> Option<(i32, Pos)> {
    said(tokens, look, false)
}

/// The same for compass words only ("10 blocks north"): they need no frame.
pub fn said_compass(tokens: &[String]) -> Option<(i32, Pos)> {
    said(tokens, Look::default(), true)
}

fn said(tokens: &[String], look: Look, compass_only: bool) -> Option<(i32, Pos)> {
    const UNITS: &[&str] = &["block", "blocks", "step", "steps", "space", "spaces", "meter", "meters", "metres", "tiles"];
    const FILLERS: &[&str] = &["to", "the", "my", "your", "towards", "toward", "of", "in"];
    for i in 0..tokens.len() {
        let Ok(n) = tokens[i].parse::<i32>() else { continue };
        let mut j = i + 1;
        while tokens.get(j).is_some_and(|w| UNITS.contains(&w.as_str()) || FILLERS.contains(&w.as_str())) {
            j += 1;
        }
        let Some(w) = tokens.get(j) else { continue };
        let step = cardinal(w).or_else(|| match w.as_str() {
            _ if compass_only => None,
            "left" => offset(RelativeDirection::Left, look),
            "right" => offset(RelativeDirection::Right, look),
            "front" | "ahead" | "forward" | "forwards" => offset(RelativeDirection::Front, look),
            "behind" | "back" | "backwards" => offset(RelativeDirection::Back, look),
            _ => None,
        });
        if let Some(step) = step
            && (1..=1000).contains(&n)
        {
            return Some((n, step));
        }
    }
    None
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

    #[test]
    fn distances_and_compass_words_in_chat() {
        let words = |t: &str| t.split(' ').map(String::from).collect::<Vec<_>>();
        let south = Look::new(0.0, 0.0);
        assert_eq!(said_offset(&words("go 10 blocks north"), south), Some((10, Pos::new(0, 0, -1))));
        assert_eq!(said_offset(&words("a red cube 10 blocks east of here"), south), Some((10, Pos::new(1, 0, 0))));
        assert_eq!(said_offset(&words("dig a hole 5 blocks to my right"), south), Some((5, Pos::new(-1, 0, 0))));
        assert_eq!(said_offset(&words("build a wall 5 blocks long"), south), None);
    }
}
