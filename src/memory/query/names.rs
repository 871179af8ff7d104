//! Words to match keys: how "houses", "the Boxes", "grey" and "staircase" find what perception
//! and players stored as "house", "cube", "gray" and "stair".
//!
//! Every text a triple stores gets a *key* next to it (`triples.obj_key`), computed here, and a
//! query computes keys from the chat's words the same way, so matching is an indexed equality
//! test instead of fuzzy string work at query time. The rules are deliberately small: the singular
//! (`Lexicon::lemma`, the same one build and answers use) and synonym groups for the shape words
//! perception guesses. Unknown words pass through lower-cased, so a player's own name for a thing
//! ("zigurat") still matches itself.

use crate::lexicon::{Class, Group, lexicon};
use crate::logical_form::tokenize;
use crate::world::Block;
use crate::world::blocks::canonical_colour;

/// One word to its key: singular, then the head of its synonym group (`[name_keys]`).
pub fn word_key(word: &str) -> String {
    let single = lexicon().lemma(word);
    match lexicon().meaning(Group::NameKey, &single) {
        Some(head) => head.to_string(),
        None => single,
    }
}

/// Articles and determiners dropped from names ("the big house" → "big house").
fn is_filler(word: &str) -> bool {
    lexicon().is(Class::Determiner, word)
}

/// The key of a name or tag: the words as the chat tokenizer splits them (so "alice's" and
/// "alice 's" agree), each word's key, fillers dropped, joined by single spaces. Underscores count
/// as spaces, so block ids and spoken words agree.
pub fn name_key(text: &str) -> String {
    let words: Vec<String> = tokenize(&text.replace('_', " "))
        .into_iter()
        .filter(|w| !is_filler(w))
        .map(|w| word_key(&w))
        .collect();
    words.join(" ")
}

/// The key of a colour word: the registry's canonical colour, or the name key if it is no colour.
pub fn colour_key(text: &str) -> String {
    canonical_colour(text).map(str::to_string).unwrap_or_else(|| name_key(text))
}

/// The size class a size word means ("large" → big), if any: one of the lexicon's `[sizes]`
/// (tiny, small, medium, big, huge), which perception stores.
pub fn size_class(word: &str) -> Option<&'static str> {
    lexicon().size(word)
}

/// The classes a size word matches: "big" also finds huge things, "small" also tiny ones.
pub fn size_matches(word: &str) -> Vec<&'static str> {
    match size_class(word) {
        Some("small") => vec!["small", "tiny"],
        Some("big") => vec!["big", "huge"],
        Some(class) => vec![class],
        None => Vec::new(),
    }
}

/// A number written as digits, a number word or an ordinal ("3", "three", "third", "3rd"), or
/// an article ("a house": one).
pub fn number(text: &str) -> Option<f64> {
    let w = text.trim().to_lowercase();
    if let Ok(n) = w.parse::<f64>() {
        return n.is_finite().then_some(n);
    }
    if let Some(n) = lexicon().ordinal(&w) {
        return Some(n as f64);
    }
    // "10-ft" and "5x5"-style sizes: the leading number.
    if let Some(head) = w.split(['-', 'x']).next()
        && head != w
        && let Ok(n) = head.parse::<f64>()
    {
        return Some(n);
    }
    if lexicon().is(Class::Indefinite, &w) {
        return Some(1.0);
    }
    lexicon().number(&[w.as_str()], 0).filter(|(_, used)| *used == 1).map(|(v, _)| v as f64)
}

/// The number in a phrase of several words ("twenty five" → 25, "the second" → 2): the one
/// number said, or the last of several.
pub fn number_in(words: &[impl AsRef<str>]) -> Option<f64> {
    let words: Vec<String> = words.iter().map(|w| w.as_ref().trim().to_lowercase()).collect();
    let mut values = Vec::new();
    let mut i = 0;
    while i < words.len() {
        match lexicon().number(&words, i) {
            Some((v, n)) => {
                values.push(v as f64);
                i += n;
            }
            None => {
                values.extend(number(&words[i]));
                i += 1;
            }
        }
    }
    values.last().copied()
}

/// The key stored for a numeric measure (`has_height` 5 → "5").
pub fn number_key(n: f64) -> String {
    if n.fract() == 0.0 { format!("{}", n as i64) } else { format!("{n}") }
}

/// Block ids a phrase can mean: "wool" → every `*_wool`, "red wool" → `red_wool`,
/// "stone bricks" → `stone_bricks`, "bricks" → `bricks`, `nether_bricks`, … Each word of the
/// phrase must be a word of the id (singular or plural alike).
pub fn block_types_matching(text: &str) -> Vec<&'static str> {
    let raw: Vec<&str> = text
        .split(|c: char| c.is_whitespace() || c == '_')
        .filter(|w| !w.is_empty() && !is_filler(w))
        .collect();
    // A word that is both a colour and a material ("gold") asks for the material: a block type
    // was asked, and "gold" is no yellow wool — its blocks and ores are meant.
    if let [word] = raw[..]
        && canonical_colour(word).is_some()
        && crate::lexicon::lexicon().material(word).is_some()
    {
        let word = lexicon().lemma(word);
        return Block::all().map(Block::name).filter(|n| n.split('_').any(|part| lexicon().lemma(part) == word)).collect();
    }
    // Two-word dye colours ("light blue") are one word of a block id.
    let mut wanted: Vec<String> = Vec::new();
    let mut i = 0;
    while i < raw.len() {
        if i + 1 < raw.len()
            && let Some(c) = canonical_colour(&format!("{} {}", raw[i], raw[i + 1])).filter(|c| c.contains('_'))
        {
            wanted.push(c.to_string());
            i += 2;
            continue;
        }
        wanted.push(colour_or_lemma(raw[i]));
        i += 1;
    }
    if wanted.is_empty() {
        return Vec::new();
    }
    let mut out = Vec::new();
    for block in Block::all() {
        let name = block.name();
        if name == "air" {
            continue;
        }
        let parts: Vec<String> = block_words(name);
        if wanted.iter().all(|w| parts.iter().any(|p| p == w)) {
            out.push(name);
        }
    }
    out
}

/// The comparable words of a block id: "light_blue_wool" → ["light_blue", "wool"] (a dye colour
/// counts as one word), "stone_bricks" → ["stone", "brick"].
fn block_words(name: &str) -> Vec<String> {
    let mut rest = name;
    let mut out = Vec::new();
    for colour in crate::world::blocks::DYE_COLOURS.iter().filter(|c| c.contains('_')) {
        if let Some(tail) = rest.strip_prefix(colour).and_then(|t| t.strip_prefix('_')) {
            out.push((*colour).to_string());
            rest = tail;
            break;
        }
    }
    out.extend(rest.split('_').map(colour_or_lemma));
    out
}

fn colour_or_lemma(word: &str) -> String {
    canonical_colour(word).map(str::to_string).unwrap_or_else(|| lexicon().lemma(word))
}

/// Predicates whose object is a measure in blocks.
pub const NUMERIC_PREDICATES: &[&str] =
    &["has_height", "has_width", "has_depth", "has_length", "has_thickness", "has_radius", "has_distance"];

/// The key stored next to a triple's text, chosen by its predicate: colours become canonical
/// colours, block types block ids, sizes size classes, measures plain numbers, everything else a
/// name key.
pub fn stored_key(pred: &str, text: &str) -> String {
    match pred {
        "has_colour" => colour_key(text),
        "has_block_type" => {
            let id = text.trim().to_lowercase().replace(' ', "_");
            id.strip_prefix("minecraft:").unwrap_or(&id).to_string()
        }
        "has_size" => size_class(text).map(str::to_string).unwrap_or_else(|| name_key(text)),
        p if NUMERIC_PREDICATES.contains(&p) => {
            number(text).map(number_key).unwrap_or_else(|| name_key(text))
        }
        _ => name_key(text),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn synonyms_share_a_key() {
        assert_eq!(name_key("the Boxes"), "cube");
        assert_eq!(name_key("staircase"), name_key("stairs"));
        assert_eq!(name_key("Big  houses"), "big house");
        assert_eq!(name_key("zigurat"), "zigurat");
        assert_eq!(colour_key("Grey"), "gray");
        assert_eq!(colour_key("light blue"), "light_blue");
    }

    #[test]
    fn numbers_and_sizes() {
        assert_eq!(number("third"), Some(3.0));
        assert_eq!(number("2nd"), Some(2.0));
        assert_eq!(number("five"), Some(5.0));
        assert_eq!(number("-3.5"), Some(-3.5));
        assert_eq!(number("10-ft"), Some(10.0));
        assert_eq!(number("house"), None);
        assert_eq!(number_in(&["twenty", "five"]), Some(25.0));
        assert_eq!(size_class("large"), Some("big"));
        assert_eq!(size_matches("small"), vec!["small", "tiny"]);
    }

    #[test]
    fn block_words_match_ids() {
        assert!(block_types_matching("wool").contains(&"red_wool"));
        assert_eq!(block_types_matching("red wool"), vec!["red_wool"]);
        assert_eq!(block_types_matching("light blue wool"), vec!["light_blue_wool"]);
        assert!(block_types_matching("bricks").contains(&"stone_bricks"));
        assert!(block_types_matching("brick").contains(&"bricks"));
        assert!(block_types_matching("zorp").is_empty());
        // A material that is also a colour word asks for the material, not the colour.
        let gold = block_types_matching("gold");
        assert!(gold.contains(&"gold_block") && !gold.contains(&"yellow_wool"), "{gold:?}");
        assert!(block_types_matching("yellow").contains(&"yellow_wool"));
    }
}
