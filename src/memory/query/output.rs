//! Stage 4: what the question asked for — the memories, how many, or an attribute of each.
//!
//! NAME prefers what a player called the thing, then perception's name (a mob's kind, a player's
//! name, the agent's own name), then its shape guess, then its kind; a task's NAME is its
//! description. COLOUR, TAG and BLOCK_TYPE list the matching triples. Measures (HEIGHT, SIZE as a
//! cell count when no size class is stored, X/Y/Z, times) are numbers; LOCATION is a position.

use super::super::error::Result;
use super::super::store::Memory;
use super::super::types::MemoryKind;
use super::candidates::Candidate;
use super::selector::{Measure, attribute_value};
use super::{Answer, Hit, QueryResult, Resolved};
use crate::logical_form::{ArgVal, Attribute, AttributeName, Filters, OutputKind, Output, Polarity, Quantity};
use crate::world::Vec3;

/// One attribute value of one memory.
#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    Text(String),
    /// Several texts (all colours of a two-coloured house).
    Texts(Vec<String>),
    Number(f64),
    Position(Vec3),
    /// The memory has no such attribute.
    Missing,
}

impl std::fmt::Display for Value {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Value::Text(t) => f.write_str(t),
            Value::Texts(ts) => f.write_str(&ts.join(" and ")),
            Value::Number(n) if n.fract() == 0.0 => write!(f, "{}", *n as i64),
            Value::Number(n) => write!(f, "{n:.1}"),
            Value::Position(p) => write!(f, "({:.0}, {:.0}, {:.0})", p.x.floor(), p.y.floor(), p.z.floor()),
            Value::Missing => f.write_str("unknown"),
        }
    }
}

pub fn answer(memory: &Memory, filters: &Filters, picked: Vec<Candidate>, env: &Resolved, depth: usize) -> Result<QueryResult> {
    let hits: Vec<Hit> =
        picked.iter().map(|c| Hit { id: c.id, kind: c.kind, pos: c.pos, bbox: c.bbox }).collect();
    let answer = match &filters.output {
        None | Some(Output::Kind(OutputKind::Memory)) => Answer::Memories,
        Some(Output::Kind(OutputKind::Count)) => Answer::Count(hits.len()),
        Some(Output::Attribute(out)) => {
            let mut values = Vec::with_capacity(picked.len());
            match &out.attribute {
                Attribute::Name(name) => {
                    for c in &picked {
                        values.push(named_value(memory, *name, c, env)?);
                    }
                }
                // A linear extent ("how far is the house from me"): a distance.
                Attribute::Object(_) => {
                    let argval = ArgVal {
                        polarity: Polarity::Min,
                        quantity: Quantity { attribute: Some(out.attribute.clone()), location: None },
                    };
                    let measure = Measure::of(memory, &argval, env, depth)?;
                    for c in &picked {
                        values.push(measure.value(c, env).map(Value::Number).unwrap_or(Value::Missing));
                    }
                }
            }
            Answer::Values(values)
        }
    };
    Ok(QueryResult { hits, answer })
}

/// The texts as one value, each once: a colour both perceived and said ("red") is one colour.
fn texts(mut v: Vec<String>) -> Value {
    let mut seen = std::collections::HashSet::new();
    v.retain(|t| seen.insert(t.clone()));
    match v.len() {
        0 => Value::Missing,
        1 => Value::Text(v.into_iter().next().unwrap_or_default()),
        _ => Value::Texts(v),
    }
}

/// The value of a named attribute for one memory.
pub fn named_value(memory: &Memory, name: AttributeName, c: &Candidate, env: &Resolved) -> Result<Value> {
    Ok(match name {
        AttributeName::Name => Value::Text(display_name(memory, c)?),
        AttributeName::Colour => texts(memory.values_of(c.id, "has_colour")?),
        AttributeName::BlockType => texts(memory.values_of(c.id, "has_block_type")?),
        AttributeName::Tag => {
            let mut tags = memory.values_of(c.id, "has_tag")?;
            tags.extend(memory.values_of(c.id, "has_name")?);
            texts(tags)
        }
        AttributeName::Location => c.pos.map(Value::Position).unwrap_or(Value::Missing),
        AttributeName::Size => match memory.values_of(c.id, "has_size")?.into_iter().next() {
            Some(class) => Value::Text(class),
            None => attribute_value(name, c, env).map(Value::Number).unwrap_or(Value::Missing),
        },
        other => attribute_value(other, c, env).map(Value::Number).unwrap_or(Value::Missing),
    })
}

/// What to call a memory in an answer.
pub fn display_name(memory: &Memory, c: &Candidate) -> Result<String> {
    if c.kind == MemoryKind::Task
        && let Some(task) = memory.task(c.id)?
    {
        return Ok(if task.description.is_empty() { task.action.to_lowercase() } else { task.description });
    }
    for pred in ["has_name", "has_tag", "has_shape"] {
        if let Some(v) = memory.values_of(c.id, pred)?.into_iter().next() {
            return Ok(v);
        }
    }
    Ok(match c.kind {
        MemoryKind::BlockObject => "structure".into(),
        other => other.as_str().replace('_', " "),
    })
}
