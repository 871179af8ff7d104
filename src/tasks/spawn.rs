//! Spawn: walk within reach of a spot, then spawn mobs there (creative mode's spawn eggs), and
//! say what the world shows afterwards. A server may ignore a spawn egg (a plugin, a protected
//! area, a server that does not know the mob): the bot counts the new mobs it sees at the spot
//! and reports those, never what it asked for.

use super::build::Build;
use super::movement::{Move, MoveOptions};
use super::{Step, Task, TaskContext, TaskKind};
use crate::lexicon::lexicon;
use crate::world::{Block, Pos, rules};

/// Mobs within [`CROWD_RADIUS`] blocks of the spot past which the bot spawns no more, however
/// many requests add up.
pub const MAX_MOBS_AROUND: usize = 60;
pub const CROWD_RADIUS: f64 = 32.0;
/// New mobs this near the spot count as the ones spawned (they may drop or take a step).
const SPOT_RADIUS: f64 = 6.0;
/// How long the spawned mobs may take to show (a server's answer), in ticks.
const SHOW_WAIT_TICKS: u32 = 60;

pub struct Spawn {
    mob: String,
    at: Pos,
    count: u32,
    spawned: u32,
    walked: bool,
    /// Whether the scaffold it climbed to reach the spot was taken down.
    cleared: bool,
    /// Every mob seen before the first spawn: the ones that appear later are new.
    before: Option<Vec<u64>>,
    /// Ticks waited, after the last spawn, for them to show.
    waited: u32,
}

impl Spawn {
    /// Spawn one `mob` (an entity id such as `pig`) with its feet in block `at`.
    pub fn new(mob: impl Into<String>, at: Pos) -> Spawn {
        let mob = rules::normalize_id(&mob.into());
        Spawn { mob, at, count: 1, spawned: 0, walked: false, cleared: false, before: None, waited: 0 }
    }

    /// Spawn `count` of them (one per tick).
    pub fn times(mut self, count: u32) -> Spawn {
        self.count = count.clamp(1, 64);
        self
    }

    fn name(&self) -> String {
        lexicon().display_name(&self.mob)
    }

    /// New mobs of the kind near the spot.
    fn appeared(&self, ctx: &TaskContext) -> u32 {
        let before = self.before.as_deref().unwrap_or_default();
        let here = self.at.feet();
        let new = ctx.world.mobs().into_iter().filter(|m| {
            m.kind == self.mob && !before.contains(&m.id) && m.pos.distance(here) <= SPOT_RADIUS
        });
        new.count() as u32
    }

    /// Once the eggs are used: a pillar climbed to reach a high spot (the top of a tower) comes
    /// down again, then what the world shows is said.
    fn finish(&mut self, ctx: &mut TaskContext) -> Step {
        if !self.cleared && !ctx.scaffold().is_empty() {
            self.cleared = true;
            let gone = ctx.scaffold().iter().map(|p| (*p, Block::AIR)).collect();
            if let Ok(down) = Build::new(gone, "the scaffold", ctx.limits) {
                return Step::Push(Box::new(down.said_as("taking down")));
            }
        }
        self.judge(ctx)
    }

    /// What the world shows once the eggs are used: all of them, some, or none.
    fn judge(&mut self, ctx: &TaskContext) -> Step {
        let seen = self.appeared(ctx).min(self.spawned);
        if seen >= self.spawned {
            return Step::Done(format!("I spawned {}.", lexicon().counted(self.spawned, &self.name())));
        }
        self.waited += 1;
        if self.waited < SHOW_WAIT_TICKS {
            return Step::Continue;
        }
        let asked = lexicon().counted(self.spawned, &self.name());
        match seen {
            0 => {
                let none = if self.spawned == 1 { "it didn't appear" } else { "none appeared" };
                Step::Failed(format!("I tried to spawn {asked}, but {none} — spawn eggs may not work here."))
            }
            n => Step::Done(format!("I tried to spawn {asked}, but only {n} appeared.")),
        }
    }
}

impl Task for Spawn {
    fn kind(&self) -> TaskKind {
        TaskKind::Spawn
    }

    fn describe(&self) -> String {
        format!("spawning {} at {}", lexicon().counted(self.count, &self.name()), self.at)
    }

    fn step(&mut self, ctx: &mut TaskContext) -> Step {
        if self.spawned >= self.count {
            return self.finish(ctx);
        }
        if !ctx.in_reach(self.at) && !self.walked {
            self.walked = true;
            // It may climb on scaffold, as a build does, to reach a spot up high.
            let walk = Move::within_reach(self.at, ctx.limits.reach, MoveOptions::working(None));
            return Step::Push(Box::new(walk));
        }
        if !ctx.in_reach(self.at) {
            return Step::Failed(format!("I can't get close enough to {} to spawn anything there", self.at));
        }
        if self.before.is_none() {
            self.before = Some(ctx.world.mobs().into_iter().map(|m| m.id).collect());
        }
        let here = self.at.feet();
        let around = ctx.world.mobs().iter().filter(|m| m.pos.distance(here) <= CROWD_RADIUS).count();
        if around >= MAX_MOBS_AROUND {
            return Step::Failed(format!("There are already {around} animals around there; I won't spawn more."));
        }
        if let Err(e) = ctx.world.spawn_mob(&self.mob, self.at.feet()) {
            return Step::Failed(e.to_string());
        }
        self.spawned += 1;
        if self.spawned < self.count {
            return Step::Continue;
        }
        self.finish(ctx)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tasks::TaskState;
    use crate::tasks::testing::run_task;
    use crate::world::embedded::EmbeddedWorld;
    use crate::tasks::fake_server::FakeServer;
    use crate::world::{Vec3, World};

    #[test]
    fn spawns_several_next_to_itself() {
        let mut w = EmbeddedWorld::flat();
        let out = run_task(&mut w, Spawn::new("cow", Pos::new(2, 5, 0)).times(3), 10);
        assert_eq!(out, (TaskState::Done, "I spawned 3 cows.".into()));
        assert_eq!(w.mobs().len(), 3);
        assert_eq!(w.agent_pos(), Pos::new(0, 5, 0), "within reach already: no walk");
        let out = run_task(&mut w, Spawn::new("iron_golem", Pos::new(2, 5, 2)), 10);
        assert_eq!(out, (TaskState::Done, "I spawned an iron golem.".into()));
    }

    #[test]
    fn a_crowd_around_the_spot_stops_more_spawning() {
        let mut w = EmbeddedWorld::flat();
        for i in 0..MAX_MOBS_AROUND - 2 {
            w.spawn_mob("pig", Vec3::new(5.5 + (i % 10) as f64, 5.0, 5.5 + (i / 10) as f64)).unwrap();
        }
        let (state, said) = run_task(&mut w, Spawn::new("cow", Pos::new(2, 5, 0)).times(5), 20);
        assert_eq!(state, TaskState::Failed);
        assert!(said.contains("already 60 animals"), "{said}");
        assert_eq!(w.mobs().len(), MAX_MOBS_AROUND, "two were spawned, then no more");
    }

    #[test]
    fn says_what_appeared_not_what_it_asked_for() {
        let mut w = FakeServer::new(EmbeddedWorld::flat());
        w.spawns = Some(0);
        let out = w.run(Spawn::new("cow", Pos::new(2, 5, 0)).times(2), 200);
        assert_eq!(
            out,
            (TaskState::Failed, "I tried to spawn 2 cows, but none appeared — spawn eggs may not work here.".into())
        );
        w.spawns = Some(1);
        let out = w.run(Spawn::new("cow", Pos::new(2, 5, 0)).times(3), 200);
        assert_eq!(out, (TaskState::Done, "I tried to spawn 3 cows, but only 1 appeared.".into()));
    }
}
