//! Attributes and outputs: what a question asks for, or what a superlative ranks by.
//!
//! "what is that called" outputs the NAME attribute; "do it 3 times" compares the RUN_COUNT of the
//! current task; "the closest tree" ranks by a `linear_extent`, the distance measured from a source
//! object (the speaker) to each candidate.

use serde::{Deserialize, Serialize};

use super::reference::Endpoint;
use super::vocab::{AttributeName, OutputKind, RelativeDirection};

/// An attribute: a name such as `"HEIGHT"`, or an object (`{"linear_extent": ...}`, or `{}` in 2
/// rows that left it unspecified).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Attribute {
    Name(AttributeName),
    Object(AttributeObject),
}

by_shape!(Attribute, "an attribute name or an attribute object" { str => Name, map => Object });

/// The object form of an attribute.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AttributeObject {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub linear_extent: Option<LinearExtent>,
}

/// A distance: from `source` (or the candidate) along `relative_direction` to `destination`.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LinearExtent {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub source: Option<Endpoint>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub destination: Option<Endpoint>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub relative_direction: Option<RelativeDirection>,
}

/// A filter's `output`: `"MEMORY"`/`"COUNT"`, or `{"attribute": ...}`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Output {
    Kind(OutputKind),
    Attribute(OutputAttribute),
}

by_shape!(Output, "\"MEMORY\", \"COUNT\" or {\"attribute\": ...}" { str => Kind, map => Attribute });

/// The object form of `output`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OutputAttribute {
    pub attribute: Attribute,
}
