//! The engine behind Build, Destroy, Dig, Fill and Undo: make a set of positions hold given
//! blocks (air meaning "clear it"), one block per tick, walking where needed.
//!
//! Order of work, re-decided every tick from what the world holds *now*:
//! 1. **Breaks, top-down** (clearing, or making room for a different block): the highest layer
//!    first, so the agent never undermines what it still has to reach.
//! 2. **Places, bottom-up**: the lowest unfinished layer first; within it, blocks that can be
//!    placed against an existing neighbour, nearest first. A block with nothing to lean on (an
//!    arch's top, a floating part) gets a chain of temporary scaffold from the nearest solid
//!    block (a breadth-first search through empty cells that are not part of the build); as
//!    soon as that block is in, the chain is taken down again.
//! 3. **Checking**: every target is compared with the world; anything a player undid meanwhile
//!    is queued again (a few passes at most).
//! 4. **Cleanup**: scaffold still standing (pillars the agent climbed) is broken, top-down.
//!
//! Reaching: when no suitable block is within reach, the engine pushes a [`Move`] to a spot
//! within reach. Those moves may pillar up on scaffold (or on the build's own blocks where the
//! pillar stands inside the build) and drop from heights, which is what makes 20-high towers and
//! big spheres possible for an agent that cannot fly. The planner avoids the inside of the build
//! (where the agent could be sealed in). Blocks are never placed inside the agent or a player;
//! the agent moves out of the way, and waits (then gives up, saying why) for players.

mod cleanup;

use super::blueprint::Blueprint;
use super::context::{FallWatch, Landing};
use super::movement::{Move, MoveOptions};
use super::path::Goal;
use super::support::support_chain;
use super::{ChildOutcome, Step, TaskContext};
use crate::world::rules::{self, replaceable, unbreakable};
use crate::world::{ActionError, BBox, Block, Pos, World};
use rustc_hash::{FxHashMap, FxHashSet};
use std::collections::{BTreeMap, VecDeque};
use std::sync::Arc;

/// What the engine wants after a step.
pub(crate) enum EditStep {
    Step(Step),
    /// Everything is in place and the scaffold is down.
    Finished,
}

/// Counts for the final chat line.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct EditReport {
    pub placed: usize,
    pub broken: usize,
    /// Targets that already held the right block when checked.
    pub already: usize,
    /// Targets that could not be made right (bedrock, or changed back by someone).
    pub missing: usize,
    /// Scaffold blocks that could not be reached to remove.
    pub scaffold_left: usize,
}

enum Job {
    /// Nothing to do for this item any more; look again in the same tick.
    Again,
    Place(Pos, Block),
    Break(Pos),
    Wait,
    Fail(String),
    Finished,
}

pub(crate) struct Edit {
    targets: Vec<(Pos, Block)>,
    blueprint: Arc<Blueprint>,
    bbox: Option<BBox>,
    breaks: BTreeMap<i32, Vec<Pos>>,
    places: BTreeMap<i32, Vec<(Pos, Block)>>,
    /// Scaffold still to place for a floating block, attached end first.
    chain: VecDeque<Pos>,
    /// The floating block the chain holds up.
    holding: Option<Pos>,
    /// Chain scaffold in place, taken down once `holding` is built.
    temporary: Vec<Pos>,
    /// Targets a walk could not get near, with the reason (cleared when work progresses).
    unreachable: FxHashMap<Pos, String>,
    moving_to: Option<Pos>,
    /// Cells the next walk must not end with the body in (set when the agent stands where the
    /// current layer still needs blocks).
    keep_clear: Option<Arc<FxHashSet<Pos>>>,
    waited: u32,
    airborne: FallWatch,
    stalled: u32,
    /// Walks since the last block changed: a guard against going round in circles.
    walks: u32,
    passes: u32,
    cleaning: bool,
    /// Cleanup walks since the scaffold last shrank below its smallest size (`cleanup_least`).
    cleanup_walks: u32,
    cleanup_least: usize,
    /// Cleanup walks go on foot only: walks that pillar up were adding as much scaffold as the
    /// cleanup took down.
    on_foot: bool,
    /// On foot, a scaffold block was broken since the unreachable ones were last tried.
    broken_this_round: bool,
    /// Why the work failed; the scaffold is taken down before the failure is reported.
    failure: Option<String>,
    pub(crate) report: EditReport,
    started: bool,
}

/// Walks in a row that may end without a block placed or broken before the work gives up.
const MAX_WALKS_WITHOUT_PROGRESS: u32 = 40;


/// Does `p` still need breaking for target `t`?
fn needs_break(world: &dyn World, p: Pos, t: Block) -> bool {
    let b = world.block_at(p);
    b != t && !b.is_air() && !b.is_liquid() && !unbreakable(b)
}

impl Edit {
    /// `(targets done, targets in all)`: placed, broken or found already right.
    pub(crate) fn progress(&self) -> (usize, usize) {
        let r = self.report;
        ((r.placed + r.broken + r.already).min(self.targets.len()), self.targets.len())
    }

    /// An engine for these targets (later duplicates of a position win).
    pub(crate) fn new(targets: Vec<(Pos, Block)>) -> Edit {
        let mut seen = FxHashMap::default();
        for (i, (p, _)) in targets.iter().enumerate() {
            seen.insert(*p, i);
        }
        let targets: Vec<(Pos, Block)> =
            targets.iter().enumerate().filter(|(i, (p, _))| seen[p] == *i).map(|(_, t)| *t).collect();
        let blueprint = Arc::new(Blueprint::new(targets.iter().copied()));
        let bbox = targets.iter().map(|(p, _)| BBox::new(*p, *p)).reduce(|a, b| a.union(&b));
        let mut e = Edit {
            targets,
            blueprint,
            bbox,
            breaks: BTreeMap::new(),
            places: BTreeMap::new(),
            chain: VecDeque::new(),
            holding: None,
            temporary: Vec::new(),
            unreachable: FxHashMap::default(),
            moving_to: None,
            keep_clear: None,
            waited: 0,
            airborne: FallWatch::default(),
            stalled: 0,
            walks: 0,
            passes: 0,
            cleaning: false,
            cleanup_walks: 0,
            cleanup_least: usize::MAX,
            on_foot: false,
            broken_this_round: false,
            failure: None,
            report: EditReport::default(),
            started: false,
        };
        e.queue_all();
        e
    }

    pub(crate) fn len(&self) -> usize {
        self.targets.len()
    }

    pub(crate) fn bbox(&self) -> Option<BBox> {
        self.bbox
    }

    pub(crate) fn targets(&self) -> &[(Pos, Block)] {
        &self.targets
    }

    fn queue_all(&mut self) {
        self.breaks.clear();
        self.places.clear();
        for &(p, b) in &self.targets {
            if b.is_air() {
                self.breaks.entry(p.y).or_default().push(p);
            } else {
                self.places.entry(p.y).or_default().push((p, b));
            }
        }
    }

    /// A sub-task (always a walk) finished: remember targets we could not get near.
    pub(crate) fn child_finished(&mut self, outcome: ChildOutcome) -> Option<Step> {
        if let (Some(p), ChildOutcome::Failed(reason)) = (self.moving_to.take(), outcome) {
            // "I can't find a way to (x, y, z): the path is walled off" → "the path is walled
            // off": the position is named again in the engine's own message.
            let prefix = format!("I can't find a way to {p}: ");
            let reason = reason.strip_prefix(&prefix).map(str::to_string).unwrap_or(reason);
            self.unreachable.insert(p, reason);
        }
        None
    }

    pub(crate) fn step(&mut self, ctx: &mut TaskContext) -> EditStep {
        if !self.started {
            self.started = true;
            self.report.already = self
                .targets
                .iter()
                .filter(|(p, b)| {
                    let here = ctx.world.block_at(*p);
                    here == *b || (b.is_air() && here.is_liquid())
                })
                .count();
        }
        // Let gravity settle the agent before deciding anything — but not forever: "in the air"
        // for longer than any fall means it stands on something the block under its feet does
        // not show (in a real world, the edge of a neighbouring block), so decide from there.
        if self.airborne.check(ctx) == Landing::Falling {
            return EditStep::Step(Step::Continue);
        }
        self.keep_clear = None;
        // Finished items are skipped within the same tick; the bound keeps a tick short.
        for _ in 0..4096 {
            let job = self.next_job(ctx);
            match job {
                Job::Again => continue,
                Job::Place(p, b) => return self.act(ctx, p, Some(b)),
                Job::Break(p) => return self.act(ctx, p, None),
                Job::Wait => return EditStep::Step(Step::Continue),
                Job::Fail(reason) => match self.fail(ctx, reason) {
                    Some(step) => return step,
                    None => continue,
                },
                Job::Finished => {
                    return match self.failure.take() {
                        Some(why) => EditStep::Step(Step::Failed(why)),
                        None => EditStep::Finished,
                    };
                }
            }
        }
        EditStep::Step(Step::Continue)
    }

    /// Give up with `why`, but take our scaffold down first when there is any: returns the
    /// step to take now, or `None` to carry on (with the cleanup) in this tick.
    fn fail(&mut self, ctx: &TaskContext, why: String) -> Option<EditStep> {
        if self.failure.is_some() || ctx.scaffold().is_empty() {
            let why = self.failure.take().unwrap_or(why);
            return Some(EditStep::Step(Step::Failed(why)));
        }
        tracing::debug!(%why, "giving up; taking the scaffold down first");
        self.failure = Some(why);
        self.cleaning = true;
        self.chain.clear();
        self.holding = None;
        self.unreachable.clear();
        self.walks = 0;
        None
    }

    fn next_job(&mut self, ctx: &mut TaskContext) -> Job {
        if self.failure.is_some() {
            return self.cleanup_job(ctx);
        }
        let scaffold = ctx.limits.scaffold;
        // 1. Take down the supports of a floating block once it is in.
        if let Some(h) = self.holding
            && self.chain.is_empty()
            && self.target_done(&*ctx.world, h)
        {
            self.holding = None;
        }
        if self.holding.is_none()
            && let Some(&p) = self.temporary.last()
        {
            if !ctx.is_scaffold(p) || ctx.world.block_at(p) != scaffold {
                self.temporary.pop();
                return Job::Again;
            }
            return self.pick(ctx, &[p], "take down the support at");
        }
        // 2. Supports still to place.
        if let Some(&p) = self.chain.front() {
            if !ctx.world.block_at(p).is_air() {
                self.chain.pop_front();
                return Job::Again;
            }
            return self.pick_place(ctx, &[(p, scaffold)]);
        }
        // 3. Breaks, top layer first.
        if let Some(mut entry) = self.breaks.last_entry() {
            let bp = &self.blueprint;
            let list = entry.get_mut();
            list.retain(|&p| needs_break(&*ctx.world, p, bp.get(p).unwrap_or(Block::AIR)));
            if list.is_empty() {
                entry.remove();
                return Job::Again;
            }
            let list = list.clone();
            return self.pick(ctx, &list, "break the block at");
        }
        // 4. Places, bottom layer first.
        if let Some(mut entry) = self.places.first_entry() {
            let y = *entry.key();
            let list = entry.get_mut();
            list.retain(|&(p, b)| ctx.world.block_at(p) != b);
            if list.is_empty() {
                entry.remove();
                return Job::Again;
            }
            // Something else occupies a target: break it first (breaks come before places).
            let blocked: Vec<Pos> =
                list.iter().filter(|(p, _)| !replaceable(ctx.world.block_at(*p))).map(|(p, _)| *p).collect();
            if !blocked.is_empty() {
                let (bedrock, other): (Vec<Pos>, Vec<Pos>) =
                    blocked.into_iter().partition(|p| unbreakable(ctx.world.block_at(*p)));
                if !bedrock.is_empty() {
                    list.retain(|(p, _)| !bedrock.contains(p));
                    self.report.missing += bedrock.len();
                }
                if !other.is_empty() {
                    self.breaks.entry(y).or_default().extend(other);
                }
                return Job::Again;
            }
            let list = list.clone();
            return self.choose_place(ctx, &list);
        }
        // 5. Check everything once more: players may have undone some of it meanwhile.
        if !self.cleaning {
            let missing = self.targets.iter().filter(|(p, _)| !self.target_done(&*ctx.world, *p)).count();
            if missing > 0 && self.passes < 3 {
                self.passes += 1;
                self.queue_all();
                return Job::Again;
            }
            self.report.missing = missing;
            self.cleaning = true;
        }
        self.cleanup_job(ctx)
    }

    fn target_done(&self, world: &dyn World, p: Pos) -> bool {
        match self.blueprint.get(p) {
            Some(b) => world.block_at(p) == b,
            None => {
                let b = world.block_at(p);
                b.is_air() || b.is_liquid() || unbreakable(b)
            }
        }
    }

    /// Among break candidates: one within reach (nearest), else walk to the nearest one.
    fn pick(&mut self, ctx: &TaskContext, list: &[Pos], what: &str) -> Job {
        let agent = ctx.world.agent_pos();
        let key = |p: &&Pos| (p.manhattan(agent), **p);
        if let Some(p) = list.iter().filter(|p| ctx.in_reach(**p)).min_by_key(key) {
            return Job::Break(*p);
        }
        match list.iter().filter(|p| !self.unreachable.contains_key(p)).min_by_key(key) {
            Some(p) => Job::Break(*p),
            None if self.cleaning => {
                // Scaffold we cannot get to: leave it rather than fail a finished build.
                self.report.scaffold_left = ctx.scaffold().len();
                Job::Finished
            }
            None => {
                let p = list[0];
                let why = self.unreachable.get(&p).cloned().unwrap_or_default();
                Job::Fail(format!("I can't get close enough to {what} {p}: {why}"))
            }
        }
    }

    fn pick_place(&mut self, ctx: &TaskContext, list: &[(Pos, Block)]) -> Job {
        let agent = ctx.world.agent_pos();
        let key = |t: &&(Pos, Block)| (t.0.manhattan(agent), t.0);
        if let Some(&(p, b)) = list.iter().filter(|t| ctx.in_reach(t.0) && !ctx.body_at(t.0)).min_by_key(key) {
            return Job::Place(p, b);
        }
        match list.iter().filter(|t| !self.unreachable.contains_key(&t.0)).min_by_key(key) {
            Some(&(p, b)) => Job::Place(p, b),
            None => {
                let p = list[0].0;
                let why = self.unreachable.get(&p).cloned().unwrap_or_default();
                Job::Fail(format!("I can't get close enough to {p} to put a block there: {why}"))
            }
        }
    }

    /// Choose what to place in the current (lowest) layer.
    fn choose_place(&mut self, ctx: &mut TaskContext, list: &[(Pos, Block)]) -> Job {
        let mut ready = Vec::new();
        let mut under_me = Vec::new();
        let mut floating = Vec::new();
        let mut under_player = None;
        let agent = ctx.world.agent_pos();
        for &(p, b) in list {
            if let Some(name) = ctx.player_at(p) {
                under_player.get_or_insert((name, p));
            } else if p == agent || p == agent.up(1) {
                under_me.push((p, b));
            } else if rules::has_support(p, |q| ctx.world.block_at(q)) || !ctx.world.is_known(p) {
                // Terrain not seen yet (a live server sends it near the bot) is not "nothing to
                // rest on": walk there first, and decide once it shows.
                ready.push((p, b));
            } else {
                floating.push((p, b));
            }
        }
        if !ready.is_empty() {
            self.waited = 0;
            return self.pick_place(ctx, &ready);
        }
        if !under_me.is_empty() {
            // Step aside, to a spot that blocks no other block of this layer either (otherwise
            // the agent could shuttle between two spots that are both in the way).
            self.keep_clear = Some(Arc::new(list.iter().map(|t| t.0).collect()));
            return self.pick_place(ctx, &under_me);
        }
        if let Some(&(p, _)) = floating.iter().min_by_key(|t| (t.0.manhattan(agent), t.0)) {
            return match support_chain(ctx, p, &self.blueprint) {
                Some(chain) => {
                    tracing::debug!(%p, len = chain.len(), "scaffold chain for a floating block");
                    self.chain = chain.into();
                    self.holding = Some(p);
                    Job::Again
                }
                None => Job::Fail(format!("I can't find anything to rest the block at {p} on")),
            };
        }
        let Some((name, p)) = under_player else { return Job::Wait };
        self.waited += 1;
        if self.waited == 1 {
            ctx.note(format!("{name}, could you step aside? I need to put a block at {p}."));
        }
        if self.waited > ctx.limits.player_wait_ticks {
            return Job::Fail(format!(
                "I couldn't finish because {name} is standing where I need to put a block ({p})"
            ));
        }
        Job::Wait
    }

    /// Place (`Some(block)`) or break (`None`) at `p`: now if within reach, else walk closer.
    fn act(&mut self, ctx: &mut TaskContext, p: Pos, block: Option<Block>) -> EditStep {
        if block.is_some()
            && let Some(name) = ctx.player_at(p)
        {
            self.waited += 1;
            if self.waited == 1 {
                ctx.note(format!("{name}, could you step aside? I need to put a block at {p}."));
            }
            if self.waited > ctx.limits.player_wait_ticks {
                let why = format!("I couldn't finish because {name} is standing where I need to put a block ({p})");
                return self.fail(ctx, why).unwrap_or(EditStep::Step(Step::Continue));
            }
            return EditStep::Step(Step::Continue);
        }
        let agent = ctx.world.agent_pos();
        let in_the_way = block.is_some() && (p == agent || p == agent.up(1));
        if !ctx.in_reach(p) || in_the_way {
            if let Some(why) = self.unreachable.get(&p) {
                let why = format!("I can't get close enough to {p}: {why}");
                return self.fail(ctx, why).unwrap_or(EditStep::Step(Step::Continue));
            }
            self.walks += 1;
            // The cleanup has its own bound (see `cleanup_walk`): a finished build is not failed
            // for the walks its tidying up takes.
            if self.walks > MAX_WALKS_WITHOUT_PROGRESS && !self.cleaning {
                let why = format!("I keep walking around without getting to {p}");
                return self.fail(ctx, why).unwrap_or(EditStep::Step(Step::Continue));
            }
            self.moving_to = Some(p);
            let options = if self.cleaning && self.cleanup_walk(ctx) {
                MoveOptions::breaking_out()
            } else {
                MoveOptions::working(Some(self.blueprint.clone()))
            };
            let goal = Goal::Reach { target: p, reach: ctx.limits.reach, keep_clear: self.keep_clear.take() };
            let walk = Move::with_goal(goal, options);
            return EditStep::Step(Step::Push(Box::new(walk)));
        }
        self.keep_clear = None;
        let scaffold = ctx.limits.scaffold;
        let is_support = block == Some(scaffold) && self.chain.front() == Some(&p);
        let was_scaffold = ctx.is_scaffold(p);
        let result = match block {
            Some(_) if is_support => ctx.place_scaffold(p),
            Some(b) => ctx.place(p, b),
            None => ctx.break_block(p),
        };
        match result {
            Ok(()) => {
                if is_support {
                    self.chain.pop_front();
                    self.temporary.push(p);
                }
                match block {
                    Some(_) if !is_support => self.report.placed += 1,
                    None if !was_scaffold => self.report.broken += 1,
                    _ => {}
                }
                self.stalled = 0;
                self.walks = 0;
                // On foot the scaffold only shrinks, so the unreachable are tried again once a
                // round (`cleanup_job`), not after every block: that would be a walk for each
                // of them after each block.
                if self.on_foot {
                    self.broken_this_round = true;
                } else {
                    self.unreachable.clear();
                }
            }
            Err(e) => {
                tracing::debug!(%p, %e, "edit action failed");
                if let ActionError::Unbreakable(_) = e {
                    self.report.missing += 1;
                    self.breaks.values_mut().for_each(|l| l.retain(|q| *q != p));
                }
                self.stalled += 1;
                if self.stalled > ctx.limits.max_stalled_ticks {
                    return self.fail(ctx, format!("I'm stuck: {e}")).unwrap_or(EditStep::Step(Step::Continue));
                }
            }
        }
        EditStep::Step(Step::Continue)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tasks::Limits;
    
    use crate::tasks::testing::block;
    use crate::world::Actor;
    use crate::world::embedded::EmbeddedWorld;

    /// A real body can stand on the edge of a neighbouring block while the block under its feet
    /// is air; the engine must not wait for that fall forever. (Without `advance` the embedded
    /// world applies no gravity: the agent hangs in the air.)
    #[test]
    fn a_fall_that_never_comes_is_not_waited_for_forever() {
        use crate::tasks::{Destroy, TaskMeta, TaskStack, TaskState};
        let mut w = EmbeddedWorld::flat();
        let stone = Pos::new(2, 6, 0);
        w.set_block_by(stone, block("stone"), Actor::World);
        w.set_agent_pos(Pos::new(0, 7, 0));
        let limits = Limits::default();
        let mut stack = TaskStack::default();
        let task = Destroy::new(vec![stone], "the stone", &limits).unwrap();
        let id = stack.push(Box::new(task), TaskMeta::default());
        for _ in 0..limits.max_fall_ticks {
            stack.tick(&mut w);
        }
        assert_eq!(w.block_at(stone), block("stone"), "a fall is waited for first");
        for _ in 0..5 {
            stack.tick(&mut w);
        }
        assert_eq!(w.block_at(stone), Block::AIR);
        let record = stack.record(id).unwrap();
        assert_eq!(record.state, TaskState::Done, "{:?}", record.outcome);
    }

    #[test]
    fn what_needs_breaking() {
        let w = EmbeddedWorld::flat();
        assert!(needs_break(&w, Pos::new(0, 4, 0), Block::AIR));
        assert!(!needs_break(&w, Pos::new(0, 4, 0), block("grass_block")));
        assert!(!needs_break(&w, Pos::new(0, 0, 0), Block::AIR), "bedrock is left alone");
    }

    #[test]
    fn duplicates_keep_the_last_entry() {
        let e = Edit::new(vec![(Pos::new(1, 5, 1), block("stone")), (Pos::new(1, 5, 1), block("dirt"))]);
        assert_eq!(e.targets(), &[(Pos::new(1, 5, 1), block("dirt"))]);
        assert_eq!(e.len(), 1);
    }

}
