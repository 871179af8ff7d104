//! The lexicon: every word list the bot reads chat with, kept once in `data/lexicon.toml` and
//! read from here by every module.
//!
//! A word is added in one place, a data file anyone can read, and every module that reads chat
//! sees it; a test (`tests/lexicon.rs`) fails when a word list is written in code.
//!
//! The file is compiled into the binary (`include_str!`) and parsed once, on first use, so the
//! shipped program needs no file at run time. Its format is documented in `data/README.md`;
//! [`load`] reads it and checks every section against the enums here, so a malformed file is a
//! failing test (and a build from a broken repository stops with a message on first use).
//!
//! Three kinds of section: a word [`Class`] (is this word a connector? a yes?), a meaning
//! [`Group`] (which action does this verb mean? which dye colour is "silver"?) and value tables
//! (numbers, units, ordinals; plurals, shorthand, rewrites). Typed readers sit on top:
//! [`Lexicon::number`], [`Lexicon::verb`], [`Lexicon::compass`], [`Lexicon::colour`], …

mod english;
mod kinds;
mod load;
mod numbers;
mod sections;

use std::collections::HashMap;
use std::sync::LazyLock;

pub use kinds::{Compass, Dimension};
pub use sections::{Class, Group, Texts, Values};

use crate::logical_form::{ActionType, RelativeDirection};

/// The lexicon file, compiled in.
pub const SOURCE: &str = include_str!("../../data/lexicon.toml");

static LEXICON: LazyLock<Lexicon> =
    LazyLock::new(|| Lexicon::parse(SOURCE).unwrap_or_else(|e| panic!("data/lexicon.toml is malformed: {e}")));

/// The lexicon every module reads (parsed from `data/lexicon.toml` on first use).
pub fn lexicon() -> &'static Lexicon {
    &LEXICON
}

/// A list of entries as written, each also split into chat words, and an index of both forms.
#[derive(Debug, Default)]
pub(crate) struct Entries {
    words: Vec<String>,
    phrases: Vec<Vec<String>>,
    /// Entry key (see [`key`]) → position in `words`.
    index: HashMap<String, usize>,
    /// The most chat words any entry has.
    longest: usize,
}

impl Entries {
    pub(crate) fn new(words: Vec<String>) -> Entries {
        let mut e = Entries { words: Vec::new(), phrases: Vec::new(), index: HashMap::new(), longest: 0 };
        for w in words {
            e.push(w);
        }
        e
    }

    fn push(&mut self, word: String) {
        let at = self.words.len();
        // Chat drops words with no letter or digit ("×", "="): such an entry stays one word.
        let mut phrase = crate::logical_form::tokenize(&word);
        if phrase.is_empty() {
            phrase = key(&word).split(' ').map(String::from).collect();
        }
        for k in [key(&word), key(&word.replace('-', " ")), phrase.join(" ")] {
            if !k.is_empty() {
                self.index.entry(k).or_insert(at);
            }
        }
        self.longest = self.longest.max(phrase.len());
        self.words.push(word);
        self.phrases.push(phrase);
    }

    fn find(&self, word: &str) -> Option<usize> {
        if let Some(&i) = self.index.get(word) {
            return Some(i);
        }
        let k = key(word);
        self.index.get(&k).or_else(|| self.index.get(&k.replace('-', " "))).copied()
    }

    /// The longest entry that `words[i..]` starts with: its position and its length in words.
    fn at<S: AsRef<str>>(&self, words: &[S], i: usize) -> Option<(usize, usize)> {
        let rest = words.get(i..)?;
        (1..=self.longest.min(rest.len())).rev().find_map(|n| {
            let joined = rest[..n].iter().map(AsRef::as_ref).collect::<Vec<_>>().join(" ");
            self.find(&joined).filter(|&e| self.phrases[e].len() == n).map(|e| (e, n))
        })
    }
}

/// A lookup key: trimmed, lower-case, `_` read as a space, single spaces.
fn key(word: &str) -> String {
    word.trim().to_lowercase().replace('_', " ").split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The parsed lexicon. Get it with [`lexicon`].
#[derive(Debug)]
pub struct Lexicon {
    classes: Vec<Entries>,
    /// Per group: its meanings in file order, and all their words (each word's meaning by
    /// position in `meaning_of`).
    groups: Vec<(Vec<(String, Vec<String>)>, Entries, Vec<usize>)>,
    values: Vec<(Entries, Vec<f64>)>,
    texts: Vec<(Entries, Vec<String>)>,
}

impl Lexicon {
    /// Parses a lexicon file (the format of `data/lexicon.toml`).
    pub fn parse(text: &str) -> Result<Lexicon, String> {
        load::parse(text)
    }

    /// Is `word` an entry (or a word of one) anywhere in the lexicon?
    pub fn knows(&self, word: &str) -> bool {
        self.chat_words().any(|w| w == word)
    }

    /// Every chat word of every entry (classes, groups, tables), for the speller: a word the
    /// lexicon knows is never "fixed" into another.
    pub fn chat_words(&self) -> impl Iterator<Item = &str> {
        let entries = self.classes.iter().chain(self.groups.iter().map(|g| &g.1)).chain(self.values.iter().map(|v| &v.0)).chain(self.texts.iter().map(|t| &t.0));
        entries.flat_map(|e| e.phrases.iter().flatten().map(String::as_str))
    }

    /// Every entry of the section called `section` in the file, whatever its kind (a class's
    /// words, a group's words of every meaning, a table's words): what the training corpus draws
    /// a `{lex:SECTION}` slot from.
    pub fn entries(&self, section: &str) -> Option<&[String]> {
        let at = |names: Vec<&'static str>| names.iter().position(|&name| name == section);
        if let Some(i) = at(Class::ALL.iter().map(|c| c.section()).collect()) {
            return Some(&self.classes[i].words);
        }
        if let Some(i) = at(Group::ALL.iter().map(|g| g.section()).collect()) {
            return Some(&self.groups[i].1.words);
        }
        if let Some(i) = at(Values::ALL.iter().map(|v| v.section()).collect()) {
            return Some(&self.values[i].0.words);
        }
        at(Texts::ALL.iter().map(|t| t.section()).collect()).map(|i| self.texts[i].0.words.as_slice())
    }

    /// Is `word` (a word or a phrase, any case) an entry of `class`?
    pub fn is(&self, class: Class, word: &str) -> bool {
        self.classes[class as usize].find(word).is_some()
    }

    /// The entries of `class`, as written in the file (a phrase is one string).
    pub fn words(&self, class: Class) -> &[String] {
        &self.classes[class as usize].words
    }

    /// The entries of `class` split into chat words ("don't" → "do", "n't").
    pub fn phrases(&self, class: Class) -> &[Vec<String>] {
        &self.classes[class as usize].phrases
    }

    /// How many words the longest entry of `class` starting at `words[i]` has, if one does
    /// ("and then build" at 0 → 2 for connectors).
    pub fn phrase_at<S: AsRef<str>>(&self, class: Class, words: &[S], i: usize) -> Option<usize> {
        self.classes[class as usize].at(words, i).map(|(_, n)| n)
    }

    /// Does some entry of `class` occur in `words` (as whole words)?
    pub fn any_in<S: AsRef<str>>(&self, class: Class, words: &[S]) -> bool {
        (0..words.len()).any(|i| self.phrase_at(class, words, i).is_some())
    }

    /// The meaning of `word` in `group` ("silver" → "light_gray" among colours).
    pub fn meaning(&self, group: Group, word: &str) -> Option<&str> {
        let (meanings, entries, meaning_of) = &self.groups[group as usize];
        entries.find(word).map(|e| meanings[meaning_of[e]].0.as_str())
    }

    /// The meaning of the longest phrase of `group` starting at `words[i]`, and its length in
    /// words ("on top of the house" at 0 → ("up", 3) among relations).
    pub fn meaning_at<S: AsRef<str>>(&self, group: Group, words: &[S], i: usize) -> Option<(&str, usize)> {
        let (meanings, entries, meaning_of) = &self.groups[group as usize];
        entries.at(words, i).map(|(e, n)| (meanings[meaning_of[e]].0.as_str(), n))
    }

    /// Every meaning of `group` with its words, in file order.
    pub fn meanings(&self, group: Group) -> impl Iterator<Item = (&str, &[String])> {
        self.groups[group as usize].0.iter().map(|(m, w)| (m.as_str(), w.as_slice()))
    }

    /// The words that mean `meaning` in `group` (empty if none).
    pub fn words_for(&self, group: Group, meaning: &str) -> &[String] {
        self.meanings(group).find(|(m, _)| *m == meaning).map_or(&[], |(_, w)| w)
    }

    /// The number a word (or phrase) of a value table is worth.
    pub fn value(&self, table: Values, word: &str) -> Option<f64> {
        let (entries, values) = &self.values[table as usize];
        entries.find(word).map(|e| values[e])
    }

    /// The value of the longest entry of `table` starting at `words[i]`, and its length.
    pub fn value_at<S: AsRef<str>>(&self, table: Values, words: &[S], i: usize) -> Option<(f64, usize)> {
        let (entries, values) = &self.values[table as usize];
        entries.at(words, i).map(|(e, n)| (values[e], n))
    }

    /// The text a word (or phrase) of a text table stands for.
    pub fn text(&self, table: Texts, word: &str) -> Option<&str> {
        let (entries, texts) = &self.texts[table as usize];
        entries.find(word).map(|e| texts[e].as_str())
    }

    /// The text of the longest entry of `table` starting at `words[i]`, and its length.
    pub fn text_at<S: AsRef<str>>(&self, table: Texts, words: &[S], i: usize) -> Option<(&str, usize)> {
        let (entries, texts) = &self.texts[table as usize];
        entries.at(words, i).map(|(e, n)| (texts[e].as_str(), n))
    }

    /// Every entry of a text table and its text, in file order.
    pub fn texts(&self, table: Texts) -> impl Iterator<Item = (&str, &str)> {
        let (entries, texts) = &self.texts[table as usize];
        entries.words.iter().map(String::as_str).zip(texts.iter().map(String::as_str))
    }

    /// The number said at `words[i]` and how many words it took: digits ("12", "-3", "2.5"
    /// rounded), words ("five", "twenty five", "twenty-five", "two hundred and five"), vague
    /// quantities ("a couple", "a few", "a dozen", "a stack" = 64, "half a stack" = 32).
    pub fn number<S: AsRef<str>>(&self, words: &[S], i: usize) -> Option<(i64, usize)> {
        numbers::read(self, words, i)
    }

    /// The position an ordinal names: "third" → 3, "3rd" → 3.
    pub fn ordinal(&self, word: &str) -> Option<i64> {
        numbers::ordinal(self, word)
    }

    /// The action a verb means: "construct" → Build, "dug" → Dig.
    pub fn verb(&self, word: &str) -> Option<ActionType> {
        let m = self.meaning(Group::Verb, word)?;
        ActionType::ALL.iter().copied().find(|a| a.as_str().eq_ignore_ascii_case(m))
    }

    /// Verbs that start a new step after "and".
    pub fn step_verbs(&self) -> impl Iterator<Item = &str> {
        self.words(Class::StepVerb).iter().map(String::as_str)
    }

    /// The compass direction a word names: "northwards" → North.
    pub fn compass(&self, word: &str) -> Option<Compass> {
        Compass::named(self.meaning(Group::Compass, word)?)
    }

    /// The relative direction a word names: "ahead" → Front, "behind" → Back.
    pub fn relative(&self, word: &str) -> Option<RelativeDirection> {
        relative_direction(self.meaning(Group::Relative, word)?)
    }

    /// The relation a phrase at `words[i]` names ("next to" → Near) and its length in words.
    pub fn relation_at<S: AsRef<str>>(&self, words: &[S], i: usize) -> Option<(RelativeDirection, usize)> {
        let (m, n) = self.meaning_at(Group::Relation, words, i)?;
        Some((relative_direction(m)?, n))
    }

    /// [`Lexicon::relation_at`], or a short relation word that relates only to a pointing word
    /// ("on" in "on it", "in" in "in that").
    pub fn pointing_relation_at<S: AsRef<str>>(&self, words: &[S], i: usize) -> Option<(RelativeDirection, usize)> {
        self.relation_at(words, i).or_else(|| {
            let (m, n) = self.meaning_at(Group::PointingRelation, words, i)?;
            Some((relative_direction(m)?, n))
        })
    }

    /// Blocks per unit of a unit word: "blocks" → 1, "metres" → 1.
    pub fn unit(&self, word: &str) -> Option<f64> {
        self.value(Values::Unit, word)
    }

    /// The dimension a measure word names: "tall" → Height, "wide" → Width.
    pub fn dimension(&self, word: &str) -> Option<Dimension> {
        Dimension::named(self.meaning(Group::Dimension, word)?)
    }

    /// The dye colour (its id, "light_blue") a colour word means: "grey" → "gray", "silver" →
    /// "light_gray", "Light-Blue" → "light_blue".
    pub fn colour(&self, word: &str) -> Option<&str> {
        self.meaning(Group::Colour, word)
    }

    /// The block a material word means with no colour said: "wooden" → "oak_planks".
    pub fn material(&self, word: &str) -> Option<&str> {
        self.meaning(Group::Material, word)
    }

    /// The shape family a shape word names, singular: "box" → "cuboid", "ball" → "sphere".
    pub fn shape(&self, word: &str) -> Option<&str> {
        self.meaning(Group::Shape, word)
    }

    /// The size class (tiny, small, medium, big, huge) a size word names.
    pub fn size(&self, word: &str) -> Option<&str> {
        self.meaning(Group::Size, word)
    }

    /// Does `word` describe a thing — a colour, a material or a size ("red", "stone", "big")?
    pub fn describes(&self, word: &str) -> bool {
        self.colour(word).is_some() || self.material(word).is_some() || self.size(word).is_some()
    }
}

/// A relative direction by its lower-case name in the file.
fn relative_direction(name: &str) -> Option<RelativeDirection> {
    RelativeDirection::ALL.iter().copied().find(|d| d.as_str().eq_ignore_ascii_case(name))
}

#[cfg(test)]
mod tests;
