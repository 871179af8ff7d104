//! Recipes: a resolved command, kept as plain data so it can be turned into a task as often as
//! needed — once, N times, forever, or until a condition holds. A recipe is what the interpreter
//! decided; the task stack decides nothing about words.

use crate::tasks::{
    Build, Dance, Destroy, Dig, DigSize, Fill, Follow, Get, Give, Limits, Move, Spawn, Task, TaskError, TaskKind, Turn,
};
use crate::world::{Block, Pos, Vec3};

/// A dance or turn, as data.
#[derive(Clone, Debug, PartialEq)]
pub enum DanceSpec {
    Body(Turn),
    Head(Turn),
    LookAt(Vec3),
    PointAt(Vec3),
    Named { name: String, around: Option<Pos> },
}

#[derive(Clone, Debug, PartialEq)]
pub enum Recipe {
    MoveTo { pos: Pos, tolerance: i32, label: String },
    ComeHere(Pos),
    Follow(String),
    Build { blocks: Vec<(Pos, Block)>, label: String },
    Destroy { positions: Vec<Pos>, label: String },
    /// Dig a hole with its top layer at `top`; round `r` of a loop digs `r` holes deeper.
    Dig { top: Pos, size: DigSize },
    Fill { positions: Vec<Pos>, block: Block },
    Spawn { mob: String, at: Pos, count: u32 },
    Dance(DanceSpec),
    Get { at: Pos, label: String },
    Give { player: String, item: String, count: u32, at: Pos },
}

impl Recipe {
    pub fn kind(&self) -> TaskKind {
        match self {
            Recipe::MoveTo { .. } | Recipe::ComeHere(_) => TaskKind::Move,
            Recipe::Follow(_) => TaskKind::Follow,
            Recipe::Build { .. } => TaskKind::Build,
            Recipe::Destroy { .. } => TaskKind::Destroy,
            Recipe::Dig { .. } => TaskKind::Dig,
            Recipe::Fill { .. } => TaskKind::Fill,
            Recipe::Spawn { .. } => TaskKind::Spawn,
            Recipe::Dance(_) => TaskKind::Dance,
            Recipe::Get { .. } | Recipe::Give { .. } => TaskKind::Get,
        }
    }

    /// Make the task for round `round` (0 for a one-off).
    pub fn task(&self, limits: &Limits, round: u32) -> Result<Box<dyn Task>, TaskError> {
        Ok(match self {
            Recipe::MoveTo { pos, tolerance, label } => {
                let m = if *tolerance > 0 { Move::near(*pos, *tolerance) } else { Move::to(*pos) };
                Box::new(if label.is_empty() { m } else { m.labelled(label.clone()) })
            }
            Recipe::ComeHere(p) => Box::new(Move::come_here(*p)),
            Recipe::Follow(player) => Box::new(Follow::player(player.clone())),
            Recipe::Build { blocks, label } => Box::new(Build::new(blocks.clone(), label.clone(), limits)?),
            Recipe::Destroy { positions, label } => Box::new(Destroy::new(positions.clone(), label.clone(), limits)?),
            Recipe::Dig { top, size } => Box::new(Dig::new(top.down(size.depth * round as i32), *size, limits)?),
            Recipe::Fill { positions, block } => Box::new(Fill::new(positions.clone(), *block, limits)?),
            Recipe::Spawn { mob, at, count } => Box::new(Spawn::new(mob.clone(), *at).times(*count)),
            Recipe::Dance(d) => Box::new(match d {
                DanceSpec::Body(t) => Dance::turn(*t),
                DanceSpec::Head(t) => Dance::turn_head(*t),
                DanceSpec::LookAt(p) => Dance::look_at(*p),
                DanceSpec::PointAt(p) => Dance::point_at(*p),
                DanceSpec::Named { name, around } => Dance::named(name, *around).unwrap_or_else(|| Dance::spin(true)),
            }),
            Recipe::Get { at, label } => Box::new(Get::new(*at, label.clone())),
            Recipe::Give { player, item, count, at } => Box::new(Give::new(player.clone(), item.clone(), *count).walking_to(*at)),
        })
    }
}
