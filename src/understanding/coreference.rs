//! Relations to a thing named only by a pointing word: "on top of it", "next to that", "go
//! over to it", "go inside it", "in its place", "where it stood". In a line of several steps the
//! thing is what the step before made or acted on; alone, what the player looks at. The words say
//! all there is to say, so the location is written from them: the relation to a coreference, or
//! (for "in its place") the coreference's spot. The interpreter resolves the coreference when the
//! step starts (`interpreter::reference`), and the parser's own guess about this location no longer
//! counts against its confidence.

use std::ops::Range;

use crate::lexicon::{Class, lexicon};
use crate::logical_form::{Action, ActionType, Coreference, Filters, Location, ReferenceObject, Span};

/// Writes the location a pointing relation in `step` says into the action. Returns whether it did.
fn repair(action: &mut Action, tokens: &[String], step: Range<usize>) -> bool {
    use ActionType::{Build, Dig, Move, Spawn};
    let kind = action.action_type;
    if !matches!(kind, Build | Move | Dig | Spawn) {
        return false;
    }
    let lx = lexicon();
    let end = step.end.min(tokens.len());
    let words = &tokens[..end];
    for k in step.start..end {
        // "in its place", "where it stood": the spot.
        if let Some(n) = lx.phrase_at(Class::InItsPlace, words, k) {
            action.set_location(Location {
                contains_coreference: Some(Coreference::Yes),
                text_span: Some(Span::new(k, k + n - 1)),
                ..Location::default()
            });
            return true;
        }
        // "on top of it", "next to that", "on it", "in it": the relation to the thing.
        let relation = lx.pointing_relation_at(words, k);
        let after = match relation {
            Some((_, n)) => k + n,
            // "go over to it": a walk to the thing.
            None if kind == Move && goes_to(words, k) => k + 1,
            None => continue,
        };
        // "stick a glass cube on top": the relation said last, with no thing, is to the one
        // just named.
        let implicit = relation.is_some() && after == end && after > k;
        let Some(pointing) = pointing_at(words, after).or(implicit.then_some(after - 1)) else { continue };
        let thing = ReferenceObject {
            filters: Some(Filters { contains_coreference: Some(Coreference::Yes), ..Filters::default() }),
            text_span: (!implicit).then_some(Span::word(pointing)),
            ..ReferenceObject::default()
        };
        action.set_location(Location {
            reference_object: Some(Box::new(thing)),
            text_span: Some(Span::new(k, pointing)),
            relative_direction: relation.map(|(dir, _)| dir),
            ..Location::default()
        });
        return true;
    }
    false
}

/// The words of a pointing relation in a step of one action, and the location they say (spans
/// over the whole `tokens`): the parser reads the step without them, so its confidence is about
/// what it read ("build a green pillar"), not about a pronoun it rarely saw in training.
pub fn cut(tokens: &[String], kind_of: impl Fn(&str) -> Option<ActionType>) -> Option<(Range<usize>, Location)> {
    // The verb comes first, after any small opening ("ok now stick a gold block on it").
    let verb = tokens.iter().find(|w| !lexicon().is(Class::Opening, w)).and_then(|w| kind_of(w))?;
    let mut action = Action { schematic: Some(Default::default()), ..Action::new(verb) };
    if !repair(&mut action, tokens, 0..tokens.len()) {
        return None;
    }
    let location = action.location_object()?.clone();
    let words = location.text_span?.range();
    (words.start > 0).then_some((words, location))
}

/// A pointing word ("it", "that") at `i`, with nothing but small words after it: its index.
fn pointing_at(words: &[String], i: usize) -> Option<usize> {
    let lx = lexicon();
    let w = words.get(i)?;
    let last = words.get(i + 1).is_none_or(|next| lx.is(Class::Politeness, next) || lx.is(Class::Filler, next) || lx.is(Class::Here, next));
    (lx.is(Class::Pointing, w) && last).then_some(i)
}

/// "to it", "over to it", "up to that": a walk to the thing at `k`.
fn goes_to(words: &[String], k: usize) -> bool {
    words.get(k).is_some_and(|w| w == "to") && words.get(k + 1).is_some_and(|w| lexicon().is(Class::Pointing, w))
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

    fn repaired(text: &str, action: Value) -> Value {
        let t = tokenize(text);
        let mut a = act(action);
        assert!(repair(&mut a, &t, 0..t.len()), "{text}");
        val(&a)["location"].clone()
    }

    #[test]
    fn a_relation_to_it_is_a_relation_to_a_coreference() {
        let loc = repaired("build a blue cube on top of it", json!({"action_type": "BUILD", "schematic": {}, "location": {"contains_coreference": "yes"}}));
        assert_eq!(loc["relative_direction"], json!("UP"));
        assert_eq!(loc["reference_object"]["filters"]["contains_coreference"], json!("yes"));
        let loc = repaired("spawn a pig next to it", json!({"action_type": "SPAWN"}));
        assert_eq!(loc["relative_direction"], json!("NEAR"));
        let loc = repaired("go over to it", json!({"action_type": "MOVE"}));
        assert_eq!(loc["relative_direction"], Value::Null);
        assert_eq!(loc["reference_object"]["text_span"], json!([0, [3, 3]]));
        let loc = repaired("stick a glass cube on top", json!({"action_type": "BUILD", "schematic": {}}));
        assert_eq!(loc["relative_direction"], json!("UP"));
        assert_eq!(loc["text_span"], json!([0, [4, 5]]));
        let loc = repaired("put a red cube in its place", json!({"action_type": "BUILD", "schematic": {}}));
        assert_eq!(loc, json!({"contains_coreference": "yes", "text_span": [0, [4, 6]]}));
    }

    #[test]
    fn a_named_thing_or_no_pointing_word_is_left_alone() {
        let t = tokenize("build a tower next to the red cube");
        let mut a = act(json!({"action_type": "BUILD", "schematic": {}}));
        assert!(!repair(&mut a, &t, 0..t.len()));
        let t = tokenize("destroy it");
        let mut a = act(json!({"action_type": "DESTROY"}));
        assert!(!repair(&mut a, &t, 0..t.len()));
    }
}
