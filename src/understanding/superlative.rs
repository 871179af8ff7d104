//! "which is the tallest thing here?", "what's the biggest building", "which tower is the
//! highest": a question that ranks what the bot knows. The parser rarely writes these (the
//! annotations hold a handful of superlatives, all inside commands), so a line that is only such
//! a question is read by rule into a ranked `GET_MEMORY`.

use crate::lexicon::{Class, Group, lexicon};
use crate::logical_form::{
    ArgVal, Attribute, AttributeName, DialogueType, Filters, Fixed, FixedOrdinal, LogicalForm, Ordinal, Output, OutputKind, Polarity, Predicate,
    Quantity, Ranked, ReturnQuantity, Selector, SelectorArg, Span, Triple, WhereClause, WhereItem,
};

/// The attribute a superlative ranks by and whether the most or the least wins ("tallest" →
/// HEIGHT, MAX), from the lexicon's `[superlatives]` ("height max").
fn rank(word: &str) -> Option<(AttributeName, Polarity)> {
    let (attribute, polarity) = lexicon().meaning(Group::Superlative, word)?.split_once(' ')?;
    let attribute = AttributeName::ALL.iter().find(|a| a.as_str().eq_ignore_ascii_case(attribute))?;
    let polarity = Polarity::ALL.iter().find(|p| p.as_str().eq_ignore_ascii_case(polarity))?;
    Some((*attribute, *polarity))
}

/// Nouns that name nothing in particular: "the tallest thing" ranks everything built.
fn is_generic(words: &str) -> bool {
    lexicon().is(Class::GenericThing, words)
}

/// Words allowed around the question's core (`[superlative_tail]`).
fn is_tail(word: &str) -> bool {
    lexicon().is(Class::SuperlativeTail, word)
}

/// The ranked question, if the line is only that.
pub fn read(text: &str) -> Option<LogicalForm> {
    let words: Vec<&str> = text.split_whitespace().collect();
    if !matches!(words.first(), Some(&("which" | "what"))) {
        return None;
    }
    let at = words.iter().position(|w| rank(w).is_some())?;
    let (attribute, polarity) = rank(words[at])?;
    // "which tower is (the) tallest" (noun before) or "which is the tallest tower" (after).
    let between = &words[1..at];
    let (noun, rest_from) = if between.first().is_some_and(|w| !matches!(*w, "is" | "'s" | "one")) {
        let end = between.iter().position(|w| matches!(*w, "is" | "'s" | "are")).unwrap_or(between.len());
        (Some((1, 1 + end)), at + 1)
    } else {
        let after = words.get(at + 1).copied();
        match after {
            Some(w) if !is_tail(w) => (Some((at + 1, at + 2)), at + 2),
            _ => (None, at + 1),
        }
    };
    if !words[rest_from..].iter().all(|w| is_tail(w) || is_generic(w)) {
        return None;
    }
    let quantity = Quantity { attribute: Some(Attribute::Name(attribute)), location: None };
    let selector = Selector {
        return_quantity: Some(ReturnQuantity::Ranked(Ranked { argval: ArgVal { polarity, quantity } })),
        ordinal: Some(Ordinal::Fixed(Fixed::new(FixedOrdinal::First))),
        ..Selector::default()
    };
    let mut filters = Filters {
        output: Some(Output::Kind(OutputKind::Memory)),
        selector: Some(SelectorArg::Selector(Box::new(selector))),
        ..Filters::default()
    };
    if let Some((start, end)) = noun.filter(|(s, e)| e > s && !is_generic(&words[*s..*e].join(" "))) {
        let name = Triple::new(Predicate::HasName, Span::new(start, end - 1));
        filters.where_clause = Some(WhereClause::And(vec![WhereItem::Triple(name)]));
    }
    super::checked(text, LogicalForm { filters: Some(filters), ..LogicalForm::new(DialogueType::GetMemory) })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranked_questions_are_read_and_others_are_not() {
        let tallest = read("which is the tallest thing here").expect("read");
        let s = serde_json::to_string(&tallest.to_json_value()).unwrap();
        assert!(s.contains("\"MAX\"") && s.contains("HEIGHT") && !s.contains("where_clause"), "{s}");
        let tower = read("which tower is the highest").expect("read");
        let s = serde_json::to_string(&tower.to_json_value()).unwrap();
        assert!(s.contains("has_name") && s.contains("[1,1]"), "{s}");
        assert!(read("what 's the smallest house").is_some());
        assert!(read("build the tallest tower").is_none());
        assert!(read("which is the tallest tower near the red house").is_none());
    }
}
