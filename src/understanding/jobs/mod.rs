//! A companion's jobs, read by rule: "mine some diamonds for me", "chop down that tree", "harvest
//! the wheat", "plant seeds here", "put the wood in the chest in front of me", "get the stained
//! glass from the design chest", "drop 5 cobblestone", "make 3 bread", "what do you have".
//!
//! The parser never saw these actions (the annotations have none), so a line that is exactly
//! one of them is read here, into the typed form (`COLLECT`, `PLANT`, `PUT`, `DROP`, `CRAFT`, a
//! `GET` with a `source`, a question with output `INVENTORY`); the generated corpus's
//! `companion.txt` teaches the parser the same forms. Their small words are the lexicon's
//! (`[resources]`, `[containers]`, `[delivery]`, `[job_tails]`, …). A line with words this reader
//! does not account for is left to the parser and [`repair`]. Chest jobs are in `chests.rs`.

mod chests;
use chests::chest_job;

use super::giving::{is_quantity, named};
use crate::lexicon::{Class, Group, lexicon};
use crate::logical_form::{
    Action, ActionType, Attribute, AttributeName, Coreference, DialogueType, Endpoint, Filters, FixedReference, Location, LocationArg,
    LogicalForm, MemoryType, Output, OutputAttribute, Predicate, ReferenceObject, RelativeDirection, Span, SpecialReference,
    SpecialReferenceObject, Triple, WhereClause, WhereItem,
};

/// The form for a line that is only a companion job, if it is one.
pub fn read(text: &str) -> Option<LogicalForm> {
    let w: Vec<String> = text.split_whitespace().map(String::from).collect();
    // "can you mine some coal for me", "pls harvest the wheat": the request's own words come
    // after the asking; the form's spans still count from the line's start.
    let lx = lexicon();
    let mut skip = 0;
    while let Some(n) = lx.phrase_at(Class::Opening, &w, skip).or_else(|| lx.phrase_at(Class::Politeness, &w, skip)).or_else(|| asking_at(&w, skip)) {
        skip += n;
    }
    if skip > 0 {
        let lf = read_words(&w[skip..])?;
        return super::checked(text, shifted(lf, skip));
    }
    let lf = read_words(&w)?;
    super::checked(text, lf)
}

/// A line that reads as several steps but is one job: a tool taken first ("take an iron
/// pickaxe and get me 10 coal"), stages ("turn the logs into planks, then into stairs") or
/// several items for one chest.
pub fn read_whole(text: &str) -> Option<LogicalForm> {
    let w: Vec<String> = text.split_whitespace().map(String::from).collect();
    let lx = lexicon();
    let tooled = w.first().is_some_and(|x| lx.is(Class::ToolOpening, x)) && verb_at(&w).is_some_and(|(_, verb, _)| verb > 0);
    let staged = w.first().is_some_and(|x| lx.is(Class::StageVerb, x)) && w.iter().any(|x| lx.is(Class::IntoWord, x));
    // "… and bring it back to me", "… and give it to me": handing over, not a step of its own.
    // "… and mine it": the job itself said again.
    let delivered = (0..w.len()).any(|i| matches!(w[i].as_str(), "and" | "then") && (lx.phrase_at(Class::Delivery, &w, i).is_some() || lx.phrase_at(Class::JobTail, &w, i).is_some()));
    // "put 6 bread and 3 apples in the food chest": one chest, several items.
    if let Some(lf) = chest_job(&w).filter(|lf| lf.action_sequence.as_ref().is_some_and(|a| a.len() > 1)) {
        return super::checked(text, lf);
    }
    if !(tooled || staged || delivered) {
        return None;
    }
    let lf = if staged { turn_into(&w)? } else { read_words(&w)? };
    super::checked(text, lf)
}

/// "can you", "could you", "would you", "can u", "will you".
fn asking_at(w: &[String], i: usize) -> Option<usize> {
    let lx = lexicon();
    let modal = lexicon().is(Class::AskingModal, w.get(i)?);
    (modal && w.get(i + 1).is_some_and(|x| lx.is(Class::You, x))).then_some(2)
}

/// The form with every span moved `by` words later.
fn shifted(lf: LogicalForm, by: usize) -> LogicalForm {
    crate::logical_form::edit::shifted(&lf, by)
}

fn read_words(w: &[String]) -> Option<LogicalForm> {
    inventory_question(w).or_else(|| contents_question(w)).or_else(|| chest_job(w)).or_else(|| turn_into(w)).or_else(|| job(w))
}

/// "turn the stripped oak logs into planks, then into stairs": one CRAFT a product, each made
/// from what came before it (its `source`).
fn turn_into(w: &[String]) -> Option<LogicalForm> {
    let lx = lexicon();
    let first = w.first()?;
    let crafting = matches!(lx.verb(first), Some(ActionType::Craft | ActionType::Build));
    if !lx.is(Class::StageVerb, first) && !crafting {
        return None;
    }
    let into = (1..w.len()).find(|&k| w[k] == "into")?;
    let (_, mut from_said, _) = things(w, 1).filter(|(_, s, _)| s.end + 1 == into)?;
    let mut actions = Vec::new();
    let mut i = into + 1;
    loop {
        let end = (i..w.len()).find(|&k| lx.is(Class::StageJoint, &w[k]) && !lx.is(Class::Pointing, &w[k])).unwrap_or(w.len());
        if end <= i || crate::world::rules::recipes::craftable(&w[i..end]).is_none() {
            return None;
        }
        let made = Span::new(i, end - 1);
        let source = ReferenceObject { filters: Some(name_filters(from_said)), text_span: Some(from_said), ..ReferenceObject::default() };
        actions.push(Action {
            reference_object: Some(named(made, made)),
            source: Some(Endpoint { reference_object: Some(Box::new(source)), location: None }),
            ..Action::new(ActionType::Craft)
        });
        from_said = made;
        // ", then into stairs", "and then into stairs", "then stairs".
        let mut k = end;
        while k < w.len() && lx.is(Class::StageJoint, &w[k]) {
            k += 1;
        }
        if k >= w.len() {
            break;
        }
        if k == end {
            return None;
        }
        i = k;
    }
    Some(LogicalForm::command(actions))
}

/// Several items in a row ("the brain coral block, exposed copper, and terracotta"): each the
/// longest run of words from its start that names an item; `None` unless all of them do.
fn item_list(w: &[String], from: usize, to: usize) -> Option<Vec<(Span, Span)>> {
    let lx = lexicon();
    let mut out = Vec::new();
    let mut i = from;
    while i < to {
        if w[i] == "and" || lx.is(Class::Article, &w[i]) && w.get(i + 1).is_some_and(|x| x == "and") {
            i += 1;
            continue;
        }
        let said = i;
        while i < to && (is_quantity(&w[i]) || lx.phrase_at(Class::AllWords, w, i).is_some()) {
            i += lx.phrase_at(Class::AllWords, w, i).unwrap_or(1);
        }
        let end = (i + 1..=to).rev().find(|&e| crate::world::rules::item_id(&w[i..e]).is_some())?;
        out.push((Span::new(i, end - 1), Span::new(said, end - 1)));
        i = end;
    }
    (out.len() > 1).then_some(out)
}

fn speaker() -> ReferenceObject {
    let me = SpecialReferenceObject { fixed_value: Some(FixedReference::Speaker), coordinates_span: None };
    ReferenceObject { special_reference: Some(SpecialReference::Object(me)), ..ReferenceObject::default() }
}

fn to_speaker() -> Endpoint {
    Endpoint { reference_object: Some(Box::new(speaker())), location: None }
}

fn name_filters(name: Span) -> Filters {
    let clause = WhereClause::And(vec![WhereItem::Triple(Triple::new(Predicate::HasName, name))]);
    Filters { where_clause: Some(clause), ..Filters::default() }
}

fn inventory_output() -> Option<Output> {
    Some(Output::Attribute(OutputAttribute { attribute: Attribute::Name(AttributeName::Inventory) }))
}

/// "what do you have", "what's in your inventory"; "do you have any diamonds" too, answered with
/// all it carries.
fn inventory_question(w: &[String]) -> Option<LogicalForm> {
    let n = lexicon().phrase_at(Class::InventoryQuestion, w, 0)?;
    if !rest_is_tail(w, n) && crate::world::rules::item_id(&w[n..]).is_none() {
        return None;
    }
    let filters = Filters { memory_type: Some(MemoryType::Agent), output: inventory_output(), ..Filters::default() };
    Some(LogicalForm { filters: Some(filters), ..LogicalForm::new(DialogueType::GetMemory) })
}

/// "what's in the design chest", "what is inside storage".
fn contents_question(w: &[String]) -> Option<LogicalForm> {
    let lx = lexicon();
    let n = lx.phrase_at(Class::ContentsQuestion, w, 0)?;
    let start = n + usize::from(w.get(n).is_some_and(|x| lx.is(Class::Article, x)));
    let end = tail_start(w, start);
    if end <= start || !rest_is_tail(w, end) {
        return None;
    }
    let filters = Filters { output: inventory_output(), ..name_filters(Span::new(start, end - 1)) };
    Some(LogicalForm { filters: Some(filters), ..LogicalForm::new(DialogueType::GetMemory) })
}

/// Where the words of a thing end: before a place, a delivery, a tool, a tail or "and".
fn tail_start(w: &[String], from: usize) -> usize {
    let lx = lexicon();
    (from..w.len())
        .find(|&i| {
            let x = w[i].as_str();
            lx.phrase_at(Class::Delivery, w, i).is_some()
                || lx.phrase_at(Class::JobTail, w, i).is_some()
                || lx.is(Class::ToolLead, x)
                || (lx.is(Class::GatherParticle, x) && i > from)
                || lx.phrase_at(Class::IntoWord, w, i).is_some()
                || lx.phrase_at(Class::OutOfWord, w, i).is_some()
                || matches_place(w, i).is_some()
                || lx.is(Class::Connector, x)
                || lx.is(Class::Reason, x)
                || x == "and"
        })
        .unwrap_or(w.len())
}

/// Where a list of items ends: like [`tail_start`], but "and" joins the list.
fn tail_start_after_lists(w: &[String], from: usize) -> usize {
    let mut end = tail_start(w, from);
    while end < w.len() && w[end] == "and" {
        end = tail_start(w, end + 1);
    }
    end
}

/// What the words after a job say: hand it over, a place, or nothing that matters.
#[derive(Default)]
struct Tail {
    deliver: bool,
    place: Option<Location>,
    /// "for 2 bread": what the gathering is for, ending before this word.
    made_for: Option<(usize, usize)>,
}

/// A place at `i`: "here", "there", "in front of me", "at 10 64 -3", "starting from 1145 58 56",
/// "at the farm"; returns it and where it ends.
fn matches_place(w: &[String], i: usize) -> Option<(Location, usize)> {
    let lx = lexicon();
    let word = w.get(i)?.as_str();
    if lx.is(Class::Here, word) || lx.is(Class::There, word) {
        let l = Location { contains_coreference: Some(Coreference::Yes), text_span: Some(Span::word(i)), ..Location::default() };
        return Some((l, i + 1));
    }
    if word == "in" && w.get(i + 1).is_some_and(|x| x == "front") && w.get(i + 2).is_some_and(|x| x == "of") && w.get(i + 3).is_some_and(|x| lx.is(Class::Me, x)) {
        let l = Location { reference_object: Some(Box::new(speaker())), relative_direction: Some(RelativeDirection::Front), text_span: Some(Span::new(i, i + 3)), ..Location::default() };
        return Some((l, i + 4));
    }
    // "starting from", "at", "near" (the lexicon's `[place_leads]`), then coordinates or a named place.
    let j = i + lx.phrase_at(Class::PlaceLead, w, i)?;
    // "from here", "at there": the spot itself.
    if w.get(j).is_some_and(|x| lx.is(Class::Here, x) || lx.is(Class::There, x)) {
        let l = Location { contains_coreference: Some(Coreference::Yes), text_span: Some(Span::new(i, j)), ..Location::default() };
        return Some((l, j + 1));
    }
    let numbers: Vec<usize> = (j..w.len()).take_while(|&k| w[k].parse::<i64>().is_ok()).collect();
    if numbers.len() == 3 {
        let coords = SpecialReferenceObject { fixed_value: None, coordinates_span: Some(Span::new(j, j + 2)) };
        let r = ReferenceObject { special_reference: Some(SpecialReference::Object(coords)), ..ReferenceObject::default() };
        return Some((Location { reference_object: Some(Box::new(r)), text_span: Some(Span::new(i, j + 2)), ..Location::default() }, j + 3));
    }
    if w.get(j).is_some_and(|x| lx.is(Class::Me, x)) {
        return None;
    }
    let start = j + usize::from(w.get(j).is_some_and(|x| lx.is(Class::Article, x)));
    let end = (start..w.len()).find(|&k| lx.phrase_at(Class::Delivery, w, k).is_some() || lx.phrase_at(Class::JobTail, w, k).is_some() || w[k] == "and").unwrap_or(w.len());
    if end <= start || end - start > 3 {
        return None;
    }
    let r = ReferenceObject { filters: Some(name_filters(Span::new(start, end - 1))), text_span: Some(Span::new(start, end - 1)), ..ReferenceObject::default() };
    Some((Location { reference_object: Some(Box::new(r)), text_span: Some(Span::new(i, end - 1)), ..Location::default() }, end))
}

/// Read the words from `i` to the end as a tail; `None` when a word is left unaccounted for.
fn tail(w: &[String], mut i: usize) -> Option<Tail> {
    let lx = lexicon();
    let mut t = Tail::default();
    while i < w.len() {
        if let Some(n) = lx.phrase_at(Class::Delivery, w, i) {
            t.deliver = true;
            i += n;
        } else if let Some(n) = lx.phrase_at(Class::JobTail, w, i) {
            i += n;
        } else if lx.is(Class::GatherParticle, &w[i]) {
            // "cut that tree down".
            i += 1;
        } else if lx.is(Class::ToolLead, &w[i]) {
            // "using an axe", "with your iron pickaxe": the tool is creative mode's, said and done.
            let end = (i + 1..w.len()).find(|&k| names_tool(&w[i + 1..=k])).filter(|k| k - i <= 4)?;
            i = end + 1;
        } else if let Some((place, end)) = matches_place(w, i) {
            t.place = Some(place);
            i = end;
        } else if w[i] == "for" && let Some(end) = (i + 2..=w.len()).rev().find(|&e| crate::world::rules::recipes::craftable(&w[i + 1..e]).is_some() && super::giving::is_quantity(&w[i + 1])) {
            t.made_for = Some((i, end));
            i = end;
        } else {
            return None;
        }
    }
    Some(t)
}

fn rest_is_tail(w: &[String], from: usize) -> bool {
    tail(w, from).is_some_and(|t| t.place.is_none())
}

/// Do `words` name a tool ("your diamond pickaxe", "an axe")?
fn names_tool(words: &[String]) -> bool {
    let lx = lexicon();
    let kept: Vec<&String> = words.iter().filter(|w| !lx.is(Class::Possessive, w) && !lx.is(Class::You, w)).collect();
    crate::world::rules::item_id(&kept).is_some_and(|id| is_tool(&id))
}

/// Is `id` a tool (pickaxe, axe, shovel, hoe)?
fn is_tool(id: &str) -> bool {
    // lexicon: Minecraft item id endings (game knowledge), not words.
    ["_pickaxe", "_axe", "_shovel", "_hoe"].iter().any(|t| id.ends_with(t))
}

/// Where the verb of a job ends: politeness and "use the pickaxe to" before it are passed.
fn verb_at(w: &[String]) -> Option<(ActionType, usize, usize)> {
    let lx = lexicon();
    let mut i = 0;
    // "use a golden pickaxe to mine 5 cobblestone", "take the iron pickaxe and get 10 coal".
    if w.first().is_some_and(|x| lx.is(Class::ToolOpening, x))
        && let Some(k) = (1..w.len().min(6)).find(|&k| matches!(w[k].as_str(), "to" | "and"))
        && names_tool(&w[1..k])
    {
        i = k + 1;
    }
    let tooled = i > 0;
    // "go chop me some birch": the going is part of the job.
    if let Some(n) = lx.phrase_at(Class::GoToJob, w, i)
        && w.get(i + n).is_some_and(|v| v == "find" || matches!(lx.verb(v), Some(ActionType::Collect | ActionType::Plant | ActionType::Craft)))
    {
        i += n;
    }
    let verb = w.get(i)?;
    let action = match lx.verb(verb) {
        // "get 10 coal" (nothing said about whom for) is gathering it; "get me …" is giving,
        // unless a tool was taken for the job first ("take a pickaxe and get me 10 coal").
        Some(ActionType::Get) if lx.is(Class::GatheringGet, verb) && (tooled || w.get(i + 1).is_some_and(|x| !lx.is(Class::Me, x))) => ActionType::Collect,
        Some(ActionType::Dig) if w.get(i + 1).is_some_and(|x| lx.is(Class::GatherParticle, x)) => ActionType::Collect,
        Some(a @ (ActionType::Collect | ActionType::Plant | ActionType::Drop | ActionType::Put | ActionType::Craft)) => a,
        Some(ActionType::Build) if verb == "make" => ActionType::Craft,
        // lexicon: "find me" and "pick up" are read with their second word; the verbs are the
        // lexicon's `[step_verbs]`.
        // "find some diamonds": gathering them, when what follows is a resource (see `job`).
        _ if verb == "find" => ActionType::Collect,
        // "pick up the wheat": items lying about; "pick the wheat": harvest it.
        _ if verb == "pick" && w.get(i + 1).is_some_and(|x| x == "up") => ActionType::Get,
        _ if verb == "pick" => ActionType::Collect,
        _ => return None,
    };
    let mut end = i + 1;
    while w.get(end).is_some_and(|x| lx.is(Class::GatherParticle, x)) {
        end += 1;
    }
    Some((action, i, end))
}

/// The words of the things a job is about: counts first, then the names.
fn things(w: &[String], from: usize) -> Option<(Span, Span, usize)> {
    let lx = lexicon();
    let mut start = from;
    let mut all = None;
    loop {
        if let Some(n) = lx.phrase_at(Class::AllWords, w, start) {
            all = Some((start, n));
            start += n;
        } else if w.get(start).is_some_and(|x| is_quantity(x) || x == "at" && w.get(start + 1).is_some_and(|y| y == "least")) {
            start += if w[start] == "at" { 2 } else { 1 };
        } else {
            break;
        }
    }
    let end = tail_start(w, start);
    match all {
        // "everything", "all your stuff": the words are the thing.
        Some((at, n)) if end == start => Some((Span::new(at, at + n - 1), Span::new(from, at + n - 1), end)),
        _ => (end > start).then(|| (Span::new(start, end - 1), Span::new(from, end - 1), end)),
    }
}

/// Mining, chopping, harvesting, planting, dropping, crafting.
fn job(w: &[String]) -> Option<LogicalForm> {
    let lx = lexicon();
    let (action_type, verb, mut from) = verb_at(w)?;
    let deliver_verb = w.get(from).is_some_and(|x| lx.is(Class::Me, x));
    from += usize::from(deliver_verb);
    // "drop the brain coral block, exposed copper, and terracotta": one DROP an item; "get
    // some coal and cobblestone": one COLLECT a resource.
    if matches!(action_type, ActionType::Drop | ActionType::Collect) {
        let to = tail_start_after_lists(w, from);
        let resources = |list: &[(Span, Span)]| list.iter().all(|(name, _)| (name.start..=name.end).any(|k| lx.meaning(Group::Resource, &w[k]).is_some()));
        if let Some(list) = item_list(w, from, to).filter(|l| action_type == ActionType::Drop || resources(l))
            && let Some(tail) = tail(w, to)
        {
            let place = tail.place.map(|l| LocationArg::Location(Box::new(l)));
            let each = list.into_iter().map(|(name, said)| Action { reference_object: Some(named(name, said)), location: place.clone(), ..Action::new(action_type) });
            return Some(LogicalForm::command(each.collect()));
        }
    }
    let (name, said, end) = match things(w, from) {
        Some(t) => t,
        // "plant here": a field of wheat.
        None if action_type == ActionType::Plant => (Span::word(verb), Span::word(verb), from),
        None => return None,
    };
    let words = &w[name.start..=name.end];
    match action_type {
        ActionType::Collect if lx.meaning_at(Group::Resource, w, name.start).is_none() && !words.iter().any(|x| lx.meaning(Group::Resource, x).is_some()) => return None,
        // "make" is a build unless what follows is made by crafting ("make 3 bread").
        ActionType::Craft if crate::world::rules::recipes::craftable(words).is_none() || (w[verb] == "make" && crate::world::rules::item_id(words).is_none()) => return None,
        ActionType::Get if crate::world::rules::item_id(words).is_none() && !words.iter().all(|x| lx.is(Class::AllWords, x) || lx.is(Class::Article, x)) => return None,
        ActionType::Drop | ActionType::Put if crate::world::rules::item_id(words).is_none() && !words.iter().any(|x| lx.meaning(Group::Resource, x).is_some()) => return None,
        _ => {}
    }
    // "make planks out of your logs": what it is made from.
    let mut end = end;
    let mut source = None;
    if action_type == ActionType::Craft
        && let Some(n) = lx.phrase_at(Class::OutOfWord, w, end)
        && let Some((_, from_said, from_end)) = things(w, end + n)
    {
        source = Some(ReferenceObject { filters: Some(name_filters(from_said)), text_span: Some(from_said), ..ReferenceObject::default() });
        end = from_end;
    }
    let tail = tail(w, end)?;
    let deliver = deliver_verb || tail.deliver;
    // "harvest wheat for 2 bread": what it is for stays in the thing's words (its amount).
    let said = match tail.made_for {
        Some((from, to)) if from == end => Span::new(said.start, to - 1),
        _ => said,
    };
    let mut action = Action::new(action_type);
    action.location = tail.place.map(|l| LocationArg::Location(Box::new(l)));
    if action_type == ActionType::Plant {
        let filters = name_filters(name);
        action.schematic = Some(crate::logical_form::Schematic { filters: Some(filters), text_span: Some(said), ..Default::default() });
    } else {
        action.reference_object = Some(named(name, said));
    }
    if deliver && matches!(action_type, ActionType::Collect | ActionType::Craft) {
        action.receiver = Some(to_speaker());
    }
    action.source = source.map(|r| Endpoint { reference_object: Some(Box::new(r)), location: None });
    Some(LogicalForm::command(vec![action]))
}

/// A parsed action said with a job's verb ("chop down that tree" read as DESTROY, "plant seeds
/// here" as BUILD): the verb decides, the parser's arguments stay. Also a build of a field
/// ("make a 9 by 9 wheat farm") is planting it. Returns whether the action changed.
pub fn repair(action: &mut Action, tokens: &[String], step: std::ops::Range<usize>) -> bool {
    let lx = lexicon();
    let Some(verb) = tokens.get(step.start) else { return false };
    let by_verb = match lx.verb(verb) {
        Some(a @ (ActionType::Collect | ActionType::Plant | ActionType::Drop)) => Some(a),
        _ => None,
    };
    let farm = action.action_type == ActionType::Build
        && action.schematic.as_ref().and_then(|s| s.filters.as_ref()).is_some_and(|f| {
            f.triples().iter().filter(|t| t.pred_text == Predicate::HasName).filter_map(|t| t.obj_span()).any(|s| {
                let words = s.words(tokens);
                (0..words.len()).any(|i| lx.phrase_at(Class::FarmWord, words, i).is_some_and(|n| i + n == words.len()))
            })
        });
    match (by_verb, action.action_type) {
        (Some(ActionType::Collect), ActionType::Destroy | ActionType::OtherAction | ActionType::Dig | ActionType::Get) if action.reference_object.is_some() => {
            action.action_type = ActionType::Collect;
            action.schematic = None;
            true
        }
        // "drop it here", read as a GET whose receiver is the spot: a DROP there.
        (Some(ActionType::Drop), ActionType::Get | ActionType::OtherAction) if action.reference_object.is_some() => {
            action.action_type = ActionType::Drop;
            if let Some(spot) = action.receiver.take().and_then(|r| r.location) {
                action.set_location(*spot);
            }
            true
        }
        (Some(ActionType::Plant), ActionType::Build | ActionType::OtherAction) => {
            action.action_type = ActionType::Plant;
            true
        }
        (None, ActionType::Build) if farm => {
            action.action_type = ActionType::Plant;
            true
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kind(line: &str) -> Option<String> {
        let lf = read(line)?;
        Some(match lf.dialogue_type {
            DialogueType::GetMemory => "question".into(),
            _ => lf.actions()[0].action_type.as_str().to_string(),
        })
    }

    #[test]
    fn jobs_are_read_by_their_verbs_and_things() {
        let cases = [
            ("mine some diamonds for me", "COLLECT"),
            ("chop down that tree", "COLLECT"),
            ("harvest the wheat", "COLLECT"),
            ("mine the coal near me", "COLLECT"),
            ("use a golden pickaxe to mine 5 cobblestone", "COLLECT"),
            ("mine cobblestone starting from 1145 58 56", "COLLECT"),
            ("harvest oak logs using an axe", "COLLECT"),
            ("find me some diamonds", "COLLECT"),
            ("get at least 10 coal", "COLLECT"),
            ("plant seeds here", "PLANT"),
            ("drop 5 cobblestone in front of me", "DROP"),
            ("make 3 bread", "CRAFT"),
            ("craft 3 pieces of bread", "CRAFT"),
            ("put the oak logs in the chest in front of me", "PUT"),
            ("get the stained glass from the design chest", "GET"),
            ("bring me the iron pickaxe from storage", "GET"),
            ("pick up a pickaxe from the pickaxe chest", "GET"),
            ("what do you have", "question"),
            ("what 's in the design chest", "question"),
            ("turn the stripped oak logs into planks then into stairs", "CRAFT"),
            ("drop the brain coral block exposed copper and terracotta", "DROP"),
            ("craft stairs", "CRAFT"),
            ("use your axe to harvest at least 20 oak logs", "COLLECT"),
            ("take an iron pickaxe and get me at least 10 coal", "COLLECT"),
            ("harvest wheat for 2 bread", "COLLECT"),
            ("pick up all the harvested wheat", "GET"),
            ("go chop me some birch", "COLLECT"),
            ("cut that tree down for me", "COLLECT"),
            ("stash everything you got in that chest", "PUT"),
            ("grab everything out of the chest and give it to me", "GET"),
        ];
        for (line, want) in cases {
            assert_eq!(kind(line).as_deref(), Some(want), "{line}");
        }
        for line in ["mine is the red one", "make a tower", "make stairs", "put a cube there", "harvest the moon", "drop it like its hot", "get me 20 oak logs", "find the red tower", "turn around"] {
            assert_eq!(kind(line), None, "{line}");
        }
        let lf = read("mine some diamonds for me").unwrap();
        assert!(lf.actions()[0].receiver.is_some(), "for me: handed over");
        assert_eq!(read("turn the stripped oak logs into planks then into stairs").unwrap().actions().len(), 2);
        assert_eq!(read("drop the brain coral block exposed copper and terracotta").unwrap().actions().len(), 3);
        let lf = read("mine cobblestone starting from 1145 58 56").unwrap();
        assert!(lf.to_json_value().to_string().contains("coordinates_span"), "{}", lf.to_json_value());
    }
}
