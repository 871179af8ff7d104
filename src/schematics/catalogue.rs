//! Shape words: which words a player may use for which shape family.
//!
//! Players say "cubes", "a ball", "some steps", "a stone tower": the catalogue turns such a word
//! into one [`ShapeKind`], tolerating plurals, extra words around the shape word, and "hollow" or
//! "solid" folded into the name. Everything else in the module works on the kind, so adding a
//! synonym is one line here.

use super::SchematicError;

/// A shape family: one generator each.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum ShapeKind {
    Cuboid,
    Square,
    Rectangle,
    Floor,
    Wall,
    Line,
    Sphere,
    Dome,
    Ellipsoid,
    Pyramid,
    Tower,
    Pillar,
    Arch,
    Disk,
    Ring,
    Cylinder,
    Triangle,
    Stairs,
    House,
    Hut,
    Bridge,
    Fence,
}

use ShapeKind::*;

/// Every accepted word, singular. The first word listed for a kind is its name in
/// [`known_shapes`].
const WORDS: &[(&str, ShapeKind)] = &[
    ("cube", Cuboid),
    ("cuboid", Cuboid),
    ("box", Cuboid),
    ("block", Cuboid),
    ("crate", Cuboid),
    ("square", Square),
    ("rectangle", Rectangle),
    ("floor", Floor),
    ("platform", Floor),
    ("pad", Floor),
    ("wall", Wall),
    ("line", Line),
    ("row", Line),
    ("sphere", Sphere),
    ("ball", Sphere),
    ("orb", Sphere),
    ("globe", Sphere),
    ("dome", Dome),
    ("hemisphere", Dome),
    ("ellipsoid", Ellipsoid),
    ("egg", Ellipsoid),
    ("spheroid", Ellipsoid),
    ("pyramid", Pyramid),
    ("tower", Tower),
    ("turret", Tower),
    ("pillar", Pillar),
    ("column", Pillar),
    ("post", Pillar),
    ("pole", Pillar),
    ("arch", Arch),
    ("archway", Arch),
    ("circle", Disk),
    ("disk", Disk),
    ("disc", Disk),
    ("ring", Ring),
    ("hoop", Ring),
    ("cylinder", Cylinder),
    ("triangle", Triangle),
    ("stairs", Stairs),
    ("staircase", Stairs),
    ("stairway", Stairs),
    ("steps", Stairs),
    ("stair", Stairs),
    ("step", Stairs),
    ("house", House),
    ("home", House),
    ("cottage", House),
    ("hut", Hut),
    ("shack", Hut),
    ("cabin", Hut),
    ("shed", Hut),
    ("bridge", Bridge),
    ("fence", Fence),
    ("pen", Fence),
    ("enclosure", Fence),
];

impl ShapeKind {
    /// Whether the shape is a shell unless the player says "solid". Domes and towers are
    /// hollow by nature (a solid tower is a pillar); a ring is a hollow disk by definition.
    pub(crate) fn hollow_by_default(self) -> bool {
        matches!(self, Dome | Tower | Ring)
    }
}

/// A shape word understood: the family, the singular word as the player meant it (used to name
/// the schematic), and "hollow"/"solid" if that was part of the name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Resolved {
    pub kind: ShapeKind,
    pub word: &'static str,
    pub hollow_hint: Option<bool>,
}

fn lookup(word: &str) -> Option<(&'static str, ShapeKind)> {
    WORDS.iter().find(|(w, _)| *w == word).copied()
}

/// The word itself, else the word without a plural ending ("boxes" → "box", "cubes" → "cube").
fn lookup_singular(word: &str) -> Option<(&'static str, ShapeKind)> {
    lookup(word)
        .or_else(|| word.strip_suffix("es").and_then(lookup))
        .or_else(|| word.strip_suffix('s').and_then(lookup))
}

/// Reads a shape name: "cube", "Cubes", "hollow sphere", "stone tower", "stair-case" all work;
/// the last word that names a shape wins ("a house bridge" is a bridge).
pub(crate) fn resolve(name: &str) -> Result<Resolved, SchematicError> {
    let text = name.trim().to_lowercase().replace(['_', '-'], " ");
    let words: Vec<&str> = text.split_whitespace().collect();
    let hollow_hint = words.iter().rev().find_map(|w| match *w {
        "hollow" | "empty" => Some(true),
        "solid" | "filled" | "full" => Some(false),
        _ => None,
    });
    let joined = words.concat();
    let found = lookup_singular(&joined).or_else(|| words.iter().rev().find_map(|w| lookup_singular(w)));
    match found {
        Some((word, kind)) => Ok(Resolved { kind, word, hollow_hint }),
        None => Err(SchematicError::UnknownShape(name.trim().to_string())),
    }
}

/// One name per shape family, for answering "what can you build?".
pub fn known_shapes() -> Vec<&'static str> {
    let mut seen = Vec::new();
    let mut names = Vec::new();
    for &(word, kind) in WORDS {
        if !seen.contains(&kind) {
            seen.push(kind);
            names.push(word);
        }
    }
    names
}

/// Every singular shape word accepted, synonyms included (plurals of these are accepted too).
pub fn shape_words() -> Vec<&'static str> {
    WORDS.iter().map(|(w, _)| *w).collect()
}

/// Whether `word` (singular or plural, any case) names a shape the bot can build.
pub fn is_known_shape(word: &str) -> bool {
    resolve(word).is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plurals_synonyms_and_extra_words() {
        let kind = |w: &str| resolve(w).map(|r| r.kind);
        assert_eq!(kind("cubes"), Ok(Cuboid));
        assert_eq!(kind("Boxes"), Ok(Cuboid));
        assert_eq!(kind("ball"), Ok(Sphere));
        assert_eq!(kind("arches"), Ok(Arch));
        assert_eq!(kind("houses"), Ok(House));
        assert_eq!(kind("steps"), Ok(Stairs));
        assert_eq!(kind("stair-case"), Ok(Stairs));
        assert_eq!(kind("stone tower"), Ok(Tower));
        assert_eq!(resolve("cubes").unwrap().word, "cube");
    }

    #[test]
    fn hollow_or_solid_in_the_name() {
        assert_eq!(resolve("hollow cube").unwrap().hollow_hint, Some(true));
        assert_eq!(resolve("solid dome").unwrap().hollow_hint, Some(false));
        assert_eq!(resolve("cube").unwrap().hollow_hint, None);
    }

    #[test]
    fn not_shapes() {
        for w in ["hole", "zigurat", "", "   ", "the", "ss"] {
            assert!(!is_known_shape(w), "{w}");
        }
        assert_eq!(resolve(" zigurat ").unwrap_err(), SchematicError::UnknownShape("zigurat".into()));
    }

    #[test]
    fn every_family_has_a_listed_name() {
        let names = known_shapes();
        assert_eq!(names.len(), 22);
        assert!(names.contains(&"cube") && names.contains(&"house") && !names.contains(&"ball"));
        assert!(names.iter().all(|n| is_known_shape(n)));
    }
}
