//! Things the bot says on its own: what it can do, and short friendly answers to chit-chat when
//! no language model is configured. Lines vary (picked by the chat's text, so the same question
//! gets the same answer — deterministic for tests — but different questions get different lines).

use crate::lexicon::{Class, lexicon};
use crate::logical_form::{CapabilityTopic, LogicalForm};
use crate::schematics::known_shapes;

fn pick<'a>(lines: &[&'a str], key: &str) -> &'a str {
    let h = key.bytes().fold(2166136261u32, |h, b| (h ^ b as u32).wrapping_mul(16777619));
    lines[h as usize % lines.len()]
}

/// "What can you do / build?"
pub fn capabilities(lf: &LogicalForm) -> String {
    let shapes = known_shapes();
    let build = format!("I can build {} and {}", shapes[..shapes.len() - 1].join(", "), shapes[shapes.len() - 1]);
    match lf.action_type {
        Some(CapabilityTopic::Build) => format!("{build}, in any colour or material: try \"build a big red tower\"."),
        _ => format!(
            "I can build things (\"build a blue cube\"), destroy, dig and fill holes, move, follow you, spawn animals, dance, \
             fetch items, undo, stop and resume, and answer questions about what I see and do. {build}."
        ),
    }
}

/// A reply to "how do I make a furnace?" when no language model is set up: the bot knows no
/// crafting recipes, but it can hand the player the thing.
pub fn how_to() -> String {
    "Sorry, I don't know crafting recipes. I can give you things though: try \"give me a furnace\".".into()
}

/// A reply to chat that is not a command, when no language model is set up.
pub fn chit_chat(text: &str) -> String {
    if let Some(line) = small_talk(text) {
        return line;
    }
    let t = text.to_lowercase();
    pick(
        &[
            "I'm better with building than chatting! Try \"build a red tower\" or \"what can you do\".",
            "Interesting! I mostly build, dig and fetch things — want me to make something?",
            "I'm not sure what to say to that. Ask me \"what can you do\" to see how I can help.",
            "Ha, I'll leave the talking to you. I can build, dig and move around though!",
        ],
        &t,
    )
    .into()
}

/// The bot's answer to everyday small talk it knows ("hi", "good morning", thanks), if the line
/// is such. Questions about the bot itself are [`super::about_me`]'s.
pub fn small_talk(text: &str) -> Option<String> {
    let t = text.to_lowercase();
    let first = t.split_whitespace().next();
    if first.is_some_and(|w| lexicon().is(Class::Greeting, w)) {
        return Some(pick(&["Hello! What shall we build?", "Hi there! Need a hand?", "Hey! I'm ready when you are."], &t).into());
    }
    for part in lexicon().words(Class::TimeOfDay) {
        if t.starts_with(&format!("good {part}")) {
            return Some(format!("Good {part}! What shall we build today?"));
        }
    }
    if t.contains("thank") {
        return Some("You're welcome!".into());
    }
    None
}
