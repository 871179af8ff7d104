//! Numbers as players type them: digits ("12", "-3", "2.5"), words ("ten", "twenty five",
//! "a hundred and five") and the vague quantities chat is full of ("a couple", "a few", "a dozen",
//! "a stack").
//!
//! The reader is the lexicon's ([`crate::lexicon::Lexicon::number`]), the one number reader in the
//! crate; this name stays for the modules that call it.

use crate::lexicon::lexicon;

/// Reads the number that starts at `tokens[i]`, if one does, and how many tokens it spans.
pub fn read_number(tokens: &[String], i: usize) -> Option<(i64, usize)> {
    lexicon().number(tokens, i)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &str) -> Option<(i64, usize)> {
        let tokens: Vec<String> = text.split_whitespace().map(str::to_string).collect();
        read_number(&tokens, 0)
    }

    #[test]
    fn digits_words_and_vague_quantities() {
        assert_eq!(read("12 wide"), Some((12, 1)));
        assert_eq!(read("twenty five high"), Some((25, 2)));
        assert_eq!(read("a couple of blocks"), Some((2, 3)));
        assert_eq!(read("a tower"), None);
    }
}
