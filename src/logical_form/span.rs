//! Spans: how a logical form points back into the chat it was parsed from.
//!
//! A span is written `[0, [i, j]]` in JSON: sentence index 0 (the data never has another), then the
//! first and last word it covers, both inclusive, counted in the whitespace-split, normalized chat
//! (see [`super::tokenize()`]). The parser predicts spans rather than words, which is why an unseen
//! word ("build a zigurat") still comes out right.
//!
//! Deserialization only checks the *shape* (two non-negative integers inside a pair); whether the
//! indices make sense for a given text is [`super::validate()`]'s job, so that a bad span is reported
//! with its path and the text's length instead of as an opaque parse error.

use std::fmt;

use serde::de::{self, Deserializer, SeqAccess, Visitor};
use serde::ser::{SerializeTuple, Serializer};
use serde::{Deserialize, Serialize};

/// Inclusive word range `[start, end]` in sentence `sentence` (always 0 in practice).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Span {
    pub sentence: usize,
    pub start: usize,
    pub end: usize,
}

impl Span {
    /// A span over words `start..=end` of sentence 0.
    pub fn new(start: usize, end: usize) -> Self {
        Span { sentence: 0, start, end }
    }

    /// A span covering the single word `index`.
    pub fn word(index: usize) -> Self {
        Span::new(index, index)
    }

    /// Number of words covered (0 for a reversed span).
    pub fn len(&self) -> usize {
        if self.start > self.end { 0 } else { self.end - self.start + 1 }
    }

    /// True for a reversed span, which covers nothing.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// True when the span is well formed and fits a text of `n_words` words.
    pub fn fits(&self, n_words: usize) -> bool {
        self.sentence == 0 && self.start <= self.end && self.end < n_words
    }

    /// The words the span covers; empty when it does not fit `tokens` (never panics).
    pub fn words<'a, S>(&self, tokens: &'a [S]) -> &'a [S] {
        if self.fits(tokens.len()) { &tokens[self.start..=self.end] } else { &[] }
    }

    /// The covered words joined by single spaces ("" when the span does not fit).
    pub fn text<S: AsRef<str>>(&self, tokens: &[S]) -> String {
        let words: Vec<&str> = self.words(tokens).iter().map(AsRef::as_ref).collect();
        words.join(" ")
    }
}

impl fmt::Display for Span {
    /// Same notation as the JSON, with spaces: `[0, [5, 2]]`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "[{}, [{}, {}]]", self.sentence, self.start, self.end)
    }
}

impl Serialize for Span {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut outer = serializer.serialize_tuple(2)?;
        outer.serialize_element(&self.sentence)?;
        outer.serialize_element(&[self.start, self.end])?;
        outer.end()
    }
}

impl<'de> Deserialize<'de> for Span {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_seq(SpanVisitor)
    }
}

/// Reads `[sentence, [start, end]]`, refusing extra or missing elements.
struct SpanVisitor;

impl<'de> Visitor<'de> for SpanVisitor {
    type Value = Span;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a span [sentence, [start, end]]")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Span, A::Error> {
        let sentence: usize = seq.next_element()?.ok_or_else(|| de::Error::invalid_length(0, &self))?;
        let pair: WordPair = seq.next_element()?.ok_or_else(|| de::Error::invalid_length(1, &self))?;
        if seq.next_element::<de::IgnoredAny>()?.is_some() {
            return Err(de::Error::invalid_length(3, &self));
        }
        Ok(Span { sentence, start: pair.0, end: pair.1 })
    }
}

/// The inner `[start, end]` pair, with the same strictness about its length.
struct WordPair(usize, usize);

impl<'de> Deserialize<'de> for WordPair {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct PairVisitor;
        impl<'de> Visitor<'de> for PairVisitor {
            type Value = WordPair;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a word range [start, end]")
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<WordPair, A::Error> {
                let start = seq.next_element()?.ok_or_else(|| de::Error::invalid_length(0, &self))?;
                let end = seq.next_element()?.ok_or_else(|| de::Error::invalid_length(1, &self))?;
                if seq.next_element::<de::IgnoredAny>()?.is_some() {
                    return Err(de::Error::invalid_length(3, &self));
                }
                Ok(WordPair(start, end))
            }
        }
        deserializer.deserialize_seq(PairVisitor)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn serializes_as_nested_pair() {
        assert_eq!(serde_json::to_value(Span::new(2, 4)).unwrap(), json!([0, [2, 4]]));
        assert_eq!(serde_json::to_string(&Span::word(7)).unwrap(), "[0,[7,7]]");
    }

    #[test]
    fn deserializes_and_round_trips() {
        let span: Span = serde_json::from_str("[0, [1, 3]]").unwrap();
        assert_eq!(span, Span::new(1, 3));
        // Semantic oddities survive deserialization so validation can name them.
        let odd: Span = serde_json::from_value(json!([1, [5, 2]])).unwrap();
        assert_eq!(odd, Span { sentence: 1, start: 5, end: 2 });
        assert_eq!(serde_json::to_value(odd).unwrap(), json!([1, [5, 2]]));
    }

    #[test]
    fn rejects_wrong_shapes() {
        for bad in [
            json!([0, [1]]),
            json!([0, [1, 2, 3]]),
            json!([0, [1, 2], 9]),
            json!([0]),
            json!([0, [-1, 2]]),
            json!([0, [1.5, 2]]),
            json!({"start": 1}),
            json!("0 1 2"),
        ] {
            assert!(serde_json::from_value::<Span>(bad.clone()).is_err(), "accepted {bad}");
        }
    }

    #[test]
    fn words_and_text_never_panic() {
        let tokens: Vec<String> = "build one red zorp".split(' ').map(String::from).collect();
        assert_eq!(Span::new(2, 3).text(&tokens), "red zorp");
        assert_eq!(Span::new(2, 3).words(&tokens).len(), 2);
        assert!(Span::new(3, 4).words(&tokens).is_empty());
        assert!(Span::new(3, 1).words(&tokens).is_empty());
        assert!(Span { sentence: 1, start: 0, end: 0 }.words(&tokens).is_empty());
        assert_eq!(Span::new(3, 1).len(), 0);
        assert_eq!(Span::new(5, 2).to_string(), "[0, [5, 2]]");
    }
}
