//! Measures as the player said them: "a brick wall 20 blocks long and 5 high", "a 10 by 3 wall",
//! "a 4x4x4 cube", "a hole 3 deep".
//!
//! A number with its measure word beside it is not ambiguous, but the parser sometimes ties it to
//! the wrong measure (20 long read as 20 high) or to nothing. So the measures are read from each
//! step's own words and written into the form as triples pointing at those words, replacing the
//! measure triples the parser guessed. "A by B" means what it means for the shape: a wall or a
//! fence is A long and B high; anything else is A wide and B long (and a third number high).

use std::ops::Range;

use crate::lexicon::{Class, Dimension, lexicon};
use crate::logical_form::{Action, Predicate, RelativeDirection, Schematic, Selector, SelectorArg, Span, TextValue, Triple, WhereItem};
use crate::schematics::numbers::read_number;

/// A measure read from the words, with the words it covers (the number and its measure word).
#[derive(Debug, Clone, PartialEq)]
pub struct Measure {
    pub predicate: Predicate,
    pub value: i64,
    pub words: Range<usize>,
    /// Words that belong to the measure without being its number ("by", "x", "blocks" in "3 by
    /// 3 blocks"): no other triple may keep them.
    pub glue: Range<usize>,
}

/// Units between a number and its measure word ("20 *blocks* long"): the lexicon's `[units]`.
fn is_unit(w: &str) -> bool {
    lexicon().unit(w).is_some()
}

/// A measure word after its number ("5 high", "3 deep"): the lexicon's `[dimensions]`, less the
/// size words, which only come before theirs ("sides of 4"), and less "up": in a step's words
/// "5 blocks up" says where, not how tall (inside a shape's own words it is a height).
fn measure_word(w: &str) -> Option<Predicate> {
    if lexicon().relative(w) == Some(RelativeDirection::Up) {
        return None;
    }
    lexicon().dimension(w).filter(|d| *d != Dimension::Size).map(Dimension::predicate)
}

/// Nouns that may come before their number: "height of 5", "radius 3" (`[measure_nouns]`).
fn leading_noun(w: &str) -> Option<Predicate> {
    lexicon().is(Class::MeasureNoun, w).then(|| lexicon().dimension(w).map(Dimension::predicate)).flatten()
}

/// Where a measure that starts with its noun at `i` starts with the words that lead to it:
/// "*with* sides of 7", "*with a* radius of 3" (`[measure_leads]`, then articles).
fn led(tokens: &[String], start: usize, i: usize) -> usize {
    let lx = lexicon();
    let mut g = i;
    while g > start && lx.is(Class::Article, &tokens[g - 1]) {
        g -= 1;
    }
    if g > start && lx.is(Class::MeasureLead, &tokens[g - 1]) { g - 1 } else { i }
}

/// The first word from `j` on that is not of `class`.
fn skip(tokens: &[String], mut j: usize, class: impl Fn(&str) -> bool) -> usize {
    while tokens.get(j).is_some_and(|w| class(w)) {
        j += 1;
    }
    j
}

/// The measures in `tokens[range]`; `upright` says how to read "A by B".
pub fn read(tokens: &[String], range: Range<usize>, upright: bool) -> Vec<Measure> {
    let mut found = Vec::new();
    let mut i = range.start;
    let end = range.end.min(tokens.len());
    let number = |k: usize| if k < end { read_number(&tokens[..end], k).filter(|(v, _)| *v > 0) } else { None };
    while i < end {
        // "height of 5", "radius 3"
        if let Some(p) = leading_noun(&tokens[i]) {
            let k = skip(tokens, i + 1, |w| lexicon().is(Class::MeasureGlue, w));
            if let Some((v, n)) = number(k) {
                found.push(Measure { predicate: p, value: v, words: i..k + n, glue: led(tokens, range.start, i)..k + n });
                i = k + n;
                continue;
            }
        }
        let Some((first, n)) = number(i) else {
            i += 1;
            continue;
        };
        // "A by B (by C)"
        let mut chain = vec![(first, i..i + n)];
        let mut j = i + n;
        loop {
            let k = skip(tokens, j, is_unit);
            if k < end
                && lexicon().is(Class::By, &tokens[k])
                && let Some((v, m)) = number(k + 1)
            {
                chain.push((v, k + 1..k + 1 + m));
                j = k + 1 + m;
                continue;
            }
            break;
        }
        if chain.len() >= 2 {
            use Predicate::{HasHeight, HasLength, HasThickness, HasWidth};
            let names = match chain.as_slice() {
                [(a, _), (b, _), (c, _)] if upright => wall_axes([*a, *b, *c]),
                _ if upright => [HasLength, HasHeight, HasThickness],
                _ => [HasWidth, HasLength, HasHeight],
            };
            let all = i..j;
            for ((v, words), p) in chain.into_iter().zip(names) {
                found.push(Measure { predicate: p, value: v, words, glue: all.clone() });
            }
            i = j;
            continue;
        }
        // "20 blocks long", "5 high", "3 deep"
        let k = skip(tokens, i + n, is_unit);
        let k = if tokens.get(k).is_some_and(|w| w == "in") { k + 1 } else { k };
        if k < end
            && let Some(p) = measure_word(&tokens[k])
        {
            // "with a 9 block base": the lead and its article belong to the measure too.
            found.push(Measure { predicate: p, value: first, words: i..k + 1, glue: led(tokens, range.start, i)..k + 1 });
            i = k + 1;
            continue;
        }
        // "a long wall of glass 40 blocks": a number and its unit ending the step, measuring
        // what a bare measure word before it said ("long").
        if k > i + n && (k >= end || lexicon().is(Class::Politeness, &tokens[k]))
            && let Some(p) = bare_measure(tokens, range.start..i)
        {
            found.push(Measure { predicate: p, value: first, words: i..k, glue: i..k });
            i = k;
            continue;
        }
        i += n;
    }
    // One value a measure: the first said wins ("5 high ... 6 high" keeps 5).
    let mut seen = Vec::new();
    found.retain(|m| {
        let new = !seen.contains(&m.predicate);
        seen.push(m.predicate);
        new
    });
    found
}

/// A wall of three numbers in any order ("2 by 10 by 3"): walls are long and thin, so the
/// largest is its length, the smallest its thickness, the other its height (ties in the order
/// said).
fn wall_axes(values: [i64; 3]) -> [Predicate; 3] {
    use Predicate::{HasHeight, HasLength, HasThickness};
    let mut order = [0, 1, 2];
    order.sort_by_key(|&k| std::cmp::Reverse(values[k]));
    let mut axes = [HasLength, HasHeight, HasThickness];
    for (rank, k) in order.into_iter().enumerate() {
        axes[k] = [HasLength, HasHeight, HasThickness][rank];
    }
    axes
}

/// The measure a word in `range` names without a number of its own ("a *long* wall"): one not
/// after a number or a unit.
fn bare_measure(tokens: &[String], range: Range<usize>) -> Option<Predicate> {
    range.clone().find_map(|k| {
        let after_number = k > range.start && (is_unit(&tokens[k - 1]) || read_number(tokens, k - 1).is_some());
        measure_word(&tokens[k]).filter(|_| !after_number)
    })
}

pub(super) const MEASURE_PREDICATES: &[Predicate] =
    &[Predicate::HasHeight, Predicate::HasWidth, Predicate::HasLength, Predicate::HasDepth, Predicate::HasThickness, Predicate::HasRadius];

/// Is the schematic's shape upright (a wall, a fence), by its `has_name` words? It chooses how
/// "A by B" reads.
fn is_upright(schematic: &Schematic, tokens: &[String]) -> bool {
    schematic.and_items().iter().any(|i| {
        matches!(i, WhereItem::Triple(t) if t.pred_text == Predicate::HasName
            && t.obj_span().is_some_and(|s| s.words(tokens).iter().any(|x| lexicon().is(Class::Upright, x))))
    })
}

/// Writes the measures said in `step` into an action's schematic, replacing the measure triples
/// the parser guessed and cutting the measured words out of any other triple ("4 x 4 x 4 gold"
/// as a colour becomes "gold"). Returns the measures written.
pub fn repair(action: &mut Action, tokens: &[String], step: Range<usize>) -> Vec<Measure> {
    let Some(schematic) = action.schematic.as_mut() else { return Vec::new() };
    let upright = is_upright(schematic, tokens);
    let measures = read(tokens, step, upright);
    if measures.is_empty() {
        return measures;
    }
    let claimed = |k: usize| measures.iter().any(|m| m.words.contains(&k) || m.glue.contains(&k));
    let mut kept: Vec<WhereItem> = Vec::new();
    for mut item in schematic.and_items() {
        if let WhereItem::Triple(t) = &mut item {
            if MEASURE_PREDICATES.contains(&t.pred_text) {
                continue;
            }
            if let Some(s) = t.obj_span() {
                let words: Vec<usize> = s.range().filter(|k| !claimed(*k)).collect();
                // The span's words that are not measured, if they still form one run.
                match (words.first(), words.last()) {
                    (Some(&a), Some(&b)) if b + 1 - a == words.len() => t.obj_text = Some(TextValue::Span(Span::new(a, b))),
                    (None, _) | (_, None) => continue,
                    _ => {}
                }
                if t.pred_text == Predicate::HasSize && words.iter().all(|k| read_number(tokens, *k).is_some()) {
                    continue;
                }
            }
        }
        kept.push(item);
    }
    for m in &measures {
        kept.push(WhereItem::Triple(Triple::new(m.predicate, Span::new(m.words.start, m.words.end - 1))));
    }
    schematic.set_and_items(kept);
    measures
}

/// "make it 2 high and 9 blocks long": a step that only gives the thing just named its
/// measures, read by rule (the parser, which saw such steps rarely, is unsure of them). The
/// steps are joined into the build before it (`sequence::join`).
pub fn read_more_of_it(text: &str) -> Option<crate::logical_form::LogicalForm> {
    let lx = lexicon();
    let tokens: Vec<String> = text.split_whitespace().map(String::from).collect();
    let (verb, it) = (tokens.first()?, tokens.get(1)?);
    if lx.verb(verb) != Some(crate::logical_form::ActionType::Build) || !lx.is(Class::PointingBack, it) {
        return None;
    }
    let measures = read(&tokens, 2..tokens.len(), false);
    let claimed = |k: usize| measures.iter().any(|m| m.words.contains(&k) || m.glue.contains(&k));
    if measures.is_empty() || !(2..tokens.len()).all(|k| claimed(k) || tokens[k] == "and" || lx.is(Class::Approximately, &tokens[k])) {
        return None;
    }
    let mut schematic = Schematic::default();
    schematic.set_and_items(measures.iter().map(|m| WhereItem::Triple(Triple::new(m.predicate, Span::new(m.words.start, m.words.end - 1)))).collect());
    let build = Action { schematic: Some(schematic), ..Action::new(crate::logical_form::ActionType::Build) };
    super::checked(text, crate::logical_form::LogicalForm::command(vec![build]))
}

/// "build a blue cube 5 blocks south of me": a number among the place's words is its distance,
/// no count of times to do the command; a repeat the parser read from it goes. Returns whether
/// one went.
pub fn repeat_from_distance(lf: &mut crate::logical_form::LogicalForm) -> bool {
    use crate::logical_form::LocationArg;
    let Some(v) = lf.remove_condition.as_ref().and_then(|c| c.condition.as_ref()).and_then(|c| c.input_right.value) else { return false };
    let in_place = lf.actions().iter().any(|a| match &a.location {
        Some(LocationArg::Location(l)) => l.steps == Some(v) || l.text_span.is_some_and(|s| s.start <= v.start && v.end <= s.end),
        _ => false,
    });
    if in_place {
        lf.remove_condition = None;
    }
    in_place
}

/// "build 2 towers", "make three cubes", "put 4 torches": a number right before a plural shape
/// (or block) is how many to build, never a size. Written as the schematic's selector (the annotations' convention), with
/// any measure the parser hung on the number taken off. Returns whether the form changed, and
/// the count's words when the form now says that count (written here, or by the parser).
/// A spawn's count is only read ([`mobs_counted`]).
pub fn count(action: &mut Action, tokens: &[String], step: Range<usize>) -> (bool, Vec<usize>) {
    if action.action_type == crate::logical_form::ActionType::Spawn {
        let said = mobs_counted(action, tokens);
        return (false, if said.is_empty() { one_mob(action, tokens) } else { said });
    }
    // "between the two cubes": a number in the place counts the things there, not the build.
    let place = match &action.location {
        Some(crate::logical_form::LocationArg::Location(l)) => l.text_span,
        _ => None,
    };
    let in_place = |k: usize| place.is_some_and(|p| p.range().contains(&k));
    let Some(schematic) = action.schematic.as_mut() else { return (false, Vec::new()) };
    let end = step.end.min(tokens.len());
    let found = (step.start..end).filter(|&k| !in_place(k)).find_map(|k| {
        let (v, n) = read_number(&tokens[..end], k)?;
        // "2 red cubes", "a couple of small green cubes": words that describe may come between.
        let lx = lexicon();
        let at = (k + n..end).find(|&j| tokens[j] != "of" && !lx.describes(&tokens[j]))?;
        let noun = &tokens[at];
        // "10 blocks" is a distance or a size, never ten cubes; "5 gold blocks" are blocks.
        let unit = is_unit(noun) && at == k + n;
        let thing = crate::schematics::is_known_shape(noun) || super::giving::names_a_block(&[noun]);
        ((2..=12).contains(&v) && !unit && noun.ends_with('s') && thing).then_some((k, n))
    });
    let Some((k, n)) = found else {
        // A count the parser took from the place's words is no count of the build.
        let counted = schematic.filters.as_ref().and_then(|f| f.selector.as_ref()).is_some_and(|s| match s {
            SelectorArg::Selector(s) => matches!(s.ordinal, Some(crate::logical_form::Ordinal::Span(w)) if in_place(w.start)),
            _ => false,
        });
        if counted && let Some(f) = schematic.filters.as_mut() {
            f.selector = None;
        }
        return (counted, Vec::new());
    };
    let said = Span::new(k, k + n - 1);
    if let Some(selector) = schematic.filters.as_ref().and_then(|f| f.selector.as_ref()) {
        // The parser wrote this very count ("two", or "a pair of" with its "of"): its doubts
        // about how no longer count, and a triple it also hung on the count's words ("pair" as
        // a tag) goes.
        let SelectorArg::Selector(s) = selector else { return (false, Vec::new()) };
        let Some(crate::logical_form::Ordinal::Span(wrote)) = s.ordinal else { return (false, Vec::new()) };
        let with_of = said.end + 1 == wrote.end && tokens.get(wrote.end).is_some_and(|w| w == "of");
        if wrote.start != said.start || !(wrote.end == said.end || with_of) {
            return (false, Vec::new());
        }
        let items = schematic.and_items();
        let kept: Vec<WhereItem> = items
            .iter()
            .filter(|i| !matches!(i, WhereItem::Triple(t) if t.obj_span().is_some_and(|s| s.start >= wrote.start && s.end <= wrote.end)))
            .cloned()
            .collect();
        let cut = kept.len() < items.len();
        if cut {
            schematic.set_and_items(kept);
        }
        return (cut, (wrote.start..=wrote.end).collect());
    }
    let kept: Vec<WhereItem> = schematic
        .and_items()
        .into_iter()
        .filter(|i| !matches!(i, WhereItem::Triple(t) if t.obj_span().is_some_and(|s| s.range().contains(&k))))
        .collect();
    let selector = Selector {
        ordinal: Some(crate::logical_form::Ordinal::Span(said)),
        return_quantity: Some(crate::logical_form::ReturnQuantity::Kind(crate::logical_form::QuantityKind::Random)),
        ..Selector::default()
    };
    schematic.set_and_items(kept).selector = Some(SelectorArg::Selector(Box::new(selector)));
    (true, (k..k + n).collect())
}

/// "make 4 cows": the words of a spawn's count, when the parser wrote it on a number the words
/// say (a spawn's count is the parser's to write; only its doubt is settled here).
fn mobs_counted(action: &Action, tokens: &[String]) -> Vec<usize> {
    let Some(crate::logical_form::ReferenceObjectArg::Object(mob)) = action.reference_object.as_ref() else { return Vec::new() };
    let Some(SelectorArg::Selector(selector)) = mob.filters.as_ref().and_then(|f| f.selector.as_ref()) else { return Vec::new() };
    match selector.ordinal {
        Some(crate::logical_form::Ordinal::Span(s)) if s.fits(tokens.len()) && read_number(&tokens[..=s.end], s.start).is_some_and(|(_, n)| s.start + n == s.end + 1) => {
            (s.start..=s.end).collect()
        }
        _ => Vec::new(),
    }
}

/// "spawn one sheep": a count of one said right before the mob, where the parser wrote no count
/// (one is what a spawn makes anyway): its doubt how to write it is settled by the words.
fn one_mob(action: &Action, tokens: &[String]) -> Vec<usize> {
    let Some(crate::logical_form::ReferenceObjectArg::Object(mob)) = action.reference_object.as_ref() else { return Vec::new() };
    let counted = mob.filters.as_ref().and_then(|f| f.selector.as_ref()).is_some();
    let start = mob.filters.iter().flat_map(|f| f.triples()).filter(|t| t.pred_text == Predicate::HasName).filter_map(|t| t.obj_span()).map(|s| s.start).min();
    match start.and_then(|k| k.checked_sub(1)) {
        Some(k) if !counted && read_number(tokens, k).is_some_and(|(v, n)| v == 1 && n == 1) => vec![k],
        _ => Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_distance_is_no_count_of_times() {
        let text = "build a blue cube 5 blocks south of me";
        let json = r#"{"dialogue_type": "HUMAN_GIVE_COMMAND", "action_sequence": [{"action_type": "BUILD",
            "location": {"reference_object": {"special_reference": {"fixed_value": "SPEAKER"}}, "relative_direction": "FRONT", "steps": [0, [4, 4]], "text_span": [0, [4, 8]]},
            "schematic": {"filters": {"where_clause": {"AND": [{"obj_text": [0, [3, 3]], "pred_text": "has_name"}]}}, "text_span": [0, [2, 3]]}}],
            "remove_condition": {"condition": {"comparison_type": "EQUAL", "input_left": {"filters": {"output": {"attribute": "RUN_COUNT"}, "special": {"fixed_value": "THIS"}}},
            "input_right": {"value": [0, [4, 4]]}}, "condition_type": "COMPARATOR"}}"#;
        let mut lf = crate::logical_form::validate_json(text, json).expect("valid");
        assert!(repeat_from_distance(&mut lf));
        assert!(lf.remove_condition.is_none());
    }
    use serde_json::{Value, json};

    fn act(v: Value) -> Action {
        serde_json::from_value(v).expect("an action")
    }

    fn val(a: &Action) -> Value {
        serde_json::to_value(a).expect("json")
    }
    use crate::logical_form::tokenize;

    fn said(text: &str, upright: bool) -> Vec<(&'static str, i64)> {
        let t = tokenize(text);
        read(&t, 0..t.len(), upright).into_iter().map(|m| (m.predicate.as_str(), m.value)).collect()
    }

    #[test]
    fn measures_are_read_the_way_players_mean_them() {
        assert_eq!(said("build a brick wall 20 blocks long and 5 high here", true), [("has_length", 20), ("has_height", 5)]);
        assert_eq!(said("build a 10 by 3 wooden wall", true), [("has_length", 10), ("has_height", 3)]);
        assert_eq!(said("build a 2 by 10 by 3 wall", true), [("has_thickness", 2), ("has_length", 10), ("has_height", 3)]);
        assert_eq!(said("a 12 by 4 by 1 wall", true), [("has_length", 12), ("has_height", 4), ("has_thickness", 1)]);
        assert_eq!(said("a 5 by 3 platform", false), [("has_width", 5), ("has_length", 3)]);
        assert_eq!(said("a 4 x 4 x 4 gold cube at 20 5 -10", false), [("has_width", 4), ("has_length", 4), ("has_height", 4)]);
        assert_eq!(said("dig a hole over there 3 deep", false), [("has_depth", 3)]);
        assert_eq!(said("a tower with a height of 12", false), [("has_height", 12)]);
        assert_eq!(said("a tower ten blocks tall", false), [("has_height", 10)]);
        assert_eq!(said("a cube with sides of 4 blocks", false), [("has_size", 4)]);
        assert_eq!(said("build a long wall of glass 40 blocks", true), [("has_length", 40)]);
        assert_eq!(said("a tall tower 20 blocks please", false), [("has_height", 20)]);
        assert!(said("build a long wall 40 blocks away", true).is_empty());
        // Coordinates, counts and distances are not measures.
        assert!(said("build 3 towers at 10 5 -2", false).is_empty());
        assert!(said("go 5 blocks north", false).is_empty());
    }

    #[test]
    fn the_form_gets_the_measures_and_loses_the_wrong_ones() {
        let text = "build a brick wall 20 blocks long and 5 high here";
        let t = tokenize(text);
        let mut action = act(json!({"action_type": "BUILD", "schematic": {"text_span": [0, [2, 3]], "filters": {"where_clause": {"AND": [
            {"pred_text": "has_name", "obj_text": [0, [3, 3]]}, {"pred_text": "has_block_type", "obj_text": [0, [2, 2]]},
            {"pred_text": "has_height", "obj_text": [0, [4, 6]]}]}}}}));
        let m = repair(&mut action, &t, 0..t.len());
        assert_eq!(m.len(), 2);
        let clause = val(&action).pointer("/schematic/filters/where_clause/AND").unwrap().to_string();
        assert!(clause.contains(r#"{"obj_text":[0,[4,6]],"pred_text":"has_length"}"#), "{clause}");
        assert!(clause.contains(r#"{"obj_text":[0,[8,9]],"pred_text":"has_height"}"#), "{clause}");
        assert!(!clause.contains(r#"[0,[4,6]],"pred_text":"has_height""#), "{clause}");
        assert_eq!(val(&action).pointer("/schematic/text_span").unwrap(), &json!([0, [2, 3]]));
    }

    #[test]
    fn a_number_before_a_plural_shape_is_a_count() {
        let t = tokenize("build 2 towers");
        let mut action = act(json!({"action_type": "BUILD", "schematic": {"filters": {"where_clause": {"AND": [
            {"pred_text": "has_name", "obj_text": [0, [2, 2]]}, {"pred_text": "has_height", "obj_text": [0, [1, 1]]}]}}}}));
        assert_eq!(count(&mut action, &t, 0..t.len()), (true, vec![1]));
        let f = val(&action).pointer("/schematic/filters").unwrap().to_string();
        assert!(f.contains(r#""ordinal":[0,[1,1]]"#) && !f.contains("has_height"), "{f}");
        // Written by the parser already: unchanged, and the count's words are still its.
        assert_eq!(count(&mut action, &t, 0..t.len()), (false, vec![1]));
        for line in ["build a red cube 10 blocks east of here", "make a line 8 blocks long"] {
            let t = tokenize(line);
            let mut action = act(json!({"action_type": "BUILD", "schematic": {}}));
            assert_eq!(count(&mut action, &t, 0..t.len()), (false, vec![]), "{line}");
        }
        let t = tokenize("put 5 gold blocks");
        let mut action = act(json!({"action_type": "BUILD", "schematic": {}}));
        assert_eq!(count(&mut action, &t, 0..t.len()), (true, vec![1]));
        let t = tokenize("build a tower 2 high");
        let mut action = act(json!({"action_type": "BUILD", "schematic": {}}));
        assert_eq!(count(&mut action, &t, 0..t.len()), (false, vec![]));
    }

    #[test]
    fn measured_words_leave_other_triples() {
        let text = "build a 4 x 4 x 4 gold cube";
        let t = tokenize(text);
        let mut action = act(json!({"action_type": "BUILD", "schematic": {"filters": {"where_clause": {"AND": [
            {"pred_text": "has_name", "obj_text": [0, [8, 8]]}, {"pred_text": "has_colour", "obj_text": [0, [2, 7]]}]}}}}));
        repair(&mut action, &t, 0..t.len());
        let clause = val(&action).pointer("/schematic/filters/where_clause/AND").unwrap().to_string();
        assert!(clause.contains(r#"{"obj_text":[0,[7,7]],"pred_text":"has_colour"}"#), "{clause}");
        // "3 by 3 by 3 red": the "by"s go with the measures, leaving the colour.
        let t = tokenize("build a 3 by 3 by 3 red cube");
        let mut action = act(json!({"action_type": "BUILD", "schematic": {"filters": {"where_clause": {"AND": [
            {"pred_text": "has_name", "obj_text": [0, [8, 8]]}, {"pred_text": "has_colour", "obj_text": [0, [2, 7]]}]}}}}));
        repair(&mut action, &t, 0..t.len());
        let clause = val(&action).pointer("/schematic/filters/where_clause/AND").unwrap().to_string();
        assert!(clause.contains(r#"{"obj_text":[0,[7,7]],"pred_text":"has_colour"}"#), "{clause}");
    }
}
