//! Filters: a search over the agent's memory ("the two red cubes nearest to me").
//!
//! `where_clause` says which memories match (triples such as has_name/has_colour), `selector` picks
//! among the matches (all, random, argmin distance, ordinal, near a location), `output` says what to
//! return (the memories, a count, or an attribute such as NAME), and `memory_type` narrows the kind of
//! memory (objects, the agent, running tasks). The same node is used by reference objects, schematics
//! (where the triples describe the shape to build), questions and PUT_MEMORY targets.

use serde::{Deserialize, Serialize};

use super::attribute::Output;
use super::location::Location;
use super::reference::Endpoint;
use super::selector::SelectorArg;
use super::shape::Fixed;
use super::vocab::{Coreference, MemoryType, SpecialValue};
use super::where_clause::{Triple, WhereClause};

/// A memory search. Every part is optional; `{}` appears in the data.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Filters {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub where_clause: Option<WhereClause>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub contains_coreference: Option<Coreference>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub selector: Option<SelectorArg>,
    /// Where the memories must be (used by PUT_MEMORY targets).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub location: Option<Box<Location>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub output: Option<Output>,
    /// `{"fixed_value": "THIS"}`: the task being defined (for repeat counts).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub special: Option<Fixed<SpecialValue>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub memory_type: Option<MemoryType>,
    /// Noisy direction written as an object keyed by a lower-case direction (1 row).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub relative_direction: Option<FilterDirection>,
}

impl Filters {
    /// The triples of the where clause, flattened through any AND/OR/NOT nesting, in order.
    pub fn triples(&self) -> Vec<&Triple> {
        self.where_clause.as_ref().map(WhereClause::triples).unwrap_or_default()
    }
}

/// The odd `{"left": {"reference_object": ...}}` form of a direction inside filters.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FilterDirection {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub left: Option<Endpoint>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub right: Option<Endpoint>,
}
