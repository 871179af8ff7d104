//! Reference objects: the things a command talks about ("the red house", "me", "that", "0 64 0").
//!
//! An object is found either through `filters` (a memory search: names, colours, selection) or
//! through `special_reference` (the speaker, the agent, the block the speaker looks at, or literal
//! coordinates). `text_span` records the words that name it. A few noisy rows use `has_name` or
//! `triples` directly on the object instead of inside filters; they are kept as they are.

use serde::{Deserialize, Serialize};

use super::filters::Filters;
use super::span::Span;
use super::vocab::{Coreference, FixedReference};
use super::where_clause::Triple;

/// Something in the world (or in memory) that an action or location refers to.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ReferenceObject {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub filters: Option<Filters>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub text_span: Option<Span>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub special_reference: Option<SpecialReference>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub contains_coreference: Option<Coreference>,
    /// Noisy shortcut for a has_name triple (5 rows).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub has_name: Option<Span>,
    /// Noisy shortcut for a where clause (1 row, inside a BETWEEN).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub triples: Option<Vec<Triple>>,
    /// Misplaced second BETWEEN object nested in the first (1 row).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reference_object_2: Option<Box<ReferenceObject>>,
}

impl ReferenceObject {
    /// The speaker, the agent or the speaker's look target, whichever form it is written in.
    pub fn fixed_reference(&self) -> Option<FixedReference> {
        self.special_reference.as_ref().and_then(SpecialReference::fixed)
    }
}

/// `special_reference`: a bare `"SPEAKER"`/`"AGENT"` (21 rows), or an object with either
/// `fixed_value` or `coordinates_span`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SpecialReference {
    Bare(FixedReference),
    Object(SpecialReferenceObject),
}

by_shape!(SpecialReference, "\"SPEAKER\", \"AGENT\" or a special_reference object" {
    str => Bare,
    map => Object,
});

impl SpecialReference {
    /// The fixed referent, if this is not a coordinates span.
    pub fn fixed(&self) -> Option<FixedReference> {
        match self {
            SpecialReference::Bare(fixed) => Some(*fixed),
            SpecialReference::Object(object) => object.fixed_value,
        }
    }

    /// The words holding literal coordinates ("0 64 0"), if given that way.
    pub fn coordinates(&self) -> Option<Span> {
        match self {
            SpecialReference::Bare(_) => None,
            SpecialReference::Object(object) => object.coordinates_span,
        }
    }
}

/// The object form of `special_reference`; exactly one field should be set (checked by validation).
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SpecialReferenceObject {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fixed_value: Option<FixedReference>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub coordinates_span: Option<Span>,
}

/// An object and/or a location, as used by GET's `receiver` and `source`, and by `linear_extent`.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Endpoint {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reference_object: Option<Box<ReferenceObject>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub location: Option<Box<super::location::Location>>,
}

/// An action's `reference_object`: normally an object, but a bare span in 2 noisy rows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ReferenceObjectArg {
    Object(Box<ReferenceObject>),
    Span(Span),
}

by_shape!(ReferenceObjectArg, "a reference object or a span" { map => Object, seq => Span });

impl ReferenceObjectArg {
    /// The structured object, if this is not a bare span.
    pub fn as_object(&self) -> Option<&ReferenceObject> {
        match self {
            ReferenceObjectArg::Object(object) => Some(object),
            ReferenceObjectArg::Span(_) => None,
        }
    }
}
