//! Selectors: which of the memories matching a filter to use.
//!
//! "all the cubes" → `return_quantity: "ALL"`; "a cube" → `RANDOM`; "the nearest cube" → an argval
//! (argmin of the distance to the speaker, `ordinal` FIRST); "the second cube" → `ordinal` span;
//! "another cube" → `same: DISALLOWED`; "the cube on the hill" → `location`.

use serde::{Deserialize, Serialize};

use super::attribute::Attribute;
use super::vocab::AttributeName;
use super::location::{Location, SelectorLocation};
use super::shape::Fixed;
use super::span::Span;
use super::vocab::{FixedOrdinal, Polarity, QuantityKind, Same};
use super::where_clause::{Triple, WhereClause};

/// How to pick among matching memories.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Selector {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub return_quantity: Option<ReturnQuantity>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ordinal: Option<Ordinal>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub same: Option<Same>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub location: Option<SelectorLocation>,
    /// Noisy: triples that belong in the filters' where clause (1 row).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub triples: Option<Vec<Triple>>,
    /// Noisy: a where clause that belongs in the filters (1 row).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub where_clause: Option<WhereClause>,
}

/// A filter's `selector`: an object, or the bare string `"ALL"` (2 rows).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SelectorArg {
    Kind(QuantityKind),
    Selector(Box<Selector>),
}

by_shape!(SelectorArg, "a selector object or \"ALL\"" { str => Kind, map => Selector });

impl SelectorArg {
    /// The selector object, if not the bare-string form.
    pub fn as_selector(&self) -> Option<&Selector> {
        match self {
            SelectorArg::Selector(selector) => Some(selector),
            SelectorArg::Kind(_) => None,
        }
    }

    /// "the last tower": the most recent one, the greatest `BORN_TIME` (as the annotations
    /// write it).
    pub fn newest() -> SelectorArg {
        let quantity = Quantity { attribute: Some(Attribute::Name(AttributeName::BornTime)), location: None };
        let ranked = Ranked { argval: ArgVal { polarity: Polarity::Max, quantity } };
        SelectorArg::Selector(Box::new(Selector { return_quantity: Some(ReturnQuantity::Ranked(ranked)), ..Selector::default() }))
    }

    /// Does it ask for the most recent one only (the greatest `BORN_TIME` or `CREATE_TIME`)?
    pub fn is_newest(&self) -> bool {
        let Some(Selector { return_quantity: Some(ReturnQuantity::Ranked(r)), ordinal: None, .. }) = self.as_selector() else { return false };
        let by_time = matches!(r.argval.quantity.attribute, Some(Attribute::Name(AttributeName::BornTime | AttributeName::CreateTime)));
        r.argval.polarity == Polarity::Max && by_time && r.argval.quantity.location.is_none()
    }
}

/// `return_quantity`: `"ALL"`/`"RANDOM"`, or `{"argval": ...}` for superlatives.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ReturnQuantity {
    Kind(QuantityKind),
    Ranked(Ranked),
}

by_shape!(ReturnQuantity, "\"ALL\", \"RANDOM\" or {\"argval\": ...}" { str => Kind, map => Ranked });

/// The object form of `return_quantity`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Ranked {
    pub argval: ArgVal,
}

/// argmax/argmin of a quantity ("the tallest", "the closest").
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ArgVal {
    pub polarity: Polarity,
    pub quantity: Quantity,
}

/// What argval ranks by: an attribute, or closeness to a location.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Quantity {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub attribute: Option<Attribute>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub location: Option<Box<Location>>,
}

/// `ordinal`: the words of an ordinal ("second", "3"), or `{"fixed_value": "FIRST"}`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Ordinal {
    Span(Span),
    Fixed(Fixed<FixedOrdinal>),
}

by_shape!(Ordinal, "a span or {\"fixed_value\": \"FIRST\"}" { seq => Span, map => Fixed });
