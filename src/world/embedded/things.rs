//! What the embedded world holds besides blocks: what the bot carries, chests' contents, items
//! lying on the ground (players walking over them pick them up), and crops growing.
//!
//! Crops grow faster than in Minecraft, where a wheat field takes tens of minutes: each tick a
//! crop has a 1 in [`GROW_ODDS`] chance to grow a stage, so a field ripens in about half a
//! minute, while a player watches. Which crops grow is a hash of the seed, the tick and the
//! position, so a run repeats exactly.

use super::EmbeddedWorld;
use crate::world::rules::{self, RIPE, is_container};
use crate::world::{ActionError, Block, Inventory, ItemInfo, Pickup, Pos, Vec3, World, record};
use rustc_hash::FxHashMap;
use serde::{Deserialize, Serialize};

/// One in this many ticks a growing crop grows a stage.
pub const GROW_ODDS: u64 = 60;
/// A player this near a lying item picks it up, in blocks.
const PICKUP_RANGE: f64 = 1.5;
/// How far from its eyes the bot can throw an item.
const THROW_REACH: f64 = 4.5;

/// The world's items and crops. Kept apart from blocks; saved with the world.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct Things {
    pub carried: Inventory,
    #[serde(with = "by_pos")]
    pub containers: FxHashMap<Pos, Inventory>,
    #[serde(with = "by_pos")]
    pub crops: FxHashMap<Pos, u8>,
    pub lying: Vec<ItemInfo>,
    pub next_item_id: u64,
}

/// Maps keyed by position, saved as a list of pairs (JSON keys must be strings).
mod by_pos {
    use super::*;
    use serde::{Deserializer, Serializer};

    pub fn serialize<S: Serializer, V: Serialize + Clone>(m: &FxHashMap<Pos, V>, s: S) -> Result<S::Ok, S::Error> {
        let mut pairs: Vec<(Pos, V)> = m.iter().map(|(p, v)| (*p, v.clone())).collect();
        pairs.sort_by_key(|(p, _)| *p);
        pairs.serialize(s)
    }

    pub fn deserialize<'de, D: Deserializer<'de>, V: Deserialize<'de>>(d: D) -> Result<FxHashMap<Pos, V>, D::Error> {
        Ok(Vec::<(Pos, V)>::deserialize(d)?.into_iter().collect())
    }
}

impl EmbeddedWorld {
    /// Put items into the container at `p` (scenario set-up, `/give`-like tools; no rules).
    pub fn stock_container(&mut self, p: Pos, item: &str, count: u32) {
        self.things.containers.entry(p).or_default().add(item, count);
    }

    /// Give the bot items to carry (set-up).
    pub fn give_agent(&mut self, item: &str, count: u32) {
        self.things.carried.add(item, count);
    }

    /// Set a crop's age (set-up); the block must be a crop already.
    pub fn set_crop_age(&mut self, p: Pos, age: u8) {
        if self.block_at(p).name() == "wheat" {
            self.things.crops.insert(p, age.min(RIPE));
        }
    }

    /// Items lying on the ground.
    pub fn lying(&self) -> &[ItemInfo] {
        &self.things.lying
    }

    /// A block changed at `p`: a crop planted starts growing, a crop or chest gone is gone (a
    /// chest's contents spill onto the ground).
    pub(super) fn things_after_change(&mut self, p: Pos, before: Block, after: Block) {
        if after.name() == "wheat" {
            self.things.crops.insert(p, 0);
        } else if before.name() == "wheat" {
            self.things.crops.remove(&p);
        }
        if is_container(before) && !is_container(after) && let Some(inv) = self.things.containers.remove(&p) {
            for (item, count) in inv.items().to_vec() {
                self.lay(&item, count, p.feet());
            }
        }
    }

    /// One tick of growing and picking up.
    pub(super) fn things_tick(&mut self) {
        let (seed, tick) = (self.seed, self.tick);
        for (p, age) in self.things.crops.iter_mut() {
            if *age < RIPE && grows(seed, tick, *p) {
                *age += 1;
            }
        }
        if self.things.lying.is_empty() {
            return;
        }
        let mut taken = Vec::new();
        for pl in &mut self.players {
            self.things.lying.retain(|it| {
                let near = it.pos.distance(pl.pos) <= PICKUP_RANGE;
                if near {
                    pl.inventory.add(&it.item, it.count);
                    taken.push(Pickup { tick, by: pl.name.clone(), item: it.item.clone(), count: it.count });
                }
                !near
            });
        }
        for pickup in taken {
            self.record_pickup(pickup);
        }
    }

    pub(super) fn record_pickup(&mut self, pickup: Pickup) {
        self.pickups.push(pickup);
        self.pickups_dropped += record::trim(&mut self.pickups, record::KEEP_PICKUPS);
    }

    fn lay(&mut self, item: &str, count: u32, at: Vec3) {
        self.things.next_item_id += 1;
        let id = self.things.next_item_id;
        self.things.lying.push(ItemInfo { id, item: item.to_string(), count, pos: at });
    }

    /// Take `count` of `item` for handing on: from what the bot carries first, then creative
    /// supply (any known item).
    pub(super) fn supply(&mut self, item: &str, count: u32) -> Result<String, ActionError> {
        let item = rules::normalize_id(item);
        let item = item.strip_prefix("minecraft:").unwrap_or(&item).to_string();
        if !rules::is_item(&item) {
            return Err(ActionError::UnknownItem(item));
        }
        self.things.carried.take(&item, count);
        Ok(item)
    }

    fn near_container(&self, p: Pos) -> Result<(), ActionError> {
        if !is_container(self.block_at(p)) {
            return Err(ActionError::NoContainer(p));
        }
        if !rules::within_reach(self.agent_pos, p, rules::REACH) {
            return Err(ActionError::OutOfReach(p));
        }
        Ok(())
    }

    pub(super) fn things_keep(&mut self, item: &str, count: u32) -> Result<(), ActionError> {
        if !rules::is_item(item) {
            return Err(ActionError::UnknownItem(item.to_string()));
        }
        self.things.carried.add(item, count);
        Ok(())
    }

    pub(super) fn things_pick_up(&mut self, id: u64) -> Result<u32, ActionError> {
        let i = self.things.lying.iter().position(|it| it.id == id).ok_or(ActionError::Unsupported("picking up what is gone"))?;
        let it = &self.things.lying[i];
        if it.pos.distance(self.agent_pos.feet()) > PICKUP_RANGE + 1.0 {
            return Err(ActionError::OutOfReach(it.pos.block()));
        }
        let it = self.things.lying.remove(i);
        self.things.carried.add(&it.item, it.count);
        let by = self.agent_name.clone();
        self.record_pickup(Pickup { tick: self.tick, by, item: it.item, count: it.count });
        Ok(it.count)
    }

    pub(super) fn things_drop(&mut self, item: &str, count: u32, at: Vec3) -> Result<(), ActionError> {
        if rules::eye_of(self.agent_pos.feet()).distance(at) > THROW_REACH {
            return Err(ActionError::OutOfReach(at.block()));
        }
        let item = self.supply(item, count)?;
        self.lay(&item, count, at);
        Ok(())
    }

    pub(super) fn things_put(&mut self, p: Pos, item: &str, count: u32) -> Result<(), ActionError> {
        self.near_container(p)?;
        let item = self.supply(item, count)?;
        self.things.containers.entry(p).or_default().add(&item, count);
        Ok(())
    }

    pub(super) fn things_take(&mut self, p: Pos, item: &str, count: u32) -> Result<u32, ActionError> {
        self.near_container(p)?;
        let taken = self.things.containers.get_mut(&p).map_or(0, |inv| inv.take(item, count));
        self.things.carried.add(item, taken);
        Ok(taken)
    }
}

/// Does the crop at `p` grow a stage on `tick`?
fn grows(seed: u64, tick: u64, p: Pos) -> bool {
    let mut h = seed ^ tick.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    for v in [p.x, p.y, p.z] {
        h = (h ^ (v as i64 as u64)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        h ^= h >> 31;
    }
    h % GROW_ODDS == 0
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::world::Look;

    fn b(n: &str) -> Block {
        Block::from_name(n).unwrap()
    }

    #[test]
    fn wheat_planted_on_farmland_grows_ripe_in_about_half_a_minute() {
        let mut w = EmbeddedWorld::flat();
        let p = Pos::new(1, 5, 0);
        w.set_block_by(p.down(1), b("farmland"), crate::world::Actor::World);
        w.place_block(p, b("wheat")).expect("wheat goes on farmland");
        assert_eq!(w.crop_age(p), Some(0));
        assert!(w.place_block(Pos::new(-1, 5, 0), b("wheat")).is_err(), "not on grass");
        for _ in 0..2000 {
            w.advance();
        }
        assert_eq!(w.crop_age(p), Some(RIPE));
        w.break_block(p).unwrap();
        assert_eq!(w.crop_age(p), None);
    }

    #[test]
    fn chests_hold_items_the_bot_carries_and_spill_them_when_broken() {
        let mut w = EmbeddedWorld::flat();
        let chest = Pos::new(2, 5, 0);
        assert_eq!(w.put_in_container(chest, "coal", 1), Err(ActionError::NoContainer(chest)));
        w.place_block(chest, b("chest")).unwrap();
        w.stock_container(chest, "iron_pickaxe", 1);
        assert_eq!(w.take_from_container(chest, "iron_pickaxe", 5), Ok(1));
        assert_eq!(w.carried().count("iron_pickaxe"), 1);
        w.keep_item("oak_log", 12).unwrap();
        w.put_in_container(chest, "oak_log", 12).unwrap();
        assert_eq!(w.carried().count("oak_log"), 0, "what it carried went in first");
        assert_eq!(w.container(chest).unwrap().count("oak_log"), 12);
        w.break_block(chest).unwrap();
        assert_eq!(w.container(chest), None);
        assert_eq!(w.lying().iter().map(|i| i.count).sum::<u32>(), 12);
    }

    #[test]
    fn dropped_items_lie_until_a_player_walks_over_them() {
        let mut w = EmbeddedWorld::flat();
        w.add_player("alice", Vec3::new(6.5, 5.0, 0.5), Look::default());
        w.give_agent("cobblestone", 10);
        w.drop_item("cobblestone", 5, Vec3::new(3.5, 5.0, 0.5)).unwrap();
        assert_eq!(w.carried().count("cobblestone"), 5);
        assert!(w.drop_item("cobblestone", 5, Vec3::new(30.5, 5.0, 0.5)).is_err(), "too far to throw");
        w.advance();
        assert_eq!(w.lying().len(), 1);
        w.add_player("alice", Vec3::new(3.5, 5.0, 1.0), Look::default());
        w.advance();
        assert!(w.lying().is_empty());
        assert_eq!(w.inventory_of("alice").unwrap().count("cobblestone"), 5);
    }
}
