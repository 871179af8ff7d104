//! Carrying out a command's plans, in order: tasks pushed on the task stack (so the first runs
//! first), stop / resume / undo applied at once, and a line to say for each.
//!
//! It sits below the dialogue: when a plan needs a yes/no first (a confirmation, or undoing a
//! big build) it hands the question back ([`Executed::Ask`]) and the dialogue keeps it open.

use std::sync::Arc;

use super::actions::{CONFIRM_BLOCKS, Plan};
use super::recipe::{Making, Recipe};
use crate::memory::{Memory, MemoryId};
use crate::tasks::{Repeat, Task, TaskError, TaskId, TaskMeta, TaskRecord, TaskStack, TakenDown, Times};
use crate::world::World;

/// What carrying out the plans came to.
#[derive(Debug)]
pub enum Executed {
    /// Done (tasks pushed, stops and undos applied): say these lines; the tasks pushed, first
    /// to run first.
    Done(Vec<String>, Vec<TaskId>),
    /// Nothing done yet: ask this yes/no question; on yes, carry out `plans` confirmed.
    Ask { question: String, plans: Vec<Plan> },
}

/// Carry out `plans` for `meta`'s speaker. Unless `confirmed` (the player already said yes),
/// undoing more than [`CONFIRM_BLOCKS`] block changes or a [`Plan::Confirm`] asks first.
pub fn execute(plans: Vec<Plan>, meta: TaskMeta, world: &dyn World, tasks: &mut TaskStack, memory: &mut Memory, confirmed: bool) -> Executed {
    // Undoing a big build takes a lot down: ask first.
    if !confirmed {
        for p in &plans {
            if let Some(r) = undone_by(p, tasks).filter(|r| r.changes.len() > CONFIRM_BLOCKS) {
                let question = format!("Undo {}? That changes {} blocks. (yes/no)", r.description, r.changes.len());
                return Executed::Ask { question, plans };
            }
        }
    }
    // A confirmation anywhere holds back the whole command until the player answers.
    if let Some(i) = plans.iter().position(|p| matches!(p, Plan::Confirm { .. })) {
        let mut plans = plans;
        let Plan::Confirm { question, plans: inner } = plans.remove(i) else { unreachable!() };
        plans.splice(i..i, inner);
        return Executed::Ask { question, plans };
    }
    let speaker = meta.speaker.clone().unwrap_or_default();
    let mut replies = Vec::new();
    // Tasks are pushed last-first so the first action runs first.
    let mut to_push: Vec<(Box<dyn Task>, String, TaskMeta)> = Vec::new();
    for plan in plans {
        match plan {
            Plan::Push { recipe, times, label } => match make_task(&recipe, &times, &label, tasks.limits()) {
                Ok(task) => {
                    let made = reserve(memory, recipe.makes(&speaker));
                    tasks.cancel_making(&recipe.takes_down());
                    let taken_down = recipe.takes_down().into_iter().filter_map(|id| as_known(memory, id)).collect();
                    let meta = TaskMeta { made, taken_down, ..meta.clone() };
                    to_push.push((task, acknowledge(&recipe, &times, &label, &speaker), meta))
                }
                Err(e) => replies.push(e.to_string()),
            },
            Plan::Stop => replies.push(match tasks.stop() {
                Some(id) => {
                    // What it changed so far can be taken back: say so in the same line.
                    let undoable = tasks.last_undoable(None).is_some_and(|r| r.id == id);
                    let undo = if undoable { ", or \"undo\" to take back what I did" } else { "" };
                    match tasks.paused() {
                        Some(d) => format!("Okay, I stopped {d}. Say \"resume\" to go on{undo}."),
                        None => "Okay, I stopped.".into(),
                    }
                }
                None => "I'm not doing anything right now.".into(),
            }),
            Plan::Resume => replies.push(match tasks.resume() {
                Some(_) => format!("Resuming: {}.", tasks.current().unwrap_or_else(|| "my work".into())),
                None => "There's nothing to resume.".into(),
            }),
            undo @ (Plan::Undo(_) | Plan::UndoMade(_)) => {
                let Some(record) = undone_by(&undo, tasks) else {
                    let made = matches!(undo, Plan::UndoMade(_));
                    replies.push(if made { "I didn't make that, or I already took it back, so there's nothing to undo." } else { "There's nothing for me to undo." }.into());
                    continue;
                };
                let (id, description, n) = (record.id, record.description.clone(), record.changes.len());
                // What the command took down comes back as itself: its names, who it was for.
                let made = record.meta.taken_down.iter().filter_map(|t| revive(memory, t)).collect();
                match tasks.undo(id, TaskMeta { made, ..meta.clone() }) {
                    Ok(_) => replies.push(format!("Okay, undoing {description} ({n} block changes).")),
                    Err(e) => replies.push(e.to_string()),
                }
            }
            Plan::Say(s) => replies.push(s),
            Plan::Confirm { .. } => {}
        }
    }
    let mut pushed = Vec::new();
    for (task, ack, meta) in to_push.into_iter().rev() {
        let made = meta.made.clone();
        match tasks.push_checked(task, meta, world) {
            Ok(id) => {
                pushed.insert(0, id);
                replies.insert(0, ack)
            }
            Err(e) => {
                for id in made {
                    if let Err(e) = memory.finish_plan(id) {
                        tracing::warn!("could not drop the plan of {id}: {e}");
                    }
                }
                replies.push(e.to_string())
            }
        }
    }
    Executed::Done(replies, pushed)
}

/// Holds in memory what a task will make, before its first block (see `memory::builds`). A
/// memory that cannot be written costs the names, not the build.
fn reserve(memory: &mut Memory, makes: Vec<Making>) -> Vec<i64> {
    let mut ids = Vec::new();
    for m in makes {
        let done = match &m {
            Making::New(made, plan) => memory.reserve_build(made, plan),
            Making::Existing(id, plan) => memory.set_plan(*id, plan).map(|()| *id),
        };
        match done {
            Ok(id) => ids.push(id),
            Err(e) => tracing::warn!("could not hold what a build makes in memory: {e}"),
        }
    }
    ids
}

/// A thing about to be taken down, as memory knows it (see [`TakenDown`]).
fn as_known(memory: &Memory, id: MemoryId) -> Option<TakenDown> {
    let said = memory.said_about(id).ok()?;
    let blocks = memory.block_object(id).ok()??.blocks;
    let since = memory.info(id).ok()??.created_tick;
    Some(TakenDown { said, blocks, since })
}

/// Brings back in memory a thing an undo puts back (see [`Memory::revive`]); a memory that
/// cannot be written costs the names, not the undo.
fn revive(memory: &mut Memory, t: &TakenDown) -> Option<MemoryId> {
    memory.revive(&t.said, &t.blocks, t.since).unwrap_or_else(|e| {
        tracing::warn!("could not bring back a thing taken down: {e}");
        None
    })
}

/// The command an undo plan takes back: the last one (of a kind), or the one that made a thing.
fn undone_by<'a>(plan: &Plan, tasks: &'a TaskStack) -> Option<&'a TaskRecord> {
    match plan {
        Plan::Undo(kind) => tasks.last_undoable(*kind),
        Plan::UndoMade(id) => tasks.undoable_that_made(*id),
        _ => None,
    }
}

/// Plans as one phrase ("building a red cube, then going to (1, 5, 2)"); `None` when a plan is
/// only something to say.
pub fn describe_plans(plans: &[Plan], speaker: &str) -> Option<String> {
    let mut parts = Vec::new();
    for plan in plans {
        parts.push(match plan {
            Plan::Push { recipe, times, label } => doing(recipe, times, label, speaker),
            Plan::Stop => "stopping".into(),
            Plan::Resume => "going on with what I stopped".into(),
            Plan::Undo(_) => "undoing my last change".into(),
            Plan::UndoMade(_) => "undoing what I made".into(),
            Plan::Confirm { plans, .. } => describe_plans(plans, speaker)?,
            Plan::Say(_) => return None,
        });
    }
    (!parts.is_empty()).then(|| parts.join(", then "))
}

/// The task for a recipe, looped as asked.
fn make_task(recipe: &Arc<dyn Recipe>, times: &Times, label: &str, limits: &crate::tasks::Limits) -> Result<Box<dyn Task>, TaskError> {
    match times {
        Times::Count(1) => recipe.task(limits, 0),
        t => {
            let r = Arc::clone(recipe);
            let l = limits.clone();
            // Check the first round now, so a bad request fails at once rather than in the loop.
            recipe.task(limits, 0)?;
            Ok(Box::new(Repeat::new(recipe.kind(), label.to_string(), t.clone(), Box::new(move |round, _| r.task(&l, round)))))
        }
    }
}

fn acknowledge(recipe: &Arc<dyn Recipe>, times: &Times, label: &str, speaker: &str) -> String {
    format!("Okay, {}.", doing(recipe, times, label, speaker))
}

/// What a task does, as a phrase: "building a red cube (3 times)".
fn doing(recipe: &Arc<dyn Recipe>, times: &Times, label: &str, speaker: &str) -> String {
    let what = match recipe.details() {
        Some(d) => format!("{}, {d}", recipe.doing(label, speaker)),
        None => recipe.doing(label, speaker),
    };
    let how = match times {
        Times::Count(1) => String::new(),
        Times::Count(n) => format!(" ({n} times)"),
        Times::Forever => " until you say stop".into(),
        Times::Until(_) => " until I get there".into(),
    };
    format!("{what}{how}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::world::embedded::EmbeddedWorld;

    fn run(plans: Vec<Plan>, confirmed: bool) -> Executed {
        execute(plans, TaskMeta::from_speaker("alice"), &EmbeddedWorld::flat(), &mut TaskStack::default(), &mut Memory::in_memory().unwrap(), confirmed)
    }

    #[test]
    fn a_confirmation_anywhere_asks_first_with_every_plan_held_back() {
        let plans = vec![Plan::Say("first".into()), Plan::Confirm { question: "Sure? (yes/no)".into(), plans: vec![Plan::Stop] }];
        let Executed::Ask { question, plans } = run(plans, false) else { panic!("asks") };
        assert_eq!(question, "Sure? (yes/no)");
        assert!(matches!(plans.as_slice(), [Plan::Say(_), Plan::Stop]), "{plans:?}");
    }

    #[test]
    fn plans_are_carried_out_in_order_with_a_line_each() {
        let Executed::Done(lines, _) = run(vec![Plan::Say("hi".into()), Plan::Stop, Plan::Resume, Plan::Undo(None)], true) else {
            panic!("done")
        };
        assert_eq!(lines, ["hi", "I'm not doing anything right now.", "There's nothing to resume.", "There's nothing for me to undo."]);
    }

    #[test]
    fn plans_read_as_one_phrase_unless_one_is_only_words() {
        assert_eq!(describe_plans(&[Plan::Stop, Plan::Resume], "alice").as_deref(), Some("stopping, then going on with what I stopped"));
        assert_eq!(describe_plans(&[Plan::Stop, Plan::Say("hi".into())], "alice"), None);
        assert_eq!(describe_plans(&[], "alice"), None);
    }
}
