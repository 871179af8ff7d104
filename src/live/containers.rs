//! Chests in the live world, on the agent's side: what the bot knows each one holds, and the
//! container actions of the World trait.
//!
//! A server shows what a chest holds only to a player who opens it, and only a few ticks later.
//! So the bot knows a chest's contents from its last look inside (the client reports each
//! window it closes, [`ClientEvent::ChestSeen`](super::bridge::ClientEvent)), kept up to date
//! with its own puts and takes. [`World::look_inside`](crate::world::World::look_inside) asks
//! for a fresh look and answers `None` until it comes (the report after a put or take counts as
//! one: so a task checks that what it put in arrived); taking works on what the last look saw.

use super::LiveWorld;
use super::bridge::{ChestMove, Command};
use crate::world::items::Inventory;
use crate::world::{ActionError, Pos, World, rules};
use rustc_hash::FxHashMap;

/// A look this recent is fresh enough to act on.
const FRESH_TICKS: u64 = 20;
/// A look not answered in this many ticks failed (the client gives up on a window sooner).
const LOOK_TICKS: u64 = 100;

/// What the bot knows of the chests it has used.
#[derive(Default)]
pub(super) struct Chests {
    /// Contents as last seen, and the tick they were seen.
    known: FxHashMap<Pos, (Inventory, u64)>,
    /// Looks asked for and not answered yet: the tick each was asked.
    asked: FxHashMap<Pos, u64>,
    /// Chests whose window never opened, and when.
    failed: FxHashMap<Pos, u64>,
}

impl LiveWorld {
    /// The client's report on a chest it opened: what it holds now, or that it never opened.
    pub(super) fn chest_seen(&mut self, pos: Pos, items: Option<Vec<(String, u32)>>) {
        self.chests.asked.remove(&pos);
        match items {
            Some(items) => {
                self.chests.failed.remove(&pos);
                self.chests.known.insert(pos, (Inventory::from(items), self.tick));
            }
            None => {
                self.chests.failed.insert(pos, self.tick);
            }
        }
    }

    /// What the bot last saw in the chest at `p` (`None`: not a chest, or never looked into).
    pub(super) fn chest_contents(&self, p: Pos) -> Option<Inventory> {
        if !rules::is_container(self.block_at(p)) {
            return None;
        }
        self.chests.known.get(&p).map(|(inv, _)| inv.clone())
    }

    /// A chest within the bot's reach, on a connected server.
    fn usable_chest(&self, p: Pos) -> Result<(), ActionError> {
        self.connected()?;
        if !rules::is_container(self.block_at(p)) {
            return Err(ActionError::NoContainer(p));
        }
        if rules::reach_distance(self.agent_pos(), p) > rules::REACH {
            return Err(ActionError::OutOfReach(p));
        }
        self.loaded(p)
    }

    pub(super) fn look_into_chest(&mut self, p: Pos) -> Result<Option<Inventory>, ActionError> {
        self.usable_chest(p)?;
        // A window that just failed to open answers this look (once).
        if self.chests.failed.remove(&p).is_some_and(|at| self.tick.saturating_sub(at) <= LOOK_TICKS) {
            return Err(ActionError::Refused(format!("the chest at {p} would not open")));
        }
        // A report to come (a look, or a put or take made since) answers this look.
        match self.chests.asked.get(&p) {
            Some(&at) if self.tick.saturating_sub(at) > LOOK_TICKS => {
                self.chests.asked.remove(&p);
                return Err(ActionError::Refused(format!("the chest at {p} would not open")));
            }
            Some(_) => return Ok(None),
            None => {}
        }
        match self.chests.known.get(&p) {
            Some((inv, at)) if self.tick.saturating_sub(*at) <= FRESH_TICKS => Ok(Some(inv.clone())),
            _ => {
                self.chests.asked.insert(p, self.tick);
                self.send(|seq| Command::Chest { seq, pos: p, moves: Vec::new() });
                Ok(None)
            }
        }
    }

    pub(super) fn put_into_chest(&mut self, p: Pos, item: &str, count: u32) -> Result<(), ActionError> {
        self.usable_chest(p)?;
        let item = super::blocks::id(&rules::normalize_id(item)).to_string();
        if super::blocks::item(&item).is_none() {
            return Err(ActionError::UnknownItem(item));
        }
        if let Some((inv, _)) = self.chests.known.get_mut(&p) {
            inv.add(&item, count);
        }
        self.chests.asked.insert(p, self.tick);
        self.send(|seq| Command::Chest { seq, pos: p, moves: vec![ChestMove::Put { item, count }] });
        Ok(())
    }

    /// Takes what the last look saw there, at most `count`; the client's report after the
    /// window closes says what really is left.
    pub(super) fn take_out_of_chest(&mut self, p: Pos, item: &str, count: u32) -> Result<u32, ActionError> {
        self.usable_chest(p)?;
        let Some((inv, _)) = self.chests.known.get_mut(&p) else {
            return Err(ActionError::Refused(format!("I haven't looked inside the chest at {p} yet")));
        };
        let n = inv.take(item, count);
        if n > 0 {
            let item = item.to_string();
            self.chests.asked.insert(p, self.tick);
            self.send(|seq| Command::Chest { seq, pos: p, moves: vec![ChestMove::Take { item, count: n }] });
        }
        Ok(n)
    }
}
