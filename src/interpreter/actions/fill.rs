//! FILL: "fill that hole", "fill the hole with sand". Without a named material the hole is filled
//! with what was dug out of it (mostly).

use crate::interpreter::recipe::Recipe;
use crate::interpreter::reference::{self, Want};
use crate::logical_form::{Action, Predicate};
use crate::schematics::chosen_block;
use crate::tasks::{Fill as FillTask, Limits, Task, TaskError, TaskKind, Times};
use crate::world::{Block, Pos};

use super::{Plan, push};
use crate::interpreter::context::Turn;
use crate::interpreter::problem::{Problem, Result};

/// Place `block` at these positions.
#[derive(Debug, Clone, PartialEq)]
pub struct Fill {
    pub positions: Vec<Pos>,
    pub block: Block,
}

impl Recipe for Fill {
    fn kind(&self) -> TaskKind {
        TaskKind::Fill
    }
    fn task(&self, limits: &Limits, _: u32) -> std::result::Result<Box<dyn Task>, TaskError> {
        Ok(Box::new(FillTask::new(self.positions.clone(), self.block, limits)?))
    }
    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}

pub(super) fn fill(turn: &mut Turn, a: &Action, times: Times) -> Result<Plan> {
    let r = a.reference_object.as_ref().and_then(|r| r.as_object()).ok_or_else(|| Problem::say("What should I fill?"))?;
    let hole = match reference::resolve_one(turn, r, Want::Holes) {
        Ok(found) => {
            let id = found.id().ok_or_else(|| Problem::say("I don't see a hole there."))?;
            turn.memory.block_object(id)?.ok_or_else(|| Problem::say("I don't see a hole there."))?.blocks
        }
        // "dig a hole and fill it": the cells the dig emptied, if memory has not seen the hole yet.
        Err(e) => match dug_earlier(turn) {
            Some(cells) => cells,
            None => return Err(e),
        },
    };
    // A named material, else what was dug out (mostly).
    let named = a.schematic.as_ref().and_then(|s| s.filters.as_ref()).map(|f| {
        let word = |p: Predicate| f.triples().into_iter().find(|t| t.pred_text == p).and_then(|t| t.obj_span()).map(|s| turn.text_of(s));
        (word(Predicate::HasColour), word(Predicate::HasBlockType))
    });
    // A block named exactly fills as itself ("fill it with water", "with sand"): a fill may use
    // what a build would not (a liquid, a falling block).
    let exact = named.as_ref().and_then(|(_, m)| m.as_deref()).and_then(|m| Block::from_name(&m.replace(' ', "_")));
    let block = match named {
        _ if exact.is_some() => exact,
        Some((c, m)) if c.is_some() || m.is_some() => chosen_block(c.as_deref(), m.as_deref()).map_err(|e| Problem::say(e.to_string()))?,
        _ => None,
    };
    let block = block.unwrap_or_else(|| {
        let mut counts: Vec<(Block, usize)> = Vec::new();
        for (_, b) in &hole {
            match counts.iter_mut().find(|(x, _)| x == b) {
                Some((_, n)) => *n += 1,
                None => counts.push((*b, 1)),
            }
        }
        counts.into_iter().filter(|(b, _)| b.is_solid()).max_by_key(|(_, n)| *n).map(|(b, _)| b).unwrap_or_else(|| Block::from_name("dirt").unwrap_or(Block::AIR))
    });
    let positions: Vec<Pos> = hole.iter().map(|(p, _)| *p).collect();
    Ok(push(Fill { positions, block }, times, format!("filling the hole with {}", crate::lexicon::lexicon().display_name(block.name()))))
}


/// The cells an earlier step of the line emptied and that are still empty, with what was there
/// (a dig's changes: what was dug out).
fn dug_earlier(turn: &Turn) -> Option<Vec<(Pos, Block)>> {
    let a = turn.antecedent.as_ref()?;
    let cells: Vec<(Pos, Block)> = a.dug.iter().copied().filter(|(p, _)| !turn.world.block_at(*p).is_solid()).collect();
    (!cells.is_empty()).then_some(cells)
}
