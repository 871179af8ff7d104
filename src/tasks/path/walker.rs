//! [`Walker`]: follows planned paths one step per tick towards a goal — plan with A*
//! ([`plan`]), take one step per tick, wait for gravity after a drop, and re-plan when a step
//! fails or the agent is not where the plan expected (the world changed, or the task was
//! interrupted and resumed elsewhere). The tasks that walk ([`Move`](crate::tasks::Move),
//! [`Follow`](crate::tasks::Follow)) drive one and decide what its outcome means for them.
//!
//! - A goal farther than the planner reaches is walked in legs, each planned when the last ends.
//! - Shut in (only a few spots reachable on foot), a plain walk tries once more allowed to
//!   pillar up on scaffold, and says so; if that fails too, it reports [`Walk::ShutIn`].
//! - Where the way may lie in terrain the world has not seen yet (a live server sends it only
//!   around the bot), it walks to the edge of what it sees nearest the goal — the server sends
//!   more as it goes — and plans again; stuck at that edge, it waits a few seconds for the
//!   terrain, then says plainly that it cannot see the ground further ([`Walk::Unseen`]), never
//!   that it is shut in.

use super::{Goal, PathError, PathOptions, PathStep, StepKind, plan};
use crate::tasks::TaskContext;
use crate::tasks::context::{FallWatch, Landing};
use crate::tasks::movement::MoveOptions;
use crate::world::{ActionError, Look, Pos};

/// What one walker step came to.
#[derive(Clone, Debug, PartialEq)]
pub enum Walk {
    Arrived,
    Walking,
    Failed(String),
    /// No way out on foot or by climbing: the agent is shut in (the reason, for a player).
    ShutIn(String),
    /// No way there; `closest` is the reachable spot nearest it, if any.
    NoWay { reason: String, closest: Option<Pos> },
    /// The way on lies in terrain it cannot see (a live server has not sent it); it walked as
    /// near as it could (the reason, for a player).
    Unseen(String),
}

/// Follows planned paths one step per tick towards a goal, re-planning as needed.
#[derive(Clone, Debug)]
pub struct Walker {
    goal: Goal,
    options: MoveOptions,
    steps: Vec<PathStep>,
    next: usize,
    /// Where the agent should be before taking `steps[next]`; `None` forces a re-plan.
    at: Option<Pos>,
    replans: u32,
    falling: FallWatch,
    /// A plain walk found no way on foot and is allowed to pillar up.
    climbing: bool,
    /// Legs walked so far of a walk too long to plan at once.
    legs: u32,
    /// Ticks left to wait at the edge of the terrain it can see, for more to arrive.
    waiting: u32,
    /// Waits at that edge without getting nearer.
    unseen_waits: u32,
}

impl Walker {
    pub fn new(goal: Goal, options: MoveOptions) -> Self {
        Walker {
            goal,
            options,
            steps: Vec::new(),
            next: 0,
            at: None,
            replans: 0,
            falling: FallWatch::default(),
            climbing: false,
            legs: 0,
            waiting: 0,
            unseen_waits: 0,
        }
    }

    pub fn goal(&self) -> &Goal {
        &self.goal
    }

    pub fn options(&self) -> &MoveOptions {
        &self.options
    }

    /// Plan afresh on the next step (the agent got somewhere else on its own, e.g. broke out).
    pub fn replan(&mut self) {
        self.steps.clear();
        self.next = 0;
        self.at = None;
        self.climbing = false;
    }

    pub fn step(&mut self, ctx: &mut TaskContext) -> Walk {
        let here = ctx.world.agent_pos();
        // In the air after a drop or a jump: let gravity finish first.
        match self.falling.check(ctx) {
            Landing::Resting => {}
            Landing::Falling => return Walk::Walking,
            Landing::Overdue => return Walk::Failed(format!("I'm stuck in the air at {here}")),
        }
        if self.goal.reached(here) {
            return Walk::Arrived;
        }
        if self.waiting > 0 {
            // At the edge of what it can see, waiting for the terrain beyond to arrive.
            self.waiting -= 1;
            if self.waiting > 0 {
                return Walk::Walking;
            }
        }
        if (self.at != Some(here) || self.next >= self.steps.len())
            && let Some(end) = self.plan_from(ctx, here)
        {
            return end;
        }
        let step = self.steps[self.next];
        match execute(ctx, here, step) {
            Ok(()) => {
                self.next += 1;
                self.at = Some(step.to);
            }
            Err(e) => {
                tracing::debug!(%here, ?step, %e, "step failed, re-planning");
                self.at = None;
                self.replans += 1;
                if self.replans > ctx.limits.max_replans {
                    return Walk::Failed(format!("I can't get to {}: {e}", self.goal.target()));
                }
            }
        }
        Walk::Walking
    }

    /// Plan afresh from `here`: `None` with the steps ready, or how the walk ends (or waits).
    fn plan_from(&mut self, ctx: &mut TaskContext, here: Pos) -> Option<Walk> {
        if self.at.is_some() || !self.steps.is_empty() {
            self.replans += 1;
            if self.replans > ctx.limits.max_replans {
                return Some(Walk::Failed(format!("I keep getting blocked on my way to {}", self.goal.target())));
            }
        }
        let mut opts = self.options.path_options(ctx);
        if self.climbing {
            opts.pillar = Some(ctx.limits.scaffold);
        }
        let mut planned = plan(&*ctx.world, here, &self.goal, &opts, ctx.scaffold());
        let mut shut_in = false;
        if let Err(PathError::WalledOff { explored, .. }) = planned
            && explored < SHUT_IN_SPOTS
        {
            shut_in = true;
            if opts.pillar.is_none() && !self.options.break_out_first {
                // Shut in (a pit, a hole it dug): try once more, allowed to build up on scaffold.
                opts.pillar = Some(ctx.limits.scaffold);
                let climb = plan(&*ctx.world, here, &self.goal, &opts, ctx.scaffold());
                if climb.is_ok() {
                    self.climbing = true;
                    shut_in = false;
                    ctx.note(format!("There's no way to {} on foot, so I'm building my way up.", self.goal.target()));
                    planned = climb;
                }
            }
        }
        // Too far to plan at once: walk a leg of the way, then plan again from there.
        if let Err(PathError::TooFar { .. }) = planned {
            let leg = leg_towards(here, self.goal.target(), ctx.limits.max_path_distance);
            planned = plan(&*ctx.world, here, &Goal::Near { target: leg, tolerance: LEG_TOLERANCE }, &opts, ctx.scaffold());
            if matches!(planned, Ok(_) | Err(PathError::Unseen { .. })) {
                if self.legs == 0 {
                    let t = self.goal.target();
                    let far = f64::from(t.x - here.x).hypot(f64::from(t.z - here.z));
                    ctx.note(format!("{t} is {far:.0} blocks away; I'll walk there in legs."));
                }
                self.legs += 1;
                self.replans = 0;
            }
        }
        // The way may lie in terrain it cannot see yet: walk to the edge of what it sees, nearest
        // the goal (the server sends more as it goes), then plan again.
        if let Err(PathError::Unseen { edge, .. }) = planned {
            return self.toward_unseen(ctx, here, edge, &opts);
        }
        self.unseen_waits = 0;
        match planned {
            Ok(path) if !path.steps.is_empty() => {
                self.steps = path.steps;
                self.next = 0;
                self.at = Some(here);
                None
            }
            Ok(_) => Some(Walk::Arrived),
            Err(e) if shut_in => Some(Walk::ShutIn(e.to_string())),
            Err(e @ PathError::WalledOff { .. }) => Some(Walk::NoWay { closest: e.closest(), reason: e.to_string() }),
            Err(e) => Some(Walk::Failed(e.to_string())),
        }
    }

    /// No way through what it can see: walk to `edge`, the spot nearest the goal it can reach,
    /// when that is nearer than `here`; else wait a little for the terrain beyond to arrive, and
    /// then say plainly why it stops here.
    fn toward_unseen(&mut self, ctx: &mut TaskContext, here: Pos, edge: Pos, opts: &PathOptions) -> Option<Walk> {
        if self.distance(edge) + 1.0 < self.distance(here) && self.walk_to(ctx, here, edge, opts) {
            tracing::debug!(%here, %edge, "walking to the edge of the terrain I can see");
            self.unseen_waits = 0;
            return None;
        }
        if self.unseen_waits < UNSEEN_WAITS {
            self.unseen_waits += 1;
            self.waiting = UNSEEN_LOOK_EVERY;
            self.steps.clear();
            self.at = None;
            return Some(Walk::Walking);
        }
        Some(Walk::Unseen(format!(
            "I can't see the ground past ({}, {}) yet — I walked as near as I could.",
            here.x, here.z
        )))
    }

    /// How far `p` is from the goal, across the ground.
    fn distance(&self, p: Pos) -> f64 {
        let t = self.goal.target();
        f64::from(p.x - t.x).hypot(f64::from(p.z - t.z))
    }

    /// Take the steps to `spot` (a way point on a walk the planner cannot see to the end of);
    /// false when there is no way there either.
    fn walk_to(&mut self, ctx: &mut TaskContext, here: Pos, spot: Pos, opts: &PathOptions) -> bool {
        match plan(&*ctx.world, here, &Goal::Near { target: spot, tolerance: 0 }, opts, ctx.scaffold()) {
            Ok(path) if !path.steps.is_empty() => {
                self.steps = path.steps;
                self.next = 0;
                self.at = Some(here);
                self.replans = 0;
                true
            }
            _ => false,
        }
    }
}

/// A walk that could reach fewer spots than this on foot is shut in, and may climb out.
const SHUT_IN_SPOTS: usize = 1000;

/// At the edge of the terrain it sees, with the way on unseen: it looks again every this many
/// ticks, this many times (5 seconds in all), before it says it cannot see the way.
const UNSEEN_LOOK_EVERY: u32 = 20;
const UNSEEN_WAITS: u32 = 5;

/// How near a leg of a long walk must end to its waypoint (hills move the ground up and down).
const LEG_TOLERANCE: i32 = 8;

/// The waypoint of the next leg of a walk from `here` to a `target` beyond `limit` blocks:
/// three quarters of the limit along the way, at the agent's height (the leg may end on
/// ground up to [`LEG_TOLERANCE`] blocks off it).
pub(crate) fn leg_towards(here: Pos, target: Pos, limit: i32) -> Pos {
    let (dx, dz) = (f64::from(target.x - here.x), f64::from(target.z - here.z));
    let far = dx.abs().max(dz.abs()).max(1.0);
    let step = f64::from((limit * 3 / 4).max(1)).min(far) / far;
    Pos::new(here.x + (dx * step).round() as i32, here.y, here.z + (dz * step).round() as i32)
}

/// Carry out one path step (one world action; a pillar is a jump with a block placed beneath,
/// which a player does in one motion too).
fn execute(ctx: &mut TaskContext, here: Pos, step: PathStep) -> Result<(), ActionError> {
    // A walker faces the way it goes, as a player does: "go back" and "to your left" then mean
    // what someone watching it walk would expect.
    if (step.to.x, step.to.z) != (here.x, here.z) {
        let (from, to) = (here.center(), Pos::new(step.to.x, here.y, step.to.z).center());
        ctx.world.set_look(Look::towards(from, to));
    }
    match step.kind {
        StepKind::Walk | StepKind::Climb | StepKind::Swim => ctx.world.step_to(step.to),
        StepKind::Drop => ctx.world.step_to(Pos::new(step.to.x, here.y, step.to.z)),
        StepKind::Pillar(block) => {
            ctx.world.step_to(here.up(1))?;
            if block == ctx.limits.scaffold { ctx.place_scaffold(here) } else { ctx.place(here, block) }
        }
        StepKind::DigDown => ctx.break_block(here.down(1)),
    }
}


#[cfg(test)]
mod tests {
    use super::*;
    use crate::tasks::testing::run_task;
    use crate::tasks::{Move, TaskMeta, TaskStack, TaskState};
    use crate::world::embedded::EmbeddedWorld;
    use crate::world::*;
    use crate::world::fog::Fog;
    use crate::tasks::testing::block;

    #[test]
    fn a_walk_too_long_to_plan_at_once_goes_in_legs() {
        let mut w = EmbeddedWorld::flat();
        let goal = Pos::new(300, 5, -40);
        let (state, outcome) = run_task(&mut w, Move::to(goal), 2000);
        assert_eq!((state, outcome.as_str()), (TaskState::Done, "I'm at (300, 5, -40)."));
        assert_eq!(w.agent_pos(), goal);
        assert_eq!(leg_towards(Pos::new(0, 5, 0), goal, 128), Pos::new(96, 5, -13));
    }

    #[test]
    fn a_walker_faces_the_way_it_goes() {
        let mut w = EmbeddedWorld::flat();
        let (state, _) = run_task(&mut w, Move::to(Pos::new(0, 5, -12)), 400);
        assert_eq!(state, TaskState::Done);
        // It looks north (-z), so "back" is south, the way it came.
        let d = w.agent_look().direction();
        assert!(d.z < -0.99 && d.x.abs() < 0.01, "{:?}", w.agent_look());
        run_task(&mut w, Move::to(Pos::new(9, 5, -12)), 400);
        let d = w.agent_look().direction();
        assert!(d.x > 0.99 && d.z.abs() < 0.01, "east: {:?}", w.agent_look());
    }


    fn walk(fog: &mut Fog, task: impl crate::tasks::Task + 'static, budget: u32) -> (TaskState, String) {
        let mut s = TaskStack::default();
        let id = s.push(Box::new(task), TaskMeta::default());
        for _ in 0..budget {
            fog.world.advance();
            s.tick(fog);
            if s.is_idle() {
                break;
            }
        }
        let r = s.record(id).expect("the task's record");
        (r.state, r.outcome.clone().unwrap_or_default())
    }

    #[test]
    fn walks_on_into_terrain_that_arrives_as_it_goes() {
        let mut fog = Fog { world: EmbeddedWorld::flat(), edge: 40, follow: true };
        let goal = Pos::new(100, 5, 3);
        let (state, outcome) = walk(&mut fog, Move::to(goal), 1000);
        assert_eq!((state, outcome.as_str()), (TaskState::Done, "I'm at (100, 5, 3)."));
        assert_eq!(fog.world.agent_pos(), goal);
    }

    /// At the edge of the terrain it was sent, with little room on this side (a walk used to take
    /// that for being shut in and try to break out): it goes as near as it can and says why.
    #[test]
    fn stops_at_the_edge_of_what_it_sees_and_says_so() {
        let mut fog = Fog { world: EmbeddedWorld::flat(), edge: 20, follow: false };
        fog.world.set_agent_pos(Pos::new(15, 5, 0));
        let before = fog.world.clone();
        let (state, outcome) = walk(&mut fog, Move::come_here(Pos::new(40, 5, 0)), 400);
        assert_eq!(state, TaskState::Failed);
        assert_eq!(outcome, "I can't see the ground past (20, 0) yet — I walked as near as I could.");
        assert_eq!(fog.world.agent_pos(), Pos::new(20, 5, 0));
        assert!(fog.world.same_blocks(&before).is_none(), "nothing broken or built");
    }

    /// A build 100 blocks off, past the terrain the server has sent: the search for a spot to
    /// build from runs out of tries among the spots it can see (pillars multiply them), so it
    /// walks the way in legs as the terrain arrives, and builds.
    #[test]
    fn builds_past_the_terrain_it_can_see_yet() {
        let mut fog = Fog { world: EmbeddedWorld::flat(), edge: 48, follow: true };
        let blocks = far_wall();
        let build = crate::tasks::Build::new(blocks.clone(), "a cobblestone wall", &crate::tasks::Limits::default()).unwrap();
        let (state, outcome) = walk(&mut fog, build, 4000);
        assert_eq!((state, outcome.as_str()), (TaskState::Done, "I finished building a cobblestone wall."));
        assert!(blocks.iter().all(|(p, b)| fog.world.block_at(*p) == *b));
    }

    /// A wall 100 blocks east and 60 south of the origin: a search box too big to try every spot.
    fn far_wall() -> Vec<(Pos, Block)> {
        (60..=66).flat_map(|z| (5..8).map(move |y| (Pos::new(100, y, z), block("cobblestone")))).collect()
    }
}
