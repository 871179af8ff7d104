//! Edits on typed forms, for the rules in `understanding` that repair or build a parse: which
//! words a node's spans cover, spans moved when words are put back or cut away, and a
//! schematic's triples read and replaced. A rule edits typed values and validates the result
//! once ([`super::validate()`]), so it can never leave a form that breaks the contract.
//!
//! The span walks go through the nodes' own serde shape: every kind of node, including one added
//! later, is visited without a visitor written for each type. That JSON never leaves this file.

use std::ops::Range;

use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::Value;

use super::action::{Action, Schematic};
use super::filters::Filters;
use super::location::{Location, LocationArg};
use super::span::Span;
use super::vocab::Predicate;
use super::where_clause::{WhereClause, WhereItem};

/// Which spans [`covered`] counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Spans {
    /// Spans that point at words for a meaning (a name, a colour, a count): not `text_span`s,
    /// which only mark a whole phrase.
    Pointed,
    /// `text_span`s only.
    Phrases,
}

impl Span {
    /// The span of a JSON value `[0, [i, j]]`; `None` for anything else.
    pub fn from_json(v: &Value) -> Option<Span> {
        let items = v.as_array().filter(|a| a.len() == 2 && a[0].as_u64() == Some(0))?;
        let p = items[1].as_array().filter(|p| p.len() == 2)?;
        Some(Span::new(p[0].as_u64()? as usize, p[1].as_u64()? as usize))
    }

    /// The words as a range, `start..end + 1` (empty for a reversed span).
    pub fn range(&self) -> Range<usize> {
        self.start..(self.end + 1).max(self.start)
    }
}

/// Every word the chosen spans of `node` cover, in the order met (a word may repeat).
pub fn covered<T: Serialize>(node: &T, which: Spans) -> Vec<usize> {
    let mut out = Vec::new();
    if let Ok(v) = serde_json::to_value(node) {
        walk(&v, false, which, &mut out);
    }
    out
}

fn walk(v: &Value, inside_phrase: bool, which: Spans, out: &mut Vec<usize>) {
    if let Some(s) = Span::from_json(v) {
        if which == Spans::Pointed || inside_phrase {
            out.extend(s.range());
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

/// `node` with every span replaced by `f` of it; `None` when `f` refuses one (a span outside
/// the words kept) or the result is no longer a `T`.
pub fn map_spans<T: Serialize + DeserializeOwned>(node: &T, f: impl Fn(Span) -> Option<Span>) -> Option<T> {
    let mut v = serde_json::to_value(node).ok()?;
    if !remap(&mut v, &f) {
        return None;
    }
    serde_json::from_value(v).ok()
}

fn remap(v: &mut Value, f: &impl Fn(Span) -> Option<Span>) -> bool {
    if let Some(s) = Span::from_json(v) {
        let Some(moved) = f(s) else { return false };
        return serde_json::to_value(moved).map(|m| *v = m).is_ok();
    }
    match v {
        Value::Array(items) => items.iter_mut().all(|x| remap(x, f)),
        Value::Object(m) => m.values_mut().all(|x| remap(x, f)),
        _ => true,
    }
}

/// `node` with its spans moved on by `offset` words (a step read on its own, joined back).
pub fn shifted<T: Serialize + DeserializeOwned + Clone>(node: &T, offset: usize) -> T {
    map_spans(node, |s| Some(Span::new(s.start + offset, s.end + offset))).unwrap_or_else(|| node.clone())
}

impl Schematic {
    /// The items of the where clause's AND list (empty for none, or another operator).
    pub fn and_items(&self) -> Vec<WhereItem> {
        match self.filters.as_ref().and_then(|f| f.where_clause.as_ref()) {
            Some(WhereClause::And(items)) => items.clone(),
            _ => Vec::new(),
        }
    }

    /// Does an item of the AND list have this predicate?
    pub fn has_predicate(&self, predicate: Predicate) -> bool {
        self.and_items().iter().any(|i| matches!(i, WhereItem::Triple(t) if t.pred_text == predicate))
    }

    /// Replaces the where clause with an AND of `items`, keeping the rest of the filters (a
    /// selector, say); returns the filters, for a caller that sets more of them.
    pub fn set_and_items(&mut self, items: Vec<WhereItem>) -> &mut Filters {
        let filters = self.filters.get_or_insert_with(Filters::default);
        filters.where_clause = Some(WhereClause::And(items));
        filters
    }
}

impl Action {
    /// The structured location, to edit; `None` for none or a bare span.
    pub fn location_mut(&mut self) -> Option<&mut Location> {
        match self.location.as_mut()? {
            LocationArg::Location(l) => Some(l),
            LocationArg::Span(_) => None,
        }
    }

    /// Sets the action's location.
    pub fn set_location(&mut self, location: Location) {
        self.location = Some(LocationArg::Location(Box::new(location)));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::logical_form::{ActionType, Triple};

    fn build() -> Action {
        let mut schematic = Schematic { text_span: Some(Span::new(1, 3)), filters: None };
        schematic.set_and_items(vec![WhereItem::Triple(Triple::new(Predicate::HasName, Span::word(3)))]);
        Action { schematic: Some(schematic), steps: Some(Span::new(5, 6)), ..Action::new(ActionType::Build) }
    }

    #[test]
    fn spans_are_found_moved_and_told_apart_from_phrases() {
        let a = build();
        let mut pointed = covered(&a, Spans::Pointed);
        pointed.sort();
        assert_eq!((pointed, covered(&a, Spans::Phrases)), (vec![3, 5, 6], vec![1, 2, 3]));
        assert_eq!(shifted(&a, 2).steps, Some(Span::new(7, 8)));
        // A span refused leaves no node at all.
        assert!(map_spans(&a, |s| (s.start > 2).then_some(s)).is_none());
        assert_eq!(Span::from_json(&serde_json::json!([1, [0, 0]])), None);
        let s = a.schematic.as_ref().unwrap();
        assert!(s.has_predicate(Predicate::HasName) && !s.has_predicate(Predicate::HasColour));
        let mut s = s.clone();
        s.set_and_items(vec![WhereItem::Triple(Triple::new(Predicate::HasColour, Span::word(2)))]);
        assert!(s.has_predicate(Predicate::HasColour) && s.and_items().len() == 1);
    }
}
