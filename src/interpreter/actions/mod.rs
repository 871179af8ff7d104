//! Commands: each action of a `HUMAN_GIVE_COMMAND` becomes a [`Plan`] — a task recipe to push
//! (once, N times, forever or until something holds), a stack operation (stop, resume, undo), a
//! reply, or a yes/no question first when the request is destructive or large.
//!
//! One action, one file: each reads its part of the logical form into a [`Recipe`] (what the
//! bot will do, as data), says how the bot describes doing it, and makes its task. Adding an
//! action is a new file here, its line in [`action_plan`], and its task in `crate::tasks`.

pub mod build;
mod copy;
mod dance;
mod destroy;
mod dig;
mod farm;
mod fill;
mod gather;
mod get;
mod items;
mod movement;
mod paint;
mod spawn;

use std::sync::Arc;

use super::context::Turn;
use super::problem::{Problem, Result};
use super::recipe::Recipe;
use crate::logical_form::{Action, ActionType, ConditionType, LogicalForm, RemoveCondition, Span};
use crate::schematics::numbers::read_number;
use crate::schematics;
use crate::tasks::{Condition, TaskKind, Times};
use crate::world::Block;

pub use build::{Build, MAX_COPIES};
pub use dance::{Dance, DanceSpec};
pub use destroy::{CONFIRM_BLOCKS, Destroy};
pub use dig::Dig;
pub use fill::Fill;
pub use farm::Plant;
pub use gather::Gather;
pub use get::{Get, Give};
pub use items::ItemJob;
pub use movement::{ComeHere, Follow, MoveTo};
pub use spawn::Spawn;

#[derive(Debug)]
pub enum Plan {
    /// Push a task made from the recipe, repeated as `times` says.
    Push { recipe: Arc<dyn Recipe>, times: Times, label: String },
    Stop,
    Resume,
    /// Undo the last task (of this kind, if given).
    Undo(Option<TaskKind>),
    /// Undo the task that made this thing ("undo the wall").
    UndoMade(crate::memory::MemoryId),
    Say(String),
    /// Ask yes/no; on yes, carry out `plans`.
    Confirm { question: String, plans: Vec<Plan> },
}

/// The most commands one "undo the last N …" takes back.
const MAX_UNDOS: i64 = 10;

/// Every action of a command, in order.
pub fn command(turn: &mut Turn, lf: &LogicalForm, limits: &schematics::Limits) -> Result<Vec<Plan>> {
    let mut plans = Vec::new();
    for action in lf.actions() {
        // "undo the last two things": that many undos, the newest first.
        if action.action_type == ActionType::Undo {
            // "undo the wall": the command that made that thing.
            if let Some(thing) = action.reference_object.as_ref().and_then(|r| r.as_object()) {
                let found = super::reference::resolve_one(turn, thing, super::reference::Want::Anything)?;
                let id = found.id().ok_or_else(|| Problem::say("I can only undo a thing I made."))?;
                // A hole is no thing a command makes: the last dig.
                let hole = found.kind() == Some(crate::memory::MemoryKind::Hole);
                plans.push(if hole { Plan::Undo(Some(TaskKind::Dig)) } else { Plan::UndoMade(id) });
                continue;
            }
            let kind = target_kind(turn, action.target_action_type);
            let n = action.target_action_type.and_then(|s| number(&turn.words(s))).unwrap_or(1).clamp(1, MAX_UNDOS);
            plans.extend((0..n).map(|_| Plan::Undo(kind)));
            continue;
        }
        let cond = action.remove_condition.as_ref().or(lf.remove_condition.as_ref());
        plans.push(action_plan(turn, action, cond, limits)?);
    }
    if plans.is_empty() {
        return Err(Problem::say("What would you like me to do?"));
    }
    Ok(plans)
}

pub(crate) fn number(words: &[String]) -> Option<i64> {
    (0..words.len()).find_map(|i| read_number(words, i)).map(|(v, _)| v)
}

pub(super) fn span_number(turn: &Turn, span: Option<Span>) -> Option<i64> {
    number(&turn.words(span?))
}

/// The number an ordinal on the filters says ("build *3* towers", "spawn *two* pigs").
pub(super) fn ordinal_count(turn: &Turn, filters: Option<&crate::logical_form::Filters>) -> Option<i64> {
    let selector = filters?.selector.as_ref()?.as_selector()?;
    match &selector.ordinal {
        Some(crate::logical_form::Ordinal::Span(sp)) => span_number(turn, Some(*sp)),
        _ => None,
    }
}

/// A block a player names in a condition ("until you hit stone", "until you reach water"): a
/// block name, or a word the lexicon knows for one ("rock", "the sea").
fn terrain_block(words: &[String]) -> Option<Block> {
    let joined = words.join("_");
    let singular = joined.trim_end_matches('s');
    for candidate in [joined.as_str(), singular] {
        let mapped = crate::lexicon::lexicon().meaning(crate::lexicon::Group::Terrain, candidate).unwrap_or(candidate);
        if let Some(b) = Block::from_name(mapped) {
            return Some(b);
        }
    }
    // Several words: the last one that is a block ("the grey stone" → stone). One word that is
    // not a block is not one.
    if words.len() > 1 { words.iter().rev().find_map(|w| terrain_block(std::slice::from_ref(w))) } else { None }
}

/// How long a command goes on: once, N times, forever, or until a block is next to it.
fn times_of(turn: &Turn, cond: Option<&RemoveCondition>) -> Result<Times> {
    let Some(c) = cond else { return Ok(Times::Count(1)) };
    match c.condition_type {
        Some(ConditionType::Never) => Ok(Times::Forever),
        Some(ConditionType::AdjacentToBlockType) => {
            let words = c.block_type.map(|s| turn.words(s)).unwrap_or_default();
            terrain_block(&words)
                .map(|b| Times::Until(Condition::AdjacentToBlockType(b)))
                .ok_or_else(|| Problem::say(format!("I don't know a block called \"{}\".", words.join(" "))))
        }
        _ => {
            // Comparators in the data count runs ("3 times"); a bare condition span is read for
            // a count or a block.
            let value = c.condition.as_ref().and_then(|cmp| cmp.input_right.value).and_then(|s| span_number(turn, Some(s)));
            let words = c.condition_span.map(|s| turn.words(s)).unwrap_or_default();
            match value.or_else(|| number(&words)) {
                Some(n) if n >= 1 => Ok(Times::Count(n.min(1000) as u32)),
                Some(_) => Err(Problem::say("That's not a number of times I can do something.")),
                None => Ok(terrain_block(&words).map(|b| Times::Until(Condition::AdjacentToBlockType(b))).unwrap_or(Times::Count(1))),
            }
        }
    }
}

pub(super) fn push(recipe: impl Recipe + 'static, times: Times, label: impl Into<String>) -> Plan {
    Plan::Push { recipe: Arc::new(recipe), times, label: label.into() }
}

fn action_plan(turn: &mut Turn, a: &Action, cond: Option<&RemoveCondition>, limits: &schematics::Limits) -> Result<Plan> {
    let times = times_of(turn, cond)?;
    match a.action_type {
        ActionType::Move => movement::movement(turn, a, times),
        ActionType::Build => build::build(turn, a, times, limits),
        ActionType::FreeBuild => build::free_build(turn, a, times, limits),
        ActionType::Destroy => destroy::destroy(turn, a, times),
        ActionType::Dig => dig::dig(turn, a, times),
        ActionType::Fill => fill::fill(turn, a, times),
        ActionType::Spawn => spawn::spawn(turn, a, times),
        ActionType::Dance => dance::dance(turn, a, times),
        ActionType::Get if a.source.is_some() => items::fetch(turn, a),
        ActionType::Get => get::get(turn, a),
        ActionType::Collect => gather::collect(turn, a),
        ActionType::Plant => farm::plant(turn, a),
        ActionType::Put => items::put(turn, a),
        ActionType::Drop => items::drop(turn, a),
        ActionType::Craft => items::craft(turn, a),
        ActionType::Paint => paint::paint(turn, a),
        ActionType::Undo => Ok(Plan::Undo(target_kind(turn, a.target_action_type))),
        ActionType::Stop => Ok(Plan::Stop),
        ActionType::Resume => Ok(Plan::Resume),
        _ => Err(Problem::say("I don't know how to do that yet.")),
    }
}

/// "undo the build" → Build; "undo that" → the last task of any kind. The words' action comes
/// from the lexicon's verbs (with their other forms: "built", "digging", "the hole").
fn target_kind(turn: &Turn, span: Option<Span>) -> Option<TaskKind> {
    let words = turn.words(span?);
    let lx = crate::lexicon::lexicon();
    // "the wrong spot, undo it": the command's own verb in the span is no kind to undo; "undo
    // the undo" names one, after a determiner.
    let named = |k: usize| k > 0 && lx.is(crate::lexicon::Class::Determiner, &words[k - 1]);
    (0..words.len()).find_map(|k| lx.verb(&words[k]).filter(|a| *a != ActionType::Undo || named(k)).and_then(|a| TaskKind::from_action_type(a.as_str())))
}

#[cfg(test)]
mod tests {
    use super::terrain_block;

    fn words(text: &str) -> Vec<String> {
        text.split(' ').map(String::from).collect()
    }

    #[test]
    fn terrain_words_name_a_block_or_none_and_never_loop() {
        assert_eq!(terrain_block(&words("stone")).map(|b| b.name()), Some("stone"));
        assert_eq!(terrain_block(&words("the grey rocks")).map(|b| b.name()), Some("stone"));
        // "dig a trench 10 blocks long" once read "10 blocks long" as the block to dig down to.
        assert_eq!(terrain_block(&words("10 blocks long")), None);
        assert_eq!(terrain_block(&words("10")), None);
        assert_eq!(terrain_block(&[]), None);
    }
}
