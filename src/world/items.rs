//! Items held in one place: what the bot or a player carries, what a chest holds, what lies on
//! the ground. An [`Inventory`] is a short list of item ids with counts, in the order they came
//! in (so "what do you have" answers in the order things were gathered).
//!
//! The game is in creative mode: the bot can hand out any item without holding it. What it
//! *carries* is what it gathered (mined, chopped, harvested) or took out of a chest; giving,
//! dropping and storing use those first, and creative supply makes up the rest.

use serde::{Deserialize, Serialize};

/// Item ids with counts. Counts are never zero: an item taken to nothing leaves the list.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Inventory(Vec<(String, u32)>);

impl Inventory {
    /// Add `count` of `item`.
    pub fn add(&mut self, item: &str, count: u32) {
        if count == 0 {
            return;
        }
        match self.0.iter_mut().find(|(i, _)| i == item) {
            Some((_, n)) => *n = n.saturating_add(count),
            None => self.0.push((item.to_string(), count)),
        }
    }

    /// Take up to `count` of `item`; returns how many were there to take.
    pub fn take(&mut self, item: &str, count: u32) -> u32 {
        let Some(i) = self.0.iter().position(|(id, _)| id == item) else { return 0 };
        let taken = self.0[i].1.min(count);
        self.0[i].1 -= taken;
        if self.0[i].1 == 0 {
            self.0.remove(i);
        }
        taken
    }

    /// How many of `item` there are.
    pub fn count(&self, item: &str) -> u32 {
        self.0.iter().find(|(i, _)| i == item).map_or(0, |(_, n)| *n)
    }

    /// Every item with its count, in the order they came in.
    pub fn items(&self) -> &[(String, u32)] {
        &self.0
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// How many items in all.
    pub fn total(&self) -> u64 {
        self.0.iter().map(|(_, n)| u64::from(*n)).sum()
    }
}

impl From<Vec<(String, u32)>> for Inventory {
    fn from(items: Vec<(String, u32)>) -> Self {
        let mut inv = Inventory::default();
        for (item, n) in items {
            inv.add(&item, n);
        }
        inv
    }
}

impl PartialEq<Vec<(String, u32)>> for Inventory {
    fn eq(&self, other: &Vec<(String, u32)>) -> bool {
        &self.0 == other
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn items_are_added_taken_and_counted_and_none_is_left_at_zero() {
        let mut inv = Inventory::default();
        inv.add("coal", 3);
        inv.add("cobblestone", 10);
        inv.add("coal", 2);
        assert_eq!(inv.count("coal"), 5);
        assert_eq!(inv.take("coal", 7), 5, "only what is there");
        assert_eq!(inv.count("coal"), 0);
        assert_eq!(inv.items(), &[("cobblestone".to_string(), 10)]);
        assert_eq!(inv.take("diamond", 1), 0);
        inv.add("diamond", 0);
        assert_eq!(inv.total(), 10);
    }
}
