//! Surface variants of a generated command: the same request as players type it — opened
//! politely or with a filler ("could you …", "um …"), closed with "pls" or "real quick", in chat
//! shorthand ("u", "pls"), or with a slip of the keyboard (a neighbouring key, a dropped, doubled
//! or swapped letter). The form stays the one the template wrote; words put in front shift its
//! spans.
//!
//! Every word comes from the lexicon (`[requests]`, `[openings]`, `[filler]`, `[closings]`,
//! `[shorthand]`), so a word added there reaches the parser through its training data. Casing and
//! punctuation need no variant: the tokenizer lower-cases every line and drops the marks around
//! words before the network sees them.

use rand::rngs::StdRng;
use rand::seq::IndexedRandom;
use rand::Rng;
use serde_json::Value;

use super::data::Example;
use crate::lexicon::{Class, Texts, lexicon};
use crate::logical_form::tokenize;
use crate::parser::linearize;

/// The kinds of variant, each with its weight among the varied rows.
pub const KINDS: [(&str, u32); 5] =
    // lexicon: labels of the training report, not words read from chat.
    [("polite opening", 3), ("filler opening", 2), ("polite closing", 3), ("shorthand", 2), ("typo", 3)];

/// One variant of `example`, of a kind drawn by weight; `None` when the drawn kind has nothing to
/// change in this line (no word with a shorthand, none long enough for a typo).
pub fn vary(example: &Example, rng: &mut StdRng) -> Option<(&'static str, Example)> {
    let total: u32 = KINDS.iter().map(|(_, w)| w).sum();
    let mut pick = rng.random_range(0..total);
    let mut kind = KINDS[0].0;
    for (k, w) in KINDS {
        if pick < w {
            kind = k;
            break;
        }
        pick -= w;
    }
    let mut out = example.clone();
    let lx = lexicon();
    // lexicon: the labels of KINDS above.
    match kind {
        "polite opening" => prepend(&mut out, lx.phrases(Class::Request).choose(rng)?),
        "filler opening" => prepend(&mut out, lx.phrases(Class::Filler).choose(rng)?),
        "polite closing" => out.words.extend(lx.phrases(Class::Closing).choose(rng)?.iter().cloned()),
        "shorthand" => shorthand(&mut out.words, rng)?,
        _ => typo(&mut out.words, rng)?,
    }
    Some((kind, out))
}

/// Puts `words` in front of the line and moves every span of its form along.
fn prepend(example: &mut Example, words: &[String]) {
    shift_spans(&mut example.json, words.len());
    example.words.splice(0..0, words.iter().cloned());
}

/// Adds `by` to both ends of every span in `value`.
pub fn shift_spans(value: &mut Value, by: usize) {
    if let Some(span) = linearize::as_span(value) {
        *value = serde_json::json!([span.sentence, [span.start + by, span.end + by]]);
        return;
    }
    match value {
        Value::Object(map) => map.values_mut().for_each(|v| shift_spans(v, by)),
        Value::Array(items) => items.iter_mut().for_each(|v| shift_spans(v, by)),
        _ => {}
    }
}

/// Writes one word the short way players do ("you" → "u", "please" → "pls"): the `[shorthand]`
/// entries that stand for a single word.
fn shorthand(words: &mut [String], rng: &mut StdRng) -> Option<()> {
    let lx = lexicon();
    let mut options = Vec::new();
    for (i, word) in words.iter().enumerate() {
        for (short, long) in lx.texts(Texts::Shorthand) {
            if long == word && tokenize(short).len() == 1 {
                options.push((i, short.to_string()));
            }
        }
    }
    let (i, short) = options.choose(rng)?.clone();
    words[i] = short;
    Some(())
}

// lexicon: not word knowledge but the keyboard's rows, for neighbouring-key slips.
const KEY_ROWS: [&str; 3] = ["qwertyuiop", "asdfghjkl", "zxcvbnm"];

/// The letters beside `c` on its keyboard row.
fn neighbours(c: char) -> Vec<char> {
    KEY_ROWS
        .iter()
        .filter_map(|row| {
            let keys: Vec<char> = row.chars().collect();
            let i = keys.iter().position(|&k| k == c)?;
            Some([i.checked_sub(1).map(|j| keys[j]), keys.get(i + 1).copied()].into_iter().flatten().collect::<Vec<_>>())
        })
        .next()
        .unwrap_or_default()
}

/// One slip in one word of four letters or more: a neighbouring key, a dropped, doubled or
/// swapped letter.
fn typo(words: &mut [String], rng: &mut StdRng) -> Option<()> {
    let long: Vec<usize> =
        (0..words.len()).filter(|&i| words[i].len() >= 4 && words[i].chars().all(|c| c.is_ascii_lowercase())).collect();
    let i = *long.choose(rng)?;
    let mut letters: Vec<char> = words[i].chars().collect();
    let at = rng.random_range(1..letters.len());
    match rng.random_range(0..4) {
        0 => letters[at] = *neighbours(letters[at]).choose(rng)?,
        1 => {
            letters.remove(at);
        }
        2 => letters.insert(at, letters[at]),
        _ => letters.swap(at - 1, at),
    }
    words[i] = letters.into_iter().collect();
    Some(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::training::data::Origin;
    use rand::SeedableRng;

    fn build_cube() -> Example {
        let json = serde_json::json!({"dialogue_type": "HUMAN_GIVE_COMMAND", "action_sequence": [{"action_type": "BUILD",
            "schematic": {"text_span": [0, [2, 2]], "filters": {"where_clause": {"AND": [{"pred_text": "has_name", "obj_text": [0, [2, 2]]}]}}}}]});
        Example { words: tokenize("build a cube"), json, origin: Origin::Templated }
    }

    #[test]
    fn an_opening_moves_every_span_onto_the_same_words() {
        let mut ex = build_cube();
        prepend(&mut ex, &tokenize("could you please"));
        assert_eq!(ex.words.join(" "), "could you please build a cube");
        let name = &ex.json["action_sequence"][0]["schematic"]["filters"]["where_clause"]["AND"][0]["obj_text"];
        assert_eq!(name, &serde_json::json!([0, [5, 5]]));
        assert_eq!(ex.json["action_sequence"][0]["schematic"]["text_span"], serde_json::json!([0, [5, 5]]));
    }

    #[test]
    fn every_variant_keeps_the_form_valid_and_changes_the_words() {
        let mut rng = StdRng::seed_from_u64(1);
        let ex = build_cube();
        let mut kinds = std::collections::BTreeSet::new();
        for _ in 0..200 {
            if let Some((kind, varied)) = vary(&ex, &mut rng) {
                kinds.insert(kind);
                assert_ne!(varied.words, ex.words, "{kind}");
                let lf = crate::logical_form::LogicalForm::from_json_value(&varied.json).unwrap();
                crate::logical_form::validate(&varied.words.join(" "), &lf).unwrap();
            }
        }
        // "build a cube" has no shorthand word; every other kind changed it.
        assert_eq!(kinds.len(), KINDS.len() - 1, "{kinds:?}");
    }

    #[test]
    fn a_slip_of_the_keyboard_stays_near_the_word() {
        assert_eq!(neighbours('s'), vec!['a', 'd']);
        assert_eq!(neighbours('q'), vec!['w']);
        let mut rng = StdRng::seed_from_u64(3);
        let mut words = tokenize("build a tower");
        typo(&mut words, &mut rng).unwrap();
        assert!(words[0] != "build" || words[2] != "tower");
        assert_eq!(words[1], "a");
    }
}
