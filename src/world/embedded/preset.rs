//! The terrain a world starts with: what fills it where nobody built.

use super::natural;
use crate::world::{Block, Pos};
use serde::{Deserialize, Serialize};

/// Which terrain fills the world where nobody built.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum Preset {
    /// Bedrock at y=0, dirt at y=1..=3, grass_block at y=4, air above and below; unbounded in x/z.
    #[default]
    Flat,
    /// Nothing but air.
    Empty,
    /// Hills, water, beaches, trees and ore, made from the seed ([`natural`]).
    Natural { seed: u32 },
}

impl Preset {
    /// The terrain block at `p` before anybody changed anything.
    pub fn block_at(self, p: Pos) -> Block {
        match self {
            Preset::Empty => Block::AIR,
            Preset::Flat => flat_terrain()[match p.y {
                0 => 0,
                1..=3 => 1,
                4 => 2,
                _ => 3,
            }],
            Preset::Natural { seed } => natural::terrain(seed).block_at(p),
        }
    }

    /// The y of the first air block above the ground in column (x, z) (where a player's feet
    /// rest; on the water where there is water).
    pub fn surface_at(self, x: i32, z: i32) -> i32 {
        match self {
            Preset::Flat => 5,
            Preset::Empty => 0,
            Preset::Natural { seed } => natural::terrain(seed).surface(x, z),
        }
    }

    /// A preset by name: "flat", "empty", or "natural" (with `seed`).
    pub fn parse(name: &str, seed: u32) -> Option<Preset> {
        // lexicon: the scenario format's and the command line's preset ids, not words players say.
        match name {
            "flat" => Some(Preset::Flat),
            "empty" => Some(Preset::Empty),
            "natural" => Some(Preset::Natural { seed }),
            _ => None,
        }
    }

    /// A spot on dry land near (x, z), feet position: where a natural world puts its players.
    pub fn dry_spot_near(self, x: i32, z: i32) -> Pos {
        let Preset::Natural { seed } = self else { return Pos::new(x, self.surface_at(x, z), z) };
        let t = natural::terrain(seed);
        // Rings outwards until a column's ground stands above the water.
        for r in 0..200 {
            for dx in -r..=r {
                for dz in [-r, r] {
                    let (cx, cz) = (x + dx, z + dz);
                    if t.ground(cx, cz) > natural::SEA_LEVEL {
                        return Pos::new(cx, t.surface(cx, cz), cz);
                    }
                }
            }
        }
        Pos::new(x, t.surface(x, z), z)
    }
}

fn flat_terrain() -> &'static [Block; 4] {
    static T: std::sync::OnceLock<[Block; 4]> = std::sync::OnceLock::new();
    T.get_or_init(|| {
        let b = |n| Block::from_name(n).expect("terrain blocks are in the registry");
        [b("bedrock"), b("dirt"), b("grass_block"), Block::AIR]
    })
}
