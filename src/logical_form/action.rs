//! Actions: one step of a HUMAN_GIVE_COMMAND ("build a red cube", "then come here").
//!
//! Every action has an `action_type`; the other keys are its arguments. Which arguments make sense
//! depends on the type (a `schematic` for BUILD/DIG/FILL, a `target_action_type` for STOP/RESUME/UNDO,
//! `receiver`/`source` for GET, ...); [`super::validate()`] enforces those pairings. Actions run in the
//! order of `action_sequence`.

use serde::{Deserialize, Serialize};

use super::condition::RemoveCondition;
use super::dance::DanceType;
use super::filters::Filters;
use super::location::{Location, LocationArg};
use super::reference::{Endpoint, ReferenceObject, ReferenceObjectArg};
use super::span::Span;
use super::vocab::{ActionType, DialogueTargetKind, RelativeDirection};

/// One action of a command.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Action {
    pub action_type: ActionType,
    /// What to build, dig or fill with.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub schematic: Option<Schematic>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub dance_type: Option<DanceType>,
    /// The object acted on (destroyed, filled, copied, fetched, spawned...).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reference_object: Option<ReferenceObjectArg>,
    /// Where to act (build there, move there, dig there).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub location: Option<LocationArg>,
    /// For STOP/RESUME/UNDO: the words naming which activity ("building").
    #[serde(skip_serializing_if = "Option::is_none")]
    pub target_action_type: Option<Span>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub remove_condition: Option<RemoveCondition>,
    /// For GET: who or where the object goes.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub receiver: Option<Endpoint>,
    /// For GET: where the object comes from.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub source: Option<Endpoint>,
    /// Noisy: a direction outside the location (1 row).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub relative_direction: Option<RelativeDirection>,
    /// Noisy: a distance outside the location (1 row).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub steps: Option<Span>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub dialogue_target: Option<DialogueTarget>,
}

impl Action {
    /// A bare action of the given type, to be filled in with struct-update syntax or setters.
    pub fn new(action_type: ActionType) -> Self {
        Action {
            action_type,
            schematic: None,
            dance_type: None,
            reference_object: None,
            location: None,
            target_action_type: None,
            remove_condition: None,
            receiver: None,
            source: None,
            relative_direction: None,
            steps: None,
            dialogue_target: None,
        }
    }

    /// The structured location, ignoring the bare-span form.
    pub fn location_object(&self) -> Option<&Location> {
        self.location.as_ref().and_then(LocationArg::as_location)
    }

    /// The structured reference object, ignoring the bare-span form.
    pub fn reference_object_node(&self) -> Option<&ReferenceObject> {
        self.reference_object.as_ref().and_then(ReferenceObjectArg::as_object)
    }
}

/// A shape to build (or dig, or fill with): described by filters ("a red cube 5 high").
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Schematic {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub text_span: Option<Span>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub filters: Option<Filters>,
}

/// Whom a command is addressed to: `"AGENT"`, or a search for a named bot ("bot, dig a hole").
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DialogueTarget {
    Kind(DialogueTargetKind),
    Named(TargetFilters),
}

by_shape!(DialogueTarget, "\"AGENT\" or {\"filters\": ...}" { str => Kind, map => Named });

/// The object form of `dialogue_target`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TargetFilters {
    pub filters: Filters,
}
