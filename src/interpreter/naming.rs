//! Memory updates (`PUT_MEMORY`): naming ("that is my house", "call this the castle"), tagging
//! ("tag the tower as tall") and feedback ("good job", "that was wrong"). What players tell the
//! bot is stored as triples with source `told`, so it outranks what perception guessed and later
//! commands ("go to my house") can use it.

use super::context::Turn;
use super::describe;
use super::reference::{self, Want};
use crate::logical_form::{LogicalForm, MemoryType, Predicate, ReferenceObject, RewardValue};
use crate::memory::{NewTriple, Source};

pub fn update(turn: &mut Turn, lf: &LogicalForm, last_task: Option<&str>) -> String {
    let Some(upsert) = &lf.upsert else {
        return "What should I remember about it? Say something like \"call this the castle\".".into();
    };
    let data = &upsert.memory_data;
    if data.memory_type == MemoryType::Reward || data.reward_value.is_some() {
        return feedback(turn, data.reward_value == Some(RewardValue::Positive), last_task);
    }
    let triples = data.triples.clone().unwrap_or_default();
    if triples.is_empty() {
        return "What should I remember about it?".into();
    }
    // Which thing: the filters, or (with none) what the speaker looks at / we last discussed.
    let target = ReferenceObject { filters: lf.filters.clone(), ..Default::default() };
    let found = match reference::resolve_one(turn, &target, Want::Anything) {
        Ok(f) => f,
        Err(super::problem::Problem::Say(s)) => return s,
        Err(super::problem::Problem::Which { question, .. }) => return question,
    };
    let Some(id) = found.id() else {
        return "I can only remember names for things I can see, like something built or a player.".into();
    };
    let before = describe::the_for(turn.memory, id, &turn.tokens);
    let mut told = Vec::new();
    for t in &triples {
        let Some(span) = t.obj_span() else { continue };
        let mut words = turn.words(span);
        // "my house": the owner is the speaker; the name is "house".
        let mine = words.first().is_some_and(|w| w == "my");
        if mine || words.first().is_some_and(|w| matches!(w.as_str(), "the" | "a" | "an")) {
            words.remove(0);
        }
        if words.is_empty() {
            continue;
        }
        let text = words.join(" ");
        let pred = match t.pred_text {
            Predicate::HasName => "has_name",
            Predicate::HasColour => "has_colour",
            Predicate::HasBlockType => "has_block_type",
            Predicate::HasSize => "has_size",
            _ => "has_tag",
        };
        let stored = turn.memory.add_triple(NewTriple::text(id, pred, &text).source(Source::Told).confidence(1.0));
        if mine {
            let owned = format!("{}'s {text}", turn.speaker);
            let _ = turn.memory.add_triple(NewTriple::text(id, "has_tag", &owned).source(Source::Told).confidence(1.0));
            let _ = turn.memory.add_triple(NewTriple::text(id, "has_tag", "my").source(Source::Told).confidence(1.0));
        }
        if stored.is_ok() {
            told.push((pred, text, mine));
        }
    }
    let _ = turn.memory.attend(id, turn.tick);
    match told.as_slice() {
        [] => "I didn't catch what to call it.".into(),
        [(pred, text, mine), ..] => {
            let owner = if *mine { "your " } else { "" };
            if *pred == "has_name" { format!("Got it: {before} is {owner}{text}.") } else { format!("Got it: {before} is {owner}{text}.") }
        }
    }
}

fn feedback(turn: &mut Turn, positive: bool, last_task: Option<&str>) -> String {
    if let Ok(Some(me)) = turn.memory.self_id() {
        let value = if positive { "POSITIVE" } else { "NEGATIVE" };
        let _ = turn.memory.add_triple(NewTriple::text(me, "has_reward", value).source(Source::Told));
    }
    match (positive, last_task) {
        (true, Some(t)) => format!("Thanks! Glad you liked {t}."),
        (true, None) => "Thanks!".into(),
        (false, Some(_)) => "Sorry about that. Say \"undo\" and I'll take it back, or tell me what to change.".into(),
        (false, None) => "Sorry about that. Tell me what to change.".into(),
    }
}
