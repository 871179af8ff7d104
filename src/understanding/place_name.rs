//! "build a simple house with a roof at build_spot": a place the player named, said after "at" at
//! the end of a step, is where the action happens. The parser has seen few names of places and
//! none with an underscore: it reads such a name as coordinates (with no numbers in them) or
//! folds it into the thing's words and leaves the action without a place, so the bot would build
//! in front of the player, far from the spot. When the parse has no place, or coordinates made
//! of words, this rule writes the words after "at" in as a named thing to go to; the thing's own
//! words end before "at". A name the bot does not know is then asked about, not guessed.

use std::ops::Range;

use crate::lexicon::{Class, lexicon};
use crate::logical_form::{
    Action, ActionType, Filters, Location, Predicate, ReferenceObject, ReferenceObjectArg, Span, SpecialReference, Triple, WhereClause,
    WhereItem,
};

/// At most this many words make a place's name ("the old mine entrance").
const MAX_NAME_WORDS: usize = 3;

/// Writes "at NAME" at the end of the step into the action's location when the form lost it or
/// read it as coordinates. Returns whether the form changed.
pub fn repair(action: &mut Action, tokens: &[String], step: Range<usize>) -> bool {
    if !matches!(action.action_type, ActionType::Build | ActionType::Move | ActionType::Dig | ActionType::Spawn | ActionType::Fill) {
        return false;
    }
    let lx = lexicon();
    let end = step.end.min(tokens.len());
    // "at" before a name, as before three numbers in `coordinates.rs`: the one preposition of
    // a spot ("near", "by" and the like are relations, read elsewhere).
    let Some(at) = (step.start..end).rev().find(|&k| tokens[k] == "at") else {
        return false;
    };
    let first = at + 1 + usize::from(tokens.get(at + 1).is_some_and(|w| lx.is(Class::Article, w)));
    let name = &tokens[first.min(end)..end];
    // Only a name: no number, nothing pointing or relative ("at me", "at that spot", "at the
    // top of it"), no word the lexicon gives another meaning.
    let plain = |w: &String| {
        w.parse::<f64>().is_err()
            && !lx.is(Class::Pointing, w)
            && !lx.is(Class::Me, w)
            && !lx.is(Class::You, w)
            && !lx.is(Class::Possessive, w)
            && !lx.is(Class::Article, w)
    };
    if name.is_empty() || name.len() > MAX_NAME_WORDS || !name.iter().all(plain) {
        return false;
    }
    if !lost_place(action, tokens) {
        return false;
    }
    let span = Span::new(first, end - 1);
    let mut cut = action.clone();
    if !ends_things_before(&mut cut, at) {
        return false;
    }
    *action = cut;
    let clause = WhereClause::And(vec![WhereItem::Triple(Triple::new(Predicate::HasName, span))]);
    let named = ReferenceObject { filters: Some(Filters { where_clause: Some(clause), ..Filters::default() }), text_span: Some(span), ..ReferenceObject::default() };
    action.set_location(Location { reference_object: Some(Box::new(named)), text_span: Some(Span::new(at, end - 1)), ..Location::default() });
    true
}

/// The form has no place, or coordinates with no number in their words.
fn lost_place(action: &Action, tokens: &[String]) -> bool {
    let Some(location) = action.location.as_ref().and_then(|l| l.as_location()) else { return true };
    let Some(r) = location.reference_object.as_deref() else { return location.relative_direction.is_none() && location.text_span.is_none() };
    match &r.special_reference {
        Some(SpecialReference::Object(o)) => o.coordinates_span.is_some_and(|s| tokens[s.range()].iter().all(|w| w.parse::<f64>().is_err())),
        _ => false,
    }
}

/// The thing's words (schematic or reference object) cut to end before `at`; false when the
/// thing's name itself lies after it.
fn ends_things_before(action: &mut Action, at: usize) -> bool {
    let cut = |span: &mut Option<Span>| match span {
        Some(s) if s.start >= at => false,
        Some(s) if s.end >= at => {
            *s = Span::new(s.start, at - 1);
            true
        }
        _ => true,
    };
    let triples_before = |f: &Option<Filters>| f.as_ref().is_none_or(|f| f.triples().iter().all(|t| t.obj_span().is_none_or(|s| s.end < at)));
    if let Some(s) = action.schematic.as_mut() {
        if !triples_before(&s.filters) || !cut(&mut s.text_span) {
            return false;
        }
    }
    match action.reference_object.as_mut() {
        Some(ReferenceObjectArg::Object(r)) => {
            if !triples_before(&r.filters) || !cut(&mut r.text_span) {
                return false;
            }
        }
        Some(ReferenceObjectArg::Span(s)) if s.end >= at => return false,
        _ => {}
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::logical_form::LogicalForm;

    fn tokens(s: &str) -> Vec<String> {
        s.split(' ').map(String::from).collect()
    }

    fn build(json: &str) -> Action {
        let lf: LogicalForm = serde_json::from_str(json).unwrap();
        lf.action_sequence.unwrap().remove(0)
    }

    #[test]
    fn a_name_after_at_is_the_place_when_the_parse_lost_it() {
        let t = tokens("build a simple house with a roof at build_spot");
        // The parse folds "at build_spot" into the house's words.
        let mut a = build(
            r#"{"dialogue_type":"HUMAN_GIVE_COMMAND","action_sequence":[{"action_type":"BUILD","schematic":{"text_span":[0,[2,8]],"filters":{"where_clause":{"AND":[{"pred_text":"has_name","obj_text":[0,[3,3]]}]}}}}]}"#,
        );
        assert!(repair(&mut a, &t, 0..t.len()));
        let json = serde_json::to_string(&a).unwrap();
        assert!(json.contains(r#""text_span":[0,[2,6]]"#), "the house's words end before 'at': {json}");
        assert!(json.contains(r#""obj_text":[0,[8,8]]"#), "build_spot is a named place: {json}");

        // Read as coordinates made of a word.
        let t = tokens("build a house at bob");
        let mut a = build(
            r#"{"dialogue_type":"HUMAN_GIVE_COMMAND","action_sequence":[{"action_type":"BUILD","location":{"reference_object":{"special_reference":{"coordinates_span":[0,[4,4]]}}},"schematic":{"text_span":[0,[2,2]]}}]}"#,
        );
        assert!(repair(&mut a, &t, 0..t.len()));
        assert!(serde_json::to_string(&a).unwrap().contains(r#""obj_text":[0,[4,4]]"#));
    }

    #[test]
    fn numbers_pointing_and_places_already_read_stay() {
        let coords = r#"{"dialogue_type":"HUMAN_GIVE_COMMAND","action_sequence":[{"action_type":"BUILD","location":{"reference_object":{"special_reference":{"coordinates_span":[0,[4,6]]}}},"schematic":{"text_span":[0,[2,2]]}}]}"#;
        let t = tokens("build a house at 1 2 3");
        assert!(!repair(&mut build(coords), &t, 0..t.len()));
        let bare = r#"{"dialogue_type":"HUMAN_GIVE_COMMAND","action_sequence":[{"action_type":"BUILD","schematic":{"text_span":[0,[2,2]]}}]}"#;
        for line in ["build a house at me", "build a house at that spot", "build a house at the top of the big red hill"] {
            let t = tokens(line);
            assert!(!repair(&mut build(bare), &t, 0..t.len()), "{line}");
        }
        let named = r#"{"dialogue_type":"HUMAN_GIVE_COMMAND","action_sequence":[{"action_type":"BUILD","location":{"reference_object":{"filters":{"where_clause":{"AND":[{"pred_text":"has_name","obj_text":[0,[5,5]]}]}}}},"schematic":{"text_span":[0,[2,2]]}}]}"#;
        let t = tokens("build a tower at the mine");
        assert!(!repair(&mut build(named), &t, 0..t.len()), "the parser read it already");
    }
}
