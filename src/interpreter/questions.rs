//! Questions (`GET_MEMORY`): answered from memory and the task stack only, never made up.
//! "what are you doing", "what did you just do", "what is that", "where is the house", "how many
//! red towers are there", "what colour is the cube", "how tall is that".

use super::context::Turn;
use super::describe;
use super::directions;
use crate::logical_form::{
    Attribute, AttributeName, FixedText, Filters, LogicalForm, MemoryType, Output, OutputKind, Predicate, TextValue,
};
use crate::memory::{Answer, Value};
use crate::tasks::TaskStack;
use crate::world::{Pos, Vec3};

/// "what do you have", "what's in the design chest": what the bot carries, or a chest holds.
fn inventory(turn: &mut Turn, filters: &Filters) -> String {
    use crate::tasks::items::said;
    if filters.memory_type == Some(MemoryType::Agent) || filters.where_clause.is_none() {
        let carried = turn.world.carried();
        return match carried.is_empty() {
            true => "I'm not carrying anything I gathered. In creative mode I can hand out any block or item: just ask.".into(),
            false => format!("I'm carrying {}. In creative mode I can hand out any other block or item too.", said(carried.items())),
        };
    }
    let chest = crate::logical_form::ReferenceObject { filters: Some(filters.clone()), ..Default::default() };
    let span = filters.triples().iter().find_map(|t| t.obj_span());
    let chest = crate::logical_form::ReferenceObject { text_span: span, ..chest };
    let end = crate::logical_form::Endpoint { reference_object: Some(Box::new(chest)), location: None };
    match super::finding::chests::chest(turn, &end) {
        Ok((p, label)) => match turn.world.container(p) {
            Some(inv) if !inv.is_empty() => format!("{} holds {}.", capital(&label), said(inv.items())),
            Some(_) => format!("{} is empty.", capital(&label)),
            None => format!("I haven't looked inside {label} yet: ask me to get something from it and I'll open it."),
        },
        Err(super::problem::Problem::Say(s)) => s,
        Err(super::problem::Problem::Which { question, .. }) => question,
    }
}

/// The answer to a question, as one chat line.
pub fn answer(turn: &mut Turn, lf: &LogicalForm, tasks: &TaskStack) -> String {
    let Some(filters) = &lf.filters else {
        return "I'm not sure how to answer that. I can tell you what I'm doing, what I did, and about things around here.".into();
    };
    if filters.memory_type == Some(MemoryType::Tasks) {
        return about_tasks(filters, tasks, turn.memory);
    }
    let asks_inventory = matches!(&filters.output, Some(Output::Attribute(a)) if a.attribute == Attribute::Name(AttributeName::Inventory));
    if asks_inventory {
        return inventory(turn, filters);
    }
    if filters.memory_type == Some(MemoryType::Agent) {
        if matches!(&filters.output, Some(Output::Attribute(a)) if a.attribute == Attribute::Name(AttributeName::Name)) {
            return format!("I'm {}, a building helper. Say \"what can you do\" to see what I can do.", turn.world.agent_name());
        }
        let p = turn.agent_pos();
        return format!("I'm at {p}, {}.", relative(turn, p.feet()));
    }
    if let Some(answer) = super::place_questions::answer(turn, filters) {
        return answer;
    }
    let attribute = match &filters.output {
        Some(Output::Attribute(a)) => match &a.attribute {
            Attribute::Name(n) => Some(*n),
            _ => None,
        },
        _ => None,
    };
    // "the last pyramid": the most recent of them (`reference::without_newest`).
    let (unranked, latest) = super::reference::without_newest(filters);
    let filters = if latest { &unranked } else { filters };
    let counting = matches!(filters.output, Some(Output::Kind(OutputKind::Count))) || turn.details().counting;
    // "what is that" with nothing remembered there: say what the block is.
    let coref = filters.contains_coreference.is_some();
    // "the tall thing", "that structure": generic nouns never block a match the other words make.
    let (specific, _) = super::reference::without_generic(filters, turn);
    let Some(result) = found(turn, filters, &specific, counting, latest) else {
        return "Sorry, I couldn't look that up.".into();
    };
    let what = asked_about(turn, filters);
    // "how many blocks did you use for the red cube": the blocks of the thing named.
    if counting && turn.details().counts_blocks && what != "block" && what != "such thing" {
        return match result.hits.first() {
            Some(h) => {
                let n = turn.memory.object(h.id).ok().flatten().map_or(0, |o| o.voxels);
                format!("{} has {n} blocks.", capital(&describe::the_for(turn.memory, h.id, turn.form_words())))
            }
            None => format!("I don't know of any {what}."),
        };
    }
    if counting {
        let n = match result.answer {
            Answer::Count(n) => n,
            _ => result.hits.len(),
        };
        return match n {
            0 if what == "such thing" => "I don't see any.".to_string(),
            0 => format!("I don't see any {}.", plural(&what)),
            1 => format!("I see 1 {what}."),
            n => format!("I see {n} {}.", plural(&what)),
        };
    }
    // "What is that": never the speaker themself, and never something away from where the
    // speaker looks when the look lands on a block (the ground under a player's own feet is "that
    // grass", not the player).
    let mut hits: Vec<&crate::memory::Hit> = result.hits.iter().collect();
    let earlier = turn.antecedent.as_ref().and_then(|a| a.object).filter(|id| hits.iter().any(|h| h.id == *id));
    if let Some(id) = earlier.filter(|_| coref) {
        // "… then tell me how tall it is": what the step before made.
        hits.retain(|h| h.id == id);
    } else if coref {
        let me = turn.memory.player_id(&turn.speaker).ok().flatten();
        hits.retain(|h| Some(h.id) != me);
        if let Some(look) = turn.look_hit {
            let t = look.block.center();
            hits.retain(|h| near_look(h, t));
        }
    }
    let Some(first) = hits.first().copied() else {
        if coref && let Some(hit) = turn.look_hit {
            let b = turn.world.block_at(hit.block);
            return format!("That's {}.", b.name().replace('_', " "));
        }
        if attribute == Some(AttributeName::Location)
            && let Some(seen) = seen_nearby(turn, filters)
        {
            return seen;
        }
        return format!("I don't know of any {what}.");
    };
    // "which things are towers": every one, with where it is.
    if matches!(filters.output, Some(Output::Kind(OutputKind::Memory))) && hits.len() > 1 {
        // "which things are red", "which stuff is made of wool": said by what they are like.
        let triples = filters.triples();
        let named = triples.iter().any(|t| t.pred_text == Predicate::HasName);
        let heading = match triples.first().map(|t| t.pred_text) {
            _ if named => format!("I know {} {}", hits.len(), plural(&what)),
            Some(Predicate::HasBlockType) => format!("{} things are made of {what}", hits.len()),
            _ => format!("{} things are {what}", hits.len()),
        };
        return list(turn, &heading, &hits);
    }
    let id = first.id;
    let _ = turn.memory.attend(id, turn.tick);
    let the = describe::the_for(turn.memory, id, turn.form_words());
    let value = match &result.answer {
        Answer::Values(v) => v.first().cloned(),
        _ => None,
    };
    // Built things and holes are "at" the middle of their footprint, on the ground they stand on
    // (their centroid floats in the air); players and mobs at their feet.
    let footprint = matches!(first.kind, crate::memory::MemoryKind::BlockObject | crate::memory::MemoryKind::Hole);
    let pos = match (footprint, first.bbox) {
        (true, Some(b)) => super::reference::centre(&b),
        _ => first.pos.or(first.bbox.map(|b| super::reference::centre(&b))).unwrap_or_default(),
    };
    match attribute {
        Some(AttributeName::Location) => format!("{} is at {}, {}.", capital(&the), pos.block(), relative(turn, pos)),
        Some(AttributeName::Colour) => match value {
            Some(Value::Missing) | None => format!("I can't tell what colour {the} is."),
            Some(v) => format!("{} is {}.", capital(&the), v.to_string().replace('_', " ")),
        },
        // "how tall": the height; "how big", "how long", "what size": every measure, the way
        // the bot says a build's size ("10 long and 5 high").
        Some(AttributeName::Height | AttributeName::Width | AttributeName::Size)
            if attribute == Some(AttributeName::Height) && !turn.details().asks_size =>
        {
            match first.bbox {
                Some(b) => format!("{} is {} blocks tall.", capital(&the), b.size()[1]),
                None => format!("I can't tell how tall {the} is."),
            }
        }
        Some(AttributeName::Height | AttributeName::Width | AttributeName::Size) => match first.bbox {
            Some(b) => {
                let noun = describe::noun(turn.memory, id);
                format!("{} is {}.", capital(&the), super::actions::build::size_phrase(&noun, b, None))
            }
            None => format!("I can't tell how big {the} is."),
        },
        Some(AttributeName::Tag) => {
            let tags = turn.memory.values_of(id, "has_tag").unwrap_or_default();
            if tags.is_empty() { format!("{} has no tags yet.", capital(&the)) } else { format!("{} is tagged {}.", capital(&the), tags.join(", ")) }
        }
        Some(AttributeName::BlockType) => {
            let mut types = turn.memory.values_of(id, "has_block_type").unwrap_or_default();
            // Told and perceived alike is said once: "glass" twice, or "quartz" told and the
            // quartz block it was built of.
            let mut seen = std::collections::HashSet::new();
            let block = |t: &str| crate::schematics::chosen_block(None, Some(t)).ok().flatten().map_or_else(|| t.replace('_', " "), |b| b.name().to_string());
            types.retain(|t| seen.insert(block(t)));
            if types.is_empty() { format!("I don't know what {the} is made of.") } else { format!("{} is made of {}.", capital(&the), types.join(" and ").replace('_', " ")) }
        }
        _ => {
            // What players said it is: "call this the fort" is stored as a tag, as the annotations
            // write it, so "what is that" must say it back.
            // "my" only marks whose it is ("alice's house" says that already).
            // "what is wilbur": the name said back, with what the thing is ("the pig").
            let plain = describe::the(turn.memory, id);
            let is = if plain != the { format!(", {plain}") } else { String::new() };
            let said = |t: &String| the.trim_start_matches("the ") == t.as_str();
            let tags: Vec<String> = turn.memory.values_of(id, "has_tag").unwrap_or_default().into_iter().filter(|t| t != "my" && !said(t)).collect();
            let told = match tags.len() {
                0 => String::new(),
                n if n <= MAX_TAGS_SAID => format!(", called {}", tags.join(", ")),
                n => format!(", called {} and {} more", tags[..MAX_TAGS_SAID].join(", "), n - MAX_TAGS_SAID),
            };
            format!("That's {the}{is}{told}, at {}.", pos.block())
        }
    }
}

/// The most tags an answer lists; the rest are counted.
const MAX_TAGS_SAID: usize = 5;

/// Is a hit where the speaker looks (within a block and a half of the looked-at block)?
fn near_look(h: &crate::memory::Hit, t: Vec3) -> bool {
    const SLACK: f64 = 1.5;
    match (h.bbox, h.pos) {
        (Some(b), _) => {
            let d = |v: f64, lo: i32, hi: i32| (lo as f64 - v).max(v - (hi + 1) as f64).max(0.0);
            let (dx, dy, dz) = (d(t.x, b.min.x, b.max.x), d(t.y, b.min.y, b.max.y), d(t.z, b.min.z, b.max.z));
            (dx * dx + dy * dy + dz * dz).sqrt() <= SLACK
        }
        (None, Some(p)) => ((p.x - t.x).powi(2) + (p.y - t.y).powi(2) + (p.z - t.z).powi(2)).sqrt() <= SLACK + 1.0,
        (None, None) => true,
    }
}

/// "I know 3 towers: the red tower at (1, 5, 2), …" (`heading`: "I know 3 towers").
fn list(turn: &Turn, heading: &str, hits: &[&crate::memory::Hit]) -> String {
    const LISTED: usize = 8;
    let said: Vec<String> = hits
        .iter()
        .take(LISTED)
        .map(|h| {
            let at = h.bbox.map(|b| b.min).or(h.pos.map(|p| p.block())).unwrap_or_default();
            format!("{} at {at}", describe::the_for(turn.memory, h.id, turn.form_words()))
        })
        .collect();
    let more = if hits.len() > LISTED { format!(" and {} more", hits.len() - LISTED) } else { String::new() };
    format!("{heading}: {}{more}.", said.join(", "))
}

/// What memory holds that the question asks about (`specific`: its filters without generic
/// nouns), the latest built first when it asks for the `latest`.
fn found(turn: &Turn, filters: &Filters, specific: &Filters, counting: bool, latest: bool) -> Option<crate::memory::QueryResult> {
    let mut result = match turn.memory.query(specific, &turn.query_ctx()) {
        // "the pumpkin box" read as two words: asked again as one name.
        Ok(r) if r.hits.is_empty() && (!counting || turn.details().counts_blocks) => match super::reference::as_one_name(specific).or_else(|| super::reference::as_one_name(filters)) {
            Some(named) => turn.memory.query(&named, &turn.query_ctx()).unwrap_or(r),
            None => r,
        },
        Ok(r) => r,
        Err(e) => {
            tracing::warn!("question failed: {e}");
            return None;
        }
    };
    if latest {
        let built = turn.memory.built_objects().unwrap_or_default();
        result.hits.sort_by_key(|h| std::cmp::Reverse(built.iter().position(|b| *b == h.id)));
    }
    Some(result)
}

/// Which of the things built a question asks about.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Built {
    /// "what have you built so far": all of them.
    All,
    /// "what was the last thing you built".
    Latest,
    /// "what was the first thing you built".
    First,
    /// "how many things have you built": how many, and which.
    Count,
}

impl Built {
    /// Which one a step's details ask about.
    pub fn from(d: &crate::logical_form::Details) -> Built {
        match (d.latest, d.earliest, d.counting) {
            (true, _, _) => Built::Latest,
            (_, true, _) => Built::First,
            (_, _, true) => Built::Count,
            _ => Built::All,
        }
    }
}

/// "what did we build today?": the things builds made that still stand, oldest first.
pub fn built_so_far(memory: &crate::memory::Memory, which: Built) -> String {
    let ids = memory.built_objects().unwrap_or_default();
    let things: Vec<String> = ids.iter().map(|&id| describe::the(memory, id)).collect();
    match things.as_slice() {
        [] => "We haven't built anything yet. Try \"build a red tower\".".into(),
        [.., last] if which == Built::Latest => format!("The last thing I built was {last}."),
        [first, ..] if which == Built::First => format!("The first thing I built was {first}."),
        [one] if which == Built::Count => format!("We built one thing: {one}."),
        [rest @ .., last] if which == Built::Count && rest.len() < 8 => {
            format!("We built {} things: {} and {last}.", things.len(), rest.join(", "))
        }
        _ if which == Built::Count => {
            format!("We built {} things; the last ones were {}.", things.len(), things[things.len() - 3..].join(", "))
        }
        [one] => format!("We built {one}."),
        [rest @ .., last] if rest.len() < 8 => format!("We built {} and {last}.", rest.join(", ")),
        _ => format!("We built {} things; the last ones were {}.", things.len(), things[things.len() - 3..].join(", ")),
    }
}

fn about_tasks(filters: &Filters, tasks: &TaskStack, memory: &crate::memory::Memory) -> String {
    let running = filters.triples().iter().any(|t| matches!(t.obj_text, Some(TextValue::Fixed(ref f)) if f.fixed_value == FixedText::CurrentlyRunning));
    if running {
        return match (tasks.current(), tasks.paused()) {
            (Some(now), _) => match tasks.current_progress() {
                Some((done, total)) if total > 0 => {
                    format!("I'm {now}: {done} of {total} blocks done ({}%).", done * 100 / total)
                }
                _ => format!("I'm {now}."),
            },
            (None, Some(p)) => format!("Nothing right now; I stopped {p}. Say \"resume\" to go on."),
            (None, None) => "Nothing right now. What should I do?".into(),
        };
    }
    match tasks.history().last() {
        Some(r) => match &r.outcome {
            Some(o) => format!("Last I was {}: {o}", r.description),
            None => format!("Last I was {}.", r.description),
        },
        // Nothing this run: memory keeps what earlier runs did.
        None => match memory.last_tasks(1).ok().and_then(|t| t.into_iter().next()) {
            Some(t) => {
                use crate::memory::TaskState as S;
                let how = match t.state {
                    S::Done => "and finished it",
                    S::Failed => "but it didn't work out",
                    S::Cancelled => "until I was told to stop",
                    S::Pending | S::Running | S::Paused => "when we stopped, before I was done",
                };
                format!("Last I was {}, {how}.", t.description)
            }
            None => "I haven't done anything yet.".into(),
        },
    }
}

/// What the question is about, in the player's words ("red towers" → "red tower").
fn asked_about(turn: &Turn, filters: &Filters) -> String {
    let mut spans = Vec::new();
    for t in filters.triples() {
        if matches!(t.pred_text, Predicate::HasColour | Predicate::HasName | Predicate::HasBlockType | Predicate::HasSize | Predicate::HasTag) {
            spans.extend(t.obj_span());
        }
    }
    if spans.is_empty() {
        return "such thing".into();
    }
    // In the player's word order whatever the clause order ("red towers", not "towers red"), and
    // with the last word singular.
    spans.sort_by_key(|s| (s.start, s.end));
    spans.dedup();
    let mut phrase = spans.iter().map(|s| turn.text_of(*s)).collect::<Vec<_>>().join(" ");
    if phrase.ends_with('s') && !phrase.ends_with("ss") {
        phrase.pop();
    }
    phrase
}

fn plural(w: &str) -> String {
    super::describe::plural(w)
}

fn capital(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().collect::<String>() + c.as_str(),
        None => String::new(),
    }
}

/// How far around the speaker [`seen_nearby`] looks: along x and z, and up or down.
const SEEN_RADIUS: (i32, i32) = (24, 12);

/// "is there water anywhere close": the nearest block of the type asked about around the
/// speaker. Terrain, water and blocks nobody built are in no memory, but the bot can see them.
fn seen_nearby(turn: &Turn, filters: &Filters) -> Option<String> {
    let span = filters.triples().into_iter().find(|t| t.pred_text == Predicate::HasBlockType)?.obj_span()?;
    let types = crate::memory::query::names::block_types_matching(&turn.text_of(span));
    if types.is_empty() {
        return None;
    }
    let me = turn.speaker_block();
    let (r, up) = SEEN_RADIUS;
    let area = crate::world::BBox::new(me - Pos::new(r, up, r), me + Pos::new(r, up, r));
    let distance = |p: &Pos| (p.x - me.x).pow(2) + (p.y - me.y).pow(2) + (p.z - me.z).pow(2);
    let (at, block) =
        turn.world.blocks_in(area).into_iter().filter(|(_, b)| types.contains(&b.name())).min_by_key(|(p, _)| (distance(p), *p))?;
    Some(format!("I see {} at {at}, {}.", block.name().replace('_', " "), relative(turn, at.center())))
}

/// "12 blocks north of you".
fn relative(turn: &Turn, p: Vec3) -> String {
    let me = turn.speaker_pos;
    let (dx, dz) = (p.x - me.x, p.z - me.z);
    let d = (dx * dx + dz * dz).sqrt();
    if d < 2.0 {
        return "right here".into();
    }
    let step = directions::heading(dx, dz);
    format!("{:.0} blocks {} of you", d, directions::compass(step))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::logical_form::validate_json;
    use crate::memory::fixture::Fixture;

    fn ask(f: &mut Fixture, text: &str, json: &str) -> String {
        let lf = validate_json(text, json).expect("a valid form");
        let mut turn = Turn::new("alice", crate::understanding::step::form(text), &f.world, &mut f.memory);
        answer(&mut turn, &lf, &TaskStack::default())
    }

    #[test]
    fn generic_nouns_do_not_block_an_answer() {
        let mut f = Fixture::new();
        let a = ask(
            &mut f,
            "what colour is the yellow thing",
            r#"{"dialogue_type": "GET_MEMORY", "filters": {"output": {"attribute": "COLOUR"}, "where_clause": {"AND": [{"pred_text": "has_colour", "obj_text": [0, [4, 4]]}, {"pred_text": "has_name", "obj_text": [0, [5, 5]]}]}}}"#,
        );
        assert_eq!(a, "The yellow cube is yellow.");
    }

    #[test]
    fn answers_use_the_players_shape_word() {
        let mut f = Fixture::new();
        let a = ask(
            &mut f,
            "how tall is the blue tower",
            r#"{"dialogue_type": "GET_MEMORY", "filters": {"output": {"attribute": "HEIGHT"}, "where_clause": {"AND": [{"pred_text": "has_colour", "obj_text": [0, [4, 4]]}, {"pred_text": "has_name", "obj_text": [0, [5, 5]]}]}}}"#,
        );
        assert_eq!(a, "The blue tower is 5 blocks tall.");
    }

    #[test]
    fn what_is_that_on_the_ground_is_the_block_not_the_speaker() {
        let mut f = Fixture::new();
        let what = r#"{"dialogue_type": "GET_MEMORY", "filters": {"contains_coreference": "yes", "output": {"attribute": "NAME"}}}"#;
        // Alice looks down at the grass by her own feet.
        f.world.player_mut("alice").expect("alice").look = crate::world::Look::new(0.0, 70.0);
        assert_eq!(ask(&mut f, "what is that", what), "That's grass block.");
        // Looking at the red tower (5, 5..10, 5) from (0.5, 5, 2.5): face east-ish and level.
        let p = f.world.player_mut("alice").expect("alice");
        p.pos = crate::world::Vec3::new(0.5, 5.0, 5.5);
        p.look = crate::world::Look::new(-90.0, 0.0);
        assert!(ask(&mut f, "what is that", what).starts_with("That's the red "), "the tower");
        // What a player called it comes back too.
        let tower = f.id_at(crate::memory::fixture::RED_TOWER);
        f.memory.tag(tower, "drop table memories").unwrap();
        let a = ask(&mut f, "what is that", what);
        assert!(a.starts_with("That's the red ") && a.contains(", called drop table memories, at "), "{a}");
    }

    #[test]
    fn where_is_a_building_is_its_footprint_on_the_ground() {
        let mut f = Fixture::new();
        // The yellow cube fills (12..14, 5..7, -2..0): its middle on the ground is (13, 5, -1).
        let a = ask(
            &mut f,
            "where is the yellow cube",
            r#"{"dialogue_type": "GET_MEMORY", "filters": {"output": {"attribute": "LOCATION"}, "where_clause": {"AND": [{"pred_text": "has_colour", "obj_text": [0, [3, 3]]}, {"pred_text": "has_name", "obj_text": [0, [4, 4]]}]}}}"#,
        );
        assert!(a.starts_with("The yellow cube is at (13, 5, -1), "), "{a}");
    }

    #[test]
    fn counting_none_uses_the_plural() {
        let mut f = Fixture::new();
        let a = ask(
            &mut f,
            "how many purple towers are there",
            r#"{"dialogue_type": "GET_MEMORY", "filters": {"output": "COUNT", "where_clause": {"AND": [{"pred_text": "has_colour", "obj_text": [0, [2, 2]]}, {"pred_text": "has_name", "obj_text": [0, [3, 3]]}]}}}"#,
        );
        assert_eq!(a, "I don't see any purple towers.");
        // The clauses in the annotations' usual order (name first) still read in the player's order.
        let a = ask(
            &mut f,
            "how many purple towers are there",
            r#"{"dialogue_type": "GET_MEMORY", "filters": {"output": "COUNT", "where_clause": {"AND": [{"pred_text": "has_name", "obj_text": [0, [3, 3]]}, {"pred_text": "has_colour", "obj_text": [0, [2, 2]]}]}}}"#,
        );
        assert_eq!(a, "I don't see any purple towers.");
    }
}
