//! Reading `data/lexicon.toml`: every section the enums name must be there, of the right kind,
//! and nothing else may be, so a typo in a section name or a value of the wrong type is an
//! error (and a failing test) rather than a word list that silently goes missing.
//!
//! The file's order is kept (a shape family's first word is its name; meanings are listed in
//! the order written), so the TOML is read through an order-keeping map instead of a table.

use std::fmt;

use serde::Deserialize;
use serde::de::{Deserializer, MapAccess, Visitor};

use super::{Class, Entries, Group, Lexicon, Texts, Values};

/// A TOML table with its keys in file order.
struct Ordered<T>(Vec<(String, T)>);

impl<'de, T: Deserialize<'de>> Deserialize<'de> for Ordered<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V<T>(std::marker::PhantomData<T>);
        impl<'de, T: Deserialize<'de>> Visitor<'de> for V<T> {
            type Value = Ordered<T>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a table")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
                let mut out = Vec::new();
                while let Some((k, v)) = map.next_entry::<String, T>()? {
                    out.push((k, v));
                }
                Ok(Ordered(out))
            }
        }
        d.deserialize_map(V(std::marker::PhantomData))
    }
}

/// One value in a section.
#[derive(Deserialize)]
#[serde(untagged)]
enum Item {
    Words(Vec<String>),
    /// Slots of alternatives separated by `|` (an empty one leaves the slot out): every phrase
    /// made of one choice per slot.
    Combined(Vec<Vec<String>>),
    Int(i64),
    Float(f64),
    Text(String),
}

impl Item {
    fn kind(&self) -> &'static str {
        match self {
            Item::Words(_) => "a list of words",
            Item::Combined(_) => "a list of slot lists",
            Item::Int(_) | Item::Float(_) => "a number",
            Item::Text(_) => "a text",
        }
    }
}

type Section = Vec<(String, Item)>;

/// Checks an entry: lower case, no stray spaces, not empty.
fn entry(section: &str, word: &str) -> Result<String, String> {
    let clean = word.split_whitespace().collect::<Vec<_>>().join(" ");
    if clean.is_empty() || clean != word || word.chars().any(char::is_uppercase) {
        return Err(format!("[{section}]: entry {word:?} must be lower case, with single spaces and no padding"));
    }
    Ok(clean)
}

fn words(section: &str, key: &str, item: Item) -> Result<Vec<String>, String> {
    match item {
        Item::Words(w) if !w.is_empty() => w.iter().map(|x| entry(section, x)).collect(),
        other => Err(format!("[{section}] {key}: expected a non-empty list of words, found {}", other.kind())),
    }
}

/// A word class: `words`, and optionally `combined`, phrases said in many small variations
/// ("and once ur done with that") written as their slots instead of one by one.
fn class(name: &str, section: Section) -> Result<Entries, String> {
    let mut out = Vec::new();
    let mut has_words = false;
    for (k, item) in section {
        match (k.as_str(), item) {
            ("words", item) => {
                has_words = true;
                out.extend(words(name, &k, item)?);
            }
            ("combined", Item::Combined(lines)) => {
                for slots in lines {
                    for phrase in combinations(&slots) {
                        let phrase = entry(name, &phrase)?;
                        if !out.contains(&phrase) {
                            out.push(phrase);
                        }
                    }
                }
            }
            _ => return Err(format!("[{name}]: a word class has the key `words`, and may have `combined` (a list of slot lists)")),
        }
    }
    if !has_words {
        return Err(format!("[{name}]: a word class has the key `words`"));
    }
    Ok(Entries::new(out))
}

/// Every phrase of one choice per slot, in order; a slot's alternatives are split at `|`, and
/// an empty one leaves the slot out.
fn combinations(slots: &[String]) -> Vec<String> {
    slots.iter().fold(vec![String::new()], |made, slot| {
        made.iter().flat_map(|m| slot.split('|').map(move |alt| [m.as_str(), alt.trim()].iter().filter(|p| !p.is_empty()).copied().collect::<Vec<_>>().join(" "))).collect()
    })
}

type GroupData = (Vec<(String, Vec<String>)>, Entries, Vec<usize>);

fn group(name: &str, section: Section) -> Result<GroupData, String> {
    let mut meanings = Vec::new();
    let mut all = Vec::new();
    let mut meaning_of = Vec::new();
    for (i, (meaning, item)) in section.into_iter().enumerate() {
        let w = words(name, &meaning, item)?;
        all.extend(w.iter().cloned());
        meaning_of.extend(std::iter::repeat_n(i, w.len()));
        meanings.push((meaning, w));
    }
    if meanings.is_empty() {
        return Err(format!("[{name}]: no meanings"));
    }
    Ok((meanings, Entries::new(all), meaning_of))
}

fn values(name: &str, section: Section) -> Result<(Entries, Vec<f64>), String> {
    let mut words = Vec::new();
    let mut out = Vec::new();
    for (word, item) in section {
        let v = match item {
            Item::Int(n) => n as f64,
            Item::Float(f) if f.is_finite() => f,
            other => return Err(format!("[{name}] {word}: expected a number, found {}", other.kind())),
        };
        words.push(entry(name, &word)?);
        out.push(v);
    }
    Ok((Entries::new(words), out))
}

fn texts(name: &str, section: Section) -> Result<(Entries, Vec<String>), String> {
    let mut words = Vec::new();
    let mut out = Vec::new();
    for (word, item) in section {
        let Item::Text(t) = item else {
            return Err(format!("[{name}] {word}: expected a text, found {}", item.kind()));
        };
        words.push(entry(name, &word)?);
        out.push(t);
    }
    Ok((Entries::new(words), out))
}

/// Parses the file; an error names the section and what is wrong with it.
pub(super) fn parse(text: &str) -> Result<Lexicon, String> {
    let file: Ordered<Ordered<Item>> = toml::from_str(text).map_err(|e| e.to_string())?;
    let mut sections: Vec<(String, Section)> = file.0.into_iter().map(|(k, v)| (k, v.0)).collect();
    let mut take = |name: &str| -> Result<Section, String> {
        let at = sections.iter().position(|(k, _)| k == name).ok_or_else(|| format!("missing section [{name}]"))?;
        Ok(sections.remove(at).1)
    };
    let classes = Class::ALL.iter().map(|c| class(c.section(), take(c.section())?)).collect::<Result<_, _>>()?;
    let groups = Group::ALL.iter().map(|g| group(g.section(), take(g.section())?)).collect::<Result<_, _>>()?;
    let values = Values::ALL.iter().map(|v| values(v.section(), take(v.section())?)).collect::<Result<_, _>>()?;
    let texts = Texts::ALL.iter().map(|t| texts(t.section(), take(t.section())?)).collect::<Result<_, _>>()?;
    if let Some((name, _)) = sections.first() {
        return Err(format!("unknown section [{name}] (add it to the enums in src/lexicon/mod.rs)"));
    }
    Ok(Lexicon { classes, groups, values, texts })
}
