//! Details the parser left out: a colour or a material said in a build's step that no part of
//! the form points at ("build a 3 by 3 by 3 red cube" read with no colour) is added to the
//! schematic, so the bot builds what was said rather than its default. And a material read too
//! wide ("a *wall made of bricks*", "a blue *tower 20 blocks*") is cut back to the material.

use std::ops::Range;

use crate::logical_form::{Action, ActionType, LocationArg, Predicate, ReferenceObject, Span, Spans, Triple, WhereClause, WhereItem, covered};
use crate::lexicon::Class;
use crate::world::Block;
use crate::world::blocks::canonical_colour;

/// A word that names a building material: a block ("stone", "glass", "bricks", "emerald").
fn is_material(word: &str) -> bool {
    let w = word.trim_end_matches('s');
    crate::lexicon::lexicon().material(word).is_some()
        || [w, word].iter().any(|c| Block::from_name(c).is_some_and(|b| b.is_solid()) || Block::from_name(&format!("{c}_block")).is_some())
}

/// Adds a colour and a material said in `step` but covered by no span to the action's
/// schematic. Returns whether the form changed, and the words of what was added.
pub fn repair(action: &mut Action, tokens: &[String], step: Range<usize>) -> (bool, Vec<usize>) {
    if action.action_type != ActionType::Build || action.schematic.is_none() {
        return (false, Vec::new());
    }
    let narrowed = narrow_block_type(action, tokens) | not_the_places(action);
    let seen = covered(action, Spans::Pointed);
    // A colour or material the parser read into a measure ("10 long brown" as a size, "2 tall
    // oak" as a height) is no measure: the measures are read again from the words
    // (`measures`), the colour and material only here.
    let measured = measure_words(action);
    // The words of the place describe the thing there ("a wall of glass around the *red* cube").
    let place: Vec<Span> = match action.location.as_ref() {
        Some(LocationArg::Location(l)) => [l.text_span, l.reference_object.as_ref().and_then(|r| r.text_span)].into_iter().flatten().collect(),
        Some(LocationArg::Span(s)) => vec![*s],
        None => Vec::new(),
    };
    let in_place = |k: &usize| place.iter().any(|s| s.start <= *k && *k <= s.end);
    let describes = |k: &usize| canonical_colour(&tokens[*k]).is_some() || is_material(&tokens[*k]) && !names_no_block(&tokens[*k]);
    let free = |k: &usize| (!seen.contains(k) || (measured.contains(k) && describes(k))) && !in_place(k);
    let end = step.end.min(tokens.len());
    let colour = (step.start..end).filter(free).find(|k| canonical_colour(&tokens[*k]).is_some());
    let material = (step.start..end).filter(free).find(|k| Some(*k) != colour && is_material(&tokens[*k]));
    let Some(schematic) = action.schematic.as_mut() else { return (false, Vec::new()) };
    let mut added = Vec::new();
    let mut words = Vec::new();
    if let Some(k) = colour.filter(|_| !schematic.has_predicate(Predicate::HasColour)) {
        added.push(WhereItem::Triple(Triple::new(Predicate::HasColour, Span::word(k))));
        words.push(k);
    }
    if let Some(k) = material.filter(|_| !schematic.has_predicate(Predicate::HasBlockType)) {
        added.push(WhereItem::Triple(Triple::new(Predicate::HasBlockType, Span::word(k))));
        words.push(k);
    }
    if added.is_empty() {
        return (narrowed, words);
    }
    let mut all = schematic.and_items();
    all.extend(added);
    schematic.set_and_items(all);
    (true, words)
}

/// "put a pyramid *down*", "set the chest down here": the "down" of putting a thing down is no
/// place below anything. A build whose place is that one word, right after what is built, is
/// built where a build goes by default. Returns whether the place went.
pub fn put_down(action: &mut Action, tokens: &[String]) -> bool {
    use crate::logical_form::RelativeDirection::Down;
    if action.action_type != ActionType::Build {
        return false;
    }
    let name = |i: &WhereItem| match i {
        WhereItem::Triple(t) if t.pred_text == Predicate::HasName => t.obj_span(),
        _ => None,
    };
    let name_end = action.schematic.as_ref().and_then(|s| s.and_items().iter().find_map(name)).map(|s| s.end);
    let Some(LocationArg::Location(l)) = action.location.as_ref() else { return false };
    // One word, right after the thing's name, and that word is "down".
    let down = l.relative_direction == Some(Down)
        && l.text_span.is_some_and(|s| s.start == s.end && name_end.is_some_and(|e| s.start == e + 1) && crate::lexicon::lexicon().relative(&tokens[s.start]) == Some(Down));
    if down {
        action.location = None;
    }
    down
}

/// "build a tower 10 blocks north of *the green cube*": a colour or material the parser gave the
/// thing built from the words of its place describes the thing it is placed by, never the new
/// one: it moves to that thing. Returns whether one moved.
fn not_the_places(action: &mut Action) -> bool {
    let Some(crate::logical_form::LocationArg::Location(l)) = action.location.as_ref() else { return false };
    let place = [l.text_span, l.reference_object.as_ref().and_then(|r| r.text_span)];
    let Some(schematic) = action.schematic.as_mut() else { return false };
    let items = schematic.and_items();
    // The thing's own words come before its name ("a *red* tower 10 blocks north of …").
    let name_end = items.iter().find_map(|i| match i {
        WhereItem::Triple(t) if t.pred_text == Predicate::HasName => t.obj_span().map(|s| s.end),
        _ => None,
    });
    let in_place = |s: Span| name_end.is_some_and(|n| s.start > n) && place.iter().flatten().any(|p| p.start <= s.start && s.end <= p.end);
    let (moved, kept): (Vec<WhereItem>, Vec<WhereItem>) = items
        .into_iter()
        .partition(|i| matches!(i, WhereItem::Triple(t) if matches!(t.pred_text, Predicate::HasColour | Predicate::HasBlockType) && t.obj_span().is_some_and(in_place)));
    if moved.is_empty() {
        return false;
    }
    schematic.set_and_items(kept);
    let thing = action.location_mut().and_then(|l| l.reference_object.as_mut()).and_then(|r| r.filters.as_mut());
    if let Some(crate::logical_form::Filters { where_clause: Some(WhereClause::And(said)), .. }) = thing {
        said.extend(moved);
    }
    true
}

/// The words the schematic's size and measure predicates point at.
fn measure_words(action: &Action) -> Vec<usize> {
    let Some(schematic) = action.schematic.as_ref() else { return Vec::new() };
    let measures = |p: &Predicate| *p == Predicate::HasSize || super::measures::MEASURE_PREDICATES.contains(p);
    schematic
        .and_items()
        .iter()
        .filter_map(|i| match i {
            WhereItem::Triple(t) if measures(&t.pred_text) => t.obj_span(),
            _ => None,
        })
        .flat_map(|s| s.start..=s.end)
        .collect()
}

/// A word a block type never holds: a shape ("wall"), a number or a unit ("20 blocks").
fn names_no_block(word: &str) -> bool {
    let lexicon = crate::lexicon::lexicon();
    lexicon.shape(word).is_some() || lexicon.unit(word).is_some() || lexicon.number(&[word], 0).is_some()
}

/// A block type whose span runs over a shape, a number or a unit names more than a block (the
/// network's span ends drift on lines unlike its data). It keeps the material words after those
/// ("a wall made of *bricks*"), else before them ("a *blue* tower 20 blocks"), and is dropped
/// when nothing is left but a colour the form already has. Returns whether anything changed.
fn narrow_block_type(action: &mut Action, tokens: &[String]) -> bool {
    let Some(schematic) = action.schematic.as_mut() else { return false };
    let items = schematic.and_items();
    let has_colour = schematic.has_predicate(Predicate::HasColour);
    let says_block = |k: &usize| is_material(&tokens[*k]) || canonical_colour(&tokens[*k]).is_some();
    let mut changed = false;
    let mut kept = Vec::with_capacity(items.len());
    for item in items {
        let span = match &item {
            WhereItem::Triple(t) if t.pred_text == Predicate::HasBlockType => t.obj_span(),
            _ => None,
        };
        // A block whose name holds a shape word ("oak stairs", "glass pane") is a block.
        let a_block = |s: &Span| {
            let words = s.words(tokens);
            Block::from_name(&words.join("_")).is_some() || crate::lexicon::lexicon().material(&words.join(" ")).is_some()
        };
        let Some(span) = span.filter(|s| s.fits(tokens.len()) && !a_block(s)) else {
            kept.push(item);
            continue;
        };
        let odd: Vec<usize> = (span.start..=span.end).filter(|&k| names_no_block(&tokens[k])).collect();
        let (Some(&first), Some(&last)) = (odd.first(), odd.last()) else {
            kept.push(item);
            continue;
        };
        changed = true;
        // After the odd words, from the first word that names a block; else the words before them.
        let after = (last + 1..=span.end).find(says_block).map(|k| k..=span.end);
        let before = (span.start < first).then(|| span.start..=first - 1);
        let Some(run) = after.or(before) else { continue };
        if has_colour && run.clone().all(|k| canonical_colour(&tokens[k]).is_some()) {
            continue;
        }
        kept.push(WhereItem::Triple(Triple::new(Predicate::HasBlockType, Span::new(*run.start(), *run.end()))));
    }
    if changed {
        schematic.set_and_items(kept);
    }
    changed
}

/// Whether a build's one colour-or-material word ("a *gold* pyramid", "a *red* cube") is said
/// plainly: then whether the form calls it a colour or a block type builds the same block, and
/// the parser's doubt between the two is no doubt about what to build.
pub fn said_plainly(action: &Action, tokens: &[String]) -> bool {
    let Some(schematic) = action.schematic.as_ref().filter(|_| action.action_type == ActionType::Build) else { return false };
    let items = schematic.and_items();
    let said: Vec<Span> = items
        .iter()
        .filter_map(|i| match i {
            WhereItem::Triple(t) if matches!(t.pred_text, Predicate::HasColour | Predicate::HasBlockType) => t.obj_span(),
            _ => None,
        })
        .collect();
    let [one] = said.as_slice() else { return false };
    let words = one.words(tokens);
    !words.is_empty() && words.iter().all(|w| canonical_colour(w).is_some() || is_material(w))
}

/// The words of each thing the action refers to whose description is one run of words ("go
/// next to the *yellow cube*", "on top of the *red stone tower*"): a name with only colours and
/// materials before it. Where the parser splits such a run into a name, a colour and a material
/// is no doubt about which thing is meant: the interpreter reads the run as one name when the
/// split finds nothing (`interpreter::reference::as_one_name`).
pub fn described_things(action: &Action) -> Vec<usize> {
    let mut things: Vec<&ReferenceObject> = action.reference_object.iter().filter_map(|r| r.as_object()).collect();
    if let Some(LocationArg::Location(l)) = &action.location {
        things.extend([&l.reference_object, &l.reference_object_1, &l.reference_object_2].into_iter().flatten().map(|r| &**r));
    }
    things.into_iter().filter_map(one_run).flatten().collect()
}

/// The words of a reference's description when they are one run ending in its name.
fn one_run(thing: &ReferenceObject) -> Option<std::ops::RangeInclusive<usize>> {
    let Some(WhereClause::And(items)) = thing.filters.as_ref()?.where_clause.as_ref() else { return None };
    let mut named = None;
    let mut spans = Vec::new();
    for item in items {
        let WhereItem::Triple(t) = item else { return None };
        let span = t.obj_span()?;
        match t.pred_text {
            Predicate::HasName => named = Some(span),
            Predicate::HasColour | Predicate::HasBlockType => {}
            _ => return None,
        }
        spans.push(span);
    }
    let name = named?;
    spans.sort_by_key(|s| s.start);
    let joined = spans.windows(2).all(|w| w[1].start == w[0].end + 1);
    (joined && spans.last() == Some(&name)).then(|| spans[0].start..=name.end)
}

/// Is every thing of `action` that has no where clause one pointing word ("fill *it* with
/// gravel"), and is there one? Then the parser had no words to write a where clause from.
pub fn only_pointed(action: &Action, tokens: &[String]) -> bool {
    let lx = crate::lexicon::lexicon();
    let mut things: Vec<&ReferenceObject> = action.reference_object.iter().filter_map(|r| r.as_object()).collect();
    if let Some(LocationArg::Location(l)) = &action.location {
        things.extend(l.reference_object.as_deref());
    }
    let bare = |f: &Option<crate::logical_form::Filters>| f.as_ref().is_some_and(|f| f.where_clause.is_none());
    let pointing = |t: &ReferenceObject| t.text_span.is_some_and(|s| s.start == s.end && tokens.get(s.start).is_some_and(|w| lx.is(Class::Pointing, w)));
    let schematic_bare = action.schematic.as_ref().is_some_and(|s| bare(&s.filters));
    let mut open = things.into_iter().filter(|t| bare(&t.filters)).peekable();
    open.peek().is_some() && !schematic_bare && open.all(pointing)
}

/// "undo the wall": an undo whose words name a thing (no verb, no count, no "last") takes back
/// the command that made that thing; the thing is written as the action's reference from the
/// words, as a place's thing is ([`super::distance`]). Returns whether it was.
pub fn undo_names_a_thing(action: &mut Action, tokens: &[String]) -> bool {
    let lx = crate::lexicon::lexicon();
    let Some(span) = action.target_action_type.filter(|_| action.action_type == ActionType::Undo && action.reference_object.is_none()) else { return false };
    let words = span.words(tokens);
    let other = |w: &String| lx.verb(w).is_some() || lx.number(&[w.as_str()], 0).is_some() || [Class::Latest, Class::GenericThing, Class::Pointing, Class::PlaceWord].into_iter().any(|c| lx.is(c, w));
    if words.is_empty() || words.iter().any(other) {
        return false;
    }
    let Some((thing, _)) = super::distance::thing_after(tokens, span.start, span.end + 1) else { return false };
    action.reference_object = Some(crate::logical_form::ReferenceObjectArg::Object(Box::new(thing)));
    true
}

/// The details a player said that no span of the form points at — numbers, colours, compass
/// words — for the bot to say it could not use them ("I didn't get what you meant by "7"").
pub fn unused(lf: &crate::logical_form::LogicalForm, tokens: &[String]) -> Vec<String> {
    let mut seen = covered(lf, Spans::Pointed);
    seen.extend(covered(lf, Spans::Phrases));
    // A naming step no span points into ("call it sunny and then …", which the dialogue
    // carries out beside the form) is not the form's to use; any other step's words are.
    let steps = super::sequence::steps(tokens);
    let naming = |r: &Range<usize>| super::naming::read(&tokens[r.clone()].join(" ")).is_some();
    let in_form = |k: usize| super::sequence::step_of(&steps, k).is_some_and(|r| !naming(&r) || seen.iter().any(|s| r.contains(s)));
    tokens
        .iter()
        .enumerate()
        .filter(|(k, _)| !seen.contains(k) && in_form(*k))
        .filter(|(_, w)| {
            w.parse::<f64>().is_ok() || canonical_colour(w).is_some() || crate::lexicon::lexicon().compass(w).is_some()
        })
        .map(|(_, w)| w.clone())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::logical_form::{Schematic, tokenize};

    fn named(k: usize) -> Action {
        let mut schematic = Schematic::default();
        schematic.set_and_items(vec![WhereItem::Triple(Triple::new(Predicate::HasName, Span::word(k)))]);
        Action { schematic: Some(schematic), ..Action::new(ActionType::Build) }
    }

    /// A build named by word 1 with word 0 as `said` (a colour or a block type).
    fn named_with(said: Predicate, k: usize) -> Action {
        let mut action = named(k);
        let schematic = action.schematic.as_mut().unwrap();
        let mut items = schematic.and_items();
        items.push(WhereItem::Triple(Triple::new(said, Span::word(0))));
        schematic.set_and_items(items);
        action
    }

    #[test]
    fn the_down_of_putting_a_thing_down_is_no_place() {
        let form = |text: &str, lf: &str| crate::logical_form::validate_json(text, lf).expect("valid").actions()[0].clone();
        let text = "put a pyramid down thats 9 wide";
        let mut put = form(text, r#"{"dialogue_type": "HUMAN_GIVE_COMMAND", "action_sequence": [{"action_type": "BUILD",
            "location": {"reference_object": {"special_reference": {"coordinates_span": [0, [3, 3]]}}, "relative_direction": "DOWN", "text_span": [0, [3, 3]]},
            "schematic": {"text_span": [0, [2, 6]], "filters": {"where_clause": {"AND": [{"pred_text": "has_name", "obj_text": [0, [2, 2]]}]}}}}]}"#);
        assert!(put_down(&mut put, &tokenize(text)) && put.location.is_none());
        // "build a tower down there": the place is more than the "down".
        let text = "build a tower down there";
        let mut there = form(text, r#"{"dialogue_type": "HUMAN_GIVE_COMMAND", "action_sequence": [{"action_type": "BUILD",
            "location": {"contains_coreference": "yes", "relative_direction": "DOWN", "text_span": [0, [3, 4]]},
            "schematic": {"filters": {"where_clause": {"AND": [{"pred_text": "has_name", "obj_text": [0, [2, 2]]}]}}}}]}"#);
        assert!(!put_down(&mut there, &tokenize(text)) && there.location.is_some());
    }

    #[test]
    fn the_colour_of_the_thing_a_build_is_placed_by_is_not_the_builds() {
        let text = "build a tower 10 blocks north of the green cube";
        let lf = crate::logical_form::validate_json(text, r#"{"dialogue_type": "HUMAN_GIVE_COMMAND", "action_sequence": [{"action_type": "BUILD",
            "location": {"reference_object": {"filters": {"where_clause": {"AND": [{"obj_text": [0, [9, 9]], "pred_text": "has_name"}]}}, "text_span": [0, [9, 9]]},
                "relative_direction": "FRONT", "steps": [0, [3, 3]], "text_span": [0, [5, 9]]},
            "schematic": {"filters": {"where_clause": {"AND": [{"obj_text": [0, [2, 2]], "pred_text": "has_name"}, {"obj_text": [0, [8, 8]], "pred_text": "has_colour"}]}}}}]}"#).unwrap();
        let mut action = lf.actions()[0].clone();
        let t = tokenize(text);
        assert!(repair(&mut action, &t, 0..t.len()).0);
        assert!(!action.schematic.as_ref().unwrap().has_predicate(Predicate::HasColour));
        // It describes the cube the tower is placed by.
        let place = serde_json::to_string(&action.location).unwrap();
        assert!(place.contains("has_colour"), "{place}");
    }

    #[test]
    fn the_colour_of_a_thing_built_around_is_the_things() {
        // The parser left "red" to the cube: it is not added to the wall.
        let text = "build a wall of glass around the red cube";
        let lf = crate::logical_form::validate_json(text, r#"{"dialogue_type": "HUMAN_GIVE_COMMAND", "action_sequence": [{"action_type": "BUILD",
            "location": {"reference_object": {"filters": {"where_clause": {"AND": [{"obj_text": [0, [8, 8]], "pred_text": "has_name"}]}}, "text_span": [0, [8, 8]]},
                "relative_direction": "AROUND", "text_span": [0, [5, 8]]},
            "schematic": {"filters": {"where_clause": {"AND": [{"obj_text": [0, [2, 2]], "pred_text": "has_name"}, {"obj_text": [0, [4, 4]], "pred_text": "has_block_type"}]}}, "text_span": [0, [2, 4]]}}]}"#).unwrap();
        let mut action = lf.actions()[0].clone();
        let t = tokenize(text);
        repair(&mut action, &t, 0..t.len());
        assert!(!action.schematic.as_ref().unwrap().has_predicate(Predicate::HasColour));
    }

    #[test]
    fn a_thing_said_as_colour_and_name_is_one_run_of_words() {
        let form = |json: &str| crate::logical_form::validate_json("go next to the yellow cube", json).unwrap().actions()[0].clone();
        // "yellow" a colour, "cube" the name: the run is words 4 and 5.
        let split = form(r#"{"dialogue_type": "HUMAN_GIVE_COMMAND", "action_sequence": [{"action_type": "MOVE", "location": {"relative_direction": "NEAR", "reference_object": {"filters": {"where_clause": {"AND": [{"pred_text": "has_name", "obj_text": [0, [5, 5]]}, {"pred_text": "has_colour", "obj_text": [0, [4, 4]]}]}}}}}]}"#);
        assert_eq!(described_things(&split), [4, 5]);
        // The whole run as the name: the same words.
        let whole = form(r#"{"dialogue_type": "HUMAN_GIVE_COMMAND", "action_sequence": [{"action_type": "MOVE", "location": {"reference_object": {"filters": {"where_clause": {"AND": [{"pred_text": "has_name", "obj_text": [0, [4, 5]]}]}}}}}]}"#);
        assert_eq!(described_things(&whole), [4, 5]);
        // A colour after the name, or a gap, is not one run.
        let after = form(r#"{"dialogue_type": "HUMAN_GIVE_COMMAND", "action_sequence": [{"action_type": "MOVE", "location": {"reference_object": {"filters": {"where_clause": {"AND": [{"pred_text": "has_name", "obj_text": [0, [3, 3]]}, {"pred_text": "has_colour", "obj_text": [0, [5, 5]]}]}}}}}]}"#);
        assert!(described_things(&after).is_empty());
    }

    #[test]
    fn a_colour_or_material_no_span_points_at_is_added() {
        let t = tokenize("build a 3 by 3 by 3 red cube of stone");
        let mut action = named(8);
        assert!(repair(&mut action, &t, 0..t.len()).0);
        let items = action.schematic.as_ref().unwrap().and_items();
        assert!(items.contains(&WhereItem::Triple(Triple::new(Predicate::HasColour, Span::word(7)))), "{items:?}");
        assert!(items.contains(&WhereItem::Triple(Triple::new(Predicate::HasBlockType, Span::word(10)))), "{items:?}");
        // Said and covered: nothing to add.
        assert!(!repair(&mut action, &t, 0..t.len()).0);
        let lf = crate::logical_form::validate_json(
            "build a red cube 7 high",
            r#"{"dialogue_type": "HUMAN_GIVE_COMMAND", "action_sequence": [{"action_type": "BUILD", "schematic": {"filters": {"where_clause": {"AND": [{"pred_text": "has_name", "obj_text": [0, [3, 3]]}]}}}}]}"#,
        )
        .unwrap();
        assert_eq!(unused(&lf, &tokenize("build a red cube 7 high")), ["red", "7"]);
        // A naming step is carried out beside the form: its colour is no word the form missed.
        let text = "call the yellow cube sunny and then build a tower";
        let lf = crate::logical_form::validate_json(text, r#"{"dialogue_type": "HUMAN_GIVE_COMMAND", "action_sequence": [{"action_type": "BUILD",
            "schematic": {"filters": {"where_clause": {"AND": [{"pred_text": "has_name", "obj_text": [0, [9, 9]]}]}}}}]}"#).expect("valid");
        assert!(unused(&lf, &tokenize(text)).is_empty());
        // One colour or material, said plainly: whichever the form calls it.
        assert!(said_plainly(&named_with(Predicate::HasColour, 1), &tokenize("gold pyramid")));
        assert!(said_plainly(&named_with(Predicate::HasBlockType, 1), &tokenize("red cube")));
        assert!(!said_plainly(&named_with(Predicate::HasColour, 1), &tokenize("really tall")));
        // Not a build: left alone.
        let mut dig = Action { schematic: Some(Schematic::default()), ..Action::new(ActionType::Dig) };
        assert!(!repair(&mut dig, &t, 0..t.len()).0);
    }

    #[test]
    fn a_material_read_over_a_shape_or_a_distance_is_cut_back_to_the_material() {
        let block_type = |text: &str, span: (usize, usize), colour: Option<usize>| {
            let t = tokenize(text);
            let mut action = named(0);
            let schematic = action.schematic.as_mut().unwrap();
            let mut items = vec![WhereItem::Triple(Triple::new(Predicate::HasBlockType, Span::new(span.0, span.1)))];
            items.extend(colour.map(|k| WhereItem::Triple(Triple::new(Predicate::HasColour, Span::word(k)))));
            schematic.set_and_items(items);
            let changed = narrow_block_type(&mut action, &t);
            let items = action.schematic.unwrap().and_items();
            let kept = items.iter().find_map(|i| match i {
                WhereItem::Triple(t) if t.pred_text == Predicate::HasBlockType => t.obj_span().map(|s| (s.start, s.end)),
                _ => None,
            });
            (changed, kept)
        };
        // "wall made of bricks": the material after the shape.
        assert_eq!(block_type("put up a 6 wide 2 tall wall made of bricks", (7, 10), None), (true, Some((10, 10))));
        // "blue tower 20 blocks" with blue already the colour: nothing is left to be a block.
        assert_eq!(block_type("build a blue tower 20 blocks north of me", (2, 5), Some(2)), (true, None));
        // Without the colour, the words before the shape are the block.
        assert_eq!(block_type("build a blue tower 20 blocks north of me", (2, 5), None), (true, Some((2, 2))));
        // A material alone, or a block whose name holds a shape word, is left as it is.
        assert_eq!(block_type("build a wall of stone bricks", (4, 5), None), (false, Some((4, 5))));
        assert_eq!(block_type("build a wall of oak stairs", (4, 5), None), (false, Some((4, 5))));
    }
}
