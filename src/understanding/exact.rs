//! The exact-match command table: known chat lines with their logical forms, checked before the
//! neural parser (CraftAssist does the same). It makes the commonest commands instant and exact,
//! and lets a server owner pin down phrasings their players use.
//!
//! The file format is the released data's: `text|json` a line, `#` comments allowed. Every form
//! is validated against its text when the table loads, so a typo is caught at start-up, with the
//! line number, not when a player happens to say that line.

use crate::logical_form::{LogicalForm, normalize, validate_json};
use std::collections::HashMap;

/// The table shipped with the binary.
pub const DEFAULT_TABLE: &str = include_str!("../../data/exact_commands.txt");

#[derive(Debug, thiserror::Error)]
#[error("line {line}: {message}")]
pub struct TableError {
    pub line: usize,
    pub message: String,
}

#[derive(Debug, Clone, Default)]
pub struct ExactTable {
    forms: HashMap<String, LogicalForm>,
}

impl ExactTable {
    pub fn parse(contents: &str) -> Result<ExactTable, TableError> {
        let mut forms = HashMap::new();
        for (i, raw) in contents.lines().enumerate() {
            let line = raw.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let err = |message: String| TableError { line: i + 1, message };
            let (text, json) = line.split_once("|{").map(|(t, j)| (t, format!("{{{j}"))).ok_or_else(|| err("expected `text|json`".into()))?;
            let text = normalize(text);
            let lf = validate_json(&text, &json).map_err(|errors| {
                err(errors.iter().map(|e| e.to_string()).collect::<Vec<_>>().join("; "))
            })?;
            forms.insert(text, lf);
        }
        Ok(ExactTable { forms })
    }

    /// The shipped table (it is checked by a test, so this cannot fail at run time).
    pub fn default_table() -> ExactTable {
        ExactTable::parse(DEFAULT_TABLE).unwrap_or_default()
    }

    /// The form for this chat, if the table knows the line (after normalization).
    pub fn lookup(&self, chat: &str) -> Option<&LogicalForm> {
        self.forms.get(&normalize(chat))
    }

    /// Every word of the table's lines.
    pub fn words(&self) -> Vec<String> {
        let mut words: Vec<String> = self.forms.keys().flat_map(|t| t.split(' ').map(String::from)).collect();
        words.sort();
        words.dedup();
        words
    }

    pub fn len(&self) -> usize {
        self.forms.len()
    }

    pub fn is_empty(&self) -> bool {
        self.forms.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shipped_table_loads_and_matches_normalized_chat() {
        let t = ExactTable::parse(DEFAULT_TABLE).expect("the shipped table is valid");
        assert!(t.len() >= 20);
        assert!(t.lookup("Come here!").is_some());
        assert!(t.lookup("what are you doing?").is_some());
        assert!(t.lookup("come over to the castle please").is_none());
    }

    #[test]
    fn bad_lines_are_reported_with_their_number() {
        let e = ExactTable::parse("# ok\nstop|{\"dialogue_type\": \"NOOP\"}\nno json here\n").unwrap_err();
        assert_eq!(e.line, 3);
        let e = ExactTable::parse("go|{\"dialogue_type\": \"HUMAN_GIVE_COMMAND\", \"action_sequence\": [{\"action_type\": \"MOVE\", \"location\": {\"text_span\": [0, [0, 3]]}}]}").unwrap_err();
        assert!(e.to_string().contains("out of range"), "{e}");
    }
}
