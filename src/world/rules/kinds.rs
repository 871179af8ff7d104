//! The mobs and items the bot knows by name (Minecraft ids without the `minecraft:` prefix).
//!
//! The embedded world accepts exactly these; the live server knows more (its registry decides
//! there), but the parser and interpreter understand these names in players' words.

use crate::world::Block;

/// Mob ids the bot knows (the usual passive, neutral and hostile mobs).
// lexicon: Minecraft entity ids (game knowledge), not words.
pub const MOB_KINDS: &[&str] = &[
    "pig", "cow", "sheep", "chicken", "horse", "donkey", "mule", "llama", "rabbit", "wolf", "cat",
    "ocelot", "fox", "parrot", "bee", "goat", "panda", "polar_bear", "turtle", "frog", "axolotl",
    "camel", "armadillo", "sniffer", "mooshroom", "villager", "iron_golem", "snow_golem", "squid",
    "dolphin", "cod", "salmon", "zombie", "skeleton", "creeper", "spider", "enderman", "slime",
    "witch", "pillager", "bat",
];

/// Item ids (besides every block id) that can be handed to a player.
// lexicon: Minecraft item ids (game knowledge), not words.
pub const ITEM_KINDS: &[&str] = &[
    "diamond_sword", "iron_sword", "wooden_sword", "stone_sword", "golden_sword", "netherite_sword",
    "diamond_pickaxe", "iron_pickaxe", "wooden_pickaxe", "stone_pickaxe", "diamond_axe", "iron_axe",
    "diamond_shovel", "iron_shovel", "bow", "arrow", "crossbow", "shield", "trident", "fishing_rod",
    "bread", "apple", "golden_apple", "cooked_beef", "cooked_porkchop", "carrot", "potato", "cake",
    "cookie", "diamond", "emerald", "iron_ingot", "gold_ingot", "coal", "stick", "string",
    "feather", "flint_and_steel", "bucket", "water_bucket", "torch", "map", "compass", "clock",
    "book", "saddle", "lead", "name_tag", "ender_pearl", "elytra", "firework_rocket",
    "diamond_helmet", "diamond_chestplate", "diamond_leggings", "diamond_boots", "iron_helmet",
    "iron_chestplate", "iron_leggings", "iron_boots", "egg", "snowball", "bone", "wheat", "sugar",
];

/// Blocks, items and mobs that burn, blow up or destroy what others built: refused unless a
/// server owner allows them (`[rules] allow_dangerous`).
// lexicon: Minecraft block, item and entity ids (game knowledge), not words.
pub const DANGEROUS: &[&str] = &[
    "tnt", "tnt_minecart", "lava", "lava_bucket", "fire", "soul_fire", "flint_and_steel", "fire_charge", "end_crystal",
    "respawn_anchor", "creeper", "wither", "wither_skeleton_skull", "ender_dragon", "ghast",
];

/// Does `id` burn, blow up or destroy (see [`DANGEROUS`])?
pub fn is_dangerous(id: &str) -> bool {
    DANGEROUS.contains(&id)
}

/// A name as players write it (`Polar Bear`) as an id (`polar_bear`).
pub fn normalize_id(name: &str) -> String {
    name.trim().to_lowercase().replace(' ', "_")
}

/// Is `kind` (an id) a mob the bot knows?
pub fn is_mob(kind: &str) -> bool {
    MOB_KINDS.contains(&kind)
}

/// Is `id` an item the bot knows: a listed item, or any block but air?
pub fn is_item(id: &str) -> bool {
    ITEM_KINDS.contains(&id) || Block::from_name(id).is_some_and(|b| !b.is_air())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_kinds() {
        assert_eq!(normalize_id("  Polar Bear "), "polar_bear");
        assert!(is_mob("pig") && !is_mob("dragonfly"));
        assert!(is_item("diamond_sword") && is_item("red_wool"));
        assert!(!is_item("air") && !is_item("sword_of_doom"));
    }
}
