//! BUILD and FREEBUILD: "build a red cube here", "make 3 towers", "build something". The shape
//! comes from the schematic's words ([`crate::interpreter::schematic`]), its place from the
//! location, moved clear of the speaker, the bot and the thing it is built beside.

use crate::interpreter::location::{self, Purpose, Target};
use crate::interpreter::recipe::{Making, Recipe};
use crate::memory::{Made, MemoryId};
use crate::interpreter::schematic::{ShapeAsk, shape_request};
use crate::logical_form::Action;
use crate::schematics::{self, Schematic, ShapeRequest};
use crate::tasks::{Build as BuildTask, Limits, Task, TaskError, TaskKind, Times};
use crate::world::{BBox, Block, Pos};

use super::{Plan, push};

mod placing;
pub(super) use placing::place;
use crate::interpreter::context::Turn;
use crate::interpreter::problem::{Problem, Result};

/// Copies of one build a single command may ask for.
pub const MAX_COPIES: i64 = 10;

/// Place these blocks, bottom up.
#[derive(Debug, Clone, PartialEq)]
pub struct Build {
    pub blocks: Vec<(Pos, Block)>,
    pub label: String,
    /// What the blocks make, in `copies` equal runs of `blocks` (one object each); `None` for
    /// a finish of `finishing`, or a build that makes no named thing.
    pub made: Option<Made>,
    pub copies: usize,
    /// The object this build finishes (a build cut off by a restart).
    pub finishing: Option<MemoryId>,
    /// The speaker's right when the build was turned to face them: its width runs this way.
    pub across: Option<Pos>,
}

impl Build {
    /// A build of one new thing (or `copies` of it) that memory names from `made`.
    pub fn making(blocks: Vec<(Pos, Block)>, label: impl Into<String>, made: Made, copies: usize) -> Build {
        Build { blocks, label: label.into(), made: Some(made), copies: copies.max(1), finishing: None, across: None }
    }
}

impl Recipe for Build {
    fn kind(&self) -> TaskKind {
        TaskKind::Build
    }
    fn task(&self, limits: &Limits, _: u32) -> std::result::Result<Box<dyn Task>, TaskError> {
        Ok(Box::new(BuildTask::new(self.blocks.clone(), self.label.clone(), limits)?))
    }
    fn doing(&self, label: &str, _: &str) -> String {
        format!("building {label}")
    }
    /// The measures of one of the things ("2 walls, 5 long and 2 high": each of them), and where
    /// the first stands.
    fn details(&self) -> Option<String> {
        let per = self.blocks.len().div_ceil(self.copies.max(1)).max(1);
        let one = self.blocks.chunks(per).next()?;
        let (first, _) = one.first()?;
        let bbox = one.iter().fold(BBox::new(*first, *first), |b, (p, _)| b.union(&BBox::new(*p, *p)));
        // One block has no measures worth saying: "a torch, at (1, 5, 0)".
        if bbox.size() == [1, 1, 1] {
            return Some(format!("at {}", bbox.min));
        }
        Some(format!("{}, at {}", size_phrase(&self.label, bbox, self.across), bbox.min))
    }
    fn makes(&self, speaker: &str) -> Vec<Making> {
        if let Some(id) = self.finishing {
            return vec![Making::Existing(id, self.blocks.clone())];
        }
        let Some(made) = &self.made else { return Vec::new() };
        let made = Made { speaker: speaker.to_string(), ..made.clone() };
        let per = self.blocks.len().div_ceil(self.copies.max(1)).max(1);
        self.blocks.chunks(per).map(|part| Making::New(made.clone(), part.to_vec())).collect()
    }
    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}

/// The plan that finishes building `object` (cut off by a restart): the cells of its plan that
/// are not right yet, built as that same object.
pub fn finishing(object: MemoryId, blocks: Vec<(Pos, Block)>, label: impl Into<String>) -> Plan {
    let label = label.into();
    push(Build { blocks, label: label.clone(), made: None, copies: 1, finishing: Some(object), across: None }, Times::Count(1), label)
}

/// What a shape request makes, as memory names it: the shape word in the singular ("cubes" →
/// "cube"), the colour and the material the player said.
pub fn made_of(req: &ShapeRequest) -> Made {
    // "a tower thing" is a tower: a generic word after a shape names nothing more.
    let lx = crate::lexicon::lexicon();
    let mut words: Vec<String> = req.name.split_whitespace().map(str::to_string).collect();
    if words.len() > 1 && words.last().is_some_and(|w| lx.is(crate::lexicon::Class::GenericThing, w)) {
        words.pop();
    }
    if let Some(last) = words.last_mut() {
        *last = lx.lemma(last);
    }
    Made { name: words.join(" "), colour: req.colour.clone(), block_type: req.block_type.clone(), speaker: String::new() }
}

/// A build's measures the way players say them: "20 long and 5 high" for walls and lines,
/// "4 by 4 by 4" for boxes, "7 wide, 9 long and 5 high" otherwise. Wide is across the speaker's
/// view when the build faces them (`across`: their right), else the shorter side.
pub fn size_phrase(label: &str, bbox: BBox, across: Option<Pos>) -> String {
    let [x, y, z] = bbox.size();
    let (long, wide) = (x.max(z), x.min(z));
    if x == y && y == z {
        return format!("{x} by {x} by {x}");
    }
    let lx = crate::lexicon::lexicon();
    let upright = label.split(' ').any(|l| lx.is(crate::lexicon::Class::Upright, l) || lx.is(crate::lexicon::Class::Upright, l.trim_end_matches('s')));
    if wide == 1 || upright {
        return match (long, y) {
            (l, 1) => format!("{l} long"),
            // A pillar is only as long as it is high.
            (1, h) => format!("{h} high"),
            (l, h) if wide == 1 => format!("{l} long and {h} high"),
            // A ring of fence or wall round a square: "10 by 10", not "10 long, 10 thick".
            (l, h) if wide == l => format!("{l} by {l} and {h} high"),
            (l, h) => format!("{l} long, {wide} thick and {h} high"),
        };
    }
    let (wide, long) = match across {
        // A bridge's deck runs across the view: its length is there.
        Some(_) if crate::schematics::length_runs_across(label) => (wide, long),
        Some(r) if r.x != 0 => (x, z),
        Some(_) => (z, x),
        None => (wide, long),
    };
    format!("{wide} wide, {long} long and {y} high")
}

/// Quarter turns that make a schematic face a speaker with `look`: its width across their view,
/// its length away from them, a door towards them (schematics face a player who looks south).
fn facing_turns(look: crate::world::Look) -> i32 {
    turns_to_face(crate::interpreter::directions::forward(look))
}

/// Quarter turns that make a schematic face a viewer looking along the unit step `f`.
fn turns_to_face(f: Pos) -> i32 {
    match (f.x, f.z) {
        (-1, _) => 1,
        (_, -1) => 2,
        (1, _) => 3,
        _ => 0,
    }
}

/// `sch` turned to face a viewer looking along `f`, and the way its width then runs.
fn face_along(sch: Schematic, f: Pos) -> (Schematic, Option<Pos>) {
    (sch.rotated(turns_to_face(f)), Some(Pos::new(-f.z, 0, f.x)))
}

/// Is a build's place said in the speaker's own frame: nowhere, "here", "there", "behind me",
/// "10 blocks north"? Then it faces them ("9 wide" runs across their view). Beside, between or
/// in the place of other things, it keeps the schematic's own turn.
fn in_speakers_frame(turn: &Turn, place: Option<&crate::logical_form::LocationArg>) -> bool {
    use crate::lexicon::{Class, lexicon};
    use crate::logical_form::{FixedReference, LocationArg, RelativeDirection};
    let Some(LocationArg::Location(l)) = place else { return place.is_none() };
    let speaker = l.reference_object.as_ref().is_none_or(|r| r.fixed_reference() == Some(FixedReference::Speaker));
    // "here", "there": the words of a coreference that points at a spot, not at a thing.
    let spot = l.text_span.is_none_or(|s| turn.words(s).iter().all(|w| lexicon().is(Class::Here, w) || lexicon().is(Class::There, w)));
    l.relative_direction != Some(RelativeDirection::Between) && speaker && (l.contains_coreference.is_none() || spot)
}

/// How a build is turned, and the way its width runs (`across`) when it faces someone: in the
/// speaker's frame it faces the speaker; said to one side of a thing ("a wall in front of the
/// tower", "a fence east of the house") it faces out from that side, so a wall runs along the
/// thing's face instead of poking out of it. Otherwise it keeps the schematic's own turn.
fn facing(turn: &Turn, place: Option<&crate::logical_form::LocationArg>, t: &Target, sch: Schematic) -> (Schematic, Option<Pos>) {
    // "facing me": across the speaker's line of sight to the spot, wherever the spot is.
    let to_spot = t.pos - turn.speaker_block();
    if turn.details().faces_speaker && (to_spot.x, to_spot.z) != (0, 0) {
        let s = if to_spot.x.abs() >= to_spot.z.abs() { Pos::new(to_spot.x.signum(), 0, 0) } else { Pos::new(0, 0, to_spot.z.signum()) };
        return face_along(sch, s);
    }
    if in_speakers_frame(turn, place) {
        // Said to one side of them ("8 blocks south of here", "to my left"), it faces them as
        // they turn to look at it: a wall runs across their view of it, not end-on.
        if let Some(s) = t.step.filter(|s| s.y == 0 && (s.x, s.z) != (0, 0)) {
            return face_along(sch, s);
        }
        let turns = facing_turns(turn.speaker_look);
        return (sch.rotated(turns), Some(crate::interpreter::directions::right(turn.speaker_look)));
    }
    // Between two things, it stands across the way from one to the other, as a fence between
    // them would.
    if let Some(a) = t.across.filter(|a| a.x == 0 || a.z == 0) {
        return face_along(sch, a);
    }
    // On top of a long thing ("a glass wall on top of it", on a wall): along its length.
    if let Some(b) = t.anchor.filter(|_| t.step.is_some_and(|s| s.y > 0)) {
        let (dx, dz) = (b.max.x - b.min.x, b.max.z - b.min.z);
        if dx != dz {
            let look = if dz > dx { Pos::new(1, 0, 0) } else { Pos::new(0, 0, 1) };
            return face_along(sch, look);
        }
    }
    match t.step.filter(|s| s.y == 0 && t.anchor.is_some() && !t.inside) {
        // Someone standing on that side looks back at the thing: along the step's opposite.
        Some(s) => {
            let look = Pos::new(-s.x, 0, -s.z);
            face_along(sch, look)
        }
        None => (sch, None),
    }
}

/// "build something": a small house of the bot's own choosing. "Make the tower taller" read
/// this way is a change to a thing already there, said plainly instead.
pub(super) fn free_build(turn: &mut Turn, a: &Action, times: Times, limits: &schematics::Limits) -> Result<Plan> {
    let thing = a.reference_object.as_ref().and_then(|r| r.as_object()).and_then(|r| r.text_span);
    if let Some(problem) = changes_a_thing(turn, thing) {
        return Err(problem);
    }
    let req = ShapeRequest::new("house").with_size_words(&["small"]);
    let sch = schematics::generate(&req, limits).map_err(|e| Problem::say(e.to_string()))?;
    let target = location::default_place(turn);
    let blocks = place(turn, &sch, &target);
    let label = "a little house of my own design";
    let made = Made { name: "house".into(), ..Made::default() };
    turn.allowed(blocks.iter().map(|(_, b)| b.name()))?;
    Ok(push(Build::making(blocks, label, made, 1), times, label))
}

/// The blocks of `copies` copies of the first one (`first`): in a row to the speaker's right
/// (`right`), one block apart (single blocks side by side); on top of a thing ("put 4 torches on it"), spread evenly over its
/// top, so that none hangs over the side, when they fit.
fn in_a_row(first: &[(Pos, Block)], copies: i32, sch: &Schematic, t: &Target, right: Pos) -> Vec<(Pos, Block)> {
    let across_x = right.x != 0;
    let size = if across_x { sch.size()[0] } else { sch.size()[2] };
    let at = |p: &Pos| if across_x { p.x } else { p.z };
    let shifted = |d: i32| first.iter().map(move |(p, b)| (if across_x { *p + Pos::new(d, 0, 0) } else { *p + Pos::new(0, 0, d) }, *b));
    let on_top = t.anchor.filter(|_| t.step.is_some_and(|s| s.y > 0));
    let start = first.iter().map(|(p, _)| at(p)).min().unwrap_or(0);
    if let Some(a) = on_top.filter(|a| copies * size <= if across_x { a.size()[0] } else { a.size()[2] }) {
        // Each copy centred on its share of the top.
        let (lo, hi) = if across_x { (a.min.x, a.max.x) } else { (a.min.z, a.max.z) };
        let along = hi + 1 - lo;
        let at_k = |k: i32| (lo + (2 * k + 1) * along / (2 * copies) - size / 2).clamp(lo, hi + 1 - size);
        return (0..copies).flat_map(|k| shifted(at_k(k) - start)).collect();
    }
    // Single blocks make one solid row ("4 gold blocks in a row"); bigger things keep a gap.
    let gap = if first.len() == 1 { 0 } else { 1 };
    let step = if across_x { right.x } else { right.z };
    (0..copies).flat_map(|k| shifted(step * (size + gap) * k)).collect()
}

/// How many of the thing to build: "build 3 towers" (an ordinal on the schematic, or a count
/// before the plural), or "build a tower 3 times" (a repeat, which becomes copies: N things
/// beside each other, never the same build N times over in one spot).
fn copies_asked(turn: &Turn, s: &crate::logical_form::Schematic, req: &ShapeRequest, times: &mut Times) -> Result<usize> {
    let copies = super::ordinal_count(turn, s.filters.as_ref()).or(req.count.map(i64::from)).unwrap_or(1);
    let copies = match *times {
        // The count may be read twice over ("two" as a count and as a repeat): once.
        Times::Count(n) if n > 1 && (copies == 1 || copies == i64::from(n)) => {
            *times = Times::Count(1);
            i64::from(n)
        }
        _ => copies,
    };
    if !(1..=MAX_COPIES).contains(&copies) {
        return Err(Problem::say(format!("I can build between 1 and {MAX_COPIES} copies at a time.")));
    }
    Ok(copies as usize)
}

/// A request for "one" that says no colour, material or measure of its own ("another one").
fn says_nothing_of_its_own(r: &ShapeRequest) -> bool {
    r.colour.is_none()
        && r.block_type.is_none()
        && r.size_words.is_empty()
        && r.size.is_none_or(|n| n == 1)
        && [r.radius, r.width, r.height, r.length, r.depth, r.thickness].iter().all(Option::is_none)
}

/// The shape of the thing an earlier step of the line made ("a red cube" → "cube").
fn earlier_shape(turn: &Turn) -> Option<String> {
    let a = turn.antecedent.as_ref()?;
    let named = a.object.and_then(|id| turn.memory.values_of(id, "has_name").ok()?.into_iter().find(|n| schematics::is_known_shape(n)));
    named.or_else(|| a.shape.clone())
}

fn label_of(req: &ShapeRequest) -> String {
    let mut words: Vec<String> = req.size_words.clone();
    // "gold" may be both the colour and the material: say it once ("a gold block").
    if let Some(c) = &req.colour
        && req.block_type.as_deref().is_none_or(|m| !m.split(' ').any(|w| w == c))
    {
        words.push(c.clone());
    }
    if let Some(m) = &req.block_type
        && !req.name.contains(m.as_str())
    {
        // "2 pumpkins" are two pumpkin blocks.
        let single = crate::lexicon::lexicon().singular(m).filter(|s| Block::from_name(&s.replace(' ', "_")).is_some());
        words.push(single.unwrap_or_else(|| m.clone()));
    }
    // "a diamond block", not "a diamond block block"; "a torch", not "a torch block".
    let lone = req.name == "block" && req.block_type.as_deref().is_some_and(schematics::is_lone_block);
    if !lone && !words.last().is_some_and(|w| w.ends_with(&req.name)) {
        words.push(req.name.clone());
    }
    let phrase = words.join(" ");
    let article = if phrase.starts_with(['a', 'e', 'i', 'o', 'u']) { "an" } else { "a" };
    format!("{article} {phrase}")
}

/// "2 green pillars" for two copies of "a green pillar" (the parser may already have left the
/// name plural: "a green pillars").
fn copies_label(copies: usize, label: &str) -> String {
    let bare = label.strip_prefix("a ").or_else(|| label.strip_prefix("an ")).unwrap_or(label);
    let plural = if bare.ends_with('s') { bare.to_string() } else { crate::interpreter::describe::plural(bare) };
    format!("{copies} {plural}")
}

/// "build it over here", "make another one" with no shape said in the line: a copy of the
/// thing last talked about, or a plain question when there is none.
fn again(turn: &mut Turn, a: &Action, times: Times) -> Result<Plan> {
    use crate::logical_form::{Coreference, Filters, ReferenceObject, ReferenceObjectArg};
    let it = ReferenceObject {
        filters: Some(Filters { contains_coreference: Some(Coreference::Yes), ..Filters::default() }),
        contains_coreference: Some(Coreference::Yes),
        ..ReferenceObject::default()
    };
    let copy = Action { schematic: None, reference_object: Some(ReferenceObjectArg::Object(Box::new(it))), ..a.clone() };
    super::copy::copy(turn, &copy, times).map_err(|_| {
        Problem::say("What should I build? I'm not sure which thing you mean; say it whole, like \"build a blue cube here\".")
    })
}

/// "make that tower taller": a change to a thing already there, which builds cannot do; said
/// plainly instead of building a second tower beside it.
fn changes_a_thing(turn: &Turn, span: Option<crate::logical_form::Span>) -> Option<Problem> {
    use crate::lexicon::{Class, Group, lexicon};
    let lx = lexicon();
    let span = span?;
    let said = turn.words(span);
    // "that tower", "the watchtower": one that is there, not "a" new one.
    let before = span.start.checked_sub(1).and_then(|i| turn.form_words().get(i));
    let definite = |w: &String| lx.is(Class::Pointing, w) || (lx.is(Class::Determiner, w) && !lx.is(Class::Indefinite, w));
    let pointed = said.first().is_some_and(definite) || before.is_some_and(definite);
    let comparative = turn.form_words().iter().find(|w| lx.meaning(Group::Superlative, w).is_some() && !said.contains(w))?;
    let the = if said.first().is_some_and(definite) { said.join(" ") } else { format!("the {}", said.join(" ")) };
    pointed.then(|| {
        Problem::say(format!(
            "I can't change something already built yet, so I can't make {the} {comparative}. I can build a new one beside it, or take it down and build it again."
        ))
    })
}

/// "make it 20 high" said on its own: new measures for the thing talked about, which builds
/// cannot give a thing already there; said plainly instead of building a new thing that size.
fn resizes(turn: &Turn) -> Problem {
    let words = turn.form_words();
    let measures = words.get(2..).unwrap_or_default().join(" ");
    // The thing of the step before, else the one talked about last.
    let kinds = [crate::memory::MemoryKind::BlockObject, crate::memory::MemoryKind::Hole];
    let id = turn.antecedent.as_ref().and_then(|a| a.object).or_else(|| turn.memory.last_attended(&kinds).ok().flatten());
    let thing = id.map(|id| crate::interpreter::describe::the_for(turn.memory, id, words));
    Problem::say(match thing {
        Some(the) => {
            let a = the.strip_prefix("the ").map_or_else(|| the.clone(), |t| crate::lexicon::lexicon().counted(1, t));
            format!("I can't change something already built yet, so I can't make {the} {measures}. Say \"undo\" and then \"build {a} {measures}\", or I can build a new one beside it.")
        }
        None => format!("What should I make {measures}? Say it whole, like \"build a tower {measures}\"."),
    })
}

pub(super) fn build(turn: &mut Turn, a: &Action, mut times: Times, limits: &schematics::Limits) -> Result<Plan> {
    if let Some(problem) = a.schematic.as_ref().and_then(|s| changes_a_thing(turn, s.text_span)) {
        return Err(problem);
    }
    if turn.details().resizes {
        return Err(resizes(turn));
    }
    let (sch, label, copies) = if let Some(s) = &a.schematic {
        let req = match shape_request(s, turn.form_words()) {
            // "… and then a blue one beside it": the shape of what the step before made.
            ShapeAsk::Shape(mut r) if crate::lexicon::lexicon().is(crate::lexicon::Class::GenericThing, &r.name) => {
                // "another one", "one more": nothing of its own said, so the same thing again,
                // colour and size included.
                let Some(shape) = earlier_shape(turn).filter(|_| !says_nothing_of_its_own(&r)) else {
                    // "build it over here", "make another one": a copy of the thing talked about.
                    return again(turn, a, times);
                };
                r.name = shape;
                // "a blue one": the parser often reads "one" as a size of 1 as well.
                if r.size == Some(1) {
                    r.size = None;
                }
                r
            }
            ShapeAsk::Shape(r) => r,
            ShapeAsk::Unspecified => match a.reference_object.as_ref().and_then(|r| r.as_object()) {
                Some(_) => return super::copy::copy(turn, a, times),
                None => return Err(Problem::say("What should I build?")),
            },
        };
        let sch = schematics::generate(&req, limits).map_err(|e| Problem::say(e.to_string()))?;
        // A house or hut is as high as it was told to its eaves; the roof goes on top.
        if let Some(said) = req.height.filter(|&h| sch.size()[1] > h) {
            turn.notes.push(format!("(Its walls are {said} high; with the roof on top it is {}.)", sch.size()[1]));
        }
        let copies = copies_asked(turn, s, &req, &mut times)?;
        (sch, (label_of(&req), made_of(&req)), copies)
    } else if a.reference_object.is_some() {
        return super::copy::copy(turn, a, times);
    } else if a.location.is_some() && turn.antecedent.as_ref().is_some_and(|x| x.object.is_some()) {
        // "put blue glass at 1 7 0 and 3 7 0": the same thing again at the second place.
        return again(turn, a, times);
    } else {
        return Err(Problem::say("What should I build?"));
    };
    let target = location::place_or_default(turn, a.location.as_ref(), Purpose::Place)?;
    let (sch, across) = facing(turn, a.location.as_ref(), &target, sch);
    let noted = turn.notes.len();
    let mut blocks = place(turn, &sch, &target);
    // With no place said, there was no spot the player meant: nothing to explain.
    if a.location.is_none() {
        turn.notes.truncate(noted);
    }
    if copies > 1 {
        blocks = in_a_row(&blocks, copies as i32, &sch, &target, crate::interpreter::directions::right(turn.speaker_look));
    }
    if blocks.len() > limits.max_blocks {
        return Err(Problem::say(format!("That's {} blocks; I build at most {} at a time.", blocks.len(), limits.max_blocks)));
    }
    if let Some((first, _)) = blocks.first() {
        let bbox = blocks.iter().fold(BBox::new(*first, *first), |b, (p, _)| b.union(&BBox::new(*p, *p)));
        // Keep a block's gap: two builds of one command should not touch.
        turn.planned.push(BBox::new(bbox.min - Pos::new(1, 0, 1), bbox.max + Pos::new(1, 0, 1)));
    }
    let (label, made) = label;
    let label = if copies > 1 { copies_label(copies, &label) } else { label };
    turn.allowed(blocks.iter().map(|(_, b)| b.name()))?;
    Ok(push(Build { across, ..Build::making(blocks, label.clone(), made, copies) }, times, label))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::memory::Memory;
    use crate::world::embedded::EmbeddedWorld;
    use crate::world::{Actor, Look, Vec3};

    #[test]
    fn near_a_pillar_is_beside_it_not_on_top() {
        let mut w = EmbeddedWorld::flat();
        let pillar = BBox::new(Pos::new(-8, 5, 10), Pos::new(-8, 10, 10));
        w.fill_by(pillar, Block::from_name("blue_wool").unwrap(), Actor::World);
        w.add_player("alice", Vec3::new(0.5, 5.0, 0.5), Look::new(0.0, 0.0));
        let mut memory = Memory::in_memory().unwrap();
        let mut turn = Turn::new("alice", crate::understanding::step::form("build a cube near the pillar"), &w, &mut memory);
        let cube = Schematic::new("cube", BBox::new(Pos::new(0, 0, 0), Pos::new(2, 2, 2)).iter().map(|p| (p, Block::from_name("red_wool").unwrap())));
        let target = Target { anchor: Some(pillar), near: true, ..Target::at(Pos::new(-8, 11, 10)) };
        let blocks = place(&mut turn, &cube, &target);
        assert!(blocks.iter().all(|(p, _)| p.y >= 5 && p.y <= 7), "on the ground, not on the pillar: {blocks:?}");
        assert!(blocks.iter().all(|(p, _)| !(p.x == -8 && p.z == 10)), "clear of the pillar's column");
    }

    #[test]
    fn a_new_build_keeps_clear_of_one_still_going_up() {
        let mut w = EmbeddedWorld::flat();
        w.add_player("alice", Vec3::new(0.5, 5.0, 0.5), Look::new(0.0, 0.0));
        let mut memory = Memory::in_memory().unwrap();
        // A red cube is planned at x 4..6 but only its first block is up.
        let red = Block::from_name("red_wool").unwrap();
        let plan: Vec<(Pos, Block)> = BBox::new(Pos::new(4, 5, 4), Pos::new(6, 7, 6)).iter().map(|p| (p, red)).collect();
        let made = crate::memory::Made { name: "cube".into(), colour: Some("red".into()), block_type: None, speaker: "alice".into() };
        memory.reserve_build(&made, &plan).unwrap();
        w.set_block_by(Pos::new(4, 5, 4), red, Actor::Agent);
        let mut turn = Turn::new("alice", crate::understanding::step::form("build a blue cube there"), &w, &mut memory);
        let cube = Schematic::new("cube", BBox::new(Pos::new(0, 0, 0), Pos::new(2, 2, 2)).iter().map(|p| (p, Block::from_name("blue_wool").unwrap())));
        let target = Target::at(Pos::new(6, 5, 6));
        let blocks = place(&mut turn, &cube, &target);
        // Moved off the spot by 3 or more blocks: the player hears where and why.
        assert!(turn.notes.iter().all(|n| n.contains("I'm building something else there")), "{:?}", turn.notes);
        let overlap: Vec<_> = blocks.iter().filter(|(p, _)| plan.iter().any(|(q, _)| q == p)).collect();
        assert!(overlap.is_empty(), "the blue cube cuts into the red one's plan: {overlap:?}");
    }
}
