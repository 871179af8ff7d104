//! Spawn: walk within reach of a spot, then spawn mobs there (creative mode's spawn eggs).

use super::movement::{Move, MoveOptions};
use super::{Step, Task, TaskContext, TaskKind};
use crate::world::Pos;

/// Mobs within [`CROWD_RADIUS`] blocks of the spot past which the bot spawns no more, however
/// many requests add up.
pub const MAX_MOBS_AROUND: usize = 60;
pub const CROWD_RADIUS: f64 = 32.0;

pub struct Spawn {
    mob: String,
    at: Pos,
    count: u32,
    spawned: u32,
    walked: bool,
}

impl Spawn {
    /// Spawn one `mob` (an entity id such as `pig`) with its feet in block `at`.
    pub fn new(mob: impl Into<String>, at: Pos) -> Spawn {
        Spawn { mob: mob.into(), at, count: 1, spawned: 0, walked: false }
    }

    /// Spawn `count` of them (one per tick).
    pub fn times(mut self, count: u32) -> Spawn {
        self.count = count.clamp(1, 64);
        self
    }
}

impl Task for Spawn {
    fn kind(&self) -> TaskKind {
        TaskKind::Spawn
    }

    fn describe(&self) -> String {
        format!("spawning {} at {}", plural(&self.mob, self.count), self.at)
    }

    fn step(&mut self, ctx: &mut TaskContext) -> Step {
        if !ctx.in_reach(self.at) && !self.walked {
            self.walked = true;
            let walk = Move::within_reach(self.at, ctx.limits.reach, MoveOptions::default());
            return Step::Push(Box::new(walk));
        }
        if !ctx.in_reach(self.at) {
            return Step::Failed(format!("I can't get close enough to {} to spawn anything there", self.at));
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
        Step::Done(format!("I spawned {}.", plural(&self.mob, self.count)))
    }
}

fn plural(mob: &str, n: u32) -> String {
    let name = mob.replace('_', " ");
    if n == 1 {
        let article = if name.starts_with(['a', 'e', 'i', 'o', 'u']) { "an" } else { "a" };
        format!("{article} {name}")
    } else if name.rsplit(' ').next().is_some_and(|last| crate::lexicon::lexicon().is(crate::lexicon::Class::NotPlural, last)) {
        format!("{n} {name}")
    } else {
        format!("{n} {name}s")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tasks::TaskState;
    use crate::tasks::testing::run_task;
    use crate::world::World;
    use crate::world::embedded::EmbeddedWorld;

    #[test]
    fn spawns_several_next_to_itself() {
        assert_eq!(plural("iron_golem", 1), "an iron golem");
        assert_eq!(plural("cow", 3), "3 cows");
        let mut w = EmbeddedWorld::flat();
        let out = run_task(&mut w, Spawn::new("cow", Pos::new(2, 5, 0)).times(3), 10);
        assert_eq!(out, (TaskState::Done, "I spawned 3 cows.".into()));
        assert_eq!(w.mobs().len(), 3);
        assert_eq!(w.agent_pos(), Pos::new(0, 5, 0), "within reach already: no walk");
    }

    #[test]
    fn a_crowd_around_the_spot_stops_more_spawning() {
        let mut w = EmbeddedWorld::flat();
        for i in 0..MAX_MOBS_AROUND - 2 {
            w.spawn_mob("pig", crate::world::Vec3::new(5.5 + (i % 10) as f64, 5.0, 5.5 + (i / 10) as f64)).unwrap();
        }
        let (state, said) = run_task(&mut w, Spawn::new("cow", Pos::new(2, 5, 0)).times(5), 20);
        assert_eq!(state, TaskState::Failed);
        assert!(said.contains("already 60 animals"), "{said}");
        assert_eq!(w.mobs().len(), MAX_MOBS_AROUND, "two were spawned, then no more");
    }
}
