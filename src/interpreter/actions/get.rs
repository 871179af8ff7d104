//! GET: "bring me a sword", "give me some bread" (an item handed to the speaker, in creative
//! mode), or "get the red cube" (go to a thing the bot remembers).

use crate::interpreter::describe;
use crate::interpreter::recipe::Recipe;
use crate::interpreter::reference::{self, Want};
use crate::logical_form::Action;
use crate::tasks::{Get as GetTask, Give as GiveTask, Limits, Task, TaskError, TaskKind, Times};
use crate::world::Pos;

use super::{Plan, push};
use crate::interpreter::context::Turn;
use crate::interpreter::problem::{Problem, Result};

/// Go to a remembered thing.
#[derive(Debug, Clone, PartialEq)]
pub struct Get {
    pub at: Pos,
    pub label: String,
}

impl Recipe for Get {
    fn kind(&self) -> TaskKind {
        TaskKind::Get
    }
    fn task(&self, _: &Limits, _: u32) -> std::result::Result<Box<dyn Task>, TaskError> {
        Ok(Box::new(GetTask::new(self.at, self.label.clone())))
    }
    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}

/// Walk to `at` and hand `player` `count` of `item`.
#[derive(Debug, Clone, PartialEq)]
pub struct Give {
    pub player: String,
    pub item: String,
    pub count: u32,
    pub at: Pos,
}

impl Recipe for Give {
    fn kind(&self) -> TaskKind {
        TaskKind::Get
    }
    fn task(&self, _: &Limits, _: u32) -> std::result::Result<Box<dyn Task>, TaskError> {
        Ok(Box::new(GiveTask::new(self.player.clone(), self.item.clone(), self.count).walking_to(self.at)))
    }
    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}

/// The most items handed over for one request: nine stacks, a hotbar's worth.
const MAX_ITEMS: i64 = 9 * 64;

pub(super) fn get(turn: &mut Turn, a: &Action) -> Result<Plan> {
    let r = a.reference_object.as_ref().and_then(|r| r.as_object()).ok_or_else(|| Problem::say("What should I get?"))?;
    let receiver_is_speaker = a.receiver.as_ref().is_some_and(|e| {
        e.reference_object.as_ref().is_some_and(|r| r.fixed_reference() == Some(crate::logical_form::FixedReference::Speaker))
    }) || turn.details().to_speaker;
    let words: Vec<String> = r.text_span.map(|s| turn.words(s)).unwrap_or_else(|| {
        r.filters.iter().flat_map(|f| f.triples()).filter_map(|t| t.obj_span()).flat_map(|s| turn.words(s)).collect()
    });
    let to_player = if receiver_is_speaker { None } else { named_player(turn, a)? };
    if (receiver_is_speaker || to_player.is_some()) && let Some(item) = crate::world::rules::item_id(&words) {
        let player = to_player.as_ref().map_or(turn.speaker.clone(), |p| p.name.clone());
        if let Some(plan) = super::items::hand_carried(turn, &words, &player) {
            return Ok(plan);
        }
        // "the planks" when it carries birch planks: those.
        let item = super::items::carried_kind(turn, &words).unwrap_or(item);
        let to = match to_player {
            Some(p) => (p.name.clone(), p.pos.block(), p.name),
            None => (turn.speaker.clone(), turn.speaker_block(), "you".to_string()),
        };
        return give(turn, item, &words, to);
    }
    // A dangerous item asked for in other words ("a bucket of lava", "some lava") is refused
    // as such, not looked for.
    if receiver_is_speaker {
        turn.allowed_words(&words)?;
    }
    // "pick up the wheat": items of that kind lying about.
    if a.receiver.is_none()
        && let Some(plan) = super::items::pick_up(turn, &words)
    {
        return Ok(plan);
    }
    // Otherwise: go and get a thing we remember; an item nobody remembers as a thing ("get
    // some iron") is one for the speaker.
    let found = match reference::resolve_one(turn, r, Want::Anything) {
        Ok(found) => found,
        Err(e) => match crate::world::rules::item_id(&words) {
            Some(item) if !receiver_is_speaker => return give_to_speaker(turn, item, &words),
            _ => return Err(e),
        },
    };
    let label = found.id().map(|id| describe::the(turn.memory, id)).unwrap_or_else(|| "that".into());
    Ok(push(Get { at: found.pos().block(), label: label.clone() }, Times::Count(1), format!("getting {label}")))
}

/// An item for the speaker.
fn give_to_speaker(turn: &mut Turn, item: String, words: &[String]) -> Result<Plan> {
    let to = (turn.speaker.clone(), turn.speaker_block(), "you".to_string());
    give(turn, item, words, to)
}

/// Hand `to` (player, where they stand, how to say them) the item, as many as the words say.
fn give(turn: &mut Turn, item: String, words: &[String], to: (String, Pos, String)) -> Result<Plan> {
    turn.allowed([&item])?;
    let (player, at, you) = to;
    let lx = crate::lexicon::lexicon();
    // "all the cherry wood": all the bot carries of it, else a stack.
    let all = (0..words.len()).any(|i| lx.phrase_at(crate::lexicon::Class::AllWords, words, i).is_some());
    let carried = i64::from(turn.world.carried().count(&item));
    // "the cobblestone", "lanterns" the bot carries (it mined or took them): all of it, unless
    // a number or "a" says otherwise; "some bread" is a handful.
    let definite = carried > 0 && !words.iter().any(|w| lx.is(crate::lexicon::Class::Indefinite, w) || w == "some");
    let count = super::number(words)
        .or_else(|| all.then_some(if carried > 0 { carried } else { 64 }))
        .or_else(|| definite.then_some(carried))
        .or_else(|| (words.iter().any(|w| w == "some")).then_some(4))
        .unwrap_or(1)
        .max(1);
    if count > MAX_ITEMS {
        return Err(Problem::say(format!("That's {count}; I hand over at most {MAX_ITEMS} (nine stacks) at a time.")));
    }
    let count = count as u32;
    let label = format!("bringing {you} {}", lx.counted(count, &lx.display_name(&item)));
    Ok(push(Give { player, item, count, at }, Times::Count(1), label))
}

/// The player an item is for when the receiver is named ("give bob 3 diamonds"): one who is
/// here, or a plain answer that nobody by that name is.
fn named_player(turn: &Turn, a: &Action) -> Result<Option<crate::world::PlayerInfo>> {
    let Some(r) = a.receiver.as_ref().and_then(|e| e.reference_object.as_ref()) else { return Ok(None) };
    let Some(span) = r.filters.iter().flat_map(|f| f.triples()).find(|t| t.pred_text == crate::logical_form::Predicate::HasName).and_then(|t| t.obj_span()) else {
        return Ok(None);
    };
    let name = turn.words(span).join(" ");
    match turn.world.players().into_iter().find(|p| p.name.eq_ignore_ascii_case(&name)) {
        Some(p) => Ok(Some(p)),
        None => Err(Problem::say(format!("I don't see a player called {name} here."))),
    }
}
