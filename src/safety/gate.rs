//! The chat gate: the one place that decides whether an incoming chat line gets through, and
//! what the bot says when it does not. Every driver uses it — `play` and the scenario runner
//! through the agent's dialogue manager, a live server also at the door of its World.
//!
//! Two stages, because they run in two places:
//! - [`admit`] — *who*: may this speaker command the bot at all? A server's World asks it as
//!   chat arrives, so a refused player's line is never heard (nor stored in memory). Without an
//!   allow-list ([`Everyone`]) everyone may.
//! - [`ChatGate::screen`] — *what*: an empty line, an overlong one or one with a disallowed word
//!   gets a short polite reply and never reaches the parser.
//!
//! [`is_blank`] is the stage before both: a terminal line with nothing typed is not chat.

use super::disallowed::Disallowed;
use crate::logical_form::normalize;

/// Longest chat the bot tries to understand; longer lines get a polite request to be brief.
pub const MAX_CHAT_CHARS: usize = 500;

/// Said to a line with no words.
pub const EMPTY_REPLY: &str = "Did you want something? Try \"what can you do\".";
/// Said to a line over [`MAX_CHAT_CHARS`].
pub const TOO_LONG_REPLY: &str = "That's a lot to take in! Could you say it in a few words?";

/// Who may command the bot. A server's allow-list implements it; [`Everyone`] is the default.
pub trait Admission {
    /// May `speaker` command the bot? `id` is the player's UUID when the server sent one.
    fn allows(&self, speaker: &str, id: Option<&str>) -> bool;
    /// What to tell `speaker`, who may not, at tick `tick`; `None` when told recently.
    fn refusal(&mut self, speaker: &str, tick: u64) -> Option<String>;
}

/// No allow-list: every player may command the bot.
#[derive(Debug, Default, Clone, Copy)]
pub struct Everyone;

impl Admission for Everyone {
    fn allows(&self, _: &str, _: Option<&str>) -> bool {
        true
    }
    fn refusal(&mut self, _: &str, _: u64) -> Option<String> {
        None
    }
}

/// What the gate decided about a speaker.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Admitted {
    /// The line goes on to the bot.
    Yes,
    /// The line is dropped; say this to the speaker, if anything.
    No(Option<String>),
}

/// Stage one: may `speaker` command the bot at tick `tick`?
pub fn admit(who: &mut dyn Admission, speaker: &str, id: Option<&str>, tick: u64) -> Admitted {
    if who.allows(speaker, id) { Admitted::Yes } else { Admitted::No(who.refusal(speaker, tick)) }
}

/// What the gate decided about a line's text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Screened {
    /// Through: the normalized text, for the parser.
    Pass(String),
    /// Stopped: say this instead of acting.
    Reply(String),
}

/// Stage two: the checks on what was said.
#[derive(Debug, Clone)]
pub struct ChatGate {
    pub disallowed: Disallowed,
    pub max_chars: usize,
}

impl Default for ChatGate {
    fn default() -> ChatGate {
        ChatGate { disallowed: Disallowed::default_list(), max_chars: MAX_CHAT_CHARS }
    }
}

impl ChatGate {
    /// Empty, too long, disallowed words — in that order — or the normalized text.
    pub fn screen(&self, chat: &str) -> Screened {
        // Characters of what was typed, not of the normalized text: padding counts too. Counted
        // first, so a huge line is refused before anything copies or reads it.
        if chat.chars().nth(self.max_chars).is_some() {
            return Screened::Reply(if is_blank(chat) { EMPTY_REPLY } else { TOO_LONG_REPLY }.into());
        }
        let text = normalize(chat);
        if text.is_empty() {
            return Screened::Reply(EMPTY_REPLY.into());
        }
        if self.disallowed.contains(&text) {
            return Screened::Reply(refusal(&text));
        }
        Screened::Pass(text)
    }
}

/// A terminal line with nothing typed: not chat, so nothing is sent and nothing answered.
pub fn is_blank(line: &str) -> bool {
    line.trim().is_empty()
}

/// The reply to chat with disallowed words; the same chat always gets the same line.
fn refusal(text: &str) -> String {
    const LINES: [&str; 2] = ["Let's keep it friendly, please. I won't act on that.", "I'd rather not respond to that. Let's keep chat kind."];
    let h = text.bytes().fold(2166136261u32, |h, b| (h ^ b as u32).wrapping_mul(16777619));
    LINES[h as usize % LINES.len()].into()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn gate() -> ChatGate {
        ChatGate { disallowed: Disallowed::parse("badword"), max_chars: 20 }
    }

    #[test]
    fn empty_lines_get_a_prompt() {
        assert_eq!(gate().screen(""), Screened::Reply(EMPTY_REPLY.into()));
        assert_eq!(gate().screen("  \t "), Screened::Reply(EMPTY_REPLY.into()));
        assert_eq!(gate().screen("?!"), Screened::Reply(EMPTY_REPLY.into()), "punctuation alone has no words");
    }

    #[test]
    fn long_lines_are_declined_counting_characters() {
        assert_eq!(gate().screen(&"a ".repeat(11)), Screened::Reply(TOO_LONG_REPLY.into()));
        assert_eq!(gate().screen(&"é".repeat(20)), Screened::Pass("é".repeat(20)), "characters, not bytes");
        assert_eq!(ChatGate::default().max_chars, MAX_CHAT_CHARS);
    }

    #[test]
    fn disallowed_words_are_refused_the_same_way_each_time() {
        let Screened::Reply(first) = gate().screen("you BADWORD") else { panic!("refused") };
        assert!(first.contains("friendly") || first.contains("kind"), "{first}");
        assert_eq!(gate().screen("you BADWORD"), Screened::Reply(first));
    }

    #[test]
    fn other_lines_pass_normalized() {
        assert_eq!(gate().screen("Come here!"), Screened::Pass("come here".into()));
    }

    /// An allow-list of one that refuses once.
    struct Only(&'static str, bool);

    impl Admission for Only {
        fn allows(&self, speaker: &str, _: Option<&str>) -> bool {
            speaker == self.0
        }
        fn refusal(&mut self, speaker: &str, _: u64) -> Option<String> {
            let told = std::mem::replace(&mut self.1, true);
            (!told).then(|| format!("Sorry {speaker}"))
        }
    }

    #[test]
    fn admission_asks_who_and_passes_on_the_refusal() {
        assert_eq!(admit(&mut Everyone, "anybody", None, 0), Admitted::Yes);
        let mut only = Only("alice", false);
        assert_eq!(admit(&mut only, "alice", None, 0), Admitted::Yes);
        assert_eq!(admit(&mut only, "mallory", None, 0), Admitted::No(Some("Sorry mallory".into())));
        assert_eq!(admit(&mut only, "mallory", None, 1), Admitted::No(None), "told already");
    }

    #[test]
    fn blank_terminal_lines_are_not_chat() {
        assert!(is_blank("") && is_blank(" \t") && !is_blank("?"));
    }
}
