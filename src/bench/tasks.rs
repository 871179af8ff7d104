//! Task-system benchmarks: path planning, building speed, and the cost of one stack tick.
//!
//! - `astar_64_cubed_ms`: one A* search across a 64×64×64 region of rolling hills (up to ~30
//!   blocks high, so the path climbs) scattered with stone pillars and two long walls with a
//!   single gap each; median of several runs. Target: ≤ 10 ms.
//! - `build_blocks_per_s`: a 10×10×10 solid cube built by the Build task in the embedded world,
//!   ticking as fast as the machine allows (world tick + stack tick), blocks per wall-clock
//!   second. Game time would be 20 ticks per second; this measures the bot's own cost.
//! - `build_ticks_per_block`: game ticks the same build needed per block (walking and
//!   scaffolding included) — how long it would take on a real server.
//! - `tick_5_deep_stack_us`: one stack tick with 5 nested tasks (four loops around a Follow of a
//!   player standing next to the agent), mean over many ticks.
//! - the natural world's chunk, section, memory and start-up figures ([`super::natural`]).

use super::Figure;
use crate::tasks::path::{Goal, PathOptions, plan};
use crate::tasks::{Build, Follow, Limits, Repeat, Task, TaskKind, TaskMeta, TaskStack, Times};
use crate::world::embedded::EmbeddedWorld;
use crate::world::{Actor, BBox, Block, Look, Pos, Vec3};
use rustc_hash::FxHashSet;
use std::time::Instant;

pub fn run() -> Vec<Figure> {
    let mut out = vec![Figure::new("astar_64_cubed_ms", astar_64_cubed_ms(), "ms")];
    let (per_s, ticks_per_block) = build_cube();
    out.push(Figure::new("build_blocks_per_s", per_s, "blocks/s"));
    out.push(Figure::new("build_ticks_per_block", ticks_per_block, "ticks"));
    out.push(Figure::new("tick_5_deep_stack_us", tick_5_deep_stack_us(), "us"));
    out.extend(super::natural::run());
    out
}

/// Height of the hills at (x, z): gentle enough to walk most of it, steep in places.
fn hill(x: i32, z: i32) -> i32 {
    let (x, z) = (x as f64, z as f64);
    (((x / 9.0).sin() + (z / 7.0).cos() + 2.0) * 7.0) as i32
}

/// The 64³ obstacle course, and the start and goal of the benchmark path.
pub fn obstacle_world() -> (EmbeddedWorld, Pos, Pos) {
    let mut w = EmbeddedWorld::flat();
    let stone = Block::from_name("stone").unwrap_or(Block::AIR);
    let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut rand = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    for x in 0..64 {
        for z in 0..64 {
            let h = hill(x, z);
            if h > 0 {
                w.fill_by(BBox::new(Pos::new(x, 5, z), Pos::new(x, 4 + h, z)), stone, Actor::World);
            }
            // One cell in ten carries a 3-high pillar.
            if rand() % 10 == 0 && (x, z) != (0, 0) && (x, z) != (63, 63) {
                w.fill_by(BBox::new(Pos::new(x, 5 + h, z), Pos::new(x, 7 + h, z)), stone, Actor::World);
            }
        }
    }
    // Two walls across the course, each with one gap.
    for (wall_x, gap_z) in [(20, 50), (42, 8)] {
        for z in 0..64 {
            if (gap_z..gap_z + 2).contains(&z) {
                continue;
            }
            let top = 5 + hill(wall_x, z) + 5;
            w.fill_by(BBox::new(Pos::new(wall_x, 5, z), Pos::new(wall_x, top, z)), stone, Actor::World);
        }
    }
    let start = Pos::new(0, 5 + hill(0, 0), 0);
    let goal = Pos::new(63, 5 + hill(63, 63), 63);
    w.set_agent_pos(start);
    (w, start, goal)
}

pub fn astar_64_cubed_ms() -> f64 {
    let (w, start, goal) = obstacle_world();
    let opts = PathOptions::walking(&Limits::default());
    let none = FxHashSet::default();
    let goal = Goal::Near { target: goal, tolerance: 0 };
    let mut times = Vec::new();
    for _ in 0..15 {
        let t = Instant::now();
        let path = plan(&w, start, &goal, &opts, &none);
        times.push(t.elapsed().as_secs_f64() * 1000.0);
        if path.is_err() {
            tracing::warn!("benchmark path not found: {path:?}");
        }
    }
    times.sort_by(f64::total_cmp);
    times[times.len() / 2]
}

/// (blocks per wall-clock second, game ticks per block) for a 10×10×10 cube.
pub fn build_cube() -> (f64, f64) {
    let mut w = EmbeddedWorld::flat();
    let limits = Limits::default();
    let block = Block::from_name("stone_bricks").unwrap_or(Block::AIR);
    let cube: Vec<(Pos, Block)> =
        BBox::new(Pos::new(3, 5, 3), Pos::new(12, 14, 12)).iter().map(|p| (p, block)).collect();
    let n = cube.len();
    let mut stack = TaskStack::new(limits.clone());
    let Ok(build) = Build::new(cube, "a cube", &limits) else { return (0.0, 0.0) };
    stack.push(Box::new(build), TaskMeta::default());
    let t = Instant::now();
    let mut ticks = 0u64;
    while !stack.is_idle() && ticks < 200_000 {
        w.advance();
        stack.tick(&mut w);
        ticks += 1;
    }
    let secs = t.elapsed().as_secs_f64().max(1e-9);
    (n as f64 / secs, ticks as f64 / n as f64)
}

fn nested(depth: u32) -> Box<dyn Task> {
    if depth <= 1 {
        return Box::new(Follow::player("alice"));
    }
    Box::new(Repeat::new(
        TaskKind::Loop,
        format!("loop level {depth}"),
        Times::Forever,
        Box::new(move |_, _| Ok(nested(depth - 1))),
    ))
}

/// A world and a stack whose top command is 5 tasks deep (four loops around a Follow).
fn five_deep() -> (EmbeddedWorld, TaskStack) {
    let mut w = EmbeddedWorld::flat();
    w.add_player("alice", Vec3::new(1.5, 5.0, 0.5), Look::default());
    let mut stack = TaskStack::new(Limits::default());
    stack.push(nested(5), TaskMeta::default());
    for _ in 0..10 {
        w.advance();
        stack.tick(&mut w);
    }
    (w, stack)
}

pub fn tick_5_deep_stack_us() -> f64 {
    let (mut w, mut stack) = five_deep();
    const N: u32 = 100_000;
    let t = Instant::now();
    for _ in 0..N {
        stack.tick(&mut w);
    }
    t.elapsed().as_secs_f64() * 1e6 / N as f64
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::world::World;

    #[test]
    fn obstacle_course_has_a_path() {
        let (w, start, goal) = obstacle_world();
        let opts = PathOptions::walking(&Limits::default());
        let path = plan(&w, start, &Goal::Near { target: goal, tolerance: 0 }, &opts, &FxHashSet::default());
        let path = path.expect("the course is crossable");
        assert!(path.steps.len() >= 63, "{}", path.steps.len());
    }

    #[test]
    fn the_deep_stack_is_five_deep() {
        let (w, s) = five_deep();
        assert_eq!(s.depth(), 5);
        assert_eq!(s.current_step().as_deref(), Some("following alice"));
        assert_eq!(w.agent_pos(), Pos::new(0, 5, 0));
    }

    /// `cargo test --release -- --ignored bench --nocapture` prints the figures.
    #[test]
    #[ignore]
    fn bench_tasks() {
        for f in run() {
            println!("{f}");
        }
    }
}
