//! Chat on a real server, both ways.
//!
//! Outgoing: whatever the bot says is made into safe chat lines — cleaned as all the bot's
//! lines are ([`crate::safety::text`]), never starting with `/` (a line the bot sends can never
//! run a server command, whoever asked for it), and split at word boundaries into pieces of at
//! most [`MAX_CHAT_CHARS`] UTF-16 units, the server's limit (vanilla counts an emoji as two and
//! disconnects a client that sends more). [`Pacer`] spaces the lines out the way
//! the vanilla spam filter counts them, so a long answer never gets the bot kicked.
//!
//! Incoming: signed player chat arrives with its sender, but many servers (and plugins) send
//! chat as system messages of the form `<name> message`; [`parse_system`] recovers the speaker.

/// The longest chat message a server accepts, in UTF-16 code units.
pub const MAX_CHAT_CHARS: usize = 256;

use crate::safety::text::utf16_len;

/// The longest start of `word` that fits in `room` UTF-16 units (never half a character).
fn head_fitting(word: &str, room: usize) -> usize {
    let mut used = 0;
    for (i, c) in word.char_indices() {
        used += c.len_utf16();
        if used > room {
            return i;
        }
    }
    word.len()
}

/// The lines to send for `text`: cleaned, split to fit, none empty and none starting with `/`.
pub fn outgoing(text: &str) -> Vec<String> {
    let clean = clean(text);
    let mut lines = Vec::new();
    let mut current = String::new();
    for word in clean.split(' ').filter(|w| !w.is_empty()) {
        // A single word longer than a line is cut into line-sized pieces.
        let mut word = word.to_string();
        loop {
            // A full line leaves no room (not even for the space).
            let room = if current.is_empty() {
                MAX_CHAT_CHARS
            } else {
                MAX_CHAT_CHARS.saturating_sub(utf16_len(&current) + 1)
            };
            let len = utf16_len(&word);
            if len <= room {
                if !current.is_empty() {
                    current.push(' ');
                }
                current.push_str(&word);
                break;
            }
            if current.is_empty() {
                let cut = head_fitting(&word, MAX_CHAT_CHARS).max(word.chars().next().map_or(0, char::len_utf8));
                let rest = word.split_off(cut);
                lines.push(std::mem::replace(&mut word, rest));
                if word.is_empty() {
                    break;
                }
            } else {
                lines.push(std::mem::take(&mut current));
            }
        }
    }
    if !current.is_empty() {
        lines.push(current);
    }
    lines.into_iter().map(|l| no_command(&l)).filter(|l| !l.is_empty()).collect()
}

fn clean(text: &str) -> String {
    crate::safety::text::clean_line(text)
}

/// Leading slashes (and backslashes, which some plugins treat alike) removed.
fn no_command(line: &str) -> String {
    line.trim_start_matches(['/', '\\', ' ']).to_string()
}

/// The sender and message of a system chat line in the `<name> message` form (also with a rank
/// prefix such as `<[Admin] name> message`), or `None` for other system messages (joins,
/// command feedback, announcements).
pub fn parse_system(text: &str) -> Option<(String, String)> {
    let rest = text.strip_prefix('<')?;
    let (head, message) = rest.split_once("> ")?;
    // A rank in brackets before the name: "[Admin] alice".
    let name = match head.strip_prefix('[') {
        Some(ranked) => ranked.split_once("] ")?.1,
        None => head,
    };
    if !is_player_name(name) || message.trim().is_empty() {
        return None;
    }
    Some((name.to_string(), message.to_string()))
}

/// Minecraft player names: 1–16 letters, digits and underscores.
pub fn is_player_name(name: &str) -> bool {
    (1..=16).contains(&name.len()) && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// Paces outgoing chat like the vanilla spam filter counts it: every message adds
/// [`Pacer::COST`], every game tick takes one away, and a player whose count passes
/// [`Pacer::KICK_AT`] is kicked. The pacer sends only while the count stays under
/// [`Pacer::LIMIT`], a margin below that: a burst of a few lines goes out at once, a long speech
/// one line a second.
#[derive(Debug, Default, Clone)]
pub struct Pacer {
    score: u32,
}

impl Pacer {
    pub const COST: u32 = 20;
    pub const KICK_AT: u32 = 200;
    pub const LIMIT: u32 = 160;

    /// One game tick passed.
    pub fn tick(&mut self) {
        self.score = self.score.saturating_sub(1);
    }

    /// May a line go out now? If so, it is counted.
    pub fn try_send(&mut self) -> bool {
        if self.score + Self::COST > Self::LIMIT {
            return false;
        }
        self.score += Self::COST;
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_lines_pass_cleaned() {
        assert_eq!(outgoing("Here I am."), vec!["Here I am.".to_string()]);
        assert_eq!(outgoing("  two\nlines\tand §cred§r  "), vec!["two lines and red".to_string()]);
        assert!(outgoing("   ").is_empty());
        assert!(outgoing("\u{202E}\u{200B}").is_empty());
    }

    #[test]
    fn never_a_command() {
        assert_eq!(outgoing("/op alice"), vec!["op alice".to_string()]);
        assert_eq!(outgoing("//fill 0 0 0"), vec!["fill 0 0 0".to_string()]);
        assert_eq!(outgoing(" \\ /kill @a"), vec!["kill @a".to_string()]);
        assert!(outgoing("///").is_empty());
        // A piece after a split cannot start with a slash either.
        let long = format!("{} /stop", "a".repeat(255));
        let lines = outgoing(&long);
        assert_eq!(lines.len(), 2);
        assert_eq!(lines[1], "stop");
    }

    #[test]
    fn long_text_splits_at_words_within_the_limit() {
        let text = (0..120).map(|i| format!("word{i}")).collect::<Vec<_>>().join(" ");
        let lines = outgoing(&text);
        assert!(lines.len() >= 3, "{lines:?}");
        assert!(lines.iter().all(|l| utf16_len(l) <= MAX_CHAT_CHARS));
        assert_eq!(lines.join(" "), text, "nothing lost, words kept whole");
        // A line filled exactly to the limit, then more words.
        let exact = format!("{} c", "ab ".repeat(85).trim_end());
        assert_eq!(exact.chars().count(), 256);
        let lines = outgoing(&format!("{exact} more words"));
        assert_eq!(lines, vec![exact.clone(), "more words".to_string()]);
        // One huge word is cut into line-sized pieces; characters, not bytes, are counted.
        let huge = "é".repeat(600);
        let lines = outgoing(&huge);
        assert_eq!(lines.iter().map(|l| l.chars().count()).collect::<Vec<_>>(), vec![256, 256, 88]);
    }

    #[test]
    fn the_limit_counts_utf16_units_as_vanilla_does() {
        // A reply echoing emoji: 163 characters but 293 UTF-16 units, sent as one line before.
        let text = format!("I didn't get what you meant by \"{}\".", "🙂".repeat(130));
        let lines = outgoing(&text);
        assert!(lines.iter().all(|l| utf16_len(l) <= MAX_CHAT_CHARS), "{:?}", lines.iter().map(|l| utf16_len(l)).collect::<Vec<_>>());
        assert_eq!(lines.concat().matches('🙂').count(), 130, "no emoji lost or cut in half");
        // One long word of emoji is cut between characters, never inside a surrogate pair.
        let lines = outgoing(&"🙂".repeat(300));
        assert_eq!(lines.iter().map(|l| utf16_len(l)).collect::<Vec<_>>(), vec![256, 256, 88]);
    }

    #[test]
    fn invisible_and_bidi_characters_never_go_out() {
        let lines = outgoing("a\u{2066}b\u{061C}c\u{00AD}d\u{180E}e\u{3164}f\u{1b}[2Jg");
        assert_eq!(lines, vec!["a b c d e f [2Jg".to_string()]);
    }

    #[test]
    fn system_chat_speaker() {
        assert_eq!(parse_system("<alice> build a red cube"), Some(("alice".into(), "build a red cube".into())));
        assert_eq!(parse_system("<[Admin] Bob_2> hi there"), Some(("Bob_2".into(), "hi there".into())));
        assert_eq!(parse_system("<alice> a > b <c>"), Some(("alice".into(), "a > b <c>".into())));
        assert_eq!(parse_system("alice joined the game"), None);
        assert_eq!(parse_system("<not a name> hello"), None);
        assert_eq!(parse_system("<alice>"), None);
        assert_eq!(parse_system("<alice> "), None);
        assert_eq!(parse_system("<waytoolongname_1234> hi"), None);
    }

    #[test]
    fn pacer_allows_a_burst_then_one_line_a_second() {
        let mut p = Pacer::default();
        let burst = (0..20).take_while(|_| p.try_send()).count();
        assert_eq!(burst, 8);
        // Then one line per 20 ticks, and the count never reaches the kick threshold.
        let mut sent = 0;
        for _ in 0..200 {
            p.tick();
            if p.try_send() {
                sent += 1;
            }
            assert!(p.score < Pacer::KICK_AT);
        }
        assert_eq!(sent, 10);
    }
}
