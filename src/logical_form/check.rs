//! Checking and loading annotation files (`text|json` or `id|text|json`, one row a line).
//!
//! [`check_file`] is the engine of `craftmate check-data FILE`: each row must parse strictly, write
//! back the same JSON value, and validate against its text. [`load_rows`] is the plain reader the
//! training loader builds on.
//!
//! Splitting a line: the JSON is the last field and always an object, so it starts at a `|{`. Texts
//! never contain `|` in practice, but an id or a JSON string could, so the split is made at the
//! first `|{` whose remainder parses as JSON (falling back to the first `|{` when none does, which
//! then reports the JSON error).

use std::fmt;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use serde_json::Value;
use thiserror::Error;

use super::error::ValidationError;
use super::form::LogicalForm;
use super::roundtrip::first_difference;
use super::validate::validate;

/// One annotation row.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Row {
    /// 1-based line number in the file.
    pub line: usize,
    /// The optional first field of `id|text|json` rows.
    pub id: Option<String>,
    pub text: String,
    pub json: String,
}

/// Totals of a [`check_file`] run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct CheckSummary {
    /// Non-blank lines checked.
    pub rows: usize,
    /// Rows with at least one problem (each printed as one `line N: ...` line).
    pub bad_rows: usize,
    /// Problems found in all (a row can have several).
    pub errors: usize,
}

impl fmt::Display for CheckSummary {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "checked {} rows, {} errors", self.rows, self.errors)
    }
}

/// Why a file could not be checked or loaded at all.
#[derive(Debug, Error)]
pub enum CheckError {
    #[error("cannot read {}: {source}", .path.display())]
    Read { path: PathBuf, source: io::Error },
    #[error("{}:{line}: no `|{{` separating the text from the JSON", .path.display())]
    NoSeparator { path: PathBuf, line: usize },
    #[error("cannot write the report: {0}")]
    Write(#[from] io::Error),
}

/// Checks every row of `path`, writing one `line N: ...` line per bad row and a closing
/// `checked N rows, M errors` line to `out`.
pub fn check_file(path: &Path, out: &mut dyn Write) -> Result<CheckSummary, CheckError> {
    let content = read(path)?;
    let mut summary = CheckSummary::default();
    for (index, line) in content.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        summary.rows += 1;
        let problems = check_line(line);
        if !problems.is_empty() {
            summary.bad_rows += 1;
            summary.errors += problems.len();
            writeln!(out, "line {}: {}", index + 1, problems.join("; "))?;
        }
    }
    writeln!(out, "{summary}")?;
    Ok(summary)
}

/// Reads every non-blank row of `path`; a line without a JSON field is an error.
pub fn load_rows(path: &Path) -> Result<Vec<Row>, CheckError> {
    let content = read(path)?;
    let mut rows = Vec::new();
    for (index, line) in content.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let split =
            split_line(line).ok_or_else(|| CheckError::NoSeparator { path: path.to_path_buf(), line: index + 1 })?;
        rows.push(Row {
            line: index + 1,
            id: split.id.map(str::to_string),
            text: split.text.to_string(),
            json: split.json.to_string(),
        });
    }
    Ok(rows)
}

fn read(path: &Path) -> Result<String, CheckError> {
    std::fs::read_to_string(path).map_err(|source| CheckError::Read { path: path.to_path_buf(), source })
}

/// A line cut into its fields, with the JSON already decoded when it parsed.
struct SplitLine<'a> {
    id: Option<&'a str>,
    text: &'a str,
    json: &'a str,
    value: Option<Value>,
}

/// Cuts a line at the first `|{` whose remainder is JSON (see the module docs).
fn split_line(line: &str) -> Option<SplitLine<'_>> {
    let candidates: Vec<usize> = line.match_indices("|{").map(|(at, _)| at).collect();
    let parsed = candidates
        .iter()
        .find_map(|&at| serde_json::from_str::<Value>(&line[at + 1..]).ok().map(|value| (at, Some(value))));
    let (at, value) = parsed.or_else(|| candidates.first().map(|&at| (at, None)))?;
    let (id, text) = match line[..at].rsplit_once('|') {
        Some((id, text)) => (Some(id), text),
        None => (None, &line[..at]),
    };
    Some(SplitLine { id, text, json: &line[at + 1..], value })
}

/// Every problem of one line, rendered.
fn check_line(line: &str) -> Vec<String> {
    let Some(split) = split_line(line) else {
        return vec!["no `|{` separating the text from the JSON".to_string()];
    };
    let value = match split.value {
        Some(value) => value,
        None => match serde_json::from_str::<Value>(split.json) {
            Ok(value) => value,
            Err(error) => return vec![format!("malformed JSON: {error}")],
        },
    };
    let form = match LogicalForm::from_json_value(&value) {
        Ok(form) => form,
        Err(error) => return vec![error.to_string()],
    };
    // Parsing already refuses lossy input; this states the round-trip contract explicitly.
    if let Some((path, message)) = first_difference(&value, &form.to_json_value()) {
        return vec![format!("does not round-trip at {path}: {message}")];
    }
    match validate(split.text, &form) {
        Ok(()) => Vec::new(),
        Err(errors) => errors.iter().map(ValidationError::to_string).collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_two_and_three_field_lines() {
        // Splitting does not care what the JSON says, only that it is JSON.
        let split = split_line(r#"fixture alpha|{"k": 1}"#).unwrap();
        assert_eq!((split.id, split.text, split.json), (None, "fixture alpha", r#"{"k": 1}"#));
        assert!(split.value.is_some());
        let split = split_line(r#"row-7|fixture beta|{"k": 1}"#).unwrap();
        assert_eq!((split.id, split.text), (Some("row-7"), "fixture beta"));
        // A text starting with `{` must not be mistaken for the JSON.
        let split = split_line(r#"7|{weird} words|{"k": 1}"#).unwrap();
        assert_eq!((split.id, split.text), (Some("7"), "{weird} words"));
        assert!(split_line("no json here").is_none());
    }

    #[test]
    fn reports_each_kind_of_bad_line() {
        assert_eq!(check_line("fixture gamma|{\"dialogue_type\": \"NOOP\"}"), Vec::<String>::new());
        assert_eq!(check_line("fixture gamma"), ["no `|{` separating the text from the JSON"]);
        assert!(check_line("fixture gamma|{oops")[0].starts_with("malformed JSON"));
        assert_eq!(
            check_line("fixture gamma|{\"dialogue_type\": \"NOPE\"}"),
            ["dialogue_type: unknown variant \"NOPE\""]
        );
    }
}
