//! PAINT: "paint the tower red", "make it black", "turn the cube into glass". The thing keeps its
//! shape and its name; each of its blocks becomes one of the new colour or material (a dyed
//! block keeps its kind: red concrete becomes blue concrete), laid over the old ones as a build
//! of that same thing, so "undo" puts the old look back.

use crate::interpreter::describe;
use crate::interpreter::recipe::{Making, Recipe};
use crate::interpreter::reference::{self, Want};
use crate::logical_form::{Action, Predicate};
use crate::memory::{MemoryId, Source};
use crate::schematics::chosen_block;
use crate::tasks::{Build as BuildTask, Limits, Task, TaskError, TaskKind, Times};
use crate::world::{Block, Pos};

use super::{Plan, push};
use crate::interpreter::context::Turn;
use crate::interpreter::problem::{Problem, Result};

/// Lay these blocks over each thing: `(object, its new blocks)`.
#[derive(Debug, Clone, PartialEq)]
pub struct Paint {
    pub parts: Vec<(MemoryId, Vec<(Pos, Block)>)>,
    pub label: String,
}

impl Recipe for Paint {
    fn kind(&self) -> TaskKind {
        TaskKind::Build
    }
    fn task(&self, limits: &Limits, _: u32) -> std::result::Result<Box<dyn Task>, TaskError> {
        let blocks = self.parts.iter().flat_map(|(_, b)| b.iter().copied()).collect();
        Ok(Box::new(BuildTask::new(blocks, self.label.clone(), limits)?.said_as("painting")))
    }
    fn doing(&self, label: &str, _: &str) -> String {
        format!("painting {label}")
    }
    /// The thing's plan becomes its new look: what memory holds it to be while it changes.
    fn makes(&self, _: &str) -> Vec<Making> {
        self.parts.iter().map(|(id, blocks)| Making::Existing(*id, blocks.clone())).collect()
    }
    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}

pub(super) fn paint(turn: &mut Turn, a: &Action) -> Result<Plan> {
    let r = a.reference_object.as_ref().and_then(|r| r.as_object()).ok_or_else(|| Problem::say("What should I paint?"))?;
    // "paint them blue": everything made or talked about together; else the one thing meant.
    let found = if reference::points_at_several(turn, r) { reference::resolve(turn, r, Want::Blocks)? } else { vec![reference::resolve_one(turn, r, Want::Blocks)?] };
    let (colour, material) = look(turn, a);
    let new = chosen_block(colour.as_deref(), material.as_deref())
        .map_err(|e| Problem::say(e.to_string()))?
        .ok_or_else(|| Problem::say("What colour should I paint it?"))?;
    let said = [colour.as_deref(), material.as_deref()].into_iter().flatten().collect::<Vec<_>>().join(" ");
    let mut parts = Vec::new();
    let mut already = None;
    for f in &found {
        let id = f.id().ok_or_else(|| Problem::say("I can only paint things that were built, not the ground itself."))?;
        let blocks = repainted_blocks(turn, id, new, colour.is_some() && material.is_none())?;
        if blocks.is_empty() {
            already.get_or_insert(id);
        } else {
            parts.push((id, blocks));
        }
    }
    if let (true, Some(id)) = (parts.is_empty(), already) {
        let before = describe::the(turn.memory, id);
        let mut it = before.chars();
        let the = it.next().map(|c| c.to_uppercase().chain(it).collect::<String>()).unwrap_or_default();
        // "stone" is built as stone bricks: say so, so the player can name another block.
        let block = new.name().replace('_', " ");
        if material.is_some() && block != said {
            return Err(Problem::say(format!("{the} is {said} already: it's {block}, which is what I use for \"{said}\". Name another block for another look.")));
        }
        return Err(Problem::say(format!("{the} is {said} already.")));
    }
    turn.allowed(parts.iter().flat_map(|(_, b)| b.iter().map(|(_, b)| b.name())))?;
    let before = match parts.as_slice() {
        [(id, _)] => describe::the(turn.memory, *id),
        _ => format!("the {} things", parts.len()),
    };
    // What the player says it is now is what it is called by ("the red tower").
    parts.iter().for_each(|(id, _)| forget_told_look(turn, *id));
    let label = format!("{before} {said}");
    Ok(push(Paint { parts, label: label.clone() }, Times::Count(1), label))
}

/// The blocks that give `id` its new look `new` (a dyed block keeps its kind when only a colour
/// was said), less those already so; a house keeps its roof, floor and windows, as "build a red
/// house" would.
fn repainted_blocks(turn: &Turn, id: MemoryId, new: Block, dyed: bool) -> Result<Vec<(Pos, Block)>> {
    let Some(obj) = turn.memory.block_object(id)? else { return Err(Problem::say("There is nothing there for me to paint.")) };
    let kept = kept_parts(turn, id);
    let changed = |keep: &[Block]| -> Vec<(Pos, Block)> {
        obj.blocks
            .iter()
            .filter(|(_, b)| !keep.contains(b))
            .map(|(p, b)| (*p, repainted(*b, new, dyed)))
            .filter(|(p, b)| turn.world.block_at(*p) != *b)
            .collect()
    };
    Ok(Some(changed(&kept)).filter(|b| !b.is_empty()).unwrap_or_else(|| changed(&[])))
}

/// The blocks of `id`'s shape that its colour does not change (a house's roof, floor and
/// windows), by the shape its name or perception gives it.
fn kept_parts(turn: &Turn, id: MemoryId) -> Vec<Block> {
    let names = ["has_name", "has_shape"].into_iter().flat_map(|p| turn.memory.values_of(id, p).unwrap_or_default());
    names.map(|n| crate::schematics::kept_when_coloured(&n)).find(|k| !k.is_empty()).unwrap_or_default()
}

/// The colour and the material the form gives the thing's new look.
fn look(turn: &Turn, a: &Action) -> (Option<String>, Option<String>) {
    let mut colour = None;
    let mut material = None;
    for t in a.schematic.iter().flat_map(|s| s.filters.iter()).flat_map(|f| f.triples()) {
        let Some(span) = t.obj_span() else { continue };
        let words = turn.words(span).join(" ");
        match t.pred_text {
            Predicate::HasColour => colour = Some(words),
            Predicate::HasBlockType => material = Some(words),
            _ => {}
        }
    }
    (colour, material)
}

/// The block that takes `old`'s place: with only a colour said, a dyed block keeps its kind
/// (red concrete → blue concrete); otherwise the block the words chose (a colour that names a
/// block, "gold", is that block).
fn repainted(old: Block, new: Block, colour_only: bool) -> Block {
    let (Some(was), Some(now)) = (old.colour(), new.colour()) else { return new };
    // Only a colour's own plain block (its wool) stands for "that colour, whatever kind".
    if !colour_only || Block::from_name(&format!("{now}_wool")) != Some(new) {
        return new;
    }
    old.name().strip_prefix(&format!("{was}_")).and_then(|kind| Block::from_name(&format!("{now}_{kind}"))).unwrap_or(new)
}

/// The colour and material the thing was told to have go, whichever the painting changed (a
/// colour alone may change the material too: a brick wall painted white is white wool, and
/// red concrete painted blue is no longer "red concrete"): from now on they are what its
/// blocks show, as perception sees them, so an undo of the painting brings the old look back
/// in memory too.
fn forget_told_look(turn: &mut Turn, id: MemoryId) {
    let gone = |pred: &str| pred == "has_block_type" || pred == "has_colour";
    let old: Vec<MemoryId> = turn
        .memory
        .triples_of(id)
        .unwrap_or_default()
        .into_iter()
        .filter(|t| t.source == Source::Told && gone(&t.pred))
        .map(|t| t.id)
        .collect();
    for triple in old {
        let _ = turn.memory.remove_triple(triple);
    }
}
