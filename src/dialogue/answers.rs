//! How a player's line reads as the answer to a question the bot asked: yes or no, and which of
//! the offered choices it names — by its words, by order, by a name the player gave it, or by
//! looking at it. The question state machine ([`super::waiting`]) decides what the answer does.

use crate::interpreter::context::Turn;
use crate::interpreter::problem::Choice;
use crate::logical_form::tokenize;
use crate::memory::Memory;
use crate::world::World;

const YES: &[&str] = &["yes", "y", "yeah", "yep", "yup", "sure", "ok", "okay", "confirm", "certainly", "absolutely", "please", "correct", "do"];
const NO: &[&str] = &["no", "n", "nope", "nah", "cancel", "don't", "do n't", "never", "stop", "wait", "abort"];

/// A yes/no answer, if the chat is one.
pub fn yes_no(words: &[String]) -> Option<bool> {
    let first = words.first()?.as_str();
    let joined = words.join(" ");
    if NO.contains(&first) || joined.starts_with("do n't") || joined.starts_with("never mind") {
        Some(false)
    } else if YES.contains(&first) || joined.starts_with("go ahead") {
        Some(true)
    } else {
        None
    }
}

/// Which choice an answer names: by its words ("the red one", "blue"), by order ("the first",
/// "2", "the second one"), or `None`.
pub fn choose(words: &[String], choices: &[Choice]) -> Option<usize> {
    const ORDINALS: &[&[&str]] = &[&["first", "1", "1st", "one"], &["second", "2", "2nd", "two"], &["third", "3", "3rd", "three"], &["fourth", "4", "4th", "four"]];
    let ignore = ["the", "a", "an", "one", "that", "this", "please", "i", "mean", "meant", "it", "is", "'s"];
    let content: Vec<&String> = words.iter().filter(|w| !ignore.contains(&w.as_str())).collect();
    // Score each choice by content words its label shares with the answer.
    let scores: Vec<usize> = choices.iter().map(|c| content.iter().filter(|w| c.label.split_whitespace().any(|l| l == w.as_str())).count()).collect();
    let best = *scores.iter().max()?;
    if best > 0 && scores.iter().filter(|s| **s == best).count() == 1 {
        return scores.iter().position(|s| *s == best);
    }
    // "one" is an ordinal only on its own ("one", "number one"): in "that one" or "the big one"
    // it stands for the thing, and must not silently pick the first choice.
    let bare_one = content.is_empty() && words.iter().any(|w| w == "one") && !words.iter().any(|w| matches!(w.as_str(), "that" | "this" | "it"));
    let counted = |w: &String| w != "one" || bare_one;
    for (i, names) in ORDINALS.iter().enumerate().take(choices.len()) {
        if words.iter().filter(|w| counted(w)).any(|w| names.contains(&w.as_str())) {
            return Some(i);
        }
    }
    if words.iter().any(|w| w == "last") {
        return Some(choices.len() - 1);
    }
    None
}

/// "The castle", "my house": the choice whose given names or tags the answer uses, when the
/// labels (colour and shape) cannot tell them apart.
pub fn named_choice(words: &[String], choices: &[Choice], memory: &Memory) -> Option<usize> {
    use crate::memory::query::names::word_key;
    const FILLER: &[&str] = &["the", "a", "an", "one", "that", "this", "it", "please", "i", "mean", "meant", "is", "'s"];
    let keys: Vec<String> = words.iter().filter(|w| !FILLER.contains(&w.as_str())).map(|w| word_key(w)).collect();
    if keys.is_empty() {
        return None;
    }
    let scores: Vec<usize> = choices
        .iter()
        .map(|c| {
            let told: Vec<String> = ["has_name", "has_tag"]
                .iter()
                .flat_map(|p| memory.values_of(c.id, p).unwrap_or_default())
                .flat_map(|v| tokenize(&v))
                .map(|w| word_key(&w))
                .collect();
            keys.iter().filter(|k| told.contains(k)).count()
        })
        .collect();
    let best = *scores.iter().max()?;
    (best > 0 && scores.iter().filter(|s| **s == best).count() == 1).then(|| scores.iter().position(|s| *s == best)).flatten()
}

/// "That one" / "this one": the choice the speaker is looking at, if any.
pub fn looked_choice(speaker: &str, text: &str, choices: &[Choice], world: &dyn World, memory: &mut Memory) -> Option<usize> {
    let words = tokenize(text);
    let pointing = words.iter().any(|w| matches!(w.as_str(), "that" | "this" | "it" | "there" | "here"));
    if !pointing || words.len() > 4 {
        return None;
    }
    let turn = Turn::new(speaker, text, world, memory);
    let id = turn.memory.object_at(turn.look_hit?.block).ok().flatten()?;
    choices.iter().position(|c| c.id == id)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::logical_form::tokenize;

    fn c(label: &str, id: i64) -> Choice {
        Choice { label: label.into(), id }
    }

    #[test]
    fn answers_pick_choices() {
        let choices = [c("the red tower", 1), c("the blue tower", 2)];
        assert_eq!(choose(&tokenize("the blue one"), &choices), Some(1));
        assert_eq!(choose(&tokenize("Red!"), &choices), Some(0));
        assert_eq!(choose(&tokenize("the second"), &choices), Some(1));
        assert_eq!(choose(&tokenize("the tower"), &choices), None, "both are towers");
        assert_eq!(choose(&tokenize("build a house"), &choices), None);
        // "that one" points (the caller looks at what the player looks at); it is not "the first".
        assert_eq!(choose(&tokenize("that one"), &choices), None);
        assert_eq!(choose(&tokenize("this one please"), &choices), None);
        assert_eq!(choose(&tokenize("one"), &choices), Some(0));
        assert_eq!(choose(&tokenize("the first one"), &choices), Some(0));
        assert_eq!(choose(&tokenize("the second one"), &choices), Some(1));
        assert_eq!(yes_no(&tokenize("Yes please")), Some(true));
        assert_eq!(yes_no(&tokenize("don't do it")), Some(false));
        assert_eq!(yes_no(&tokenize("build a house")), None);
    }
}
