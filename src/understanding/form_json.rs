//! The form as JSON, for the rules that repair a parse: spans (`[0, [i, j]]`) and a schematic's
//! triples. Repairs work on the JSON and validate the result once, so a rule can never leave a
//! form that breaks the contract.

use std::ops::Range;

use serde_json::{Value, json};

/// The words of a span `[0, [i, j]]`, as `i..j + 1`; `None` for anything else.
pub fn span(v: &Value) -> Option<Range<usize>> {
    let items = v.as_array().filter(|a| a.len() == 2 && a[0].as_u64() == Some(0))?;
    let p = items[1].as_array().filter(|p| p.len() == 2)?;
    Some(p[0].as_u64()? as usize..p[1].as_u64()? as usize + 1)
}

/// Which spans [`covered`] counts.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Spans {
    /// Spans that point at words for a meaning (a name, a colour, a count): not `text_span`s,
    /// which only mark a whole phrase.
    Pointed,
    /// `text_span`s only.
    Phrases,
}

/// Every word the chosen spans of `v` cover, added to `out`.
pub fn covered(v: &Value, which: Spans, out: &mut Vec<usize>) {
    walk(v, false, which, out);
}

fn walk(v: &Value, inside_phrase: bool, which: Spans, out: &mut Vec<usize>) {
    if let Some(r) = span(v) {
        if which == Spans::Pointed || inside_phrase {
            out.extend(r);
        }
        return;
    }
    match v {
        Value::Array(items) => items.iter().for_each(|x| walk(x, inside_phrase, which, out)),
        Value::Object(m) => {
            for (k, x) in m {
                let phrase = k == "text_span";
                match which {
                    Spans::Pointed if phrase => {}
                    Spans::Pointed => walk(x, false, which, out),
                    Spans::Phrases => walk(x, phrase || inside_phrase, which, out),
                }
            }
        }
        _ => {}
    }
}

/// Moves every span in `v` by `offset` words.
pub fn shift_spans(v: &mut Value, offset: usize) {
    if let Some(r) = span(v) {
        *v = json!([0, [r.start + offset, r.end - 1 + offset]]);
        return;
    }
    match v {
        Value::Array(items) => items.iter_mut().for_each(|x| shift_spans(x, offset)),
        Value::Object(m) => m.values_mut().for_each(|x| shift_spans(x, offset)),
        _ => {}
    }
}

/// Moves the spans of `v` that start at or after word `from` on by `by` words (words put back
/// into a line after it was read without them).
pub fn shift_spans_from(v: &mut Value, from: usize, by: usize) {
    if let Some(r) = span(v) {
        let moved = |i: usize| if i >= from { i + by } else { i };
        *v = json!([0, [moved(r.start), moved(r.end - 1)]]);
        return;
    }
    match v {
        Value::Array(items) => items.iter_mut().for_each(|x| shift_spans_from(x, from, by)),
        Value::Object(m) => m.values_mut().for_each(|x| shift_spans_from(x, from, by)),
        _ => {}
    }
}

/// A schematic's triples (its where clause's AND list).
pub fn triples(schematic: &Value) -> Vec<Value> {
    schematic.pointer("/filters/where_clause/AND").and_then(Value::as_array).cloned().unwrap_or_default()
}

/// Does the schematic have a triple with this predicate?
pub fn has_triple(schematic: &Value, predicate: &str) -> bool {
    triples(schematic).iter().any(|t| t.get("pred_text").and_then(Value::as_str) == Some(predicate))
}

/// Replaces a schematic's triples, keeping the rest of its filters (a selector, say); returns the
/// filters, for a caller that sets more of them.
pub fn set_triples(schematic: &mut Value, triples: Vec<Value>) -> Option<&mut Value> {
    let obj = schematic.as_object_mut()?;
    let filters = obj.entry("filters").or_insert_with(|| json!({}));
    if !filters.is_object() {
        *filters = json!({});
    }
    filters["where_clause"] = json!({"AND": triples});
    Some(filters)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spans_are_found_moved_and_told_apart_from_phrases() {
        let mut v = json!({"schematic": {"text_span": [0, [1, 3]], "filters": {"where_clause": {"AND": [
            {"pred_text": "has_name", "obj_text": [0, [3, 3]]}]}}}, "steps": [0, [5, 6]]});
        let (mut pointed, mut phrases) = (Vec::new(), Vec::new());
        covered(&v, Spans::Pointed, &mut pointed);
        covered(&v, Spans::Phrases, &mut phrases);
        pointed.sort();
        assert_eq!((pointed, phrases), (vec![3, 5, 6], vec![1, 2, 3]));
        shift_spans(&mut v, 2);
        assert_eq!(v["steps"], json!([0, [7, 8]]));
        assert_eq!(span(&json!([1, [0, 0]])), None);
        let s = &mut v["schematic"];
        assert!(has_triple(s, "has_name") && !has_triple(s, "has_colour"));
        set_triples(s, vec![json!({"pred_text": "has_colour", "obj_text": [0, [2, 2]]})]);
        assert!(has_triple(s, "has_colour") && triples(s).len() == 1);
    }
}
