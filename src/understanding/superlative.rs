//! "which is the tallest thing here?", "what's the biggest building", "which tower is the
//! highest": a question that ranks what the bot knows. The parser rarely writes these (the
//! annotations hold a handful of superlatives, all inside commands), so a line that is only such
//! a question is read by rule into a ranked `GET_MEMORY`.
//!
//! Inside a command the parser often keeps the superlative as part of the thing's name ("put a
//! block on the *closest yellow tower*": a name nothing has) or ranks by the wrong measure;
//! [`repair`] makes such a reference rank its matches by what the word says.

use std::ops::Range;

use crate::lexicon::{Class, Group, lexicon};
use crate::logical_form::{
    ArgVal, Attribute, AttributeName, DialogueType, Filters, Fixed, FixedOrdinal, LogicalForm, Ordinal, Output, OutputKind, Polarity, Predicate,
    Quantity, Ranked, ReturnQuantity, Selector, SelectorArg, Span, Triple, WhereClause, WhereItem,
};

/// The attribute a superlative ranks by and whether the most or the least wins ("tallest" →
/// HEIGHT, MAX), from the lexicon's `[superlatives]` ("height max").
fn rank(word: &str) -> Option<(AttributeName, Polarity)> {
    ranked_by(lexicon().meaning(Group::Superlative, word)?)
}

/// A lexicon meaning ("height max", "distance min") as an attribute and a polarity; distance is
/// LOCATION, which the memory ranks by how far a thing is from the speaker.
fn ranked_by(meaning: &str) -> Option<(AttributeName, Polarity)> {
    let (attribute, polarity) = meaning.split_once(' ')?;
    // lexicon: the measure's own name in `[nearness]`, not a chat word.
    let attribute = if attribute == "distance" { "location" } else { attribute };
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

/// "the closest yellow tower", "the biggest red cube": a superlative (or nearness word) right
/// after "the", before the name of a thing the action points at, ranks the matches by what the
/// word says, and is no longer part of the name. Returns the words read (the ranking word to
/// the end of the name), empty when the action did not change.
pub fn repair(action: &mut crate::logical_form::Action, tokens: &[String], step: Range<usize>) -> Vec<usize> {
    use crate::logical_form::{LocationArg, ReferenceObjectArg};
    let mut read = Vec::new();
    if let Some(ReferenceObjectArg::Object(object)) = action.reference_object.as_mut() {
        read.extend(object.filters.as_mut().and_then(|f| rank_named(f, tokens, &step)).into_iter().flatten());
    }
    if let Some(LocationArg::Location(location)) = action.location.as_mut()
        && let Some(object) = location.reference_object.as_mut()
    {
        read.extend(object.filters.as_mut().and_then(|f| rank_named(f, tokens, &step)).into_iter().flatten());
    }
    read
}

/// [`repair`] for one memory search.
fn rank_named(filters: &mut Filters, tokens: &[String], step: &Range<usize>) -> Option<Range<usize>> {
    let lx = lexicon();
    let Some(WhereClause::And(items)) = filters.where_clause.as_mut() else { return None };
    let is_name = |i: &WhereItem| matches!(i, WhereItem::Triple(t) if t.pred_text == Predicate::HasName && t.obj_span().is_some());
    let span = items.iter().find_map(|i| match i {
        WhereItem::Triple(t) if is_name(i) => t.obj_span(),
        _ => None,
    })?;
    // The ranking word, right after an article: inside the name ("stand on top of *the tallest*
    // thing", a name that swallowed the words before it), or before it with only describing
    // words ("yellow", "stone", "big") between.
    let first = step.start.max(span.start.saturating_sub(4)).max(1);
    let k = (first..=span.end.min(tokens.len().saturating_sub(1))).find(|&k| {
        let ranked = ranking(&tokens[k]).is_some() && lx.is(Class::Article, &tokens[k - 1]);
        ranked && (k >= span.start || tokens[k + 1..span.start].iter().all(|w| lx.describes(w)))
    })?;
    let (attribute, polarity) = ranking(&tokens[k])?;
    // The ranking word describes nothing: "the biggest cube" has no size called "biggest".
    let before = items.len();
    items.retain(|i| is_name(i) || !matches!(i, WhereItem::Triple(t) if t.obj_span() == Some(Span::new(k, k))));
    let undescribed = items.len() != before;
    if k >= span.start {
        if k == span.end {
            return None;
        }
        if let Some(WhereItem::Triple(name)) = items.iter_mut().find(|i| is_name(i)) {
            *name = Triple::new(Predicate::HasName, Span::new(k + 1, span.end));
        }
    }
    let argval = ArgVal { polarity, quantity: Quantity { attribute: Some(Attribute::Name(attribute)), location: None } };
    let already = matches!(&filters.selector, Some(SelectorArg::Selector(s)) if matches!(&s.return_quantity, Some(ReturnQuantity::Ranked(r)) if r.argval == argval));
    if already && k < span.start {
        return undescribed.then_some(k..span.end + 1);
    }
    let selector = Selector { return_quantity: Some(ReturnQuantity::Ranked(Ranked { argval })), ..Selector::default() };
    filters.selector = Some(SelectorArg::Selector(Box::new(selector)));
    Some(k..span.end + 1)
}

/// What a ranking word ranks by: a superlative ("tallest") or a nearness word ("closest").
fn ranking(word: &str) -> Option<(AttributeName, Polarity)> {
    let lx = lexicon();
    ranked_by(lx.meaning(Group::Superlative, word).or_else(|| lx.meaning(Group::Nearness, word))?)
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

    #[test]
    fn a_ranking_word_is_no_size_of_the_thing() {
        // How the parser reads "destroy the biggest cube": ranked by size, and "biggest" also
        // taken for the cube's size, which no cube has.
        let tokens = crate::logical_form::tokenize("destroy the biggest cube");
        let mut action: crate::logical_form::Action = serde_json::from_value(serde_json::json!({
            "action_type": "DESTROY",
            "reference_object": {"text_span": [0, [2, 3]], "filters": {
                "selector": {"return_quantity": {"argval": {"polarity": "MAX", "quantity": {"attribute": "SIZE"}}}},
                "where_clause": {"AND": [{"pred_text": "has_name", "obj_text": [0, [3, 3]]}, {"pred_text": "has_size", "obj_text": [0, [2, 2]]}]}}}
        }))
        .unwrap();
        assert_eq!(repair(&mut action, &tokens, 0..tokens.len()), vec![2, 3]);
        let form = serde_json::to_string(&action).unwrap();
        assert!(!form.contains("has_size") && form.contains("has_name") && form.contains("MAX"), "{form}");
    }
}
