//! Shape words: which words a player may use for which shape family.
//!
//! Players say "cubes", "a ball", "some steps", "a stone tower": the catalogue turns such a word
//! into one [`ShapeKind`], tolerating plurals, extra words around the shape word, and "hollow" or
//! "solid" folded into the name. Everything else in the module works on the kind. The words are
//! the lexicon's `[shapes]` (the first word of a family is its name), so adding a synonym is one
//! word in `data/lexicon.toml`.

use super::SchematicError;
use crate::lexicon::{Class, Group, lexicon};

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

impl ShapeKind {
    const ALL: [ShapeKind; 22] = [
        Cuboid, Square, Rectangle, Floor, Wall, Line, Sphere, Dome, Ellipsoid, Pyramid, Tower, Pillar, Arch, Disk,
        Ring, Cylinder, Triangle, Stairs, House, Hut, Bridge, Fence,
    ];

    /// The family's key in the lexicon's `[shapes]`, where its words are.
    fn key(self) -> &'static str {
        match self {
            Cuboid => "cuboid",
            Square => "square",
            Rectangle => "rectangle",
            Floor => "floor",
            Wall => "wall",
            Line => "line",
            Sphere => "sphere",
            Dome => "dome",
            Ellipsoid => "ellipsoid",
            Pyramid => "pyramid",
            Tower => "tower",
            Pillar => "pillar",
            Arch => "arch",
            Disk => "disk",
            Ring => "ring",
            Cylinder => "cylinder",
            Triangle => "triangle",
            Stairs => "stairs",
            House => "house",
            Hut => "hut",
            Bridge => "bridge",
            Fence => "fence",
        }
    }

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

/// A singular shape word (the lexicon's `[shapes]`) as the word as listed and its family.
fn lookup(word: &str) -> Option<(&'static str, ShapeKind)> {
    let key = lexicon().shape(word)?;
    let kind = ShapeKind::ALL.into_iter().find(|k| k.key() == key)?;
    let listed = lexicon().words_for(Group::Shape, key).iter().find(|w| *w == word)?;
    Some((listed.as_str(), kind))
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
    let hollow_hint = words.iter().rev().find_map(|w| {
        if lexicon().is(Class::Hollow, w) { Some(true) } else { lexicon().is(Class::Solid, w).then_some(false) }
    });
    let joined = words.concat();
    let found = lookup_singular(&joined).or_else(|| words.iter().rev().find_map(|w| lookup_singular(w)));
    // "can you build a": only small words where the thing should be — nothing was named.
    let named = words.iter().any(|w| !lexicon().is(Class::Determiner, w) && !lexicon().is(Class::Article, w));
    match found {
        Some((word, kind)) => Ok(Resolved { kind, word, hollow_hint }),
        None if !named => Err(SchematicError::NoShape),
        None => Err(SchematicError::UnknownShape(name.trim().to_string())),
    }
}

/// Is `name` a wall ("wall", "walls")? A wall "around" a thing goes round it.
pub fn is_wall(name: &str) -> bool {
    resolve(name).is_ok_and(|r| r.kind == Wall)
}

/// One name per shape family (the first of its words), for answering "what can you build?".
pub fn known_shapes() -> Vec<&'static str> {
    ShapeKind::ALL
        .into_iter()
        .filter_map(|k| lexicon().words_for(Group::Shape, k.key()).first().map(String::as_str))
        .collect()
}

/// Every singular shape word accepted, synonyms included (plurals of these are accepted too).
pub fn shape_words() -> Vec<&'static str> {
    lexicon().meanings(Group::Shape).flat_map(|(_, words)| words.iter().map(String::as_str)).collect()
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
        assert_eq!(resolve("a").unwrap_err(), SchematicError::NoShape, "a line cut off after its article");
    }

    #[test]
    fn every_family_is_in_the_lexicon_and_nothing_else() {
        for (key, _) in lexicon().meanings(Group::Shape) {
            assert!(ShapeKind::ALL.iter().any(|k| k.key() == key), "[shapes] {key} is no shape family");
        }
        assert!(ShapeKind::ALL.iter().all(|k| !lexicon().words_for(Group::Shape, k.key()).is_empty()));
    }

    #[test]
    fn every_family_has_a_listed_name() {
        let names = known_shapes();
        assert_eq!(names.len(), 22);
        assert!(names.contains(&"cube") && names.contains(&"house") && !names.contains(&"ball"));
        assert!(names.iter().all(|n| is_known_shape(n)));
    }
}
