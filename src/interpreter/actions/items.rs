//! Items by hand: PUT ("put the wood in the chest in front of me"), GET from a chest ("get the
//! stained glass from the design chest", "bring me the iron pickaxe from storage"), DROP ("drop
//! 5 cobblestone in front of me") and CRAFT ("make 3 bread", "craft oak stairs").
//!
//! Items are picked by the player's words from what they are in: the chest's contents, or what
//! the bot carries; creative supply makes up what the bot does not carry ("drop 5 torches").

use crate::interpreter::context::Turn;
use crate::interpreter::finding::chests;
use crate::interpreter::location::{self, Purpose};
use crate::interpreter::problem::{Problem, Result};
use crate::interpreter::recipe::Recipe;
use crate::logical_form::{Action, FixedReference};
use crate::tasks::{Craft as CraftTask, Drop as DropTask, Fetch as FetchTask, Limits, Store as StoreTask, Task, TaskError, TaskKind, Times};
use crate::tasks::items::said;
use crate::world::{Pos, Vec3, rules};

use super::{Plan, push};

/// The most items moved by one command: nine stacks.
const MAX_ITEMS: u32 = 9 * 64;

/// What one of these commands does, as data.
#[derive(Debug, Clone, PartialEq)]
pub enum ItemJob {
    Store { chest: Pos, label: String, items: Vec<(String, u32)> },
    Fetch { chest: Pos, label: String, items: Vec<(String, u32)>, to: Option<String> },
    Drop { at: Vec3, items: Vec<(String, u32)> },
    Craft { item: String, count: u32, to: Option<String> },
    PickUp { items: Vec<(u64, Vec3)>, label: String },
    Hand { player: String, items: Vec<(String, u32)> },
}

impl Recipe for ItemJob {
    fn kind(&self) -> TaskKind {
        TaskKind::Items
    }
    fn task(&self, _: &Limits, _: u32) -> std::result::Result<Box<dyn Task>, TaskError> {
        Ok(match self.clone() {
            ItemJob::Store { chest, label, items } => Box::new(StoreTask::new(chest, label, items)),
            ItemJob::Fetch { chest, label, items, to } => Box::new(FetchTask::new(chest, label, items, to)),
            ItemJob::Drop { at, items } => Box::new(DropTask::new(at, items)),
            ItemJob::Craft { item, count, to } => Box::new(CraftTask::new(item, count, to)),
            ItemJob::PickUp { items, label } => Box::new(crate::tasks::PickUp::new(items, label)),
            ItemJob::Hand { player, items } => Box::new(crate::tasks::items::Hand::new(player, items)),
        })
    }
    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}

/// The words of the action's thing.
fn thing_words(turn: &Turn, a: &Action) -> Vec<String> {
    let r = a.reference_object.as_ref().and_then(|r| r.as_object());
    r.and_then(|r| r.text_span).map(|s| turn.words(s)).unwrap_or_default()
}

fn to_speaker(a: &Action) -> bool {
    a.receiver.as_ref().and_then(|e| e.reference_object.as_ref()).is_some_and(|r| r.fixed_reference() == Some(FixedReference::Speaker))
}

/// Items the words name from what the bot carries, else from creative supply; "it", "them"
/// after a job are what the job gathered.
fn carried_or_creative(turn: &Turn, words: &[String]) -> Result<Vec<(String, u32)>> {
    let carried = turn.world.carried();
    let lx = crate::lexicon::lexicon();
    // "it" read without words (a coreference) after a job that got something: that.
    let pronoun = words.is_empty() && turn.antecedent.as_ref().is_some_and(|a| !a.yields.is_empty());
    if pronoun || !words.is_empty() && words.iter().all(|w| lx.is(crate::lexicon::Class::Pointing, w) || lx.is(crate::lexicon::Class::AllWords, w)) {
        // What the job was after ("mine 10 cobblestone then put it …"), else all it dug out.
        let gathered: Vec<String> = match turn.antecedent.as_ref().map(|a| a.yields.clone()).filter(|y| !y.is_empty()) {
            Some(wanted) => wanted,
            None => turn.antecedent.iter().flat_map(|a| a.dug.iter()).flat_map(|(_, b)| rules::drops(*b, true)).map(|(i, _)| i.to_string()).collect(),
        };
        let items: Vec<(String, u32)> = carried.items().iter().filter(|(i, _)| gathered.is_empty() || gathered.contains(i)).cloned().collect();
        if !items.is_empty() {
            return Ok(items);
        }
    }
    if let Some(found) = chests::pick(words, &carried) {
        return Ok(found);
    }
    let id = rules::item_id(words).ok_or_else(|| Problem::say(format!("I'm not carrying any \"{}\", and it isn't an item I know.", words.join(" "))))?;
    turn.allowed([&id])?;
    let n = super::number(words).unwrap_or(1).clamp(1, i64::from(MAX_ITEMS)) as u32;
    Ok(vec![(id, n)])
}

fn too_many(items: &[(String, u32)]) -> Result<()> {
    let n: u32 = items.iter().map(|(_, n)| n).sum();
    if n > MAX_ITEMS {
        return Err(Problem::say(format!("That's {n} items; I move at most {MAX_ITEMS} (nine stacks) at a time.")));
    }
    Ok(())
}

pub(super) fn put(turn: &mut Turn, a: &Action) -> Result<Plan> {
    let to = a.receiver.as_ref().ok_or_else(|| Problem::say("Where should I put it?"))?;
    let (chest, label) = chests::chest(turn, to)?;
    let items = carried_or_creative(turn, &thing_words(turn, a))?;
    too_many(&items)?;
    let doing = format!("putting {} into {label}", said(&items));
    Ok(push(ItemJob::Store { chest, label, items }, Times::Count(1), doing))
}

/// GET with a `source`: take from the chest, and bring it to the speaker when asked.
pub(super) fn fetch(turn: &mut Turn, a: &Action) -> Result<Plan> {
    let from = a.source.as_ref().ok_or_else(|| Problem::say("Where should I get it from?"))?;
    let (chest, label) = chests::chest(turn, from)?;
    let words = thing_words(turn, a);
    let Some(contents) = turn.world.container(chest) else {
        // A chest the bot has not looked into yet (on a server): the item the words name, as
        // many as said or all there is; the bot looks when it gets there.
        let Some(id) = rules::item_id(&words) else {
            return Err(Problem::say(format!("I haven't looked inside {label} yet: tell me which item to get from it.")));
        };
        let n = super::number(&words).map_or(0, |n| n.clamp(1, i64::from(MAX_ITEMS)) as u32);
        let n = if n == 0 && words.first().is_some_and(|w| matches!(w.as_str(), "a" | "an")) { 1 } else { n };
        let to = to_speaker(a).then(|| turn.speaker.clone());
        let doing = format!("getting {} from {label}", words.join(" "));
        return Ok(push(ItemJob::Fetch { chest, label, items: vec![(id, n)], to }, Times::Count(1), doing));
    };
    let Some(items) = chests::pick(&words, &contents) else {
        let has = if contents.is_empty() { "nothing".to_string() } else { said(contents.items()) };
        return Err(Problem::say(format!("There's no {} in {label}; it holds {has}.", words.join(" "))));
    };
    too_many(&items)?;
    let to = to_speaker(a).then(|| turn.speaker.clone());
    let doing = format!("getting {} from {label}", said(&items));
    Ok(push(ItemJob::Fetch { chest, label, items, to }, Times::Count(1), doing))
}

pub(super) fn drop(turn: &mut Turn, a: &Action) -> Result<Plan> {
    let items = carried_or_creative(turn, &thing_words(turn, a))?;
    too_many(&items)?;
    let at = match &a.location {
        Some(l) => location::resolve(turn, l, Purpose::Place)?.pos.feet(),
        // Two steps ahead of the speaker: in sight, theirs to walk over and pick up.
        None => {
            let d = turn.speaker_look.direction();
            let flat = (d.x.hypot(d.z)).max(1e-6);
            Vec3::new(turn.speaker_pos.x + 2.0 * d.x / flat, turn.speaker_pos.y, turn.speaker_pos.z + 2.0 * d.z / flat)
        }
    };
    let doing = format!("dropping {}", said(&items));
    Ok(push(ItemJob::Drop { at, items }, Times::Count(1), doing))
}

pub(super) fn craft(turn: &mut Turn, a: &Action) -> Result<Plan> {
    let words = thing_words(turn, a);
    let Some(mut item) = rules::recipes::craftable(&words) else {
        return Err(match rules::item_id(&words) {
            Some(id) => Problem::say(format!("I don't know how to craft {}; I can make bread, planks, stairs, sticks, torches and crafting tables.", crate::lexicon::lexicon().display_name(&id))),
            None => Problem::say(format!("I don't know an item called \"{}\".", words.join(" "))),
        });
    };
    // "make planks" said bare, carrying birch logs: birch planks.
    if rules::item_id(&words).is_none()
        && let Some(made_of) = rules::recipes::wood_of(&item).map(String::from)
        && let Some(wood) = turn.world.carried().items().iter().find_map(|(i, _)| i.ends_with("_log").then(|| rules::recipes::wood_of(i)).flatten().map(String::from))
    {
        item = item.replacen(&made_of, &wood, 1);
    }
    // "turn the stripped cherry logs into planks": planks of that wood, as many as they make.
    let source = a.source.as_ref().and_then(|e| e.reference_object.as_ref()).and_then(|r| r.text_span).map(|s| turn.words(s));
    let lx = crate::lexicon::lexicon();
    // "… and turn them into planks": what the step before gathered.
    let pointing = source.as_deref().is_some_and(|w| !w.is_empty() && w.iter().all(|x| lx.is(crate::lexicon::Class::Pointing, x)));
    let gathered = turn.antecedent.as_ref().and_then(|a| a.yields.first().cloned()).filter(|_| pointing);
    // "out of your logs": what it carries of them, when it does.
    let carried_source = source.as_deref().filter(|_| !pointing).and_then(|w| chests::pick(w, &turn.world.carried())).and_then(|v| v.first().map(|(i, _)| i.clone()));
    let source_id = gathered.or(carried_source).or_else(|| source.as_deref().and_then(|w| rules::item_id(w).or_else(|| rules::recipes::craftable(w))));
    if let (Some(src), Some(made_of)) = (source_id.as_deref().and_then(rules::recipes::wood_of), rules::recipes::wood_of(&item).map(String::from))
        && src != made_of
    {
        item = item.replacen(&made_of, src, 1);
    }
    let from_all = source_id.as_ref().and_then(|src| made_from_all(&item, src, turn.world.carried().count(src)));
    // Recipes make several at once (4 stairs): with no number, one go's worth, all of it.
    let makes = rules::recipes::recipes(&item).first().map_or(1, |r| r.makes);
    // With nothing said, as many as what it carries makes ("get 6 logs and make planks"), else
    // one go's worth.
    let carried = turn.world.carried();
    let from_carried = rules::recipes::recipes(&item).iter().flat_map(|r| r.needs.first()).find_map(|(i, _)| made_from_all(&item, i, carried.count(i)));
    let count = super::number(&words).map(|n| n.clamp(1, i64::from(MAX_ITEMS)) as u32).or(from_all).or(from_carried).unwrap_or(makes);
    let to = to_speaker(a).then(|| turn.speaker.clone());
    let doing = format!("making {}", said(&[(item.clone(), count.div_ceil(makes) * makes)]));
    Ok(push(ItemJob::Craft { item, count, to }, Times::Count(1), doing))
}

/// "give me your logs" when it carries logs of two woods: each of them, all it carries.
pub(super) fn hand_carried(turn: &Turn, words: &[String], player: &str) -> Option<Plan> {
    let carried = turn.world.carried();
    let items = chests::pick(words, &carried)?;
    if items.len() < 2 {
        return None;
    }
    let you = if player == turn.speaker { "you" } else { player };
    let doing = format!("bringing {you} {}", said(&items));
    Some(push(ItemJob::Hand { player: player.to_string(), items }, Times::Count(1), doing))
}

/// The one item the bot carries that the words name ("the planks": its birch planks), if any.
pub(super) fn carried_kind(turn: &Turn, words: &[String]) -> Option<String> {
    match chests::pick(words, &turn.world.carried())?.as_slice() {
        [(item, _)] => Some(item.clone()),
        _ => None,
    }
}

/// How far from the speaker (and the bot) lying items are looked for.
const LYING_AROUND: f64 = 32.0;

/// "pick up the wheat", "pick up all the harvested wheat": the items of that kind lying about,
/// if there are any.
pub(super) fn pick_up(turn: &Turn, words: &[String]) -> Option<Plan> {
    let lx = crate::lexicon::lexicon();
    // "pick up the stuff", "pick up everything": whatever lies about.
    let anything = !words.is_empty() && words.iter().all(|w| lx.is(crate::lexicon::Class::AllWords, w) || lx.is(crate::lexicon::Class::Article, w));
    let id = if anything { None } else { Some(rules::item_id(words)?) };
    let here = turn.speaker_pos;
    let mut lying: Vec<_> = turn.world.items().into_iter().filter(|i| id.as_ref().is_none_or(|id| i.item == *id) && i.pos.distance(here) <= LYING_AROUND).collect();
    if lying.is_empty() {
        return None;
    }
    // Nearest the bot first, then each nearest the one before.
    let mut from = turn.agent_pos().feet();
    let mut ordered = Vec::new();
    while !lying.is_empty() {
        let i = (0..lying.len()).min_by(|a, b| lying[*a].pos.distance(from).total_cmp(&lying[*b].pos.distance(from)))?;
        let it = lying.remove(i);
        from = it.pos;
        ordered.push((it.id, it.pos));
    }
    let label = id.map(|id| format!("the {}", lx.display_name(&id))).unwrap_or_else(|| "what lies around".to_string());
    let doing = format!("picking up {label}");
    Some(push(ItemJob::PickUp { items: ordered, label }, Times::Count(1), doing))
}

/// How many of `item` all of `carried` of `source` make, straight or through one step between
/// ("the logs into stairs": logs make planks, planks make stairs).
fn made_from_all(item: &str, source: &str, carried: u32) -> Option<u32> {
    let recipe = rules::recipes::recipes(item).into_iter().next()?;
    let (needed, need) = recipe.needs.first()?.clone();
    let available = if needed == source {
        carried
    } else {
        let step = rules::recipes::recipes(&needed).into_iter().find(|r| r.needs.iter().any(|(i, _)| i == source))?;
        let per = step.needs.iter().find(|(i, _)| i == source)?.1;
        carried / per * step.makes
    };
    (available >= need).then(|| available / need * recipe.makes)
}
