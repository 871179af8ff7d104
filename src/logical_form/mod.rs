//! The logical form (action dictionary): the typed contract between the parser and the interpreter.
//!
//! A logical form is the JSON the annotations pair with each chat (droidlet's schema):
//! `{"dialogue_type": "HUMAN_GIVE_COMMAND", "action_sequence": [{"action_type": "BUILD", ...}]}`.
//! This module gives it Rust types that are
//! - **strict**: unknown keys and unknown enumerated values are errors, reported with a JSON path;
//! - **lossless**: every annotated row deserializes and serializes back to the same JSON value;
//! - **checkable**: [`validate()`] adds the rules that need the chat text (span bounds) or that relate
//!   keys (BETWEEN needs `reference_object_1`).
//!
//! Map of the files: [`span`] (word ranges), [`vocab`] (enumerated strings), one file per node kind
//! ([`form`] root, [`action`], [`dance`], [`location`], [`reference`](mod@reference), [`filters`], [`selector`],
//! [`attribute`], [`where_clause`], [`condition`]), `shape` (keys whose JSON shape varies),
//! [`step`] (one step's words and typed details), [`edit`] (span walks and triple edits for the rules that repair a parse), [`error`], [`validate`](mod@validate), [`tokenize`](mod@tokenize) (chat → the data's words), [`check`] (annotation files).

#[macro_use]
mod shape;

pub mod action;
pub mod attribute;
pub mod check;
pub mod condition;
pub mod dance;
pub mod edit;
pub mod error;
pub mod filters;
pub mod form;
pub mod location;
pub mod reference;
mod roundtrip;
pub mod selector;
pub mod span;
pub mod step;
pub mod tokenize;
pub mod validate;
pub mod vocab;
pub mod where_clause;

pub use action::{Action, DialogueTarget, Schematic, TargetFilters};
pub use attribute::{Attribute, AttributeObject, LinearExtent, Output, OutputAttribute};
pub use check::{CheckError, CheckSummary, Row, check_file, load_rows};
pub use condition::{Comparator, Operand, RemoveCondition};
pub use dance::{Angle, AngleLiteral, DanceType, Point, Turn};
pub use edit::{Spans, covered, map_spans, shifted};
pub use error::{ErrorKind, LfError, SpanProblem, ValidationError};
pub use filters::{FilterDirection, Filters};
pub use form::{LogicalForm, MemoryData, Upsert};
pub use location::{Location, LocationArg, SelectorLocation};
pub use reference::{Endpoint, ReferenceObject, ReferenceObjectArg, SpecialReference, SpecialReferenceObject};
pub use selector::{ArgVal, Ordinal, Quantity, Ranked, ReturnQuantity, Selector, SelectorArg};
pub use shape::Fixed;
pub use span::Span;
pub use step::{Amount, DanceName, Deixis, Details, Heading, SaidOffset, StepForm};
pub use tokenize::{normalize, tokenize};
pub use validate::{validate, validate_json};
pub use vocab::*;
pub use where_clause::{TextValue, Triple, WhereClause, WhereItem};
