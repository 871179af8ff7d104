//! SPAWN: "spawn a pig", "spawn 3 cows over there". The mob's kind is read from the player's words
//! ("pigs", "a fluffy sheep"), the count from a number. One command spawns at most
//! [`MAX_PER_COMMAND`], repeats included ("spawn 3 pigs 10 times" is 30): more is refused in
//! words, never cut down in silence, and never repeated forever.

use crate::interpreter::location::{self, Purpose};
use crate::interpreter::recipe::Recipe;
use crate::logical_form::{Action, Predicate};
use crate::tasks::{Limits, Spawn as SpawnTask, Task, TaskError, TaskKind, Times};
use crate::world::Pos;
use crate::world::rules::{MOB_KINDS, mob_kind};

use super::{Plan, push, span_number};
use crate::interpreter::context::Turn;
use crate::interpreter::problem::{Problem, Result};

/// Spawn `count` mobs of kind `mob` at `at`.
#[derive(Debug, Clone, PartialEq)]
pub struct Spawn {
    pub mob: String,
    pub at: Pos,
    pub count: u32,
}

impl Recipe for Spawn {
    fn kind(&self) -> TaskKind {
        TaskKind::Spawn
    }
    fn task(&self, _: &Limits, _: u32) -> std::result::Result<Box<dyn Task>, TaskError> {
        Ok(Box::new(SpawnTask::new(self.mob.clone(), self.at).times(self.count)))
    }
    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}

/// The most mobs one command may spawn, repeats included.
pub const MAX_PER_COMMAND: u64 = 20;

pub(super) fn spawn(turn: &mut Turn, a: &Action, times: Times) -> Result<Plan> {
    let r = a.reference_object.as_ref().and_then(|r| r.as_object()).ok_or_else(|| Problem::say("What should I spawn?"))?;
    let name_words: Vec<String> = r
        .filters
        .iter()
        .flat_map(|f| f.triples())
        .filter(|t| t.pred_text == Predicate::HasName)
        .filter_map(|t| t.obj_span())
        .flat_map(|s| turn.words(s))
        .collect();
    let span_words = r.text_span.map(|s| turn.words(s)).unwrap_or_default();
    let words = if name_words.is_empty() { span_words.clone() } else { name_words };
    // "a snow golem": the name may be only "golem", the thing's words say the whole of it.
    let Some(mob) = mob_kind(&words).or_else(|| mob_kind(&span_words)) else {
        // A dangerous mob the bot cannot spawn anyway ("summon a wither") is refused as such.
        turn.allowed_words(&words)?;
        return Err(Problem::say(format!("I don't know how to spawn \"{}\".", words.join(" "))));
    };
    turn.allowed([&mob])?;
    let count = super::ordinal_count(turn, r.filters.as_ref())
        .or_else(|| r.text_span.and_then(|s| span_number(turn, Some(s))))
        .or_else(|| {
            // "some cows", "several sheep": more than one without a number; a plural alone, two.
            let plural = words.last().is_some_and(|w| w.ends_with('s') && !MOB_KINDS.contains(&w.as_str()));
            match turn.details().amount {
                Some(crate::logical_form::Amount::Some) => Some(3),
                Some(crate::logical_form::Amount::Couple) => Some(2),
                _ if plural => Some(2),
                _ => None,
            }
        })
        .unwrap_or(1)
        .max(1) as u64;
    // "make 3 slimes" may be read as a count and as a repeat: once.
    let times = match times {
        Times::Count(n) if n > 1 && u64::from(n) == count => Times::Count(1),
        t => t,
    };
    let total = match &times {
        Times::Count(n) => count.saturating_mul(*n as u64),
        Times::Forever | Times::Until(_) => {
            return Err(Problem::say(format!("I won't spawn animals without end; ask for up to {MAX_PER_COMMAND}.")));
        }
    };
    if total > MAX_PER_COMMAND {
        return Err(Problem::say(format!(
            "That's {total} animals; I spawn at most {MAX_PER_COMMAND} for one request. Ask for {MAX_PER_COMMAND} or fewer."
        )));
    }
    let count = count as u32;
    let t = location::place_or_default(turn, a.location.as_ref(), Purpose::Place)?;
    let under = t.step == Some(Pos::new(0, -1, 0));
    let at = match t.anchor {
        // "under the bridge": in the room below it, if it has any.
        Some(b) if under && !t.exact => match location::under_spot(turn.world, b) {
            Some(p) => p,
            None => {
                let mob = crate::lexicon::lexicon().display_name(&mob);
                return Err(Problem::say(format!("There's no room under it for a {mob}: it stands on the ground. I can put one next to it instead.")));
            }
        },
        // "by the tower": on the ground beside it, on the speaker's side — never inside a
        // hollow tower or on its top.
        Some(b) if t.step.is_none() && !t.inside && !t.exact => location::beside(turn.world, b, turn.speaker_block()),
        // Inside a thing: the spot on its floor, not the ground found from above (its roof).
        // A solid thing has none.
        Some(_) if t.inside && turn.world.block_at(t.pos).is_solid() => {
            let mob = crate::lexicon::lexicon().display_name(&mob);
            return Err(Problem::say(format!("It's solid inside: there's no room for a {mob} in it. A hollow one has room (\"build a hollow cube\").")));
        }
        Some(_) if t.inside => t.pos,
        _ => Pos::new(t.pos.x, location::ground(turn.world, t.pos.x, t.pos.z, t.pos.y), t.pos.z),
    };
    let lx = crate::lexicon::lexicon();
    let label = lx.counted(count as u32, &lx.display_name(&mob));
    Ok(push(Spawn { mob, at, count }, times, format!("spawning {label}")))
}

