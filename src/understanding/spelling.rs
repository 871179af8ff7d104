//! Typos and near-words: "bulid a red cueb" → "build a red cube", "purpel" → "purple".
//!
//! Players type fast. A word the bot has never seen is compared with the words it knows — the
//! parser's vocabulary and the game's own names (shapes, colours, blocks, mobs, items; the
//! verbs of its actions for a line's first word) — and
//! replaced by the closest one when that one is close enough: one edit for short words, two for
//! long ones, a swap of two neighbouring letters counting as one edit. Words the bot knows are
//! never touched, nor are numbers, nor a name the player is giving ("call it zorp").
//!
//! The same distance serves the interpreter when a name in a form is not one it knows
//! ([`nearest`]).

use std::collections::HashSet;

use crate::lexicon::{Class, Group, Texts, lexicon};
use crate::schematics::shape_words;
use crate::world::Block;
use crate::world::blocks::DYE_COLOURS;
use crate::world::rules::kinds::{ITEM_KINDS, MOB_KINDS};

/// A candidate replacement: a domain word outranks a word merely seen in training chat.
struct Candidate {
    word: String,
    domain: bool,
}

/// The corrector: what counts as known, and what a typo may become.
pub struct Speller {
    known: HashSet<String>,
    /// The verbs of the bot's actions: game words too, as a line's first word ("pant the cube
    /// red" is painted, not a pane; "wal" later on is a wall, not a walk).
    verbs: HashSet<String>,
    /// Words known only because the parser saw them in chat: no game or lexicon word ("comme").
    chat_only: HashSet<String>,
    candidates: Vec<Candidate>,
    /// Whether words are fixed by edit distance at all: only with a real vocabulary (a parser's),
    /// else too many ordinary words look like typos ("right" one edit from "light").
    fuzzy: bool,
}

/// A fixed line: the new text and each replacement made, `(typed, meant)`.
#[derive(Debug, Clone, PartialEq)]
pub struct Corrected {
    pub text: String,
    pub fixes: Vec<(String, String)>,
}

/// The game's own words: shapes, colours, block names, mobs, items (ids split at `_`).
pub fn domain_words() -> Vec<String> {
    let mut words: Vec<String> = Vec::new();
    words.extend(shape_words().into_iter().map(String::from));
    words.extend(DYE_COLOURS.iter().flat_map(|c| c.split('_')).map(String::from));
    // Colour words players use beside the sixteen dye colours ("grey", "silver", "navy").
    let colours = lexicon().meanings(Group::Colour).flat_map(|(_, words)| words.iter());
    words.extend(colours.flat_map(|w| w.split(' ')).map(String::from));
    words.extend(Block::all().flat_map(|b| b.name().split('_').map(String::from).collect::<Vec<_>>()));
    words.extend(MOB_KINDS.iter().chain(ITEM_KINDS).flat_map(|k| k.split('_')).map(String::from));
    words.retain(|w| w.len() >= 3 && w.chars().all(|c| c.is_ascii_lowercase()));
    // Plurals too: "piggs" is nearer "pigs" than "piggy".
    let plurals: Vec<String> = words.iter().filter(|w| !w.ends_with('s')).map(|w| format!("{w}s")).collect();
    words.extend(plurals);
    words.sort();
    words.dedup();
    words
}

impl Speller {
    /// A corrector knowing `vocabulary` (say, the parser's input words), the lexicon's words and
    /// the game's words.
    pub fn new<I: IntoIterator<Item = String>>(vocabulary: I) -> Speller {
        let domain = domain_words();
        let mut known: HashSet<String> = domain.iter().cloned().collect();
        let mut candidates: Vec<Candidate> = domain.into_iter().map(|word| Candidate { word, domain: true }).collect();
        let lexicon_words = lexicon().chat_words().map(String::from);
        for w in vocabulary.into_iter().chain(lexicon_words) {
            if w.len() >= 2 && w.chars().all(|c| c.is_ascii_lowercase()) && known.insert(w.clone()) {
                candidates.push(Candidate { word: w, domain: false });
            }
        }
        for (short, _) in lexicon().texts(Texts::Shorthand) {
            known.remove(short);
        }
        let verbs = lexicon().meanings(Group::Verb).flat_map(|(_, words)| words.iter()).filter(|v| !v.contains(' ')).cloned().collect();
        let lexicon_words: HashSet<&str> = lexicon().chat_words().collect();
        let chat_only = candidates.iter().filter(|c| !c.domain && !lexicon_words.contains(c.word.as_str()) && known.contains(&c.word)).map(|c| c.word.clone()).collect();
        Speller { known, verbs, chat_only, candidates, fuzzy: true }
    }

    /// A corrector that only expands chat shorthand ("r", "u", "pls"): for a bot with no parser,
    /// whose few known words cannot tell a typo from an ordinary word.
    pub fn shorthand_only() -> Speller {
        Speller { known: HashSet::new(), verbs: HashSet::new(), chat_only: HashSet::new(), candidates: Vec::new(), fuzzy: false }
    }

    /// Is this word one the bot knows as it is?
    pub fn knows(&self, word: &str) -> bool {
        self.known.contains(word)
    }

    /// The known word `word` was probably meant to be, if one is close enough.
    pub fn suggest(&self, word: &str) -> Option<&str> {
        self.suggest_at(word, false)
    }

    /// Like [`Speller::suggest`], for a word that opens its line when `opening` (see `verbs`).
    fn suggest_at(&self, word: &str, opening: bool) -> Option<&str> {
        // A line opens with a verb: a word known only from the parser's chat ("comme", French)
        // one slip from one is that verb.
        if opening && self.fuzzy && word.len() >= 5 && self.chat_only.contains(word) {
            let mut verbs: Vec<&String> = self.verbs.iter().filter(|v| v.len() >= 4 && distance(word, v) == 1).collect();
            verbs.sort();
            if let [verb] = verbs.as_slice() {
                return Some(verb.as_str());
            }
        }
        if let Some(meant) = lexicon().text(Texts::Shorthand, word) {
            return Some(meant);
        }
        if !self.fuzzy || self.knows(word) || word.len() < 3 || !word.chars().all(|c| c.is_ascii_lowercase()) {
            return None;
        }
        let limit = if word.len() >= 6 { 2 } else { 1 };
        let mut best: Option<(isize, bool, bool, &str)> = None;
        for c in &self.candidates {
            let domain = c.domain || opening && self.verbs.contains(&c.word);
            if c.word.len().abs_diff(word.len()) > limit {
                continue;
            }
            let d = distance(word, &c.word);
            if d > limit {
                continue;
            }
            // Three-letter words are too often one edit from another word ("sec" is not "sea"):
            // only a dropped letter ("wal", "cme") or two swapped ones ("dgi") is fixed.
            if word.len() == 3 && !(c.word.len() == 4 && is_subsequence(word, &c.word) || c.word.len() == 3 && swapped(word, &c.word)) {
                continue;
            }
            let same_start = c.word.as_bytes()[0] == word.as_bytes()[0];
            // Closer first, a game word counting as half an edit closer (a whole one for long
            // words: "sphear" is a sphere, not a spear), and two neighbours swapped (the slip of
            // a fast typist: "lnog" is long, not log) a whole edit closer; then game words; then
            // the same first letter; then the longer word.
            // A letter typed twice ("bluee" is blue, not blues) is the same kind of slip.
            let slip = swapped(word, &c.word) || doubled(word, &c.word);
            let bonus = if domain { if word.len() >= 6 { 2 } else { 1 } } else { 0 } + if slip { 2 } else { 0 };
            let cost = 2 * d as isize - bonus;
            // The word itself breaks a last tie: the vocabulary comes in no fixed order, and the
            // same line must always be read the same way.
            let better = match best {
                None => true,
                Some((bc, bdom, bstart, bw)) => {
                    (cost, !domain, !same_start, std::cmp::Reverse(c.word.len()), c.word.as_str())
                        < (bc, !bdom, !bstart, std::cmp::Reverse(bw.len()), bw)
                }
            };
            if better {
                best = Some((cost, domain, same_start, &c.word));
            }
        }
        best.map(|(_, _, _, w)| w)
    }

    /// Fixes the typos in a chat line (already normalized: lower-case words split by spaces).
    pub fn correct(&self, normalized: &str) -> Corrected {
        let mut out: Vec<String> = Vec::new();
        let mut fixes = Vec::new();
        let mut naming = false;
        let words: Vec<&str> = normalized.split_whitespace().collect();
        // After "call", "named" … the line ends with the name ("call that thing rocky", "name the
        // blue tower lighthouse"): its last word is never a typo either.
        let names_last = words.iter().rev().skip(1).any(|w| lexicon().is(Class::NamingVerb, w));
        // "the blue tower's name is frosty, now paint frosty white": the word after a naming
        // phrase (`[name_is]`) is a name, here and wherever else the line says it.
        let mut given: Vec<&str> = (0..words.len()).filter_map(|k| lexicon().phrase_at(Class::NameIs, &words, k).and_then(|n| words.get(k + n).copied())).collect();
        given.extend(described_is(&words));
        for (i, word) in words.iter().copied().enumerate() {
            let name = naming || (names_last && i + 1 == words.len()) || given.contains(&word);
            let fixed = if name { None } else { self.suggest_at(word, i == 0).or_else(|| self.colour_before_a_shape(word, words.get(i + 1).copied())) };
            // After "call", "named" … the next word is a name ("call it zorp"): never a typo.
            let lead = lexicon().is(Class::NameLead, word) || lexicon().is(Class::GenericThing, word);
            naming = lexicon().is(Class::NamingVerb, word) || (naming && lead);
            match fixed {
                Some(meant) => {
                    fixes.push((word.to_string(), meant.to_string()));
                    out.push(meant.to_string());
                }
                None => out.push(word.to_string()),
            }
        }
        Corrected { text: out.join(" "), fixes }
    }
}

impl Speller {
    /// "a reed cube": a word known only from the parser's chat, right before a shape, one slip
    /// from a colour (a letter typed twice, or one edit) is that colour; a colour is what stands
    /// there.
    fn colour_before_a_shape(&self, word: &str, next: Option<&str>) -> Option<&'static str> {
        if !self.fuzzy || !self.chat_only.contains(word) {
            return None;
        }
        let next = next?;
        let shape = |w: &str| crate::schematics::is_known_shape(w) || lexicon().is(Class::GenericThing, w);
        if !(shape(next) || self.suggest(next).is_some_and(shape)) {
            return None;
        }
        let colours = lexicon().meanings(Group::Colour).flat_map(|(_, words)| words.iter()).filter(|c| !c.contains(' '));
        let mut near: Vec<&'static str> = colours.filter(|c| doubled(word, c) || distance(word, c) == 1).map(|c| c.as_str()).collect();
        near.sort();
        near.dedup();
        match near.as_slice() {
            [one] => Some(one),
            _ => None,
        }
    }
}

/// The candidate closest to `word` (one edit for short words, two for long ones), for names the
/// interpreter does not know ("cueb" among the shape words).
pub fn nearest<'a>(word: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let limit = if word.chars().count() >= 6 { 2 } else { 1 };
    if word.chars().count() < 3 {
        return None;
    }
    candidates
        .into_iter()
        .map(|c| (distance(word, c), c))
        .filter(|(d, _)| *d <= limit)
        .min_by_key(|(d, c)| (*d, std::cmp::Reverse(c.len())))
        .map(|(_, c)| c)
}

/// Is `short` `long` with letters left out, the first one kept ("wal" in "wall")?
fn is_subsequence(short: &str, long: &str) -> bool {
    if short.as_bytes().first() != long.as_bytes().first() {
        return false;
    }
    let mut rest = long.chars();
    short.chars().all(|c| rest.any(|l| l == c))
}

/// Are `a` and `b` the same letters with two neighbours swapped ("dgi", "dig")?
fn swapped(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    a.len() == b.len() && {
        let diff: Vec<usize> = (0..a.len()).filter(|&i| a[i] != b[i]).collect();
        diff.len() == 2 && diff[1] == diff[0] + 1 && a[diff[0]] == b[diff[1]] && a[diff[1]] == b[diff[0]]
    }
}

/// Is `typed` `word` with one of its letters typed twice ("bluee", "blue")?
fn doubled(typed: &str, word: &str) -> bool {
    let t = typed.as_bytes();
    t.len() == word.len() + 1 && (1..t.len()).any(|i| t[i] == t[i - 1] && typed[..i].to_string() + &typed[i + 1..] == word)
}

/// Edit distance where a swap of two neighbouring letters is one edit (optimal string alignment).
pub fn distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let (n, m) = (a.len(), b.len());
    let mut d = vec![vec![0usize; m + 1]; n + 1];
    for (i, row) in d.iter_mut().enumerate() {
        row[0] = i;
    }
    for j in 0..=m {
        d[0][j] = j;
    }
    for i in 1..=n {
        for j in 1..=m {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut v = (d[i - 1][j] + 1).min(d[i][j - 1] + 1).min(d[i - 1][j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                v = v.min(d[i - 2][j - 2] + 1);
            }
            d[i][j] = v;
        }
    }
    d[n][m]
}

/// "the blue one is gus": a line that opens with a thing's description ("the", then words
/// describing it) and `[described_is]` gives the thing the word after as its name.
fn described_is<'a>(words: &[&'a str]) -> Option<&'a str> {
    let lx = lexicon();
    let first = words.first()?;
    if !(lx.is(Class::Determiner, first) || lx.is(Class::Pointing, first)) || lx.is(Class::Indefinite, first) {
        return None;
    }
    let describes = |w: &str| lx.describes(w) || lx.shape(w).is_some() || lx.is(Class::GenericThing, w);
    let k = (2..words.len().min(6)).find(|&k| lx.phrase_at(Class::DescribedIs, words, k).is_some())?;
    let n = lx.phrase_at(Class::DescribedIs, words, k)?;
    words[1..k].iter().all(|w| describes(w)).then(|| words.get(k + n).copied()).flatten()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn speller() -> Speller {
        let common = ["build", "a", "over", "there", "make", "tower", "please", "hole", "dig", "come", "here", "what", "are", "you", "doing", "or", "our", "piggy", "hold", "on", "spear", "spawn", "call", "it", "this", "the", "hey"];
        Speller::new(common.iter().map(|w| w.to_string()))
    }

    #[test]
    fn swaps_and_dropped_letters_are_one_edit() {
        assert_eq!(distance("bulid", "build"), 1);
        assert_eq!(distance("cueb", "cube"), 1);
        assert_eq!(distance("purpel", "purple"), 1);
        assert_eq!(distance("sphear", "sphere"), 2);
        assert!(doubled("bluee", "blue") && doubled("towerr", "tower") && !doubled("blues", "blue"));
        assert_eq!(distance("", "abc"), 3);
    }

    #[test]
    fn the_typos_players_make_are_fixed() {
        let s = speller();
        let c = s.correct("bulid a red cueb ovr there");
        assert_eq!(c.text, "build a red cube over there");
        assert_eq!(c.fixes.len(), 3);
        assert_eq!(s.correct("make a purpel tpwer").text, "make a purple tower");
        assert_eq!(s.correct("build a sphear").text, "build a sphere");
        assert_eq!(s.correct("what r u doing").text, "what are you doing");
        assert_eq!(s.correct("biuld a green wal").text, "build a green wall");
        assert_eq!(s.correct("dgi a hole").text, "dig a hole");
        assert_eq!(s.correct("buld a wal 5 lnog").text, "build a wall 5 long");
        assert_eq!(s.correct("spawn 3 piggs").text, "spawn 3 pigs");
        assert_eq!(s.correct("buuild a bluee towerr").text, "build a blue tower");
        assert_eq!(s.correct("hold on a sec").text, "hold on a sec");
        assert_eq!(s.correct("pant teh cube red").text, "paint the cube red");
        // "comme" is a word of the chat the parser saw, but no word of the bot's.
        let s = Speller::new(["comme", "here"].map(String::from));
        assert_eq!(s.correct("comme here").text, "come here");
        assert_eq!(s.correct("ok comme here").text, "ok comme here", "only a line's first word");
    }

    #[test]
    fn known_words_numbers_and_given_names_stay() {
        let s = speller();
        assert_eq!(s.correct("dig a hole 3 deep at -10 5 7").text, "dig a hole 3 deep at -10 5 7");
        assert_eq!(s.correct("call it bob").text, "call it bob");
        assert_eq!(s.correct("call this the zorp").text, "call this the zorp");
        // The name ends the line, after "that thing" or the thing's words.
        assert_eq!(s.correct("call that thing piggi").text, "call that thing piggi");
        // A name given after "name is" stays wherever the line says it.
        assert_eq!(s.correct("the tower 's name is frosty then paint frosty white").text, "the tower 's name is frosty then paint frosty white");
        assert_eq!(s.correct("the blue one is gus paint gus green").text, "the blue one is gus paint gus green");
        assert_eq!(s.correct("build a tpwer piggi").text, "build a tower piggy");
        // A three-letter word only becomes a game word, and a far word stays as typed.
        assert_eq!(s.correct("hey bob").text, "hey bob");
        assert_eq!(s.correct("xylophone").text, "xylophone");
    }

    #[test]
    fn nearest_picks_the_closest_name_or_none() {
        let shapes = ["cube", "tower", "sphere", "wall"];
        assert_eq!(nearest("cueb", shapes), Some("cube"));
        assert_eq!(nearest("towr", shapes), Some("tower"));
        assert_eq!(nearest("castle", shapes), None);
        assert_eq!(nearest("ab", shapes), None);
    }
}
