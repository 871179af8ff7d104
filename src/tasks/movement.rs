//! Getting around: [`Move`] (walk to a place), "come here" (walk to the speaker), and
//! [`Follow`] (keep walking after a player until stopped).
//!
//! All of them drive a [`Walker`] (`path/walker.rs`): it plans with A*, takes one step per tick,
//! re-plans as needed, walks far goals in legs and walks toward terrain it cannot see yet.
//!
//! Choice for when no walking path exists: a plain Move never tunnels through what is in the
//! way — breaking a player's wall to reach a spot is rarely what they meant. When the agent
//! itself is shut in (only a few spots reachable on foot: a pit, a hole it dug), the walker tries
//! one more plan in which it may *pillar up* on scaffold blocks; if that works it says so, and
//! the blocks it stood on stay in its change record, so "undo" removes them. If that fails too
//! it is truly shut in, and breaks out through the thinnest wall, putting the blocks back behind
//! it ([`BreakOut`]); anything else **fails with the reason** ("the path is walled off", "I can't
//! see the ground past …"). Moves pushed by builds and digs may pillar from the start (see
//! [`MoveOptions::working`]); the build takes its scaffold down when it finishes.

use super::blueprint::Blueprint;
use super::breakout::BreakOut;
use super::path::walker::{Walk, Walker};
use super::path::{Goal, PathOptions};
use super::{Step, Task, TaskContext, TaskKind};
use crate::world::Pos;
use std::sync::Arc;

/// How a walk may get there.
#[derive(Clone, Debug, Default)]
pub struct MoveOptions {
    /// May pillar up on scaffold (used inside builds and digs).
    pub working: bool,
    /// The build under way, when `working` (its blocks serve as pillars, its inside is avoided).
    pub blueprint: Option<Arc<Blueprint>>,
    /// Shut in, break out (leaving everything as it was) rather than climb out on scaffold.
    pub break_out_first: bool,
}

impl MoveOptions {
    pub fn working(blueprint: Option<Arc<Blueprint>>) -> Self {
        MoveOptions { working: true, blueprint, break_out_first: false }
    }

    /// A plain walk that, shut in, breaks out rather than climbs.
    pub fn breaking_out() -> Self {
        MoveOptions { break_out_first: true, ..MoveOptions::default() }
    }

    pub(crate) fn path_options(&self, ctx: &TaskContext) -> PathOptions {
        if self.working {
            PathOptions::working(ctx.limits, self.blueprint.clone())
        } else {
            PathOptions::walking(ctx.limits)
        }
    }
}

/// Walk to a place.
pub struct Move {
    walker: Walker,
    label: Option<String>,
    arrived: Option<String>,
    /// Whether it already broke out of somewhere on this walk (once is enough).
    broke_out: bool,
    /// When there is no way there: go as close as possible and say so (walks players ask for;
    /// a build's walks report failure instead, so the build can decide).
    settle: bool,
    /// Where it wanted to go, once it settled for getting close.
    settled_for: Option<Pos>,
    /// What it is going to, in words ("the red block"), for what it says when it settles.
    destination: Option<String>,
}

impl Move {
    /// Walk to exactly `target` (feet position).
    pub fn to(target: Pos) -> Move {
        Move::near(target, 0)
    }

    /// Walk to within `tolerance` blocks of `target` (along every axis).
    pub fn near(target: Pos, tolerance: i32) -> Move {
        Move::with_goal(Goal::Near { target, tolerance: tolerance.max(0) }, MoveOptions::default())
    }

    /// "Come here": walk to within 2 blocks of the speaker's feet.
    pub fn come_here(speaker_pos: Pos) -> Move {
        let mut m = Move::near(speaker_pos, 2);
        m.label = Some("coming to you".into());
        m.arrived = Some("Here I am.".into());
        m
    }

    /// Walk until block `target` is within `reach` (and not inside the agent).
    pub fn within_reach(target: Pos, reach: f64, options: MoveOptions) -> Move {
        Move::with_goal(Goal::Reach { target, reach, keep_clear: None }, options)
    }

    pub fn with_goal(goal: Goal, options: MoveOptions) -> Move {
        Move { walker: Walker::new(goal, options), label: None, arrived: None, broke_out: false, settle: false, settled_for: None, destination: None }
    }

    /// Names where it is going ("the red block"), for what it says if it must settle for near.
    pub fn towards(mut self, destination: impl Into<String>) -> Move {
        self.destination = Some(destination.into());
        self
    }

    /// Where it is going, in words, else the position.
    fn destination(&self, goal: Pos) -> String {
        self.destination.clone().unwrap_or_else(|| goal.to_string())
    }

    /// With no way there, go to the reachable spot nearest it instead, and say so.
    pub fn or_nearest(mut self) -> Move {
        self.settle = true;
        self
    }

    /// Replace the description ("going to the house").
    pub fn labelled(mut self, label: impl Into<String>) -> Move {
        self.label = Some(label.into());
        self
    }

    pub fn goal(&self) -> &Goal {
        self.walker.goal()
    }
}

impl Task for Move {
    fn kind(&self) -> TaskKind {
        TaskKind::Move
    }

    fn describe(&self) -> String {
        match (&self.label, self.walker.goal()) {
            (Some(l), _) => l.clone(),
            (None, Goal::Near { target, .. }) => format!("walking to {target}"),
            (None, Goal::Reach { target, .. }) => format!("getting within reach of {target}"),
        }
    }

    fn step(&mut self, ctx: &mut TaskContext) -> Step {
        match self.walker.step(ctx) {
            Walk::Walking => Step::Continue,
            Walk::Arrived => {
                // A walk a player asked for that climbed on scaffold ("go stand on top of the
                // tower") leaves the pillar it stands above, and says so: "undo" takes it away.
                let left = ctx.scaffold().len();
                if self.settle && left > 0 {
                    let block = ctx.limits.scaffold.name().replace('_', " ");
                    ctx.note(format!("(I climbed up on a pillar of {left} {block} blocks; say \"undo\" to take it down.)"));
                }
                match self.settled_for {
                    Some(goal) => Step::Done(format!("I'm at {}, as close as I can get to {}.", ctx.world.agent_pos(), self.destination(goal))),
                    None => Step::Done(self.arrived.clone().unwrap_or_else(|| format!("I'm at {}.", ctx.world.agent_pos()))),
                }
            }
            Walk::Failed(reason) => Step::Failed(reason),
            Walk::NoWay { reason, closest: Some(near) } if self.settle && self.settled_for.is_none() => {
                let goal = self.walker.goal().target();
                ctx.note(format!("There's no way all the way to {}, so I'm going as close as I can.", self.destination(goal)));
                self.settled_for = Some(goal);
                let options = self.walker.options().clone();
                self.walker = Walker::new(Goal::Near { target: near, tolerance: 0 }, options);
                tracing::debug!(%reason, %near, "settling for the nearest reachable spot");
                Step::Continue
            }
            Walk::NoWay { reason, .. } => Step::Failed(reason),
            // Shut in: break out (putting the wall back), then walk on.
            Walk::ShutIn(_) if !self.broke_out => {
                self.broke_out = true;
                self.walker.replan();
                Step::Push(Box::new(BreakOut::toward(self.walker.goal().target())))
            }
            Walk::ShutIn(reason) => Step::Failed(reason),
            Walk::Unseen(reason) => Step::Failed(reason),
        }
    }
}

/// Follow a player until stopped: re-target their position every few ticks and keep within a
/// couple of blocks of them.
pub struct Follow {
    player: String,
    tolerance: i32,
    retarget_every: u32,
    walker: Option<Walker>,
    target: Option<Pos>,
    since_retarget: u32,
    unseen: u32,
    /// After a failed walk, ticks to wait before trying again.
    cooldown: u32,
    complained: bool,
}

impl Follow {
    pub fn player(name: impl Into<String>) -> Follow {
        Follow {
            player: name.into(),
            tolerance: 2,
            retarget_every: 10,
            walker: None,
            target: None,
            since_retarget: 0,
            unseen: 0,
            cooldown: 0,
            complained: false,
        }
    }

    /// Keep within `tolerance` blocks (default 2).
    pub fn within(mut self, tolerance: i32) -> Follow {
        self.tolerance = tolerance.max(1);
        self
    }
}

/// Ticks a followed player may stay out of sight before Follow gives up.
const FOLLOW_LOST_TICKS: u32 = 600;

impl Task for Follow {
    fn kind(&self) -> TaskKind {
        TaskKind::Follow
    }

    fn describe(&self) -> String {
        format!("following {}", self.player)
    }

    fn step(&mut self, ctx: &mut TaskContext) -> Step {
        self.since_retarget += 1;
        let Some(target) = ctx.world.players().into_iter().find(|p| p.name == self.player).map(|p| p.pos.block())
        else {
            self.unseen += 1;
            if self.unseen == 1 {
                ctx.note(format!("I can't see {} right now.", self.player));
            }
            if self.unseen > FOLLOW_LOST_TICKS {
                return Step::Failed(format!("I lost sight of {}.", self.player));
            }
            return Step::Continue;
        };
        self.unseen = 0;
        if ctx.world.agent_pos().chebyshev(target) <= self.tolerance {
            self.walker = None;
            return Step::Continue;
        }
        if self.cooldown > 0 {
            self.cooldown -= 1;
            return Step::Continue;
        }
        let moved = self.target.is_none_or(|t| t.chebyshev(target) > 1);
        if self.walker.is_none() || (self.since_retarget >= self.retarget_every && moved) {
            let goal = Goal::Near { target, tolerance: self.tolerance };
            self.walker = Some(Walker::new(goal, MoveOptions::default()));
            self.target = Some(target);
            self.since_retarget = 0;
        }
        if let Some(w) = &mut self.walker {
            match w.step(ctx) {
                Walk::Walking => {}
                Walk::Arrived => self.walker = None,
                Walk::Failed(reason) | Walk::ShutIn(reason) | Walk::Unseen(reason) | Walk::NoWay { reason, .. } => {
                    if !self.complained {
                        ctx.note(format!("I can't keep up with {}: {reason}", self.player));
                        self.complained = true;
                    }
                    self.walker = None;
                    self.cooldown = 20;
                }
            }
        }
        Step::Continue
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tasks::testing::{block, run_task};
    use crate::tasks::{TaskMeta, TaskStack, TaskState};
    use crate::world::embedded::EmbeddedWorld;
    use crate::world::{Actor, BBox, World};

    #[test]
    fn walks_one_step_per_tick() {
        let mut w = EmbeddedWorld::flat();
        let mut s = TaskStack::default();
        s.push(Box::new(Move::to(Pos::new(5, 5, 0))), TaskMeta::default());
        for x in 1..=5 {
            w.advance();
            s.tick(&mut w);
            assert_eq!(w.agent_pos(), Pos::new(x, 5, 0));
        }
        w.advance();
        s.tick(&mut w);
        assert!(s.is_idle());
        assert_eq!(s.history()[0].outcome.as_deref(), Some("I'm at (5, 5, 0)."));
    }

    #[test]
    fn re_plans_when_a_wall_appears_on_the_way() {
        let mut w = EmbeddedWorld::flat();
        let mut s = TaskStack::default();
        s.push(Box::new(Move::to(Pos::new(8, 5, 0))), TaskMeta::default());
        for _ in 0..2 {
            w.advance();
            s.tick(&mut w);
        }
        // A player walls the straight line off.
        w.fill_by(BBox::new(Pos::new(5, 5, -3), Pos::new(5, 6, 3)), block("stone"), Actor::Player("bob".into()));
        for _ in 0..60 {
            w.advance();
            s.tick(&mut w);
        }
        assert!(s.is_idle());
        assert_eq!(w.agent_pos(), Pos::new(8, 5, 0));
    }

    #[test]
    fn a_walk_shut_in_breaks_out_and_leaves_every_block_as_it_was() {
        let mut w = EmbeddedWorld::flat();
        // Walled in with a roof: no way out on foot or by climbing.
        let shell = BBox::new(Pos::new(-3, 5, -3), Pos::new(3, 8, 3));
        for p in shell.iter().filter(|p| p.x.abs() == 3 || p.z.abs() == 3 || p.y == 8) {
            w.set_block_by(p, block("stone"), Actor::World);
        }
        let before = w.clone();
        let (state, msg) = run_task(&mut w, Move::to(Pos::new(8, 5, 0)), 200);
        assert_eq!(state, TaskState::Done, "{msg}");
        assert_eq!(w.agent_pos(), Pos::new(8, 5, 0));
        assert!(w.same_blocks(&before).is_none(), "the wall it broke through is whole again");
        assert_eq!(Move::come_here(Pos::new(1, 5, 1)).describe(), "coming to you");
    }

    #[test]
    fn a_walk_that_cannot_get_there_fails_unless_asked_to_get_close() {
        let mut w = EmbeddedWorld::flat();
        // The goal is walled in; the agent is not.
        let shell = BBox::new(Pos::new(7, 5, -3), Pos::new(13, 8, 3));
        for p in shell.iter().filter(|p| p.x == 7 || p.x == 13 || p.z.abs() == 3 || p.y == 8) {
            w.set_block_by(p, block("stone"), Actor::World);
        }
        let before = w.clone();
        let (state, msg) = run_task(&mut w, Move::to(Pos::new(10, 5, 0)), 60);
        assert_eq!((state, msg.as_str()), (TaskState::Failed, "I can't find a way to (10, 5, 0): the path is walled off"));
        let (state, msg) = run_task(&mut w, Move::to(Pos::new(10, 5, 0)).or_nearest(), 60);
        assert_eq!(state, TaskState::Done, "{msg}");
        assert!(msg.contains("as close as I can get to (10, 5, 0)"), "{msg}");
        assert_eq!(w.agent_pos(), Pos::new(6, 5, 0));
        assert!(w.same_blocks(&before).is_none(), "nothing broken");
    }

    #[test]
    fn climbs_out_of_a_pit_on_a_pillar_it_reports() {
        let mut w = EmbeddedWorld::flat();
        w.fill_by(BBox::new(Pos::new(0, 0, 0), Pos::new(0, 4, 0)), crate::world::Block::AIR, Actor::World);
        w.set_block_by(Pos::new(0, 0, 0), block("bedrock"), Actor::World);
        w.set_agent_pos(Pos::new(0, 1, 0));
        let mut s = TaskStack::default();
        let id = s.push(Box::new(Move::to(Pos::new(4, 5, 0))), TaskMeta::default());
        for _ in 0..40 {
            w.advance();
            s.tick(&mut w);
        }
        assert_eq!(w.agent_pos(), Pos::new(4, 5, 0));
        let r = s.record(id).unwrap();
        assert_eq!(r.state, TaskState::Done);
        assert_eq!(r.changes.len(), 3, "three blocks to stand on (then a step up), kept for undo");
        assert!(
            s.drain_events()
                .iter()
                .any(|e| matches!(&e.event, crate::tasks::TaskEventKind::Note(n) if n.contains("building my way up")))
        );
        assert_eq!(Move::near(Pos::new(1, 5, 1), 3).labelled("going home").describe(), "going home");
    }
}
