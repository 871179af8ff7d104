//! Turning raw chat into the annotations' word convention, so spans index the same words.
//!
//! The annotated texts are lower-case, split on whitespace, with English clitics split off the way
//! the Penn Treebank does it (`don't` → `do n't`, `can't` → `ca n't`, `that's` → `that 's`) and
//! sentence punctuation removed. Numbers keep their signs and decimals (`-157`, `41.5`, `10-ft`),
//! since coordinates and sizes are read from those words later. A "word" with no letter or digit at
//! all (`--`, a lone `'`, `:)`, emoji) is dropped: no annotated text has one, so to the parser it
//! is only noise that pulls a command towards chit-chat.
//!
//! The function is idempotent on text that already follows the convention, so normalizing twice (or
//! normalizing a data row) changes nothing; a test over the shared data measures this.

/// Clitics split off the end of a word, longest first so `n't` wins over a bare `'t`.
const CLITICS: &[&str] = &["n't", "'s", "'re", "'ll", "'ve", "'d", "'m"];

/// Punctuation removed from either end of a word. `.` is handled separately (it may be a decimal
/// point or part of an abbreviation); `-`, `'`, `/` and `_` stay (signs, clitics, fractions, ids).
fn is_edge_punctuation(c: char) -> bool {
    matches!(c, '?' | '!' | ',' | ';' | ':' | '"' | '(' | ')' | '[' | ']' | '{' | '}')
}

/// Splits raw chat into lower-case words following the annotations' convention.
///
/// ```
/// use craftmate::logical_form::tokenize;
/// assert_eq!(tokenize("Don't build it, OK?"), ["do", "n't", "build", "it", "ok"]);
/// assert_eq!(tokenize("go to -157 64.5 3."), ["go", "to", "-157", "64.5", "3"]);
/// ```
pub fn tokenize(chat: &str) -> Vec<String> {
    // Typographic apostrophes (phone keyboards) become the ASCII one the data mostly uses.
    let chat = chat.to_lowercase().replace(['\u{2019}', '\u{2018}'], "'");
    let mut words = Vec::new();
    for raw in chat.split_whitespace() {
        let word = strip_punctuation(raw);
        if word.chars().any(char::is_alphanumeric) {
            split_clitic(word, &mut words);
        }
    }
    words
}

/// The tokens joined by single spaces: the text form spans are counted in.
pub fn normalize(chat: &str) -> String {
    tokenize(chat).join(" ")
}

/// Removes edge punctuation and trailing full stops, keeping abbreviations such as `p.m.`.
fn strip_punctuation(raw: &str) -> &str {
    let mut word = raw.trim_matches(is_edge_punctuation);
    // Alternate so that "box.)" and "it?." both lose everything.
    loop {
        let before = word.len();
        if !is_abbreviation(word) {
            word = word.trim_end_matches('.');
        }
        word = word.trim_end_matches(is_edge_punctuation);
        if word.len() == before {
            return word;
        }
    }
}

/// Single letters each followed by a dot, at least two of them: `p.m.`, `u.s.`.
fn is_abbreviation(word: &str) -> bool {
    let bytes = word.as_bytes();
    bytes.len() >= 4
        && bytes.len().is_multiple_of(2)
        && bytes.chunks(2).all(|pair| pair[0].is_ascii_alphabetic() && pair[1] == b'.')
}

/// Pushes `word`, or its stem and clitic as two words (`you're` → `you`, `'re`).
fn split_clitic(word: &str, out: &mut Vec<String>) {
    for clitic in CLITICS {
        if let Some(stem) = word.strip_suffix(clitic) {
            // A bare clitic (already split) or a stem ending in an apostrophe stays whole.
            if !stem.is_empty() && !stem.ends_with('\'') {
                out.push(stem.to_string());
                out.push((*clitic).to_string());
                return;
            }
        }
    }
    out.push(word.to_string());
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(chat: &str) -> Vec<String> {
        tokenize(chat)
    }

    #[test]
    fn splits_clitics_like_the_data() {
        assert_eq!(words("don't"), ["do", "n't"]);
        assert_eq!(words("can't"), ["ca", "n't"]);
        assert_eq!(words("won't"), ["wo", "n't"]);
        assert_eq!(words("that's"), ["that", "'s"]);
        assert_eq!(words("you're"), ["you", "'re"]);
        assert_eq!(words("we'll i've i'd i'm"), ["we", "'ll", "i", "'ve", "i", "'d", "i", "'m"]);
        assert_eq!(words("Don\u{2019}t"), ["do", "n't"]);
        assert_eq!(words("the king's crown"), ["the", "king", "'s", "crown"]);
    }

    #[test]
    fn drops_sentence_punctuation_but_keeps_numbers() {
        assert_eq!(words("Build a HOUSE, please!"), ["build", "a", "house", "please"]);
        assert_eq!(words("what is that?"), ["what", "is", "that"]);
        assert_eq!(words("say \"hi\": now; ok"), ["say", "hi", "now", "ok"]);
        assert_eq!(words("move to 41.5 -157 3."), ["move", "to", "41.5", "-157", "3"]);
        assert_eq!(words("a 10-ft wall."), ["a", "10-ft", "wall"]);
        assert_eq!(words("go home... now"), ["go", "home", "now"]);
        assert_eq!(words("at 6 p.m. today"), ["at", "6", "p.m.", "today"]);
        assert_eq!(words("(this one)?."), ["this", "one"]);
    }

    #[test]
    fn odd_input_never_panics() {
        assert!(words("").is_empty());
        assert!(words("  ?! ... ,, ").is_empty());
        assert_eq!(words("'s n't '"), ["'s", "n't"]);
        assert!(words("🧱🔥 😀 -- ' ... :)").is_empty());
        assert_eq!(words("ÉCOLE ß"), ["école", "ß"]);
        assert_eq!(normalize("  Hi   there  "), "hi there");
    }

    #[test]
    fn words_without_letters_or_digits_are_noise() {
        assert_eq!(words("call this '; DROP TABLE memories; --"), ["call", "this", "drop", "table", "memories"]);
        assert_eq!(words("build a house :) -- now"), ["build", "a", "house", "now"]);
        assert_eq!(words("move to -5 6 x=3"), ["move", "to", "-5", "6", "x=3"]);
    }

    #[test]
    fn idempotent_on_normalized_text() {
        for chat in ["Don't you dare, Bob!", "go to 1.5, -2 and 3.", "that's the king's p.m. show"] {
            let once = normalize(chat);
            assert_eq!(normalize(&once), once);
        }
    }
}
