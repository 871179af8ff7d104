//! Any text the bot might say on a real server, through the outgoing splitter and cleaner; and
//! any system line, through the reader that recovers `<name> message` chat.

use craftmate::live::chat::{MAX_CHAT_CHARS, is_player_name, outgoing, parse_system};
use craftmate::safety::text::{clean_line, is_unsafe_char, utf16_len};

pub fn run(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let clean = clean_line(&text);
    assert_eq!(clean_line(&clean), clean, "cleaning twice changes the line");

    let lines = outgoing(&text);
    for line in &lines {
        assert!(!line.is_empty(), "an empty chat line");
        assert!(utf16_len(line) <= MAX_CHAT_CHARS, "a line of {} UTF-16 units: {line:?}", utf16_len(line));
        assert!(!line.starts_with(['/', '\\']), "a line that could run a command: {line:?}");
        assert!(!line.chars().any(is_unsafe_char), "an unsafe character: {line:?}");
    }
    // Nothing visible is lost but the slashes that would start a line: the characters sent are,
    // in order, the cleaned text's, less some `/` and `\`.
    let mut sent = lines.iter().flat_map(|l| l.chars()).filter(|c| *c != ' ').peekable();
    for c in clean.chars().filter(|c| *c != ' ') {
        if sent.peek() == Some(&c) {
            sent.next();
        } else {
            assert!(c == '/' || c == '\\', "{c:?} was lost from {clean:?}: sent {lines:?}");
        }
    }
    assert!(sent.next().is_none(), "a character was sent that the text did not have: {lines:?}");

    if let Some((name, message)) = parse_system(&text) {
        assert!(is_player_name(&name), "{name:?} is not a player name");
        assert!(!message.trim().is_empty());
        assert!(text.contains(&format!("{name}> {message}")), "the message is not the line's own");
    }
}
