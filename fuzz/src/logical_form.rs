//! Logical forms, valid and near-valid, through validation and then everything the bot does
//! with a form it accepts.
//!
//! The input drives a generator rather than being JSON itself, so that most inputs are forms
//! the interpreter gets to see. The generator's grammar is learned from our own templates
//! (`data/templates/`): it starts from one of their forms and applies a few edits drawn from
//! what the templates hold — the value of a key swapped for another value the templates give
//! that key (still valid, mostly), a key dropped or added where it may not belong, spans moved
//! out of their text, a value of the wrong type, words added or taken from the text, actions
//! repeated (near-valid, mostly). Validation must refuse what it cannot use with a reason; a
//! form it accepts must survive its own JSON and must not break the bot.

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::OnceLock;

use arbitrary::{Result, Unstructured};
use craftmate::agent::Bot;
use craftmate::logical_form::validate_json;
use craftmate::training::templates::generate_from_dir;
use serde_json::{Value, json};

use crate::sandbox::Sandbox;

/// The most edits made to one form.
pub const MAX_EDITS: usize = 6;
/// The most actions a generated command holds.
pub const MAX_ACTIONS: usize = 5;

/// What the templates hold: their examples, and every value they give each key.
struct Grammar {
    examples: Vec<(Vec<String>, Value)>,
    by_key: BTreeMap<String, Vec<Value>>,
    keys: Vec<String>,
    /// Every string the forms hold (enum values, mostly).
    strings: Vec<String>,
    words: Vec<String>,
}

fn grammar() -> &'static Grammar {
    static GRAMMAR: OnceLock<Grammar> = OnceLock::new();
    GRAMMAR.get_or_init(|| {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../data/templates");
        let examples: Vec<(Vec<String>, Value)> =
            generate_from_dir(&dir, 600, 7).expect("the templates load").into_iter().map(|e| (e.words, e.json)).collect();
        let mut by_key: BTreeMap<String, Vec<Value>> = BTreeMap::new();
        for (_, json) in &examples {
            collect(json, &mut by_key);
        }
        for values in by_key.values_mut() {
            values.sort_by_key(Value::to_string);
            values.dedup();
            values.truncate(64);
        }
        let keys = by_key.keys().cloned().collect();
        let mut strings: Vec<String> =
            by_key.values().flatten().filter_map(|v| v.as_str().map(str::to_string)).collect();
        strings.sort();
        strings.dedup();
        let mut words: Vec<String> = examples.iter().flat_map(|(w, _)| w.iter().cloned()).collect();
        words.sort();
        words.dedup();
        Grammar { examples, by_key, keys, strings, words }
    })
}

fn collect(v: &Value, by_key: &mut BTreeMap<String, Vec<Value>>) {
    match v {
        Value::Object(map) => {
            for (k, child) in map {
                by_key.entry(k.clone()).or_default().push(child.clone());
                collect(child, by_key);
            }
        }
        Value::Array(items) => items.iter().for_each(|c| collect(c, by_key)),
        _ => {}
    }
}

pub fn run(data: &[u8]) {
    let mut u = Unstructured::new(data);
    let Ok((words, form)) = generate(&mut u) else { return };
    let text = words.join(" ");
    let mut json = form.to_string();
    // Now and then, text that is not even JSON: the form cut short.
    if u.ratio(1, 16).unwrap_or(false) {
        let cut = u.int_in_range(0..=json.len()).unwrap_or(0);
        json.truncate(json.floor_char_boundary(cut));
    }
    match validate_json(&text, &json) {
        Err(errors) => {
            assert!(!errors.is_empty(), "refused without a reason");
            for e in &errors {
                assert!(!e.to_string().trim().is_empty(), "a reason without words");
            }
        }
        Ok(lf) => {
            let again = validate_json(&text, &lf.to_json_string())
                .unwrap_or_else(|e| panic!("an accepted form's own JSON is refused: {e:?}\n{}", lf.to_json_string()));
            assert_eq!(again, lf, "an accepted form changes through its own JSON");
            let mut sandbox = Sandbox::new(None);
            sandbox.bot.expect_parse("alice", &text, lf);
            sandbox.say("alice", &text);
        }
    }
}

/// A form from the templates, edited up to [`MAX_EDITS`] times, and its words.
fn generate(u: &mut Unstructured) -> Result<(Vec<String>, Value)> {
    let g = grammar();
    let (words, form) = u.choose(&g.examples)?;
    let (mut words, mut form) = (words.clone(), form.clone());
    for _ in 0..u.int_in_range(0..=MAX_EDITS)? {
        edit(u, g, &mut words, &mut form)?;
    }
    Ok((words, form))
}

/// Where a value sits in a form: object keys and array indices from the top.
#[derive(Clone)]
enum Step {
    Key(String),
    Index(usize),
}

fn paths(v: &Value, here: &mut Vec<Step>, out: &mut Vec<Vec<Step>>) {
    out.push(here.clone());
    match v {
        Value::Object(map) => {
            for (k, child) in map {
                here.push(Step::Key(k.clone()));
                paths(child, here, out);
                here.pop();
            }
        }
        Value::Array(items) => {
            for (i, child) in items.iter().enumerate() {
                here.push(Step::Index(i));
                paths(child, here, out);
                here.pop();
            }
        }
        _ => {}
    }
}

fn at<'a>(v: &'a mut Value, path: &[Step]) -> &'a mut Value {
    path.iter().fold(v, |v, step| match step {
        Step::Key(k) => &mut v[k.as_str()],
        Step::Index(i) => &mut v[*i],
    })
}

/// A value somewhere in `form` (the whole form included), picked by `u`.
fn pick<'a>(u: &mut Unstructured, form: &'a mut Value) -> Result<(&'a mut Value, Option<String>)> {
    let mut all = Vec::new();
    paths(form, &mut Vec::new(), &mut all);
    let path = u.choose(&all)?.clone();
    let key = match path.last() {
        Some(Step::Key(k)) => Some(k.clone()),
        _ => None,
    };
    Ok((at(form, &path), key))
}

fn is_span(v: &Value) -> bool {
    v.as_array().is_some_and(|a| a.len() == 2 && a[0].is_number() && a[1].is_array())
}

fn edit(u: &mut Unstructured, g: &Grammar, words: &mut Vec<String>, form: &mut Value) -> Result<()> {
    match u.int_in_range(0..=7u8)? {
        // Another value the templates give this key.
        0 => {
            let (v, key) = pick(u, form)?;
            if let Some(values) = key.and_then(|k| g.by_key.get(&k)) {
                *v = u.choose(values)?.clone();
            }
        }
        // A key dropped.
        1 => {
            let (v, _) = pick(u, form)?;
            if let Some(map) = v.as_object_mut().filter(|m| !m.is_empty()) {
                let keys: Vec<String> = map.keys().cloned().collect();
                map.remove(u.choose(&keys)?);
            }
        }
        // A key the templates know, added wherever (often where it does not belong).
        2 => {
            let key = u.choose(&g.keys)?.clone();
            let value = u.choose(&g.by_key[&key])?.clone();
            let (v, _) = pick(u, form)?;
            if let Some(map) = v.as_object_mut() {
                map.insert(key, value);
            }
        }
        // A span moved, maybe out of its text or backwards.
        3 => {
            let (v, _) = pick(u, form)?;
            if is_span(v) {
                let n = words.len() as i64;
                let mut end = || -> Result<i64> {
                    Ok(match u.int_in_range(0..=9u8)? {
                        0 => i64::MAX,
                        1 => -1,
                        _ => u.int_in_range(0..=n + 1)?,
                    })
                };
                *v = json!([0, [end()?, end()?]]);
            }
        }
        // A value of another type.
        4 => {
            let (v, _) = pick(u, form)?;
            *v = match u.int_in_range(0..=6u8)? {
                0 => Value::Null,
                1 => json!(true),
                2 => json!(-1),
                3 => json!(1e300),
                4 => json!([]),
                5 => json!({}),
                _ => json!(short_string(u)?),
            };
        }
        // A word added to the text or taken out of it (spans after it now point elsewhere).
        5 => {
            let i = u.int_in_range(0..=words.len())?;
            if u.arbitrary()? || words.len() < 2 {
                words.insert(i, u.choose(&g.words)?.clone());
            } else {
                words.remove(i.min(words.len() - 1));
            }
        }
        // Another action in the command (from any template), up to MAX_ACTIONS.
        6 => {
            let (_, other) = u.choose(&g.examples)?;
            if let (Some(seq), Some(extra)) = (form.get_mut("action_sequence").and_then(Value::as_array_mut), other.pointer("/action_sequence/0")) {
                if seq.len() < MAX_ACTIONS {
                    seq.insert(u.int_in_range(0..=seq.len())?, extra.clone());
                }
            }
        }
        // A string swapped for one the templates use anywhere, or for any string.
        _ => {
            let (v, _) = pick(u, form)?;
            if v.is_string() {
                *v = if u.arbitrary()? {
                    json!(u.choose(&g.strings)?)
                } else {
                    json!(short_string(u)?)
                };
            }
        }
    }
    Ok(())
}

/// A short string from the input (up to 40 bytes, invalid UTF-8 replaced).
fn short_string(u: &mut Unstructured) -> Result<String> {
    let n = u.int_in_range(0..=40usize)?;
    let bytes = u.bytes(n.min(u.len()))?;
    Ok(String::from_utf8_lossy(bytes).into_owned())
}
