//! Saying things back in good English: a game id as words ("grass_block" → "grass"), a noun's
//! plural ("torch" → "torches", "bread" stays "bread") and a count with its noun ("an apple",
//! "5 apples"). Tasks and answers both say counts of things; the word knowledge behind them
//! (irregular plurals, mass nouns, display names) is in `data/lexicon.toml`.

use super::{Class, Lexicon, Texts};

impl Lexicon {
    /// How a game id reads in a sentence: `grass_block` → "grass", `oak_planks` → "oak planks".
    pub fn display_name(&self, id: &str) -> String {
        let id = id.strip_prefix("minecraft:").unwrap_or(id);
        match self.text(Texts::DisplayName, id) {
            Some(words) => words.to_string(),
            None => id.replace('_', " "),
        }
    }

    /// The plural of a noun or noun phrase (its last word changes): "torch" → "torches",
    /// "apple" → "apples", "leaf" → "leaves", "berry" → "berries"; nouns that are their own
    /// plural ("sheep") or are counted without one ("bread", "red wool") stay as they are.
    pub fn plural(&self, noun: &str) -> String {
        let (head, last) = match noun.rsplit_once(' ') {
            Some((head, last)) => (format!("{head} "), last),
            None => (String::new(), noun),
        };
        // An id already plural ("oak_planks", "stone_bricks") stays; singular nouns ending in -s
        // ("glass", "moss") are listed as not plurals.
        if last.is_empty() || last.ends_with('s') || self.is(Class::NotPlural, last) || self.is(Class::MassNoun, last) {
            return noun.to_string();
        }
        // The irregular plurals are kept plural → singular.
        if let Some((plural, _)) = self.texts(Texts::Plural).find(|(_, single)| *single == last) {
            return format!("{head}{plural}");
        }
        let consonant_y = last.strip_suffix('y').filter(|stem| stem.ends_with(|c: char| !"aeiou".contains(c)));
        // lexicon: spelling endings that take "-es", not words.
        let sibilant = ["x", "z", "ch", "sh"];
        let plural = match consonant_y {
            Some(stem) if !stem.is_empty() => format!("{stem}ies"),
            _ if sibilant.iter().any(|end| last.ends_with(end)) => format!("{last}es"),
            _ => format!("{last}s"),
        };
        format!("{head}{plural}")
    }

    /// The singular a plural reads back to, by rule: "torches" → "torch", "berries" → "berry",
    /// "glasses" → "glass"; irregular plurals ("wolves") and words that only look plural
    /// ("glass", "moss") are the lexicon's `[plurals]` and `[not_plurals]`. `None` for a word
    /// that is no plural.
    pub fn singular(&self, noun: &str) -> Option<String> {
        let w = noun.trim().to_lowercase();
        if let Some(single) = self.text(Texts::Plural, &w) {
            return Some(single.to_string());
        }
        if w.len() <= 3 || self.is(Class::NotPlural, &w) || !w.ends_with('s') {
            return None;
        }
        let stem = |n: usize| w[..w.len() - n].to_string();
        if w.ends_with("ies") && w.len() > 4 {
            return Some(format!("{}y", stem(3)));
        }
        // lexicon: spelling endings, not words: after a hiss the plural adds "-es".
        if ["sses", "ches", "shes", "xes", "zzes"].iter().any(|end| w.ends_with(end)) {
            return Some(stem(2));
        }
        // lexicon: spelling endings of words that only look plural (moss, cactus, axis).
        if ["ss", "us", "is"].iter().any(|end| w.ends_with(end)) {
            return None;
        }
        Some(stem(1))
    }

    /// A word in the singular, lower-cased: its [`singular`](Self::singular), or the word itself
    /// when it is no plural. Memory keys names by it, so "houses" finds a house.
    pub fn lemma(&self, word: &str) -> String {
        self.singular(word).unwrap_or_else(|| word.trim().to_lowercase())
    }

    /// A count with its noun: "a torch", "an apple", "5 apples", "10 bread".
    pub fn counted(&self, n: u32, noun: &str) -> String {
        if n == 1 {
            let article = if noun.starts_with(['a', 'e', 'i', 'o', 'u']) { "an" } else { "a" };
            format!("{article} {noun}")
        } else {
            format!("{n} {}", self.plural(noun))
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::lexicon::lexicon;

    #[test]
    fn counts_read_as_english() {
        let lx = lexicon();
        assert_eq!(lx.counted(10, "torch"), "10 torches");
        assert_eq!(lx.counted(5, "apple"), "5 apples");
        assert_eq!(lx.counted(1, "apple"), "an apple");
        assert_eq!(lx.counted(1, "iron golem"), "an iron golem");
        assert_eq!(lx.counted(3, "cow"), "3 cows");
        assert_eq!(lx.counted(2, "sheep"), "2 sheep");
        assert_eq!(lx.counted(2, "bread"), "2 bread");
        assert_eq!(lx.counted(64, "red wool"), "64 red wool");
        assert_eq!(lx.counted(4, "oak planks"), "4 oak planks");
        assert_eq!(lx.counted(2, "wolf"), "2 wolves");
        assert_eq!(lx.counted(3, "sweet berry"), "3 sweet berries");
        assert_eq!(lx.counted(2, "diamond sword"), "2 diamond swords");
    }

    #[test]
    fn plurals_read_back_to_their_singular() {
        let lx = lexicon();
        assert_eq!(lx.singular("torches").as_deref(), Some("torch"));
        assert_eq!(lx.singular("berries").as_deref(), Some("berry"));
        assert_eq!(lx.singular("wolves").as_deref(), Some("wolf"));
        assert_eq!(lx.singular("pumpkins").as_deref(), Some("pumpkin"));
        assert_eq!(lx.singular("oak planks").as_deref(), Some("oak plank"));
        assert_eq!(lx.singular("glass"), None);
        assert_eq!(lx.singular("torch"), None);
        for (plural, single) in [
            ("houses", "house"), ("towers", "tower"), ("boxes", "box"), ("benches", "bench"),
            ("bodies", "body"), ("stairs", "stair"), ("glasses", "glass"), ("wolves", "wolf"),
            ("glass", "glass"), ("moss", "moss"), ("cactus", "cactus"), ("pig", "pig"), ("sheep", "sheep"),
            ("Towers", "tower"),
        ] {
            assert_eq!(lx.lemma(plural), single, "{plural}");
        }
    }

    #[test]
    fn ids_read_as_words() {
        let lx = lexicon();
        assert_eq!(lx.display_name("grass_block"), "grass");
        assert_eq!(lx.display_name("minecraft:oak_planks"), "oak planks");
        assert_eq!(lx.display_name("red_wool"), "red wool");
    }
}
