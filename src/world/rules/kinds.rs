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
    "wheat_seeds", "raw_iron", "raw_gold", "raw_copper", "copper_ingot", "redstone", "lapis_lazuli",
    "golden_pickaxe", "stone_pickaxe", "netherite_pickaxe", "golden_axe", "stone_axe", "wooden_axe",
    "wooden_shovel", "stone_shovel", "iron_hoe", "diamond_hoe", "wooden_hoe", "stone_hoe", "oak_sapling",
    "baked_potato", "cooked_chicken", "pumpkin_pie", "melon_slice", "charcoal", "flint", "leather",
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

/// A mob id from words: "pigs" → pig, "a horse" → horse, "cows" → cow, "a snow golem" →
/// snow_golem (the longest run of words at the end that names one).
pub fn mob_kind<S: AsRef<str>>(words: &[S]) -> Option<String> {
    use crate::lexicon::{Group, lexicon};
    let lx = lexicon();
    let words: Vec<&str> = words.iter().map(AsRef::as_ref).collect();
    (0..words.len()).find_map(|from| {
        let joined = words[from..].join("_");
        // "wolves" → wolf; "piggy" → pig (the lexicon's words for the same thing).
        let single = lx.lemma(&joined);
        let same = lx.meaning(Group::NameKey, &single).map(str::to_string);
        [joined, single].into_iter().chain(same).find(|c| MOB_KINDS.contains(&c.as_str()))
    })
}

/// An item id from a player's words: "sword" → diamond_sword, "some bread" → bread, "red
/// wool" → red_wool, "some torches" → torch, "cobble" → cobblestone, "a block of gold" →
/// gold_block. Counts and small words around the item are left out (the lexicon's).
pub fn item_id<S: AsRef<str>>(words: &[S]) -> Option<String> {
    use crate::lexicon::{Class, Values, lexicon};
    let lx = lexicon();
    let small = |w: &str| {
        [Class::QuantityWord, Class::Me, Class::Politeness, Class::Article, Class::AllWords, Class::ItemAdjective, Class::Pointing, Class::Possessive].into_iter().any(|c| lx.is(c, w))
            || lx.value(Values::Quantity, w).is_some()
            || lx.number(&[w], 0).is_some()
    };
    // A count is skipped whole, its own "and" with it ("a stack and a half of sand").
    let mut kept: Vec<&str> = Vec::new();
    let mut i = 0;
    while i < words.len() {
        match lx.number(words, i) {
            Some((_, n)) => i += n,
            None => {
                kept.extend(Some(words[i].as_ref()).filter(|w| !small(w)));
                i += 1;
            }
        }
    }
    // "a block of gold", "gold block": the block of that material.
    // lexicon: "block" is how Minecraft names these blocks (gold_block), not a chat word.
    let of_block = words.iter().any(|w| matches!(w.as_ref(), "block" | "blocks"));
    // The words as they are first ("stone", "oak logs"), then as the materials they name
    // ("cobble" → cobblestone); each also without a plural ending.
    let joined = kept.join("_");
    let as_material = kept.iter().map(|w| lx.material(w).unwrap_or(w)).collect::<Vec<_>>().join("_");
    let candidates: Vec<String> = [joined, as_material]
        .into_iter()
        .flat_map(|j| {
            let singular = [j.strip_suffix("es").map(String::from), j.strip_suffix('s').map(String::from)];
            std::iter::once(j.clone()).chain(singular.into_iter().flatten()).collect::<Vec<_>>()
        })
        .collect();
    if of_block && let Some(b) = candidates.iter().map(|c| format!("{c}_block")).find(|c| Block::from_name(c).is_some()) {
        return Some(b);
    }
    for c in candidates {
        if ITEM_KINDS.contains(&c.as_str()) || Block::from_name(&c).is_some_and(|b| !b.is_air()) {
            return Some(c);
        }
        // "5 iron", "some gold": the ingots, as players mean them.
        let ingot = format!("{c}_ingot");
        if ITEM_KINDS.contains(&ingot.as_str()) {
            return Some(ingot);
        }
        // "diamond" → diamond_sword at most; a mob's name is never its meat ("chicken" is no
        // cooked_chicken: "give me 5 chickens" asks for the animals).
        let suffix = format!("_{c}");
        if MOB_KINDS.contains(&c.as_str()) {
            continue;
        }
        if let Some(best) = ITEM_KINDS.iter().find(|i| i.starts_with("diamond") && i.ends_with(&suffix)).or_else(|| ITEM_KINDS.iter().find(|i| i.ends_with(&suffix))) {
            return Some(best.to_string());
        }
    }
    None
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

    #[test]
    fn items_and_mobs_are_named_in_players_words() {
        let id = |s: &str| item_id(&s.split(' ').collect::<Vec<_>>());
        assert_eq!(id("some torches").as_deref(), Some("torch"));
        assert_eq!(id("10 oak logs").as_deref(), Some("oak_log"));
        assert_eq!(id("2 stacks of stone").as_deref(), Some("stone"));
        assert_eq!(id("half a stack of cobble").as_deref(), Some("cobblestone"));
        assert_eq!(id("one block of gold").as_deref(), Some("gold_block"));
        assert_eq!(id("a sword").as_deref(), Some("diamond_sword"));
        assert_eq!(id("5 iron").as_deref(), Some("iron_ingot"));
        assert_eq!(id("some raw iron").as_deref(), Some("raw_iron"));
        assert_eq!(id("a hug"), None);
        // A mob's name is the mob, never its meat.
        assert_eq!(id("5 chickens"), None);
        assert_eq!(id("5 cooked chicken").as_deref(), Some("cooked_chicken"));
        assert_eq!(mob_kind(&["3", "slimes"]).as_deref(), Some("slime"));
        assert_eq!(mob_kind(&["a", "snow", "golem"]).as_deref(), Some("snow_golem"));
        assert_eq!(mob_kind(&["a", "tower"]), None);
        assert_eq!(mob_kind(&["two", "wolves"]).as_deref(), Some("wolf"));
        assert_eq!(mob_kind(&["a", "piggy"]).as_deref(), Some("pig"));
    }
}
