//! Choosing blocks: what "red", "stone", "wooden" or "oak_planks" mean as a block, and which
//! blocks a shape uses when the player names none.
//!
//! Rules, in order:
//! 1. A material word names a *family* or one block. Families are the dyed ones (wool, concrete,
//!    terracotta, stained glass…) and loose groups (wood planks, logs, stone, bricks, sandstone).
//!    Anything else is one block: a word from the table below, a registry id ("oak_planks",
//!    "minecraft:gold_block"), or a word plus `_planks`/`_block` ("spruce", "emerald").
//! 2. A colour picks within the family: `red` + wool → `red_wool`, `red` + glass →
//!    `red_stained_glass`, `white` + wood → `pale_oak_planks`, `pink` + stone →
//!    `polished_granite`. If nothing in the family has that colour, the family's usual block is
//!    used and the colour is quietly dropped ("blue bricks" are bricks). A single block ignores
//!    the colour for the same reason.
//! 3. A colour alone is wool of that colour (`red` → `red_wool`): every dye colour exists as wool
//!    and wool is what players expect for coloured shapes.
//! 4. A "material" that is no material but a colour ("build a green cube" with `green` read as
//!    the block type, as parsers and annotators sometimes do) is that colour; a colour said as a
//!    colour as well wins ("red green cube" is red).
//! 5. Neither: the shape's own defaults (see [`Defaults`] and each shape file).
//!
//! Words for terrain are mapped to a building block that looks alike, because perception treats
//! natural blocks as scenery (a "stone tower" of raw stone would be invisible to it) and some
//! fall: stone → stone_bricks, sand → sandstone, granite → polished_granite, ice → packed_ice,
//! snow → snow_block, clay → terracotta. An explicit `minecraft:` id is always taken literally.

use super::SchematicError;
use crate::lexicon::lexicon;
use crate::world::Block;
use crate::world::blocks::canonical_colour;

/// A block by registry name; unknown names are interned rather than panicking (all names used
/// here are in the registry, which a test checks).
pub(crate) fn block(name: &str) -> Block {
    Block::from_name(name).unwrap_or_else(|| Block::intern(name))
}

/// How a material word chooses a block, given an optional colour.
#[derive(Clone, Copy, Debug)]
enum Material {
    /// Comes in all 16 dye colours as `{colour}_{family}`; `plain` when no colour is said.
    Dyed { family: &'static str, plain: &'static str },
    /// A loose group: the first member of the asked colour, else the first member.
    Group(&'static [&'static str]),
    /// One block, whatever the colour.
    Exact(Block),
}

// Groups, usual block first: a colour picks the first member of that colour.
#[rustfmt::skip]
const WOOD_PLANKS: &[&str] = &[
    "oak_planks", "spruce_planks", "birch_planks", "jungle_planks", "acacia_planks", "dark_oak_planks",
    "mangrove_planks", "cherry_planks", "pale_oak_planks", "crimson_planks", "warped_planks", "bamboo_planks",
];
#[rustfmt::skip]
const LOGS: &[&str] = &[
    "oak_log", "spruce_log", "birch_log", "jungle_log", "acacia_log", "dark_oak_log", "mangrove_log",
    "cherry_log", "pale_oak_log", "crimson_stem", "warped_stem",
];
#[rustfmt::skip]
const STONES: &[&str] = &[
    "stone_bricks", "cobblestone", "smooth_stone", "polished_andesite", "mossy_stone_bricks",
    "polished_diorite", "polished_granite", "polished_blackstone_bricks", "end_stone_bricks",
    "prismarine_bricks",
];
#[rustfmt::skip]
const BRICKS: &[&str] = &[
    "bricks", "stone_bricks", "mud_bricks", "quartz_bricks", "end_stone_bricks", "prismarine_bricks",
    "polished_blackstone_bricks", "mossy_stone_bricks", "nether_bricks",
];
const SANDSTONES: &[&str] = &["sandstone", "red_sandstone"];

/// Dyed families by their plain block (what the family is when no colour is said).
// lexicon: block ids (game knowledge: which blocks come in every colour), not words.
const DYED: &[(&str, &str)] = &[
    ("stained_glass", "glass"),
    ("wool", "white_wool"),
    ("concrete", "white_concrete"),
    ("concrete_powder", "white_concrete_powder"),
    ("terracotta", "terracotta"),
    ("glazed_terracotta", "white_glazed_terracotta"),
];

/// A material word (the lexicon's `[materials]`: "wooden", "stone", "clay") as the family, group
/// or block its usual block belongs to.
fn material_word(w: &str) -> Option<Material> {
    let usual = lexicon().material(w)?;
    if let Some(group) = [WOOD_PLANKS, LOGS, STONES, BRICKS, SANDSTONES].into_iter().find(|g| g[0] == usual) {
        return Some(Material::Group(group));
    }
    Some(match DYED.iter().find(|(_, plain)| *plain == usual) {
        Some(&(family, plain)) => Material::Dyed { family, plain },
        None => Material::Exact(block(usual)),
    })
}

/// A registry id, honoured only if something can be built of it.
fn registry_block(name: &str, said: &str) -> Option<Result<Material, SchematicError>> {
    let b = Block::from_name(name)?;
    Some(if b.is_air() || !b.is_solid() {
        Err(SchematicError::UnusableMaterial(said.to_string()))
    } else if crate::world::rules::unbreakable(b) {
        Err(SchematicError::PermanentMaterial(said.to_string()))
    } else {
        Ok(Material::Exact(b))
    })
}

fn material(said: &str) -> Result<Material, SchematicError> {
    let lower = said.trim().to_lowercase();
    if let Some(id) = lower.strip_prefix("minecraft:") {
        return registry_block(id, said)
            .unwrap_or_else(|| Err(SchematicError::UnknownMaterial(said.trim().into())));
    }
    let w = lower.split_whitespace().collect::<Vec<_>>().join("_").replace('-', "_");
    // "stone block(s)" is the stone material.
    let bare = w.strip_suffix("_blocks").or_else(|| w.strip_suffix("_block")).filter(|b| !b.is_empty());
    let mut candidates = vec![w.clone()];
    candidates.extend(bare.map(str::to_string));
    for c in &candidates {
        if let Some(m) = material_word(c) {
            return Ok(m);
        }
        if let Some(found) = registry_block(c, said.trim()) {
            return found;
        }
    }
    for c in &candidates {
        let singular = c.strip_suffix('s').unwrap_or(c);
        // "torches", "berries": a plural English does not make with -s alone.
        let english = crate::lexicon::lexicon().singular(c);
        for guess in [format!("{c}s"), singular.to_string(), format!("{singular}_planks"), format!("{singular}_block")].into_iter().chain(english) {
            if let Some(m) = material_word(&guess) {
                return Ok(m);
            }
            if let Some(found) = registry_block(&guess, said.trim()) {
                return found;
            }
        }
    }
    Err(SchematicError::UnknownMaterial(said.trim().to_string()))
}

/// A block that can be placed alone though nothing can be built of it ("a torch"): any block
/// but air.
pub(crate) fn lone_block(said: &str) -> Option<Block> {
    let id = said.trim().to_lowercase().split_whitespace().collect::<Vec<_>>().join("_");
    let id = id.strip_prefix("minecraft:").unwrap_or(&id);
    // "4 torches": each is one torch.
    let block = Block::from_name(id).or_else(|| Block::from_name(&crate::lexicon::lexicon().singular(id)?));
    block.filter(|b| !b.is_air() && !crate::world::rules::unbreakable(*b))
}

/// The block the player's colour and material words choose, or `None` if they said neither.
/// Errors for a colour that is not a colour or a material that is not a block.
pub fn chosen_block(
    colour: Option<&str>,
    material_word: Option<&str>,
) -> Result<Option<Block>, SchematicError> {
    let colour = colour.map(str::trim).filter(|c| !c.is_empty());
    let material_word = material_word.map(str::trim).filter(|m| !m.is_empty());
    // "a gold cube", "an emerald pillar": a word read as a colour that names a block is that
    // block (gold blocks, not yellow wool).
    if material_word.is_none()
        && let Some(c) = colour
        && let Ok(Material::Exact(b)) = material(c)
    {
        return Ok(Some(b));
    }
    let colour = match colour {
        Some(c) => Some(canonical_colour(c).ok_or_else(|| SchematicError::UnknownColour(c.to_string()))?),
        None => None,
    };
    let Some(word) = material_word else {
        return Ok(colour.map(|c| block(&format!("{c}_wool"))));
    };
    let found = match material(word) {
        Ok(found) => found,
        Err(unknown) => match canonical_colour(word) {
            Some(as_colour) => return Ok(Some(block(&format!("{}_wool", colour.unwrap_or(as_colour))))),
            None => return Err(unknown),
        },
    };
    Ok(Some(match (found, colour) {
        (Material::Exact(b), _) => b,
        (Material::Dyed { plain, .. }, None) => block(plain),
        (Material::Dyed { family, .. }, Some(c)) => block(&format!("{c}_{family}")),
        (Material::Group(members), c) => {
            let of_colour = c.and_then(|c| members.iter().map(|m| block(m)).find(|b| b.colour() == Some(c)));
            of_colour.unwrap_or_else(|| block(members[0]))
        }
    }))
}

/// A shape family's blocks when the player names none. `main` is the body; `trim` the accents
/// (corner posts, railings, fence posts); `floor`, `roof` and `window` are for buildings.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Defaults {
    pub main: &'static str,
    pub trim: &'static str,
    pub floor: &'static str,
    pub roof: &'static str,
    pub window: &'static str,
}

impl Defaults {
    /// One block for everything (geometric shapes).
    pub(crate) const fn plain(main: &'static str) -> Defaults {
        Defaults { main, trim: main, floor: main, roof: main, window: "glass" }
    }

    /// The blocks a player's colour or material leaves as they are (a house's floor, roof and
    /// windows: see [`Palette::new`]); none for a shape of one block.
    pub(crate) fn fixed(&self) -> Vec<Block> {
        if self.floor == self.main && self.roof == self.main {
            return Vec::new();
        }
        let mut kept: Vec<Block> = [self.floor, self.roof, self.window].into_iter().filter(|b| ![self.main, self.trim].contains(b)).map(block).collect();
        kept.dedup();
        kept
    }
}

/// The blocks one schematic is drawn with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Palette {
    pub main: Block,
    pub trim: Block,
    pub floor: Block,
    pub roof: Block,
    pub window: Block,
}

impl Palette {
    /// The family's defaults, with the player's block (if any) as both body and trim: "a stone
    /// house" gets stone walls and corners but keeps its floor, roof and glass windows, which
    /// are what make it read as a house.
    pub(crate) fn new(defaults: Defaults, chosen: Option<Block>) -> Palette {
        Palette {
            main: chosen.unwrap_or_else(|| block(defaults.main)),
            trim: chosen.unwrap_or_else(|| block(defaults.trim)),
            floor: block(defaults.floor),
            roof: block(defaults.roof),
            window: block(defaults.window),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pick(colour: Option<&str>, material: Option<&str>) -> String {
        chosen_block(colour, material).unwrap().map_or("-".to_string(), |b| b.name().to_string())
    }

    #[test]
    fn colours_alone_are_wool() {
        assert_eq!(pick(Some("red"), None), "red_wool");
        assert_eq!(pick(Some("Light Blue"), None), "light_blue_wool");
        assert_eq!(pick(Some("grey"), None), "gray_wool");
        assert_eq!(pick(None, None), "-");
    }

    #[test]
    fn a_colour_read_as_the_material_is_the_colour() {
        assert_eq!(pick(None, Some("green")), "green_wool");
        assert_eq!(pick(None, Some("Light Blue")), "light_blue_wool");
        assert_eq!(pick(Some("red"), Some("green")), "red_wool");
        // Materials that are also colour words stay materials.
        assert_eq!(pick(None, Some("gold")), "gold_block");
    }

    #[test]
    fn colour_with_dyed_material() {
        assert_eq!(pick(Some("red"), Some("concrete")), "red_concrete");
        assert_eq!(pick(Some("red"), Some("glass")), "red_stained_glass");
        assert_eq!(pick(Some("red"), Some("terracotta")), "red_terracotta");
        assert_eq!(pick(None, Some("glass")), "glass");
        assert_eq!(pick(None, Some("wool")), "white_wool");
        assert_eq!(pick(None, Some("clay")), "terracotta");
    }

    #[test]
    fn colour_within_groups_or_dropped() {
        assert_eq!(pick(Some("white"), Some("wood")), "pale_oak_planks");
        assert_eq!(pick(Some("pink"), Some("stone")), "polished_granite");
        assert_eq!(pick(Some("red"), Some("bricks")), "bricks");
        assert_eq!(pick(Some("blue"), Some("bricks")), "bricks");
        assert_eq!(pick(Some("blue"), Some("stone")), "stone_bricks");
        assert_eq!(pick(Some("blue"), Some("gold")), "gold_block");
        assert_eq!(pick(Some("green"), Some("oak_planks")), "oak_planks");
    }

    #[test]
    fn material_words_and_ids() {
        for (word, expected) in [
            ("wood", "oak_planks"),
            ("wooden", "oak_planks"),
            ("stone", "stone_bricks"),
            ("Stone Blocks", "stone_bricks"),
            ("cobblestone", "cobblestone"),
            ("brick", "bricks"),
            ("bricks", "bricks"),
            ("gold", "gold_block"),
            ("diamond", "diamond_block"),
            ("oak", "oak_planks"),
            ("spruce", "spruce_planks"),
            ("sand", "sand"),
            ("sandstone", "sandstone"),
            ("oak_planks", "oak_planks"),
            ("minecraft:stone", "stone"),
            ("emerald", "emerald_block"),
            ("hay", "hay_block"),
            ("nether brick", "nether_bricks"),
            ("quartz", "quartz_block"),
            ("dirt", "dirt"),
        ] {
            assert_eq!(pick(None, Some(word)), expected, "{word}");
        }
    }

    #[test]
    fn bad_words() {
        assert_eq!(
            chosen_block(None, Some("unobtainium")),
            Err(SchematicError::UnknownMaterial("unobtainium".into()))
        );
        assert_eq!(
            chosen_block(None, Some("minecraft:nope")),
            Err(SchematicError::UnknownMaterial("minecraft:nope".into()))
        );
        assert_eq!(chosen_block(None, Some("water")), Err(SchematicError::UnusableMaterial("water".into())));
        assert_eq!(chosen_block(None, Some("air")), Err(SchematicError::UnusableMaterial("air".into())));
        assert_eq!(chosen_block(Some("sparkly"), None), Err(SchematicError::UnknownColour("sparkly".into())));
        assert_eq!(chosen_block(Some(" "), Some("")), Ok(None));
    }

    #[test]
    fn player_block_is_body_and_trim_only() {
        let house = Defaults {
            main: "oak_planks",
            trim: "oak_log",
            floor: "cobblestone",
            roof: "spruce_planks",
            window: "glass",
        };
        let p = Palette::new(house, Some(block("bricks")));
        assert_eq!(
            (p.main.name(), p.trim.name(), p.floor.name(), p.roof.name()),
            ("bricks", "bricks", "cobblestone", "spruce_planks")
        );
        let p = Palette::new(house, None);
        assert_eq!((p.main.name(), p.trim.name(), p.window.name()), ("oak_planks", "oak_log", "glass"));
    }
}
