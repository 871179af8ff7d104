//! Memory updates (`PUT_MEMORY`): naming ("that is my house", "call this the castle"), tagging
//! ("tag the tower as tall") and feedback ("good job", "that was wrong"). What players tell the
//! bot is stored as triples with source `told`, so it outranks what perception guessed and later
//! commands ("go to my house") can use it.

use super::context::Turn;
use super::describe;
use super::reference::{self, Want};
use crate::logical_form::{LogicalForm, MemoryType, Predicate, ReferenceObject, RewardValue};
use crate::memory::{NewTriple, Source};

/// What a memory update said, or the "which one?" it must ask first (with the choices, so the
/// answer can pick one and the update run again preferring it).
pub enum Updated {
    Said(String),
    Which { question: String, choices: Vec<super::problem::Choice> },
}

impl Updated {
    /// What the bot says: the line, or the question.
    pub fn text(self) -> String {
        match self {
            Updated::Said(s) | Updated::Which { question: s, .. } => s,
        }
    }
}

/// [`named`], keeping a "which one?" open as a question rather than a plain line.
pub fn update(turn: &mut Turn, lf: &LogicalForm, last_task: Option<&str>) -> Updated {
    let mut which = None;
    let said = named(turn, lf, last_task, &mut which);
    match which {
        Some(choices) => Updated::Which { question: said, choices },
        None => Updated::Said(said),
    }
}

fn named(turn: &mut Turn, lf: &LogicalForm, last_task: Option<&str>, which: &mut Option<Vec<super::problem::Choice>>) -> String {
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
    if let Some(said) = place(turn, &triples) {
        return said;
    }
    // Which thing: the filters, or (with none) what the speaker looks at / we last discussed.
    let target = ReferenceObject { filters: lf.filters.clone(), ..Default::default() };
    // "… and call it bob": what an earlier step of the line made comes first.
    let earlier = turn.antecedent.as_ref().and_then(|a| a.object).filter(|_| !reference::without_generic(&target.filters.clone().unwrap_or_default(), turn).1);
    let found = match earlier.or_else(|| just_built(turn, &target)) {
        Some(id) => Ok(Some(id)),
        None => reference::resolve_one(turn, &target, Want::Anything).map(|f| f.id()),
    };
    let found = match found {
        Ok(f) => f,
        Err(super::problem::Problem::Say(s)) => return s,
        Err(super::problem::Problem::Which { question, choices }) => {
            *which = Some(choices);
            return question;
        }
    };
    let Some(id) = found else {
        return "I can only remember names for things I can see, like something built or a player.".into();
    };
    let before = describe::the_for(turn.memory, id, turn.form_words());
    if turn.details().renames {
        forget_names(turn, id, lf);
    }
    let mut told = Vec::new();
    for t in &triples {
        let Some(span) = t.obj_span() else { continue };
        let mut words = turn.words(span);
        // "my house": the owner is the speaker; the name is "house".
        let mine = words.first().is_some_and(|w| w == "my");
        let article = words.first().filter(|w| crate::lexicon::lexicon().is(crate::lexicon::Class::Article, w)).cloned();
        if mine || article.is_some() {
            words.remove(0);
        }
        // "call that thing ruby": "thing" belongs to "that thing", the name is "ruby".
        while words.len() > 1 && crate::lexicon::lexicon().is(crate::lexicon::Class::GenericThing, &words[0]) {
            words.remove(0);
        }
        let article = article.or_else(|| turn.article_before(span).map(str::to_string));
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
            told.push((pred, text, mine, article));
        }
    }
    let _ = turn.memory.attend(id, turn.tick);
    match told.as_slice() {
        [] => "I didn't catch what to call it.".into(),
        [(_, text, mine, article), ..] => {
            // Said back in the player's words: "the castle", "your house", "tall".
            let owner = match (mine, article) {
                (true, _) => "your ".to_string(),
                (false, Some(a)) => format!("{a} "),
                _ => String::new(),
            };
            let now = if turn.details().renames { "now " } else { "" };
            format!("Got it: {before} is {now}{owner}{text}.")
        }
    }
}

/// "rename bob to rex": the names the player gave the thing before go (the name it was said by
/// when named in the line, else every told tag but whose it is: "my", "alice's house").
fn forget_names(turn: &mut Turn, id: crate::memory::MemoryId, lf: &LogicalForm) {
    let said: Vec<String> = lf.filters.iter().flat_map(|f| f.triples()).filter_map(|t| t.obj_span()).map(|s| turn.words(s).join(" ")).collect();
    let tags: Vec<(crate::memory::MemoryId, String)> = turn
        .memory
        .triples_of(id)
        .unwrap_or_default()
        .into_iter()
        .filter(|t| t.pred == "has_tag" && t.source == Source::Told)
        .filter_map(|t| Some((t.id, t.text()?.to_string())))
        .filter(|(_, text)| text != "my" && !text.contains("'s "))
        .collect();
    let by_name = tags.iter().any(|(_, text)| said.contains(text));
    for (triple, text) in tags {
        if !by_name || said.contains(&text) {
            let _ = turn.memory.remove_triple(triple);
        }
    }
}

/// "call this spot home", "remember this place as base", "call here home": a named place where
/// the speaker stands (a place with that name moves here). `None` when the line names a thing.
fn place(turn: &mut Turn, triples: &[crate::logical_form::Triple]) -> Option<String> {
    if !turn.details().names_place {
        return None;
    }
    let mut words = triples.iter().find_map(|tr| tr.obj_span()).map(|s| turn.words(s))?;
    let lx = crate::lexicon::lexicon();
    use crate::lexicon::Class;
    while words.first().is_some_and(|w| lx.is(Class::PlaceWord, w) || lx.is(Class::Article, w) || lx.is(Class::Possessive, w) || w == "as") {
        words.remove(0);
    }
    if words.is_empty() {
        return Some("What should I call this spot?".into());
    }
    let name = words.join(" ");
    let at = turn.speaker_pos.block();
    if let Ok(old) = turn.memory.objects_with_name(&name) {
        for id in old {
            if turn.memory.kind_of(id).ok().flatten() == Some(crate::memory::MemoryKind::Location) {
                let _ = turn.memory.forget(id);
            }
        }
    }
    Some(match turn.memory.add_location(&name, at) {
        Ok(id) => {
            let _ = turn.memory.attend(id, turn.tick);
            format!("Got it: this spot {at} is {name}.")
        }
        Err(e) => {
            tracing::warn!("could not remember a place: {e}");
            "Sorry, I couldn't remember that place.".into()
        }
    })
}

/// How long after a build starts "call this …" means what was built, whatever the player
/// looks at (a minute of game time).
const JUST_BUILT_TICKS: u64 = 1200;

/// "build an orange cube" then "call this the pumpkin box": with nothing but "this" to go by, the
/// thing the bot just built for the speaker is what they mean.
fn just_built(turn: &Turn, target: &ReferenceObject) -> Option<crate::memory::MemoryId> {
    let (_, constrained) = reference::without_generic(&target.filters.clone().unwrap_or_default(), turn);
    if constrained {
        return None;
    }
    let id = turn.memory.last_attended(&[crate::memory::MemoryKind::BlockObject]).ok()??;
    let info = turn.memory.info(id).ok()??;
    let fresh = info.attended_tick.is_some_and(|t| t + JUST_BUILT_TICKS >= turn.tick);
    let for_speaker = turn.memory.values_of(id, crate::memory::builds::BUILT_FOR).ok()?.iter().any(|s| *s == turn.speaker);
    (fresh && for_speaker).then_some(id)
}

fn feedback(turn: &mut Turn, positive: bool, last_task: Option<&str>) -> String {
    if let Ok(Some(me)) = turn.memory.self_id() {
        let value = if positive { "POSITIVE" } else { "NEGATIVE" };
        let _ = turn.memory.add_triple(NewTriple::text(me, "has_reward", value).source(Source::Told));
    }
    // "Thank you" is praise too, but the answer to thanks is "you're welcome", not "thanks".
    let thanked = turn.details().thanked;
    match (positive, last_task) {
        (true, Some(t)) if thanked => format!("You're welcome! Glad you liked {t}."),
        (true, None) if thanked => "You're welcome!".into(),
        (true, Some(t)) => format!("Thanks! Glad you liked {t}."),
        (true, None) => "Thanks!".into(),
        (false, Some(_)) => "Sorry about that. Say \"undo\" and I'll take it back, or tell me what to change.".into(),
        (false, None) => "Sorry about that. Tell me what to change.".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::logical_form::validate_json;
    use crate::memory::fixture::{Fixture, YELLOW_CUBE};

    fn tell(f: &mut Fixture, text: &str, json: &str) -> String {
        let lf = validate_json(text, json).expect("a valid form");
        let mut turn = Turn::new("alice", crate::understanding::step::form(text), &f.world, &mut f.memory);
        update(&mut turn, &lf, None).text()
    }

    #[test]
    fn names_are_said_back_with_the_players_article() {
        let mut f = Fixture::new();
        let a = tell(
            &mut f,
            "call the yellow cube the castle",
            r#"{"dialogue_type": "PUT_MEMORY", "filters": {"where_clause": {"AND": [{"pred_text": "has_colour", "obj_text": [0, [2, 2]]}, {"pred_text": "has_name", "obj_text": [0, [3, 3]]}]}}, "upsert": {"memory_data": {"memory_type": "TRIPLE", "triples": [{"pred_text": "has_tag", "obj_text": [0, [4, 5]]}]}}}"#,
        );
        assert_eq!(a, "Got it: the yellow cube is the castle.");
        let id = f.id_at(YELLOW_CUBE);
        assert!(f.memory.values_of(id, "has_tag").unwrap().contains(&"castle".to_string()), "stored without the article");
        let a = tell(
            &mut f,
            "tag the castle as tall",
            r#"{"dialogue_type": "PUT_MEMORY", "filters": {"where_clause": {"AND": [{"pred_text": "has_name", "obj_text": [0, [2, 2]]}]}}, "upsert": {"memory_data": {"memory_type": "TRIPLE", "triples": [{"pred_text": "has_tag", "obj_text": [0, [4, 4]]}]}}}"#,
        );
        // Called by the name the player just gave it.
        assert_eq!(a, "Got it: the castle is tall.");
        // The annotations usually leave the article out of the span: it is still said back.
        let a = tell(
            &mut f,
            "call the yellow cube the fort",
            r#"{"dialogue_type": "PUT_MEMORY", "filters": {"where_clause": {"AND": [{"pred_text": "has_colour", "obj_text": [0, [2, 2]]}, {"pred_text": "has_name", "obj_text": [0, [3, 3]]}]}}, "upsert": {"memory_data": {"memory_type": "TRIPLE", "triples": [{"pred_text": "has_tag", "obj_text": [0, [5, 5]]}]}}}"#,
        );
        assert_eq!(a, "Got it: the yellow cube is the fort.");
        assert!(f.memory.values_of(id, "has_tag").unwrap().contains(&"fort".to_string()));
    }

    #[test]
    fn this_spot_names_a_place_where_the_speaker_stands_not_a_thing() {
        let mut f = Fixture::new();
        let form = r#"{"dialogue_type": "PUT_MEMORY", "filters": {"contains_coreference": "yes"}, "upsert": {"memory_data": {"memory_type": "TRIPLE", "triples": [{"pred_text": "has_tag", "obj_text": [0, [2, 3]]}]}}}"#;
        let a = tell(&mut f, "call this spot home", form);
        assert!(a.starts_with("Got it: this spot (") && a.ends_with(") is home.") && !a.contains("(("), "{a}");
        let places = f.memory.objects_of_kind(crate::memory::MemoryKind::Location).unwrap();
        assert_eq!(places.len(), 1);
        assert_eq!(f.memory.values_of(places[0].id, "has_name").unwrap(), ["home"]);
        // No thing was tagged.
        let id = f.id_at(YELLOW_CUBE);
        assert!(!f.memory.values_of(id, "has_tag").unwrap().iter().any(|t| t.contains("home")));
        // Naming it again moves it: still one home.
        tell(&mut f, "call this spot home", form);
        assert_eq!(f.memory.objects_of_kind(crate::memory::MemoryKind::Location).unwrap().len(), 1);
    }

    #[test]
    fn thanks_get_you_are_welcome_and_praise_gets_thanks() {
        let mut f = Fixture::new();
        let reward = r#"{"dialogue_type": "PUT_MEMORY", "filters": {}, "upsert": {"memory_data": {"memory_type": "REWARD", "reward_value": "POSITIVE"}}}"#;
        let lf = validate_json("thank you", reward).unwrap();
        let mut turn = Turn::new("alice", crate::understanding::step::form("thank you"), &f.world, &mut f.memory);
        assert_eq!(update(&mut turn, &lf, Some("building a tower")).text(), "You're welcome! Glad you liked building a tower.");
        let lf = validate_json("good job", reward).unwrap();
        let mut turn = Turn::new("alice", crate::understanding::step::form("good job"), &f.world, &mut f.memory);
        assert_eq!(update(&mut turn, &lf, Some("building a tower")).text(), "Thanks! Glad you liked building a tower.");
    }
}
