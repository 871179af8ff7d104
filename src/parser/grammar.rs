//! The decoding grammar: which token may come next, so every decoded sequence is well-formed JSON
//! in the logical form's shape.
//!
//! The grammar is read off the training forms (the schema in its observed use): for each *context*
//! — the node's key and its parent's key, e.g. `schematic>filters` — it records which keys an object
//! there may hold and which values (object, list, span, enumerated strings) may stand there.
//! Decoding walks a stack of open objects and lists and only offers tokens the grammar allows; keys
//! never repeat in an object. Two levels of context keep it compositional: a `filters` node under a
//! `schematic` accepts every key any training `schematic>filters` had, in any combination.
//! The strict [`LogicalForm`](crate::logical_form::LogicalForm) parse and `validate` run afterwards.

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::linearize::{self, CLOSE_LIST, CLOSE_OBJ, EOS, OPEN_LIST, OPEN_OBJ, SPAN};

/// The context of the root value.
pub const ROOT: &str = "^";

/// What may stand as a value in one context.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct Slot {
    pub object: bool,
    pub list: bool,
    pub span: bool,
    pub strings: BTreeSet<String>,
}

/// Allowed keys per object context and allowed values per value context.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct Grammar {
    pub keys: BTreeMap<String, BTreeSet<String>>,
    pub values: BTreeMap<String, Slot>,
}

fn last(ctx: &str) -> &str {
    ctx.rsplit('>').next().unwrap_or(ctx)
}

/// Context of the value stored under `key` in an object whose own context is `ctx`.
pub fn child(ctx: &str, key: &str) -> String {
    format!("{}>{key}", last(ctx))
}

/// Context of the elements of a list whose context is `ctx`.
pub fn element(ctx: &str) -> String {
    format!("{ctx}[]")
}

impl Grammar {
    /// Adds everything `other` allows (the union of two grammars).
    pub fn merge(&mut self, other: &Grammar) {
        for (ctx, keys) in &other.keys {
            self.keys.entry(ctx.clone()).or_default().extend(keys.iter().cloned());
        }
        for (ctx, slot) in &other.values {
            let mine = self.values.entry(ctx.clone()).or_default();
            mine.object |= slot.object;
            mine.list |= slot.list;
            mine.span |= slot.span;
            mine.strings.extend(slot.strings.iter().cloned());
        }
    }

    /// Adds one training form.
    pub fn observe(&mut self, value: &Value) {
        self.observe_at(ROOT, value);
    }

    fn observe_at(&mut self, ctx: &str, value: &Value) {
        let slot = self.values.entry(ctx.to_string()).or_default();
        if linearize::as_span(value).is_some() {
            slot.span = true;
            return;
        }
        match value {
            Value::Object(map) => {
                slot.object = true;
                let keys = self.keys.entry(ctx.to_string()).or_default();
                keys.extend(map.keys().cloned());
                for (key, v) in map {
                    self.observe_at(&child(ctx, key), v);
                }
            }
            Value::Array(items) => {
                slot.list = true;
                for item in items {
                    self.observe_at(&element(ctx), item);
                }
            }
            Value::String(s) => {
                slot.strings.insert(s.clone());
            }
            _ => {}
        }
    }

    /// Value tokens allowed in context `ctx`.
    fn value_tokens(&self, ctx: &str, out: &mut Vec<String>) {
        if let Some(slot) = self.values.get(ctx) {
            if slot.object {
                out.push(OPEN_OBJ.into());
            }
            if slot.list {
                out.push(OPEN_LIST.into());
            }
            if slot.span {
                out.push(SPAN.into());
            }
            out.extend(slot.strings.iter().map(|s| format!("v:{s}")));
        }
    }
}

/// One open container during decoding.
#[derive(Debug, Clone)]
enum Frame {
    Object { ctx: String, used: Vec<String>, pending: Option<String> },
    List { ctx: String },
}

/// The decoding automaton: feed it tokens, ask it what may come next.
#[derive(Debug, Clone)]
pub struct State<'g> {
    grammar: &'g Grammar,
    stack: Vec<Frame>,
    started: bool,
    finished: bool,
}

impl<'g> State<'g> {
    pub fn new(grammar: &'g Grammar) -> Self {
        State { grammar, stack: Vec::new(), started: false, finished: false }
    }

    /// True once the root value is complete.
    pub fn is_complete(&self) -> bool {
        self.finished
    }

    /// How many containers are open.
    pub fn depth(&self) -> usize {
        self.stack.len()
    }

    /// The context a value would have if one were written now.
    fn value_ctx(&self) -> Option<String> {
        match self.stack.last() {
            None => (!self.started).then(|| ROOT.to_string()),
            Some(Frame::Object { ctx, pending: Some(key), .. }) => Some(child(ctx, key)),
            Some(Frame::Object { pending: None, .. }) => None,
            Some(Frame::List { ctx }) => Some(element(ctx)),
        }
    }

    /// The tokens the grammar allows next.
    pub fn allowed(&self) -> Vec<String> {
        let mut out = Vec::new();
        if self.finished {
            out.push(EOS.into());
            return out;
        }
        if let Some(ctx) = self.value_ctx() {
            self.grammar.value_tokens(&ctx, &mut out);
        }
        match self.stack.last() {
            Some(Frame::Object { ctx, used, pending: None }) => {
                if let Some(keys) = self.grammar.keys.get(ctx) {
                    out.extend(keys.iter().filter(|k| !used.contains(k)).map(|k| format!("k:{k}")));
                }
                // An object needs at least one key (every annotated object has one).
                if !used.is_empty() {
                    out.push(CLOSE_OBJ.into());
                }
            }
            Some(Frame::List { .. }) => out.push(CLOSE_LIST.into()),
            _ => {}
        }
        out
    }

    /// Applies a token the grammar allowed.
    pub fn push(&mut self, token: &str) {
        match token {
            OPEN_OBJ | OPEN_LIST => {
                let ctx = self.value_ctx().unwrap_or_else(|| ROOT.to_string());
                self.started = true;
                self.stack.push(if token == OPEN_OBJ {
                    Frame::Object { ctx, used: Vec::new(), pending: None }
                } else {
                    Frame::List { ctx }
                });
            }
            CLOSE_OBJ | CLOSE_LIST => {
                self.stack.pop();
                self.value_done();
            }
            EOS => {}
            key if key.starts_with("k:") => {
                if let Some(Frame::Object { used, pending, .. }) = self.stack.last_mut() {
                    used.push(key[2..].to_string());
                    *pending = Some(key[2..].to_string());
                }
            }
            _ => self.value_done(),
        }
    }

    /// A value finished: the enclosing object waits for its next key again.
    fn value_done(&mut self) {
        self.started = true;
        match self.stack.last_mut() {
            None => self.finished = true,
            Some(Frame::Object { pending, .. }) => *pending = None,
            Some(Frame::List { .. }) => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_training_form_is_accepted_token_by_token() {
        let json: Value = serde_json::from_str(
            r#"{"dialogue_type": "HUMAN_GIVE_COMMAND", "action_sequence": [{"action_type": "BUILD",
            "schematic": {"text_span": [0, [2, 2]]}}]}"#,
        )
        .unwrap();
        let mut grammar = Grammar::default();
        grammar.observe(&json);
        let lin = linearize::linearize(&json).unwrap();
        let mut state = State::new(&grammar);
        for token in &lin.tokens {
            assert!(state.allowed().contains(token), "{token} not allowed");
            state.push(token);
        }
        assert!(state.is_complete());
        assert_eq!(state.allowed(), vec![EOS.to_string()]);
    }
}
