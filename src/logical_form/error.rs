//! Errors: what can be wrong with a logical form, said precisely enough to fix it.
//!
//! Every problem is a [`ValidationError`]: a JSON path (`action_sequence[0].location`) plus an
//! [`ErrorKind`]. Shape problems come from serde (through `serde_path_to_error`, which supplies the
//! path); their messages are mapped onto kinds here so that callers (the check-data command, the
//! parser's decoder, the LLM fallback's repair prompt) can match on them instead of parsing text.

use std::fmt;

use thiserror::Error;

use super::span::Span;

/// One problem, located by its JSON path ("" for the root).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ValidationError {
    pub path: String,
    pub kind: ErrorKind,
}

impl ValidationError {
    pub fn new(path: impl Into<String>, kind: ErrorKind) -> Self {
        ValidationError { path: path.into(), kind }
    }

    /// Classifies a serde error message (unknown variant/field, missing field, anything else).
    pub(crate) fn from_serde(path: String, message: &str) -> Self {
        let quoted = backticked(message);
        let first = quoted.first().cloned().unwrap_or_default();
        let rest: Vec<String> = quoted.iter().skip(1).cloned().collect();
        let mut path = path;
        let kind = if message.starts_with("unknown variant ") {
            ErrorKind::UnknownValue { value: first, expected: rest }
        } else if message.starts_with("unknown field ") {
            // serde_path_to_error ends the path with the stray key itself; point at its parent.
            path = parent_of_key(&path, &first);
            ErrorKind::UnknownField { field: first, expected: rest }
        } else if message.starts_with("missing field ") {
            ErrorKind::MissingField { field: first }
        } else {
            ErrorKind::Malformed { message: message.to_string() }
        };
        ValidationError { path, kind }
    }
}

impl fmt::Display for ValidationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.path.is_empty() { write!(f, "{}", self.kind) } else { write!(f, "{}: {}", self.path, self.kind) }
    }
}

impl std::error::Error for ValidationError {}

/// What is wrong.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ErrorKind {
    /// A well-formed span that reaches past the last word of the text.
    #[error("span {span} is out of range for a text of {n_words} words")]
    SpanOutOfRange { span: Span, n_words: usize },
    /// A span that cannot be right for any text.
    #[error("span {span} {problem}")]
    BadSpan { span: Span, problem: SpanProblem },
    /// A string outside the closed vocabulary of its key.
    #[error("unknown variant \"{value}\"")]
    UnknownValue { value: String, expected: Vec<String> },
    /// A key the node does not have.
    #[error("unknown field \"{field}\"")]
    UnknownField { field: String, expected: Vec<String> },
    /// A required key that is absent.
    #[error("missing field \"{field}\"")]
    MissingField { field: String },
    /// Not JSON, or JSON of the wrong shape (an array for an object, a negative index, ...).
    #[error("{message}")]
    Malformed { message: String },
    /// A HUMAN_GIVE_COMMAND without actions.
    #[error("HUMAN_GIVE_COMMAND needs at least one action in action_sequence")]
    EmptySequence,
    /// A value that requires a companion key which is absent (BETWEEN without reference_object_1).
    #[error("{owner} needs {child}")]
    MissingChild { owner: String, child: String },
    /// A key that does not belong with its context (a schematic on DESTROY).
    #[error("{field} is not allowed {context}")]
    Misplaced { field: String, context: String },
    /// Keys that exclude each other.
    #[error("only one of {} may be given", .fields.join(", "))]
    Conflict { fields: Vec<String> },
}

/// Why a span is malformed regardless of the text.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Error)]
pub enum SpanProblem {
    #[error("starts after it ends")]
    Reversed,
    #[error("refers to sentence {0}, but a chat is sentence 0")]
    Sentence(usize),
}

/// Why [`super::LogicalForm::from_json_str`] failed.
#[derive(Debug, Error)]
pub enum LfError {
    /// The text is not JSON at all.
    #[error("malformed JSON: {0}")]
    Json(#[source] serde_json::Error),
    /// The JSON does not fit the schema; the error says where.
    #[error("{0}")]
    Schema(ValidationError),
}

impl LfError {
    /// The JSON path of the problem ("" for the root or for unparsable text).
    pub fn path(&self) -> &str {
        match self {
            LfError::Json(_) => "",
            LfError::Schema(error) => &error.path,
        }
    }

    /// The same problem as a [`ValidationError`] (unparsable text becomes `Malformed` at the root).
    pub fn into_validation_error(self) -> ValidationError {
        match self {
            LfError::Json(error) => {
                ValidationError::new("", ErrorKind::Malformed { message: format!("malformed JSON: {error}") })
            }
            LfError::Schema(error) => error,
        }
    }
}

/// `a.b.key` → `a.b` and `key` → `` (the root); any other path is returned unchanged.
fn parent_of_key(path: &str, key: &str) -> String {
    match path.strip_suffix(key) {
        Some("") => String::new(),
        Some(prefix) if prefix.ends_with('.') => prefix[..prefix.len() - 1].to_string(),
        _ => path.to_string(),
    }
}

/// The `quoted` parts of a serde message, in order: the offending name, then the expected ones.
fn backticked(message: &str) -> Vec<String> {
    message.split('`').skip(1).step_by(2).map(str::to_string).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classifies_serde_messages() {
        let e =
            ValidationError::from_serde("a.b".into(), "unknown variant `SIDEWAYS`, expected one of `LEFT`, `RIGHT`");
        assert_eq!(
            e.kind,
            ErrorKind::UnknownValue { value: "SIDEWAYS".into(), expected: vec!["LEFT".into(), "RIGHT".into()] }
        );
        assert_eq!(e.to_string(), "a.b: unknown variant \"SIDEWAYS\"");
        let e = ValidationError::from_serde(String::new(), "unknown field `foo`, there are no fields");
        assert_eq!(e.kind, ErrorKind::UnknownField { field: "foo".into(), expected: vec![] });
        let e = ValidationError::from_serde(String::new(), "missing field `dialogue_type`");
        assert_eq!(e.to_string(), "missing field \"dialogue_type\"");
        let e = ValidationError::from_serde("x".into(), "invalid type: string \"a\", expected a span");
        assert!(matches!(e.kind, ErrorKind::Malformed { .. }));
    }

    #[test]
    fn span_messages_read_precisely() {
        let e = ValidationError::new(
            "action_sequence[0].schematic.text_span",
            ErrorKind::BadSpan { span: Span::new(5, 2), problem: SpanProblem::Reversed },
        );
        assert_eq!(e.to_string(), "action_sequence[0].schematic.text_span: span [0, [5, 2]] starts after it ends");
    }
}
