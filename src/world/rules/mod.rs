//! Minecraft's rules, in one place: how high the world goes, how far the bot reaches, where a
//! body can stand and step, where a block may be placed or broken, and which mobs and items exist.
//!
//! The embedded world enforces them, the live world checks them before it asks the server for
//! anything, and the planner plans by them, so a plan that works in one works in the others and
//! fails the same way. They are pure functions over a block lookup (`impl Fn(Pos) -> Block`), so
//! each caller passes its own view of the blocks.

pub mod bounds;
pub mod breaking;
pub mod drops;
pub mod kinds;
pub mod placing;
pub mod recipes;
pub mod reach;
pub mod standing;

pub use bounds::{HEIGHT, MAX_Y, MIN_Y, WORLD_BORDER, in_height, in_world};
pub use breaking::{check_break, unbreakable};
pub use drops::{drops, is_ore};
pub use kinds::{DANGEROUS, ITEM_KINDS, MOB_KINDS, is_dangerous, is_item, is_mob, item_id, mob_kind, normalize_id};
pub use placing::{check_place, clickable, has_support, replaceable};
pub use reach::{REACH, eye_of, reach_distance, within_reach};
/// The age of a fully grown crop (wheat's last stage).
pub const RIPE: u8 = 7;

/// Can `b` hold items (a chest, a barrel)?
pub fn is_container(b: crate::world::Block) -> bool {
    // lexicon: Minecraft block ids (game knowledge), not words.
    matches!(b.name(), "chest" | "barrel" | "trapped_chest")
}

pub use standing::{check_step, has_room, in_body, supported};

#[cfg(test)]
mod testing {
    use crate::world::{Block, Pos};

    pub fn b(name: &str) -> Block {
        Block::from_name(name).unwrap()
    }

    /// Flat ground (grass at y=4), a stone wall at x=3 two high, water at (0, 5, -3).
    pub fn world(p: Pos) -> Block {
        match p {
            _ if p.y <= 4 => b("grass_block"),
            _ if p.x == 3 && p.y <= 6 => b("stone"),
            _ if p == Pos::new(0, 5, -3) => b("water"),
            _ => Block::AIR,
        }
    }

    pub const H: (i32, i32) = super::HEIGHT;
}
