//! Logical form ⇄ flat token sequence, the form the decoder generates.
//!
//! Every leaf of the annotated forms is either an enumerated string or a span `[0, [i, j]]`, so a
//! form is written as bracket tokens (`{ } [ ]`), key tokens (`k:action_type`), value tokens
//! (`v:BUILD`) and a `<span>` token whose word range is predicted by pointer heads instead of being
//! spelled out. Spelling spans as pointers is what lets the parser copy words it never saw in training.
//! Keys are written in one canonical order (a few "what is this node" keys first, then alphabetical)
//! so that the decoder always meets the same order for the same content.

use serde_json::{Map, Value};

use crate::logical_form::Span;

pub const OPEN_OBJ: &str = "{";
pub const CLOSE_OBJ: &str = "}";
pub const OPEN_LIST: &str = "[";
pub const CLOSE_LIST: &str = "]";
pub const SPAN: &str = "<span>";
pub const BOS: &str = "<bos>";
pub const EOS: &str = "<eos>";
pub const PAD: &str = "<pad>";
/// Keys that say what a node is; writing them first lets the decoder condition the rest on them.
const FIRST_KEYS: &[&str] =
    &["dialogue_type", "action_type", "pred_text", "condition_type", "memory_type", "relative_direction"];

/// A linearised form: tokens plus, for each `<span>` token in order, its word range.
#[derive(Debug, Clone, PartialEq)]
pub struct Linear {
    pub tokens: Vec<String>,
    pub spans: Vec<Span>,
}

/// The order keys are written in.
pub fn key_rank(key: &str) -> (usize, &str) {
    (FIRST_KEYS.iter().position(|k| *k == key).unwrap_or(FIRST_KEYS.len()), key)
}

/// Reads `[0, [i, j]]` as a span.
pub fn as_span(value: &Value) -> Option<Span> {
    let outer = value.as_array()?;
    if outer.len() != 2 || outer[0].as_u64() != Some(0) {
        return None;
    }
    let inner = outer[1].as_array()?;
    if inner.len() != 2 {
        return None;
    }
    Some(Span::new(inner[0].as_u64()? as usize, inner[1].as_u64()? as usize))
}

/// Writes a JSON form as tokens; `None` for leaves the scheme cannot express (numbers, nulls).
pub fn linearize(value: &Value) -> Option<Linear> {
    let mut out = Linear { tokens: Vec::new(), spans: Vec::new() };
    write(value, &mut out)?;
    Some(out)
}

fn write(value: &Value, out: &mut Linear) -> Option<()> {
    if let Some(span) = as_span(value) {
        out.tokens.push(SPAN.into());
        out.spans.push(span);
        return Some(());
    }
    match value {
        Value::Object(map) => {
            out.tokens.push(OPEN_OBJ.into());
            let mut keys: Vec<&String> = map.keys().collect();
            keys.sort_by_key(|k| key_rank(k));
            for key in keys {
                out.tokens.push(format!("k:{key}"));
                write(&map[key], out)?;
            }
            out.tokens.push(CLOSE_OBJ.into());
        }
        Value::Array(items) => {
            out.tokens.push(OPEN_LIST.into());
            for item in items {
                write(item, out)?;
            }
            out.tokens.push(CLOSE_LIST.into());
        }
        Value::String(s) => out.tokens.push(format!("v:{s}")),
        _ => return None,
    }
    Some(())
}

/// Rebuilds the JSON value from tokens and spans; `None` if the tokens are not well formed.
pub fn delinearize(tokens: &[String], spans: &[Span]) -> Option<Value> {
    let mut pos = 0;
    let mut span_pos = 0;
    let value = read(tokens, spans, &mut pos, &mut span_pos)?;
    (pos == tokens.len()).then_some(value)
}

fn read(tokens: &[String], spans: &[Span], pos: &mut usize, span_pos: &mut usize) -> Option<Value> {
    let token = tokens.get(*pos)?;
    *pos += 1;
    match token.as_str() {
        SPAN => {
            let span = spans.get(*span_pos)?;
            *span_pos += 1;
            Some(serde_json::json!([0, [span.start, span.end]]))
        }
        OPEN_OBJ => {
            let mut map = Map::new();
            loop {
                let next = tokens.get(*pos)?;
                if next == CLOSE_OBJ {
                    *pos += 1;
                    return Some(Value::Object(map));
                }
                let key = next.strip_prefix("k:")?.to_string();
                *pos += 1;
                let value = read(tokens, spans, pos, span_pos)?;
                map.insert(key, value);
            }
        }
        OPEN_LIST => {
            let mut items = Vec::new();
            loop {
                if tokens.get(*pos)? == CLOSE_LIST {
                    *pos += 1;
                    return Some(Value::Array(items));
                }
                items.push(read(tokens, spans, pos, span_pos)?);
            }
        }
        other => other.strip_prefix("v:").map(|s| Value::String(s.to_string())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip() {
        let json: Value = serde_json::from_str(
            r#"{"dialogue_type": "HUMAN_GIVE_COMMAND", "action_sequence": [{"action_type": "BUILD",
            "schematic": {"text_span": [0, [2, 2]]}}]}"#,
        )
        .unwrap();
        let lin = linearize(&json).unwrap();
        assert_eq!(lin.tokens[1], "k:dialogue_type");
        assert_eq!(lin.spans, vec![Span::new(2, 2)]);
        assert_eq!(delinearize(&lin.tokens, &lin.spans).unwrap(), json);
    }
}
