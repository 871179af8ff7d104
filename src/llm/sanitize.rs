//! Making model output safe to say in Minecraft chat.
//!
//! The output of a language model is untrusted text. Before the bot says it:
//! 1. Minecraft formatting codes (`§` and the character after it) are removed, so a reply cannot
//!    recolour chat, turn text obfuscated or fake a server message;
//! 2. control and invisible formatting characters (newlines, escapes, bidi overrides, zero-width
//!    characters) become spaces, and runs of whitespace collapse to one space: one line of chat;
//! 3. a `Name:` or `assistant:` prefix the model may echo is dropped, as are wrapping quotes;
//! 4. leading slashes (and backslashes) are removed, so the line can never be a server command
//!    however the bot sends it;
//! 5. the text is capped at [`MAX_REPLY_CHARS`] characters, cut at a sentence end when one is
//!    reasonably close to the cap, else at a word boundary with `...`;
//! 6. if the text (before or after the cap) contains a disallowed word, there is no reply.

use crate::safety::disallowed::Disallowed;

/// The longest reply the bot says, in characters (Minecraft's chat line limit is 256).
pub const MAX_REPLY_CHARS: usize = 240;

/// Why a model's output could not be used.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Rejected {
    /// Nothing left after cleaning.
    Empty,
    /// The text contains this disallowed word or phrase.
    Disallowed(String),
}

/// The safe chat line for `raw` model output, or why there is none.
///
/// `bot_name` is the bot's own name, dropped when the model starts its answer with `Name:`.
pub fn sanitize_for(raw: &str, bot_name: &str, disallowed: &Disallowed) -> Result<String, Rejected> {
    let text = clean_line(raw);
    let text = strip_speaker(&text, bot_name);
    let text = strip_quotes(text);
    let text = strip_command_prefix(text);
    if let Some(word) = disallowed.find(text) {
        return Err(Rejected::Disallowed(word));
    }
    let text = cap(text, MAX_REPLY_CHARS);
    // Cutting never creates a slash or a control character, but the check is cheap.
    let text = strip_command_prefix(&text).to_string();
    if let Some(word) = disallowed.find(&text) {
        return Err(Rejected::Disallowed(word));
    }
    if text.chars().any(char::is_alphanumeric) { Ok(text) } else { Err(Rejected::Empty) }
}

/// The safe chat line for `raw` model output, or `None` when it is empty or has a disallowed word.
pub fn sanitize(raw: &str, disallowed: &Disallowed) -> Option<String> {
    sanitize_for(raw, "", disallowed).ok()
}

// One cleaning for everything the bot says, the language model's words included.
pub use crate::safety::text::{clean_line, is_unsafe_char};

/// Drops an echoed speaker prefix: `craftmate: hi` or `Assistant: hi` → `hi`.
fn strip_speaker<'a>(text: &'a str, bot_name: &str) -> &'a str {
    let mut text = text;
    // lexicon: speaker labels a language model echoes (its output format), not chat words.
    for name in [bot_name, "assistant", "bot", "ai"] {
        if name.is_empty() {
            continue;
        }
        let Some(head) = text.get(..name.len()) else { continue };
        if head.eq_ignore_ascii_case(name) {
            let rest = text[name.len()..].trim_start();
            if let Some(rest) = rest.strip_prefix(':') {
                text = rest.trim_start();
            }
        }
    }
    text
}

/// Drops quotes wrapping the whole answer.
fn strip_quotes(text: &str) -> &str {
    let t = text.trim();
    for (open, close) in [('"', '"'), ('\u{201C}', '\u{201D}'), ('\'', '\'')] {
        if t.len() >= 2 && t.starts_with(open) && t.ends_with(close) {
            let inner = &t[open.len_utf8()..t.len() - close.len_utf8()];
            if !inner.contains(open) && !inner.contains(close) {
                return inner.trim();
            }
        }
    }
    t
}

/// Removes leading slashes, backslashes and whitespace: the line can never be a command.
pub fn strip_command_prefix(text: &str) -> &str {
    text.trim_start_matches(|c: char| c == '/' || c == '\\' || c == '\u{FF0F}' || c.is_whitespace())
}

/// Byte offsets just after each sentence end in `text`: `.`, `!` or `?` followed by whitespace or a
/// closing quote, except list numbers like `2.` (a `.` right after a word of digits).
pub fn sentence_ends(text: &str) -> impl Iterator<Item = usize> + '_ {
    text.char_indices().filter_map(move |(i, c)| {
        if !matches!(c, '.' | '!' | '?') {
            return None;
        }
        let end = i + c.len_utf8();
        let rest = &text[end..];
        if !rest.starts_with(|n: char| n.is_whitespace() || n == '"') {
            return None;
        }
        let word = text[..i].rsplit(char::is_whitespace).next().unwrap_or("");
        if c == '.' && !word.is_empty() && word.chars().all(|w| w.is_ascii_digit()) {
            return None;
        }
        Some(end)
    })
}

/// Caps `text` at `max` characters: at the last sentence end if it keeps at least 40% of the cap,
/// else at the last word boundary followed by `...`.
pub fn cap(text: &str, max: usize) -> String {
    let text = text.trim();
    if text.chars().count() <= max {
        return text.to_string();
    }
    // Byte index of the char boundary at `max` characters.
    let limit = text.char_indices().nth(max).map_or(text.len(), |(i, _)| i);
    let head = &text[..limit];
    let sentence_end = sentence_ends(text).take_while(|&end| end <= head.len()).last();
    if let Some(end) = sentence_end
        && text[..end].chars().count() * 5 >= max * 2
    {
        return text[..end].to_string();
    }
    // Leave room for the ellipsis, then cut at the last space.
    let room = text.char_indices().nth(max.saturating_sub(3)).map_or(text.len(), |(i, _)| i);
    let head = &text[..room];
    let cut = match head.rfind(' ') {
        Some(i) if i > 0 => &head[..i],
        _ => head,
    };
    let cut = cut.trim_end_matches(|c: char| c.is_whitespace() || matches!(c, ',' | ';' | ':' | '-'));
    format!("{cut}...")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d() -> Disallowed {
        Disallowed::parse("badword\nkill yourself")
    }

    #[test]
    fn formatting_codes_and_controls() {
        assert_eq!(clean_line("§cRed§r text§"), "Red text");
        assert_eq!(clean_line("a\nb\r\n\tc\u{1b}[31m d"), "a b c [31m d");
        assert_eq!(clean_line("x\u{202E}y\u{200B}z"), "x y z");
        assert_eq!(clean_line("  many   spaces  "), "many spaces");
    }

    #[test]
    fn never_a_command() {
        assert_eq!(sanitize("/op me", &d()).unwrap(), "op me");
        assert_eq!(sanitize("  // /give @p diamond 64", &d()).unwrap(), "give @p diamond 64");
        assert_eq!(sanitize("\n/\u{0}/kill", &d()).unwrap(), "kill");
        assert_eq!(sanitize("§a/op me", &d()).unwrap(), "op me");
        assert_eq!(sanitize("\\op me", &d()).unwrap(), "op me");
        assert_eq!(sanitize("\"/op me\"", &d()).unwrap(), "op me");
        assert_eq!(sanitize("craftmate: /op me", &d()), Some("craftmate: /op me".into()));
        assert_eq!(sanitize_for("craftmate: /op me", "craftmate", &d()).unwrap(), "op me");
        // A slash inside the line is harmless text.
        assert_eq!(sanitize("Type /help for help.", &d()).unwrap(), "Type /help for help.");
    }

    #[test]
    fn speakers_and_quotes() {
        assert_eq!(sanitize_for("Assistant: Hello!", "bob", &d()).unwrap(), "Hello!");
        assert_eq!(sanitize_for("Bob: \"Hi there\"", "bob", &d()).unwrap(), "Hi there");
        assert_eq!(sanitize_for("Bobby likes trees", "bob", &d()).unwrap(), "Bobby likes trees");
        assert_eq!(sanitize_for("'tis fine", "bob", &d()).unwrap(), "'tis fine");
    }

    #[test]
    fn disallowed_and_empty() {
        assert_eq!(sanitize_for("you are a BADWORD", "", &d()), Err(Rejected::Disallowed("badword".into())));
        assert_eq!(sanitize_for("please kill yourself", "", &d()), Err(Rejected::Disallowed("kill yourself".into())));
        assert_eq!(sanitize_for("  \n§c ", "", &d()), Err(Rejected::Empty));
        assert_eq!(sanitize_for("/// ...", "", &d()), Err(Rejected::Empty));
        // A disallowed word after the cap still rejects the answer.
        let long = format!("{} badword", "fine words. ".repeat(40));
        assert!(sanitize(&long, &d()).is_none());
    }

    #[test]
    fn caps_at_sentences_and_words() {
        let s = "Short one. ".repeat(40);
        let c = cap(&s, 240);
        assert!(c.chars().count() <= 240 && c.ends_with("one."), "{c}");
        let words = "word ".repeat(100);
        let c = cap(&words, 240);
        assert!(c.chars().count() <= 240 && c.ends_with("word..."), "{c}");
        // One early sentence end is not worth losing most of the text for.
        let s = format!("Hi. {}", "longer words ".repeat(40));
        let c = cap(&s, 240);
        assert!(c.chars().count() > 200 && c.ends_with("..."), "{c}");
        // No spaces at all.
        let c = cap(&"é".repeat(1000), 240);
        assert_eq!(c.chars().count(), 240);
        assert_eq!(cap("fits", 240), "fits");
        // List numbers are not sentence ends.
        let list = format!("You need: 1. {} 2. {}", "stone blocks for the walls, ".repeat(4), "more ".repeat(30));
        let c = cap(&list, 240);
        assert!(c.ends_with("..."), "{c}");
        assert_eq!(sentence_ends("A b. 2. C! D").collect::<Vec<_>>(), vec![4, 10]);
        let exact = "a".repeat(240);
        assert_eq!(cap(&exact, 240), exact);
    }

    #[test]
    fn huge_output() {
        let raw = "x".repeat(100_000) + "\n/op me";
        let s = sanitize(&raw, &d()).unwrap();
        assert!(s.chars().count() <= MAX_REPLY_CHARS);
    }
}
