//! From a logical form's `schematic` (triples over chat words) to a [`ShapeRequest`] the shape
//! generators understand: the name says which shape, colour and block type say the material, size
//! words and numbers say how big. Numbers the annotation did not attach to a triple ("a 5 by 3
//! wall") are read from the schematic's whole text span.

use crate::logical_form::{Predicate, Schematic, Span};
use crate::schematics::numbers::read_number;
use crate::schematics::{ShapeRequest, is_known_shape, is_size_word};
use crate::world::blocks::canonical_colour;

/// What a schematic asks for, or why it can't be made into a request.
#[derive(Debug, Clone, PartialEq)]
pub enum ShapeAsk {
    Shape(ShapeRequest),
    /// Nothing says what to build ("build something").
    Unspecified,
}

fn words(span: Option<Span>, tokens: &[String]) -> Vec<String> {
    span.map(|s| s.words(tokens).to_vec()).unwrap_or_default()
}

/// The first number in `words` (digits or number words), clamped to the i32 range.
fn first_number(words: &[String]) -> Option<i32> {
    (0..words.len()).find_map(|i| read_number(words, i)).map(|(v, _)| v.clamp(i32::MIN as i64, i32::MAX as i64) as i32)
}

/// "2 blue houses", "a couple of red cubes", "three towers": a count said right before the
/// schematic's words (or at their start) when its shape word is plural — how many to build, not
/// a size. Returns the count and the words it covers.
fn said_count(schematic: &Schematic, tokens: &[String], name: &[String]) -> Option<(i32, std::ops::Range<usize>)> {
    let lx = crate::lexicon::lexicon();
    // A shape word that ends in -s as written ("stairs", "steps") is one thing, not several.
    let shape_word = |n: &str| lx.meanings(crate::lexicon::Group::Shape).any(|(_, words)| words.iter().any(|w| w == n));
    let plural = name.last().is_some_and(|n| n.len() > 3 && n.ends_with('s') && !lx.is(crate::lexicon::Class::NotPlural, n) && !shape_word(n));
    let start = schematic.text_span?.start;
    if !plural {
        return None;
    }
    // The count may open the span, or stand just before it ("a couple of" is three words);
    // "some", "a bunch of" are a few, as for animals.
    (start.saturating_sub(3)..=start).find_map(|i| {
        let (n, len) = lx.number(tokens, i).or_else(|| lx.phrase_at(crate::lexicon::Class::Several, tokens, i).map(|n| (SEVERAL, n)))?;
        let end = i + len;
        (end >= start && end <= start + 3 && (2..=i64::from(MAX_COUNT)).contains(&n)).then(|| (n as i32, i..end))
    })
}

/// How many "some" or "a bunch of" things are.
const SEVERAL: i64 = 3;

/// The most copies a count said before a plural may ask for (more is refused by the build).
const MAX_COUNT: i32 = 1000;

/// Translate a schematic; `tokens` are the normalized chat's words.
pub fn shape_request(schematic: &Schematic, tokens: &[String]) -> ShapeAsk {
    let mut name: Vec<String> = Vec::new();
    let mut req = ShapeRequest::new("");
    let triples = schematic.filters.as_ref().map(|f| f.triples()).unwrap_or_default();
    for t in triples {
        let w = words(t.obj_span(), tokens);
        if w.is_empty() {
            continue;
        }
        let text = w.join(" ");
        match t.pred_text {
            Predicate::HasName => name.push(text),
            // "a small cube" read with "small" as its colour: a size word is a size.
            Predicate::HasColour if w.iter().all(|x| is_size_word(x)) => req.size_words.extend(w.iter().cloned()),
            Predicate::HasColour => req.colour = Some(text),
            Predicate::HasBlockType => req.block_type = Some(text),
            Predicate::HasSize => {
                for word in &w {
                    if is_size_word(word) {
                        req.size_words.push(word.clone());
                    }
                }
                if req.size.is_none() {
                    req.size = first_number(&w);
                }
            }
            Predicate::HasHeight => req.height = first_number(&w).or(req.height),
            Predicate::HasWidth => req.width = first_number(&w).or(req.width),
            Predicate::HasLength => req.length = first_number(&w).or(req.length),
            Predicate::HasDepth => req.depth = first_number(&w).or(req.depth),
            Predicate::HasThickness => req.thickness = first_number(&w).or(req.thickness),
            Predicate::HasRadius => req.radius = first_number(&w).or(req.radius),
            Predicate::HasTag | Predicate::HasOrientation | Predicate::HasDistance | Predicate::HasBase => {
                // Tags carry the odd adjective the annotators did not type: "hollow", "solid",
                // a size word, a colour.
                for word in &w {
                    let lx = crate::lexicon::lexicon();
                    match word.as_str() {
                        w if lx.is(crate::lexicon::Class::Hollow, w) => req.hollow = Some(true),
                        w if lx.is(crate::lexicon::Class::Solid, w) => req.hollow = Some(false),
                        s if is_size_word(s) => req.size_words.push(s.to_string()),
                        s if canonical_colour(s).is_some() && req.colour.is_none() => req.colour = Some(s.to_string()),
                        _ => {}
                    }
                }
            }
        }
    }
    // Numbers in the whole phrase ("a 5 by 3 wall", "4 x 4 x 4") fill what triples left open;
    // a count ("2 towers", the selector's ordinal) is not a size.
    let ordinal = schematic.filters.as_ref().and_then(|f| f.selector.as_ref()).and_then(|s| s.as_selector()).and_then(|s| match &s.ordinal {
        Some(crate::logical_form::Ordinal::Span(sp)) => Some(*sp),
        _ => None,
    });
    let mut phrase = words(schematic.text_span, tokens);
    let counted = said_count(schematic, tokens, &name);
    if let Some((n, at)) = &counted {
        req.count = Some(*n);
        // "a bunch of pillars" read as one name: the count's words are not the shape's.
        let said = &tokens[at.clone()];
        for entry in &mut name {
            if let Some(rest) = (0..said.len()).find_map(|k| entry.strip_prefix(&format!("{} ", said[k..].join(" ")))) {
                *entry = rest.to_string();
            }
        }
    }
    let count_span = counted.map(|(_, at)| crate::logical_form::Span::new(at.start, at.end - 1));
    for (o, t) in [ordinal, count_span].into_iter().flatten().zip(std::iter::repeat(schematic.text_span)) {
        let Some(t) = t else { continue };
        for k in o.start..=o.end {
            if let Some(w) = k.checked_sub(t.start).and_then(|i| phrase.get_mut(i)) {
                w.clear();
            }
        }
    }
    phrase.retain(|w| !w.is_empty());
    let refs: Vec<&str> = phrase.iter().map(String::as_str).collect();
    // Measures the form already holds were read from the words ("a 2 by 10 by 3 wall": 2
    // thick); the phrase's own reading would fill the others with the wrong axis.
    let measured = req.width.or(req.length).or(req.height).or(req.thickness).or(req.depth).or(req.radius).is_some();
    if !measured {
        req = req.or_dimensions(ShapeRequest::parse_dimensions(&refs));
    }
    // "9 high", "3 blocks wide": a size word right after a number is that number's unit.
    let after_number = |i: usize| {
        let lx = crate::lexicon::lexicon();
        let unit = |j: usize| phrase.get(j).is_some_and(|w| lx.unit(w).is_some() || lx.dimension(w) == Some(crate::lexicon::Dimension::Height));
        (i >= 1 && read_number(&phrase, i - 1).is_some()) || (i >= 2 && unit(i - 1) && read_number(&phrase, i - 2).is_some())
    };
    for (i, w) in phrase.iter().enumerate() {
        if after_number(i) {
            continue;
        }
        match w.as_str() {
            "hollow" if req.hollow.is_none() => req.hollow = Some(true),
            "solid" if req.hollow.is_none() => req.hollow = Some(false),
            s if is_size_word(s) && !req.size_words.iter().any(|x| x == s) && !name.iter().any(|n| n.contains(s)) => {
                req.size_words.push(s.to_string())
            }
            _ => {}
        }
    }

    req.name = name.join(" ");
    // "put blue stained glass at 1 7 0", "place a lantern here": a block named where a shape
    // would be, with no size said, is one block of it.
    let sized = req.size.or(req.width).or(req.height).or(req.length).or(req.radius).or(req.depth).is_some();
    if !req.name.is_empty() && !is_known_shape(&req.name) && !sized && req.block_type.is_none() {
        let words: Vec<&str> = req.name.split(' ').collect();
        let material = crate::lexicon::lexicon().material(&req.name).is_some();
        let block = crate::world::rules::item_id(&words).is_some_and(|id| crate::world::Block::from_name(&id).is_some());
        if material || block {
            req.block_type = Some(std::mem::take(&mut req.name));
            req.name = "block".into();
        }
    }
    if req.name.is_empty() {
        // "build a 4 x 4 x 4 of glass": a material or measurements without a shape make a cube;
        // a shape word the annotators left in the text span is used if there is one.
        if let Some(shape) = phrase.iter().find(|w| is_known_shape(w)) {
            req.name = shape.clone();
        } else if req.block_type.as_deref().is_some_and(crate::schematics::is_lone_block) && !sized {
            // "put a torch 3 blocks south of the cube": a torch, not a cube of torches.
            req.name = "block".into();
        } else if req.block_type.is_some() || req.colour.is_some() || req.size.is_some() || req.width.is_some() || req.height.is_some() {
            req.name = "cube".into();
        } else {
            return ShapeAsk::Unspecified;
        }
    }
    ShapeAsk::Shape(req)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::logical_form::{LogicalForm, tokenize};

    fn ask(text: &str, json: &str) -> ShapeAsk {
        let lf = LogicalForm::from_json_str(json).unwrap();
        let tokens = tokenize(text);
        shape_request(lf.actions()[0].schematic.as_ref().unwrap(), &tokens)
    }

    #[test]
    fn names_colours_materials_and_sizes() {
        let ShapeAsk::Shape(r) = ask(
            "build a tall red tower of bricks 9 high",
            r#"{"dialogue_type": "HUMAN_GIVE_COMMAND", "action_sequence": [{"action_type": "BUILD", "schematic": {"text_span": [0, [2, 8]], "filters": {"where_clause": {"AND": [
              {"pred_text": "has_name", "obj_text": [0, [4, 4]]}, {"pred_text": "has_colour", "obj_text": [0, [3, 3]]},
              {"pred_text": "has_size", "obj_text": [0, [2, 2]]}, {"pred_text": "has_block_type", "obj_text": [0, [6, 6]]},
              {"pred_text": "has_height", "obj_text": [0, [7, 8]]}]}}}}]}"#,
        ) else {
            panic!()
        };
        assert_eq!(r.name, "tower");
        assert_eq!(r.colour.as_deref(), Some("red"));
        assert_eq!(r.block_type.as_deref(), Some("bricks"));
        assert_eq!(r.size_words, vec!["tall"]);
        assert_eq!(r.height, Some(9));
    }

    #[test]
    fn numbers_outside_triples_and_missing_names() {
        let ShapeAsk::Shape(r) = ask(
            "build here solid glass 4 x 4 x 4",
            r#"{"dialogue_type": "HUMAN_GIVE_COMMAND", "action_sequence": [{"action_type": "BUILD", "schematic": {"text_span": [0, [2, 8]], "filters": {"where_clause": {"AND": [
              {"pred_text": "has_block_type", "obj_text": [0, [3, 3]]}]}}}}]}"#,
        ) else {
            panic!()
        };
        assert_eq!((r.name.as_str(), r.width, r.length, r.height, r.hollow), ("cube", Some(4), Some(4), Some(4), Some(false)));
        assert_eq!(
            ask("build something", r#"{"dialogue_type": "HUMAN_GIVE_COMMAND", "action_sequence": [{"action_type": "BUILD", "schematic": {"text_span": [0, [1, 1]]}}]}"#),
            ShapeAsk::Unspecified
        );
    }
}
