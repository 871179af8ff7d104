//! The colour each block is drawn in, from the block registry.
//!
//! The registry knows the colour word players use for a block ("red", "light_gray"); this turns
//! the word into the RGB of Minecraft's dye of that name, with a few terrain blocks drawn in
//! their own familiar shade (grass is not dye green). Glass and water are drawn see-through.
//! The result is one `u32` per block: `0xRRGGBB`, plus [`SEE_THROUGH`] for translucent blocks.

use crate::world::Block;

/// Set on a colour whose block is drawn translucent.
pub const SEE_THROUGH: u32 = 1 << 24;

/// The RGB of Minecraft's 16 dye colours (their map colours), by colour word.
fn dye_rgb(colour: &str) -> Option<u32> {
    // lexicon: dye colour ids and their screen colours (block-id parts).
    Some(match colour {
        "white" => 0xf9fffe,
        "orange" => 0xf9801d,
        "magenta" => 0xc74ebd,
        "light_blue" => 0x3ab3da,
        "yellow" => 0xfed83d,
        "lime" => 0x80c71f,
        "pink" => 0xf38baa,
        "gray" => 0x474f52,
        "light_gray" => 0x9d9d97,
        "cyan" => 0x169c9c,
        "purple" => 0x8932b8,
        "blue" => 0x3c44aa,
        "brown" => 0x835432,
        "green" => 0x5e7c16,
        "red" => 0xb02e26,
        "black" => 0x1d1d21,
        _ => return None,
    })
}

/// Blocks whose look is not their dye colour: the terrain a player knows by sight.
fn own_rgb(name: &str) -> Option<u32> {
    // lexicon: block ids.
    Some(match name {
        "grass_block" => 0x6a9a3a,
        "dirt" | "coarse_dirt" | "rooted_dirt" | "farmland" | "dirt_path" => 0x8b6142,
        "stone" | "cobblestone" | "stone_bricks" | "smooth_stone" | "andesite" | "gravel" => 0x8a8a8a,
        "deepslate" | "cobbled_deepslate" | "tuff" => 0x555559,
        "bedrock" => 0x3a3a3a,
        "sand" | "sandstone" | "smooth_sandstone" | "cut_sandstone" => 0xdccfa0,
        "water" => 0x3f76e4,
        "ice" => 0xa0c0ff,
        "snow" | "snow_block" => 0xf0f8f8,
        "glass" => 0xd8eef4,
        "oak_planks" => 0xa2834f,
        "oak_log" => 0x6b5230,
        "birch_log" => 0xd8d4c4,
        "spruce_log" => 0x3e2a17,
        "short_grass" | "tall_grass" => 0x5f9a38,
        "poppy" => 0xc8261e,
        "dandelion" => 0xf2d233,
        n if n.ends_with("_leaves") => 0x4a7a2a,
        n if n.ends_with("_ore") => 0x7d7d7d,
        _ => return None,
    })
}

fn compute(b: Block) -> u32 {
    let info = b.info();
    let rgb = own_rgb(info.name).or_else(|| info.colour.and_then(dye_rgb)).unwrap_or(0xa0a0a0);
    let clear = info.name.contains("glass") || matches!(info.name, "water" | "ice");
    if clear { rgb | SEE_THROUGH } else { rgb }
}

/// Colours looked up once per block id and kept: the registry lookup clones an entry.
#[derive(Default)]
pub struct Palette {
    known: Vec<Option<u32>>,
}

impl Palette {
    /// The colour `b` is drawn in.
    pub fn colour(&mut self, b: Block) -> u32 {
        let i = b.index() as usize;
        if i >= self.known.len() {
            self.known.resize(i + 1, None);
        }
        *self.known[i].get_or_insert_with(|| compute(b))
    }

    /// Whether one can see through `b` to what is behind it (air, glass, water, flowers).
    pub fn see_through(&mut self, b: Block) -> bool {
        b.is_air() || !b.is_solid() || self.colour(b) & SEE_THROUGH != 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_red_block_is_drawn_red_and_grass_green() {
        let mut p = Palette::default();
        let red = p.colour(Block::from_name("red_wool").unwrap());
        assert_eq!(red, 0xb02e26);
        let grass = p.colour(Block::from_name("grass_block").unwrap());
        let (r, g, b) = (grass >> 16 & 0xff, grass >> 8 & 0xff, grass & 0xff);
        assert!(g > r && g > b, "grass is green: {grass:06x}");
    }

    #[test]
    fn glass_and_water_are_see_through_and_stone_is_not() {
        let mut p = Palette::default();
        assert!(p.see_through(Block::from_name("glass").unwrap()));
        assert!(p.see_through(Block::from_name("water").unwrap()));
        assert!(p.see_through(Block::AIR));
        assert!(!p.see_through(Block::from_name("stone").unwrap()));
    }
}
