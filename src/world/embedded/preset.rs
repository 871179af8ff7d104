//! The terrain a world starts with: what fills it where nobody built.

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
        }
    }

    /// The y of the first air block above the ground (where a player's feet rest).
    pub fn surface_y(self) -> i32 {
        match self {
            Preset::Flat => 5,
            Preset::Empty => 0,
        }
    }

    pub fn parse(name: &str) -> Option<Preset> {
        match name {
            "flat" => Some(Preset::Flat),
            "empty" => Some(Preset::Empty),
            _ => None,
        }
    }
}

fn flat_terrain() -> &'static [Block; 4] {
    static T: std::sync::OnceLock<[Block; 4]> = std::sync::OnceLock::new();
    T.get_or_init(|| {
        let b = |n| Block::from_name(n).expect("terrain blocks are in the registry");
        [b("bedrock"), b("dirt"), b("grass_block"), Block::AIR]
    })
}
