//! Turning raw chat into the annotations' word convention, so spans index the same words.
//!
//! The annotated texts are lower-case, split on whitespace, with English clitics split off the way
//! the Penn Treebank does it (`don't` → `do n't`, `can't` → `ca n't`, `that's` → `that 's`) and
//! sentence punctuation removed. Numbers keep their signs and decimals (`-157`, `41.5`, `10-ft`),
//! since coordinates and sizes are read from those words later. Players skip the space after a
//! comma ("a tower,red,10 high", "go to 5,5,5"): a comma or semicolon inside a word parts it, as
//! one with a space would, unless it groups thousands (`1,000`). A "word" with no letter or digit at
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
    for raw in chat.split_whitespace().flat_map(part_at_commas) {
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

/// The pieces of a whitespace-separated word between its commas and semicolons; a number with
/// thousands groups (`1,000`, `12,500,000`) stays whole.
fn part_at_commas(raw: &str) -> Vec<&str> {
    if !raw.contains([',', ';']) {
        return vec![raw];
    }
    let mut groups = raw.trim_end_matches(is_edge_punctuation).split(',');
    let lead = groups.next().unwrap_or("").trim_start_matches(is_edge_punctuation);
    let thousands = (1..=3).contains(&lead.len())
        && lead.bytes().all(|b| b.is_ascii_digit())
        && groups.all(|g| g.len() == 3 && g.bytes().all(|b| b.is_ascii_digit()));
    if thousands { vec![raw] } else { raw.split([',', ';']).filter(|p| !p.is_empty()).collect() }
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
    fn a_comma_without_a_space_parts_words_as_one_with_a_space_does() {
        assert_eq!(words("build a tower,red,10 high"), words("build a tower, red, 10 high"));
        assert_eq!(words("go to 5,5,-5"), ["go", "to", "5", "5", "-5"]);
        assert_eq!(words("dig here;then stop"), ["dig", "here", "then", "stop"]);
        // Thousands keep their commas, as does a word that ends a clause.
        assert_eq!(words("walk 1,000 blocks, then 12,500"), ["walk", "1,000", "blocks", "then", "12,500"]);
        assert_eq!(words("a,,b ,, c,"), ["a", "b", "c"]);
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
