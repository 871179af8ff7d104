//! DIG: "dig a hole", "dig a 3 by 3 hole over there", "dig until you hit stone". The hole's size
//! comes from the schematic's words; repeated, each round digs one hole deeper.

use crate::interpreter::location::{self, Purpose};
use crate::interpreter::recipe::Recipe;
use crate::logical_form::{Action, Predicate};
use crate::schematics::ShapeRequest;
use crate::tasks::{Dig as DigTask, DigSize, Limits, Task, TaskError, TaskKind, Times};
use crate::world::Pos;

use super::{Plan, number, push};
use crate::interpreter::context::Turn;
use crate::interpreter::problem::Result;

/// Dig a hole with its top layer at `top`; round `r` of a loop digs `r` holes deeper.
#[derive(Debug, Clone, PartialEq)]
pub struct Dig {
    pub top: Pos,
    pub size: DigSize,
}

impl Recipe for Dig {
    fn kind(&self) -> TaskKind {
        TaskKind::Dig
    }
    fn task(&self, limits: &Limits, round: u32) -> std::result::Result<Box<dyn Task>, TaskError> {
        Ok(Box::new(DigTask::new(self.top.down(self.size.depth * round as i32), self.size, limits)?))
    }
    fn doing(&self, label: &str, _: &str) -> String {
        format!("digging {label}")
    }
    fn details(&self) -> Option<String> {
        Some(format!("at {}", self.top))
    }
    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}

/// Hole sizes from a dig's schematic: "a 3 by 3 hole", "a deep hole", "5 blocks deep".
fn dig_size(turn: &Turn, a: &Action) -> DigSize {
    let mut size = DigSize::default();
    let Some(s) = &a.schematic else { return size };
    let triples = s.filters.as_ref().map(|f| f.triples()).unwrap_or_default();
    let said = |p: Predicate| triples.iter().any(|t| t.pred_text == p);
    // "a hole 5 wide" is 5 across both ways; "a trench 10 long" is long one way only.
    let (width_only, length_only) = (said(Predicate::HasWidth) && !said(Predicate::HasLength), said(Predicate::HasLength) && !said(Predicate::HasWidth));
    for t in &triples {
        let words = t.obj_span().map(|sp| turn.words(sp)).unwrap_or_default();
        let n = number(&words).map(|v| v.clamp(1, 64) as i32);
        match t.pred_text {
            Predicate::HasWidth => {
                size.width = n.unwrap_or(size.width);
                if width_only {
                    size.length = size.width;
                }
            }
            Predicate::HasLength => {
                size.length = n.unwrap_or(size.length);
                if length_only {
                    size.width = size.width.min(2);
                }
            }
            Predicate::HasDepth | Predicate::HasHeight => size.depth = n.unwrap_or(size.depth),
            Predicate::HasSize => {
                if let Some(n) = n {
                    size = DigSize::new(n, n, n);
                } else if words.iter().any(|w| matches!(crate::lexicon::lexicon().size(w), Some("big" | "huge"))) {
                    size = DigSize::new(4, 4, 4);
                } else if words.iter().any(|w| matches!(crate::lexicon::lexicon().size(w), Some("small" | "tiny"))) {
                    size = DigSize::new(1, 1, 1);
                } else if words.iter().any(|w| w == "deep") {
                    size.depth = 5;
                }
            }
            _ => {}
        }
    }
    if let Some(sp) = s.text_span {
        let words = turn.words(sp);
        let refs: Vec<&str> = words.iter().map(String::as_str).collect();
        let d = ShapeRequest::parse_dimensions(&refs);
        // "a 3 by 3 hole" reads as width by depth; "three deep and five across" is its depth.
        let across = d.depth.filter(|_| !said(Predicate::HasDepth));
        if let (Some(w), Some(l)) = (d.width, d.length.or(across)) {
            size.width = w.clamp(1, 64);
            size.length = l.clamp(1, 64);
            if let Some(h) = d.height {
                size.depth = h.clamp(1, 64);
            }
        }
    }
    size
}

pub(super) fn dig(turn: &mut Turn, a: &Action, times: Times) -> Result<Plan> {
    let size = dig_size(turn, a);
    let t = location::place_or_default(turn, a.location.as_ref(), Purpose::Place)?;
    // "next to the tower": in the ground beside it, on the speaker's side, never into it.
    let at = match t.anchor {
        Some(b) if t.near && !t.exact => beside(b, turn.speaker_block(), size),
        // "next to me", "right next to you": beside that body, towards the other of us, never
        // under its feet.
        None if t.near && [turn.speaker_block(), turn.agent_pos()].contains(&t.pos) => {
            let other = if t.pos == turn.speaker_block() { turn.agent_pos() } else { turn.speaker_block() };
            beside(crate::world::BBox::new(t.pos, t.pos.up(1)), other, size)
        }
        _ => t.pos,
    };
    // The hole's top layer is the ground surface at that spot.
    let top = Pos::new(at.x, location::ground(turn.world, at.x, at.z, at.y) - 1, at.z);
    let mut size = size;
    // "a really deep hole" where bedrock is near: as deep as the world goes, and said so. A
    // depth told in blocks ("10 deep") is the player's to change: it is refused with the reason.
    let triples = a.schematic.as_ref().and_then(|s| s.filters.as_ref()).map(|f| f.triples()).unwrap_or_default();
    let told = triples.iter().any(|t| matches!(t.pred_text, Predicate::HasDepth | Predicate::HasHeight) && t.obj_span().is_some_and(|sp| number(&turn.words(sp)).is_some()));
    if let Some(floor) = (1..size.depth).filter(|_| !told).find(|&d| crate::world::rules::unbreakable(turn.world.block_at(top - Pos::new(0, d, 0)))) {
        turn.notes.push(format!("(It is {floor} deep: below that is bedrock, which nothing breaks.)"));
        size.depth = floor;
    }
    let label = format!("a {}×{}×{} hole", size.width, size.length, size.depth);
    Ok(push(Dig { top, size }, times, label))
}


/// Where a hole of `size` goes beside box `b`, on the side facing `from`, one block clear of it
/// (the hole's middle; see `tasks::Dig` for how a hole spreads around it).
fn beside(b: crate::world::BBox, from: Pos, size: DigSize) -> Pos {
    let c = Pos::new((b.min.x + b.max.x).div_euclid(2), b.min.y, (b.min.z + b.max.z).div_euclid(2));
    let (dx, dz) = (from.x - c.x, from.z - c.z);
    if dx.abs() >= dz.abs() {
        let x = if dx >= 0 { b.max.x + 1 + (size.width - 1) / 2 } else { b.min.x - 1 - size.width / 2 };
        Pos::new(x, b.min.y, c.z)
    } else {
        let z = if dz >= 0 { b.max.z + 1 + (size.length - 1) / 2 } else { b.min.z - 1 - size.length / 2 };
        Pos::new(c.x, b.min.y, z)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::world::BBox;

    #[test]
    fn a_hole_next_to_a_thing_is_beside_it_on_the_speakers_side() {
        let tower = BBox::new(Pos::new(-11, 5, -11), Pos::new(-9, 12, -9));
        let size = DigSize::new(2, 2, 2);
        // The speaker stands south-east: the hole is on the east side, clear of the tower.
        let at = beside(tower, Pos::new(0, 5, -8), size);
        assert_eq!(at, Pos::new(-8, 5, -10));
        let at = beside(tower, Pos::new(-10, 5, -30), size);
        assert_eq!(at, Pos::new(-10, 5, -13), "north side: the hole covers z -13 and -12, clear of the tower at -11");
    }
}
