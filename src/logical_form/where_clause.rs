//! Where clauses and triples: the conditions a memory must meet to match a filter.
//!
//! The data only uses `{"AND": [triple, ...]}`, where a triple such as
//! `{"pred_text": "has_colour", "obj_text": [0, [2, 2]]}` reads "has colour <word 2>". The schema also
//! allows OR and NOT, nested clauses and comparators as items, so those are accepted too.
//!
//! An item of a clause is a triple, a nested clause or a comparator, and all three are JSON objects,
//! so the item's *keys* decide. [`WhereItem`] reads the object key by key (keeping serde's path
//! tracking, hence precise error paths) and only then decides what it was.

use std::fmt;

use serde::de::{self, Deserializer, MapAccess, Visitor};
use serde::{Deserialize, Serialize, Serializer};

use super::condition::{Comparator, Operand};
use super::filters::Filters;
use super::shape::Fixed;
use super::span::Span;
use super::vocab::{ComparisonType, FixedText, Predicate};

/// `{"AND": [...]}`, `{"OR": [...]}` or `{"NOT": [...]}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum WhereClause {
    #[serde(rename = "AND")]
    And(Vec<WhereItem>),
    #[serde(rename = "OR")]
    Or(Vec<WhereItem>),
    #[serde(rename = "NOT")]
    Not(Vec<WhereItem>),
}

impl WhereClause {
    /// The clause's direct items.
    pub fn items(&self) -> &[WhereItem] {
        match self {
            WhereClause::And(items) | WhereClause::Or(items) | WhereClause::Not(items) => items,
        }
    }

    /// The operator's JSON key ("AND", "OR" or "NOT").
    pub fn operator(&self) -> &'static str {
        match self {
            WhereClause::And(_) => "AND",
            WhereClause::Or(_) => "OR",
            WhereClause::Not(_) => "NOT",
        }
    }

    /// All triples, depth first through nested clauses (comparators are skipped).
    pub fn triples(&self) -> Vec<&Triple> {
        let mut out = Vec::new();
        for item in self.items() {
            match item {
                WhereItem::Triple(triple) => out.push(triple),
                WhereItem::Clause(clause) => out.extend(clause.triples()),
                WhereItem::Comparator(_) => {}
            }
        }
        out
    }
}

/// "subject predicate object": a property a memory must have.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Triple {
    pub pred_text: Predicate,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub obj_text: Option<TextValue>,
    /// schema: the subject's words, for triples about something other than the candidate.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub subj_text: Option<TextValue>,
    /// schema: the subject as a memory search.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub subj: Option<Box<Filters>>,
    /// schema: the object as a memory search.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub obj: Option<Box<Filters>>,
}

impl Triple {
    /// A `pred_text` + `obj_text` span triple, the common case.
    pub fn new(pred_text: Predicate, obj_text: Span) -> Self {
        Triple { pred_text, obj_text: Some(TextValue::Span(obj_text)), subj_text: None, subj: None, obj: None }
    }

    /// The object span, when the object is given as words.
    pub fn obj_span(&self) -> Option<Span> {
        match self.obj_text {
            Some(TextValue::Span(span)) => Some(span),
            _ => None,
        }
    }
}

/// Text in a triple: words of the chat, or `{"fixed_value": "SELF" | ...}`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TextValue {
    Span(Span),
    Fixed(Fixed<FixedText>),
}

by_shape!(TextValue, "a span or {\"fixed_value\": ...}" { seq => Span, map => Fixed });

/// One item of a where clause.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum WhereItem {
    Triple(Triple),
    Clause(WhereClause),
    Comparator(Box<Comparator>),
}

impl Serialize for WhereItem {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            WhereItem::Triple(triple) => triple.serialize(serializer),
            WhereItem::Clause(clause) => clause.serialize(serializer),
            WhereItem::Comparator(comparator) => comparator.serialize(serializer),
        }
    }
}

impl<'de> Deserialize<'de> for WhereItem {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_map(ItemVisitor)
    }
}

/// Every key an item may have, for "unknown field" messages.
const ITEM_KEYS: &[&str] = &[
    "pred_text",
    "obj_text",
    "subj_text",
    "subj",
    "obj",
    "AND",
    "OR",
    "NOT",
    "comparison_type",
    "input_left",
    "input_right",
    "comparison_measure",
];

/// Everything an item object may hold, gathered before deciding which kind of item it is.
#[derive(Default)]
struct ItemParts {
    keys: usize,
    pred_text: Option<Predicate>,
    obj_text: Option<TextValue>,
    subj_text: Option<TextValue>,
    subj: Option<Box<Filters>>,
    obj: Option<Box<Filters>>,
    clause: Option<WhereClause>,
    comparison_type: Option<ComparisonType>,
    input_left: Option<Operand>,
    input_right: Option<Operand>,
    comparison_measure: Option<Span>,
}

/// Stores a value read from the map, refusing a key given twice.
fn put<T, E: de::Error>(slot: &mut Option<T>, value: T, key: &'static str) -> Result<(), E> {
    if slot.is_some() {
        return Err(E::duplicate_field(key));
    }
    *slot = Some(value);
    Ok(())
}

struct ItemVisitor;

impl<'de> Visitor<'de> for ItemVisitor {
    type Value = WhereItem;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a triple, a nested AND/OR/NOT clause or a comparator")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<WhereItem, A::Error> {
        let mut parts = ItemParts::default();
        while let Some(key) = map.next_key::<String>()? {
            parts.keys += 1;
            match key.as_str() {
                "pred_text" => put(&mut parts.pred_text, map.next_value()?, "pred_text")?,
                "obj_text" => put(&mut parts.obj_text, map.next_value()?, "obj_text")?,
                "subj_text" => put(&mut parts.subj_text, map.next_value()?, "subj_text")?,
                "subj" => put(&mut parts.subj, map.next_value()?, "subj")?,
                "obj" => put(&mut parts.obj, map.next_value()?, "obj")?,
                "AND" => put(&mut parts.clause, WhereClause::And(map.next_value()?), "AND")?,
                "OR" => put(&mut parts.clause, WhereClause::Or(map.next_value()?), "OR")?,
                "NOT" => put(&mut parts.clause, WhereClause::Not(map.next_value()?), "NOT")?,
                "comparison_type" => put(&mut parts.comparison_type, map.next_value()?, "comparison_type")?,
                "input_left" => put(&mut parts.input_left, map.next_value()?, "input_left")?,
                "input_right" => put(&mut parts.input_right, map.next_value()?, "input_right")?,
                "comparison_measure" => put(&mut parts.comparison_measure, map.next_value()?, "comparison_measure")?,
                _ => return Err(de::Error::unknown_field(&key, ITEM_KEYS)),
            }
        }
        assemble(parts)
    }
}

/// Decides the item's kind from the keys it had, refusing mixtures.
fn assemble<E: de::Error>(parts: ItemParts) -> Result<WhereItem, E> {
    if let Some(clause) = parts.clause {
        if parts.keys != 1 {
            return Err(E::custom("a nested AND/OR/NOT clause must be the item's only key"));
        }
        return Ok(WhereItem::Clause(clause));
    }
    let is_triple = parts.pred_text.is_some()
        || parts.obj_text.is_some()
        || parts.subj_text.is_some()
        || parts.subj.is_some()
        || parts.obj.is_some();
    let is_comparator = parts.comparison_type.is_some()
        || parts.input_left.is_some()
        || parts.input_right.is_some()
        || parts.comparison_measure.is_some();
    if is_comparator && !is_triple {
        return Ok(WhereItem::Comparator(Box::new(Comparator {
            comparison_type: parts.comparison_type.ok_or_else(|| E::missing_field("comparison_type"))?,
            input_left: parts.input_left.ok_or_else(|| E::missing_field("input_left"))?,
            input_right: parts.input_right.ok_or_else(|| E::missing_field("input_right"))?,
            comparison_measure: parts.comparison_measure,
        })));
    }
    if is_comparator {
        return Err(E::custom("a where-clause item mixes triple keys with comparator keys"));
    }
    Ok(WhereItem::Triple(Triple {
        pred_text: parts.pred_text.ok_or_else(|| E::missing_field("pred_text"))?,
        obj_text: parts.obj_text,
        subj_text: parts.subj_text,
        subj: parts.subj,
        obj: parts.obj,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn round_trip(value: serde_json::Value) -> WhereClause {
        let clause: WhereClause = serde_json::from_value(value.clone()).unwrap();
        assert_eq!(serde_json::to_value(&clause).unwrap(), value);
        clause
    }

    #[test]
    fn reads_and_of_triples() {
        let clause = round_trip(json!({"AND": [
            {"pred_text": "has_name", "obj_text": [0, [2, 2]]},
            {"pred_text": "has_tag", "obj_text": {"fixed_value": "CURRENTLY_RUNNING"}}
        ]}));
        assert_eq!(clause.triples().len(), 2);
        assert_eq!(clause.triples()[0].obj_span(), Some(Span::word(2)));
    }

    #[test]
    fn reads_nested_or_not_and_comparators() {
        let clause = round_trip(json!({"OR": [
            {"NOT": [{"pred_text": "has_colour", "obj_text": [0, [1, 1]]}]},
            {"AND": []},
            {"comparison_type": "GREATER_THAN",
             "input_left": {"value": [0, [3, 3]]}, "input_right": {"value": [0, [5, 5]]}}
        ]}));
        assert!(matches!(clause.items()[0], WhereItem::Clause(WhereClause::Not(_))));
        assert!(matches!(clause.items()[2], WhereItem::Comparator(_)));
        assert_eq!(clause.triples().len(), 1);
    }

    #[test]
    fn rejects_bad_items() {
        for bad in [
            json!({"AND": [{"obj_text": [0, [1, 1]]}]}),
            json!({"AND": [{"pred_text": "has_name", "colour": [0, [1, 1]]}]}),
            json!({"AND": [{"pred_text": "has_name", "AND": []}]}),
            json!({"AND": [{"pred_text": "has_name", "comparison_type": "EQUAL"}]}),
            json!({"AND": [{"comparison_type": "EQUAL"}]}),
            json!({"XOR": []}),
            json!({"AND": [], "OR": []}),
        ] {
            assert!(serde_json::from_value::<WhereClause>(bad.clone()).is_err(), "accepted {bad}");
        }
    }
}
