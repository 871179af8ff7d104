//! Training examples: annotated rows (`text|json` or `id|text|json`), chit-chat lines as NOOP
//! examples, and the deterministic train/validation split by unique lower-cased text (the same text
//! never lands on both sides, so duplicates cannot inflate the validation score).

use std::collections::BTreeSet;
use std::path::Path;

use rand::SeedableRng;
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use serde_json::Value;

use crate::logical_form::check::load_rows;
use crate::parser::{ParserError, Result};

/// One example: the data's words (already normalised), the gold form as JSON, and where it comes
/// from.
#[derive(Debug, Clone)]
pub struct Example {
    pub words: Vec<String>,
    pub json: Value,
    pub origin: Origin,
}

/// Where an example comes from. The annotated file is ordered by annotation batch, and the
/// batches follow different conventions (later ones write fewer `text_span`s), so a row's position
/// tells which conventions its form follows; training can teach the network to name them (see
/// [`crate::training::trainer::Options::styles`]).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Origin {
    /// Row `n` (counted from 0, blank lines skipped) of an annotation file.
    Annotated(usize),
    /// A chit-chat line used as a NOOP example.
    Chat,
    /// A command from our templates.
    Templated,
    /// Anything else (hand-written examples, scenario lines).
    #[default]
    Other,
}

impl Origin {
    /// The row of the annotation file, for an annotated example.
    pub fn annotated_row(&self) -> Option<usize> {
        match self {
            Origin::Annotated(row) => Some(*row),
            _ => None,
        }
    }
}

impl Example {
    pub fn text(&self) -> String {
        self.words.join(" ")
    }
}

/// Loads an annotation file; rows whose JSON does not decode are skipped (and counted in the log).
pub fn load_annotated(path: &Path) -> Result<Vec<Example>> {
    let rows = load_rows(path).map_err(|e| ParserError::Data(e.to_string()))?;
    let mut out = Vec::with_capacity(rows.len());
    for (n, row) in rows.into_iter().enumerate() {
        match serde_json::from_str::<Value>(&row.json) {
            Ok(json) => out.push(Example {
                words: row.text.to_lowercase().split_whitespace().map(str::to_string).collect(),
                json,
                origin: Origin::Annotated(n),
            }),
            Err(e) => tracing::warn!(line = row.line, "skipping row: {e}"),
        }
    }
    Ok(out)
}

/// `n` chit-chat lines (seeded sample) as NOOP examples. Lines said to the bot ("what are you
/// doing", "hold on", "stop it": the chit-chat file has many) are left out: as NOOP examples they
/// taught the parser to read those commands and questions as small talk, sure of itself.
pub fn load_noop(path: &Path, n: usize, seed: u64) -> Result<Vec<Example>> {
    let text = std::fs::read_to_string(path).map_err(|source| ParserError::Io { path: path.into(), source })?;
    let exact = crate::understanding::exact::ExactTable::default_table();
    let mut lines: Vec<&str> = text
        .lines()
        .filter(|l| !l.trim().is_empty())
        .filter(|l| !crate::understanding::everyday::is_for_the_bot(&crate::logical_form::normalize(l), &exact))
        .collect();
    lines.shuffle(&mut StdRng::seed_from_u64(seed));
    Ok(lines
        .into_iter()
        .take(n)
        .map(|l| Example {
            words: l.to_lowercase().split_whitespace().map(str::to_string).collect(),
            json: serde_json::json!({"dialogue_type": "NOOP"}),
            origin: Origin::Chat,
        })
        .collect())
}

/// Splits by unique lower-cased text: a seeded shuffle of the sorted unique texts puts the first
/// `valid_fraction` of them in validation.
pub fn split(examples: Vec<Example>, valid_fraction: f64, seed: u64) -> (Vec<Example>, Vec<Example>) {
    let unique: BTreeSet<String> = examples.iter().map(|e| e.text()).collect();
    let mut texts: Vec<String> = unique.into_iter().collect();
    texts.shuffle(&mut StdRng::seed_from_u64(seed));
    let n_valid = (texts.len() as f64 * valid_fraction).round() as usize;
    let valid: BTreeSet<String> = texts.into_iter().take(n_valid).collect();
    examples.into_iter().partition(|e| !valid.contains(&e.text()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ex(text: &str) -> Example {
        Example {
            words: text.split(' ').map(str::to_string).collect(),
            json: serde_json::json!({}),
            origin: Origin::Other,
        }
    }

    #[test]
    fn an_annotated_example_knows_its_row() {
        assert_eq!((Origin::Annotated(9500).annotated_row(), Origin::Chat.annotated_row()), (Some(9500), None));
    }

    #[test]
    fn chit_chat_examples_leave_out_lines_said_to_the_bot() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("chat.txt");
        std::fs::write(&path, "what are you doing right now\nhold on\ni love pizza\nstop it\nnice weather today\n").unwrap();
        let mut kept: Vec<String> = load_noop(&path, 10, 1).unwrap().iter().map(Example::text).collect();
        kept.sort();
        assert_eq!(kept, ["i love pizza", "nice weather today"]);
    }

    #[test]
    fn split_keeps_duplicates_together_and_is_deterministic() {
        let rows: Vec<Example> = (0..200).map(|i| ex(&format!("row {}", i % 150))).collect();
        let (train, valid) = split(rows.clone(), 0.1, 7);
        assert_eq!(train.len() + valid.len(), 200);
        let train_texts: BTreeSet<String> = train.iter().map(Example::text).collect();
        assert!(valid.iter().all(|e| !train_texts.contains(&e.text())));
        let valid_texts: BTreeSet<String> = valid.iter().map(Example::text).collect();
        assert_eq!(valid_texts.len(), 15);
        let (_, again) = split(rows, 0.1, 7);
        assert_eq!(
            again.iter().map(Example::text).collect::<Vec<_>>(),
            valid.iter().map(Example::text).collect::<Vec<_>>()
        );
    }
}
