//! The path planner: A* (from the `pathfinding` crate) over the voxel grid, following exactly the
//! world's movement rules ([`crate::world::rules`]), so a planned path is a path the world will
//! accept.
//!
//! A *node* is a place the agent can rest: feet in a cell with room for the body (feet and head
//! not solid) and either a solid block underneath or water around the feet. From a node the
//! agent can
//! - **walk** to any of the 8 neighbours at the same height (10 per straight step, 14 diagonal),
//!   never squeezing diagonally between two solid corners;
//! - **climb** one block up onto a neighbour (needs headroom above its own head to jump);
//! - **drop** off an edge: step into the air and fall, landing at most `max_drop` blocks lower
//!   (drops deeper than `safe_drop`, 3 by default, cost extra: fine in creative mode, avoided
//!   when there is another way);
//! - **swim** straight up or down in water;
//! - **pillar** (only when allowed, i.e. while building): jump and place a block under its own
//!   feet. The block is the blueprint's block when that cell belongs to the build, otherwise
//!   scaffold that the build removes later;
//! - **dig down its own scaffold**: break the scaffold block it stands on and drop onto the one
//!   below (how it comes down from a pillar).
//!
//! The search is bounded: a goal farther than `max_distance` is refused at once, nodes must stay
//! inside the start/goal box widened by `margin`, and at most `max_nodes` nodes are expanded.
//! Blocks are read once through a small dense cache, which is what keeps a 64³ search within a
//! few milliseconds. A plain walk never changes the world; if there is no walking path, the walk
//! fails with the reason. Carrying a plan out, step by step, is [`walker::Walker`]'s. Terrain the world has not seen (a live server sends
//! it only around the bot) is neither ground nor air to the planner: no path goes through it,
//! and a search that found none after meeting it says so ([`PathError::Unseen`]), with the
//! reachable spot nearest the goal, so the walk can go there and look again.

mod grid;
pub mod walker;

use super::Limits;
use super::blueprint::Blueprint;
use crate::world::rules::{MAX_Y, MIN_Y, in_world, within_reach};
use crate::world::types::EYE_HEIGHT;
use crate::world::{BBox, Block, Pos, World};
use grid::{AIR, Grid, SCAFFOLD};
use pathfinding::prelude::astar;
use rustc_hash::FxHashSet;
use std::sync::Arc;

/// Where a walk should end.
#[derive(Clone, Debug, PartialEq)]
pub enum Goal {
    /// Feet within `tolerance` blocks of `target` along every axis (0 = exactly there).
    Near { target: Pos, tolerance: i32 },
    /// Anywhere the block at `target` is within `reach` of the eyes, without the body
    /// covering that block (so a block can be placed or broken there), nor any cell of
    /// `keep_clear` (other blocks about to be placed).
    Reach { target: Pos, reach: f64, keep_clear: Option<Arc<FxHashSet<Pos>>> },
}

impl Goal {
    pub fn target(&self) -> Pos {
        match *self {
            Goal::Near { target, .. } | Goal::Reach { target, .. } => target,
        }
    }

    /// Is a body with feet at `feet` where this goal wants it?
    pub fn reached(&self, feet: Pos) -> bool {
        match *self {
            Goal::Near { target, tolerance } => far(feet, target) <= tolerance.max(0) as i64,
            Goal::Reach { target, reach, ref keep_clear } => {
                target != feet
                    && target != feet.up(1)
                    && within_reach(feet, target, reach)
                    && keep_clear.as_ref().is_none_or(|c| !c.contains(&feet) && !c.contains(&feet.up(1)))
            }
        }
    }

    /// A lower bound of the cost from `feet` to the goal, from how far the goal region is along
    /// each axis: horizontally the "octile" distance (straight steps cost 10, diagonal ones 14),
    /// vertically 10 per block (every step up or down costs at least that). Never overestimating
    /// keeps A* exact.
    fn estimate(&self, feet: Pos) -> u32 {
        let t = self.target();
        let (dx, dy, dz) =
            ((t.x as i64 - feet.x as i64).abs(), t.y as i64 - feet.y as i64, (t.z as i64 - feet.z as i64).abs());
        let (gx, gy, gz) = match self {
            Goal::Near { tolerance, .. } => {
                let t = (*tolerance).max(0) as i64;
                (dx - t, dy.abs() - t, dz - t)
            }
            Goal::Reach { reach, .. } => {
                let reach = reach.clamp(0.0, 1e6);
                // How far the region "block within reach" extends from the block, per axis.
                let side = (reach + 0.5).floor() as i64;
                let up = (reach + EYE_HEIGHT).floor() as i64;
                let down = (reach - EYE_HEIGHT + 1.0).floor() as i64;
                (dx - side, (dy - up).max(-dy - down), dz - side)
            }
        };
        let (gx, gy, gz) = (gx.max(0), gy.max(0), gz.max(0));
        let octile = 10 * gx.max(gz) + 4 * gx.min(gz);
        octile.max(10 * gy).min(u32::MAX as i64 / 2) as u32
    }
}

/// Chebyshev distance without overflow, whatever the coordinates.
fn far(a: Pos, b: Pos) -> i64 {
    let d = |u: i32, v: i32| (u as i64 - v as i64).abs();
    d(a.x, b.x).max(d(a.y, b.y)).max(d(a.z, b.z))
}

/// How one path step is carried out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StepKind {
    Walk,
    Climb,
    /// Step over the edge at the current height, then fall onto `to`.
    Drop,
    Swim,
    /// Jump and place this block where the feet were.
    Pillar(Block),
    /// Break the (scaffold) block under the feet and drop onto `to`.
    DigDown,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PathStep {
    pub to: Pos,
    pub kind: StepKind,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Path {
    pub steps: Vec<PathStep>,
    pub cost: u32,
    /// Nodes expanded by the search (for benchmarks and logs).
    pub explored: usize,
}

/// Why no path was found. Messages are for players.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum PathError {
    #[error("{target} is {distance} blocks away, and I only plan walks of up to {limit} blocks")]
    TooFar { target: Pos, distance: i64, limit: i32 },
    #[error("{0} is outside the world")]
    OutOfWorld(Pos),
    #[error("there is no room for me to stand at {0}")]
    NoRoom(Pos),
    /// Every reachable spot was tried (`explored` of them: few means the agent is shut in).
    #[error("I can't find a way to {target}: the path is walled off")]
    WalledOff {
        target: Pos,
        explored: usize,
        /// The reachable spot nearest the goal (by the planner's estimate), if any was found.
        closest: Option<Pos>,
    },
    /// No way found (every spot tried, or the tries ran out), and the search met terrain the
    /// world has not seen (a live server sends it only around the bot): the way may lie there. `edge` is the reachable spot nearest the
    /// goal, where walking on shows more.
    #[error("I can't see the ground past ({}, {}) yet", edge.x, edge.z)]
    Unseen { target: Pos, explored: usize, edge: Pos },
    #[error("I can't plan a walk to {0}: the area to search is too large")]
    TooLarge(Pos),
    /// The search ran out of tries (`explored` spots) in terrain it can all see.
    #[error("I can't find a way to {target}: I gave up after trying {explored} spots")]
    GaveUp { target: Pos, explored: usize },
}

impl PathError {
    /// The reachable spot nearest the goal, when the way there is walled off.
    pub fn closest(&self) -> Option<Pos> {
        match self {
            PathError::WalledOff { closest, .. } => *closest,
            _ => None,
        }
    }
}

/// What the planner may do and how hard it may try.
#[derive(Clone, Debug)]
pub struct PathOptions {
    pub max_nodes: usize,
    pub max_distance: i32,
    pub margin: i32,
    /// Drops up to `safe_drop` cost like steps; deeper ones (up to `max_drop`) cost extra.
    pub safe_drop: i32,
    pub max_drop: i32,
    /// Scaffold block to pillar up with; `None` forbids pillaring (plain walks).
    pub pillar: Option<Block>,
    /// May break its own scaffold (listed in the `scaffold` set given to [`plan`]) to come down.
    pub dig_scaffold: bool,
    /// The build under way: its blocks are used for pillars inside it, its inside is avoided.
    pub blueprint: Option<Arc<Blueprint>>,
}

impl PathOptions {
    /// A plain walk: never changes the world.
    pub fn walking(limits: &Limits) -> Self {
        PathOptions {
            max_nodes: limits.max_path_nodes,
            max_distance: limits.max_path_distance,
            margin: limits.path_margin,
            safe_drop: limits.safe_drop,
            max_drop: limits.max_drop,
            pillar: None,
            dig_scaffold: true,
            blueprint: None,
        }
    }

    /// A walk in the middle of building or digging: may also pillar up on scaffold.
    pub fn working(limits: &Limits, blueprint: Option<Arc<Blueprint>>) -> Self {
        PathOptions { pillar: Some(limits.scaffold), blueprint, ..PathOptions::walking(limits) }
    }
}

/// Most cells the search box may hold (about 64 MB of cache): a guard against absurd limits.
const MAX_GRID_CELLS: u64 = 64 << 20;

/// A search node: feet position, and whether it stands on a block the plan will place
/// (a pillar) rather than on one that exists already.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct Node {
    p: Pos,
    planned_floor: bool,
}

const DIRS: [(i32, i32); 8] = [(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1)];

struct Planner<'w> {
    grid: Grid<'w>,
    opts: &'w PathOptions,
}

impl Planner<'_> {
    /// Extra cost of standing at `p`: the inside of the build is avoided (the agent could be
    /// sealed in there).
    fn penalty(&self, p: Pos) -> u32 {
        match &self.opts.blueprint {
            Some(bp) if bp.is_interior(p) || bp.is_interior(p.up(1)) => 60,
            _ => 0,
        }
    }

    /// Diagonal moves may not squeeze between two solid corners (checked at height `y`).
    fn corner_ok(&mut self, from: Pos, to: Pos, y: i32) -> bool {
        self.grid.room(Pos::new(to.x, y, from.z)) || self.grid.room(Pos::new(from.x, y, to.z))
    }

    fn successors(&mut self, n: Node, out: &mut Vec<(Node, u32, StepKind)>) {
        let p = n.p;
        let in_water = self.grid.liquid(p);
        if !(n.planned_floor || self.grid.floor(p.down(1)) || in_water) {
            return; // mid-air: nowhere to push off from
        }
        let headroom = !self.grid.solid(p.up(2));
        let node = |p: Pos| Node { p, planned_floor: false };
        for (dx, dz) in DIRS {
            let diagonal = dx != 0 && dz != 0;
            let base = if diagonal { 14 } else { 10 };
            let q = Pos::new(p.x + dx, p.y, p.z + dz);
            // Level, or over the edge and down.
            if self.grid.room(q) && (!diagonal || self.corner_ok(p, q, p.y)) {
                if self.grid.standable(q) {
                    out.push((node(q), base + self.penalty(q), StepKind::Walk));
                } else {
                    for d in 1..=self.opts.max_drop.max(0) {
                        let r = q.down(d);
                        if self.grid.solid(r) {
                            break;
                        }
                        if self.grid.standable(r) {
                            let deep = (d - self.opts.safe_drop).max(0) as u32 * 20;
                            out.push((node(r), base + 10 * d as u32 + deep + self.penalty(r), StepKind::Drop));
                            break;
                        }
                    }
                }
            }
            // One block up (a jump needs headroom above the head).
            if headroom {
                let u = q.up(1);
                if self.grid.room(u) && self.grid.standable(u) && (!diagonal || self.corner_ok(p, u, p.y + 1)) {
                    out.push((node(u), base + 10 + self.penalty(u), StepKind::Climb));
                }
            }
        }
        if in_water {
            let (u, d) = (p.up(1), p.down(1));
            if headroom && !self.grid.solid(u) && self.grid.standable(u) {
                out.push((node(u), 15, StepKind::Swim));
            }
            if !self.grid.solid(d) && self.grid.standable(d) {
                out.push((node(d), 10, StepKind::Swim));
            }
        }
        // Pillar: jump, and put a block where the feet were.
        if let Some(scaffold) = self.opts.pillar
            && !in_water
            && headroom
            && self.grid.flags(p) & AIR != 0
            && p.y + 2 <= MAX_Y
        {
            let block = match self.opts.blueprint.as_ref().and_then(|bp| bp.get(p)) {
                Some(b) if b.is_solid() => Some(b),
                Some(_) => None, // a non-solid build block would not hold the agent up
                None => Some(scaffold),
            };
            if let Some(block) = block {
                let extra = if block == scaffold { 8 } else { 0 };
                let u = p.up(1);
                out.push((Node { p: u, planned_floor: true }, 25 + extra + self.penalty(u), StepKind::Pillar(block)));
            }
        }
        // Come down a pillar of our own scaffold by breaking it.
        if self.opts.dig_scaffold
            && !n.planned_floor
            && self.grid.flags(p.down(1)) & SCAFFOLD != 0
            && self.grid.floor(p.down(2))
        {
            let d = p.down(1);
            out.push((node(d), 15 + self.penalty(d), StepKind::DigDown));
        }
    }
}

/// Plan a path for an agent standing at `start` to `goal`.
///
/// `scaffold` lists the scaffold blocks the current command placed (they may be broken to come
/// down). An empty path means the agent is already there.
pub fn plan(
    world: &dyn World,
    start: Pos,
    goal: &Goal,
    opts: &PathOptions,
    scaffold: &FxHashSet<Pos>,
) -> Result<Path, PathError> {
    let target = goal.target();
    if !in_world(target) || !in_world(start) {
        return Err(PathError::OutOfWorld(target));
    }
    let distance = far(start, target);
    if distance > opts.max_distance.max(0) as i64 {
        return Err(PathError::TooFar { target, distance, limit: opts.max_distance });
    }
    if goal.reached(start) {
        return Ok(Path { steps: Vec::new(), cost: 0, explored: 0 });
    }
    let m = opts.margin.max(2);
    let bbox = BBox::new(start, target);
    let bbox = BBox::new(
        Pos::new(bbox.min.x - m, (bbox.min.y - m).max(MIN_Y), bbox.min.z - m),
        Pos::new(bbox.max.x + m, (bbox.max.y + m).min(MAX_Y), bbox.max.z + m),
    );
    if bbox.volume() > MAX_GRID_CELLS {
        return Err(PathError::TooLarge(target));
    }
    let mut planner = Planner { grid: Grid::new(world, scaffold, bbox), opts };

    // A goal cell that is solid rock can be told at once, without searching.
    if let Goal::Near { tolerance, .. } = *goal
        && tolerance <= 1
    {
        let region = BBox::around(target, tolerance.max(0));
        if !region.iter().any(|p| planner.grid.room(p) || planner.grid.unknown(p)) {
            return Err(PathError::NoRoom(target));
        }
    }

    let start_node = Node { p: start, planned_floor: false };
    let mut explored = 0usize;
    let mut gave_up = false;
    let mut buf = Vec::with_capacity(32);
    // The reachable spot nearest the goal, for a walk that settles for getting close.
    let mut closest: Option<(u32, Pos)> = None;
    let found = astar(
        &start_node,
        |n| {
            if explored >= opts.max_nodes {
                gave_up = true;
                return Vec::new();
            }
            explored += 1;
            let e = goal.estimate(n.p);
            if !n.planned_floor && closest.is_none_or(|(best, _)| e < best) {
                closest = Some((e, n.p));
            }
            buf.clear();
            planner.successors(*n, &mut buf);
            buf.iter().map(|&(n, c, _)| (n, c)).collect::<Vec<_>>()
        },
        |n| goal.estimate(n.p),
        |n| goal.reached(n.p),
    );
    let Some((nodes, cost)) = found else {
        tracing::debug!(%target, explored, gave_up, "no path");
        let nearest = closest.map(|(_, p)| p).filter(|p| *p != start);
        return Err(if planner.grid.met_unknown && (!gave_up || nearest.is_some()) {
            // Out of tries or out of places, with terrain not seen yet on the way: the way may
            // lie there, so this is "walk to the edge and look", not a dead end.
            PathError::Unseen { target, explored, edge: nearest.unwrap_or(start) }
        } else if gave_up {
            PathError::GaveUp { target, explored }
        } else {
            PathError::WalledOff { target, explored, closest: nearest }
        });
    };
    // Recover how each step is made: the cheapest successor edge leading to the next node.
    let mut steps = Vec::with_capacity(nodes.len().saturating_sub(1));
    for pair in nodes.windows(2) {
        buf.clear();
        planner.successors(pair[0], &mut buf);
        let kind = buf
            .iter()
            .filter(|(n, _, _)| *n == pair[1])
            .min_by_key(|(_, c, _)| *c)
            .map(|&(_, _, k)| k)
            .unwrap_or(StepKind::Walk);
        steps.push(PathStep { to: pair[1].p, kind });
    }
    tracing::trace!(%target, explored, cost, steps = steps.len(), "path found");
    Ok(Path { steps, cost, explored })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::world::Actor;
    use crate::world::embedded::EmbeddedWorld;

    fn stone() -> Block {
        Block::from_name("stone").unwrap()
    }

    fn walk(w: &EmbeddedWorld, to: Pos) -> Result<Path, PathError> {
        let opts = PathOptions::walking(&Limits::default());
        plan(w, w.agent_pos(), &Goal::Near { target: to, tolerance: 0 }, &opts, &FxHashSet::default())
    }

    /// Replays a path in the world, stepping and letting gravity act, as the Move task does.
    fn replay(w: &mut EmbeddedWorld, path: &Path) {
        for s in &path.steps {
            let here = w.agent_pos();
            match s.kind {
                StepKind::Drop => w.step_to(Pos::new(s.to.x, here.y, s.to.z)).unwrap(),
                StepKind::Pillar(b) => {
                    w.step_to(here.up(1)).unwrap();
                    w.place_block(here, b).unwrap();
                }
                StepKind::DigDown => w.break_block(here.down(1)).unwrap(),
                _ => w.step_to(s.to).unwrap(),
            }
            for _ in 0..80 {
                if w.agent_pos() == s.to {
                    break;
                }
                w.advance();
            }
            assert_eq!(w.agent_pos(), s.to, "after {s:?}");
        }
    }

    #[test]
    fn straight_walk_on_flat_ground() {
        let w = EmbeddedWorld::flat();
        let p = walk(&w, Pos::new(6, 5, 0)).unwrap();
        assert_eq!(p.steps.len(), 6);
        assert!(p.steps.iter().all(|s| s.kind == StepKind::Walk));
    }

    #[test]
    fn around_a_wall_and_up_a_step() {
        let mut w = EmbeddedWorld::flat();
        w.fill_by(BBox::new(Pos::new(3, 5, -4), Pos::new(3, 7, 4)), stone(), Actor::World);
        w.set_block_by(Pos::new(8, 5, 0), stone(), Actor::World);
        let p = walk(&w, Pos::new(8, 6, 0)).unwrap();
        assert!(p.steps.iter().any(|s| s.kind == StepKind::Climb));
        replay(&mut w, &p);
        assert_eq!(w.agent_pos(), Pos::new(8, 6, 0));
    }

    #[test]
    fn drops_and_water() {
        let mut w = EmbeddedWorld::flat();
        // A 3-high ledge to drop from, and a pool to swim out of.
        w.fill_by(BBox::new(Pos::new(-1, 5, -1), Pos::new(1, 7, 1)), stone(), Actor::World);
        w.set_agent_pos(Pos::new(0, 8, 0));
        let p = walk(&w, Pos::new(4, 5, 0)).unwrap();
        replay(&mut w, &p);
        let water = Block::from_name("water").unwrap();
        w.fill_by(BBox::new(Pos::new(6, 1, 0), Pos::new(6, 4, 0)), water, Actor::World);
        w.set_agent_pos(Pos::new(6, 1, 0));
        let p = walk(&w, Pos::new(8, 5, 0)).unwrap();
        assert!(p.steps.iter().any(|s| s.kind == StepKind::Swim));
        replay(&mut w, &p);
    }

    #[test]
    fn jumps_off_a_tall_tower_only_when_there_is_no_other_way() {
        let mut w = EmbeddedWorld::flat();
        w.fill_by(BBox::new(Pos::new(0, 5, 0), Pos::new(0, 14, 0)), stone(), Actor::World);
        w.set_agent_pos(Pos::new(0, 15, 0));
        let p = walk(&w, Pos::new(3, 5, 0)).unwrap();
        assert_eq!(p.steps[0].kind, StepKind::Drop);
        replay(&mut w, &p);
        // With a staircase next to it, the stairs are cheaper than a 10-block fall.
        let mut w = EmbeddedWorld::flat();
        w.fill_by(BBox::new(Pos::new(0, 5, 0), Pos::new(0, 14, 0)), stone(), Actor::World);
        for i in 0..10 {
            w.fill_by(BBox::new(Pos::new(0, 5, 1 + i), Pos::new(0, 13 - i, 1 + i)), stone(), Actor::World);
        }
        w.set_agent_pos(Pos::new(0, 15, 0));
        let p = walk(&w, Pos::new(0, 5, 12)).unwrap();
        let mut at = w.agent_pos();
        for s in &p.steps {
            assert!(at.y - s.to.y <= 3, "no big jump: {at} to {s:?}");
            at = s.to;
        }
    }

    #[test]
    fn enclosed_goal_fails_fast_with_a_reason() {
        let mut w = EmbeddedWorld::flat();
        let c = Pos::new(12, 5, 0);
        w.fill_by(BBox::around(c.up(1), 2), stone(), Actor::World);
        w.fill_by(BBox::new(c, c.up(1)), Block::AIR, Actor::World);
        let t = std::time::Instant::now();
        let e = walk(&w, c).unwrap_err();
        assert!(matches!(e, PathError::WalledOff { target, explored, .. } if target == c && explored > 1000));
        assert_eq!(e.to_string(), "I can't find a way to (12, 5, 0): the path is walled off");
        assert!(t.elapsed().as_millis() < 2000);
        assert_eq!(walk(&w, Pos::new(12, 3, 0)).unwrap_err(), PathError::NoRoom(Pos::new(12, 3, 0)));
        assert!(matches!(walk(&w, Pos::new(500, 5, 0)), Err(PathError::TooFar { .. })));
    }

    #[test]
    fn pillars_up_only_when_allowed_and_digs_back_down() {
        let mut w = EmbeddedWorld::flat();
        let limits = Limits::default();
        let none = FxHashSet::default();
        let high = Goal::Reach { target: Pos::new(2, 16, 0), reach: limits.reach, keep_clear: None };
        assert!(plan(&w, w.agent_pos(), &high, &PathOptions::walking(&limits), &none).is_err());
        let p = plan(&w, w.agent_pos(), &high, &PathOptions::working(&limits, None), &none).unwrap();
        let pillars: Vec<Pos> = p
            .steps
            .iter()
            .zip(std::iter::once(w.agent_pos()).chain(p.steps.iter().map(|s| s.to)))
            .filter(|(s, _)| matches!(s.kind, StepKind::Pillar(_)))
            .map(|(_, from)| from)
            .collect();
        assert!(pillars.len() >= 4, "{p:?}");
        replay(&mut w, &p);
        assert!(high.reached(w.agent_pos()));
        // Back down, breaking the pillar on the way.
        let scaffold: FxHashSet<Pos> = pillars.iter().copied().collect();
        let down = Goal::Near { target: Pos::new(0, 5, 0), tolerance: 0 };
        let mut opts = PathOptions::working(&limits, None);
        (opts.safe_drop, opts.max_drop) = (3, 3);
        let p = plan(&w, w.agent_pos(), &down, &opts, &scaffold).unwrap();
        assert!(p.steps.iter().any(|s| s.kind == StepKind::DigDown), "{p:?}");
        replay(&mut w, &p);
    }

    #[test]
    fn reach_goal_and_estimate_agree() {
        let g = Goal::Reach { target: Pos::new(0, 12, 0), reach: 4.5, keep_clear: None };
        for y in 0..20 {
            for x in -8..8 {
                let feet = Pos::new(x, y, 1);
                if g.reached(feet) {
                    assert_eq!(g.estimate(feet), 0, "{feet}");
                }
            }
        }
        assert!(!g.reached(Pos::new(0, 12, 0)) && !g.reached(Pos::new(0, 11, 0)));
    }
}
