//! Questions players ask that the parser reads as chit-chat or reads wrong: "where am i?",
//! "what's at 15 5 -19?", "what's frosty made of?", "what colour is frosty?", "how big is
//! frosty?", "which things are
//! towers?", "how many blocks did you use for the ice thing?". Each is a closed pattern around
//! a thing's words, so a line that is exactly such a question is read by rule into a typed
//! `GET_MEMORY` the interpreter answers from memory and the world. The words are the lexicon's
//! (`[where_am_i]`, `[made_of]`, `[which_things]`); "how far is …" and "do you remember …" are
//! `[rewrites]` to "where is …", whose answer says both where and how far.
//!
//! Whether something is in the world ("are there diamonds around here?", "where can i find
//! iron") is such a question too (`[any_openings]`, `[around]`): memory knows what the bot has
//! seen, and a language model asked instead would make an answer up.

use crate::lexicon::{Class, Group, lexicon};
use crate::logical_form::{
    Attribute, AttributeName, DialogueType, Filters, FixedReference, Location, LogicalForm, Output, OutputAttribute, OutputKind, Predicate,
    ReferenceObject, Span, SpecialReference, SpecialReferenceObject, Triple, WhereClause, WhereItem,
};

/// The question's form, if the prepared line is exactly one of these questions.
pub fn read(text: &str) -> Option<LogicalForm> {
    let mut words: Vec<&str> = text.split_whitespace().collect();
    // "what did i call the cube *again*", "how tall is it *btw*": the closing asks nothing.
    while let Some(n) = (1..words.len()).rev().find(|&n| lexicon().phrase_at(Class::Closing, &words, words.len() - n) == Some(n)) {
        words.truncate(words.len() - n);
    }
    let filters = where_am_i(text)
        .or_else(|| what_is_at(&words))
        .or_else(|| blocks_in(&words))
        .or_else(|| made_of(&words))
        .or_else(|| colour_of(&words))
        .or_else(|| size_of(&words))
        .or_else(|| name_of(&words))
        .or_else(|| which_things(&words))
        .or_else(|| any_around(&words))?;
    super::checked(text, LogicalForm { filters: Some(filters), ..LogicalForm::new(DialogueType::GetMemory) })
}

/// Output the named attribute.
fn attribute(name: AttributeName) -> Option<Output> {
    Some(Output::Attribute(OutputAttribute { attribute: Attribute::Name(name) }))
}

/// Filters that find the thing `clause` names and output `output`.
fn about(clause: Vec<WhereItem>, output: Option<Output>) -> Option<Filters> {
    Some(Filters { output, where_clause: Some(WhereClause::And(clause)), ..Filters::default() })
}

/// Filters for a place, outputting `output`.
fn at_place(special: SpecialReference, output: Option<Output>) -> Option<Filters> {
    let thing = ReferenceObject { special_reference: Some(special), ..ReferenceObject::default() };
    let location = Location { reference_object: Some(Box::new(thing)), ..Location::default() };
    Some(Filters { output, location: Some(Box::new(location)), ..Filters::default() })
}

/// "where am i", "what are my coordinates": the speaker's own place; "what am i standing on":
/// the block there.
fn where_am_i(text: &str) -> Option<Filters> {
    let output = if lexicon().is(Class::WhereAmI, text) {
        AttributeName::Location
    } else if lexicon().is(Class::UnderMe, text) {
        AttributeName::Name
    } else {
        return None;
    };
    at_place(SpecialReference::Bare(FixedReference::Speaker), attribute(output))
}

/// "what's at 15 5 -19", "what is there at 3 4 5": what stands at those coordinates.
fn what_is_at(words: &[&str]) -> Option<Filters> {
    let n = words.len();
    let is_number = |w: &&str| w.parse::<i32>().is_ok();
    if n < 5 || words[0] != "what" || !words[n - 3..].iter().all(is_number) || words[n - 4] != "at" {
        return None;
    }
    // Between "what" and "at" only small words: "what's there at", "what block is at".
    let between = &words[1..n - 4];
    if !between.iter().all(|w| lexicon().is(Class::WhatAtWords, w)) {
        return None;
    }
    let at = SpecialReferenceObject { fixed_value: None, coordinates_span: Some(Span::new(n - 3, n - 1)) };
    at_place(SpecialReference::Object(at), attribute(AttributeName::Name))
}

/// "what's frosty made of", "what is the red tower built from": a thing's block types.
fn made_of(words: &[&str]) -> Option<Filters> {
    if words.len() < 4 || words[0] != "what" || !matches!(words[1], "is" | "'s" | "was") {
        return None;
    }
    let tail = (3..words.len()).find(|&i| lexicon().phrase_at(Class::MadeOf, words, i).is_some_and(|n| i + n == words.len()))?;
    let clause = thing(words, 2, tail)?;
    about(clause, attribute(AttributeName::BlockType))
}

/// "how many blocks did you use for the ice thing", "how many blocks are in the red cube":
/// the blocks of the thing named after the last word of `[thing_of]` ("for", "in", "on").
fn blocks_in(words: &[&str]) -> Option<Filters> {
    lexicon().phrase_at(Class::BlockCount, words, 0)?;
    let at = words.iter().rposition(|w| lexicon().is(Class::ThingOf, w))?;
    let clause = thing(words, at + 1, words.len())?;
    about(clause, Some(Output::Kind(OutputKind::Count)))
}

/// "what colour is frosty", "what color's the tower": a thing's colour.
fn colour_of(words: &[&str]) -> Option<Filters> {
    if words.len() < 4 || words[0] != "what" || !matches!(words[1], "colour" | "color") || !matches!(words[2], "is" | "'s" | "was") {
        return None;
    }
    let clause = thing(words, 3, words.len())?;
    about(clause, attribute(AttributeName::Colour))
}

/// "how big is frosty", "how tall's the red tower": a thing's size (the answer gives every
/// measure for a size word of `[size_words]`, the height for "tall" or "high").
fn size_of(words: &[&str]) -> Option<Filters> {
    let lx = lexicon();
    let measure = |w: &str| lx.is(Class::SizeWords, w) || lx.dimension(w).is_some();
    if words.len() < 4 || words[0] != "how" || !measure(words[1]) || !matches!(words[2], "is" | "'s" | "was") {
        return None;
    }
    let clause = thing(words, 3, words.len())?;
    about(clause, attribute(AttributeName::Height))
}

/// "remind me what i called the tower", "what's the name of the red cube", "what is the tower
/// called": what players named a thing.
fn name_of(words: &[&str]) -> Option<Filters> {
    let n = words.len();
    let (from, to) = match lexicon().phrase_at(Class::NameQuestion, words, 0) {
        Some(k) => (k, n),
        None if n >= 4 && words[0] == "what" && matches!(words[1], "is" | "'s" | "was") && matches!(words[n - 1], "called" | "named") => (2, n - 1),
        None => return None,
    };
    if to <= from || to - from > MAX_THING_WORDS + 1 {
        return None;
    }
    about(thing(words, from, to)?, attribute(AttributeName::Name))
}

/// "which things are towers", "what ones are red cubes", "list the towers": every such thing.
fn which_things(words: &[&str]) -> Option<Filters> {
    let lx = lexicon();
    let n = lx.phrase_at(Class::WhichThings, words, 0)?;
    // "which things are red", "which stuff is made of wool": by colour or material alone.
    let said = &words[n..];
    let described = !said.is_empty() && said.len() <= MAX_THING_WORDS && said.iter().all(|w| lx.colour(w).is_some() || lx.material(w).is_some());
    let clause = if described {
        let triple = |i: usize| {
            let p = if lx.colour(words[i]).is_some() { Predicate::HasColour } else { Predicate::HasBlockType };
            WhereItem::Triple(Triple::new(p, Span::word(i)))
        };
        (n..words.len()).map(triple).collect()
    } else {
        thing(words, n, words.len())?
    };
    about(clause, Some(Output::Kind(OutputKind::Memory)))
}

/// The most words a thing asked about may have ("the big red house"): a longer line ("is
/// there any way to build faster") is no question about the world.
const MAX_THING_WORDS: usize = 3;

/// "are there diamonds around here", "is there any iron nearby", "u see any lava near us", "is
/// there a house somewhere around", "where can i find iron": where such a thing is, if memory
/// knows one. A material ("diamonds", "iron ore") is asked by its blocks, anything else by its
/// words as [`thing`] reads them; without "around here" only a material is read, so "is there
/// anything you can't do" stays small talk.
fn any_around(words: &[&str]) -> Option<Filters> {
    let lx = lexicon();
    // Small words around the question: "yo is there …", "… round here bro".
    let mut end = words.len();
    while let Some(n) = (1..end).rev().find(|&n| lx.phrase_at(Class::Closing, &words[..end], end - n) == Some(n)) {
        end -= n;
    }
    let mut start = 0;
    while let Some(n) = lx.phrase_at(Class::Opening, &words[..end], start).filter(|n| start + n < end) {
        start += n;
    }
    let from = start + lx.phrase_at(Class::AnyOpening, &words[..end], start)?;
    let around = (from + 1..end).find(|&i| lx.phrase_at(Class::Around, &words[..end], i) == Some(end - i));
    let to = around.unwrap_or(end);
    let first = (from..to).find(|&i| !lx.is(Class::Determiner, words[i]))?;
    if to - first > MAX_THING_WORDS || words[first..to].iter().all(|w| lx.is(Class::GenericThing, w)) {
        return None;
    }
    let material = lx.material(words[first]).or_else(|| lx.meaning(Group::Terrain, words[first])).is_some();
    if material && to - first <= 2 {
        let blocks = WhereItem::Triple(Triple::new(Predicate::HasBlockType, Span::new(first, to - 1)));
        return about(vec![blocks], attribute(AttributeName::Location));
    }
    around?;
    about(thing(words, first, to)?, attribute(AttributeName::Location))
}

/// The triples naming a thing said in `words[from..to]`: its colour words, and the words after
/// the last of them as its name ("the big red tower" → has_colour red, has_name tower; "the ice
/// thing" → has_name ice, has_name thing); `None` when no name is left.
fn thing(words: &[&str], from: usize, to: usize) -> Option<Vec<WhereItem>> {
    let lx = lexicon();
    let start = (from..to).find(|&i| !lx.is(Class::Determiner, words[i]))?;
    // "how big are you", "what colour am i": a question about the bot or the speaker, not a thing.
    if (start..to).any(|i| lx.is(Class::You, words[i]) || lx.is(Class::Me, words[i])) {
        return None;
    }
    let colours: Vec<usize> = (start..to).filter(|&i| lx.colour(words[i]).is_some()).collect();
    let name_from = colours.last().map_or(start, |c| c + 1);
    if name_from >= to {
        return None;
    }
    // One name triple a word, as the annotations write them: the interpreter drops generic
    // nouns ("the tall thing") and asks again with the words as one name ("the ice thing").
    let triple = |p: Predicate, i: usize| WhereItem::Triple(Triple::new(p, Span::word(i)));
    let mut clause: Vec<WhereItem> = colours.iter().map(|&i| triple(Predicate::HasColour, i)).collect();
    clause.extend((name_from..to).map(|i| triple(Predicate::HasName, i)));
    Some(clause)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::logical_form::{AttributeName, Output};

    fn output(text: &str) -> Option<String> {
        read(text).and_then(|lf| lf.filters).map(|f| match f.output {
            Some(Output::Attribute(a)) => format!("{:?}", a.attribute),
            Some(Output::Kind(k)) => format!("{k:?}"),
            None => "none".into(),
        })
    }

    #[test]
    fn questions_players_ask_are_read_by_rule() {
        assert_eq!(output("where am i"), Some(format!("{:?}", crate::logical_form::Attribute::Name(AttributeName::Location))));
        assert_eq!(output("what am i standing on"), Some(format!("{:?}", crate::logical_form::Attribute::Name(AttributeName::Name))));
        assert!(output("what 's at 15 5 -19").is_some_and(|o| o.contains("Name")));
        assert!(output("what 's frosty made of").is_some_and(|o| o.contains("BlockType")));
        assert!(output("what is the red tower built from").is_some_and(|o| o.contains("BlockType")));
        assert_eq!(output("which things are towers").as_deref(), Some("Memory"));
        assert_eq!(output("which things are red").as_deref(), Some("Memory"));
        assert_eq!(output("which stuff is made of wool").as_deref(), Some("Memory"));
        assert!(output("what colour is frosty").is_some_and(|o| o.contains("Colour")));
        assert!(output("how big is frosty").is_some_and(|o| o.contains("Height")));
        assert!(output("how tall 's the red tower").is_some_and(|o| o.contains("Height")));
        assert_eq!(output("how big are you"), None);
        assert_eq!(output("how many blocks did you use for the ice thing").as_deref(), Some("Count"));
        for line in ["remind me what i called the tower", "what 's the name of the red cube", "what is the tower called"] {
            assert!(output(line).is_some_and(|o| o.contains("Name")), "{line}");
        }
        // Whether something is in the world: where it is.
        for line in [
            "are there diamonds around here",
            "is there any iron nearby",
            "where can i find iron",
            "yo is there any diamonds round here",
            "is there a house somewhere around",
            "you see any lava near us",
            "are there any emeralds",
            "do you see any redstone ore around here bro",
        ] {
            assert!(output(line).is_some_and(|o| o.contains("Location")), "{line}");
        }
        // Not these questions: left to the parser.
        for line in [
            "where is the house",
            "what is that",
            "what 's at the top",
            "build a tower made of stone",
            "which one",
            "is there anything you can't do",
            "is there a house",
            "any ideas what to build",
            "is there any way to build a house faster around here",
            "is there something around here",
        ] {
            assert_eq!(output(line), None, "{line}");
        }
    }

    #[test]
    fn a_closing_word_is_no_part_of_the_thing_asked_about() {
        for line in ["what did i call the cube again", "what did i call the cube"] {
            let lf = read(line).expect(line).to_json_value();
            let clause = lf.pointer("/filters/where_clause/AND").expect(line).to_string();
            assert!(clause.contains("[5,5]") && !clause.contains("[6,6]"), "{line}: {clause}");
        }
    }
}
