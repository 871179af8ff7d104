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
    fn emoji_count_twice() {
        assert_eq!(utf16_len("abc"), 3);
        assert_eq!(utf16_len("🙂"), 2);
        assert_eq!(utf16_len("é世"), 2);
    }
}
