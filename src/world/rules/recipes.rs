//! The few crafting recipes players ask a companion for: bread from wheat, planks from logs,
//! stairs and sticks from planks, torches, a crafting table. Crafting in creative mode needs
//! nothing, but a bot that harvested wheat should bake with it: the recipes say what is used up.

/// One way of making an item: `makes` of `output` from `needs`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Recipe {
    pub output: String,
    pub makes: u32,
    pub needs: Vec<(String, u32)>,
}

fn recipe(output: &str, makes: u32, needs: &[(&str, u32)]) -> Recipe {
    Recipe { output: output.to_string(), makes, needs: needs.iter().map(|(i, n)| (i.to_string(), *n)).collect() }
}

/// The ways of making `item`, the usual one first; none when it is not made by crafting.
pub fn recipes(item: &str) -> Vec<Recipe> {
    // lexicon: Minecraft item ids and recipe amounts (game knowledge), not words.
    if let Some(wood) = item.strip_suffix("_planks") {
        let logs = [format!("{wood}_log"), format!("stripped_{wood}_log"), format!("{wood}_wood"), format!("stripped_{wood}_wood")];
        return logs.iter().map(|l| recipe(item, 4, &[(l, 1)])).collect();
    }
    if let Some(wood) = item.strip_suffix("_stairs") {
        return vec![recipe(item, 4, &[(&format!("{wood}_planks"), 6)])];
    }
    // lexicon: Minecraft item ids and recipe amounts (game knowledge), not words.
    match item {
        "bread" => vec![recipe(item, 1, &[("wheat", 3)])],
        "stick" => vec![recipe(item, 4, &[("oak_planks", 2)])],
        "torch" => vec![recipe(item, 4, &[("coal", 1), ("stick", 1)])],
        "crafting_table" => vec![recipe(item, 1, &[("oak_planks", 4)])],
        "hay_block" => vec![recipe(item, 1, &[("wheat", 9)])],
        "chest" => vec![recipe(item, 1, &[("oak_planks", 8)])],
        _ => Vec::new(),
    }
}

/// The craftable item players' words name: "bread", "oak stairs"; "stairs" and "planks" alone
/// are oak's (the usual wood).
pub fn craftable<S: AsRef<str>>(words: &[S]) -> Option<String> {
    if let Some(id) = super::item_id(words).filter(|id| !recipes(id).is_empty()) {
        return Some(id);
    }
    let last = words.last()?.as_ref();
    // lexicon: Minecraft item ids (game knowledge): the usual wood.
    let id = match last.trim_end_matches('s') {
        "stair" => "oak_stairs",
        "plank" => "oak_planks",
        "stick" => "stick",
        "torch" | "torche" => "torch",
        _ => return None,
    };
    Some(id.to_string())
}

/// The wood of an item id ("stripped_cherry_log" → cherry), if it is made of one.
pub fn wood_of(id: &str) -> Option<&str> {
    let id = id.strip_prefix("stripped_").unwrap_or(id);
    // lexicon: Minecraft item id endings (game knowledge), not words.
    ["_log", "_wood", "_planks", "_stairs"].iter().find_map(|s| id.strip_suffix(s))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bread_stairs_and_planks_have_recipes_and_stone_has_none() {
        assert_eq!(recipes("bread")[0].needs, vec![("wheat".to_string(), 3)]);
        let planks = recipes("oak_planks");
        assert!(planks.iter().any(|r| r.needs[0].0 == "stripped_oak_log"), "{planks:?}");
        assert_eq!(recipes("oak_stairs")[0].needs, vec![("oak_planks".to_string(), 6)]);
        assert!(recipes("stone").is_empty());
        assert_eq!(craftable(&["stairs"]).as_deref(), Some("oak_stairs"));
        assert_eq!(craftable(&["3", "bread"]).as_deref(), Some("bread"));
        assert_eq!(wood_of("stripped_cherry_log"), Some("cherry"));
    }
}
