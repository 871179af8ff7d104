//! The templated command generator: our own templates (`data/templates/*.txt`) expanded into
//! commands and logical forms in the annotation schema, to cover phrasings the annotated set lacks.
//!
//! A template line is `TEXT => JSON`:
//! - TEXT is words separated by spaces; `{slot}` draws a filler (possibly several words) from a slot
//!   list; `(a|b|)` picks one alternative (empty = leave out; `_` joins words: `next_to`).
//!   Alternatives may carry a value, `(left=LEFT|right=RIGHT)`: the N-th valued choice of a line
//!   puts its value where the JSON says `"@N"` and its words where it says `"$cN"`.
//! - JSON is the form, where a string `"$slot"` becomes the span the slot's words landed on, and
//!   `"$a..$b"` the span from the start of slot `a` to the end of slot `b`. `"$*"` is the whole text.
//!
//! Slot lists come from `slots.txt` in the same folder (`name: filler | filler two | ...`) and from
//! the crate itself: `shape` (the schematics' shape words), `colour` (the block registry's colours),
//! `block` (block ids as words), `num` (1–30) and `coords` (three integers).
//! Lines starting with `#` are comments. Generation is seeded and deterministic.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use rand::rngs::StdRng;
use rand::seq::IndexedRandom;
use rand::{Rng, SeedableRng};
use serde_json::Value;

use super::data::Example;
use crate::logical_form::{LogicalForm, validate};
use crate::parser::{ParserError, Result};

/// One parsed template.
#[derive(Debug, Clone)]
pub struct Template {
    pub text: Vec<Piece>,
    pub json: Value,
    pub source: String,
    /// The phrasing class it belongs to: its file's name ("sizes", "relations"); empty when
    /// parsed alone.
    pub class: String,
}

/// A piece of template text.
#[derive(Debug, Clone)]
pub enum Piece {
    Word(String),
    Choice(Vec<String>),
    Slot(String),
}

/// Slot name → fillers (each a list of words).
pub type Slots = BTreeMap<String, Vec<Vec<String>>>;

/// The slot lists the crate provides.
pub fn builtin_slots() -> Slots {
    let words = |s: &str| s.replace('_', " ").split_whitespace().map(str::to_string).collect::<Vec<_>>();
    let mut slots = Slots::new();
    slots.insert("shape".into(), crate::schematics::shape_words().into_iter().map(words).collect());
    let blocks = crate::world::blocks::Block::all().filter(|b| !b.is_air()).collect::<Vec<_>>();
    let colours: BTreeSet<&str> = blocks.iter().filter_map(|b| b.colour()).collect();
    slots.insert("colour".into(), colours.into_iter().map(words).collect());
    slots.insert("block".into(), blocks.iter().map(|b| words(b.name())).collect());
    slots
}

/// Parses `slots.txt` lines.
pub fn parse_slots(text: &str, slots: &mut Slots) {
    for line in text.lines().map(str::trim).filter(|l| !l.is_empty() && !l.starts_with('#')) {
        if let Some((name, fillers)) = line.split_once(':') {
            let list = slots.entry(name.trim().to_string()).or_default();
            list.extend(
                fillers
                    .split('|')
                    .map(|f| f.split_whitespace().map(str::to_string).collect::<Vec<_>>())
                    .filter(|f| !f.is_empty()),
            );
        }
    }
}

/// Parses one `TEXT => JSON` line.
pub fn parse_template(line: &str) -> Result<Template> {
    let (text, json) =
        line.split_once("=>").ok_or_else(|| ParserError::Data(format!("no `=>` in template: {line}")))?;
    let json: Value =
        serde_json::from_str(json.trim()).map_err(|e| ParserError::Data(format!("{e} in template: {line}")))?;
    let text = text
        .split_whitespace()
        .map(|w| {
            if let Some(slot) = w.strip_prefix('{').and_then(|w| w.strip_suffix('}')) {
                Piece::Slot(slot.to_string())
            } else if let Some(alts) = w.strip_prefix('(').and_then(|w| w.strip_suffix(')')) {
                Piece::Choice(alts.split('|').map(str::to_string).collect())
            } else {
                Piece::Word(w.to_string())
            }
        })
        .collect();
    Ok(Template { text, json, source: line.to_string(), class: String::new() })
}

/// Draws a filler for a slot (`{shape2}` draws from `shape`); `num` and `coords` are generated,
/// `lex:SECTION` draws an entry of that lexicon section and `anyname` any word at all.
fn fill(slot: &str, slots: &Slots, rng: &mut StdRng) -> Option<Vec<String>> {
    let base = slot.trim_end_matches(|c: char| c.is_ascii_digit());
    if let Some(section) = base.strip_prefix("lex:") {
        let entries = crate::lexicon::lexicon().entries(section)?;
        return entries.choose(rng).map(|e| crate::logical_form::tokenize(e));
    }
    // lexicon: the template format's built-in slot names, not chat words.
    match base {
        "anyname" => Some(any_name(slots, rng)),
        "num" => Some(vec![rng.random_range(1..=30).to_string()]),
        // Half near the origin with a ground-level height (how players type what they read off
        // the debug screen in a small world), half anywhere.
        "coords" => Some(if rng.random_bool(0.5) {
            vec![rng.random_range(-40..=40), rng.random_range(0..=80), rng.random_range(-40..=40)]
                .into_iter()
                .map(|c: i32| c.to_string())
                .collect()
        } else {
            (0..3).map(|_| rng.random_range(-200..=200).to_string()).collect()
        }),
        _ => slots.get(base)?.choose(rng).cloned(),
    }
}

/// A name as players give them: a name from the `newname` list, any word the lexicon knows
/// ("stop", "red", "tower": a name is never what the word usually means), or a made-up word.
fn any_name(slots: &Slots, rng: &mut StdRng) -> Vec<String> {
    // lexicon: syllables of made-up names, which are no words of chat.
    const SYLLABLES: [&str; 12] = ["ka", "zo", "rim", "bel", "tu", "sna", "gor", "pi", "lux", "mo", "ve", "dra"];
    match rng.random_range(0..3) {
        0 => slots.get("newname").and_then(|names| names.choose(rng)).cloned().unwrap_or_else(|| vec!["bob".into()]),
        1 => {
            // Every word the lexicon knows, gathered once for the whole draw.
            static WORDS: std::sync::LazyLock<Vec<&'static str>> = std::sync::LazyLock::new(|| {
                crate::lexicon::lexicon().chat_words().filter(|w| w.len() >= 3 && w.chars().all(char::is_alphabetic)).collect()
            });
            vec![WORDS.choose(rng).copied().unwrap_or("bob").to_string()]
        }
        _ => vec![(0..rng.random_range(2..=3)).map(|_| *SYLLABLES.choose(rng).unwrap_or(&"ka")).collect()],
    }
}

/// Replaces `"$slot"` strings with spans.
fn substitute(
    value: &Value,
    at: &BTreeMap<String, (usize, usize)>,
    values: &[String],
    n_words: usize,
) -> Option<Value> {
    Some(match value {
        Value::String(s) if s.starts_with('@') => {
            Value::String(values.get(s[1..].parse::<usize>().ok()?.checked_sub(1)?)?.clone())
        }
        Value::String(s) if s.starts_with('$') => {
            let (a, b) = if s == "$*" {
                (0, n_words.checked_sub(1)?)
            } else if let Some((from, to)) = s.split_once("..") {
                (at.get(from.trim_start_matches('$'))?.0, at.get(to.trim_start_matches('$'))?.1)
            } else {
                *at.get(&s[1..])?
            };
            serde_json::json!([0, [a, b]])
        }
        Value::Object(map) => Value::Object(
            map.iter().map(|(k, v)| Some((k.clone(), substitute(v, at, values, n_words)?))).collect::<Option<_>>()?,
        ),
        Value::Array(items) => {
            Value::Array(items.iter().map(|v| substitute(v, at, values, n_words)).collect::<Option<_>>()?)
        }
        other => other.clone(),
    })
}

/// Expands a template once; `None` if a slot is unknown or the result does not validate.
pub fn expand(template: &Template, slots: &Slots, rng: &mut StdRng) -> Option<Example> {
    try_expand(template, slots, rng).ok()
}

/// Why one expansion of a template is not a valid example (`None` when it is): for template authors.
pub fn why_invalid(template: &Template, slots: &Slots, rng: &mut StdRng) -> Option<String> {
    try_expand(template, slots, rng).err()
}

fn try_expand(template: &Template, slots: &Slots, rng: &mut StdRng) -> std::result::Result<Example, String> {
    let mut words = Vec::new();
    let mut at = BTreeMap::new();
    let mut values = Vec::new();
    for piece in &template.text {
        match piece {
            Piece::Word(w) => words.push(w.clone()),
            Piece::Choice(alts) => {
                let pick = alts.choose(rng).ok_or("an empty choice")?;
                let (text, value) = match pick.split_once('=') {
                    Some((text, value)) => (text, Some(value)),
                    None => (pick.as_str(), None),
                };
                let start = words.len();
                words.extend(text.split('_').filter(|w| !w.is_empty()).map(str::to_string));
                if let Some(value) = value {
                    values.push(value.to_string());
                    if words.len() > start {
                        at.insert(format!("c{}", values.len()), (start, words.len() - 1));
                    }
                }
            }
            Piece::Slot(name) => {
                let filler = fill(name, slots, rng).ok_or_else(|| format!("unknown slot {{{name}}}"))?;
                at.insert(name.clone(), (words.len(), words.len() + filler.len() - 1));
                words.extend(filler);
            }
        }
    }
    let json = substitute(&template.json, &at, &values, words.len())
        .ok_or_else(|| format!("a `$`/`@` reference names nothing in: {}", words.join(" ")))?;
    let text = words.join(" ");
    let lf = LogicalForm::from_json_value(&json).map_err(|e| format!("{e} in: {text}"))?;
    validate(&text, &lf).map_err(|errors| {
        let errors: Vec<String> = errors.iter().map(ToString::to_string).collect();
        format!("{} in: {text}", errors.join("; "))
    })?;
    Ok(Example { words, json, origin: super::data::Origin::Templated })
}

/// Reads every `*.txt` template file in `dir` (and `slots.txt`), then draws `n` examples,
/// cycling through the templates so each is used about equally.
pub fn generate_from_dir(dir: &Path, n: usize, seed: u64) -> Result<Vec<Example>> {
    let (templates, slots) = read_dir(dir)?;
    Ok(generate(&templates, &slots, n, seed))
}

/// Every template in `dir` (each with its file's name as its class) and the slot lists.
pub fn read_dir(dir: &Path) -> Result<(Vec<Template>, Slots)> {
    let mut slots = builtin_slots();
    let mut templates = Vec::new();
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .map_err(|source| ParserError::Io { path: dir.into(), source })?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "txt"))
        .collect();
    files.sort();
    for path in files {
        let text = std::fs::read_to_string(&path).map_err(|source| ParserError::Io { path: path.clone(), source })?;
        if path.file_name().is_some_and(|f| f == "slots.txt") {
            parse_slots(&text, &mut slots);
            continue;
        }
        let class = path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
        for line in text.lines().map(str::trim).filter(|l| !l.is_empty() && !l.starts_with('#')) {
            templates.push(Template { class: class.clone(), ..parse_template(line)? });
        }
    }
    Ok((templates, slots))
}

/// Draws `n` examples from the templates, cycling through them so each is used about equally.
/// A template is dropped (with a warning) once it has failed 20 times more than ten times as often
/// as it has succeeded: never-valid templates go quickly, while a template whose choices are only
/// sometimes invalid (a size word that does not fit an attribute, say) keeps being sampled.
pub fn generate(templates: &[Template], slots: &Slots, n: usize, seed: u64) -> Vec<Example> {
    generate_indexed(templates, slots, n, seed).into_iter().map(|(_, example)| example).collect()
}

/// [`generate`], each example with the index of the template it came from.
pub fn generate_indexed(templates: &[Template], slots: &Slots, n: usize, seed: u64) -> Vec<(usize, Example)> {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut out = Vec::with_capacity(n);
    let mut failures = vec![0usize; templates.len()];
    let mut successes = vec![0usize; templates.len()];
    let mut dropped = vec![false; templates.len()];
    let mut i = 0;
    while out.len() < n && !dropped.iter().all(|d| *d) {
        let t = i % templates.len();
        i += 1;
        if dropped[t] {
            continue;
        }
        match expand(&templates[t], slots, &mut rng) {
            Some(example) => {
                successes[t] += 1;
                out.push((t, example));
            }
            None => {
                failures[t] += 1;
                if failures[t] > 20 && failures[t] > 10 * successes[t] {
                    tracing::warn!(template = %templates[t].source, successes = successes[t], "template rarely yields a valid form; skipped");
                    dropped[t] = true;
                }
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_template_expands_to_a_valid_form_with_spans_on_its_slots() {
        let t = parse_template(
            r#"(please|) build a {colour} {shape} => {"dialogue_type": "HUMAN_GIVE_COMMAND", "action_sequence": [{"action_type": "BUILD", "schematic": {"text_span": "$colour..$shape", "filters": {"where_clause": {"AND": [{"pred_text": "has_name", "obj_text": "$shape"}, {"pred_text": "has_colour", "obj_text": "$colour"}]}}}}]}"#,
        )
        .unwrap();
        let examples = generate(&[t], &builtin_slots(), 20, 1);
        assert_eq!(examples.len(), 20);
        for ex in &examples {
            assert!(ex.words.contains(&"build".to_string()));
        }
    }
}
