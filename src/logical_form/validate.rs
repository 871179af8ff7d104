//! Validation: the checks a logical form must pass beyond parsing.
//!
//! Parsing ([`LogicalForm::from_json_str`]) guarantees the shape and the vocabularies. Validation adds
//! what needs the chat text or relates several keys:
//! - every span has sentence 0, starts before it ends and fits the text's words;
//! - a HUMAN_GIVE_COMMAND has actions, and root keys match the dialogue type;
//! - action arguments match the action type (a `schematic` only on BUILD/DIG/FILL, ...);
//! - values that need a companion have it (BETWEEN → `reference_object_1`, COMPARATOR → `condition`).
//!
//! The rules are exactly as strict as the annotations allow: every row of the shared data passes.
//! All problems are collected, not just the first, so a repair prompt can list them together.

use super::action::{Action, DialogueTarget, Schematic};
use super::attribute::{Attribute, Output};
use super::condition::{Comparator, Operand, RemoveCondition};
use super::dance::{Angle, DanceType, Turn};
use super::error::{ErrorKind, SpanProblem, ValidationError};
use super::filters::Filters;
use super::form::{LogicalForm, MemoryData};
use super::location::{Location, LocationArg, SelectorLocation};
use super::reference::{Endpoint, ReferenceObject, ReferenceObjectArg, SpecialReference};
use super::selector::{Ordinal, ReturnQuantity, Selector, SelectorArg};
use super::span::Span;
use super::vocab::{ActionType, ConditionType, DialogueType, MemoryType, RelativeDirection};
use super::where_clause::{TextValue, Triple, WhereClause, WhereItem};

/// Checks `lf` against `text`, the normalized chat its spans index (see
/// [`super::tokenize::normalize`]; words are separated by whitespace).
pub fn validate(text: &str, lf: &LogicalForm) -> Result<(), Vec<ValidationError>> {
    let mut checker = Checker { n_words: text.split_whitespace().count(), errors: Vec::new() };
    checker.root(lf);
    if checker.errors.is_empty() { Ok(()) } else { Err(checker.errors) }
}

/// Parses `json` strictly and validates it against `text`: the single gate for parser and LLM output.
pub fn validate_json(text: &str, json: &str) -> Result<LogicalForm, Vec<ValidationError>> {
    let lf = LogicalForm::from_json_str(json).map_err(|error| vec![error.into_validation_error()])?;
    validate(text, &lf)?;
    Ok(lf)
}

/// `path.key`, or `key` at the root.
fn at(path: &str, key: &str) -> String {
    if path.is_empty() { key.to_string() } else { format!("{path}.{key}") }
}

/// `path[index]`.
fn nth(path: &str, index: usize) -> String {
    format!("{path}[{index}]")
}

/// Walks the typed tree, one method per node kind, collecting errors.
struct Checker {
    n_words: usize,
    errors: Vec<ValidationError>,
}

impl Checker {
    fn report(&mut self, path: String, kind: ErrorKind) {
        self.errors.push(ValidationError::new(path, kind));
    }

    fn misplaced(&mut self, path: &str, field: &str, context: String) {
        self.report(at(path, field), ErrorKind::Misplaced { field: field.to_string(), context });
    }

    fn missing(&mut self, path: &str, owner: impl Into<String>, child: &str) {
        self.report(path.to_string(), ErrorKind::MissingChild { owner: owner.into(), child: child.to_string() });
    }

    fn span(&mut self, span: Span, path: String) {
        let kind = if span.sentence != 0 {
            ErrorKind::BadSpan { span, problem: SpanProblem::Sentence(span.sentence) }
        } else if span.start > span.end {
            ErrorKind::BadSpan { span, problem: SpanProblem::Reversed }
        } else if span.end >= self.n_words {
            ErrorKind::SpanOutOfRange { span, n_words: self.n_words }
        } else {
            return;
        };
        self.report(path, kind);
    }

    fn opt_span(&mut self, span: Option<Span>, path: &str, key: &str) {
        if let Some(span) = span {
            self.span(span, at(path, key));
        }
    }

    fn root(&mut self, lf: &LogicalForm) {
        use DialogueType::*;
        let kind = lf.dialogue_type;
        let context = format!("with dialogue_type {kind}");
        match (&lf.action_sequence, kind) {
            (None, HumanGiveCommand) => self.report(String::new(), ErrorKind::EmptySequence),
            (Some(actions), HumanGiveCommand) if actions.is_empty() => {
                self.report("action_sequence".into(), ErrorKind::EmptySequence)
            }
            (Some(_), HumanGiveCommand) | (None, _) => {}
            (Some(_), _) => self.misplaced("", "action_sequence", context.clone()),
        }
        // Which root keys each dialogue type may carry.
        // lexicon: JSON keys of the logical form.
        let rules: [(&str, bool, bool); 6] = [
            ("filters", lf.filters.is_some(), matches!(kind, GetMemory | PutMemory)),
            ("upsert", lf.upsert.is_some(), kind == PutMemory),
            ("dialogue_target", lf.dialogue_target.is_some(), kind == HumanGiveCommand),
            ("remove_condition", lf.remove_condition.is_some(), kind == HumanGiveCommand),
            ("action_type", lf.action_type.is_some(), matches!(kind, GetCapabilities | BotCapabilities)),
            ("replace", lf.replace.is_some(), kind == GetMemory),
        ];
        for (field, present, ok) in rules {
            if present && !ok {
                self.misplaced("", field, context.clone());
            }
        }

        for (index, action) in lf.actions().iter().enumerate() {
            self.action(action, &nth("action_sequence", index));
        }
        if let Some(filters) = &lf.filters {
            self.filters(filters, "filters");
        }
        if let Some(upsert) = &lf.upsert {
            self.memory_data(&upsert.memory_data, "upsert.memory_data");
        }
        if let Some(target) = &lf.dialogue_target {
            self.dialogue_target(target, "dialogue_target");
        }
        if let Some(condition) = &lf.remove_condition {
            self.remove_condition(condition, "remove_condition");
        }
    }

    fn action(&mut self, action: &Action, path: &str) {
        use ActionType::*;
        let kind = action.action_type;
        let context = format!("with action_type {kind}");
        // Which arguments each action type may carry (as loose as the annotations require).
        // lexicon: JSON keys of the logical form.
        let rules: [(&str, bool, bool); 5] = [
            ("schematic", action.schematic.is_some(), matches!(kind, Build | Dig | Fill | Plant | Paint)),
            ("dance_type", action.dance_type.is_some(), matches!(kind, Dance | Move)),
            ("target_action_type", action.target_action_type.is_some(), matches!(kind, Stop | Resume | Undo)),
            ("receiver", action.receiver.is_some(), matches!(kind, Get | Put | Collect | Craft)),
            ("source", action.source.is_some(), matches!(kind, Get | Craft)),
        ];
        for (field, present, ok) in rules {
            if present && !ok {
                self.misplaced(path, field, context.clone());
            }
        }

        if let Some(schematic) = &action.schematic {
            self.schematic(schematic, &at(path, "schematic"));
        }
        if let Some(dance) = &action.dance_type {
            self.dance(dance, &at(path, "dance_type"));
        }
        match &action.reference_object {
            Some(ReferenceObjectArg::Object(object)) => self.reference_object(object, &at(path, "reference_object")),
            Some(ReferenceObjectArg::Span(span)) => self.span(*span, at(path, "reference_object")),
            None => {}
        }
        match &action.location {
            Some(LocationArg::Location(location)) => self.location(location, &at(path, "location")),
            Some(LocationArg::Span(span)) => self.span(*span, at(path, "location")),
            None => {}
        }
        self.opt_span(action.target_action_type, path, "target_action_type");
        self.opt_span(action.steps, path, "steps");
        if let Some(condition) = &action.remove_condition {
            self.remove_condition(condition, &at(path, "remove_condition"));
        }
        if let Some(receiver) = &action.receiver {
            self.endpoint(receiver, &at(path, "receiver"));
        }
        if let Some(source) = &action.source {
            self.endpoint(source, &at(path, "source"));
        }
        if let Some(target) = &action.dialogue_target {
            self.dialogue_target(target, &at(path, "dialogue_target"));
        }
    }

    fn schematic(&mut self, schematic: &Schematic, path: &str) {
        self.opt_span(schematic.text_span, path, "text_span");
        if let Some(filters) = &schematic.filters {
            self.filters(filters, &at(path, "filters"));
        }
    }

    fn dialogue_target(&mut self, target: &DialogueTarget, path: &str) {
        if let DialogueTarget::Named(named) = target {
            self.filters(&named.filters, &at(path, "filters"));
        }
    }

    fn location(&mut self, location: &Location, path: &str) {
        let between = location.relative_direction == Some(RelativeDirection::Between);
        if between && location.reference_object_1.is_none() {
            self.missing(path, "relative_direction BETWEEN", "reference_object_1");
        }
        for (field, object) in [
            ("reference_object", &location.reference_object),
            ("reference_object_1", &location.reference_object_1),
            ("reference_object_2", &location.reference_object_2),
        ] {
            let Some(object) = object else { continue };
            if field != "reference_object" && !between {
                self.misplaced(path, field, "without relative_direction BETWEEN".into());
            }
            self.reference_object(object, &at(path, field));
        }
        self.opt_span(location.text_span, path, "text_span");
        self.opt_span(location.steps, path, "steps");
        self.opt_span(location.has_measure, path, "has_measure");
    }

    fn reference_object(&mut self, object: &ReferenceObject, path: &str) {
        if let Some(SpecialReference::Object(special)) = &object.special_reference {
            let special_path = at(path, "special_reference");
            match (special.fixed_value, special.coordinates_span) {
                (None, None) => self.missing(&special_path, "special_reference", "fixed_value or coordinates_span"),
                (Some(_), Some(_)) => self.report(
                    special_path,
                    ErrorKind::Conflict { fields: vec!["fixed_value".into(), "coordinates_span".into()] },
                ),
                (None, Some(span)) => self.span(span, at(&special_path, "coordinates_span")),
                (Some(_), None) => {}
            }
        }
        if let Some(filters) = &object.filters {
            self.filters(filters, &at(path, "filters"));
        }
        self.opt_span(object.text_span, path, "text_span");
        self.opt_span(object.has_name, path, "has_name");
        self.triples(object.triples.as_deref(), path);
        if let Some(second) = &object.reference_object_2 {
            self.reference_object(second, &at(path, "reference_object_2"));
        }
    }

    fn endpoint(&mut self, endpoint: &Endpoint, path: &str) {
        if let Some(object) = &endpoint.reference_object {
            self.reference_object(object, &at(path, "reference_object"));
        }
        if let Some(location) = &endpoint.location {
            self.location(location, &at(path, "location"));
        }
    }

    fn filters(&mut self, filters: &Filters, path: &str) {
        if let Some(clause) = &filters.where_clause {
            self.where_clause(clause, &at(path, "where_clause"));
        }
        if let Some(SelectorArg::Selector(selector)) = &filters.selector {
            self.selector(selector, &at(path, "selector"));
        }
        if let Some(location) = &filters.location {
            self.location(location, &at(path, "location"));
        }
        if let Some(Output::Attribute(output)) = &filters.output {
            self.attribute(&output.attribute, &at(&at(path, "output"), "attribute"));
        }
        if let Some(direction) = &filters.relative_direction {
            let path = at(path, "relative_direction");
            for (side, endpoint) in [("left", &direction.left), ("right", &direction.right)] {
                if let Some(endpoint) = endpoint {
                    self.endpoint(endpoint, &at(&path, side));
                }
            }
        }
    }

    fn where_clause(&mut self, clause: &WhereClause, path: &str) {
        let path = at(path, clause.operator());
        for (index, item) in clause.items().iter().enumerate() {
            let item_path = nth(&path, index);
            match item {
                WhereItem::Triple(triple) => self.triple(triple, &item_path),
                WhereItem::Clause(inner) => self.where_clause(inner, &item_path),
                WhereItem::Comparator(comparator) => self.comparator(comparator, &item_path),
            }
        }
    }

    fn triples(&mut self, triples: Option<&[Triple]>, path: &str) {
        let path = at(path, "triples");
        for (index, triple) in triples.unwrap_or_default().iter().enumerate() {
            self.triple(triple, &nth(&path, index));
        }
    }

    fn triple(&mut self, triple: &Triple, path: &str) {
        if triple.obj_text.is_none() && triple.obj.is_none() {
            self.missing(path, format!("triple {}", triple.pred_text), "obj_text");
        }
        for (key, text) in [("obj_text", &triple.obj_text), ("subj_text", &triple.subj_text)] {
            if let Some(TextValue::Span(span)) = text {
                self.span(*span, at(path, key));
            }
        }
        for (key, filters) in [("subj", &triple.subj), ("obj", &triple.obj)] {
            if let Some(filters) = filters {
                self.filters(filters, &at(path, key));
            }
        }
    }

    fn selector(&mut self, selector: &Selector, path: &str) {
        if let Some(ReturnQuantity::Ranked(ranked)) = &selector.return_quantity {
            let quantity_path = at(&at(&at(path, "return_quantity"), "argval"), "quantity");
            let quantity = &ranked.argval.quantity;
            if quantity.attribute.is_none() && quantity.location.is_none() {
                self.missing(&quantity_path, "quantity", "attribute or location");
            }
            if let Some(attribute) = &quantity.attribute {
                self.attribute(attribute, &at(&quantity_path, "attribute"));
            }
            if let Some(location) = &quantity.location {
                self.location(location, &at(&quantity_path, "location"));
            }
        }
        if let Some(Ordinal::Span(span)) = selector.ordinal {
            self.span(span, at(path, "ordinal"));
        }
        match &selector.location {
            Some(SelectorLocation::Location(location)) => self.location(location, &at(path, "location")),
            Some(SelectorLocation::Span(span)) => self.span(*span, at(path, "location")),
            Some(SelectorLocation::Place(_)) | None => {}
        }
        self.triples(selector.triples.as_deref(), path);
        if let Some(clause) = &selector.where_clause {
            self.where_clause(clause, &at(path, "where_clause"));
        }
    }

    fn attribute(&mut self, attribute: &Attribute, path: &str) {
        let Attribute::Object(object) = attribute else { return };
        let Some(extent) = &object.linear_extent else { return };
        let path = at(path, "linear_extent");
        for (key, endpoint) in [("source", &extent.source), ("destination", &extent.destination)] {
            if let Some(endpoint) = endpoint {
                self.endpoint(endpoint, &at(&path, key));
            }
        }
    }

    fn dance(&mut self, dance: &DanceType, path: &str) {
        if dance.look_turn.is_none() && dance.body_turn.is_none() && dance.point.is_none() && dance.filters.is_none() {
            self.missing(path, "dance_type", "look_turn, body_turn, point or filters");
        }
        for (key, turn) in [("look_turn", &dance.look_turn), ("body_turn", &dance.body_turn)] {
            if let Some(turn) = turn {
                self.turn(turn, &at(path, key), key);
            }
        }
        if let Some(point) = &dance.point {
            self.location(&point.location, &at(&at(path, "point"), "location"));
        }
        if let Some(filters) = &dance.filters {
            self.filters(filters, &at(path, "filters"));
        }
    }

    fn turn(&mut self, turn: &Turn, path: &str, name: &str) {
        let empty = turn.yaw.is_none()
            && turn.pitch.is_none()
            && turn.yaw_pitch.is_none()
            && turn.relative_yaw.is_none()
            && turn.relative_pitch.is_none()
            && turn.location.is_none();
        if empty {
            self.missing(path, name, "yaw, pitch, yaw_pitch, relative_yaw, relative_pitch or location");
        }
        self.opt_span(turn.yaw, path, "yaw");
        self.opt_span(turn.pitch, path, "pitch");
        self.opt_span(turn.yaw_pitch, path, "yaw_pitch");
        for (key, angle) in [("relative_yaw", &turn.relative_yaw), ("relative_pitch", &turn.relative_pitch)] {
            if let Some(angle) = angle {
                self.angle(angle, &at(path, key), key);
            }
        }
        if let Some(location) = &turn.location {
            self.location(location, &at(path, "location"));
        }
    }

    fn angle(&mut self, angle: &Angle, path: &str, name: &str) {
        let literal = match angle {
            Angle::Span(span) => return self.span(*span, path.to_string()),
            Angle::Literal(literal) => literal,
        };
        match (&literal.fixed_value, &literal.angle) {
            (None, None) => self.missing(path, name, "fixed_value or angle"),
            (Some(_), Some(_)) => self
                .report(path.to_string(), ErrorKind::Conflict { fields: vec!["fixed_value".into(), "angle".into()] }),
            (Some(text), None) | (None, Some(text)) => {
                if literal.degrees().is_none() {
                    let message = format!("\"{text}\" is not a number of degrees");
                    let key = if literal.fixed_value.is_some() { "fixed_value" } else { "angle" };
                    self.report(at(path, key), ErrorKind::Malformed { message });
                }
            }
        }
    }

    fn remove_condition(&mut self, condition: &RemoveCondition, path: &str) {
        use ConditionType::*;
        match condition.condition_type {
            None if condition.condition_span.is_none() => {
                self.missing(path, "remove_condition", "condition_type or condition_span")
            }
            Some(Comparator) if condition.condition.is_none() => {
                self.missing(path, "condition_type COMPARATOR", "condition")
            }
            Some(AdjacentToBlockType) if condition.block_type.is_none() => {
                self.missing(path, "condition_type ADJACENT_TO_BLOCK_TYPE", "block_type")
            }
            _ => {}
        }
        if condition.condition.is_some() && condition.condition_type != Some(Comparator) {
            self.misplaced(path, "condition", "without condition_type COMPARATOR".into());
        }
        if condition.block_type.is_some() && condition.condition_type != Some(AdjacentToBlockType) {
            self.misplaced(path, "block_type", "without condition_type ADJACENT_TO_BLOCK_TYPE".into());
        }
        self.opt_span(condition.block_type, path, "block_type");
        self.opt_span(condition.condition_span, path, "condition_span");
        if let Some(comparator) = &condition.condition {
            self.comparator(comparator, &at(path, "condition"));
        }
    }

    fn comparator(&mut self, comparator: &Comparator, path: &str) {
        for (key, operand) in [("input_left", &comparator.input_left), ("input_right", &comparator.input_right)] {
            self.operand(operand, &at(path, key), key);
        }
        self.opt_span(comparator.comparison_measure, path, "comparison_measure");
    }

    fn operand(&mut self, operand: &Operand, path: &str, name: &str) {
        if operand.filters.is_none() && operand.value.is_none() {
            self.missing(path, name, "filters or value");
        }
        if let Some(filters) = &operand.filters {
            self.filters(filters, &at(path, "filters"));
        }
        self.opt_span(operand.value, path, "value");
    }

    fn memory_data(&mut self, data: &MemoryData, path: &str) {
        let has_triples = data.triples.as_ref().is_some_and(|triples| !triples.is_empty());
        if data.memory_type == MemoryType::Triple && !has_triples {
            self.missing(path, "memory_type TRIPLE", "triples");
        }
        if data.memory_type == MemoryType::Reward && data.reward_value.is_none() {
            self.missing(path, "memory_type REWARD", "reward_value");
        }
        if data.reward_value.is_some() && data.memory_type != MemoryType::Reward {
            self.misplaced(path, "reward_value", format!("with memory_type {}", data.memory_type));
        }
        self.triples(data.triples.as_deref(), path);
    }
}

#[cfg(test)]
#[path = "validate_tests.rs"]
mod tests;
