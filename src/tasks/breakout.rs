//! Breaking out: the agent is shut in — a player walled it in, or a dome closed over it — and no
//! walk or climb gets it out. In creative a wall is no prison: it walks to the thinnest wall on
//! the side it wants to go, cuts a doorway two blocks high through it, steps outside, and puts
//! back every block it broke, so the wall (or the build) stands as it did. [`Move`] pushes this
//! when its walker reports the agent shut in.
//!
//! [`Move`]: super::movement::Move

use super::{Step, Task, TaskContext, TaskKind};
use crate::world::rules::{self, unbreakable};
use crate::world::{Block, Pos, World};

/// The thickest wall the agent will cut through, and how far inside it looks for a wall.
const MAX_WALL: i32 = 4;
const MAX_ROOM: i32 = 24;

/// A way out: walk `inside` steps along `dir`, cut `wall` cells (feet and head level), then the
/// cell after them is open ground.
#[derive(Debug, Clone, PartialEq)]
struct Exit {
    dir: Pos,
    inside: i32,
    wall: i32,
    breaks: Vec<Pos>,
}

/// Where the agent is in its way out.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Phase {
    /// Walking (and cutting) outwards; the number of steps taken.
    Out(i32),
    /// Outside: putting back the blocks broken, the number put back so far.
    Mend(usize),
}

pub struct BreakOut {
    toward: Pos,
    exit: Option<Exit>,
    phase: Phase,
    /// What each broken cell held, in the order broken.
    broken: Vec<(Pos, Block)>,
    missing: usize,
}

impl BreakOut {
    /// Break out on the side nearest `toward` (where the agent wanted to go).
    pub fn toward(toward: Pos) -> BreakOut {
        BreakOut { toward, exit: None, phase: Phase::Out(0), broken: Vec::new(), missing: 0 }
    }
}

/// The cheapest way out from `here`: fewest blocks to break, then the side facing `toward`.
fn find_exit(world: &dyn World, here: Pos, toward: Pos) -> Option<Exit> {
    let solid = |p: Pos| world.block_at(p).is_solid();
    let mut best: Option<(i32, i32, Exit)> = None;
    for dir in [Pos::new(1, 0, 0), Pos::new(-1, 0, 0), Pos::new(0, 0, 1), Pos::new(0, 0, -1)] {
        // Walk inside while the way is open and has a floor.
        let mut inside = 0;
        while inside < MAX_ROOM {
            let next = here + Pos::new(dir.x * (inside + 1), 0, dir.z * (inside + 1));
            if solid(next) || solid(next.up(1)) || !solid(next.down(1)) {
                break;
            }
            inside += 1;
        }
        // Then through the wall to open ground.
        let mut breaks = Vec::new();
        let mut wall = 0;
        let mut out = false;
        for k in 1..=MAX_WALL + 1 {
            let c = here + Pos::new(dir.x * (inside + k), 0, dir.z * (inside + k));
            if !solid(c) && !solid(c.up(1)) {
                out = solid(c.down(1)) && wall > 0;
                break;
            }
            if [c, c.up(1)].iter().any(|p| solid(*p) && unbreakable(world.block_at(*p))) {
                break;
            }
            breaks.extend([c, c.up(1)].into_iter().filter(|p| solid(*p)));
            wall += 1;
        }
        if !out {
            continue;
        }
        let end = here + Pos::new(dir.x * (inside + wall + 1), 0, dir.z * (inside + wall + 1));
        let score = (breaks.len() as i32, end.manhattan(toward));
        if best.as_ref().is_none_or(|(n, d, _)| score < (*n, *d)) {
            best = Some((score.0, score.1, Exit { dir, inside, wall, breaks }));
        }
    }
    best.map(|(_, _, e)| e)
}

impl Task for BreakOut {
    fn kind(&self) -> TaskKind {
        TaskKind::Move
    }

    fn describe(&self) -> String {
        "breaking out (I'll put the blocks back)".into()
    }

    fn step(&mut self, ctx: &mut TaskContext) -> Step {
        let here = ctx.world.agent_pos();
        if self.exit.is_none() {
            match find_exit(&*ctx.world, here, self.toward) {
                Some(e) => {
                    ctx.note("I'm shut in, so I'm breaking out; I'll put the blocks back.".to_string());
                    self.exit = Some(e);
                }
                None => return Step::Failed("I'm shut in and can't find a wall thin enough to break through".into()),
            }
        }
        let exit = self.exit.clone().expect("set above");
        match self.phase {
            Phase::Out(k) if k > exit.inside + exit.wall => {
                self.phase = Phase::Mend(0);
                Step::Continue
            }
            Phase::Out(k) => {
                let next = here + exit.dir;
                // Cut the doorway one block a tick, then step into it.
                for p in [next.up(1), next] {
                    let b = ctx.world.block_at(p);
                    if b.is_solid() {
                        return match ctx.break_block(p) {
                            Ok(()) => {
                                self.broken.push((p, b));
                                Step::Continue
                            }
                            Err(e) => Step::Failed(format!("I'm shut in and couldn't break out: {e}")),
                        };
                    }
                }
                match ctx.world.step_to(next) {
                    Ok(()) => {
                        self.phase = Phase::Out(k + 1);
                        Step::Continue
                    }
                    Err(e) => Step::Failed(format!("I'm shut in and couldn't get out: {e}")),
                }
            }
            // Put back the doorway from outside, nearest block first.
            Phase::Mend(n) => {
                let Some(&(p, b)) = self.broken.iter().rev().nth(n).filter(|_| n < self.broken.len()) else {
                    let msg = if self.missing == 0 {
                        "I'm out, and the wall is as it was.".to_string()
                    } else {
                        format!("I'm out; {} blocks of the wall could not be put back.", self.missing)
                    };
                    return Step::Done(msg);
                };
                self.phase = Phase::Mend(n + 1);
                if ctx.world.block_at(p) == b {
                    return Step::Continue;
                }
                if rules::in_body(p, ctx.world.agent_pos()) || ctx.place(p, b).is_err() {
                    self.missing += 1;
                }
                Step::Continue
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tasks::testing::{block, run_task};
    use crate::world::embedded::EmbeddedWorld;
    use crate::world::{Actor, BBox, World};

    /// A closed glass box around the agent at the origin.
    fn boxed_in() -> EmbeddedWorld {
        let mut w = EmbeddedWorld::flat();
        let glass = block("glass");
        w.fill_by(BBox::new(Pos::new(-2, 5, -2), Pos::new(2, 8, 2)), glass, Actor::Player("alice".into()));
        w.fill_by(BBox::new(Pos::new(-1, 5, -1), Pos::new(1, 7, 1)), Block::AIR, Actor::Player("alice".into()));
        w
    }

    #[test]
    fn a_walled_in_agent_gets_out_and_the_wall_is_whole_again() {
        let mut w = boxed_in();
        let before = w.clone();
        let (state, msg) = run_task(&mut w, BreakOut::toward(Pos::new(20, 5, 0)), 200);
        assert_eq!(state, crate::tasks::TaskState::Done, "{msg}");
        let a = w.agent_pos();
        assert!(a.x.abs() > 2 || a.z.abs() > 2, "outside the box: {a}");
        assert_eq!(a.x, 3, "on the side it wanted to go: {a}");
        assert_eq!(w.same_blocks(&before), None, "every broken block is back");
    }
}
