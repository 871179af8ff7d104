//! Distances and directions from the speaker: "10 blocks north of me", "5 blocks to my right",
//! "4 blocks in front of me". Like a measure, the words say it all, so they are written into the
//! action's location (the speaker, the direction, the number of steps) rather than left to the
//! parser's guess. Compass words have no direction of their own in the form; the interpreter
//! reads them from the words.

use std::ops::Range;

use crate::lexicon::{Class, lexicon};
use crate::logical_form::{
    Action, ActionType, FixedReference, Location, ReferenceObject, RelativeDirection, Span, SpecialReference, SpecialReferenceObject, WhereItem,
};

/// The form's direction for a direction word: left, right, front and back in the lexicon's
/// `[relative]`; a compass word is FRONT, since the form has no compass (see above).
fn direction(w: &str) -> Option<RelativeDirection> {
    if lexicon().compass(w).is_some() {
        return Some(RelativeDirection::Front);
    }
    let d = lexicon().relative(w)?;
    matches!(d, RelativeDirection::Left | RelativeDirection::Right | RelativeDirection::Front | RelativeDirection::Back).then_some(d)
}

/// Units and small words between a number and its direction: "5 *blocks to my* right".
fn is_glue(w: &str) -> bool {
    lexicon().unit(w).is_some() || lexicon().is(Class::DirectionGlue, w)
}

/// What a distance is measured from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum From {
    /// The speaker, said ("of me", "from here") or not.
    Speaker,
    /// The bot: "4 blocks south of you".
    Agent,
    /// Another thing ("of the tower"): the parser's to read.
    Thing,
}

/// Finds "N (blocks) (to|in) (the|my) DIR (of me|of here|from me|of you)", "COMPASS N
/// (blocks)" or "(to the) COMPASS of me|you" in the step, ending the step or followed by nothing that names another thing;
/// returns the words and the form's parts.
fn find(tokens: &[String], step: Range<usize>) -> Option<(Range<usize>, Option<usize>, RelativeDirection, From)> {
    let end = step.end.min(tokens.len());
    for k in step.start..end {
        if tokens[k].parse::<i32>().map_or(true, |n| !(1..=1000).contains(&n)) {
            continue;
        }
        let mut j = k + 1;
        while j < end && is_glue(&tokens[j]) {
            j += 1;
        }
        let Some(dir) = tokens.get(j).filter(|_| j < end).and_then(|w| direction(w)) else { continue };
        let mut last = j;
        // "of me", "from here": the speaker; "of you": the bot; "of the tower": another thing.
        let mut from = From::Speaker;
        if matches!(tokens.get(j + 1).map(String::as_str), Some("of" | "from")) && j + 1 < end {
            match tokens.get(j + 2) {
                Some(w) if lexicon().is(Class::FromHere, w) => last = j + 2,
                Some(w) if lexicon().is(Class::You, w) && j + 2 < end => (last, from) = (j + 2, From::Agent),
                _ => return Some((k..j + 1, Some(k), dir, From::Thing)),
            }
        }
        return Some((k..last + 1, Some(k), dir, from));
    }
    // "walk east 20", "go northwest 40 blocks": the direction first, then the number.
    for k in step.start..end.saturating_sub(1) {
        let Some(dir) = lexicon().compass(&tokens[k]).and_then(|_| direction(&tokens[k])) else { continue };
        if tokens[k + 1].parse::<i32>().map_or(true, |n| !(1..=1000).contains(&n)) {
            continue;
        }
        let last = if tokens.get(k + 2).is_some_and(|w| k + 2 < end && lexicon().unit(w).is_some()) { k + 2 } else { k + 1 };
        return Some((k..last + 1, Some(k + 1), dir, From::Speaker));
    }
    // "to the north of me", "east of you": a compass word and whom it is from, no distance (the
    // interpreter keeps a couple of blocks clear).
    for k in step.start..end {
        let from = match tokens.get(k + 2).filter(|_| k + 2 < end && matches!(tokens[k + 1].as_str(), "of" | "from")) {
            Some(w) if lexicon().is(Class::FromHere, w) => From::Speaker,
            Some(w) if lexicon().is(Class::You, w) => From::Agent,
            _ => continue,
        };
        let Some(dir) = lexicon().compass(&tokens[k]).and_then(|_| direction(&tokens[k])) else { continue };
        let mut first = k;
        while first > step.start && is_glue(&tokens[first - 1]) && lexicon().unit(&tokens[first - 1]).is_none() {
            first -= 1;
        }
        return Some((first..k + 3, None, dir, from));
    }
    None
}

/// Writes a distance from the speaker said in `step` into the action's location. Returns the
/// words it covers (empty when the step says none, or names another thing to measure from).
pub fn repair(action: &mut Action, tokens: &[String], step: Range<usize>) -> Vec<usize> {
    use ActionType::{Build, Dig, Fill, Move, Spawn};
    let kind = action.action_type;
    if !matches!(kind, Build | Dig | Spawn | Move | Fill) {
        return Vec::new();
    }
    let named = action.location_object().and_then(|l| l.reference_object.as_ref()).is_some_and(|r| r.filters.is_some());
    let Some((words, number, dir, from)) = find(tokens, step.clone()) else { return Vec::new() };
    let of_thing = from == From::Thing;
    // "a small cube 6 blocks north of the tower" where the parser wrote no place at all (it read
    // the words as a tag of the cube), or a place that names no thing ("… 5 blocks south of it"
    // read as behind the bot): the thing after "of" is written from the words.
    let mut reach = words.end;
    let named = named
        || of_thing && {
            let thing = thing_after(tokens, words.end + 1, step.end.min(tokens.len()));
            thing.map(|(r, end)| {
                reach = end;
                action.set_location(Location { reference_object: Some(Box::new(r)), ..Location::default() });
            })
            .is_some()
        };
    // The distance is no measure of the thing built ("a cube 5 blocks north": not 5 high).
    if named == of_thing
        && let Some(schematic) = action.schematic.as_mut()
    {
        let items = schematic.and_items();
        let inside = |s: Span| s.start >= words.start && s.end < reach;
        // A triple running into the distance ends before it: "a *pumpkin* 3 blocks east of …".
        let cut = |i: &WhereItem| match i {
            WhereItem::Triple(t) if t.obj_span().is_some_and(|s| s.start < words.start && s.end >= words.start) => {
                let span = t.obj_span().map(|s| Span::new(s.start, words.start - 1));
                WhereItem::Triple(crate::logical_form::Triple { obj_text: span.map(crate::logical_form::TextValue::Span), ..t.clone() })
            }
            other => other.clone(),
        };
        let kept: Vec<WhereItem> =
            items.iter().filter(|i| !matches!(i, WhereItem::Triple(t) if t.obj_span().is_some_and(inside))).map(cut).collect();
        if kept != items {
            schematic.set_and_items(kept);
        }
        // Nor is it part of the thing's words ("a diamond block 3 blocks to my right").
        if let Some(span) = schematic.text_span.filter(|s| s.start < words.start && s.end >= words.start) {
            schematic.text_span = Some(Span::new(span.start, words.start - 1));
        }
    }
    // "5 blocks north of the red cube": the thing is the parser's to read, the distance and the
    // direction are the words'.
    if named && of_thing {
        if let Some(loc) = action.location_mut() {
            loc.relative_direction = Some(dir);
            loc.steps = number.map(Span::word);
            // The place's words, the compass word among them, when they were read here.
            loc.text_span = loc.text_span.or(Some(Span::new(words.start, reach - 1)));
        }
        return (words.start..reach).collect();
    }
    // Otherwise a location naming a thing ("next to the tower") is the parser's to read.
    if named || of_thing {
        return Vec::new();
    }
    // A walk goes from where the bot stands, and its "forward" is the bot's own: only compass
    // words, which need no frame, are read here for moves.
    let compass = words.clone().any(|k| lexicon().compass(&tokens[k]).is_some());
    if kind == Move && !compass {
        return Vec::new();
    }
    // "walk 200 blocks south *of me*": said from the speaker, even for a walk.
    let of_speaker = words.end > words.start + 1 && lexicon().is(Class::Me, &tokens[words.end - 1]);
    let from = if from == From::Agent || kind == Move && !of_speaker { FixedReference::Agent } else { FixedReference::Speaker };
    let special = SpecialReferenceObject { fixed_value: Some(from), coordinates_span: None };
    action.set_location(Location {
        reference_object: Some(Box::new(ReferenceObject { special_reference: Some(SpecialReference::Object(special)), ..ReferenceObject::default() })),
        relative_direction: Some(dir),
        steps: number.map(Span::word),
        text_span: Some(Span::new(words.start, words.end - 1)),
        ..Location::default()
    });
    words.collect()
}

/// The thing named from `start` to `end` ("the tower", "the red cube", "bob"), less its article
/// and a closing ("please"): a name (its last word) and the colours before it. Returns the
/// reference and where its words end.
pub(super) fn thing_after(tokens: &[String], start: usize, end: usize) -> Option<(ReferenceObject, usize)> {
    use crate::logical_form::{Predicate, Triple, WhereClause};
    let lx = lexicon();
    let mut first = start;
    while first < end && (lx.is(Class::Article, &tokens[first]) || lx.is(Class::Determiner, &tokens[first])) {
        first += 1;
    }
    let mut last = end;
    while last > first && (lx.is(Class::Politeness, &tokens[last - 1]) || lx.is(Class::Closing, &tokens[last - 1])) {
        last -= 1;
    }
    // "… south of it": the thing talked about.
    if last == first + 1 && lx.is(Class::Pointing, &tokens[first]) {
        let filters = crate::logical_form::Filters { contains_coreference: Some(crate::logical_form::Coreference::Yes), ..Default::default() };
        return Some((ReferenceObject { filters: Some(filters), text_span: Some(Span::word(first)), ..ReferenceObject::default() }, last));
    }
    // One name and at most two words describing it: more is a sentence, the parser's to read.
    if last <= first || last - first > 3 || !tokens[first..last - 1].iter().all(|w| lx.describes(w)) {
        return None;
    }
    let mut items = vec![WhereItem::Triple(Triple::new(Predicate::HasName, Span::word(last - 1)))];
    items.extend((first..last - 1).filter(|&k| lx.colour(&tokens[k]).is_some()).map(|k| WhereItem::Triple(Triple::new(Predicate::HasColour, Span::word(k)))));
    let filters = crate::logical_form::Filters { where_clause: Some(WhereClause::And(items)), ..Default::default() };
    Some((ReferenceObject { filters: Some(filters), text_span: Some(Span::new(first, last - 1)), ..ReferenceObject::default() }, last))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{Value, json};

    fn act(v: Value) -> Action {
        serde_json::from_value(v).expect("an action")
    }

    fn val(a: &Action) -> Value {
        serde_json::to_value(a).expect("json")
    }
    use crate::logical_form::tokenize;

    #[test]
    fn a_thing_the_parser_left_out_is_read_after_of() {
        // The parser read "6 blocks north of the tower" as a tag of the cube, and no place.
        let t = tokenize("build a small cube 6 blocks north of the red tower please");
        let cube = json!({"where_clause": {"AND": [{"pred_text": "has_name", "obj_text": [0, [3, 3]]}, {"pred_text": "has_tag", "obj_text": [0, [4, 10]]}]}});
        let mut a = act(json!({"action_type": "BUILD", "schematic": {"filters": cube, "text_span": [0, [2, 10]]}}));
        assert_eq!(repair(&mut a, &t, 0..t.len()), (4..11).collect::<Vec<_>>());
        let v = val(&a);
        assert_eq!(v["location"]["relative_direction"], json!("FRONT"));
        assert_eq!(v["location"]["steps"], json!([0, [4, 4]]));
        assert_eq!(v["location"]["reference_object"]["filters"]["where_clause"]["AND"][0], json!({"pred_text": "has_name", "obj_text": [0, [10, 10]]}));
        assert_eq!(v["location"]["reference_object"]["filters"]["where_clause"]["AND"][1], json!({"pred_text": "has_colour", "obj_text": [0, [9, 9]]}));
        assert_eq!(v["schematic"]["filters"]["where_clause"]["AND"].as_array().map(Vec::len), Some(1));
        assert_eq!(v["schematic"]["text_span"], json!([0, [2, 3]]));
        // More than a name and two describing words is the parser's to read.
        let t = tokenize("build a cube 6 blocks north of the tower that bob built yesterday");
        let mut a = act(json!({"action_type": "BUILD", "schematic": {}}));
        assert!(repair(&mut a, &t, 0..t.len()).is_empty());
    }

    #[test]
    fn distances_from_the_speaker_become_the_location() {
        let t = tokenize("build a tower 10 blocks north of me");
        let mut a = act(json!({"action_type": "BUILD", "schematic": {}}));
        assert_eq!(repair(&mut a, &t, 0..t.len()), vec![3, 4, 5, 6, 7]);
        assert_eq!(val(&a)["location"]["steps"], json!([0, [3, 3]]));
        let t = tokenize("dig a hole 5 blocks to my right");
        let mut a = act(json!({"action_type": "DIG", "schematic": {}}));
        assert!(!repair(&mut a, &t, 0..t.len()).is_empty());
        assert_eq!(val(&a)["location"]["relative_direction"], json!("RIGHT"));
        // A walk forward is the bot's own forward: left to the parser.
        let t = tokenize("walk 3 steps forward");
        let mut a = act(json!({"action_type": "MOVE"}));
        assert!(repair(&mut a, &t, 0..t.len()).is_empty());
        let t = tokenize("go 10 blocks north");
        assert!(!repair(&mut a, &t, 0..t.len()).is_empty());
        assert_eq!(val(&a)["location"]["reference_object"]["special_reference"]["fixed_value"], json!("AGENT"));
        // The compass word first: "walk east 20".
        let t = tokenize("walk east 20");
        let mut a = act(json!({"action_type": "MOVE", "location": {"relative_direction": "RIGHT"}}));
        assert_eq!(repair(&mut a, &t, 0..t.len()), vec![1, 2]);
        assert_eq!(val(&a)["location"]["steps"], json!([0, [2, 2]]));
        assert_eq!(val(&a)["location"]["relative_direction"], json!("FRONT"));
        // "… of me": from the speaker, a walk too.
        let t = tokenize("walk 200 blocks south of me");
        let mut a = act(json!({"action_type": "MOVE"}));
        assert!(!repair(&mut a, &t, 0..t.len()).is_empty());
        assert_eq!(val(&a)["location"]["reference_object"]["special_reference"]["fixed_value"], json!("SPEAKER"));
        // The thing's words end before the distance.
        let t = tokenize("put a diamond block 3 blocks to my right");
        let mut a = act(json!({"action_type": "BUILD", "schematic": {"text_span": [0, [2, 5]]}}));
        assert!(!repair(&mut a, &t, 0..t.len()).is_empty());
        assert_eq!(val(&a)["schematic"]["text_span"], json!([0, [2, 3]]));
        // "… of you": from the bot, whatever the parser said.
        let t = tokenize("dig a hole 4 blocks south of you");
        let mut a = act(json!({"action_type": "DIG", "location": {"reference_object": {"special_reference": {"fixed_value": "SPEAKER"}}}}));
        assert_eq!(repair(&mut a, &t, 0..t.len()), vec![3, 4, 5, 6, 7]);
        assert_eq!(val(&a)["location"]["reference_object"]["special_reference"]["fixed_value"], json!("AGENT"));
        // From a thing the parser found: the distance and the direction are written in.
        let t = tokenize("build a green cube 5 blocks north of the red cube");
        let mut a = act(json!({"action_type": "BUILD", "location": {"relative_direction": "UP",
            "reference_object": {"filters": {"where_clause": {"AND": [{"pred_text": "has_name", "obj_text": [0, [10, 10]]}]}}}}}));
        assert_eq!(repair(&mut a, &t, 0..t.len()), vec![4, 5, 6]);
        assert_eq!((val(&a)["location"]["relative_direction"].clone(), val(&a)["location"]["steps"].clone()), (json!("FRONT"), json!([0, [4, 4]])));
        // No direction at all: left alone. (A thing the parser missed is read from the words:
        // `a_thing_the_parser_left_out_is_read_after_of`.)
        let t = tokenize("build a wall 5 blocks long");
        let mut a = act(json!({"action_type": "BUILD", "schematic": {}}));
        assert!(repair(&mut a, &t, 0..t.len()).is_empty());
    }
}
