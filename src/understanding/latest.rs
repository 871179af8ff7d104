//! "Destroy the *last* tower", "how tall is the *latest* pyramid": the words asking for the
//! most recent thing (`[latest]`; "the tower you just built" was made "the last tower" when the
//! line was prepared). The parser writes them as a tag, inside the thing's name, or as the
//! form's own way of saying it, a selector for the greatest `BORN_TIME`. Here they become that
//! selector whichever way it wrote them, so the interpreter reads one typed value and no words.

use crate::lexicon::{Class, lexicon};
use crate::logical_form::{Action, Filters, LocationArg, LogicalForm, Predicate, ReferenceObject, ReferenceObjectArg, SelectorArg, Span, Triple, WhereClause, WhereItem};

/// The things an action points at: its reference object and its place's.
fn things_mut(action: &mut Action) -> Vec<&mut ReferenceObject> {
    let mut things: Vec<&mut ReferenceObject> = Vec::new();
    if let Some(ReferenceObjectArg::Object(o)) = action.reference_object.as_mut() {
        things.push(o);
    }
    if let Some(LocationArg::Location(l)) = action.location.as_mut()
        && let Some(o) = l.reference_object.as_mut()
    {
        things.push(o);
    }
    things
}

/// The positions of the `[latest]` words of the things `action` points at, however the form
/// holds them: the parser's doubt between those ways is no doubt (`confidence`).
pub fn words(action: &Action, tokens: &[String]) -> Vec<usize> {
    let mut things: Vec<&ReferenceObject> = action.reference_object.iter().filter_map(|r| r.as_object()).collect();
    if let Some(LocationArg::Location(l)) = &action.location {
        things.extend(l.reference_object.as_deref());
    }
    let lx = lexicon();
    let spans = things.into_iter().filter_map(|t| t.text_span);
    spans.flat_map(|s| s.start..=s.end).filter(|&k| tokens.get(k).is_some_and(|w| lx.is(Class::Latest, w))).collect()
}

/// Writes the form's `[latest]` words as the newest-selector: a name or tag that starts with
/// them loses them (the whole triple when that is all it says), and its filters ask for the
/// newest. The question's filters and every action's things are read.
pub fn mark(lf: &mut LogicalForm, tokens: &[String]) {
    if let Some(f) = lf.filters.as_mut() {
        mark_filters(f, tokens);
    }
    for action in lf.action_sequence.iter_mut().flatten() {
        for thing in things_mut(action) {
            if let Some(f) = thing.filters.as_mut() {
                mark_filters(f, tokens);
            }
        }
    }
}

fn mark_filters(filters: &mut Filters, tokens: &[String]) {
    let lx = lexicon();
    let Some(WhereClause::And(items)) = filters.where_clause.as_mut() else { return };
    let mut said = false;
    items.retain_mut(|item| {
        let WhereItem::Triple(t) = item else { return true };
        let Some(span) = t.obj_span().filter(|_| matches!(t.pred_text, Predicate::HasName | Predicate::HasTag)) else { return true };
        let Some(words) = tokens.get(span.start..=span.end) else { return true };
        let Some(n) = lx.phrase_at(Class::Latest, words, 0) else { return true };
        said = true;
        if n < words.len() {
            *t = Triple::new(t.pred_text.clone(), Span::new(span.start + n, span.end));
        }
        n < words.len()
    });
    if items.is_empty() {
        filters.where_clause = None;
    }
    if said && filters.selector.is_none() {
        filters.selector = Some(SelectorArg::newest());
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::logical_form::{tokenize, validate_json};

    fn marked(text: &str, form: serde_json::Value) -> serde_json::Value {
        let mut lf = validate_json(text, &form.to_string()).expect("valid");
        mark(&mut lf, &tokenize(text));
        serde_json::to_value(&lf).expect("serializes")
    }

    #[test]
    fn the_last_word_becomes_the_newest_selector_however_the_parser_wrote_it() {
        let newest = serde_json::to_value(SelectorArg::newest()).expect("serializes");
        // Inside the name: the name keeps "tower".
        let lf = marked("destroy the last tower", serde_json::json!({"dialogue_type": "HUMAN_GIVE_COMMAND", "action_sequence": [{"action_type": "DESTROY",
            "reference_object": {"filters": {"where_clause": {"AND": [{"pred_text": "has_name", "obj_text": [0, [2, 3]]}]}}}}]}));
        let f = &lf["action_sequence"][0]["reference_object"]["filters"];
        assert_eq!(f["where_clause"]["AND"][0]["obj_text"], serde_json::json!([0, [3, 3]]));
        assert_eq!(f["selector"], newest);
        // As a tag of its own: the tag goes.
        let lf = marked("destroy the last tower", serde_json::json!({"dialogue_type": "HUMAN_GIVE_COMMAND", "action_sequence": [{"action_type": "DESTROY",
            "reference_object": {"filters": {"where_clause": {"AND": [{"pred_text": "has_tag", "obj_text": [0, [2, 2]]}, {"pred_text": "has_name", "obj_text": [0, [3, 3]]}]}}}}]}));
        let f = &lf["action_sequence"][0]["reference_object"]["filters"];
        assert_eq!(f["where_clause"]["AND"].as_array().map(Vec::len), Some(1));
        assert_eq!(f["selector"], newest);
        // No such word: nothing changes.
        let plain = serde_json::json!({"dialogue_type": "HUMAN_GIVE_COMMAND", "action_sequence": [{"action_type": "DESTROY",
            "reference_object": {"filters": {"where_clause": {"AND": [{"pred_text": "has_name", "obj_text": [0, [2, 3]]}]}}}}]});
        let lf = marked("destroy the red tower", plain.clone());
        assert!(lf["action_sequence"][0]["reference_object"]["filters"]["selector"].is_null());
    }
}
