//! What breaking a block gives the one who breaks it (what the bot keeps when it mines, chops
//! or harvests): stone gives cobblestone, coal ore gives coal, ripe wheat gives wheat and seeds.
//! Survival's drops, used in creative mode for the jobs that are about gathering.

use crate::world::Block;

/// The items breaking `block` gives; `ripe` says whether a crop was fully grown.
pub fn drops(block: Block, ripe: bool) -> Vec<(&'static str, u32)> {
    let name = block.name();
    // lexicon: Minecraft block and item ids (game knowledge), not words.
    let one = match name {
        "air" | "water" | "lava" | "bedrock" | "glass" | "glass_pane" | "short_grass" | "tall_grass" | "fern" | "dead_bush" | "snow" | "ice" => return Vec::new(),
        "wheat" if ripe => return vec![("wheat", 1), ("wheat_seeds", 1)],
        "wheat" => "wheat_seeds",
        "stone" => "cobblestone",
        "deepslate" => "cobbled_deepslate",
        "grass_block" | "podzol" | "mycelium" | "dirt_path" | "farmland" | "rooted_dirt" => "dirt",
        "coal_ore" | "deepslate_coal_ore" => "coal",
        "iron_ore" | "deepslate_iron_ore" => "raw_iron",
        "gold_ore" | "deepslate_gold_ore" => "raw_gold",
        "copper_ore" => return vec![("raw_copper", 3)],
        "diamond_ore" | "deepslate_diamond_ore" => "diamond",
        "emerald_ore" => "emerald",
        "redstone_ore" => return vec![("redstone", 4)],
        "lapis_ore" => return vec![("lapis_lazuli", 5)],
        _ if name.ends_with("_leaves") => return Vec::new(),
        _ => name,
    };
    vec![(one, 1)]
}

/// Is `block` an ore (something players mine for what it gives)?
pub fn is_ore(block: Block) -> bool {
    block.name().ends_with("_ore")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn b(n: &str) -> Block {
        Block::from_name(n).unwrap()
    }

    #[test]
    fn mining_gives_what_survival_gives() {
        assert_eq!(drops(b("stone"), false), vec![("cobblestone", 1)]);
        assert_eq!(drops(b("deepslate_diamond_ore"), false), vec![("diamond", 1)]);
        assert_eq!(drops(b("oak_log"), false), vec![("oak_log", 1)]);
        assert_eq!(drops(b("oak_leaves"), false), vec![]);
        assert_eq!(drops(b("wheat"), true), vec![("wheat", 1), ("wheat_seeds", 1)]);
        assert_eq!(drops(b("wheat"), false), vec![("wheat_seeds", 1)]);
        assert!(is_ore(b("coal_ore")) && !is_ore(b("stone")));
    }
}
