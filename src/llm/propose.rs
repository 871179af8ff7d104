//! Letting the model suggest a logical form for a command the parser failed on.
//!
//! The model sees a few example commands with their logical forms (few-shot) and the failed
//! command with its words numbered, and answers with JSON. The answer is used only if it passes
//! [`validate_json`] against the normalized command, the same gate the parser's output goes
//! through; anything else (prose, broken JSON, bad spans, NOOP) gives `None`. Never panics.

use std::time::Duration;

use super::{Chat, ChatRequest, Message};
use crate::logical_form::{DialogueType, LogicalForm, normalize, validate_json};

/// Example commands (already normalized) and their logical forms, from the annotated data.
// lexicon: example commands and their forms in the language model's prompt (prompt data).
pub const EXAMPLES: &[(&str, &str)] = &[
    (
        "build a tower",
        r#"{"dialogue_type": "HUMAN_GIVE_COMMAND", "action_sequence": [{"action_type": "BUILD", "schematic": {"text_span": [0, [2, 2]], "filters": {"where_clause": {"AND": [{"pred_text": "has_name", "obj_text": [0, [2, 2]]}]}}}}]}"#,
    ),
    (
        "destroy the house",
        r#"{"dialogue_type": "HUMAN_GIVE_COMMAND", "action_sequence": [{"action_type": "DESTROY", "reference_object": {"filters": {"where_clause": {"AND": [{"pred_text": "has_name", "obj_text": [0, [2, 2]]}]}}, "text_span": [0, [2, 2]]}}]}"#,
    ),
    (
        "come here",
        r#"{"dialogue_type": "HUMAN_GIVE_COMMAND", "action_sequence": [{"action_type": "MOVE", "location": {"contains_coreference": "yes", "text_span": [0, [1, 1]]}}]}"#,
    ),
    (
        "move forward",
        r#"{"dialogue_type": "HUMAN_GIVE_COMMAND", "action_sequence": [{"action_type": "MOVE", "location": {"relative_direction": "FRONT", "reference_object": {"special_reference": {"fixed_value": "AGENT"}}, "text_span": [0, [1, 1]]}}]}"#,
    ),
    (
        "dig a hole",
        r#"{"dialogue_type": "HUMAN_GIVE_COMMAND", "action_sequence": [{"action_type": "DIG", "schematic": {"text_span": [0, [2, 2]], "filters": {"where_clause": {"AND": [{"pred_text": "has_name", "obj_text": [0, [2, 2]]}]}}}}]}"#,
    ),
    ("stop", r#"{"dialogue_type": "HUMAN_GIVE_COMMAND", "action_sequence": [{"action_type": "STOP"}]}"#),
];

const SYSTEM: &str = "You translate commands that players give a Minecraft helper bot into JSON logical forms. \
Answer with exactly one JSON object and nothing else. A text span [0, [i, j]] means words i to j \
(inclusive, counting from 0) of the command; the words are numbered for you.";

/// The user message for a normalized command: the words and their numbers.
pub fn command_message(normalized: &str) -> String {
    let numbered: Vec<String> = normalized.split_whitespace().enumerate().map(|(i, w)| format!("{i}:{w}")).collect();
    format!("Command: {normalized}\nWords: {}", numbered.join(" "))
}

/// The few-shot conversation asking for `normalized`'s logical form.
pub fn proposal_messages(normalized: &str) -> Vec<Message> {
    let mut messages = vec![Message::system(SYSTEM)];
    for (text, json) in EXAMPLES {
        messages.push(Message::user(command_message(text)));
        messages.push(Message::assistant(*json));
    }
    messages.push(Message::user(command_message(normalized)));
    messages
}

/// The JSON object candidates in a model answer: the answer without code fences, then the span from
/// its first `{` to its last `}`.
pub fn json_candidates(answer: &str) -> Vec<String> {
    let mut text = answer.trim();
    if let Some(rest) = text.strip_prefix("```") {
        // Drop the fence's language tag line (```json).
        text = rest.split_once('\n').map_or("", |(_, body)| body);
    }
    let text = text.trim().trim_end_matches("```").trim();
    let mut out = vec![text.to_string()];
    if let (Some(start), Some(end)) = (text.find('{'), text.rfind('}'))
        && start < end
    {
        let inner = &text[start..=end];
        if inner != text {
            out.push(inner.to_string());
        }
    }
    out
}

/// The first candidate in `answer` that validates against `normalized` and is not NOOP.
pub fn parse_proposal(normalized: &str, answer: &str) -> Option<LogicalForm> {
    for candidate in json_candidates(answer) {
        let checked = std::panic::catch_unwind(|| validate_json(normalized, &candidate));
        match checked {
            Ok(Ok(lf)) if lf.dialogue_type != DialogueType::Noop => return Some(lf),
            Ok(Ok(_)) => return None,
            Ok(Err(errors)) => {
                tracing::debug!(
                    "LLM logical form rejected: {}",
                    errors.iter().map(|e| e.to_string()).collect::<Vec<_>>().join("; ")
                )
            }
            Err(_) => tracing::warn!("validate_json panicked on an LLM answer"),
        }
    }
    None
}

/// Asks the model for the logical form of `text` (raw chat); `None` unless the answer, within
/// `limit`, is a valid non-NOOP logical form for the normalized text.
pub fn propose_logical_form(chat: &dyn Chat, text: &str, limit: Duration) -> Option<LogicalForm> {
    let normalized = normalize(text);
    if normalized.is_empty() {
        return None;
    }
    let mut request = ChatRequest::new(proposal_messages(&normalized), limit);
    request.max_tokens = Some(256);
    match chat.complete(&request) {
        Ok(completion) => parse_proposal(&normalized, &completion.text),
        Err(e) => {
            tracing::debug!("LLM logical-form proposal failed: {e}");
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn examples_are_valid() {
        for (text, json) in EXAMPLES {
            assert_eq!(&normalize(text), text);
            validate_json(text, json).unwrap_or_else(|e| panic!("{text}: {e:?}"));
        }
    }

    #[test]
    fn candidates_and_junk() {
        let json = EXAMPLES[0].1;
        assert!(parse_proposal("build a tower", json).is_some());
        assert!(parse_proposal("build a tower", &format!("```json\n{json}\n```")).is_some());
        assert!(parse_proposal("build a tower", &format!("Sure! Here it is: {json} Hope it helps.")).is_some());
        // Spans out of range for a shorter command.
        assert!(parse_proposal("build", json).is_none());
        for junk in ["", "{", "}{", "```", "```json", "null", "[1,2]", "{\"dialogue_type\": 5}", "é{ü}ß", "{\"a\":"]
        {
            assert!(parse_proposal("build a tower", junk).is_none(), "{junk}");
        }
        assert!(parse_proposal("hello there", r#"{"dialogue_type": "NOOP"}"#).is_none());
    }

    #[test]
    fn numbered_words() {
        assert_eq!(command_message("go to the tree"), "Command: go to the tree\nWords: 0:go 1:to 2:the 3:tree");
        let m = proposal_messages("go to the tree");
        assert_eq!(m.len(), 2 + 2 * EXAMPLES.len());
    }
}
