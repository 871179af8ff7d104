//! The disallowed-word list: chat containing one of these gets a polite refusal and no action,
//! and nothing the bot says (LLM answers included) may contain them.
//!
//! Matching is on whole words of the normalized chat (so "class" never matches "ass"), with
//! multi-word phrases matched as word sequences.

use crate::logical_form::tokenize;

/// The default list, shipped with the binary.
pub const DEFAULT_LIST: &str = include_str!("../../data/disallowed_words.txt");

#[derive(Debug, Clone, Default)]
pub struct Disallowed {
    phrases: Vec<Vec<String>>,
}

impl Disallowed {
    /// Parse a list: one word or phrase per line, `#` comments and blank lines ignored.
    pub fn parse(list: &str) -> Disallowed {
        let phrases = list
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty() && !l.starts_with('#'))
            .map(tokenize)
            .filter(|t| !t.is_empty())
            .collect();
        Disallowed { phrases }
    }

    pub fn default_list() -> Disallowed {
        Disallowed::parse(DEFAULT_LIST)
    }

    /// The first disallowed phrase in `text`, if any.
    pub fn find(&self, text: &str) -> Option<String> {
        let words = tokenize(text);
        self.phrases.iter().find(|p| words.windows(p.len()).any(|w| w == p.as_slice())).map(|p| p.join(" "))
    }

    pub fn contains(&self, text: &str) -> bool {
        self.find(text).is_some()
    }

    pub fn len(&self) -> usize {
        self.phrases.len()
    }

    pub fn is_empty(&self) -> bool {
        self.phrases.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn whole_words_and_phrases() {
        let d = Disallowed::parse("# comment\nbadword\nkill yourself\n\n");
        assert_eq!(d.len(), 2);
        assert!(d.contains("you BADWORD"));
        assert!(d.contains("please kill yourself now"));
        assert!(!d.contains("kill the pig yourself"));
        assert!(!d.contains("badwords are fine as part of other words? no: badwordy"));
        assert!(Disallowed::default_list().len() > 5);
        assert!(!Disallowed::default_list().contains("build a class room"));
    }
}
