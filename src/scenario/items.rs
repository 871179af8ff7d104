//! Scenario fields for items, chests and crops (craftmate additions to `SCENARIOS.md`):
//! `items = [["coal", 3]]` on `[agent]`, a `[[players]]` entry or a chest's `[[blocks]]` entry,
//! `age = 7` on a crop's `[[blocks]]` entry, and the step `expect = "items"` with `holder`
//! (a player's name, "agent", "ground", or a chest's `[x, y, z]`), an optional `item` and
//! `op`/`count`.

use super::format::{BlocksSpec, StepSpec, TargetSpec};
use super::load::{Expect, Op};
use crate::world::embedded::EmbeddedWorld;
use crate::world::{BBox, Block, Pos, World, rules};

/// Whose items an `items` step counts.
#[derive(Debug, Clone, PartialEq)]
pub enum Holder {
    Player(String),
    Agent,
    Chest(Pos),
    /// Items lying on the ground anywhere.
    Ground,
}

/// What set-up puts in place besides blocks.
#[derive(Debug, Default, Clone)]
pub struct Stock {
    pub agent: Vec<(String, u32)>,
    pub players: Vec<(String, Vec<(String, u32)>)>,
    pub chests: Vec<(Pos, Vec<(String, u32)>)>,
    pub crops: Vec<(BBox, u8)>,
}

impl Stock {
    /// What `[[blocks]]` entry `i` (`b`, filling `bbox` with `block`) stocks: a chest's items, a
    /// crop's age.
    pub fn add_blocks(&mut self, i: usize, b: &BlocksSpec, bbox: BBox, block: Block) -> Result<(), String> {
        if !b.items.is_empty() {
            if !rules::is_container(block) {
                return Err(format!("field `blocks[{i}].items`: only a chest or barrel holds items, not {:?}", b.block));
            }
            let items = checked(&b.items, &format!("blocks[{i}].items"))?;
            self.chests.extend(bbox.iter().map(|p| (p, items.clone())));
        }
        if let Some(age) = b.age {
            if block.name() != "wheat" || age > rules::RIPE {
                return Err(format!("field `blocks[{i}].age`: a crop (wheat) grows from 0 to {}", rules::RIPE));
            }
            self.crops.push((bbox, age));
        }
        Ok(())
    }
}

/// Items as a scenario lists them, checked against the items the bot knows.
pub fn checked(items: &[(String, u32)], field: &str) -> Result<Vec<(String, u32)>, String> {
    for (id, _) in items {
        if !rules::is_item(id) {
            return Err(format!("field `{field}`: unknown item {id:?}"));
        }
    }
    Ok(items.to_vec())
}

/// Put the stock into the world (after the blocks: chests must stand first).
pub fn set_up(stock: &Stock, world: &mut EmbeddedWorld) {
    for (item, n) in &stock.agent {
        world.give_agent(item, *n);
    }
    for (name, items) in &stock.players {
        if let Some(p) = world.player_mut(name) {
            for (item, n) in items {
                p.inventory.add(item, *n);
            }
        }
    }
    for (pos, items) in &stock.chests {
        for (item, n) in items {
            world.stock_container(*pos, item, *n);
        }
    }
    for (bbox, age) in &stock.crops {
        for p in bbox.iter() {
            world.set_crop_age(p, *age);
        }
    }
}

/// Read an `expect = "items"` step.
pub fn expect(s: &StepSpec, players: &[&str], op: Op, count: u64) -> Result<Expect, String> {
    let holder = match s.holder.as_ref().ok_or("an items step needs `holder`")? {
        TargetSpec::Pos(p) => Holder::Chest(Pos::from(*p)),
        TargetSpec::Name(n) if n == "agent" => Holder::Agent,
        TargetSpec::Name(n) if n == "ground" => Holder::Ground,
        TargetSpec::Name(n) if players.contains(&n.as_str()) => Holder::Player(n.clone()),
        TargetSpec::Name(n) => return Err(format!("field `holder`: {n:?} is no player here, nor \"agent\" or \"ground\"")),
    };
    if let Some(i) = &s.item
        && !rules::is_item(i)
    {
        return Err(format!("field `item`: unknown item {i:?}"));
    }
    Ok(Expect::Items { holder, item: s.item.clone(), op, count })
}

/// Judge an `items` step.
pub fn judge(w: &EmbeddedWorld, holder: &Holder, item: &Option<String>, op: Op, count: u64) -> Result<(), String> {
    let list: Vec<(String, u32)> = match holder {
        Holder::Agent => w.carried().items().to_vec(),
        Holder::Player(n) => w.inventory_of(n).map(|i| i.items().to_vec()).unwrap_or_default(),
        Holder::Chest(p) => match w.container(*p) {
            Some(inv) => inv.items().to_vec(),
            None => return Err(format!("there is no chest at {p}")),
        },
        Holder::Ground => w.lying().iter().map(|i| (i.item.clone(), i.count)).collect(),
    };
    let seen: u64 = list.iter().filter(|(i, _)| item.as_ref().is_none_or(|x| x == i)).map(|(_, n)| u64::from(*n)).sum();
    if op.holds(seen, count) {
        return Ok(());
    }
    let whose = match holder {
        Holder::Agent => "the bot carries".to_string(),
        Holder::Player(n) => format!("{n} has"),
        Holder::Chest(p) => format!("the chest at {p} holds"),
        Holder::Ground => "the ground holds".to_string(),
    };
    let all: Vec<String> = list.iter().map(|(i, n)| format!("{n} {i}")).collect();
    Err(format!("{whose} {seen} {}, expected {} {count} (all: {})", item.as_deref().unwrap_or("items"), op.symbol(), if all.is_empty() { "none".into() } else { all.join(", ") }))
}
