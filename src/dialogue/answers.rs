//! How a player's line reads as the answer to a question the bot asked: yes or no, and which of
//! the offered choices it names — by its words or the coordinates it was listed with, by order,
//! by a name, tag, colour, material or shape, by the nearest / biggest / tallest, or by looking
//! at it. The question state machine ([`super::waiting`]) decides what the answer does.
//! The words (yes, no, ordinals, the small words around a choice) are the lexicon's.

use crate::interpreter::context::Turn;
use crate::lexicon::{Class, Group, Values, lexicon};
use crate::interpreter::problem::Choice;
use crate::logical_form::tokenize;
use crate::memory::Memory;
use crate::world::{Vec3, World};

/// A yes/no answer, if the chat is one: it starts with a word or phrase of the lexicon's `[no]`
/// ("nope", "don't", "never mind") or `[yes]` ("yeah", "go ahead").
pub fn yes_no(words: &[String]) -> Option<bool> {
    let lx = lexicon();
    // "hmm no thanks", "oh yeah": small words before the answer do not change it.
    let small = |w: &String| lx.is(Class::Filler, w) && !lx.is(Class::Yes, w) && !lx.is(Class::No, w);
    let start = words.iter().position(|w| !small(w)).unwrap_or(words.len());
    if lx.phrase_at(Class::No, words, start).is_some() {
        Some(false)
    } else if lx.phrase_at(Class::Yes, words, start).is_some() {
        Some(true)
    } else {
        None
    }
}

/// Is the line only an answer — yes or no words and the small words around them ("yeah sure go
/// for it", "hmm no thanks")? Such a line answers a question however long it is.
pub fn only_an_answer(words: &[String]) -> bool {
    let lx = lexicon();
    let classes = [Class::Yes, Class::No, Class::Cancel, Class::Filler, Class::Politeness, Class::Opening, Class::Closing];
    let mut i = 0;
    while i < words.len() {
        match classes.iter().find_map(|c| lx.phrase_at(*c, words, i)) {
            Some(n) => i += n,
            None => return false,
        }
    }
    !words.is_empty()
}

/// Words an answer wraps a choice in ("I mean *the* red *one*"): `[answer_fillers]`.
fn is_filler(word: &str) -> bool {
    lexicon().is(Class::AnswerFiller, word)
}

/// The position a word names: "second", "2nd", "2", "two".
fn position(word: &str) -> Option<usize> {
    let n = lexicon().ordinal(word).or_else(|| lexicon().value(Values::Number, word).map(|v| v as i64)).or_else(|| word.parse().ok())?;
    usize::try_from(n).ok()
}

/// Which choice an answer names: by its words ("the red one", "blue"), by order ("the first",
/// "2", "the second one"), or `None`.
pub fn choose(words: &[String], choices: &[Choice]) -> Option<usize> {
    let content: Vec<&String> = words.iter().filter(|w| !is_filler(w)).collect();
    // Score each choice by content words its label shares with the answer; labels are read as
    // chat is, so "the one at -6 5 41" matches "the pyramid at (-6, 5, 41)".
    let labels: Vec<Vec<String>> = choices.iter().map(|c| tokenize(&c.label)).collect();
    let scores: Vec<usize> = labels.iter().map(|l| content.iter().filter(|w| l.contains(w)).count()).collect();
    let best = *scores.iter().max()?;
    if best > 0 && scores.iter().filter(|s| **s == best).count() == 1 {
        return scores.iter().position(|s| *s == best);
    }
    // "one" is an ordinal only on its own ("one", "number one"): in "that one" or "the big one"
    // it stands for the thing, and must not silently pick the first choice.
    let bare_one = content.is_empty() && words.iter().any(|w| w == "one") && !words.iter().any(|w| lexicon().is(Class::Pointing, w));
    let counted = |w: &&String| *w != "one" || bare_one;
    let named: Vec<usize> = words.iter().filter(counted).filter_map(|w| position(w)).collect();
    if let Some(i) = (0..choices.len()).find(|i| named.contains(&(i + 1))) {
        return Some(i);
    }
    if words.iter().any(|w| w == "last") {
        return Some(choices.len() - 1);
    }
    None
}

/// "The castle", "my house", "the stone one", "the glass one": the choice whose given names,
/// tags, colours, block types or shape the answer uses, when the labels cannot tell them apart.
pub fn named_choice(words: &[String], choices: &[Choice], memory: &Memory) -> Option<usize> {
    use crate::memory::query::names::word_key;
    let keys: Vec<String> = words.iter().filter(|w| !is_filler(w)).map(|w| word_key(w)).collect();
    if keys.is_empty() {
        return None;
    }
    let scores: Vec<usize> = choices
        .iter()
        .map(|c| {
            let told: Vec<String> = ["has_name", "has_tag", "has_colour", "has_block_type", "has_shape"]
                .iter()
                .flat_map(|p| memory.values_of(c.id, p).unwrap_or_default())
                .flat_map(|v| tokenize(&v.replace('_', " ")))
                .map(|w| word_key(&w))
                .collect();
            keys.iter().filter(|k| told.contains(k)).count()
        })
        .collect();
    let best = *scores.iter().max()?;
    (best > 0 && scores.iter().filter(|s| **s == best).count() == 1).then(|| scores.iter().position(|s| *s == best)).flatten()
}

/// "The closest one", "the biggest", "the tallest": the choice that ranks first by the measure
/// a word of the answer names (the lexicon's `[nearness]` and `[superlatives]`), nearness from
/// where the speaker stands.
pub fn ranked_choice(words: &[String], choices: &[Choice], memory: &Memory, speaker_at: Option<Vec3>) -> Option<usize> {
    let lx = lexicon();
    let (measure, most) = words
        .iter()
        .find_map(|w| {
            let meaning = lx.meaning(Group::Nearness, w).or_else(|| lx.meaning(Group::Superlative, w))?;
            let (measure, polarity) = meaning.split_once(' ')?;
            Some((measure.to_string(), polarity == "max"))
        })
        .or_else(|| {
            // "the big one", "the little one": among several, a size word picks the biggest or
            // the smallest.
            // lexicon: the size classes' own names in `[sizes]`, not chat words.
            words.iter().find_map(|w| match lx.meaning(Group::Size, w)? {
                "big" | "huge" => Some(("size".to_string(), true)),
                "small" | "tiny" => Some(("size".to_string(), false)),
                _ => None,
            })
        })?;
    let objects: Vec<_> = choices.iter().map(|c| memory.object(c.id).ok().flatten()).collect::<Option<_>>()?;
    let value = |o: &crate::memory::RefObject| -> Option<f64> {
        let [sx, sy, sz] = o.bbox.size();
        // lexicon: the measures' own names in `[nearness]` and `[superlatives]`, not chat words.
        Some(match measure.as_str() {
            "distance" => o.distance_to(speaker_at?),
            "height" => sy as f64,
            "width" => sx.max(sz) as f64,
            _ => o.voxels as f64,
        })
    };
    let values: Vec<f64> = objects.iter().map(value).collect::<Option<_>>()?;
    let best = values.iter().copied().fold(if most { f64::MIN } else { f64::MAX }, |a, b| if most { a.max(b) } else { a.min(b) });
    // A tie is no answer: the question is asked again.
    (values.iter().filter(|v| (**v - best).abs() < 1e-9).count() == 1).then(|| values.iter().position(|v| (*v - best).abs() < 1e-9)).flatten()
}

/// "the one at 35 5 -2": the choice whose blocks are at (or within a couple of blocks of) the
/// coordinates the answer gives, when the label did not list exactly those.
pub fn placed_choice(words: &[String], choices: &[Choice], memory: &Memory) -> Option<usize> {
    const NEAR: f64 = 2.5;
    let p = crate::memory::query::location::coordinates(words)?.center();
    let near: Vec<usize> = (0..choices.len())
        .filter(|&i| memory.object(choices[i].id).ok().flatten().is_some_and(|o| crate::memory::objects::distance_to_box(&o.bbox, p) <= NEAR))
        .collect();
    match near.as_slice() {
        [one] => Some(*one),
        _ => None,
    }
}

/// "That one" / "this one": the choice the speaker is looking at, if any.
pub fn looked_choice(speaker: &str, text: &str, choices: &[Choice], world: &dyn World, memory: &mut Memory) -> Option<usize> {
    let words = tokenize(text);
    let pointing = words.iter().any(|w| [Class::Pointing, Class::Here, Class::There].into_iter().any(|c| lexicon().is(c, w)));
    // "the one im lookin at": looking at it is pointing too.
    let looking = lexicon().any_in(Class::LookingAt, &words);
    if !(pointing && words.len() <= 4 || looking && words.len() <= 8) {
        return None;
    }
    let turn = Turn::new(speaker, crate::understanding::step::form(text), world, memory);
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
        // The coordinates a label was listed with.
        let at = [c("the yellow pyramid at (-6, 5, 41)", 1), c("the yellow pyramid at (3, 5, 2)", 2)];
        assert_eq!(choose(&tokenize("the one at -6 5 41"), &at), Some(0));
        assert_eq!(choose(&tokenize("the yellow pyramid at 3 5 2"), &at), Some(1));
        assert_eq!(yes_no(&tokenize("Yes please")), Some(true));
        assert_eq!(yes_no(&tokenize("hmm no thanks")), Some(false));
        assert_eq!(yes_no(&tokenize("yeah sure go for it")), Some(true));
        assert!(only_an_answer(&tokenize("yeah sure go for it")) && only_an_answer(&tokenize("hmm no thanks")));
        assert!(!only_an_answer(&tokenize("yes build a red cube now")));
        assert_eq!(yes_no(&tokenize("don't do it")), Some(false));
        assert_eq!(yes_no(&tokenize("build a house")), None);
    }
}
