//! Looking through the world for what a job needs: the nearest tree, an ore vein with a safe
//! staircase down to it, ripe crops, a chest. The bot may look at any block (a creative
//! companion that knows where ore is, as a player with a map would); it never digs blind.

pub mod chests;
mod stairs;
mod trees;

pub use stairs::{Vein, headroom, vein_with_stairs};
pub use trees::{Tree, trees_near};

use crate::world::{BBox, Pos, World};

/// Every cell of `bbox` whose block passes `keep`, nearest to `from` first.
pub fn blocks_near(world: &dyn World, bbox: BBox, from: Pos, keep: impl Fn(&str) -> bool) -> Vec<Pos> {
    let mut found: Vec<Pos> = bbox.iter().filter(|p| keep(world.block_at(*p).name())).collect();
    found.sort_by(|a, b| a.distance(from).total_cmp(&b.distance(from)));
    found
}

/// A box reaching `r` blocks sideways from `c`, `down` below and `up` above it.
pub fn around(c: Pos, r: i32, down: i32, up: i32) -> BBox {
    BBox::new(Pos::new(c.x - r, (c.y - down).max(crate::world::rules::MIN_Y), c.z - r), Pos::new(c.x + r, (c.y + up).min(crate::world::rules::MAX_Y), c.z + r))
}
