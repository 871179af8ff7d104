//! Items moved by hand: put into a chest, taken out of one (and brought to a player), dropped
//! at a spot, crafted. Each walks up first when it must, then does its few world actions at
//! once; what it could not do it says.

use super::get::Give;
use super::movement::Move;
use super::{ChildOutcome, Step, Task, TaskContext, TaskKind};
use crate::lexicon::lexicon;
use crate::world::rules::{self, recipes};
use crate::world::{Pos, Vec3};

/// "5 coal and 2 torches": items with counts in words.
pub fn said(items: &[(String, u32)]) -> String {
    let lx = lexicon();
    let parts: Vec<String> = items.iter().map(|(i, n)| lx.counted(*n, &lx.display_name(i))).collect();
    match parts.as_slice() {
        [] => "nothing".into(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

/// Walk within reach of `p` once; true when already there.
fn reach(walked: &mut bool, ctx: &TaskContext, p: Pos, label: &str) -> Option<Step> {
    if ctx.in_reach(p) {
        return None;
    }
    if *walked {
        return Some(Step::Failed(format!("I couldn't get to {label}.")));
    }
    *walked = true;
    Some(Step::Push(Box::new(Move::within_reach(p, rules::REACH - 1.0, Default::default()).labelled(format!("going to {label}")))))
}

/// Hand-overs still to do after taking or crafting: one [`Give`] each.
pub(super) fn next_give(queue: &mut Vec<(String, u32)>, to: &Option<String>, ctx: &TaskContext) -> Option<Step> {
    let player = to.as_ref()?;
    let (item, n) = queue.pop()?;
    let near = ctx.world.players().into_iter().find(|p| p.name.eq_ignore_ascii_case(player)).map(|p| p.pos.block());
    let give = Give::new(player.clone(), item, n);
    Some(Step::Push(Box::new(match near {
        Some(at) => give.walking_to(at),
        None => give,
    })))
}

/// Put items into the chest at `chest`.
pub struct Store {
    chest: Pos,
    label: String,
    items: Vec<(String, u32)>,
    walked: bool,
    /// Put in; ticks since, waiting to see them inside.
    put: Option<u32>,
}

impl Store {
    pub fn new(chest: Pos, label: impl Into<String>, items: Vec<(String, u32)>) -> Store {
        Store { chest, label: label.into(), items, walked: false, put: None }
    }
}

impl Task for Store {
    fn kind(&self) -> TaskKind {
        TaskKind::Items
    }

    fn describe(&self) -> String {
        format!("putting {} into {}", said(&self.items), self.label)
    }

    fn step(&mut self, ctx: &mut TaskContext) -> Step {
        let Some(waited) = self.put else {
            if let Some(s) = reach(&mut self.walked, ctx, self.chest, &self.label) {
                return s;
            }
            for (item, n) in &self.items {
                if let Err(e) = ctx.world.put_in_container(self.chest, item, *n) {
                    return Step::Failed(format!("I couldn't put {} into {}: {e}.", said(&[(item.clone(), *n)]), self.label));
                }
            }
            self.put = Some(0);
            return self.step(ctx);
        };
        // Said only once seen inside (a server shows the chest a few ticks later).
        match ctx.world.look_inside(self.chest) {
            Ok(None) if waited < LOOK_TICKS => {
                self.put = Some(waited + 1);
                Step::Continue
            }
            Ok(Some(inv)) if self.items.iter().all(|(i, n)| inv.count(i) >= *n) => {
                Step::Done(format!("I put {} into {}.", said(&self.items), self.label))
            }
            Ok(Some(inv)) => {
                let has = if inv.is_empty() { "nothing".to_string() } else { said(inv.items()) };
                Step::Failed(format!("I tried to put {} into {}, but it holds {has}.", said(&self.items), self.label))
            }
            Ok(None) => Step::Failed(format!("I tried to put {} into {}, but I couldn't see inside it.", said(&self.items), self.label)),
            Err(e) => Step::Failed(format!("I tried to put {} into {}, but {e}.", said(&self.items), self.label)),
        }
    }
}

/// Take items out of the chest at `chest`, and bring them to a player when asked.
pub struct Fetch {
    chest: Pos,
    label: String,
    items: Vec<(String, u32)>,
    to: Option<String>,
    walked: bool,
    taken: Option<Vec<(String, u32)>>,
    queue: Vec<(String, u32)>,
    /// Ticks spent waiting to see inside (a server shows a chest a few ticks after it opens).
    looking: u32,
}

/// Ticks to wait for a chest's contents before giving up.
const LOOK_TICKS: u32 = 200;

impl Fetch {
    /// `items` with counts; a count of 0 is all the chest holds of that item.
    pub fn new(chest: Pos, label: impl Into<String>, items: Vec<(String, u32)>, to: Option<String>) -> Fetch {
        Fetch { chest, label: label.into(), items, to, walked: false, taken: None, queue: Vec::new(), looking: 0 }
    }

    /// Take what is asked for, as far as the chest holds it; `None` while still looking.
    fn take(&mut self, ctx: &mut TaskContext) -> Option<Result<Vec<(String, u32)>, String>> {
        let contents = match ctx.world.look_inside(self.chest) {
            Ok(Some(c)) => c,
            Ok(None) if self.looking < LOOK_TICKS => {
                self.looking += 1;
                return None;
            }
            Ok(None) => return Some(Err(format!("I couldn't see inside {}.", self.label))),
            Err(e) => return Some(Err(format!("I couldn't look inside {}: {e}.", self.label))),
        };
        let mut taken = Vec::new();
        for (item, n) in &self.items {
            let want = if *n == 0 { contents.count(item) } else { (*n).min(contents.count(item)) };
            if want == 0 {
                continue;
            }
            match ctx.world.take_from_container(self.chest, item, want) {
                Ok(0) => {}
                Ok(got) => taken.push((item.clone(), got)),
                Err(e) => return Some(Err(format!("I couldn't take anything from {}: {e}.", self.label))),
            }
        }
        if taken.is_empty() {
            let has = if contents.is_empty() { "nothing".to_string() } else { said(contents.items()) };
            return Some(Err(format!("There was no {} in {}; it holds {has}.", wanted(&self.items), self.label)));
        }
        Some(Ok(taken))
    }
}

/// Items asked for, where a count of 0 is "all the …".
fn wanted(items: &[(String, u32)]) -> String {
    let lx = lexicon();
    let parts: Vec<String> = items.iter().map(|(i, n)| if *n == 0 { lx.display_name(i) } else { said(&[(i.clone(), *n)]) }).collect();
    parts.join(" or ")
}

impl Task for Fetch {
    fn kind(&self) -> TaskKind {
        TaskKind::Items
    }

    fn describe(&self) -> String {
        format!("getting {} from {}", wanted(&self.items), self.label)
    }

    fn step(&mut self, ctx: &mut TaskContext) -> Step {
        if self.taken.is_none() {
            if let Some(s) = reach(&mut self.walked, ctx, self.chest, &self.label) {
                return s;
            }
            let taken = match self.take(ctx) {
                None => return Step::Continue,
                Some(Err(why)) => return Step::Failed(why),
                Some(Ok(taken)) => taken,
            };
            self.queue = taken.iter().rev().cloned().collect();
            self.taken = Some(taken);
        }
        if let Some(s) = next_give(&mut self.queue, &self.to, ctx) {
            return s;
        }
        let taken = said(self.taken.as_deref().unwrap_or_default());
        match &self.to {
            Some(_) => Step::Done(format!("I took {taken} from {} and brought it to you.", self.label)),
            None => Step::Done(format!("I took {taken} from {}.", self.label)),
        }
    }

    fn child_finished(&mut self, outcome: ChildOutcome) -> Option<Step> {
        match outcome {
            ChildOutcome::Done(_) => None,
            ChildOutcome::Failed(why) if self.taken.is_none() => Some(Step::Failed(format!("I couldn't get to {}: {why}", self.label))),
            ChildOutcome::Failed(why) => Some(Step::Failed(format!("I took it from {} but couldn't hand it over: {why}", self.label))),
        }
    }
}

/// Hand a player several items the bot carries ("give me your logs": oak and birch), one
/// [`Give`] each.
pub struct Hand {
    player: String,
    items: Vec<(String, u32)>,
    queue: Option<Vec<(String, u32)>>,
    failed: Option<String>,
}

impl Hand {
    pub fn new(player: impl Into<String>, items: Vec<(String, u32)>) -> Hand {
        Hand { player: player.into(), items, queue: None, failed: None }
    }
}

impl Task for Hand {
    fn kind(&self) -> TaskKind {
        TaskKind::Items
    }

    fn describe(&self) -> String {
        format!("bringing {} {}", self.player, said(&self.items))
    }

    fn step(&mut self, ctx: &mut TaskContext) -> Step {
        if let Some(why) = self.failed.take() {
            return Step::Failed(why);
        }
        let to = Some(self.player.clone());
        let queue = self.queue.get_or_insert_with(|| self.items.iter().rev().cloned().collect());
        if let Some(s) = next_give(queue, &to, ctx) {
            return s;
        }
        Step::Done(format!("Here you go, {}: {}.", self.player, said(&self.items)))
    }

    fn child_finished(&mut self, outcome: ChildOutcome) -> Option<Step> {
        match outcome {
            ChildOutcome::Done(_) => None,
            ChildOutcome::Failed(why) => Some(Step::Failed(why)),
        }
    }
}

/// Drop items at a spot (in front of a player, or where the bot stands).
pub struct Drop {
    at: Vec3,
    items: Vec<(String, u32)>,
    walked: bool,
}

impl Drop {
    pub fn new(at: Vec3, items: Vec<(String, u32)>) -> Drop {
        Drop { at, items, walked: false }
    }
}

impl Task for Drop {
    fn kind(&self) -> TaskKind {
        TaskKind::Items
    }

    fn describe(&self) -> String {
        format!("dropping {}", said(&self.items))
    }

    fn step(&mut self, ctx: &mut TaskContext) -> Step {
        let spot = self.at.block();
        if ctx.agent_pos().chebyshev(spot) > 2 {
            if self.walked {
                return Step::Failed("I couldn't get close enough to drop them there.".into());
            }
            self.walked = true;
            return Step::Push(Box::new(Move::near(spot, 2).or_nearest().labelled(self.describe())));
        }
        for (item, n) in &self.items {
            if let Err(e) = ctx.world.drop_item(item, *n, self.at) {
                return Step::Failed(format!("I couldn't drop {}: {e}.", said(&[(item.clone(), *n)])));
            }
        }
        Step::Done(format!("I dropped {} at {spot}.", said(&self.items)))
    }
}

/// Walk over to items lying about and pick them up.
pub struct PickUp {
    items: Vec<(u64, Vec3)>,
    label: String,
    next: usize,
    walked: bool,
    got: crate::world::Inventory,
}

impl PickUp {
    pub fn new(items: Vec<(u64, Vec3)>, label: impl Into<String>) -> PickUp {
        PickUp { items, label: label.into(), next: 0, walked: false, got: Default::default() }
    }
}

impl Task for PickUp {
    fn kind(&self) -> TaskKind {
        TaskKind::Items
    }

    fn describe(&self) -> String {
        format!("picking up {}", self.label)
    }

    fn step(&mut self, ctx: &mut TaskContext) -> Step {
        while let Some(&(id, at)) = self.items.get(self.next) {
            let lying = ctx.world.items().into_iter().find(|i| i.id == id);
            let Some(item) = lying else {
                self.next += 1;
                self.walked = false;
                continue;
            };
            if at.distance(ctx.agent_pos().feet()) > 1.5 && !self.walked {
                self.walked = true;
                return Step::Push(Box::new(Move::near(at.block(), 1).or_nearest().labelled(self.describe())));
            }
            if let Ok(n) = ctx.world.pick_up(id) {
                self.got.add(&item.item, n);
            }
            self.next += 1;
            self.walked = false;
            return Step::Continue;
        }
        match self.got.is_empty() {
            true => Step::Failed(format!("I couldn't pick up {}.", self.label)),
            false => Step::Done(format!("I picked up {}.", said(self.got.items()))),
        }
    }
}

/// Craft `count` of `item` from what the bot carries (creative supply for what is missing, said
/// so), and hand them to a player when asked.
pub struct Craft {
    item: String,
    count: u32,
    to: Option<String>,
    made: Option<String>,
    queue: Vec<(String, u32)>,
}

impl Craft {
    pub fn new(item: impl Into<String>, count: u32, to: Option<String>) -> Craft {
        Craft { item: item.into(), count: count.max(1), to, made: None, queue: Vec::new() }
    }

    /// Use up the ingredients; returns what was made and a remark on what was missing.
    fn craft(&self, ctx: &mut TaskContext) -> Result<String, String> {
        let name = lexicon().display_name(&self.item);
        let options = recipes::recipes(&self.item);
        let carried = ctx.world.carried();
        let batches_for = |makes: u32| self.count.div_ceil(makes);
        let has_all = |r: &recipes::Recipe| r.needs.iter().all(|(i, n)| carried.count(i) >= n * batches_for(r.makes));
        let has_any = |r: &recipes::Recipe| r.needs.iter().any(|(i, _)| carried.count(i) > 0);
        let recipe = options.iter().find(|r| has_all(r)).or_else(|| options.iter().find(|r| has_any(r))).or(options.first());
        let Some(recipe) = recipe else { return Err(format!("I don't know how to make {name}.")) };
        let batches = batches_for(recipe.makes);
        // An ingredient it lacks but can make from what it carries (stairs from logs: planks
        // first) is made first.
        for (i, n) in &recipe.needs {
            let want = (n * batches).saturating_sub(ctx.world.carried().count(i));
            if want == 0 {
                continue;
            }
            let carried = ctx.world.carried();
            let Some(r) = recipes::recipes(i).into_iter().find(|r| r.needs.iter().all(|(j, k)| carried.count(j) >= *k)) else { continue };
            let runs = want.div_ceil(r.makes).min(r.needs.iter().map(|(j, k)| carried.count(j) / k).min().unwrap_or(0));
            for (j, k) in &r.needs {
                ctx.world.use_carried(j, k * runs);
            }
            let _ = ctx.world.keep_item(i, r.makes * runs);
        }
        let mut short = Vec::new();
        for (i, n) in &recipe.needs {
            let used = ctx.world.use_carried(i, n * batches);
            if used < n * batches {
                short.push((i.clone(), n * batches - used));
            }
        }
        let made = recipe.makes * batches;
        let _ = ctx.world.keep_item(&self.item, made);
        let what = said(&[(self.item.clone(), made)]);
        Ok(match short.as_slice() {
            [] => format!("I made {what} from {}.", said(&recipe.needs.iter().map(|(i, n)| (i.clone(), n * batches)).collect::<Vec<_>>())),
            _ => format!("I made {what}; I was short of {}, so that came from my creative inventory.", said(&short)),
        })
    }
}

impl Task for Craft {
    fn kind(&self) -> TaskKind {
        TaskKind::Items
    }

    fn describe(&self) -> String {
        format!("making {}", said(&[(self.item.clone(), self.count)]))
    }

    fn step(&mut self, ctx: &mut TaskContext) -> Step {
        if self.made.is_none() {
            match self.craft(ctx) {
                Ok(line) => {
                    self.made = Some(line);
                    self.queue = vec![(self.item.clone(), self.count)];
                }
                Err(why) => return Step::Failed(why),
            }
        }
        if let Some(s) = next_give(&mut self.queue, &self.to, ctx) {
            return s;
        }
        let made = self.made.clone().unwrap_or_default();
        Step::Done(if self.to.is_some() { format!("{made} Here you go.") } else { made })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tasks::TaskState;
    use crate::tasks::testing::run_task;
    use crate::world::embedded::EmbeddedWorld;
    use crate::world::{Block, Look, World};

    #[test]
    fn a_chest_is_filled_and_emptied_into_a_players_hands() {
        let mut w = EmbeddedWorld::flat();
        w.add_player("alice", Vec3::new(-4.5, 5.0, 0.5), Look::default());
        let chest = Pos::new(6, 5, 3);
        w.set_block_by(chest, Block::from_name("chest").unwrap(), crate::world::Actor::World);
        w.give_agent("oak_log", 8);
        let (state, said) = run_task(&mut w, Store::new(chest, "the chest", vec![("oak_log".into(), 8)]), 2000);
        assert_eq!(state, TaskState::Done, "{said}");
        assert_eq!(w.container(chest).unwrap().count("oak_log"), 8);
        let fetch = Fetch::new(chest, "the chest", vec![("oak_log".into(), 5)], Some("alice".into()));
        let (state, said) = run_task(&mut w, fetch, 2000);
        assert_eq!(state, TaskState::Done, "{said}");
        assert_eq!(w.inventory_of("alice").unwrap().count("oak_log"), 5);
        assert_eq!(w.container(chest).unwrap().count("oak_log"), 3);
    }

    #[test]
    fn bread_is_baked_from_carried_wheat_and_the_shortfall_is_said() {
        let mut w = EmbeddedWorld::flat();
        w.give_agent("wheat", 6);
        let (state, said) = run_task(&mut w, Craft::new("bread", 3, None), 100);
        assert_eq!(state, TaskState::Done, "{said}");
        assert!(said.contains("short of 3 wheat"), "{said}");
        assert_eq!(w.carried().count("bread"), 3);
        assert_eq!(w.carried().count("wheat"), 0);
        let (state, said) = run_task(&mut w, Craft::new("diamond", 1, None), 100);
        assert_eq!(state, TaskState::Failed, "{said}");
    }
}
