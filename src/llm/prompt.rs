//! Grounding: what the model is told about the bot and the world, and the system prompt built from it.
//!
//! The caller (the dialogue manager) fills a [`Grounding`] from memory and perception, so this module
//! does not depend on either. Facts about the world come only from it: the prompt tells the model to
//! answer questions about this world from the listed facts and to say it is unsure otherwise.
//!
//! A small model (under a billion weights, [`super::Chat::is_small`]) gets [`Grounding::short_prompt`]
//! instead: one plain paragraph with no recent chat. SmolLM2-135M loses a long prompt's rules
//! and says them back, or answers a line of the chat instead of the player.

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
/// At most this many nearby things reach a small model's prompt.
pub const MAX_SMALL_NEARBY: usize = 4;

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

    /// A small model's system prompt: one short paragraph a 135M model can follow — who it is,
    /// one short sentence, what it is doing, up to [`MAX_SMALL_NEARBY`] things nearby, and to say
    /// when it is not sure. No recent chat: a small model answers that instead of the player.
    pub fn short_prompt(&self) -> String {
        let doing = match self.doing.as_deref().map(|d| one_line(d, MAX_ITEM_CHARS)).filter(|d| !d.is_empty()) {
            Some(doing) => format!("You are {doing} now."),
            None => "You are not doing anything now.".to_string(),
        };
        let nearby = &self.nearby[..self.nearby.len().min(MAX_SMALL_NEARBY)];
        format!(
            "You are {}, a friendly helper bot in Minecraft. Answer the player in one short sentence. {doing} \
             Things near you: {}. If you are not sure, say you are not sure.",
            self.name(),
            list(nearby, "none that you know of")
        )
    }
}

/// The messages for answering `text`: the system prompt and the player's message.
pub fn messages_for(grounding: &Grounding, text: &str) -> Vec<Message> {
    vec![Message::system(grounding.system_prompt()), Message::user(one_line(text, MAX_USER_CHARS))]
}

/// [`messages_for`] a small model: the short prompt and the player's message.
pub fn messages_for_small(grounding: &Grounding, text: &str) -> Vec<Message> {
    vec![Message::system(grounding.short_prompt()), Message::user(one_line(text, MAX_USER_CHARS))]
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
    fn a_small_model_gets_one_short_paragraph() {
        let g = Grounding {
            bot_name: "Robo".into(),
            doing: Some("building a red tower".into()),
            nearby: (1..=6).map(|i| format!("thing {i}")).collect(),
            players: vec!["alice".into()],
            recent_chat: vec![("alice".into(), "my secret line".into())],
        };
        let p = g.short_prompt();
        assert!(p.starts_with("You are Robo,"), "{p}");
        assert!(p.contains("one short sentence"));
        assert!(p.contains("You are building a red tower now."));
        assert!(p.contains("thing 1; thing 2; thing 3; thing 4."));
        assert!(!p.contains("thing 5"), "at most {MAX_SMALL_NEARBY} things");
        assert!(p.ends_with("If you are not sure, say you are not sure."));
        assert!(!p.contains('\n') && !p.contains("secret"), "one paragraph, no chat: {p}");
        assert!(p.len() < g.system_prompt().len() / 2, "short");
        let idle = Grounding::default().short_prompt();
        assert!(idle.contains("You are craftmate,") && idle.contains("not doing anything") && idle.contains("none that you know of"), "{idle}");
        let m = messages_for_small(&g, "hi");
        assert_eq!((m.len(), m[0].content.as_str(), m[1].content.as_str()), (2, p.as_str(), "hi"));
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
