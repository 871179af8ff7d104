//! What the bot made of the last chat line it handled: the words it read, the logical form, how
//! sure it was, where the form came from and what it did with it.
//!
//! The dialogue manager fills one [`LastLine`] per line as it decides; the web view shows it, so
//! a player (or a researcher retraining the parser) can see *why* the bot did what it did.

use crate::logical_form::{LogicalForm, tokenize};
use crate::understanding::Source;
use serde::Serialize;
use serde_json::Value;
use std::time::Duration;

/// What was done with a line, in the words the web view shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    /// Being read (the line is still being handled).
    Reading,
    /// A command carried out (tasks pushed, or done at once).
    ActedOn,
    /// A question back to the player: which one, are you sure, did you mean.
    AskedBack,
    /// A command the bot understood but could not do ("I can't find the blue house").
    NotDone,
    /// A question about the world or the bot, answered.
    Answered,
    /// A name, tag or feedback written to memory.
    Remembered,
    /// Chit-chat: a canned line or the language model.
    SmallTalk,
    /// The answer to a question the bot had asked.
    Answer,
    /// Stopped by the chat gate (empty, too long, not allowed).
    Screened,
}

/// The last line handled, as the web view shows it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct LastLine {
    /// Counts lines handled, so a watcher can tell a new line from the same one.
    pub seq: u64,
    pub speaker: String,
    pub tick: u64,
    /// The line as typed.
    pub said: String,
    /// The line the form's spans index (normalised, typos fixed), when a form was made.
    pub read_as: Option<String>,
    /// The logical form with every span replaced by the words it points at.
    pub form: Option<Value>,
    pub confidence: Option<f32>,
    /// Where the form came from: "parser", "known line", "taught", …
    pub source: Option<&'static str>,
    /// Typos fixed on the way, `(typed, meant)`.
    pub fixes: Vec<(String, String)>,
    pub outcome: Outcome,
    /// Time spent reading the line (rules, the parser), in milliseconds.
    pub parse_ms: Option<f64>,
}

impl LastLine {
    pub fn new(seq: u64, speaker: &str, said: &str, tick: u64) -> LastLine {
        LastLine {
            seq,
            speaker: speaker.to_string(),
            tick,
            said: said.to_string(),
            read_as: None,
            form: None,
            confidence: None,
            source: None,
            fixes: Vec::new(),
            outcome: Outcome::Reading,
            parse_ms: None,
        }
    }

    /// Notes how the line was read.
    pub fn read(&mut self, text: &str, lf: &LogicalForm, confidence: f32, source: Source, fixes: &[(String, String)], took: Duration) {
        self.read_as = Some(text.to_string());
        self.form = Some(with_words(&lf.to_json_value(), &tokenize(text)));
        self.confidence = Some(confidence);
        self.source = Some(source_name(source));
        self.fixes = fixes.to_vec();
        self.parse_ms = Some(took.as_secs_f64() * 1000.0);
    }
}

fn source_name(s: Source) -> &'static str {
    match s {
        Source::Given => "given",
        Source::Known => "known line",
        Source::HowTo => "how-to question",
        Source::Parser => "parser",
        Source::Steps => "parser, step by step",
        Source::Taught => "taught by a player",
        Source::DidYou => "question about the past",
        Source::WhatBuilt => "question about builds",
        Source::AskedMe => "question about what was asked",
    }
}

/// `form` with each span `[0, [i, j]]` replaced by the words `i..=j` of `tokens` (a span past
/// the end is left as it is: the form is shown, not judged).
pub fn with_words(form: &Value, tokens: &[String]) -> Value {
    if let Some(r) = crate::logical_form::Span::from_json(form).map(|s| s.range())
        && r.end <= tokens.len()
        && r.start < r.end
    {
        return Value::String(tokens[r].join(" "));
    }
    match form {
        Value::Array(items) => Value::Array(items.iter().map(|v| with_words(v, tokens)).collect()),
        Value::Object(m) => Value::Object(m.iter().map(|(k, v)| (k.clone(), with_words(v, tokens))).collect()),
        other => other.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn spans_become_the_words_they_point_at() {
        let tokens: Vec<String> = "build a red cube".split(' ').map(String::from).collect();
        let form = json!({"action_type": "BUILD", "schematic": {"text_span": [0, [1, 3]], "triples": [{"pred_text": "has_colour", "obj_text": [0, [2, 2]]}]}});
        let shown = with_words(&form, &tokens);
        assert_eq!(shown["schematic"]["text_span"], json!("a red cube"));
        assert_eq!(shown["schematic"]["triples"][0]["obj_text"], json!("red"));
        assert_eq!(shown["action_type"], json!("BUILD"));
    }

    #[test]
    fn a_span_past_the_end_is_left_alone() {
        let tokens: Vec<String> = vec!["hi".into()];
        let form = json!({"x": [0, [3, 4]]});
        assert_eq!(with_words(&form, &tokens), form);
    }
}
