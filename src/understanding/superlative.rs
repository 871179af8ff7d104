//! "which is the tallest thing here?", "what's the biggest building", "which tower is the
//! highest": a question that ranks what the bot knows. The parser rarely writes these (the
//! annotations hold a handful of superlatives, all inside commands), so a line that is only such
//! a question is read by rule into a ranked `GET_MEMORY`.

use serde_json::{Value, json};

use crate::lexicon::{Class, Group, lexicon};
use crate::logical_form::{LogicalForm, validate_json};

/// The attribute a superlative ranks by and whether the most or the least wins ("tallest" →
/// HEIGHT, MAX), from the lexicon's `[superlatives]` ("height max").
fn rank(word: &str) -> Option<(String, String)> {
    let (attribute, polarity) = lexicon().meaning(Group::Superlative, word)?.split_once(' ')?;
    Some((attribute.to_uppercase(), polarity.to_uppercase()))
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
    let mut filters = json!({
        "output": "MEMORY",
        "selector": {
            "return_quantity": {"argval": {"polarity": polarity, "quantity": {"attribute": attribute}}},
            "ordinal": {"fixed_value": "FIRST"}
        }
    });
    if let Some((start, end)) = noun.filter(|(s, e)| e > s && !is_generic(&words[*s..*e].join(" "))) {
        filters["where_clause"] = json!({"AND": [{"pred_text": "has_name", "obj_text": [0, [start, end - 1]]}]});
    }
    let form: Value = json!({"dialogue_type": "GET_MEMORY", "filters": filters});
    validate_json(text, &form.to_string()).ok()
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
