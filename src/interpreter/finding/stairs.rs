//! An ore vein and a staircase down to it that is safe to walk: three blocks high so the bot
//! can climb back, one block down a step, dug only through what the world made, with solid
//! ground under every step and no water or lava beside any cell (nothing floods the stairs).

use crate::world::{Pos, World};
use rustc_hash::FxHashSet;
use std::collections::VecDeque;

/// The deepest staircase dug for one vein (steps).
const MAX_STEPS: i32 = 100;
/// The most ore blocks taken as one vein.
const MAX_VEIN: usize = 16;

/// Ore blocks to take and the cells to clear to reach them.
#[derive(Debug, Clone, PartialEq)]
pub struct Vein {
    pub ore: Vec<Pos>,
    pub stairs: Vec<Pos>,
}

/// The blocks of the vein `start` is in (same block, touching), up to `most`.
pub fn vein(world: &dyn World, start: Pos, most: usize) -> Vec<Pos> {
    let kind = world.block_at(start);
    let mut seen = FxHashSet::from_iter([start]);
    let mut queue = VecDeque::from([start]);
    let mut out = Vec::new();
    while let Some(p) = queue.pop_front() {
        out.push(p);
        if out.len() >= most.min(MAX_VEIN * 4) {
            break;
        }
        for n in p.faces() {
            if world.block_at(n) == kind && seen.insert(n) {
                queue.push_back(n);
            }
        }
    }
    out
}

/// The first air above the ground of column (x, z), searching down from `top`.
fn surface(world: &dyn World, x: i32, z: i32, top: i32) -> i32 {
    let mut y = top;
    while y > crate::world::rules::MIN_Y && !world.block_at(Pos::new(x, y - 1, z)).is_solid() {
        y -= 1;
    }
    y
}

/// The side of the square the staircase winds around: it turns every `SIDE - 1` steps, so the
/// whole staircase stays within a few blocks of the ore (a walk's search box holds it).
const SIDE: i32 = 5;

/// A winding staircase from the surface down to `ore`: from the ore's column it climbs one
/// block a step around a square, setting off along `(dx, dz)` and turning `turn` (±1) at each
/// corner, until it reaches a column whose surface is no higher than the step; `None` when no
/// safe one exists that way.
fn stairs_towards(world: &dyn World, ore: Pos, dx: i32, dz: i32, turn: i32, top: i32) -> Option<Vec<Pos>> {
    let mut columns = vec![(ore.x, ore.z, ore.y)];
    let (mut x, mut z, mut d) = (ore.x, ore.z, (dx, dz));
    for k in 1..=MAX_STEPS {
        if (k - 1) % (SIDE - 1) == 0 && k > 1 {
            d = (-d.1 * turn, d.0 * turn);
        }
        x += d.0;
        z += d.1;
        columns.push((x, z, ore.y + k));
        if surface(world, x, z, top) <= ore.y + k {
            let mut out = Vec::new();
            for &(x, z, feet) in &columns {
                let floor = Pos::new(x, feet - 1, z);
                if !world.block_at(floor).is_solid() {
                    return None;
                }
                for dy in 0..3 {
                    let p = Pos::new(x, feet + dy, z);
                    let b = world.block_at(p);
                    if b.is_air() {
                        continue;
                    }
                    if !world.made_by_world(p) || crate::world::rules::unbreakable(b) {
                        return None;
                    }
                    out.push(p);
                }
            }
            return Some(out);
        }
    }
    None
}

/// Headroom over each ore block: a pocket the bot steps into has room to climb back out.
pub fn headroom(world: &dyn World, ore: &[Pos]) -> Vec<Pos> {
    ore.iter()
        .flat_map(|p| [p.up(1), p.up(2)])
        .filter(|p| {
            let b = world.block_at(*p);
            let wet = p.faces().iter().any(|n| world.block_at(*n).is_liquid());
            !ore.contains(p) && b.is_solid() && world.made_by_world(*p) && !crate::world::rules::unbreakable(b) && !wet
        })
        .collect()
}

/// Is any cell, or a face neighbour of one, water or lava?
fn floods(world: &dyn World, cells: &[Pos]) -> bool {
    cells.iter().any(|c| std::iter::once(*c).chain(c.faces()).any(|n| world.block_at(n).is_liquid()))
}

/// The vein at `ore` with a safe staircase to it from the side facing `from`, trying the other
/// three sides when that one is unsafe.
pub fn vein_with_stairs(world: &dyn World, ore: Pos, from: Pos, most: usize) -> Option<Vein> {
    let ore_cells = vein(world, ore, most);
    let (ax, az) = (from.x - ore.x, from.z - ore.z);
    let first = if ax.abs() >= az.abs() { (ax.signum().max(if ax == 0 { 1 } else { -1 }), 0) } else { (0, az.signum()) };
    let sides = [first, (-first.1, first.0), (first.1, -first.0), (-first.0, -first.1)];
    let top = from.y.max(ore.y) + 40;
    for ((dx, dz), turn) in sides.into_iter().flat_map(|d| [(d, 1), (d, -1)]) {
        let Some(stairs) = stairs_towards(world, ore, dx, dz, turn, top) else { continue };
        let mut stairs: Vec<Pos> = stairs.into_iter().chain(headroom(world, &ore_cells)).filter(|p| !ore_cells.contains(p)).collect();
        stairs.sort();
        stairs.dedup();
        let all: Vec<Pos> = stairs.iter().chain(&ore_cells).copied().collect();
        if !floods(world, &all) && ore_cells.iter().all(|p| world.made_by_world(*p)) {
            return Some(Vein { ore: ore_cells, stairs });
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::world::embedded::EmbeddedWorld;
    use crate::world::{Actor, Block};

    #[test]
    fn a_staircase_reaches_the_ore_and_keeps_clear_of_water() {
        let mut w = EmbeddedWorld::flat();
        let b = |n: &str| Block::from_name(n).unwrap();
        let ore = Pos::new(6, 2, 0);
        w.set_block_by(ore, b("coal_ore"), Actor::World);
        let v = vein_with_stairs(&w, ore, Pos::new(0, 5, 0), 8).expect("a way down");
        assert_eq!(v.ore, vec![ore]);
        assert!(v.stairs.iter().all(|p| p.y >= 2 && p.y <= 7), "{:?}", v.stairs);
        assert!(v.stairs.iter().any(|p| p.x == 5), "the steps come from the bot's side: {:?}", v.stairs);
        // Water beside every way down: no staircase.
        for p in [Pos::new(6, 3, 0), Pos::new(7, 2, 0), Pos::new(6, 2, 1), Pos::new(6, 2, -1), Pos::new(5, 2, 0)] {
            w.set_block_by(p.up(0), b("water"), Actor::World);
        }
        assert_eq!(vein_with_stairs(&w, ore, Pos::new(0, 5, 0), 8), None);
    }
}



#[cfg(test)]
mod deep {
    use super::*;
    use crate::world::World;
    use crate::world::embedded::{EmbeddedWorld, Preset};

    #[test]
    fn after_mining_fifty_blocks_down_the_bot_walks_back_up_the_winding_stairs() {
        let mut w = EmbeddedWorld::new(Preset::Natural { seed: 7 }, "craftmate", Pos::new(4, 66, -1));
        let v = vein_with_stairs(&w, Pos::new(1, 16, 2), Pos::new(4, 66, -1), 8).expect("a way down");
        assert!(v.stairs.iter().all(|p| (p.x - 1).abs() <= SIDE && (p.z - 2).abs() <= SIDE), "it winds near the ore");
        let g = crate::tasks::Gather::new(v.ore.clone(), v.stairs, "the diamonds", &crate::tasks::Limits::default()).unwrap();
        let (state, said) = crate::tasks::testing::run_task(&mut w, g, 20000);
        assert_eq!(state, crate::tasks::TaskState::Done, "{said}");
        assert!(w.carried().count("diamond") >= 1, "{said}");
        let walk = crate::tasks::Move::near(Pos::new(3, 66, 0), 2);
        let (state, said) = crate::tasks::testing::run_task(&mut w, walk, 20000);
        assert_eq!(state, crate::tasks::TaskState::Done, "{said}");
        assert!(w.agent_pos().y >= 60, "back at the surface: {:?}", w.agent_pos());
    }
}
