//! The task stack's rules: interrupting, pausing, resuming, cancelling, undoing, and the events it hands on.

use super::*;
use crate::world::embedded::EmbeddedWorld;
use crate::world::{Block, Pos};

/// A task whose steps come from a closure (tick number → step).
struct Scripted<F: FnMut(u32, &mut TaskContext) -> Step> {
    name: &'static str,
    n: u32,
    f: F,
    children: Vec<ChildOutcome>,
}

fn scripted<F: FnMut(u32, &mut TaskContext) -> Step + 'static>(name: &'static str, f: F) -> Box<dyn Task> {
    Box::new(Scripted { name, n: 0, f, children: Vec::new() })
}

impl<F: FnMut(u32, &mut TaskContext) -> Step> Task for Scripted<F> {
    fn kind(&self) -> TaskKind {
        TaskKind::Dance
    }
    fn describe(&self) -> String {
        self.name.to_string()
    }
    fn step(&mut self, ctx: &mut TaskContext) -> Step {
        self.n += 1;
        (self.f)(self.n, ctx)
    }
    fn child_finished(&mut self, outcome: ChildOutcome) -> Option<Step> {
        self.children.push(outcome.clone());
        match outcome {
            ChildOutcome::Failed(r) => Some(Step::Failed(format!("parent gave up: {r}"))),
            ChildOutcome::Done(_) => None,
        }
    }
}

fn ticks(s: &mut TaskStack, w: &mut EmbeddedWorld, n: u32) {
    for _ in 0..n {
        w.advance();
        s.tick(w);
    }
}

fn events(s: &mut TaskStack) -> Vec<(u64, TaskEventKind)> {
    s.drain_events().into_iter().map(|e| (e.id.0, e.event)).collect()
}

#[test]
fn a_new_command_interrupts_and_the_old_one_resumes() {
    let mut w = EmbeddedWorld::flat();
    let mut s = TaskStack::default();
    let a = s.push(
        scripted("a", |n, _| if n >= 3 { Step::Done("a done".into()) } else { Step::Continue }),
        TaskMeta::default(),
    );
    ticks(&mut s, &mut w, 1);
    let b = s.push(scripted("b", |_, _| Step::Done("b done".into())), TaskMeta::default());
    assert_eq!(s.current().as_deref(), Some("b"));
    ticks(&mut s, &mut w, 5);
    assert!(s.is_idle());
    use TaskEventKind::*;
    assert_eq!(
        events(&mut s),
        vec![
            (a.0, Started),
            (a.0, Interrupted),
            (b.0, Started),
            (b.0, Finished("b done".into())),
            (a.0, Resumed),
            (a.0, Finished("a done".into()))
        ]
    );
    assert_eq!(s.history().iter().map(|r| r.id).collect::<Vec<_>>(), vec![b, a]);
}

#[test]
fn stop_pauses_until_resume_even_across_a_new_command() {
    let mut w = EmbeddedWorld::flat();
    let mut s = TaskStack::default();
    let a = s.push(
        scripted("a", |n, _| if n >= 4 { Step::Done("ok".into()) } else { Step::Continue }),
        TaskMeta::default(),
    );
    ticks(&mut s, &mut w, 1);
    assert_eq!(s.stop(), Some(a));
    assert_eq!(s.stop(), None, "already paused");
    ticks(&mut s, &mut w, 10);
    assert!(s.is_idle() && s.history().is_empty());
    s.push(scripted("b", |_, _| Step::Done("b".into())), TaskMeta::default());
    ticks(&mut s, &mut w, 3);
    assert!(s.is_idle(), "the paused one still waits");
    assert_eq!(s.paused().as_deref(), Some("a"));
    assert_eq!(s.resume(), Some(a));
    ticks(&mut s, &mut w, 10);
    assert_eq!(s.record(a).unwrap().state, TaskState::Done);
}

#[test]
fn sub_tasks_share_the_change_list_and_failures_go_to_the_parent() {
    let mut w = EmbeddedWorld::flat();
    let mut s = TaskStack::default();
    let red = Block::from_name("red_wool").unwrap();
    let id = s.push(
        scripted("parent", move |n, _| match n {
            1 => Step::Push(scripted("child", move |_, ctx| {
                ctx.place(Pos::new(1, 5, 1), red).ok();
                Step::Failed("child broke".into())
            })),
            _ => Step::Continue,
        }),
        TaskMeta::default(),
    );
    ticks(&mut s, &mut w, 3);
    let r = s.record(id).unwrap();
    assert_eq!(r.state, TaskState::Failed);
    assert_eq!(r.outcome.as_deref(), Some("parent gave up: child broke"));
    assert_eq!(r.changes.len(), 1, "the child's block counts for the top-level command");
    assert_eq!(s.last_undoable(None).map(|r| r.id), Some(id));
}

#[test]
fn a_failed_check_fails_on_the_first_tick() {
    struct Refuses;
    impl Task for Refuses {
        fn kind(&self) -> TaskKind {
            TaskKind::Dig
        }
        fn describe(&self) -> String {
            "refusing".into()
        }
        fn step(&mut self, _: &mut TaskContext) -> Step {
            unreachable!("never stepped")
        }
        fn check(&self, _: &dyn World, _: &Limits) -> Result<(), TaskError> {
            Err(TaskError::Invalid("no way".into()))
        }
    }
    let mut w = EmbeddedWorld::flat();
    let mut s = TaskStack::default();
    assert!(s.push_checked(Box::new(Refuses), TaskMeta::default(), &w).is_err());
    assert!(s.pending().next().is_none());
    s.push(Box::new(Refuses), TaskMeta::default());
    ticks(&mut s, &mut w, 1);
    assert_eq!(s.history()[0].outcome.as_deref(), Some("no way"));
}

#[test]
fn a_command_without_progress_is_stopped_with_a_message() {
    /// A build stuck at `done` of 10 blocks forever.
    struct Stuck(usize);
    impl Task for Stuck {
        fn kind(&self) -> TaskKind {
            TaskKind::Build
        }
        fn describe(&self) -> String {
            "building a stuck tower".into()
        }
        fn step(&mut self, _: &mut TaskContext) -> Step {
            Step::Continue
        }
        fn progress(&self) -> Option<(usize, usize)> {
            Some((self.0, 10))
        }
    }
    let mut w = EmbeddedWorld::flat();
    let mut s = TaskStack::default();
    let idle = s.limits().max_idle_ticks;
    let all_in = s.push(Box::new(Stuck(10)), TaskMeta::default());
    ticks(&mut s, &mut w, idle - 5);
    assert!(s.record(all_in).is_some_and(|r| r.state == TaskState::Running), "not yet");
    ticks(&mut s, &mut w, 10);
    let r = s.record(all_in).unwrap();
    assert_eq!(r.state, TaskState::Done, "every block was in place: {:?}", r.outcome);
    assert!(r.outcome.as_deref().is_some_and(|o| o.contains("got stuck")), "{:?}", r.outcome);
    // Time paused does not count.
    let half = s.push(Box::new(Stuck(4)), TaskMeta::default());
    ticks(&mut s, &mut w, idle / 2);
    s.stop();
    ticks(&mut s, &mut w, idle);
    s.resume();
    ticks(&mut s, &mut w, idle / 2);
    assert!(s.record(half).is_some_and(|r| r.state == TaskState::Running), "paused time is not idle time");
    ticks(&mut s, &mut w, idle / 2 + 5);
    let r = s.record(half).unwrap();
    assert_eq!(r.state, TaskState::Failed);
    assert!(r.outcome.as_deref().is_some_and(|o| o.contains("no progress for 60 seconds (4 of 10 blocks done)")), "{:?}", r.outcome);
}

#[test]
fn depth_counts_nested_sub_tasks() {
    let mut w = EmbeddedWorld::flat();
    let mut s = TaskStack::default();
    s.push(
        scripted("outer", |n, _| {
            if n == 1 { Step::Push(scripted("inner", |_, _| Step::Continue)) } else { Step::Continue }
        }),
        TaskMeta::default(),
    );
    assert_eq!(s.depth(), 1);
    ticks(&mut s, &mut w, 2);
    assert_eq!((s.depth(), s.current_step().as_deref()), (2, Some("inner")));
    s.clear();
    assert_eq!(s.depth(), 0);
    assert_eq!(s.history()[0].state, TaskState::Stopped);
}
