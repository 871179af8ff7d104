//! Naming things in replies: "the red tower", "alice", "a pig", "the hole". The words come from
//! memory (names players gave first, then perceived colour and shape), so the bot describes
//! objects the way players can refer back to them.

use crate::memory::query::names::word_key;
use crate::memory::{Memory, MemoryId, MemoryKind};

/// A short noun phrase without an article: "red tower", "alice", "pig".
pub fn noun(memory: &Memory, id: MemoryId) -> String {
    noun_for(memory, id, &[])
}

/// Like [`noun`], but when perception gave the thing several shape words ("pillar", "tower"),
/// the one the player used in `words` wins, so "destroy the tower" is answered with "the red
/// tower or the blue tower?", not with a word the player never said.
pub fn noun_for(memory: &Memory, id: MemoryId, words: &[String]) -> String {
    let first = |pred: &str| memory.values_of(id, pred).ok().and_then(|v| v.into_iter().next());
    let said: Vec<String> = words.iter().map(|w| word_key(w)).collect();
    let shape_said = || {
        memory.values_of(id, "has_shape").ok().and_then(|v| v.into_iter().find(|s| said.contains(&word_key(s))))
    };
    let kind = memory.kind_of(id).ok().flatten();
    match kind {
        Some(MemoryKind::Player) => first("has_name").unwrap_or_else(|| "a player".into()),
        Some(MemoryKind::SelfAgent) => "me".into(),
        Some(MemoryKind::Mob) => first("has_name").unwrap_or_else(|| "animal".into()),
        Some(MemoryKind::Hole) => "hole".into(),
        Some(MemoryKind::Location) => first("has_name").unwrap_or_else(|| "place".into()),
        _ => {
            // A name the player gave and just used ("where is the pumpkin box") is said back.
            if let Some((tag, _)) = tag_said(memory, id, &said) {
                return tag;
            }
            let shape = shape_said().or_else(|| first("has_shape")).filter(|s| s != "structure");
            let name = first("has_name").or(shape).unwrap_or_else(|| "structure".into());
            match first("has_colour") {
                Some(c) if !name.contains(&c) => format!("{} {name}", c.replace('_', " ")),
                _ => name,
            }
        }
    }
}

/// A told name or tag of `id` (two words or more, or a word that is no colour or size) whose
/// words appear in a row in `said` (word keys), with where they start.
fn tag_said(memory: &Memory, id: MemoryId, said: &[String]) -> Option<(String, usize)> {
    if said.is_empty() {
        return None;
    }
    let tags = memory.values_of(id, "has_tag").ok()?;
    tags.into_iter().find_map(|t| {
        let keys: Vec<String> = t.split_whitespace().map(word_key).collect();
        let plain = keys.len() >= 2
            || keys.first().is_some_and(|k| {
                crate::world::blocks::canonical_colour(k).is_none() && crate::memory::query::names::size_class(k).is_none() && k != "my"
            });
        let at = said.windows(keys.len()).position(|w| w == keys.as_slice())?;
        (plain && !t.contains('\'')).then_some((t, at))
    })
}

/// [`the_for`] as said to `speaker`: a thing they named as theirs ("this is my home", kept as the
/// tag "alice's home") and now call by that name is "your home", never "the brown home".
pub fn the_for_speaker(memory: &Memory, id: MemoryId, words: &[String], speaker: &str) -> String {
    let said: Vec<String> = words.iter().map(|w| word_key(w)).collect();
    let owned = format!("{}'s ", speaker.to_lowercase());
    let tags = memory.values_of(id, "has_tag").unwrap_or_default();
    let theirs = tags.iter().filter_map(|t| t.to_lowercase().strip_prefix(&owned).map(str::to_string)).find(|name| {
        let keys: Vec<String> = name.split_whitespace().map(word_key).collect();
        !keys.is_empty() && said.windows(keys.len()).any(|w| w == keys.as_slice())
    });
    match theirs {
        Some(name) => format!("your {name}"),
        None => the_for(memory, id, words),
    }
}

/// "the red tower", or a player's bare name.
pub fn the(memory: &Memory, id: MemoryId) -> String {
    the_for(memory, id, &[])
}

/// [`the`] in the player's words (see [`noun_for`]). A name the player used is said back as
/// they said it: "bob" bare, "my house" as "your house", "the pumpkin box" with its article.
pub fn the_for(memory: &Memory, id: MemoryId, words: &[String]) -> String {
    match memory.kind_of(id).ok().flatten() {
        Some(MemoryKind::Player) | Some(MemoryKind::SelfAgent) => noun_for(memory, id, words),
        _ => {
            let said: Vec<String> = words.iter().map(|w| word_key(w)).collect();
            if let Some((tag, at)) = tag_said(memory, id, &said) {
                let before = at.checked_sub(1).and_then(|k| words.get(k)).map(String::as_str);
                // A common noun ("house") keeps an article; a proper name ("bob") goes bare.
                let noun = tag.split_whitespace().count() > 1 || crate::schematics::is_known_shape(&tag);
                return match before {
                    Some("my") => format!("your {tag}"),
                    Some("the") => format!("the {tag}"),
                    _ if noun => format!("the {tag}"),
                    _ => tag,
                };
            }
            format!("the {}", noun_for(memory, id, words))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::logical_form::tokenize;
    use crate::memory::fixture::{Fixture, RED_TOWER};

    #[test]
    fn the_players_shape_word_wins() {
        let f = Fixture::new();
        let id = f.id_at(RED_TOWER);
        // Perception calls a one-block-wide tower both "pillar" and "tower".
        let shapes = f.memory.values_of(id, "has_shape").unwrap();
        assert!(shapes.iter().any(|s| s == "pillar") && shapes.iter().any(|s| s == "tower"), "{shapes:?}");
        assert_eq!(the_for(&f.memory, id, &tokenize("destroy the tower")), "the red tower");
        assert_eq!(the_for(&f.memory, id, &tokenize("destroy the towers")), "the red tower");
        assert_eq!(the_for(&f.memory, id, &tokenize("knock down the column")), "the red pillar");
        // Without the player's words, the most specific guess.
        assert_eq!(the(&f.memory, id), "the red pillar");
    }

    #[test]
    fn names_the_player_gave_are_said_back_as_they_said_them() {
        let mut f = Fixture::new();
        let id = f.id_at(RED_TOWER);
        f.memory.tag(id, "bob").unwrap();
        f.memory.tag(id, "house").unwrap();
        f.memory.tag(id, "pumpkin box").unwrap();
        assert_eq!(the_for(&f.memory, id, &tokenize("where is bob")), "bob");
        assert_eq!(the_for(&f.memory, id, &tokenize("how tall is my house")), "your house");
        assert_eq!(the_for(&f.memory, id, &tokenize("where is house")), "the house", "a common noun keeps an article");
        assert_eq!(the_for(&f.memory, id, &tokenize("where is the pumpkin box")), "the pumpkin box");
    }
}

/// The plural of a noun as the bot says it: "towers", "torches", "boxes", "sheep".
pub fn plural(w: &str) -> String {
    crate::lexicon::lexicon().plural(w)
}
