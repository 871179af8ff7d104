//! Commands: each action of a `HUMAN_GIVE_COMMAND` becomes a [`Plan`] — a task recipe to push
//! (once, N times, forever or until something holds), a stack operation (stop, resume, undo), a
//! reply, or a yes/no question first when the request is destructive or large.

use super::context::Turn;
use super::describe;
use super::location::{self, Purpose, Target};
use super::problem::{Problem, Result};
use super::recipe::{DanceSpec, Recipe};
use super::reference::{self, Referent, Want};
use super::schematic::{ShapeAsk, shape_request};
use crate::logical_form::{
    Action, ActionType, Angle, ConditionType, LocationArg, LogicalForm, Predicate, RemoveCondition, Span,
};
use crate::memory::MemoryKind;
use crate::schematics::numbers::read_number;
use crate::schematics::{self, Schematic, ShapeRequest, chosen_block};
use crate::tasks::{Condition, DigSize, TaskKind, Times, Turn as TurnBy};
use crate::world::embedded::{ITEM_KINDS, MOB_KINDS};
use crate::world::{BBox, Block, Pos};

/// Destroying more than this many blocks (or more than one thing) asks first.
pub const CONFIRM_BLOCKS: usize = 300;
/// Copies of one build a single command may ask for.
pub const MAX_COPIES: i64 = 10;

#[derive(Debug)]
pub enum Plan {
    /// Push a task made from the recipe, repeated as `times` says.
    Push { recipe: Recipe, times: Times, label: String },
    Stop,
    Resume,
    /// Undo the last task (of this kind, if given).
    Undo(Option<TaskKind>),
    Say(String),
    /// Ask yes/no; on yes, carry out `plans`.
    Confirm { question: String, plans: Vec<Plan> },
}

/// Every action of a command, in order.
pub fn command(turn: &mut Turn, lf: &LogicalForm, limits: &schematics::Limits) -> Result<Vec<Plan>> {
    let mut plans = Vec::new();
    for action in lf.actions() {
        let cond = action.remove_condition.as_ref().or(lf.remove_condition.as_ref());
        plans.push(action_plan(turn, action, cond, limits)?);
    }
    if plans.is_empty() {
        return Err(Problem::say("What would you like me to do?"));
    }
    Ok(plans)
}

fn number(words: &[String]) -> Option<i64> {
    (0..words.len()).find_map(|i| read_number(words, i)).map(|(v, _)| v)
}

fn span_number(turn: &Turn, span: Option<Span>) -> Option<i64> {
    number(&turn.words(span?))
}

/// A block a player names in a condition ("until you hit stone", "until you reach water").
fn terrain_block(words: &[String]) -> Option<Block> {
    let joined = words.join("_");
    let singular = joined.trim_end_matches('s');
    for candidate in [joined.as_str(), singular] {
        let mapped = match candidate {
            "rock" | "rocks" | "stone" | "cobble" => "stone",
            "grass" => "grass_block",
            "lava" | "magma" => "lava",
            "ocean" | "sea" | "river" | "lake" => "water",
            other => other,
        };
        if let Some(b) = Block::from_name(mapped) {
            return Some(b);
        }
    }
    words.iter().rev().find_map(|w| terrain_block(std::slice::from_ref(w)).filter(|_| words.len() > 1))
}

/// How long a command goes on: once, N times, forever, or until a block is next to it.
fn times_of(turn: &Turn, cond: Option<&RemoveCondition>) -> Result<Times> {
    let Some(c) = cond else { return Ok(Times::Count(1)) };
    match c.condition_type {
        Some(ConditionType::Never) => Ok(Times::Forever),
        Some(ConditionType::AdjacentToBlockType) => {
            let words = c.block_type.map(|s| turn.words(s)).unwrap_or_default();
            terrain_block(&words)
                .map(|b| Times::Until(Condition::AdjacentToBlockType(b)))
                .ok_or_else(|| Problem::say(format!("I don't know a block called \"{}\".", words.join(" "))))
        }
        _ => {
            // Comparators in the data count runs ("3 times"); a bare condition span is read for
            // a count or a block.
            let value = c.condition.as_ref().and_then(|cmp| cmp.input_right.value).and_then(|s| span_number(turn, Some(s)));
            let words = c.condition_span.map(|s| turn.words(s)).unwrap_or_default();
            match value.or_else(|| number(&words)) {
                Some(n) if n >= 1 => Ok(Times::Count(n.min(1000) as u32)),
                Some(_) => Err(Problem::say("That's not a number of times I can do something.")),
                None => Ok(terrain_block(&words).map(|b| Times::Until(Condition::AdjacentToBlockType(b))).unwrap_or(Times::Count(1))),
            }
        }
    }
}

fn push(recipe: Recipe, times: Times, label: impl Into<String>) -> Plan {
    Plan::Push { recipe, times, label: label.into() }
}

fn action_plan(turn: &mut Turn, a: &Action, cond: Option<&RemoveCondition>, limits: &schematics::Limits) -> Result<Plan> {
    let times = times_of(turn, cond)?;
    match a.action_type {
        ActionType::Move => movement(turn, a, times),
        ActionType::Build => build(turn, a, times, limits),
        ActionType::FreeBuild => {
            let req = ShapeRequest::new("house").with_size_words(&["small"]);
            let sch = schematics::generate(&req, limits).map_err(|e| Problem::say(e.to_string()))?;
            let target = location::default_place(turn);
            let blocks = place(turn, &sch, &target);
            Ok(push(Recipe::Build { blocks, label: "a little house of my own design".into() }, times, "a little house of my own design"))
        }
        ActionType::Destroy => destroy(turn, a, times),
        ActionType::Dig => dig(turn, a, times),
        ActionType::Fill => fill(turn, a, times),
        ActionType::Spawn => spawn(turn, a, times),
        ActionType::Dance => dance(turn, a, times),
        ActionType::Get => get(turn, a),
        ActionType::Undo => Ok(Plan::Undo(target_kind(turn, a.target_action_type))),
        ActionType::Stop => Ok(Plan::Stop),
        ActionType::Resume => Ok(Plan::Resume),
        _ => Err(Problem::say("I don't know how to do that yet.")),
    }
}

/// "undo the build" → Build; "undo that" → the last task of any kind.
fn target_kind(turn: &Turn, span: Option<Span>) -> Option<TaskKind> {
    let words = turn.words(span?);
    words.iter().find_map(|w| match w.as_str() {
        s if s.starts_with("build") || s.starts_with("buil") || s == "made" || s == "make" => Some(TaskKind::Build),
        s if s.starts_with("destr") || s.starts_with("break") || s.starts_with("demol") => Some(TaskKind::Destroy),
        s if s.starts_with("dig") || s.starts_with("dug") || s == "hole" => Some(TaskKind::Dig),
        s if s.starts_with("fill") => Some(TaskKind::Fill),
        s if s.starts_with("spawn") => Some(TaskKind::Spawn),
        _ => None,
    })
}

fn movement(turn: &mut Turn, a: &Action, times: Times) -> Result<Plan> {
    let loc = a.location.clone().or_else(|| {
        // One odd annotation puts the direction on the action itself ("move north five steps").
        a.relative_direction.map(|d| {
            LocationArg::Location(Box::new(crate::logical_form::Location { relative_direction: Some(d), steps: a.steps, ..Default::default() }))
        })
    });
    let Some(loc) = loc else { return Err(Problem::say("Where should I go?")) };
    // "follow me" / "follow alice": a move to a player that never ends.
    if matches!(times, Times::Forever)
        && let Some(r) = loc.as_location().and_then(|l| l.reference_object.as_deref())
    {
        if let Ok(Referent::Memory { id, kind: MemoryKind::Player, .. }) = reference::resolve_one(turn, r, Want::Anything) {
            let name = describe::noun(turn.memory, id);
            return Ok(push(Recipe::Follow(name.clone()), Times::Count(1), format!("following {name}")));
        }
        if r.fixed_reference() == Some(crate::logical_form::FixedReference::Speaker) {
            let name = turn.speaker.clone();
            return Ok(push(Recipe::Follow(name.clone()), Times::Count(1), format!("following {name}")));
        }
    }
    let speaker_ref = loc.as_location().is_some_and(|l| {
        l.relative_direction.is_none()
            && (l.reference_object.as_ref().is_some_and(|r| r.fixed_reference() == Some(crate::logical_form::FixedReference::Speaker))
                || (l.reference_object.is_none() && l.contains_coreference.is_some() && turn.has_word("here")))
    });
    if speaker_ref {
        return Ok(push(Recipe::ComeHere(turn.speaker_block()), times, "coming to you"));
    }
    let t = location::resolve(turn, &loc, Purpose::Move)?;
    let pos = Pos::new(t.pos.x, location::ground(turn.world, t.pos.x, t.pos.z, t.pos.y), t.pos.z);
    // To a thing: anywhere beside it will do.
    let tolerance = match (t.near, t.anchor, t.step) {
        (_, Some(b), None) => b.size()[0].max(b.size()[2]) / 2 + 2,
        (true, _, _) => 2,
        // "walk 4 steps forward": a counted walk ends exactly that many steps away.
        (false, None, Some(_)) if t.steps.is_some() => 0,
        _ => 1,
    };
    Ok(push(Recipe::MoveTo { pos, tolerance, label: String::new() }, times, format!("going to {pos}")))
}

/// Where a schematic goes for a target: its footprint centred on the spot, standing on the
/// ground, moved clear of the thing it is placed beside and of the speaker and agent.
fn place(turn: &Turn, sch: &Schematic, t: &Target) -> Vec<(Pos, Block)> {
    let size = sch.size();
    let mut centre = t.pos;
    let footprint = |c: Pos, y: i32| {
        let min = Pos::new(c.x - size[0] / 2, y, c.z - size[2] / 2);
        BBox::new(min, min + Pos::new(size[0] - 1, size[1] - 1, size[2] - 1))
    };
    let ground = |c: Pos| location::ground(turn.world, c.x, c.z, c.y);
    // Step along the direction (or away from the speaker) until nothing is in the way.
    let away = t.step.filter(|s| s.y == 0).unwrap_or_else(|| {
        let f = super::directions::forward(turn.speaker_look);
        Pos::new(f.x, 0, f.z)
    });
    let vertical = t.step.is_some_and(|s| s.y != 0);
    for _ in 0..64 {
        let y = if vertical { centre.y } else { ground(centre) };
        let b = footprint(centre, y);
        let bodies = [turn.speaker_block(), turn.agent_pos()];
        let blocked = bodies.iter().any(|p| b.contains(*p) || b.contains(p.up(1)))
            || t.anchor.is_some_and(|a| {
                // Beside a thing means beside it: standing on its top (the ground under a
                // pillar is its top) overlaps it too, unless the direction was up or down.
                let xz = a.min.x <= b.max.x && b.min.x <= a.max.x && a.min.z <= b.max.z && b.min.z <= a.max.z;
                xz && (!vertical || (a.min.y <= b.max.y && b.min.y <= a.max.y))
            });
        if !blocked {
            return sch.translated(b.min);
        }
        centre = centre + away;
    }
    let y = ground(centre);
    sch.translated(footprint(centre, y).min)
}

fn label_of(req: &ShapeRequest) -> String {
    let mut words: Vec<String> = req.size_words.clone();
    if let Some(c) = &req.colour {
        words.push(c.clone());
    }
    if let Some(m) = &req.block_type
        && !req.name.contains(m.as_str())
    {
        words.push(m.clone());
    }
    words.push(req.name.clone());
    let phrase = words.join(" ");
    let article = if phrase.starts_with(['a', 'e', 'i', 'o', 'u']) { "an" } else { "a" };
    format!("{article} {phrase}")
}

fn build(turn: &mut Turn, a: &Action, times: Times, limits: &schematics::Limits) -> Result<Plan> {
    let (sch, label, copies) = if let Some(s) = &a.schematic {
        let req = match shape_request(s, &turn.tokens) {
            ShapeAsk::Shape(r) => r,
            ShapeAsk::Unspecified => match a.reference_object.as_ref().and_then(|r| r.as_object()) {
                Some(_) => return copy(turn, a, times),
                None => return Err(Problem::say("What should I build?")),
            },
        };
        let sch = schematics::generate(&req, limits).map_err(|e| Problem::say(e.to_string()))?;
        // "build 3 towers": an ordinal on the schematic asks for copies.
        let copies = s
            .filters
            .as_ref()
            .and_then(|f| f.selector.as_ref())
            .and_then(|sel| sel.as_selector())
            .and_then(|sel| match &sel.ordinal {
                Some(crate::logical_form::Ordinal::Span(sp)) => span_number(turn, Some(*sp)),
                _ => None,
            })
            .unwrap_or(1);
        if !(1..=MAX_COPIES).contains(&copies) {
            return Err(Problem::say(format!("I can build between 1 and {MAX_COPIES} copies at a time.")));
        }
        (sch, label_of(&req), copies as usize)
    } else if a.reference_object.is_some() {
        return copy(turn, a, times);
    } else {
        return Err(Problem::say("What should I build?"));
    };
    let target = match &a.location {
        Some(l) => location::resolve(turn, l, Purpose::Place)?,
        None => location::default_place(turn),
    };
    let mut blocks = place(turn, &sch, &target);
    if copies > 1 {
        // Copies stand in a row to the speaker's right, one block apart.
        let r = super::directions::right(turn.speaker_look);
        let gap = if r.x != 0 { sch.size()[0] + 1 } else { sch.size()[2] + 1 };
        let first = blocks.clone();
        for k in 1..copies as i32 {
            blocks.extend(first.iter().map(|(p, b)| (*p + Pos::new(r.x * gap * k, 0, r.z * gap * k), *b)));
        }
    }
    if blocks.len() > limits.max_blocks {
        return Err(Problem::say(format!("That's {} blocks; I build at most {} at a time.", blocks.len(), limits.max_blocks)));
    }
    let label = if copies > 1 { format!("{copies} × {label}") } else { label };
    Ok(push(Recipe::Build { blocks, label: label.clone() }, times, label))
}

/// "copy that", "build another one like the tower": a Build of an existing object's blocks.
fn copy(turn: &mut Turn, a: &Action, times: Times) -> Result<Plan> {
    let r = a.reference_object.as_ref().and_then(|r| r.as_object()).ok_or_else(|| Problem::say("What should I copy?"))?;
    let found = reference::resolve_one(turn, r, Want::Blocks)?;
    let id = found.id().ok_or_else(|| Problem::say("I can only copy things that were built."))?;
    let obj = turn.memory.block_object(id)?.ok_or_else(|| Problem::say("I can't find the blocks of that."))?;
    let sch = Schematic::new(format!("copy of {}", describe::noun(turn.memory, id)), obj.blocks.clone());
    let target = match &a.location {
        Some(l) => location::resolve(turn, l, Purpose::Place)?,
        None => {
            // Beside the original, on the speaker's right.
            let r = super::directions::right(turn.speaker_look);
            let s = obj.bbox.size();
            let shift = if r.x != 0 { s[0] + 2 } else { s[2] + 2 };
            let c = super::reference::centre(&obj.bbox).block();
            Target { pos: c + Pos::new(r.x * shift, 0, r.z * shift), anchor: Some(obj.bbox), step: Some(r), steps: None, near: false }
        }
    };
    let blocks = place(turn, &sch, &target);
    let label = format!("a copy of {}", describe::the(turn.memory, id));
    Ok(push(Recipe::Build { blocks, label: label.clone() }, times, label))
}

fn destroy(turn: &mut Turn, a: &Action, times: Times) -> Result<Plan> {
    let r = a.reference_object.as_ref().and_then(|r| r.as_object()).ok_or_else(|| Problem::say("What should I destroy?"))?;
    let found = reference::resolve(turn, r, Want::Blocks)?;
    let mut positions = Vec::new();
    let mut names = Vec::new();
    for f in &found {
        let Some(id) = f.id() else {
            return Err(Problem::say("That's the ground itself; I only take down things that were built."));
        };
        if let Some(obj) = turn.memory.block_object(id)? {
            positions.extend(obj.blocks.iter().map(|(p, _)| *p));
            names.push(describe::the(turn.memory, id));
        }
    }
    if positions.is_empty() {
        return Err(Problem::say("There is nothing there for me to destroy."));
    }
    let label = if names.len() == 1 { names[0].clone() } else { format!("{} things", names.len()) };
    let plan = push(Recipe::Destroy { positions: positions.clone(), label: label.clone() }, times, format!("destroying {label}"));
    if found.len() > 1 || positions.len() > CONFIRM_BLOCKS {
        let what = if found.len() > 1 { format!("{} things ({} blocks)", found.len(), positions.len()) } else { format!("{label} ({} blocks)", positions.len()) };
        return Ok(Plan::Confirm { question: format!("That would destroy {what}. Are you sure? (yes/no)"), plans: vec![plan] });
    }
    Ok(plan)
}

/// Hole sizes from a dig's schematic: "a 3 by 3 hole", "a deep hole", "5 blocks deep".
fn dig_size(turn: &Turn, a: &Action) -> DigSize {
    let mut size = DigSize::default();
    let Some(s) = &a.schematic else { return size };
    let triples = s.filters.as_ref().map(|f| f.triples()).unwrap_or_default();
    for t in triples {
        let words = t.obj_span().map(|sp| turn.words(sp)).unwrap_or_default();
        let n = number(&words).map(|v| v.clamp(1, 64) as i32);
        match t.pred_text {
            Predicate::HasWidth => size.width = n.unwrap_or(size.width),
            Predicate::HasLength => size.length = n.unwrap_or(size.length),
            Predicate::HasDepth | Predicate::HasHeight => size.depth = n.unwrap_or(size.depth),
            Predicate::HasSize => {
                if let Some(n) = n {
                    size = DigSize::new(n, n, n);
                } else if words.iter().any(|w| matches!(w.as_str(), "big" | "large" | "huge" | "giant")) {
                    size = DigSize::new(4, 4, 4);
                } else if words.iter().any(|w| matches!(w.as_str(), "small" | "little" | "tiny")) {
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
        if let (Some(w), Some(l)) = (d.width, d.length.or(d.depth)) {
            size.width = w.clamp(1, 64);
            size.length = l.clamp(1, 64);
            if let Some(h) = d.height {
                size.depth = h.clamp(1, 64);
            }
        }
    }
    size
}

fn dig(turn: &mut Turn, a: &Action, times: Times) -> Result<Plan> {
    let size = dig_size(turn, a);
    let t = match &a.location {
        Some(l) => location::resolve(turn, l, Purpose::Place)?,
        None => location::default_place(turn),
    };
    // The hole's top layer is the ground surface at that spot.
    let top = Pos::new(t.pos.x, location::ground(turn.world, t.pos.x, t.pos.z, t.pos.y) - 1, t.pos.z);
    let label = format!("a {}×{}×{} hole", size.width, size.length, size.depth);
    Ok(push(Recipe::Dig { top, size }, times, label))
}

fn fill(turn: &mut Turn, a: &Action, times: Times) -> Result<Plan> {
    let r = a.reference_object.as_ref().and_then(|r| r.as_object()).ok_or_else(|| Problem::say("What should I fill?"))?;
    let found = reference::resolve_one(turn, r, Want::Holes)?;
    let id = found.id().ok_or_else(|| Problem::say("I don't see a hole there."))?;
    let hole = turn.memory.block_object(id)?.ok_or_else(|| Problem::say("I don't see a hole there."))?;
    // A named material, else what was dug out (mostly).
    let named = a.schematic.as_ref().and_then(|s| s.filters.as_ref()).map(|f| {
        let word = |p: Predicate| f.triples().into_iter().find(|t| t.pred_text == p).and_then(|t| t.obj_span()).map(|s| turn.text_of(s));
        (word(Predicate::HasColour), word(Predicate::HasBlockType))
    });
    let block = match named {
        Some((c, m)) if c.is_some() || m.is_some() => chosen_block(c.as_deref(), m.as_deref()).map_err(|e| Problem::say(e.to_string()))?,
        _ => None,
    };
    let block = block.unwrap_or_else(|| {
        let mut counts: Vec<(Block, usize)> = Vec::new();
        for (_, b) in &hole.blocks {
            match counts.iter_mut().find(|(x, _)| x == b) {
                Some((_, n)) => *n += 1,
                None => counts.push((*b, 1)),
            }
        }
        counts.into_iter().filter(|(b, _)| b.is_solid()).max_by_key(|(_, n)| *n).map(|(b, _)| b).unwrap_or_else(|| Block::from_name("dirt").unwrap_or(Block::AIR))
    });
    let positions: Vec<Pos> = hole.blocks.iter().map(|(p, _)| *p).collect();
    Ok(push(Recipe::Fill { positions, block }, times, format!("filling the hole with {block}")))
}

/// A mob id from words: "pigs" → pig, "a horse" → horse, "cows" → cow.
fn mob_kind(words: &[String]) -> Option<String> {
    let joined = words.join("_");
    let candidates = [joined.clone(), joined.trim_end_matches('s').to_string(), joined.trim_end_matches("es").to_string()];
    if let Some(k) = candidates.iter().find(|c| MOB_KINDS.contains(&c.as_str())) {
        return Some(k.clone());
    }
    // The last word carries the noun: "a fluffy sheep".
    let last = words.last()?;
    [last.clone(), last.trim_end_matches('s').to_string()].into_iter().find(|c| MOB_KINDS.contains(&c.as_str()))
}

fn spawn(turn: &mut Turn, a: &Action, times: Times) -> Result<Plan> {
    let r = a.reference_object.as_ref().and_then(|r| r.as_object()).ok_or_else(|| Problem::say("What should I spawn?"))?;
    let name_words: Vec<String> = r
        .filters
        .iter()
        .flat_map(|f| f.triples())
        .filter(|t| t.pred_text == Predicate::HasName)
        .filter_map(|t| t.obj_span())
        .flat_map(|s| turn.words(s))
        .collect();
    let words = if name_words.is_empty() { r.text_span.map(|s| turn.words(s)).unwrap_or_default() } else { name_words };
    let Some(mob) = mob_kind(&words) else {
        return Err(Problem::say(format!("I don't know how to spawn \"{}\".", words.join(" "))));
    };
    let count = r
        .filters
        .as_ref()
        .and_then(|f| f.selector.as_ref())
        .and_then(|s| s.as_selector())
        .and_then(|s| match &s.ordinal {
            Some(crate::logical_form::Ordinal::Span(sp)) => span_number(turn, Some(*sp)),
            _ => None,
        })
        .or_else(|| r.text_span.and_then(|s| span_number(turn, Some(s))))
        .unwrap_or(1)
        .clamp(1, 20) as u32;
    let t = match &a.location {
        Some(l) => location::resolve(turn, l, Purpose::Place)?,
        None => location::default_place(turn),
    };
    let at = Pos::new(t.pos.x, location::ground(turn.world, t.pos.x, t.pos.z, t.pos.y), t.pos.z);
    let label = if count == 1 { format!("a {mob}") } else { format!("{count} {mob}s") };
    Ok(push(Recipe::Spawn { mob, at, count }, times, format!("spawning {label}")))
}

fn angle(turn: &Turn, a: &Angle) -> Option<f32> {
    match a {
        Angle::Span(s) => span_number(turn, Some(*s)).map(|v| v as f32),
        Angle::Literal(l) => l.text().and_then(|t| t.parse::<f32>().ok()),
    }
}

/// Minecraft's yaw for a compass heading: south 0, west 90, north 180, east −90.
fn compass_yaw(word: &str) -> Option<f32> {
    match word {
        "south" | "southward" | "southwards" => Some(0.0),
        "west" | "westward" | "westwards" => Some(90.0),
        "north" | "northward" | "northwards" => Some(180.0),
        "east" | "eastward" | "eastwards" => Some(-90.0),
        _ => None,
    }
}

fn dance(turn: &mut Turn, a: &Action, times: Times) -> Result<Plan> {
    let Some(d) = &a.dance_type else {
        return Ok(push(Recipe::Dance(DanceSpec::Named { name: "dance".into(), around: None }), times, "dancing"));
    };
    let left = turn.has_word("left") || turn.has_word("anticlockwise") || turn.has_word("counterclockwise");
    for (turn_spec, head) in [(&d.look_turn, true), (&d.body_turn, false)] {
        let Some(t) = turn_spec else { continue };
        if let Some(l) = &t.location {
            let target = location::resolve(turn, &LocationArg::Location(l.clone()), Purpose::Place)?;
            let p = target.pos.center();
            return Ok(push(Recipe::Dance(DanceSpec::LookAt(p)), times, "looking"));
        }
        // "face north": the annotations write compass faces as relative yaws ("0", "90"), which
        // would turn by that much from wherever the bot faces; a compass word is a heading.
        let compass = turn.tokens.iter().find_map(|w| compass_yaw(w));
        let by = if let (Some(yaw), None) = (compass, t.yaw) {
            TurnBy::Absolute { yaw: Some(yaw), pitch: None }
        } else if let Some(y) = &t.relative_yaw {
            let deg = angle(turn, y).unwrap_or(90.0);
            // Positive yaw turns right; "left" flips the sign unless the number already did.
            let deg = if left && deg > 0.0 { -deg } else { deg };
            let pitch = t.relative_pitch.as_ref().and_then(|p| angle(turn, p)).unwrap_or(0.0);
            TurnBy::Relative { yaw: deg, pitch: if turn.has_word("up") { -pitch.abs() } else { pitch } }
        } else if let Some(p) = &t.relative_pitch {
            let deg = angle(turn, p).unwrap_or(45.0).abs();
            TurnBy::Relative { yaw: 0.0, pitch: if turn.has_word("up") { -deg } else { deg } }
        } else if let Some(y) = t.yaw {
            TurnBy::Absolute { yaw: span_number(turn, Some(y)).map(|v| v as f32), pitch: None }
        } else if let Some(p) = t.pitch {
            TurnBy::Absolute { yaw: None, pitch: span_number(turn, Some(p)).map(|v| v as f32) }
        } else {
            TurnBy::Relative { yaw: if left { -90.0 } else { 90.0 }, pitch: 0.0 }
        };
        let spec = if head { DanceSpec::Head(by) } else { DanceSpec::Body(by) };
        return Ok(push(Recipe::Dance(spec), times, "turning"));
    }
    if let Some(p) = &d.point {
        let target = location::resolve(turn, &LocationArg::Location(p.location.clone()), Purpose::Place)?;
        return Ok(push(Recipe::Dance(DanceSpec::PointAt(target.pos.center())), times, "pointing"));
    }
    let name = d
        .filters
        .as_ref()
        .map(|f| f.triples().iter().filter_map(|t| t.obj_span()).map(|s| turn.text_of(s)).collect::<Vec<_>>().join(" "))
        .filter(|n| !n.is_empty())
        .unwrap_or_else(|| turn.text.clone());
    let name = if left && !name.contains("anti") { format!("{name} anticlockwise") } else { name };
    let around = a
        .location
        .as_ref()
        .map(|l| location::resolve(turn, l, Purpose::Move))
        .transpose()?
        .map(|t| t.pos)
        .or(Some(turn.speaker_block()));
    if crate::tasks::Dance::named(&name, around).is_none() {
        return Err(Problem::say(format!("I don't know how to \"{name}\" yet. I can spin, jump, nod, or circle around you.")));
    }
    Ok(push(Recipe::Dance(DanceSpec::Named { name: name.clone(), around }), times, format!("doing a {name}")))
}

/// An item id from words: "sword" → diamond_sword, "some bread" → bread, "red wool" → red_wool.
fn item_id(words: &[String]) -> Option<String> {
    let joined = words.iter().filter(|w| !matches!(w.as_str(), "a" | "an" | "some" | "the" | "me")).cloned().collect::<Vec<_>>().join("_");
    for c in [joined.clone(), joined.trim_end_matches('s').to_string()] {
        if ITEM_KINDS.contains(&c.as_str()) || Block::from_name(&c).is_some_and(|b| !b.is_air()) {
            return Some(c);
        }
        let suffix = format!("_{c}");
        if let Some(best) = ITEM_KINDS.iter().find(|i| i.starts_with("diamond") && i.ends_with(&suffix)).or_else(|| ITEM_KINDS.iter().find(|i| i.ends_with(&suffix))) {
            return Some(best.to_string());
        }
    }
    None
}

fn get(turn: &mut Turn, a: &Action) -> Result<Plan> {
    let r = a.reference_object.as_ref().and_then(|r| r.as_object()).ok_or_else(|| Problem::say("What should I get?"))?;
    let receiver_is_speaker = a.receiver.as_ref().is_some_and(|e| {
        e.reference_object.as_ref().is_some_and(|r| r.fixed_reference() == Some(crate::logical_form::FixedReference::Speaker))
    }) || turn.has_word("me");
    let words: Vec<String> = r.text_span.map(|s| turn.words(s)).unwrap_or_else(|| {
        r.filters.iter().flat_map(|f| f.triples()).filter_map(|t| t.obj_span()).flat_map(|s| turn.words(s)).collect()
    });
    if receiver_is_speaker && let Some(item) = item_id(&words) {
        let at = turn.speaker_block();
        return Ok(push(
            Recipe::Give { player: turn.speaker.clone(), item: item.clone(), count: 1, at },
            Times::Count(1),
            format!("bringing you {item}"),
        ));
    }
    // Otherwise: go and get a thing we remember.
    let found = reference::resolve_one(turn, r, Want::Anything)?;
    let label = found.id().map(|id| describe::the(turn.memory, id)).unwrap_or_else(|| "that".into());
    Ok(push(Recipe::Get { at: found.pos().block(), label: label.clone() }, Times::Count(1), format!("getting {label}")))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::memory::Memory;
    use crate::world::embedded::EmbeddedWorld;
    use crate::world::{Actor, Look, Vec3};

    #[test]
    fn a_missing_thing_is_named_in_the_players_words() {
        let mut w = EmbeddedWorld::flat();
        w.add_player("alice", Vec3::new(0.5, 5.0, 0.5), Look::new(0.0, 0.0));
        let mut memory = Memory::in_memory().unwrap();
        // The annotations' convention: the name's span leaves out "the", and colour comes after
        // the name in the clause list. The reply still reads "the red castle".
        let text = "go to the red castle";
        let lf = crate::logical_form::validate_json(
            text,
            r#"{"dialogue_type": "HUMAN_GIVE_COMMAND", "action_sequence": [{"action_type": "MOVE", "location": {"reference_object": {"filters": {"where_clause": {"AND": [{"pred_text": "has_name", "obj_text": [0, [4, 4]]}, {"pred_text": "has_colour", "obj_text": [0, [3, 3]]}]}}}}}]}"#,
        )
        .unwrap();
        let mut turn = Turn::new("alice", text, &w, &mut memory);
        match command(&mut turn, &lf, &schematics::Limits::default()) {
            Err(Problem::Say(s)) => assert_eq!(s, "I can't find \"the red castle\"."),
            other => panic!("expected a polite refusal, got {:?}", other.map(|p| p.len())),
        }
        // With a text_span that leaves the article out, as the annotations do.
        let text = "go to the castle";
        let lf = crate::logical_form::validate_json(
            text,
            r#"{"dialogue_type": "HUMAN_GIVE_COMMAND", "action_sequence": [{"action_type": "MOVE", "location": {"reference_object": {"filters": {"where_clause": {"AND": [{"pred_text": "has_name", "obj_text": [0, [3, 3]]}]}}, "text_span": [0, [3, 3]]}}}]}"#,
        )
        .unwrap();
        let mut turn = Turn::new("alice", text, &w, &mut memory);
        match command(&mut turn, &lf, &schematics::Limits::default()) {
            Err(Problem::Say(s)) => assert_eq!(s, "I can't find \"the castle\"."),
            other => panic!("expected a polite refusal, got {:?}", other.map(|p| p.len())),
        }
    }

    #[test]
    fn near_a_pillar_is_beside_it_not_on_top() {
        let mut w = EmbeddedWorld::flat();
        let pillar = BBox::new(Pos::new(-8, 5, 10), Pos::new(-8, 10, 10));
        w.fill_by(pillar, Block::from_name("blue_wool").unwrap(), Actor::World);
        w.add_player("alice", Vec3::new(0.5, 5.0, 0.5), Look::new(0.0, 0.0));
        let mut memory = Memory::in_memory().unwrap();
        let turn = Turn::new("alice", "build a cube near the pillar", &w, &mut memory);
        let cube = Schematic::new("cube", BBox::new(Pos::new(0, 0, 0), Pos::new(2, 2, 2)).iter().map(|p| (p, Block::from_name("red_wool").unwrap())));
        let target = Target { pos: Pos::new(-8, 11, 10), anchor: Some(pillar), step: None, steps: None, near: true };
        let blocks = place(&turn, &cube, &target);
        assert!(blocks.iter().all(|(p, _)| p.y >= 5 && p.y <= 7), "on the ground, not on the pillar: {blocks:?}");
        assert!(blocks.iter().all(|(p, _)| !(p.x == -8 && p.z == 10)), "clear of the pillar's column");
    }

    #[test]
    fn counted_steps_walk_exactly_that_far() {
        let mut w = EmbeddedWorld::flat();
        w.add_player("alice", Vec3::new(8.5, 5.0, 0.5), Look::new(0.0, 0.0));
        w.set_agent_pos(Pos::new(0, 5, 6));
        let mut memory = Memory::in_memory().unwrap();
        let text = "walk 4 steps forward";
        let lf = LogicalForm::from_json_str(
            r#"{"dialogue_type": "HUMAN_GIVE_COMMAND", "action_sequence": [{"action_type": "MOVE", "location": {"relative_direction": "FRONT",
              "reference_object": {"special_reference": {"fixed_value": "AGENT"}}, "steps": [0, [1, 1]], "text_span": [0, [1, 3]]}}]}"#,
        )
        .unwrap();
        let mut turn = Turn::new("alice", text, &w, &mut memory);
        let plans = command(&mut turn, &lf, &schematics::Limits::default()).unwrap();
        match &plans[0] {
            Plan::Push { recipe: Recipe::MoveTo { pos, tolerance, .. }, .. } => {
                assert_eq!(*tolerance, 0, "4 steps means 4, not 3");
                assert_eq!((pos.x, pos.z), (0, 10), "forward of an agent facing south is +z");
            }
            other => panic!("expected a move, got {other:?}"),
        }
    }

    #[test]
    fn face_a_compass_direction_is_a_heading_not_a_turn() {
        let w = EmbeddedWorld::flat();
        let mut memory = Memory::in_memory().unwrap();
        for (text, yaw) in [("face north", 180.0), ("face east", -90.0)] {
            let rel = if yaw > 0.0 { "0" } else { "90" };
            let lf = LogicalForm::from_json_str(&format!(
                r#"{{"dialogue_type": "HUMAN_GIVE_COMMAND", "action_sequence": [{{"action_type": "DANCE", "dance_type": {{"look_turn": {{"relative_yaw": {{"fixed_value": "{rel}"}}}}}}}}]}}"#
            ))
            .unwrap();
            let mut turn = Turn::new("alice", text, &w, &mut memory);
            let plans = command(&mut turn, &lf, &schematics::Limits::default()).unwrap();
            match &plans[0] {
                Plan::Push { recipe: Recipe::Dance(DanceSpec::Head(TurnBy::Absolute { yaw: Some(y), pitch: None })), .. } => assert_eq!(*y, yaw, "{text}"),
                other => panic!("{text}: expected an absolute heading, got {other:?}"),
            }
        }
    }
}
