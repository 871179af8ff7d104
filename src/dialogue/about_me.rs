//! Questions about the bot itself ("who are you?", "are you ChatGPT?", "where are you?", "what
//! do you like?", "have you built a house?"), answered from what the bot knows of itself and
//! its own history — never by the language model.
//!
//! A small model asked about itself makes things up with confidence: that it is some other
//! assistant, made by some company, that it can do what it cannot. The facts are here (its
//! name, what it is doing, where it stands, what it can do), so the answer comes from them, at
//! once, the same every time.

use crate::lexicon::{Class, Group, lexicon};
use crate::world::Pos;

/// What the bot knows of itself when a question comes.
pub struct Me<'a> {
    pub name: &'a str,
    /// What it is doing, in words ("building a red cube"), if anything.
    pub doing: Option<String>,
    pub at: Pos,
}

/// The answer to `text` if it is a question about the bot itself. It is one when it holds a word
/// of the lexicon's `[you]` and asks (a `?`, or a `[question_openings]` word first); the topic
/// is the first of `[about_me]` whose words it holds.
pub fn answer(text: &str, me: &Me) -> Option<String> {
    let lx = lexicon();
    let t = text.to_lowercase();
    let words: Vec<&str> = t.split(|c: char| !(c.is_alphanumeric() || c == '\'')).filter(|w| !w.is_empty()).collect();
    let about_me = words.iter().any(|w| lx.is(Class::You, w));
    let asks = t.trim_end().ends_with('?') || words.first().is_some_and(|w| lx.is(Class::QuestionOpening, w));
    if !(about_me && asks) {
        return None;
    }
    let says = |topic: &str| {
        lx.words_for(Group::AboutMe, topic).iter().any(|p| {
            let p: Vec<&str> = p.split(' ').collect();
            words.windows(p.len()).any(|w| w == p.as_slice())
        })
    };
    let name = me.name;
    Some(if says("bot") {
        format!("I'm {name}, a bot: a building helper that runs right here on your computer, offline.")
    } else if says("name") {
        format!("I'm {name}, a building helper. Ask me to build, dig or fetch things.")
    } else if says("maker") && says("who") {
        format!("I'm {name}, open-source software that runs on your own computer; nobody else is listening.")
    } else if says("feeling") {
        "I'm good, thanks — ready to build! What would you like?".into()
    } else if says("doing") {
        match &me.doing {
            Some(task) => format!("I'm {task}."),
            None => "Nothing right now. What shall we build?".into(),
        }
    } else if says("where") {
        format!("I'm at {} {} {}.", me.at.x, me.at.y, me.at.z)
    } else if says("age") {
        "I have no age: I started when you ran me.".into()
    } else if says("likes") {
        "I don't have favourites; building is what I like best. Want me to build something?".into()
    } else {
        format!(
            "I'm {name}, a building bot: I build, dig, fill, copy, fetch and move, and answer questions about what's around. \
             Ask \"what can you do\" for more."
        )
    })
}

/// "have you built a house?": yes with where, from the bot's own history, or no.
pub fn did_you(text: &str, tasks: &crate::tasks::TaskStack) -> String {
    let lx = lexicon();
    let things: Vec<&str> = text.split_whitespace().filter(|w| !lx.is(Class::DidYouSmall, w) && !lx.is(Class::DidYouWords, w)).collect();
    let done = tasks.history().iter().rev().find(|r| {
        things.iter().any(|t| r.description.split(|c: char| !c.is_alphanumeric()).any(|w| w == *t || w == t.trim_end_matches('s')))
    });
    match (done, things.is_empty()) {
        (Some(r), _) => format!("Yes — I was {}.", r.description),
        (None, false) => format!("No, I haven't done anything with a {} yet.", things.join(" ")),
        (None, true) => match tasks.history().last() {
            Some(r) => format!("Last I was {}.", r.description),
            None => "No, I haven't done anything yet.".into(),
        },
    }
}

/// "what did i ask you to do before this": the speaker's last command, or with "before" the one
/// before it, in their words — from this run's tasks, else what memory kept of earlier runs.
pub fn asked_me(text: &str, speaker: &str, tasks: &crate::tasks::TaskStack, memory: &crate::memory::Memory) -> String {
    let before = text.split_whitespace().any(|w| lexicon().is(Class::Before, w));
    let back = usize::from(before);
    let mine: Vec<_> = tasks.commands().into_iter().filter(|r| r.meta.speaker.as_deref() == Some(speaker)).collect();
    if let Some(r) = mine.iter().rev().nth(back) {
        let when = if before { "Before that you" } else { "You" };
        return match r.meta.chat.as_deref() {
            Some(c) => format!("{when} said \"{c}\", and I was {}.", r.description),
            None => format!("{when} had me {}.", r.description),
        };
    }
    if mine.len() == 1 && before {
        return "That was the first thing you asked me for.".into();
    }
    // Nothing this run: what earlier runs did (memory keeps no speaker per task).
    match memory.last_tasks(back + 1).ok().and_then(|t| t.into_iter().nth(back)) {
        Some(t) => format!("Last time I was {}.", t.description),
        None => "You haven't asked me for anything yet.".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn me(doing: Option<&str>) -> Me<'static> {
        Me { name: "craftmate", doing: doing.map(str::to_string), at: Pos::new(3, 5, -2) }
    }

    #[test]
    fn questions_about_the_bot_get_facts() {
        let idle = me(None);
        for (q, wanted) in [
            ("who are you?", "I'm craftmate"),
            ("whats ur name", "I'm craftmate"),
            ("are you chatgpt?", "a bot"),
            ("r u a real person", "a bot"),
            ("who made you?", "open-source"),
            ("where are you", "3 5 -2"),
            ("what are you up to?", "Nothing right now"),
            ("how old are you", "no age"),
            ("how are you doing?", "I'm good"),
            ("how 're you", "I'm good"),
            ("what do you like to build?", "favourites"),
            ("what's your favorite colour?", "favourites"),
            ("can you fly?", "a building bot"),
        ] {
            let a = answer(q, &idle).unwrap_or_else(|| panic!("{q:?} is about the bot"));
            assert!(a.contains(wanted), "{q:?}: {a}");
        }
        assert_eq!(answer("what are you doing?", &me(Some("building a red cube"))).as_deref(), Some("I'm building a red cube."));
    }

    #[test]
    fn other_lines_are_left_alone() {
        for line in ["tell me a joke", "what is a creeper?", "the sky is nice", "you rock", "how do I make a furnace", "what's the best biome"] {
            assert_eq!(answer(line, &me(None)), None, "{line:?}");
        }
    }
}
