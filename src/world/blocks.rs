//! The block registry: every block id the bot knows, with the colour word players would use for
//! it and whether it is natural terrain (which perception ignores when it looks for things people
//! built).
//!
//! A [`Block`] is a 2-byte handle into this registry, so a world of a few hundred thousand blocks
//! stays small. Ids are Minecraft's, without the `minecraft:` prefix. A block id the table does not
//! know (a live server can send any) is interned on first sight as a solid, unnatural, colourless
//! block, so nothing is ever lost or renamed.

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::collections::HashMap;
use std::sync::{OnceLock, RwLock};

/// The 16 Minecraft dye colours, in their usual order, as they appear in block ids.
// lexicon: block-id parts (the game's dye colours), not words; the words are in [colours].
pub const DYE_COLOURS: [&str; 16] = [
    "white", "orange", "magenta", "light_blue", "yellow", "lime", "pink", "gray",
    "light_gray", "cyan", "purple", "blue", "brown", "green", "red", "black",
];

/// Block families that come in every dye colour (`red_wool`, `blue_concrete`, …).
const DYED_FAMILIES: [&str; 6] =
    // lexicon: block-id parts, not words.
    ["wool", "concrete", "concrete_powder", "terracotta", "stained_glass", "glazed_terracotta"];

/// What the registry knows about one block id.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BlockInfo {
    pub name: &'static str,
    /// One of [`DYE_COLOURS`], or `None` for colourless blocks (air, clear glass, unknown ids).
    pub colour: Option<&'static str>,
    /// Terrain that perception ignores: grass, dirt, stone, water, ores, leaves…
    pub natural: bool,
    /// Entities collide with it and can stand on it.
    pub solid: bool,
}

/// A block: a handle into the registry. `Block::AIR` is the default.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Block(u16);

// (name, colour, natural, solid) for the blocks that do not come in all 16 colours.
// Colours of plain blocks are chosen by eye: what a player would call them.
// lexicon: block ids and their dye colours (game knowledge), not words.
const PLAIN: &[(&str, Option<&str>, bool, bool)] = &[
    ("air", None, true, false),
    // terrain
    ("bedrock", Some("black"), true, true),
    ("grass_block", Some("green"), true, true),
    ("dirt", Some("brown"), true, true),
    ("coarse_dirt", Some("brown"), true, true),
    ("podzol", Some("brown"), true, true),
    ("rooted_dirt", Some("brown"), true, true),
    ("mud", Some("brown"), true, true),
    ("dirt_path", Some("brown"), true, true),
    ("farmland", Some("brown"), true, true),
    ("stone", Some("gray"), true, true),
    ("deepslate", Some("gray"), true, true),
    ("granite", Some("pink"), true, true),
    ("diorite", Some("white"), true, true),
    ("andesite", Some("gray"), true, true),
    ("tuff", Some("gray"), true, true),
    ("sand", Some("yellow"), true, true),
    ("red_sand", Some("orange"), true, true),
    ("gravel", Some("gray"), true, true),
    ("clay", Some("light_gray"), true, true),
    ("snow", Some("white"), true, false),
    ("ice", Some("light_blue"), true, true),
    ("water", Some("blue"), true, false),
    ("lava", Some("orange"), true, false),
    ("netherrack", Some("red"), true, true),
    ("end_stone", Some("yellow"), true, true),
    ("coal_ore", None, true, true),
    ("iron_ore", None, true, true),
    ("copper_ore", None, true, true),
    ("gold_ore", None, true, true),
    ("redstone_ore", None, true, true),
    ("emerald_ore", None, true, true),
    ("lapis_ore", None, true, true),
    ("diamond_ore", None, true, true),
    ("deepslate_coal_ore", None, true, true),
    ("deepslate_iron_ore", None, true, true),
    ("deepslate_gold_ore", None, true, true),
    ("deepslate_diamond_ore", None, true, true),
    ("short_grass", Some("green"), true, false),
    ("tall_grass", Some("green"), true, false),
    ("fern", Some("green"), true, false),
    ("dead_bush", Some("brown"), true, false),
    ("dandelion", Some("yellow"), true, false),
    ("poppy", Some("red"), true, false),
    ("blue_orchid", Some("light_blue"), true, false),
    ("cornflower", Some("blue"), true, false),
    ("oxeye_daisy", Some("white"), true, false),
    ("sugar_cane", Some("green"), true, false),
    ("oak_leaves", Some("green"), true, true),
    ("spruce_leaves", Some("green"), true, true),
    ("birch_leaves", Some("green"), true, true),
    ("jungle_leaves", Some("green"), true, true),
    ("acacia_leaves", Some("green"), true, true),
    ("dark_oak_leaves", Some("green"), true, true),
    ("cherry_leaves", Some("pink"), true, true),
    // stone building blocks
    ("cobblestone", Some("gray"), false, true),
    ("mossy_cobblestone", Some("green"), false, true),
    ("stone_bricks", Some("gray"), false, true),
    ("mossy_stone_bricks", Some("green"), false, true),
    ("cracked_stone_bricks", Some("gray"), false, true),
    ("chiseled_stone_bricks", Some("gray"), false, true),
    ("smooth_stone", Some("gray"), false, true),
    ("polished_granite", Some("pink"), false, true),
    ("polished_diorite", Some("white"), false, true),
    ("polished_andesite", Some("gray"), false, true),
    ("cobbled_deepslate", Some("gray"), false, true),
    ("polished_deepslate", Some("gray"), false, true),
    ("deepslate_bricks", Some("gray"), false, true),
    ("deepslate_tiles", Some("gray"), false, true),
    ("calcite", Some("white"), false, true),
    ("blackstone", Some("black"), false, true),
    ("polished_blackstone", Some("black"), false, true),
    ("polished_blackstone_bricks", Some("black"), false, true),
    ("obsidian", Some("black"), false, true),
    ("bricks", Some("red"), false, true),
    ("mud_bricks", Some("brown"), false, true),
    ("packed_mud", Some("brown"), false, true),
    ("nether_bricks", Some("red"), false, true),
    ("red_nether_bricks", Some("red"), false, true),
    ("end_stone_bricks", Some("yellow"), false, true),
    ("prismarine", Some("cyan"), false, true),
    ("prismarine_bricks", Some("cyan"), false, true),
    ("dark_prismarine", Some("cyan"), false, true),
    ("purpur_block", Some("magenta"), false, true),
    ("purpur_pillar", Some("magenta"), false, true),
    ("sandstone", Some("yellow"), false, true),
    ("smooth_sandstone", Some("yellow"), false, true),
    ("cut_sandstone", Some("yellow"), false, true),
    ("chiseled_sandstone", Some("yellow"), false, true),
    ("red_sandstone", Some("orange"), false, true),
    ("smooth_red_sandstone", Some("orange"), false, true),
    ("cut_red_sandstone", Some("orange"), false, true),
    ("quartz_block", Some("white"), false, true),
    ("smooth_quartz", Some("white"), false, true),
    ("quartz_bricks", Some("white"), false, true),
    ("quartz_pillar", Some("white"), false, true),
    ("chiseled_quartz_block", Some("white"), false, true),
    ("terracotta", Some("orange"), false, true),
    ("snow_block", Some("white"), false, true),
    ("packed_ice", Some("light_blue"), false, true),
    ("blue_ice", Some("blue"), false, true),
    ("magma_block", Some("orange"), false, true),
    // metal and mineral blocks
    ("gold_block", Some("yellow"), false, true),
    ("iron_block", Some("light_gray"), false, true),
    ("diamond_block", Some("cyan"), false, true),
    ("emerald_block", Some("green"), false, true),
    ("lapis_block", Some("blue"), false, true),
    ("redstone_block", Some("red"), false, true),
    ("coal_block", Some("black"), false, true),
    ("netherite_block", Some("black"), false, true),
    ("copper_block", Some("orange"), false, true),
    ("amethyst_block", Some("purple"), false, true),
    ("raw_iron_block", Some("pink"), false, true),
    ("raw_gold_block", Some("yellow"), false, true),
    // glass and light
    ("glass", None, false, true),
    ("glass_pane", None, false, true),
    ("tinted_glass", Some("black"), false, true),
    ("glowstone", Some("yellow"), false, true),
    ("sea_lantern", Some("white"), false, true),
    ("torch", Some("yellow"), false, false),
    ("lantern", Some("black"), false, false),
    // misc full blocks players build with
    ("bookshelf", Some("brown"), false, true),
    ("crafting_table", Some("brown"), false, true),
    ("furnace", Some("gray"), false, true),
    ("chest", Some("brown"), false, true),
    ("tnt", Some("red"), false, true),
    ("sponge", Some("yellow"), false, true),
    ("hay_block", Some("yellow"), false, true),
    ("pumpkin", Some("orange"), false, true),
    ("carved_pumpkin", Some("orange"), false, true),
    ("jack_o_lantern", Some("orange"), false, true),
    ("melon", Some("green"), false, true),
    ("slime_block", Some("lime"), false, true),
    ("honey_block", Some("orange"), false, true),
    ("moss_block", Some("green"), false, true),
    ("dried_kelp_block", Some("green"), false, true),
    ("bone_block", Some("white"), false, true),
    ("note_block", Some("brown"), false, true),
    ("jukebox", Some("brown"), false, true),
    ("crimson_planks", Some("red"), false, true),
    ("warped_planks", Some("cyan"), false, true),
    ("crimson_stem", Some("red"), false, true),
    ("warped_stem", Some("cyan"), false, true),
    ("bamboo_planks", Some("yellow"), false, true),
    ("bamboo_block", Some("green"), false, true),
];

// (wood, planks colour, log colour). Logs and planks are building material, not terrain: the
// embedded world has no trees, and on a live server a player's log cabin should be seen.
// lexicon: wood ids and their dye colours (game knowledge), not words.
const WOODS: &[(&str, &str, &str)] = &[
    ("oak", "brown", "brown"),
    ("spruce", "brown", "brown"),
    ("birch", "yellow", "white"),
    ("jungle", "brown", "brown"),
    ("acacia", "orange", "gray"),
    ("dark_oak", "brown", "brown"),
    ("mangrove", "red", "brown"),
    ("cherry", "pink", "brown"),
    ("pale_oak", "white", "gray"),
];

// Blocks added after the first saved worlds (appended to the table, see `Registry::build`).
// lexicon: block ids and their dye colours (game knowledge), not words.
const LATER: &[(&str, Option<&str>, bool, bool)] = &[
    // A crop: the world grows it, so it is terrain to perception (a farm is not a thing built).
    ("wheat", Some("yellow"), true, false),
    ("barrel", Some("brown"), false, true),
    ("brain_coral_block", Some("pink"), false, true),
    ("exposed_copper", Some("orange"), false, true),
    ("cobbled_deepslate_stairs", Some("gray"), false, true),
    ("cobblestone_stairs", Some("gray"), false, true),
    ("stone_stairs", Some("gray"), false, true),
];

struct Registry {
    table: Vec<BlockInfo>,
    by_name: HashMap<&'static str, u16>,
}

fn leak(s: String) -> &'static str {
    Box::leak(s.into_boxed_str())
}

fn colour_static(c: &str) -> &'static str {
    DYE_COLOURS.iter().find(|d| **d == c).copied().expect("registry colours are dye colours")
}

impl Registry {
    fn build() -> Registry {
        let mut table = Vec::new();
        let mut push = |name: &'static str, colour: Option<&str>, natural: bool, solid: bool| {
            table.push(BlockInfo { name, colour: colour.map(colour_static), natural, solid });
        };
        for &(name, colour, natural, solid) in PLAIN {
            push(name, colour, natural, solid);
        }
        for &(wood, planks, log) in WOODS {
            push(leak(format!("{wood}_planks")), Some(planks), false, true);
            push(leak(format!("{wood}_log")), Some(log), false, true);
            push(leak(format!("stripped_{wood}_log")), Some(planks), false, true);
        }
        for family in DYED_FAMILIES {
            for colour in DYE_COLOURS {
                push(leak(format!("{colour}_{family}")), Some(colour), false, true);
            }
        }
        // Added after the first release: appended, so saved worlds keep their block numbers.
        for &(name, colour, natural, solid) in LATER {
            push(name, colour, natural, solid);
        }
        for &(wood, planks, log) in WOODS {
            push(leak(format!("{wood}_wood")), Some(log), false, true);
            push(leak(format!("stripped_{wood}_wood")), Some(planks), false, true);
            push(leak(format!("{wood}_stairs")), Some(planks), false, true);
        }
        let by_name = table.iter().enumerate().map(|(i, b)| (b.name, i as u16)).collect();
        Registry { table, by_name }
    }
}

/// The fixed table, built once.
fn base() -> &'static Registry {
    static BASE: OnceLock<Registry> = OnceLock::new();
    BASE.get_or_init(Registry::build)
}

/// Ids seen at run time that the fixed table lacks (live servers). Rarely touched.
fn extra() -> &'static RwLock<Vec<BlockInfo>> {
    static EXTRA: OnceLock<RwLock<Vec<BlockInfo>>> = OnceLock::new();
    EXTRA.get_or_init(|| RwLock::new(Vec::new()))
}

fn strip_prefix(name: &str) -> &str {
    name.strip_prefix("minecraft:").unwrap_or(name)
}

impl Block {
    pub const AIR: Block = Block(0);

    /// A known block by id (`red_wool` or `minecraft:red_wool`); `None` if the registry lacks it.
    pub fn from_name(name: &str) -> Option<Block> {
        let name = strip_prefix(name.trim());
        if let Some(&i) = base().by_name.get(name) {
            return Some(Block(i));
        }
        let extra = extra().read().unwrap_or_else(|e| e.into_inner());
        extra.iter().position(|b| b.name == name).map(|i| Block((base().table.len() + i) as u16))
    }

    /// Like [`Block::from_name`], but an unknown id is added to the registry (solid, unnatural,
    /// colourless) instead of being rejected. For ids a live server reports.
    pub fn intern(name: &str) -> Block {
        if let Some(b) = Block::from_name(name) {
            return b;
        }
        let name = strip_prefix(name.trim());
        let mut extra = extra().write().unwrap_or_else(|e| e.into_inner());
        if let Some(i) = extra.iter().position(|b| b.name == name) {
            return Block((base().table.len() + i) as u16);
        }
        extra.push(BlockInfo { name: leak(name.to_string()), colour: None, natural: false, solid: true });
        Block((base().table.len() + extra.len() - 1) as u16)
    }

    /// Registry entry for this block.
    pub fn info(self) -> BlockInfo {
        let base = &base().table;
        match base.get(self.0 as usize) {
            Some(info) => info.clone(),
            None => {
                let extra = extra().read().unwrap_or_else(|e| e.into_inner());
                extra[self.0 as usize - base.len()].clone()
            }
        }
    }

    pub fn name(self) -> &'static str {
        self.info().name
    }

    pub fn colour(self) -> Option<&'static str> {
        self.info().colour
    }

    pub fn is_air(self) -> bool {
        self == Block::AIR
    }

    pub fn is_natural(self) -> bool {
        self.info().natural
    }

    pub fn is_solid(self) -> bool {
        self.info().solid
    }

    pub fn is_liquid(self) -> bool {
        matches!(self.name(), "water" | "lava")
    }

    /// All blocks of the fixed table, in registry order.
    pub fn all() -> impl Iterator<Item = Block> {
        (0..base().table.len() as u16).map(Block)
    }

    /// Blocks whose colour is `colour` (see [`canonical_colour`] for accepted spellings).
    pub fn with_colour(colour: &str) -> Vec<Block> {
        let Some(c) = canonical_colour(colour) else { return Vec::new() };
        Block::all().filter(|b| b.colour() == Some(c)).collect()
    }

    /// The raw index (for compact storage). Indices are stable only within one process: save
    /// block names, never indices.
    pub fn index(self) -> u16 {
        self.0
    }

    /// The block with raw index `i`, if the registry has one.
    pub fn from_index(i: u16) -> Option<Block> {
        let base = base().table.len();
        let known = (i as usize) < base || {
            let extra = extra().read().unwrap_or_else(|e| e.into_inner());
            (i as usize) < base + extra.len()
        };
        known.then_some(Block(i))
    }
}

/// The registry's spelling of a colour word a player might type: `grey` → `gray`,
/// `light blue` → `light_blue`, `silver` → `light_gray`. `None` if it is not a colour. The words
/// are the lexicon's `[colours]`.
pub fn canonical_colour(word: &str) -> Option<&'static str> {
    let c = crate::lexicon::lexicon().colour(word)?;
    DYE_COLOURS.iter().find(|d| **d == c).copied()
}

impl std::fmt::Debug for Block {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Block({})", self.name())
    }
}

impl std::fmt::Display for Block {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl Serialize for Block {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}

impl<'de> Deserialize<'de> for Block {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let name = String::deserialize(d)?;
        Ok(Block::intern(&name))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_colour_family_is_complete() {
        for family in ["wool", "concrete", "terracotta", "stained_glass"] {
            for colour in DYE_COLOURS {
                let b = Block::from_name(&format!("{colour}_{family}")).expect("dyed block exists");
                assert_eq!(b.colour(), Some(colour));
                assert!(!b.is_natural());
            }
        }
    }

    #[test]
    fn plain_blocks_have_colours_by_eye() {
        assert_eq!(Block::from_name("oak_planks").unwrap().colour(), Some("brown"));
        assert_eq!(Block::from_name("gold_block").unwrap().colour(), Some("yellow"));
        assert_eq!(Block::from_name("minecraft:bricks").unwrap().colour(), Some("red"));
        assert_eq!(Block::from_name("glass").unwrap().colour(), None);
    }

    #[test]
    fn terrain_is_natural_and_building_blocks_are_not() {
        for t in ["grass_block", "dirt", "stone", "bedrock", "water", "sand", "gravel", "iron_ore"] {
            assert!(Block::from_name(t).unwrap().is_natural(), "{t}");
        }
        for b in ["cobblestone", "bricks", "oak_log", "spruce_planks", "quartz_block", "glass"] {
            assert!(!Block::from_name(b).unwrap().is_natural(), "{b}");
        }
        assert!(!Block::from_name("water").unwrap().is_solid());
        assert!(Block::AIR.is_air() && Block::AIR.name() == "air");
    }

    #[test]
    fn unknown_ids_are_interned_not_lost() {
        assert_eq!(Block::from_name("zigurat_block"), None);
        let b = Block::intern("minecraft:zigurat_block");
        assert_eq!(b.name(), "zigurat_block");
        assert_eq!(Block::intern("zigurat_block"), b);
        assert_eq!(Block::from_name("zigurat_block"), Some(b));
        assert!(b.is_solid() && !b.is_natural() && b.colour().is_none());
    }

    #[test]
    fn colour_words() {
        assert_eq!(canonical_colour("Grey"), Some("gray"));
        assert_eq!(canonical_colour("light blue"), Some("light_blue"));
        assert_eq!(canonical_colour("silver"), Some("light_gray"));
        assert_eq!(canonical_colour("house"), None);
        assert!(Block::with_colour("red").contains(&Block::from_name("red_wool").unwrap()));
    }

    #[test]
    fn names_are_unique() {
        let mut seen = std::collections::HashSet::new();
        for b in Block::all() {
            assert!(seen.insert(b.name()), "duplicate {}", b.name());
        }
        assert!(seen.len() > 200);
    }
}
