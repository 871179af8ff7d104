//! The one cleaning every line the bot says passes, in every world: `§` formatting codes, control
//! characters and invisible Unicode formatting removed, whitespace collapsed. A player's words
//! echoed back ("I didn't get what you meant by …") can then carry no terminal escape, no
//! right-to-left override and no hidden character, whoever typed them.

/// Characters that must not reach chat: C0/C1 controls and invisible Unicode formatting
/// (zero-width characters, bidi marks, embeddings, overrides and isolates, line/paragraph
/// separators, soft hyphens, filler characters, variation selectors, tags, BOM).
pub fn is_unsafe_char(c: char) -> bool {
    c.is_control()
        || matches!(c,
            '\u{00AD}'
            | '\u{034F}'
            | '\u{061C}'
            | '\u{115F}'..='\u{1160}'
            | '\u{17B4}'..='\u{17B5}'
            | '\u{180B}'..='\u{180F}'
            | '\u{200B}'..='\u{200F}'
            | '\u{2028}'..='\u{202E}'
            | '\u{2060}'..='\u{206F}'
            | '\u{3164}'
            | '\u{FE00}'..='\u{FE0F}'
            | '\u{FEFF}'
            | '\u{FFA0}'
            | '\u{FFF0}'..='\u{FFFF}'
            | '\u{1D173}'..='\u{1D17A}'
            | '\u{E0000}'..='\u{E0FFF}')
}

/// Removes `§x` formatting codes and unsafe characters and collapses whitespace (and what was
/// removed) to single spaces; no space at either end.
pub fn clean_line(raw: &str) -> String {
    let mut out = String::with_capacity(raw.len().min(4096));
    let mut chars = raw.chars();
    let mut pending_space = false;
    while let Some(c) = chars.next() {
        if c == '§' {
            // The code character that follows goes too (whatever it is: `§` alone is invalid).
            chars.next();
            continue;
        }
        if c.is_whitespace() || is_unsafe_char(c) {
            pending_space = true;
            continue;
        }
        if pending_space && !out.is_empty() {
            out.push(' ');
        }
        pending_space = false;
        out.push(c);
    }
    out
}

/// The longest reply the bot sends, in UTF-16 units: three chat messages on a server. A reply
/// builder summarises its lists ("name1, name2 and 38 more"); this bound holds for any reply,
/// so no answer, however much the bot remembers, floods a server's chat.
pub const MAX_REPLY_CHARS: usize = 3 * 256;

/// `line` within [`MAX_REPLY_CHARS`]: cut after the last whole word that fits, with "…".
pub fn bounded_reply(line: &str) -> String {
    if utf16_len(line) <= MAX_REPLY_CHARS {
        return line.to_string();
    }
    let mut end = 0;
    let mut used = 0;
    let mut last_space = None;
    for (i, c) in line.char_indices() {
        // One unit is kept for the ellipsis.
        if used + c.len_utf16() > MAX_REPLY_CHARS - 1 {
            break;
        }
        used += c.len_utf16();
        end = i + c.len_utf8();
        if c == ' ' {
            last_space = Some(i);
        }
    }
    let cut = last_space.filter(|&s| s > end / 2).unwrap_or(end);
    format!("{}…", line[..cut].trim_end())
}

/// One chat message on a server, in UTF-16 units: the most of a heard line the memory keeps.
pub const CHAT_LINE_UNITS: usize = 256;

/// The start of `text` that fits in `max_units` UTF-16 units, cut between characters. What is
/// kept of a heard line is bounded, so a flood of long lines cannot fill memory.
pub fn capped(text: &str, max_units: usize) -> &str {
    let mut used = 0;
    for (i, c) in text.char_indices() {
        used += c.len_utf16();
        if used > max_units {
            return &text[..i];
        }
    }
    text
}

/// A heard chat line as the memory keeps it: at most one chat message long.
pub fn capped_chat(text: &str) -> &str {
    capped(text, CHAT_LINE_UNITS)
}

/// The length Minecraft counts a chat message in: UTF-16 code units (an emoji is two).
pub fn utf16_len(s: &str) -> usize {
    s.chars().map(char::len_utf16).sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_controls_and_invisible_characters_go() {
        assert_eq!(clean_line("\u{1b}[31mred\u{1b}[0m text"), "[31mred [0m text");
        for c in ['\u{2066}', '\u{2067}', '\u{2068}', '\u{2069}', '\u{061C}', '\u{00AD}', '\u{180E}', '\u{3164}', '\u{202E}', '\u{200B}', '\u{FEFF}'] {
            assert_eq!(clean_line(&format!("a{c}b")), "a b", "U+{:04X}", c as u32);
        }
        assert_eq!(clean_line("§cred§r  and\tplain \n"), "red and plain");
        assert_eq!(clean_line("héllo 🙂 世界"), "héllo 🙂 世界", "visible text stays");
    }

    #[test]
    fn a_reply_is_never_longer_than_three_chat_lines() {
        assert_eq!(bounded_reply("short and sweet"), "short and sweet");
        let long = "name ".repeat(1000) + "end";
        let cut = bounded_reply(&long);
        assert!(utf16_len(&cut) <= MAX_REPLY_CHARS && cut.ends_with("name…"), "{}", utf16_len(&cut));
        let emoji = "🙂".repeat(1000);
        assert!(utf16_len(&bounded_reply(&emoji)) <= MAX_REPLY_CHARS);
    }

    #[test]
    fn a_kept_chat_line_is_at_most_one_message_cut_between_characters() {
        assert_eq!(capped_chat("build a tower"), "build a tower");
        let long = "build ".repeat(1000);
        assert_eq!(utf16_len(capped_chat(&long)), CHAT_LINE_UNITS);
        // An emoji is two units and is never split.
        let emoji = "🙂".repeat(200);
        assert_eq!(capped_chat(&emoji).chars().count(), CHAT_LINE_UNITS / 2);
        assert_eq!(capped("a🙂", 2), "a");
    }

    #[test]
    fn emoji_count_twice() {
        assert_eq!(utf16_len("abc"), 3);
        assert_eq!(utf16_len("🙂"), 2);
        assert_eq!(utf16_len("é世"), 2);
    }
}
