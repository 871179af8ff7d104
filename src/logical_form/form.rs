//! The root of a logical form, and its JSON entry points.
//!
//! [`LogicalForm::from_json_str`] is the strict door into the typed world: it rejects unknown keys and
//! values with the JSON path of the culprit, and it also rejects anything the typed form would not
//! write back identically (a `null` for an absent key, an array where an object belongs), so that
//! "parses" always means "round-trips". Checks that need the chat text (span bounds) or that relate
//! several keys live in [`super::validate()`].

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::action::{Action, DialogueTarget};
use super::condition::RemoveCondition;
use super::error::{ErrorKind, LfError, ValidationError};
use super::filters::Filters;
use super::roundtrip::first_difference;
use super::vocab::{CapabilityTopic, DialogueType, MemoryType, RewardValue};
use super::where_clause::Triple;

/// A parsed chat: what kind of utterance it is, plus the arguments that kind needs.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LogicalForm {
    pub dialogue_type: DialogueType,
    /// HUMAN_GIVE_COMMAND: the actions, run in order.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub action_sequence: Option<Vec<Action>>,
    /// GET_MEMORY: what is asked about; PUT_MEMORY: what to tag.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub filters: Option<Filters>,
    /// PUT_MEMORY: what to store.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub upsert: Option<Upsert>,
    /// HUMAN_GIVE_COMMAND: whom the command addresses ("bot, ...").
    #[serde(skip_serializing_if = "Option::is_none")]
    pub dialogue_target: Option<DialogueTarget>,
    /// HUMAN_GIVE_COMMAND: when the whole sequence stops (e.g. after N repetitions).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub remove_condition: Option<RemoveCondition>,
    /// GET_CAPABILITIES: the topic of the question ("what can you build").
    #[serde(skip_serializing_if = "Option::is_none")]
    pub action_type: Option<CapabilityTopic>,
    /// schema, GET_MEMORY: the answer replaces an earlier one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub replace: Option<bool>,
}

/// PUT_MEMORY's payload.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Upsert {
    pub memory_data: MemoryData,
}

/// What to write: tags/names as triples, or a reward.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MemoryData {
    pub memory_type: MemoryType,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub triples: Option<Vec<Triple>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reward_value: Option<RewardValue>,
}

impl LogicalForm {
    /// A form with only a dialogue type (NOOP, GET_CAPABILITIES, ...).
    pub fn new(dialogue_type: DialogueType) -> Self {
        LogicalForm {
            dialogue_type,
            action_sequence: None,
            filters: None,
            upsert: None,
            dialogue_target: None,
            remove_condition: None,
            action_type: None,
            replace: None,
        }
    }

    /// A HUMAN_GIVE_COMMAND running `actions` in order.
    pub fn command(actions: Vec<Action>) -> Self {
        LogicalForm { action_sequence: Some(actions), ..LogicalForm::new(DialogueType::HumanGiveCommand) }
    }

    /// The actions of a command (empty for other dialogue types).
    pub fn actions(&self) -> &[Action] {
        self.action_sequence.as_deref().unwrap_or_default()
    }

    /// Parses JSON text strictly; see the module docs.
    pub fn from_json_str(json: &str) -> Result<LogicalForm, LfError> {
        let value: Value = serde_json::from_str(json).map_err(LfError::Json)?;
        LogicalForm::from_json_value(&value)
    }

    /// Parses an already-decoded JSON value strictly; see the module docs.
    pub fn from_json_value(value: &Value) -> Result<LogicalForm, LfError> {
        let form: LogicalForm = serde_path_to_error::deserialize(value).map_err(|err| {
            let path = match err.path().to_string() {
                root if root == "." => String::new(),
                path => path,
            };
            LfError::Schema(ValidationError::from_serde(path, &err.into_inner().to_string()))
        })?;
        if let Some((path, message)) = first_difference(value, &form.to_json_value()) {
            return Err(LfError::Schema(ValidationError::new(path, ErrorKind::Malformed { message })));
        }
        Ok(form)
    }

    /// The JSON value of the form (what the annotations contain, key order aside).
    pub fn to_json_value(&self) -> Value {
        // Serializing these types cannot fail: every map key is a string and every value is plain
        // data. Null is an unreachable fallback that keeps this function panic-free.
        serde_json::to_value(self).unwrap_or(Value::Null)
    }

    /// Compact JSON text of the form.
    pub fn to_json_string(&self) -> String {
        // Same reasoning as `to_json_value`.
        serde_json::to_string(self).unwrap_or_default()
    }
}
