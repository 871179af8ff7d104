//! BUILD of an existing thing: "copy that", "build another one like the tower". The copy is a
//! [`Build`] of the original's blocks, placed beside it on the speaker's right unless told where.

use super::build::{Build, place};
use crate::interpreter::describe;
use crate::interpreter::location::{self, Purpose, Target};
use crate::interpreter::reference::{self, Want};
use crate::logical_form::Action;
use crate::memory::Made;
use crate::schematics::Schematic;
use crate::tasks::Times;
use crate::world::Pos;

use super::{Plan, push};
use crate::interpreter::context::Turn;
use crate::interpreter::problem::{Problem, Result};

/// "copy that", "build another one like the tower": a Build of an existing object's blocks.
pub(super) fn copy(turn: &mut Turn, a: &Action, times: Times) -> Result<Plan> {
    let r = a.reference_object.as_ref().and_then(|r| r.as_object()).ok_or_else(|| Problem::say("What should I copy?"))?;
    let found = reference::resolve_one(turn, r, Want::Blocks)?;
    let id = found.id().ok_or_else(|| Problem::say("I can only copy things that were built."))?;
    let obj = turn.memory.block_object(id)?.ok_or_else(|| Problem::say("I can't find the blocks of that."))?;
    let sch = Schematic::new(format!("copy of {}", describe::noun(turn.memory, id)), obj.blocks.clone());
    let target = match &a.location {
        Some(l) => location::resolve(turn, l, Purpose::Place)?,
        None => {
            // Beside the original, on the speaker's right.
            let r = crate::interpreter::directions::right(turn.speaker_look);
            let s = obj.bbox.size();
            let shift = if r.x != 0 { s[0] + 2 } else { s[2] + 2 };
            let c = reference::centre(&obj.bbox).block();
            Target { anchor: Some(obj.bbox), step: Some(r), ..Target::at(c + Pos::new(r.x * shift, 0, r.z * shift)) }
        }
    };
    let blocks = place(turn, &sch, &target);
    let label = format!("a copy of {}", describe::the(turn.memory, id));
    // The copy is what the original is: a copy of the house is a house.
    let first = |pred: &str| turn.memory.values_of(id, pred).ok().and_then(|v| v.into_iter().next());
    let name = first("has_name").or_else(|| first("has_shape")).unwrap_or_else(|| "structure".into());
    let made = Made { name, colour: first("has_colour"), block_type: None, speaker: String::new() };
    turn.allowed(blocks.iter().map(|(_, b)| b.name()))?;
    Ok(push(Build::making(blocks, label.clone(), made, 1), times, label))
}

