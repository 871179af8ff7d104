//! Locations: where an action happens, or where a selected object must be.
//!
//! A location is usually relative to a reference object ("left of the house", "5 steps in front of
//! you"); BETWEEN uses two objects. `steps` and `has_measure` are spans holding a distance ("five",
//! "feet"), `contains_coreference` marks deictic words ("here", "there"), and `location_type` anchors
//! a location at the speaker or the agent without naming an object.

use serde::{Deserialize, Serialize};

use super::reference::ReferenceObject;
use super::span::Span;
use super::vocab::{Coreference, LocationType, RelativeDirection, SelectorPlace};

/// A place, relative to zero, one or two reference objects. An empty object `{}` is legal (the
/// annotators sometimes marked that a location exists without saying where).
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Location {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub relative_direction: Option<RelativeDirection>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reference_object: Option<Box<ReferenceObject>>,
    /// First object of a BETWEEN.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reference_object_1: Option<Box<ReferenceObject>>,
    /// Second object of a BETWEEN.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reference_object_2: Option<Box<ReferenceObject>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub text_span: Option<Span>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub contains_coreference: Option<Coreference>,
    /// How far: the number words ("five" in "five steps to the left").
    #[serde(skip_serializing_if = "Option::is_none")]
    pub steps: Option<Span>,
    /// The unit of `steps` ("feet", "blocks").
    #[serde(skip_serializing_if = "Option::is_none")]
    pub has_measure: Option<Span>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub location_type: Option<LocationType>,
}

/// An action's `location`: normally a [`Location`], but a bare span in 12 noisy rows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LocationArg {
    Location(Box<Location>),
    Span(Span),
}

by_shape!(LocationArg, "a location object or a span" { map => Location, seq => Span });

impl LocationArg {
    /// The structured location, if this is not a bare span.
    pub fn as_location(&self) -> Option<&Location> {
        match self {
            LocationArg::Location(location) => Some(location),
            LocationArg::Span(_) => None,
        }
    }
}

/// A selector's `location`: a [`Location`], a bare span, or the string `"OTHER"` (one row each for
/// the last two).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SelectorLocation {
    Location(Box<Location>),
    Span(Span),
    Place(SelectorPlace),
}

by_shape!(SelectorLocation, "a location object, a span or \"OTHER\"" {
    map => Location,
    seq => Span,
    str => Place,
});

impl SelectorLocation {
    /// The structured location, if there is one.
    pub fn as_location(&self) -> Option<&Location> {
        match self {
            SelectorLocation::Location(location) => Some(location),
            _ => None,
        }
    }
}
