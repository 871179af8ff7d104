//! Conditions: when an open-ended or repeated action stops.
//!
//! "follow me" is a MOVE with `condition_type: NEVER`; "dig until you hit rock" stops when
//! ADJACENT_TO_BLOCK_TYPE `block_type`; "jump 3 times" is a COMPARATOR: the RUN_COUNT of THIS task
//! EQUAL to the number span. Some rows only record the words of the condition (`condition_span`).

use serde::{Deserialize, Serialize};

use super::filters::Filters;
use super::span::Span;
use super::vocab::{ComparisonType, ConditionType};

/// `remove_condition` of an action or of the whole command.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RemoveCondition {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub condition_type: Option<ConditionType>,
    /// For ADJACENT_TO_BLOCK_TYPE: the block words ("rock").
    #[serde(skip_serializing_if = "Option::is_none")]
    pub block_type: Option<Span>,
    /// The words of a condition that was not structured further.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub condition_span: Option<Span>,
    /// For COMPARATOR: the comparison itself.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub condition: Option<Comparator>,
}

/// A comparison between two operands.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Comparator {
    pub comparison_type: ComparisonType,
    pub input_left: Operand,
    pub input_right: Operand,
    /// Unit words of the comparison ("blocks"), schema.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub comparison_measure: Option<Span>,
}

/// One side of a comparison: a memory search (with an output attribute) or literal words.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Operand {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub filters: Option<Filters>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub value: Option<Span>,
}
