//! Repeat: run a task made by a factory N times, forever (until stopped), or until a condition
//! holds — "spin around 3 times", "dig until you hit stone" (a dig one layer lower each round,
//! until the hole's bottom touches stone).
//!
//! Each round is pushed as a sub-task, so the rounds' block changes all belong to the one
//! command (a single "undo" reverts the whole loop). A round that fails ends the loop with the
//! round's reason.

use super::{ChildOutcome, Condition, Step, Task, TaskContext, TaskError, TaskKind};
use crate::world::{BBox, World};

/// Makes the task for round `i` (0-based), looking at the world as it is when the round starts.
pub type TaskFactory = Box<dyn FnMut(u32, &dyn World) -> Result<Box<dyn Task>, TaskError>>;

/// How long to go on.
#[derive(Clone, Debug, PartialEq)]
pub enum Times {
    Count(u32),
    Forever,
    /// Until the condition holds (checked before every round, at most `Limits::max_repeats`).
    Until(Condition),
}

pub struct Repeat {
    kind: TaskKind,
    label: String,
    factory: TaskFactory,
    times: Times,
    rounds: u32,
    front: Option<BBox>,
}

impl Repeat {
    /// `kind` is what the loop counts as for history and undo (a loop of digs is a dig);
    /// `label` says what one round does ("digging down").
    pub fn new(kind: TaskKind, label: impl Into<String>, times: Times, factory: TaskFactory) -> Repeat {
        Repeat { kind, label: label.into(), factory, times, rounds: 0, front: None }
    }

    pub fn rounds(&self) -> u32 {
        self.rounds
    }
}

impl Task for Repeat {
    fn kind(&self) -> TaskKind {
        self.kind
    }

    fn describe(&self) -> String {
        match &self.times {
            Times::Count(n) => format!("{} ({} of {n})", self.label, (self.rounds).clamp(1, (*n).max(1))),
            Times::Forever => format!("{} (until you tell me to stop)", self.label),
            Times::Until(_) => format!("{} (round {})", self.label, self.rounds.max(1)),
        }
    }

    fn step(&mut self, ctx: &mut TaskContext) -> Step {
        match &self.times {
            Times::Count(n) if self.rounds >= *n => {
                return Step::Done(format!("Done, {} time{}.", n, if *n == 1 { "" } else { "s" }));
            }
            Times::Until(c) if c.holds(&*ctx.world, self.front) => {
                return Step::Done(match self.rounds {
                    0 => "No need: that's already the case.".to_string(),
                    n => format!("Done, after {n} round{}.", if n == 1 { "" } else { "s" }),
                });
            }
            Times::Until(_) if self.rounds >= ctx.limits.max_repeats => {
                return Step::Failed(format!("I gave up after {} rounds without getting there", self.rounds));
            }
            _ => {}
        }
        match (self.factory)(self.rounds, &*ctx.world) {
            Ok(task) => {
                if let Err(e) = task.check(&*ctx.world, ctx.limits) {
                    return Step::Failed(stopped_because(self.rounds, &e.to_string()));
                }
                self.front = task.region().or(self.front);
                self.rounds += 1;
                Step::Push(task)
            }
            Err(e) => Step::Failed(stopped_because(self.rounds, &e.to_string())),
        }
    }

    fn child_finished(&mut self, outcome: ChildOutcome) -> Option<Step> {
        match outcome {
            ChildOutcome::Done(_) => None,
            ChildOutcome::Failed(reason) => Some(Step::Failed(stopped_because(self.rounds.saturating_sub(1), &reason))),
        }
    }

    fn region(&self) -> Option<BBox> {
        self.front
    }
}

/// The chat line for a loop that ends early after `completed` good rounds.
fn stopped_because(completed: u32, reason: &str) -> String {
    match completed {
        0 => reason.to_string(),
        1 => format!("I stopped after 1 round: {reason}"),
        n => format!("I stopped after {n} rounds: {reason}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tasks::testing::run_task;
    use crate::tasks::{Dance, TaskMeta, TaskStack, TaskState};
    use crate::world::embedded::EmbeddedWorld;

    fn spins() -> TaskFactory {
        Box::new(|_, _| Ok(Box::new(Dance::spin(true))))
    }

    #[test]
    fn zero_times_is_done_at_once_and_forever_runs_until_stopped() {
        let mut w = EmbeddedWorld::flat();
        let out = run_task(&mut w, Repeat::new(TaskKind::Dance, "spinning", Times::Count(0), spins()), 5);
        assert_eq!(out, (TaskState::Done, "Done, 0 times.".into()));
        let mut s = TaskStack::default();
        s.push(Box::new(Repeat::new(TaskKind::Dance, "spinning", Times::Forever, spins())), TaskMeta::default());
        for _ in 0..500 {
            w.advance();
            s.tick(&mut w);
        }
        assert_eq!(s.current().as_deref(), Some("spinning (until you tell me to stop)"));
        assert_eq!(s.depth(), 2);
        s.cancel();
        assert!(s.is_idle());
    }

    #[test]
    fn a_failing_round_ends_the_loop_with_its_reason() {
        let mut w = EmbeddedWorld::flat();
        let factory: TaskFactory =
            Box::new(
                |i, _| {
                    if i < 2 { Ok(Box::new(Dance::nod())) } else { Err(TaskError::Invalid("my neck hurts".into())) }
                },
            );
        let out = run_task(&mut w, Repeat::new(TaskKind::Dance, "nodding", Times::Count(5), factory), 50);
        assert_eq!(out, (TaskState::Failed, "I stopped after 2 rounds: my neck hurts".into()));
        assert_eq!(stopped_because(0, "x"), "x");
        assert_eq!(stopped_because(1, "x"), "I stopped after 1 round: x");
    }
}
