//! Details the parser left out: a colour or a material said in a build's step that no part of
//! the form points at ("build a 3 by 3 by 3 red cube" read with no colour) is added to the
//! schematic, so the bot builds what was said rather than its default.

use std::ops::Range;

use serde_json::{Value, json};

use super::form_json::{Spans, covered, has_triple, set_triples, triples};
use crate::world::Block;
use crate::world::blocks::canonical_colour;

/// A word that names a building material: a block ("stone", "glass", "bricks", "emerald").
fn is_material(word: &str) -> bool {
    let w = word.trim_end_matches('s');
    crate::lexicon::lexicon().material(word).is_some()
        || [w, word].iter().any(|c| Block::from_name(c).is_some_and(|b| b.is_solid()) || Block::from_name(&format!("{c}_block")).is_some())
}

/// Adds a colour and a material said in `step` but covered by no span to the action's
/// schematic. Returns whether anything was added.
pub fn repair(action: &mut Value, tokens: &[String], step: Range<usize>) -> bool {
    if action.get("action_type").and_then(Value::as_str) != Some("BUILD") || action.get("schematic").is_none() {
        return false;
    }
    let mut seen = Vec::new();
    covered(action, Spans::Pointed, &mut seen);
    let free = |k: &usize| !seen.contains(k);
    let end = step.end.min(tokens.len());
    let colour = (step.start..end).filter(free).find(|k| canonical_colour(&tokens[*k]).is_some());
    let material = (step.start..end).filter(free).find(|k| Some(*k) != colour && is_material(&tokens[*k]));
    let Some(schematic) = action.get_mut("schematic") else { return false };
    let mut added = Vec::new();
    if let Some(k) = colour.filter(|_| !has_triple(schematic, "has_colour")) {
        added.push(json!({"pred_text": "has_colour", "obj_text": [0, [k, k]]}));
    }
    if let Some(k) = material.filter(|_| !has_triple(schematic, "has_block_type")) {
        added.push(json!({"pred_text": "has_block_type", "obj_text": [0, [k, k]]}));
    }
    if added.is_empty() {
        return false;
    }
    let mut all = triples(schematic);
    all.extend(added);
    set_triples(schematic, all).is_some()
}

/// The details a player said that no span of the form points at — numbers, colours, compass
/// words — for the bot to say it could not use them ("I didn't get what you meant by "7"").
pub fn unused(lf: &crate::logical_form::LogicalForm, tokens: &[String]) -> Vec<String> {
    let mut seen = Vec::new();
    let v = lf.to_json_value();
    covered(&v, Spans::Pointed, &mut seen);
    covered(&v, Spans::Phrases, &mut seen);
    tokens
        .iter()
        .enumerate()
        .filter(|(k, _)| !seen.contains(k))
        .filter(|(_, w)| {
            w.parse::<f64>().is_ok() || canonical_colour(w).is_some() || crate::lexicon::lexicon().compass(w).is_some()
        })
        .map(|(_, w)| w.clone())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::logical_form::tokenize;

    #[test]
    fn a_colour_or_material_no_span_points_at_is_added() {
        let t = tokenize("build a 3 by 3 by 3 red cube of stone");
        let mut action = json!({"action_type": "BUILD", "schematic": {"filters": {"where_clause": {"AND": [
            {"pred_text": "has_name", "obj_text": [0, [8, 8]]}]}}}});
        assert!(repair(&mut action, &t, 0..t.len()));
        let clause = action.pointer("/schematic/filters/where_clause/AND").unwrap().to_string();
        assert!(clause.contains(r#"{"obj_text":[0,[7,7]],"pred_text":"has_colour"}"#), "{clause}");
        assert!(clause.contains(r#"{"obj_text":[0,[10,10]],"pred_text":"has_block_type"}"#), "{clause}");
        // Said and covered: nothing to add.
        assert!(!repair(&mut action, &t, 0..t.len()));
        let lf = crate::logical_form::validate_json(
            "build a red cube 7 high",
            r#"{"dialogue_type": "HUMAN_GIVE_COMMAND", "action_sequence": [{"action_type": "BUILD", "schematic": {"filters": {"where_clause": {"AND": [{"pred_text": "has_name", "obj_text": [0, [3, 3]]}]}}}}]}"#,
        )
        .unwrap();
        assert_eq!(unused(&lf, &tokenize("build a red cube 7 high")), ["red", "7"]);
        // Not a build: left alone.
        let mut dig = json!({"action_type": "DIG", "schematic": {}});
        assert!(!repair(&mut dig, &t, 0..t.len()));
    }
}
