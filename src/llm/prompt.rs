//! Grounding: what the model is told about the bot and the world, and the system prompt built from it.
//!
//! The caller (the dialogue manager) fills a [`Grounding`] from memory and perception, so this module
//! does not depend on either. Facts about the world come only from it: the prompt tells the model to
//! answer questions about this world from the listed facts and to say it is unsure otherwise.

use super::Message;
use super::sanitize::clean_line;

/// At most this many entries of each list reach the prompt (the last ones for recent chat).
pub const MAX_LIST: usize = 12;
/// At most this many lines of recent chat reach the prompt.
pub const MAX_RECENT_CHAT: usize = 6;
/// Each name or chat line is cut to this many characters.
pub const MAX_ITEM_CHARS: usize = 160;
/// The player's message is cut to this many characters.
pub const MAX_USER_CHARS: usize = 400;

/// What the bot knows right now, as plain strings from memory and perception.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Grounding {
    /// The bot's name in chat.
    pub bot_name: String,
    /// What the bot is doing, e.g. `building a red tower`; `None` when idle.
    pub doing: Option<String>,
    /// Named objects near the bot, e.g. `a house called "home" 5 blocks north`.
    pub nearby: Vec<String>,
    /// Players near the bot or online.
    pub players: Vec<String>,
    /// Recent chat, oldest first: (speaker, text).
    pub recent_chat: Vec<(String, String)>,
}

impl Grounding {
    /// A grounding with only the bot's name.
    pub fn named(bot_name: impl Into<String>) -> Grounding {
        Grounding { bot_name: bot_name.into(), ..Grounding::default() }
    }

    /// The bot's name, or `craftmate` when none is set.
    pub fn name(&self) -> String {
        let name = one_line(&self.bot_name, 40);
        if name.is_empty() { "craftmate".to_string() } else { name }
    }

    /// The system prompt: persona, style rules, the facts, and what to do about anything else.
    pub fn system_prompt(&self) -> String {
        let name = self.name();
        let mut p = format!(
            "You are {name}, a friendly helper bot inside a Minecraft world, chatting with players in game chat. \
             Answer like a cheerful companion in one or two short sentences of plain text: no lists, no markdown, \
             no emojis, and never write commands or text starting with a slash. You cannot run commands or change \
             the world by talking; players give you building jobs in their own words.\n"
        );
        // What never changes comes first and what changes last: an in-process model keeps its
        // state after reading the start that prompts share, and reads only the rest.
        p.push_str(
            "Only the facts below are known about this world. If asked about anything else in this world (where \
             something is, what someone did, what is in a chest), say that you are not sure; never make it up. \
             General Minecraft knowledge, like crafting recipes, is fine to share.\n",
        );
        p.push_str("Facts about this world right now:\n");
        match self.doing.as_deref().map(|d| one_line(d, MAX_ITEM_CHARS)).filter(|d| !d.is_empty()) {
            Some(doing) => p.push_str(&format!("- You are {doing}.\n")),
            None => p.push_str("- You are not doing anything at the moment.\n"),
        }
        p.push_str(&format!("- Named things near you: {}.\n", list(&self.nearby, "none that you know of")));
        p.push_str(&format!("- Players here: {}.", list(&self.players, "none that you know of")));
        let start = self.recent_chat.len().saturating_sub(MAX_RECENT_CHAT);
        let recent: Vec<String> = self.recent_chat[start..]
            .iter()
            .map(|(who, text)| format!("{}: {}", one_line(who, 40), one_line(text, MAX_ITEM_CHARS)))
            .collect();
        if !recent.is_empty() {
            p.push_str("\nRecent chat, oldest first:\n");
            p.push_str(&recent.join("\n"));
        }
        p
    }
}

/// The messages for answering `text`: the system prompt and the player's message.
pub fn messages_for(grounding: &Grounding, text: &str) -> Vec<Message> {
    vec![Message::system(grounding.system_prompt()), Message::user(one_line(text, MAX_USER_CHARS))]
}

/// `text` as one clean line of at most `max` characters (grounding strings come from players too).
pub fn one_line(text: &str, max: usize) -> String {
    let clean = clean_line(text);
    match clean.char_indices().nth(max) {
        Some((i, _)) => clean[..i].trim_end().to_string(),
        None => clean,
    }
}

fn list(items: &[String], empty: &str) -> String {
    let items: Vec<String> =
        items.iter().take(MAX_LIST).map(|s| one_line(s, MAX_ITEM_CHARS)).filter(|s| !s.is_empty()).collect();
    if items.is_empty() { empty.to_string() } else { items.join("; ") }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prompt_has_the_grounding() {
        let g = Grounding {
            bot_name: "Robo".into(),
            doing: Some("building a red tower".into()),
            nearby: vec!["a house called \"home\"".into(), "a big oak tree".into()],
            players: vec!["alice".into()],
            recent_chat: (0..10).map(|i| ("alice".to_string(), format!("line {i}\nwith §cnewline"))).collect(),
        };
        let p = g.system_prompt();
        assert!(p.starts_with("You are Robo,"));
        assert!(p.contains("- You are building a red tower."));
        assert!(p.contains("a house called \"home\"; a big oak tree"));
        assert!(p.contains("- Players here: alice."));
        assert!(p.contains("not sure"));
        assert!(p.contains("alice: line 9 with newline"));
        assert!(!p.contains("line 3"), "only the last {MAX_RECENT_CHAT} lines");
        let m = messages_for(&g, "what do you like to build?");
        assert_eq!(m.len(), 2);
        assert_eq!(m[1].content, "what do you like to build?");
    }

    #[test]
    fn empty_grounding() {
        let p = Grounding::default().system_prompt();
        assert!(p.starts_with("You are craftmate,"));
        assert!(p.contains("not doing anything"));
        assert!(p.contains("Named things near you: none that you know of."));
        assert!(!p.contains("Recent chat"));
    }
}
