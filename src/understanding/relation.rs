//! Relations to a thing: "on top of the house", "next to the red cube", "between the two
//! towers", "inside the glass box", "behind the tower". The words name the relation plainly, so
//! when the parser found the thing, the relation it wrote is replaced by the one the words say,
//! and its own guess about the relation no longer counts against its confidence (the thing it
//! found still does).

use std::ops::Range;

use crate::lexicon::{Class, lexicon};
use crate::logical_form::{
    Action, ActionType, FixedReference, ReferenceObject, RelativeDirection, Span, SpecialReference, SpecialReferenceObject, Spans, TextValue, WhereClause,
    WhereItem, covered,
};

/// The relation said in `step`, with its words: the first phrase of the lexicon's `[relations]`
/// found (the longest at its place: "on the top of" before "on").
fn said(tokens: &[String], step: Range<usize>) -> Option<(Range<usize>, RelativeDirection)> {
    let end = step.end.min(tokens.len());
    (step.start..end).find_map(|k| {
        let (dir, n) = lexicon().relation_at(&tokens[..end], k)?;
        Some((k..k + n, dir))
    })
}

/// Writes the relation the words say into the action's location when the parser found the
/// thing(s) it relates to. Returns whether it did.
pub fn repair(action: &mut Action, tokens: &[String], step: Range<usize>) -> bool {
    use ActionType::{Build, Dig, Fill, Move, Spawn};
    let kind = action.action_type;
    if !matches!(kind, Build | Move | Dig | Spawn | Fill) {
        return false;
    }
    // A build the parser gave nothing to build, or a thing "found" by a pronoun's word ("on top
    // of it" read as a thing named "it"), is a parse gone wrong: its confidence stays as it is.
    if kind == Build && action.schematic.is_none() {
        return false;
    }
    let Some((words, dir)) = said(tokens, step).or_else(|| right_before_the_thing(action, tokens)) else { return false };
    let spans = action.location.as_ref().map(|l| covered(l, Spans::Pointed)).unwrap_or_default();
    if spans.iter().any(|&k| tokens.get(k).is_some_and(|w| lexicon().is(Class::Pointing, w))) {
        return false;
    }
    let Some(loc) = action.location_mut() else { return false };
    if dir == RelativeDirection::Between
        && let Some((a, b)) = two_people(tokens, words.end).or_else(|| person_and_thing(loc, tokens, words.end))
    {
        loc.reference_object = None;
        (loc.reference_object_1, loc.reference_object_2) = (Some(Box::new(a)), Some(Box::new(b)));
    }
    let found = if dir == RelativeDirection::Between {
        loc.reference_object_1.is_some() && loc.reference_object_2.is_some()
    } else {
        loc.reference_object.as_ref().is_some_and(|r| r.filters.is_some())
    };
    if !found {
        return false;
    }
    loc.relative_direction = Some(dir);
    if let Some(thing) = loc.reference_object.as_deref_mut() {
        names_without(thing, &words, tokens);
    }
    true
}

/// "put a glass block *on* the tallest tower": a short relation word ("on", "in") right before
/// the thing the parser found (and its article) relates to that thing, when the parser wrote
/// that relation or none.
fn right_before_the_thing(action: &Action, tokens: &[String]) -> Option<(Range<usize>, RelativeDirection)> {
    let loc = action.location.as_ref()?.as_location()?;
    let lx = lexicon();
    let thing = loc.reference_object.as_ref()?;
    // The thing's words: its span, else its first triple's ("on the stone cube").
    let first = thing.filters.iter().flat_map(|f| f.triples()).filter_map(|t| t.obj_span()).map(|s| s.start).min();
    let mut k = thing.text_span.map(|s| s.start).or(first)?;
    while k > 0 && tokens.get(k - 1).is_some_and(|w| lx.is(Class::Article, w) || lx.is(Class::Determiner, w) || lx.is(Class::Possessive, w)) {
        k -= 1;
    }
    let (dir, n) = lx.pointing_relation_at(tokens, k.checked_sub(1)?)?;
    // Said as the parser wrote it, or written by no one.
    (n == 1 && loc.relative_direction.is_none_or(|d| d == dir)).then_some((k - 1..k, dir))
}

/// The speaker ("me") or the bot ("you") a word names.
fn person(w: Option<&String>) -> Option<FixedReference> {
    let (lx, w) = (lexicon(), w?);
    if lx.is(Class::Me, w) {
        Some(FixedReference::Speaker)
    } else if lx.is(Class::You, w) {
        Some(FixedReference::Agent)
    } else {
        None
    }
}

fn special(f: FixedReference) -> ReferenceObject {
    ReferenceObject {
        special_reference: Some(SpecialReference::Object(SpecialReferenceObject { fixed_value: Some(f), coordinates_span: None })),
        ..ReferenceObject::default()
    }
}

/// "between me and you", "between you and me": the speaker and the bot, which the parser
/// rarely writes as the two ends (it saw such lines seldom).
fn two_people(tokens: &[String], k: usize) -> Option<(ReferenceObject, ReferenceObject)> {
    let (a, b) = (person(tokens.get(k))?, person(tokens.get(k + 2))?);
    if a == b || tokens.get(k + 1).map(String::as_str) != Some("and") {
        return None;
    }
    Some((special(a), special(b)))
}

/// "between me and the tower", "between the tower and you": one end a person, the other the
/// thing the parser found on the other side of the "and" (it often writes that thing as both
/// ends).
fn person_and_thing(loc: &crate::logical_form::Location, tokens: &[String], k: usize) -> Option<(ReferenceObject, ReferenceObject)> {
    let and = (k..tokens.len()).find(|&j| tokens[j] == "and")?;
    let start = |r: &ReferenceObject| r.text_span.map(|s| s.start).or_else(|| r.filters.iter().flat_map(|f| f.triples()).filter_map(|t| t.obj_span()).map(|s| s.start).min());
    let found = [&loc.reference_object_1, &loc.reference_object_2, &loc.reference_object];
    let thing = |inside: Range<usize>| found.iter().filter_map(|r| r.as_deref()).find(|r| start(r).is_some_and(|s| inside.contains(&s))).cloned();
    match (person(tokens.get(k)), person(tokens.get(and + 1))) {
        (Some(p), None) if and == k + 1 => Some((special(p), thing(and + 1..tokens.len())?)),
        (None, Some(p)) if and + 2 == tokens.len() => Some((thing(k..and)?, special(p))),
        _ => None,
    }
}

/// The relation's words are never part of the thing's name: "on top of the red tower" read as
/// a thing named "top of the red tower" is the red tower. A name (and the thing's span) that
/// starts inside the relation starts after it and its article.
fn names_without(thing: &mut ReferenceObject, relation: &Range<usize>, tokens: &[String]) {
    let mut start = relation.end;
    while tokens.get(start).is_some_and(|w| lexicon().is(Class::Article, w) || lexicon().is(Class::Determiner, w)) {
        start += 1;
    }
    let moved = |s: Span| if relation.contains(&s.start) && start <= s.end { Span::new(start, s.end) } else { s };
    if let Some(span) = thing.text_span {
        thing.text_span = Some(moved(span));
    }
    let Some(WhereClause::And(items)) = thing.filters.as_mut().and_then(|f| f.where_clause.as_mut()) else { return };
    for item in items {
        if let WhereItem::Triple(t) = item
            && let Some(TextValue::Span(span)) = t.obj_text.as_mut()
        {
            *span = moved(*span);
        }
    }
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

    fn thing() -> Value {
        json!({"reference_object": {"filters": {"where_clause": {"AND": [{"pred_text": "has_name", "obj_text": [0, [8, 9]]}]}}}})
    }

    #[test]
    fn between_me_and_you_is_between_the_speaker_and_the_bot() {
        let t = tokenize("put a torch between me and you");
        let near_me = json!({"relative_direction": "NEAR", "reference_object": {"special_reference": {"fixed_value": "SPEAKER"}}});
        let mut a = act(json!({"action_type": "BUILD", "schematic": {}, "location": near_me}));
        assert!(repair(&mut a, &t, 0..t.len()));
        let loc = &val(&a)["location"];
        assert_eq!(loc["relative_direction"], json!("BETWEEN"));
        assert_eq!(loc["reference_object_1"]["special_reference"]["fixed_value"], json!("SPEAKER"));
        assert_eq!(loc["reference_object_2"]["special_reference"]["fixed_value"], json!("AGENT"));
        assert!(two_people(&tokenize("between me and me"), 1).is_none());
        // One end a person, the other the thing the parser wrote (here as both ends).
        let t = tokenize("build a wall between me and the tower");
        let mut a = act(json!({"action_type": "BUILD", "schematic": {"filters": {"where_clause": {"AND": [{"pred_text": "has_name", "obj_text": [0, [2, 2]]}]}}},
            "location": {"relative_direction": "BETWEEN", "text_span": [0, [3, 7]],
            "reference_object_1": {"filters": {"where_clause": {"AND": [{"pred_text": "has_name", "obj_text": [0, [7, 7]]}]}}},
            "reference_object_2": {"filters": {"where_clause": {"AND": [{"pred_text": "has_name", "obj_text": [0, [7, 7]]}]}}}}}));
        assert!(repair(&mut a, &t, 0..t.len()));
        let loc = serde_json::to_value(&a).unwrap()["location"].clone();
        assert_eq!(loc["reference_object_1"]["special_reference"]["fixed_value"], json!("SPEAKER"), "{loc}");
        assert_eq!(loc["reference_object_2"]["filters"]["where_clause"]["AND"][0]["obj_text"], json!([0, [7, 7]]), "{loc}");
    }

    #[test]
    fn the_words_say_the_relation_when_the_thing_was_found() {
        let t = tokenize("put a red cube on top of the stone tower");
        let mut a = act(json!({"action_type": "BUILD", "schematic": {}, "location": thing()}));
        assert!(repair(&mut a, &t, 0..t.len()));
        assert_eq!(val(&a)["location"]["relative_direction"], json!("UP"));
        let t = tokenize("build a yellow cube next to the red cube");
        let mut a = act(json!({"action_type": "BUILD", "schematic": {}, "location": {"relative_direction": "LEFT", "reference_object": thing()["reference_object"]}}));
        assert!(repair(&mut a, &t, 0..t.len()));
        assert_eq!(val(&a)["location"]["relative_direction"], json!("NEAR"));
        // The relation read as part of the name: the name is the thing's own words.
        let t = tokenize("build a white sphere on top of the red tower");
        let named = json!({"reference_object": {"text_span": [0, [5, 9]], "filters": {"where_clause": {"AND": [{"pred_text": "has_name", "obj_text": [0, [5, 9]]}]}}}});
        let mut a = act(json!({"action_type": "BUILD", "schematic": {}, "location": named}));
        assert!(repair(&mut a, &t, 0..t.len()));
        assert_eq!(val(&a)["location"]["reference_object"]["filters"]["where_clause"]["AND"][0]["obj_text"], json!([0, [8, 9]]));
        assert_eq!(val(&a)["location"]["reference_object"]["text_span"], json!([0, [8, 9]]));
        // A thing "named" by a pronoun, or a build with nothing to build: left as it is.
        let t = tokenize("put a small glass dome on top of it");
        let it = json!({"reference_object": {"filters": {"where_clause": {"AND": [{"pred_text": "has_name", "obj_text": [0, [8, 8]]}]}}}});
        let mut a = act(json!({"action_type": "BUILD", "schematic": {}, "location": it.clone()}));
        assert!(!repair(&mut a, &t, 0..t.len()));
        let mut a = act(json!({"action_type": "BUILD", "location": thing()}));
        assert!(!repair(&mut a, &t, 0..t.len()));
        let t = tokenize("build a yellow cube next to the red cube");
        // No thing found, or nothing said: left to the parser.
        let mut a = act(json!({"action_type": "BUILD", "schematic": {}, "location": {"reference_object": {"special_reference": {"fixed_value": "SPEAKER"}}}}));
        assert!(!repair(&mut a, &t, 0..t.len()));
        let t = tokenize("build a red cube here");
        let mut a = act(json!({"action_type": "BUILD", "schematic": {}, "location": thing()}));
        assert!(!repair(&mut a, &t, 0..t.len()));
    }
}
