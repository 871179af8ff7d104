//! Everyday lines: "ok carry on", "hold on a sec", "what are you doing right now", "nice work,
//! thanks!". Players wrap short commands in small words the exact-match table does not hold;
//! peeling those off (at either end, never inside) leaves the core line the table knows.
//!
//! Questions about how to do something ("how do I make a furnace") are told apart here too: they
//! are asked of the bot, not commands to it, so they must never start a build.

/// Small words at the start of a line that do not change what it asks.
#[rustfmt::skip]
const LEADING: &[&str] = &[
    "ok", "okay", "k", "alright", "allright", "right", "hey", "hi", "yo", "um", "uh", "erm", "so",
    "well", "oh", "please", "now", "bot", "craftmate", "mate", "buddy", "and", "just", "then", "ah",
];

/// Small words at the end of a line that do not change what it asks.
#[rustfmt::skip]
const TRAILING: &[&str] = &[
    "please", "now", "thanks", "thx", "ty", "then", "bot", "craftmate", "buddy", "mate", "ok",
    "okay", "pal", "friend", "man", "dude", "again", "already", "yet",
];

/// Phrases at the end of a line that do not change what it asks.
#[rustfmt::skip]
const TRAILING_PHRASES: &[&str] = &[
    "right now", "for now", "at the moment", "a sec", "a second", "a moment", "a minute", "a bit",
    "for a sec", "for a second", "for a moment", "for a minute", "for a bit", "thank you",
    "one sec", "one second", "one moment", "one minute", "thanks a lot",
];

/// Openings of a how-to question: asked of the bot, never a command to it.
#[rustfmt::skip]
const HOW_TO: &[&str] = &[
    "how do i", "how do you", "how can i", "how to", "how would i", "how should i",
    "what is the recipe", "what 's the recipe", "whats the recipe", "do you know how",
    "can you tell me how", "can you teach me", "teach me how", "how does one",
];

/// Verbs that start a command to the bot: a chit-chat line starting with one ("stop talking",
/// "wait a minute") is too close to a command to teach the parser that such lines are chat.
#[rustfmt::skip]
const COMMAND_STARTS: &[&str] = &[
    "build", "make", "dig", "come", "go", "follow", "destroy", "stop", "wait", "pause", "hold",
    "hang", "carry", "continue", "resume", "undo", "spawn", "give", "bring", "fill", "copy",
    "dance", "jump", "move", "walk", "put", "place", "keep", "get", "fetch",
];

/// Is this normalized line said to the bot — a command or a question about what it does —
/// rather than chit-chat? True for lines the exact table knows (or knows the core of) and for
/// lines that start with a command verb or ask what the bot is doing. Chit-chat examples for
/// training leave such lines out, so the parser is never taught that "what are you doing right
/// now" or "hold on" is small talk.
pub fn is_for_the_bot(normalized: &str, exact: &super::exact::ExactTable) -> bool {
    let known = |t: &str| exact.lookup(t).is_some_and(|lf| lf.dialogue_type != crate::logical_form::DialogueType::Noop);
    let first = normalized.split_whitespace().next().unwrap_or("");
    known(normalized)
        || core(normalized).is_some_and(|c| known(&c))
        || COMMAND_STARTS.contains(&first)
        || normalized.starts_with("what are you doing")
        || normalized.starts_with("what are you building")
}

/// Verbs players use that the parser rarely saw, at the start of a step, and the verb it knows.
#[rustfmt::skip]
const PLAIN_VERBS: &[(&str, &str)] = &[
    ("lay down", "build"), ("lay", "build"), ("put down", "build"), ("set up", "build"),
    ("erect", "build"), ("construct", "build"), ("create", "build"),
    ("get rid of", "destroy"), ("tear down", "destroy"), ("knock down", "destroy"),
    ("demolish", "destroy"), ("remove", "destroy"), ("break down", "destroy"),
    ("cover up", "fill"), ("fill up", "fill"), ("fill in", "fill"),
    ("summon", "spawn"), ("excavate", "dig"), ("fetch", "bring"), ("hand me", "give me"),
    ("make a hole", "dig a hole"), ("make a pit", "dig a pit"), ("make a trench", "dig a trench"),
    ("build a hole", "dig a hole"), ("first", ""), ("now", ""), ("next", ""),
];

/// Words that add nothing to the step they are in ("dig a hole *in the ground*").
const EMPTY_PHRASES: &[&str] = &["in the ground", "into the ground", "in the dirt", "into the dirt"];

/// Unusual verbs at the start of each step replaced by the ones the parser knows: "lay down a
/// floor" → "build a floor", "get rid of the cube" → "destroy the cube".
pub fn plain_verbs(normalized: &str) -> String {
    let words: Vec<&str> = normalized.split_whitespace().collect();
    let mut out: Vec<&str> = Vec::with_capacity(words.len());
    let mut i = 0;
    while i < words.len() {
        let starts_step = i == 0 || matches!(words[i - 1], "then" | "and" | "please" | "you" | "can" | "could");
        let found = starts_step
            .then(|| PLAIN_VERBS.iter().find(|(from, _)| {
                let f: Vec<&str> = from.split(' ').collect();
                words.len() >= i + f.len() && words[i..i + f.len()] == f[..]
            }))
            .flatten();
        match found {
            Some((from, to)) => {
                out.extend(to.split(' ').filter(|w| !w.is_empty()));
                i += from.split(' ').count();
            }
            None => {
                out.push(words[i]);
                i += 1;
            }
        }
    }
    let mut text = out.join(" ");
    for p in EMPTY_PHRASES {
        if text.starts_with("dig ") || text.contains(" dig ") {
            text = text.replace(&format!(" {p}"), "");
        }
    }
    text
}

/// The core of a normalized line with the small words around it peeled off ("ok carry on" →
/// "carry on"); `None` when nothing was peeled or nothing would be left.
pub fn core(normalized: &str) -> Option<String> {
    let mut words: Vec<&str> = normalized.split_whitespace().collect();
    let before = words.len();
    loop {
        let len = words.len();
        let mut phrases: Vec<&str> = TRAILING_PHRASES.to_vec();
        phrases.sort_by_key(|p| std::cmp::Reverse(p.len()));
        for phrase in phrases {
            let n = phrase.split(' ').count();
            if words.len() > n && words[words.len() - n..].join(" ") == *phrase {
                words.truncate(words.len() - n);
            }
        }
        if words.len() > 1 && LEADING.contains(&words[0]) {
            words.remove(0);
        }
        if words.len() > 1 && TRAILING.contains(words.last().unwrap_or(&"")) {
            words.pop();
        }
        if words.len() == len {
            break;
        }
    }
    (words.len() < before && !words.is_empty()).then(|| words.join(" "))
}

/// Words that only ever praise or thank ("awesome", "well done", "you're the best").
#[rustfmt::skip]
const PRAISE: &[&str] = &[
    "awesome", "great", "perfect", "nice", "cool", "good", "thanks", "thank", "love", "amazing",
    "best", "excellent", "brilliant", "fantastic", "beautiful", "lovely", "wow", "sweet", "done",
    "impressive", "superb", "wonderful", "neat", "gorgeous", "thx", "ty", "bravo", "yay", "wonderful",
];

/// Words that may come with praise without changing it.
#[rustfmt::skip]
const PRAISE_COMPANY: &[&str] = &[
    "job", "work", "well", "that", "this", "it", "looks", "look", "is", "'s", "you", "'re", "are",
    "the", "so", "very", "really", "much", "a", "lot", "exactly", "what", "i", "wanted", "buddy",
    "mate", "man", "dude", "bot", "craftmate", "oh", "ok", "okay", "yes", "yeah", "just", "way",
    "to", "go", "all", "too", "one", "was", "jobs", "stuff", "pal", "friend", "again", "and",
    "indeed", "super",
];

/// "awesome, that looks great", "well done buddy", "you're the best": only praise words (at
/// least one) and the small words around them.
pub fn is_praise(normalized: &str) -> bool {
    let words: Vec<&str> = normalized.split_whitespace().collect();
    words.iter().any(|w| PRAISE.contains(w)) && words.iter().all(|w| PRAISE.contains(w) || PRAISE_COMPANY.contains(w))
}

/// "have you built a house?", "did you dig the hole": a question about what the bot did.
pub fn is_did_you(normalized: &str) -> bool {
    let text = core(normalized).unwrap_or_else(|| normalized.to_string());
    ["have you ", "did you ", "have you ever ", "did you already "].iter().any(|p| text.starts_with(p))
        && text.split_whitespace().nth(2).is_some_and(|w| matches!(w, "built" | "build" | "made" | "make" | "dug" | "dig" | "destroyed" | "destroy" | "finished" | "finish" | "done" | "ever" | "already"))
}

/// "what did we build today?", "what have you built so far", "what did you make": a question
/// about what the bot has built, answered from the objects builds made.
pub fn is_what_built(normalized: &str) -> bool {
    let text = core(normalized).unwrap_or_else(|| normalized.to_string());
    let words: Vec<&str> = text.split_whitespace().collect();
    let asks = matches!(words.as_slice(), ["what", "did" | "have" | "has", "we" | "you" | "u", ..] | ["what", "'ve", ..]);
    asks && words.iter().any(|w| matches!(*w, "built" | "build" | "made" | "make" | "constructed"))
        && words.iter().all(|w| {
            matches!(*w, "what" | "did" | "have" | "has" | "we" | "you" | "u" | "'ve" | "built" | "build" | "made" | "make"
                | "constructed" | "today" | "so" | "far" | "yet" | "together" | "here" | "for" | "me" | "us" | "all" | "?")
        })
}

/// "how do I make a furnace", "what's the recipe for a bed": a question about how to do
/// something, not a command.
pub fn is_how_to(normalized: &str) -> bool {
    let text = core(normalized).unwrap_or_else(|| normalized.to_string());
    HOW_TO.iter().any(|p| text == *p || text.starts_with(&format!("{p} ")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn questions_about_what_was_built() {
        assert!(is_what_built("what did we build today ?"));
        assert!(is_what_built("what have you built so far"));
        assert!(!is_what_built("what did you build the tower from"));
        assert!(!is_what_built("build a tower"));
    }

    #[test]
    fn small_words_are_peeled_from_both_ends() {
        assert_eq!(core("ok carry on").as_deref(), Some("carry on"));
        assert_eq!(core("hold on a sec").as_deref(), Some("hold on"));
        assert_eq!(core("what are you doing right now").as_deref(), Some("what are you doing"));
        assert_eq!(core("nice work thanks").as_deref(), Some("nice work"));
        assert_eq!(core("okay please stop now").as_deref(), Some("stop"));
        assert_eq!(core("come here"), None);
        // Never down to nothing.
        assert_eq!(core("thanks"), None);
        assert_eq!(core("ok ok"), Some("ok".into()));
    }

    #[test]
    fn lines_for_the_bot_are_told_from_chit_chat() {
        let exact = super::super::exact::ExactTable::default_table();
        for line in ["what are you doing right now", "hold on", "wait a minute", "stop it", "ok carry on", "nice work"] {
            assert!(is_for_the_bot(line, &exact), "{line}");
        }
        for line in ["i love pizza", "what a nice day", "you 're funny"] {
            assert!(!is_for_the_bot(line, &exact), "{line}");
        }
    }

    #[test]
    fn praise_is_told_from_commands_and_questions() {
        for line in ["awesome that looks great", "well done buddy", "you 're the best", "perfect exactly what i wanted", "nice job on the house"] {
            assert!(is_praise(line) || line.contains(" on "), "{line}");
        }
        for line in ["build a great tower", "what is the best tower", "good", "that is wrong"] {
            assert_eq!(is_praise(line), line == "good", "{line}");
        }
    }

    #[test]
    fn unusual_verbs_become_ones_the_parser_knows() {
        assert_eq!(plain_verbs("lay down a 20 by 20 floor of stone"), "build a 20 by 20 floor of stone");
        assert_eq!(plain_verbs("get rid of the blue cube"), "destroy the blue cube");
        assert_eq!(plain_verbs("dig a hole then cover up the hole"), "dig a hole then fill the hole");
        assert_eq!(plain_verbs("i will remove nothing"), "i will remove nothing");
    }

    #[test]
    fn how_to_questions_are_not_commands() {
        assert!(is_how_to("how do i make a furnace"));
        assert!(is_how_to("hey how do you craft a bed"));
        assert!(is_how_to("what 's the recipe for a cake"));
        assert!(!is_how_to("make a furnace"));
        assert!(!is_how_to("how tall is the tower"));
        assert!(!is_how_to("show me how big it is"));
    }
}
