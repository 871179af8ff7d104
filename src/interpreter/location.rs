//! Locations: "here", "there", "to my left", "5 steps in front of the house", "between the two
//! towers", "at 10 5 -3". A location resolves to a block position plus what it was relative to,
//! so a build placed "left of the house" can stand clear of the house.
//!
//! Frames: directions are taken in the speaker's frame ("to my left", "in front of the house"
//! as the speaker sees it), except when the reference is the agent ("to your left"), which uses
//! the agent's own heading.

use super::context::Turn;
use super::directions;
use super::problem::{Problem, Result};
use super::reference::{self, Referent, Want};
use crate::logical_form::{FixedReference, Location, LocationArg, LocationType, RelativeDirection, Span};
use crate::memory::query::location::coordinates;
use crate::schematics::numbers::read_number;
use crate::world::{BBox, Look, Pos, World};

/// What the location is for: moving there, or putting something there. "Here" differs: come
/// here means where I stand; build here means where I point.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Purpose {
    Move,
    Place,
}

/// A resolved location.
#[derive(Debug, Clone, PartialEq)]
pub struct Target {
    pub pos: Pos,
    /// The box the location was relative to (an object, a player's body), if any.
    pub anchor: Option<BBox>,
    /// The horizontal/vertical unit step of a direction, if one was given.
    pub step: Option<Pos>,
    /// How many steps were asked for ("5 steps"), if said.
    pub steps: Option<i32>,
    /// "near"/"around": anywhere close is fine.
    pub near: bool,
    /// Coordinates the player typed: the place is exactly there, whatever stands there now.
    pub exact: bool,
    /// Inside the anchor: on its floor, within its walls.
    pub inside: bool,
    /// "around": a shape with room inside (a fence, a ring) goes round the anchor.
    pub around: bool,
    /// Between two things: the horizontal unit step from the first towards the second; a wall
    /// between them runs across it.
    pub across: Option<Pos>,
}

impl Target {
    pub fn at(pos: Pos) -> Target {
        Target { pos, anchor: None, step: None, steps: None, near: false, exact: false, inside: false, around: false, across: None }
    }

    /// Coordinates the player gave.
    pub fn exactly(pos: Pos) -> Target {
        Target { exact: true, ..Target::at(pos) }
    }
}

fn number_in(turn: &Turn, span: Option<Span>) -> Option<i32> {
    let words = turn.words(span?);
    (0..words.len()).find_map(|i| read_number(&words, i)).map(|(v, _)| v.clamp(-10_000, 10_000) as i32)
}

/// How far from the speaker the spot they look at may be and still be "here" (blocks).
const HERE_REACH: f64 = 10.0;

/// Where "there"/"that spot" points: the empty cell in front of the block the speaker looks at.
fn look_spot(turn: &Turn) -> Option<Pos> {
    turn.look_hit.map(|h| if h.before.y > h.block.y || !turn.world.block_at(h.block.up(1)).is_solid() { h.block.up(1) } else { h.before })
}

/// Where a thing goes: the location the player gave, else the default place in front of them.
pub fn place_or_default(turn: &mut Turn, loc: Option<&LocationArg>, purpose: Purpose) -> Result<Target> {
    let t = match loc {
        Some(l) => resolve(turn, l, purpose)?,
        // "walk 10 blocks north then build a tower": where the walk ended, in front of the bot.
        None if turn.antecedent.as_ref().is_some_and(|a| a.walked) && turn.details().offset.is_none() => {
            let f = directions::forward(turn.world.agent_look());
            Target::at(turn.agent_pos() + Pos::new(f.x * 3, 0, f.z * 3))
        }
        None => default_place(turn),
    };
    Ok(with_said_offset(turn, t))
}

/// The default place for a build when none is said: where the speaker points if that is close,
/// else a few steps in front of the speaker.
pub fn default_place(turn: &Turn) -> Target {
    if let Some(spot) = look_spot(turn)
        && spot.distance(turn.speaker_block()) <= 16.0
    {
        return Target::at(spot);
    }
    let f = directions::forward(turn.speaker_look);
    Target::at(turn.speaker_block() + Pos::new(f.x * 3, 0, f.z * 3))
}

/// Resolve an action's `location`; `None` (no location given) is the caller's to default.
pub fn resolve(turn: &mut Turn, loc: &LocationArg, purpose: Purpose) -> Result<Target> {
    match loc {
        LocationArg::Span(span) => {
            let words = turn.words(*span);
            match coordinates(&words) {
                Some(p) => super::reference::typed_point(p).map(Target::exactly),
                None => coref(turn, Some(&words), purpose),
            }
        }
        LocationArg::Location(l) => resolve_location(turn, l, purpose),
    }
}

/// "here"/"there" and other pointing words. In a later step of a line, "there" and "in its
/// place" are where the step before acted ("tear down the hut and build a tower there").
fn coref(turn: &Turn, words: Option<&[String]>, purpose: Purpose) -> Result<Target> {
    let lx = crate::lexicon::lexicon();
    let says_here = match words {
        Some(w) => w.iter().any(|w| lx.is(crate::lexicon::Class::Here, w) || lx.is(crate::lexicon::Class::Me, w)),
        None => turn.details().deixis == Some(crate::logical_form::Deixis::Here),
    };
    if !says_here && let Some(a) = &turn.antecedent && let Some(spot) = a.spot() {
        // Going there: beside what it made; putting something there: where it stood.
        let anchor = if purpose == Purpose::Move { a.bbox().filter(|b| turn.world.block_at(b.min).is_solid() || a.object.is_some()) } else { None };
        return Ok(Target { anchor, ..Target::at(spot) });
    }
    match (says_here, purpose) {
        (true, Purpose::Move) => Ok(Target::at(turn.speaker_block())),
        // "here" is by the speaker: where they look when that is close, else a few steps in
        // front of them, never the far spot their gaze happens to land on.
        (true, Purpose::Place) => Ok(look_spot(turn).filter(|s| s.distance(turn.speaker_block()) <= HERE_REACH).map(Target::at).unwrap_or_else(|| {
            let f = directions::forward(turn.speaker_look);
            Target::at(turn.speaker_block() + Pos::new(f.x * 3, 0, f.z * 3))
        })),
        (false, _) => match look_spot(turn) {
            Some(s) => Ok(Target::at(s)),
            // Looking at nothing, "go there" goes to what was just talked about ("build a house
            // over there" … "ok now go there"): beside it, as "go to the house" would.
            None if purpose == Purpose::Move && let Some(r) = super::reference::recently_talked_about(turn)? => {
                let anchor = matches!(r, super::reference::Referent::Memory { bbox: Some(_), .. }).then(|| r.bbox());
                Ok(Target { anchor, ..Target::at(r.pos().block()) })
            }
            // Looking at nothing else (the sky, the far horizon): "over there" is some steps ahead.
            None => {
                let f = directions::forward(turn.speaker_look);
                Ok(Target::at(turn.speaker_block() + Pos::new(f.x * 6, 0, f.z * 6)))
            }
        },
    }
}

/// Where a location is measured from.
struct Origin {
    base: Pos,
    /// The thing's box, if the location names one.
    anchor: Option<BBox>,
    /// The frame its directions are in.
    frame: Look,
    /// Whether that frame is the speaker's turned round (a thing's front faces the speaker).
    facing_speaker: bool,
    /// Between two things: the way from the first to the second.
    across: Option<Pos>,
}

fn origin(turn: &mut Turn, l: &Location, purpose: Purpose) -> Result<Origin> {
    let dir = l.relative_direction;
    // "in front of the house" is the side of the house facing the speaker, "behind it" the far
    // side: for a thing the speaker looks at, front and back are the speaker's turned around.
    let mut facing_speaker = false;
    let mut across = None;
    let (base, anchor, frame): (Pos, Option<BBox>, Look) = if dir == Some(RelativeDirection::Between) {
        let (Some(a), Some(b)) = (&l.reference_object_1, &l.reference_object_2) else {
            return Err(Problem::say("Between which two things?"));
        };
        let (a, b) = reference::resolve_two(turn, a, b)?;
        let boxes = [a.bbox(), b.bbox()];
        let (a, b) = (a.pos().block(), b.pos().block());
        across = ((a.x, a.z) != (b.x, b.z)).then(|| directions::heading(f64::from(b.x - a.x), f64::from(b.z - a.z)));
        let middle = Pos::new((a.x + b.x).div_euclid(2), a.y.min(b.y), (a.z + b.z).div_euclid(2));
        // Two things that touch have no room between them: say so, never build off to a side.
        if boxes.iter().any(|b| b.contains(middle)) {
            return Err(Problem::say("There's no room between them: they touch."));
        }
        (middle, None, turn.speaker_look)
    } else if let Some(r) = &l.reference_object {
        let is_agent = r.fixed_reference() == Some(FixedReference::Agent);
        let found = reference::resolve_one(turn, r, Want::Anything)?;
        let frame = if is_agent { turn.world.agent_look() } else { turn.speaker_look };
        match found {
            Referent::Point(p) => (p, None, frame),
            Referent::Place(b) => {
                facing_speaker = !is_agent;
                (Pos::new((b.min.x + b.max.x).div_euclid(2), b.min.y, (b.min.z + b.max.z).div_euclid(2)), Some(b), frame)
            }
            Referent::Memory { bbox, pos, kind, .. } => {
                facing_speaker = !is_agent && !matches!(kind, crate::memory::MemoryKind::Player | crate::memory::MemoryKind::SelfAgent);
                (pos.block(), bbox, frame)
            }
        }
    } else if l.contains_coreference.is_some() {
        let words = l.text_span.map(|s| turn.words(s));
        let t = coref(turn, words.as_deref(), purpose)?;
        (t.pos, t.anchor, turn.speaker_look)
    } else {
        match l.location_type {
            Some(LocationType::AgentPos) => (turn.agent_pos(), None, turn.world.agent_look()),
            Some(LocationType::SpeakerPos) => (turn.speaker_block(), None, turn.speaker_look),
            // No reference: moves are relative to the agent ("move left"), placements to the
            // speaker ("build a wall to the left").
            _ if purpose == Purpose::Move => (turn.agent_pos(), None, turn.world.agent_look()),
            _ => (turn.speaker_block(), None, turn.speaker_look),
        }
    };
    Ok(Origin { base, anchor, frame, facing_speaker, across })
}

/// The spot a location names: its origin, then the relation or direction and distance from it.
fn resolve_location(turn: &mut Turn, l: &Location, purpose: Purpose) -> Result<Target> {
    let dir = l.relative_direction;
    let Origin { base, anchor, frame, facing_speaker, across } = origin(turn, l, purpose)?;
    let steps = number_in(turn, l.steps).or_else(|| number_in(turn, l.has_measure)).or_else(|| said(turn).map(|(n, _)| n));
    // "at 1 7 0": coordinates typed as the place itself are exactly there.
    let typed = l.reference_object.as_ref().is_some_and(|r| r.special_reference.as_ref().and_then(|s| s.coordinates()).is_some());
    let mut t = Target { pos: base, anchor, steps, across, exact: typed && dir.is_none(), ..Target::at(base) };
    match dir {
        None | Some(RelativeDirection::Between) => {}
        Some(RelativeDirection::Near) => t.near = true,
        Some(RelativeDirection::Around) => {
            t.near = true;
            t.around = true;
        }
        Some(RelativeDirection::Inside) => {
            if let Some(b) = anchor {
                t.pos = inside_spot(turn.world, b)
                    .unwrap_or(Pos::new((b.min.x + b.max.x).div_euclid(2), b.min.y, (b.min.z + b.max.z).div_euclid(2)));
                t.inside = true;
            }
        }
        Some(RelativeDirection::Away) => {
            let from = turn.speaker_block();
            let (dx, dz) = ((base.x - from.x).signum(), (base.z - from.z).signum());
            let step = if dx == 0 && dz == 0 { directions::forward(turn.speaker_look) } else { Pos::new(dx, 0, dz) };
            let n = steps.unwrap_or(8);
            t.pos = base + directions::along(Pos::new(step.x, 0, step.z), n);
        }
        Some(RelativeDirection::Outside) => {
            // Just outside the thing, on the side facing the speaker.
            let b = anchor.unwrap_or(BBox::new(base, base));
            let f = directions::forward(turn.speaker_look);
            t.pos = Pos::new(if f.x > 0 { b.min.x - 2 } else if f.x < 0 { b.max.x + 2 } else { base.x }, b.min.y, if f.z > 0 { b.min.z - 2 } else if f.z < 0 { b.max.z + 2 } else { base.z });
        }
        // A compass word said with the direction wins: the form has no north, so the parser writes
        // "10 blocks north" as some direction of the speaker's.
        Some(d) => match turn.details().compass.map(directions::cardinal).or_else(|| {
            let step = directions::offset(d, frame)?;
            let turned = facing_speaker && matches!(d, RelativeDirection::Front | RelativeDirection::Back);
            Some(if turned { Pos::new(-step.x, step.y, -step.z) } else { step })
        }) {
            Some(step) => {
                t.step = Some(step);
                match anchor {
                    // On top of a thing rests on its top where it stands (a tower's roof, inside
                    // its battlements), or the asked number of blocks above the whole thing.
                    Some(b) if step.y > 0 => t.pos = Pos::new(base.x, on_top(turn.world, &b, base, steps), base.z),
                    // Under a thing is right below its lowest layer (in the ground, for a thing
                    // standing on it), or the asked number of blocks below.
                    Some(b) if step.y < 0 => t.pos = Pos::new(base.x, b.min.y - steps.unwrap_or(1).max(1), base.z),
                    _ => {
                        // Out of the anchor's box, then the asked number of steps (default 2 clear).
                        let clear = anchor.map(|b| extent_along(&b, step)).unwrap_or(0);
                        let n = steps.unwrap_or(if purpose == Purpose::Move { 3 } else { 2 });
                        t.pos = base + directions::along(step, clear + n);
                    }
                }
            }
            None => t.near = true,
        },
    }
    Ok(t)
}

/// The height of a spot on top of box `b` over `base`'s column: resting on the highest block of
/// the thing in that column (a tower's roof, inside its battlements), or `steps` above the whole.
fn on_top(world: &dyn World, b: &BBox, base: Pos, steps: Option<i32>) -> i32 {
    if let Some(n) = steps {
        return b.max.y + 1 + n;
    }
    let rest = (b.min.y..=b.max.y).rev().find(|&y| world.block_at(Pos::new(base.x, y, base.z)).is_solid());
    rest.unwrap_or(b.max.y) + 1
}

/// "10 blocks north", "5 to my right" said in the step, as a number of blocks and a unit step
/// (left and right in the speaker's frame).
fn said(turn: &Turn) -> Option<(i32, Pos)> {
    let o = turn.details().offset?;
    let step = match o.heading {
        crate::logical_form::Heading::Compass(c) => directions::cardinal(c),
        crate::logical_form::Heading::Relative(d) => directions::offset(d, turn.speaker_look)?,
    };
    Some((o.blocks, step))
}

/// A distance and direction the chat says ("10 blocks east") that the form left out, applied to
/// a target that has no direction yet: never silently dropped.
pub fn with_said_offset(turn: &Turn, mut t: Target) -> Target {
    if t.step.is_none()
        && let Some((n, step)) = said(turn)
    {
        t.pos = t.pos + directions::along(Pos::new(step.x, 0, step.z), n);
        t.step = Some(step);
        t.steps = Some(n);
    }
    t
}

/// How far from the box's centre its side lies along a unit step.
fn extent_along(b: &BBox, step: Pos) -> i32 {
    let s = b.size();
    (step.x.abs() * s[0] + step.y.abs() * s[1] + step.z.abs() * s[2]) / 2
}

/// The spot on the ground just outside `b` nearest `from` where a body fits.
pub fn beside(world: &dyn World, b: BBox, from: Pos) -> Pos {
    let mut best: Option<(i64, Pos)> = None;
    for x in b.min.x - 1..=b.max.x + 1 {
        for z in b.min.z - 1..=b.max.z + 1 {
            let ring = x < b.min.x || x > b.max.x || z < b.min.z || z > b.max.z;
            if !ring {
                continue;
            }
            let p = Pos::new(x, ground(world, x, z, b.min.y), z);
            let fits = !world.block_at(p).is_solid() && !world.block_at(p.up(1)).is_solid() && p.y <= b.min.y + 1;
            let d = ((p.x - from.x) as i64).pow(2) + ((p.z - from.z) as i64).pow(2) + ((p.y - from.y) as i64).pow(2);
            if fits && best.is_none_or(|(bd, _)| d < bd) {
                best = Some((d, p));
            }
        }
    }
    best.map(|(_, p)| p).unwrap_or(Pos::new(b.min.x - 1, b.min.y, b.min.z - 1))
}

/// A spot on the floor inside `b` where a body fits, nearest its middle.
pub fn inside_spot(world: &dyn World, b: BBox) -> Option<Pos> {
    let c = reference::centre(&b).block();
    let mut spots: Vec<Pos> = Vec::new();
    for x in b.min.x + 1..b.max.x {
        for z in b.min.z + 1..b.max.z {
            for y in b.min.y..b.max.y {
                let p = Pos::new(x, y, z);
                if world.block_at(p.down(1)).is_solid() && !world.block_at(p).is_solid() && !world.block_at(p.up(1)).is_solid() {
                    spots.push(p);
                    break;
                }
            }
        }
    }
    spots.into_iter().min_by_key(|p| (p.x - c.x).abs() + (p.z - c.z).abs())
}

/// The y a thing stands on at column (x, z), searching around `y`: the first air above solid
/// ground. Falls back to `y` when the column is all air or all solid in the window.
pub fn ground(world: &dyn World, x: i32, z: i32, y: i32) -> i32 {
    for yy in (y - 16..=y + 8).rev() {
        let p = Pos::new(x, yy, z);
        if world.block_at(p).is_solid() && !world.block_at(p.up(1)).is_solid() {
            return yy + 1;
        }
    }
    y
}

/// A spot under `b` where a body fits, nearest its middle: two blocks of air with ground below
/// and the thing above them in the same column ("spawn a cow under the bridge"). `None` when
/// the thing stands on the ground everywhere, or leaves no room a mob stands in.
pub fn under_spot(world: &dyn World, b: BBox) -> Option<Pos> {
    let c = reference::centre(&b).block();
    let solid = |x: i32, y: i32, z: i32| world.block_at(Pos::new(x, y, z)).is_solid();
    let mut spots: Vec<Pos> = Vec::new();
    for x in b.min.x..=b.max.x {
        for z in b.min.z..=b.max.z {
            // The thing's lowest block in the column, then the air below it down to the ground.
            let Some(bottom) = (b.min.y..=b.max.y).find(|&y| solid(x, y, z)) else { continue };
            let Some(floor) = (bottom - 16..bottom).rev().take_while(|&y| !solid(x, y, z)).last() else { continue };
            if solid(x, floor - 1, z) && bottom - floor >= 2 {
                spots.push(Pos::new(x, floor, z));
            }
        }
    }
    spots.into_iter().min_by_key(|p| (p.x - c.x).abs() + (p.z - c.z).abs())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::world::embedded::EmbeddedWorld;
    use crate::world::{Actor, Block};

    #[test]
    fn under_a_deck_on_pillars_is_room_and_under_a_slab_on_the_ground_none() {
        let mut w = EmbeddedWorld::flat();
        let stone = Block::from_name("stone").unwrap();
        // A deck at y=8 over x 0..=4 on two pillars at its ends; the ground's top is y=4.
        for x in 0..=4 {
            w.set_block_by(Pos::new(x, 8, 0), stone, Actor::Agent);
        }
        for y in 5..8 {
            w.set_block_by(Pos::new(0, y, 0), stone, Actor::Agent);
            w.set_block_by(Pos::new(4, y, 0), stone, Actor::Agent);
        }
        let bridge = BBox::new(Pos::new(0, 5, 0), Pos::new(4, 8, 0));
        assert_eq!(under_spot(&w, bridge), Some(Pos::new(2, 5, 0)));
        // A slab lying on the grass has nothing under it.
        for x in 10..=12 {
            w.set_block_by(Pos::new(x, 5, 0), stone, Actor::Agent);
        }
        assert_eq!(under_spot(&w, BBox::new(Pos::new(10, 5, 0), Pos::new(12, 5, 0))), None);
        // A deck one block over the grass leaves no room to stand in.
        for x in 20..=22 {
            w.set_block_by(Pos::new(x, 6, 0), stone, Actor::Agent);
        }
        assert_eq!(under_spot(&w, BBox::new(Pos::new(20, 6, 0), Pos::new(22, 6, 0))), None);
    }
}
