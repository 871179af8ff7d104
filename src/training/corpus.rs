//! The generated corpus: what the parser learns beyond the annotated commands, made at train
//! time from our templates (`data/templates/*.txt`, one phrasing class a file) and the lexicon,
//! seeded, so every run of the recipe draws the same rows and nothing generated is committed.
//!
//! Each template is drawn about equally often ([`templates::generate_indexed`]); then a share of
//! the rows is written again as players type ([`variants`]: politeness, fillers, shorthand,
//! typos) beside the plain one. [`Corpus::shares`] is what `craftmate train` prints first.

use std::collections::BTreeMap;
use std::path::Path;

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

use super::data::Example;
use super::{templates, variants};
use crate::parser::Result;

/// Of the rows drawn from templates, the share written again as a surface variant (the variant
/// is one more row: the plain line stays).
pub const VARIED: f64 = 0.4;

/// The generated rows and where they came from.
#[derive(Debug, Default)]
pub struct Corpus {
    pub examples: Vec<Example>,
    /// Rows per phrasing class (template file).
    pub classes: BTreeMap<String, usize>,
    /// Varied rows per kind of variant.
    pub variants: BTreeMap<&'static str, usize>,
}

impl Corpus {
    /// The rows as `text|json` lines, the format of the annotated file.
    pub fn rows(&self) -> String {
        self.examples.iter().map(|e| format!("{}|{}\n", e.words.join(" "), e.json)).collect()
    }

    /// One line per class and per variant kind: its rows and share of the corpus.
    pub fn shares(&self) -> String {
        let total = self.examples.len().max(1) as f64;
        let line = |name: &str, n: usize| format!("  {name:<18} {n:>6}  {:5.1} %\n", 100.0 * n as f64 / total);
        let mut out = format!("generated corpus: {} rows\n", self.examples.len());
        self.classes.iter().for_each(|(class, &n)| out += &line(class, n));
        out += "  of which written as players type:\n";
        self.variants.iter().for_each(|(kind, &n)| out += &line(&format!("+ {kind}"), n));
        out
    }
}

/// Draws `n` rows from the templates in `dir` and their variants, with `seed`.
pub fn generate(dir: &Path, n: usize, seed: u64) -> Result<Corpus> {
    let (templates, slots) = templates::read_dir(dir)?;
    let mut corpus = Corpus::default();
    let mut rng = StdRng::seed_from_u64(seed ^ 0x5eed);
    for (t, example) in templates::generate_indexed(&templates, &slots, n, seed) {
        if corpus.examples.len() >= n {
            break;
        }
        let class = templates[t].class.clone();
        let varied = rng.random_bool(VARIED).then(|| variants::vary(&example, &mut rng)).flatten();
        *corpus.classes.entry(class.clone()).or_default() += 1;
        corpus.examples.push(example);
        if let Some((kind, row)) = varied.filter(|_| corpus.examples.len() < n) {
            *corpus.classes.entry(class).or_default() += 1;
            *corpus.variants.entry(kind).or_default() += 1;
            corpus.examples.push(row);
        }
    }
    Ok(corpus)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_corpus_covers_every_class_and_variant_and_is_the_same_each_time() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("data/templates");
        let corpus = generate(&dir, 3000, 42).unwrap();
        assert_eq!(corpus.examples.len(), 3000);
        for class in ["sizes", "counts", "directions", "relations", "steps", "questions", "everyday", "names"] {
            assert!(corpus.classes.get(class).is_some_and(|&n| n > 30), "{class}: {:?}", corpus.classes);
        }
        assert_eq!(corpus.variants.len(), variants::KINDS.len(), "{:?}", corpus.variants);
        let again = generate(&dir, 3000, 42).unwrap();
        assert!(corpus.examples.iter().zip(&again.examples).all(|(a, b)| a.words == b.words && a.json == b.json));
        let shares = corpus.shares();
        assert!(shares.contains("sizes") && shares.contains("+ typo"), "{shares}");
    }
}
