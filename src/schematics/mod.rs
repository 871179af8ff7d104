//! Schematics: the shapes and small buildings craftmate can build on request ("a big red
//! sphere", "a 5 by 3 stone wall", "a house").
//!
//! The interpreter reads a command into a [`ShapeRequest`]; [`generate`] turns it into a
//! [`Schematic`], a list of blocks relative to the structure's own corner, which the build task
//! then places in [`Schematic::build_order`] at a spot of its choosing
//! ([`Schematic::translated`]). Nothing here touches the world, so every shape is tested offline.
//!
//! Layout of the module: `request` (what was asked, and reading numbers out of a phrase),
//! `numbers` (the lexicon's number reader, by its old name), `catalogue` (shape words to shape
//! families), `sizes` (size words to dimensions), `materials` (colours and materials to blocks),
//! `shapes/` (one generator per family), `order` (placing order), `limits` and `error`. The words
//! themselves are the lexicon's (`data/lexicon.toml`).
//!
//! Conventions: x east, y up, z south. A schematic's minimum corner is (0,0,0) and y = 0 is the
//! layer that stands on the ground. Buildings face north: doors are on the z = 0 side, which is
//! the side facing a player who looks south (yaw 0) at the build site; [`Schematic::rotated`]
//! turns them to face elsewhere.

mod catalogue;
mod error;
mod limits;
mod materials;
pub mod numbers;
mod order;
mod request;
mod shapes;
mod sizes;

pub use catalogue::{is_known_shape, is_wall, known_shapes, shape_words};
pub use error::SchematicError;
pub use limits::{DEFAULT_MAX_BLOCKS, Limits};
pub use materials::{Palette, chosen_block};
pub use request::{Dimensions, ShapeRequest};
pub use sizes::{DEFAULT_SCALE, is_size_word};

use crate::world::{BBox, Block, Pos};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;

/// No shape may span more than this many blocks along any axis, whatever the block limit: keeps
/// every coordinate and product far from overflow even with a very generous [`Limits`].
pub const MAX_EXTENT: i64 = 100_000;

/// A structure to build: blocks at offsets from its minimum corner.
///
/// Invariants (kept by [`Schematic::new`]): the minimum corner of the blocks is (0,0,0), no
/// position appears twice, there is no air, and blocks are sorted by y, then z, then x.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Schematic {
    /// What it is, in the player's word ("ball", "house").
    pub name: String,
    pub blocks: Vec<(Pos, Block)>,
}

impl Schematic {
    /// A schematic from blocks anywhere: air is dropped, a repeated position keeps its last
    /// block, and everything is shifted so the minimum corner is (0,0,0).
    pub fn new(name: impl Into<String>, blocks: impl IntoIterator<Item = (Pos, Block)>) -> Schematic {
        let mut unique: HashMap<Pos, Block> = HashMap::new();
        for (p, b) in blocks {
            if b.is_air() {
                unique.remove(&p);
            } else {
                unique.insert(p, b);
            }
        }
        let min = unique.keys().fold(None, |m: Option<Pos>, p| {
            Some(m.map_or(*p, |m| Pos::new(m.x.min(p.x), m.y.min(p.y), m.z.min(p.z))))
        });
        let offset = min.unwrap_or_default();
        let shift = |p: Pos| {
            Pos::new(p.x.saturating_sub(offset.x), p.y.saturating_sub(offset.y), p.z.saturating_sub(offset.z))
        };
        let mut blocks: Vec<(Pos, Block)> = unique.into_iter().map(|(p, b)| (shift(p), b)).collect();
        blocks.sort_by_key(|(p, _)| (p.y, p.z, p.x));
        Schematic { name: name.into(), blocks }
    }

    /// The box the blocks occupy; a single block at the origin for an empty schematic.
    pub fn bbox(&self) -> BBox {
        let mut it = self.blocks.iter().map(|(p, _)| *p);
        let Some(first) = it.next() else { return BBox::new(Pos::default(), Pos::default()) };
        it.fold(BBox::new(first, first), |b, p| b.union(&BBox::new(p, p)))
    }

    /// Number of blocks.
    pub fn len(&self) -> usize {
        self.blocks.len()
    }

    pub fn is_empty(&self) -> bool {
        self.blocks.is_empty()
    }

    /// Extent along x, y, z in blocks ([0, 0, 0] when empty).
    pub fn size(&self) -> [i32; 3] {
        if self.is_empty() { [0; 3] } else { self.bbox().size() }
    }

    /// The blocks in the order to place them: bottom layer first, and within a layer spreading
    /// from blocks already supported, so each block comes after the block it rests on and, where
    /// the shape allows, touches one placed before it.
    pub fn build_order(&self) -> Vec<(Pos, Block)> {
        order::build_order(&self.blocks)
    }

    /// The blocks moved to world positions with the schematic's corner at `origin`, in build
    /// order.
    pub fn translated(&self, origin: Pos) -> Vec<(Pos, Block)> {
        let add = |p: Pos| {
            Pos::new(p.x.saturating_add(origin.x), p.y.saturating_add(origin.y), p.z.saturating_add(origin.z))
        };
        self.build_order().into_iter().map(|(p, b)| (add(p), b)).collect()
    }

    /// The same structure turned clockwise (seen from above) by `quarter_turns` × 90°, with its
    /// corner back at the origin. One turn makes a north-facing door face east.
    pub fn rotated(&self, quarter_turns: i32) -> Schematic {
        let turn = |p: Pos| match quarter_turns.rem_euclid(4) {
            1 => Pos::new(p.z.saturating_neg(), p.y, p.x),
            2 => Pos::new(p.x.saturating_neg(), p.y, p.z.saturating_neg()),
            3 => Pos::new(p.z, p.y, p.x.saturating_neg()),
            _ => p,
        };
        Schematic::new(self.name.clone(), self.blocks.iter().map(|&(p, b)| (turn(p), b)))
    }

    /// How many of each block it takes, most used first.
    pub fn block_counts(&self) -> Vec<(Block, usize)> {
        let mut counts: HashMap<Block, usize> = HashMap::new();
        for (_, b) in &self.blocks {
            *counts.entry(*b).or_default() += 1;
        }
        let mut counts: Vec<(Block, usize)> = counts.into_iter().collect();
        counts.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.name().cmp(b.0.name())));
        counts
    }
}

/// "red and white", "black & yellow": two colours, built in stripes; one colour otherwise.
fn two_colours(colour: Option<&str>) -> (Option<&str>, Option<&str>) {
    let Some(c) = colour else { return (None, None) };
    for glue in [" and ", " & ", ", ", " n "] {
        if let Some((a, b)) = c.split_once(glue)
            && crate::world::blocks::canonical_colour(a.trim()).is_some()
            && crate::world::blocks::canonical_colour(b.trim()).is_some()
        {
            return (Some(a.trim()), Some(b.trim()));
        }
    }
    (Some(c), None)
}

/// "a gold block", "3 diamond blocks": one block each, when no size was said (the lexicon's
/// `[one_block]`, singular or plural); "a big block" or "a block of 3" is a cube like any other.
fn one_block(req: &ShapeRequest) -> Option<ShapeRequest> {
    let said_size = req.size.or(req.radius).or(req.width).or(req.height).or(req.length).or(req.depth).is_some();
    let block = catalogue::resolve(&req.name).is_ok_and(|r| crate::lexicon::lexicon().is(crate::lexicon::Class::OneBlock, r.word));
    (block && !said_size && req.size_words.is_empty() && req.hollow.is_none()).then(|| ShapeRequest { size: Some(1), ..req.clone() })
}

/// Is `word` a block that stands alone but holds no shape up ("torch", "lantern")? Said
/// without a shape, one of it is meant.
pub fn is_lone_block(word: &str) -> bool {
    materials::lone_block(word).is_some_and(|b| !b.is_solid())
}

/// The blocks a shape called `name` keeps whatever colour it is built or painted in (a house's
/// floor, roof and windows); none for a shape of one block or a name that is no shape.
pub fn kept_when_coloured(name: &str) -> Vec<Block> {
    catalogue::resolve(name).map(|s| shapes::defaults(s.kind).fixed()).unwrap_or_default()
}

/// Does a shape called `name` run its length along x, across the view of whom it faces (a
/// bridge: its deck; other shapes have their width there)?
pub fn length_runs_across(name: &str) -> bool {
    catalogue::resolve(name).is_ok_and(|s| s.kind == catalogue::ShapeKind::Bridge)
}

/// Generates the shape a player asked for.
///
/// Checks, in order: the shape word ([`SchematicError::UnknownShape`]), colour and material
/// ([`SchematicError::UnknownColour`], [`SchematicError::UnknownMaterial`],
/// [`SchematicError::UnusableMaterial`]), the numbers ([`SchematicError::BadSize`]), then the
/// estimated block count against `limits` ([`SchematicError::TooLarge`]), all before a single
/// block is generated; generation itself also stops at the limit.
pub fn generate(req: &ShapeRequest, limits: &Limits) -> Result<Schematic, SchematicError> {
    let one = one_block(req);
    let req = one.as_ref().unwrap_or(req);
    let shape = catalogue::resolve(&req.name)?;
    let (colour, stripe_colour) = two_colours(req.colour.as_deref());
    let chosen = match materials::chosen_block(colour, req.block_type.as_deref()) {
        // One block of something that holds no shape up (a torch, a lantern) stands on its own.
        Err(SchematicError::UnusableMaterial(said)) if one.is_some() => Some(materials::lone_block(&said).ok_or(SchematicError::UnusableMaterial(said))?),
        chosen => chosen?,
    };
    let stripe = match stripe_colour {
        Some(c) => materials::chosen_block(Some(c), req.block_type.as_deref())?,
        None => None,
    };
    let palette = Palette::new(shapes::defaults(shape.kind), chosen);
    let sizing = sizes::Sizing::new(req)?;
    let hollow = req.hollow.or(shape.hollow_hint).unwrap_or(shape.kind.hollow_by_default());
    let plan = shapes::plan(shape.kind, &sizing, hollow)?;

    let limit = limits.max_blocks;
    let estimate = plan.estimate();
    if estimate > limit as u64 {
        return Err(SchematicError::TooLarge { blocks: estimate, limit });
    }
    if let Some(extent) = plan.extents().into_iter().find(|e| *e > MAX_EXTENT) {
        return Err(SchematicError::BadSize(format!(
            "that would be {extent} blocks across; I can't build anything over {MAX_EXTENT}"
        )));
    }

    let mut canvas = shapes::Canvas::new(limit);
    plan.draw(&mut canvas, &palette);
    if canvas.overflowed() {
        let blocks = estimate.max((limit as u64).saturating_add(1));
        return Err(SchematicError::TooLarge { blocks, limit });
    }
    let mut blocks = canvas.into_blocks();
    // "a red and white tower": the main block in layers, every other one the second colour.
    if let (Some(main), Some(stripe)) = (chosen, stripe) {
        for (p, b) in &mut blocks {
            if *b == main && p.y.rem_euclid(2) == 1 {
                *b = stripe;
            }
        }
    }
    let schematic = Schematic::new(shape.word, blocks);
    if schematic.is_empty() {
        return Err(SchematicError::BadSize(format!("a {} that size comes out as nothing", shape.word)));
    }
    Ok(schematic)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn b(name: &str) -> Block {
        Block::from_name(name).unwrap()
    }

    #[test]
    fn two_colours_make_stripes_and_a_block_is_one_block() {
        let req = ShapeRequest { colour: Some("red and white".into()), ..ShapeRequest::new("tower") };
        let s = generate(&req, &Limits::default()).expect("a striped tower");
        let kinds: std::collections::HashSet<Block> = s.blocks.iter().map(|(_, b)| *b).collect();
        assert_eq!(kinds, [b("red_wool"), b("white_wool")].into_iter().collect());
        let one = generate(&ShapeRequest { colour: Some("gold".into()), ..ShapeRequest::new("block") }, &Limits::default()).unwrap();
        assert_eq!(one.blocks.len(), 1);
        // "3 diamond blocks": each of the plural is one block too.
        let each = generate(&ShapeRequest { block_type: Some("diamond".into()), ..ShapeRequest::new("blocks") }, &Limits::default()).unwrap();
        assert_eq!(each.blocks.len(), 1);
        let big = generate(&ShapeRequest { size_words: vec!["big".into()], ..ShapeRequest::new("block") }, &Limits::default()).unwrap();
        assert!(big.blocks.len() > 1);
    }

    #[test]
    fn a_house_keeps_its_roof_floor_and_windows_whatever_its_colour() {
        let kept: Vec<&str> = kept_when_coloured("house").iter().map(|b| b.name()).collect();
        assert_eq!(kept, ["cobblestone", "spruce_planks", "glass"]);
        assert!(kept_when_coloured("red cube").is_empty() && kept_when_coloured("tower").is_empty() && kept_when_coloured("zorp").is_empty());
        assert!(length_runs_across("long bridge") && !length_runs_across("house"));
    }

    #[test]
    fn new_normalises() {
        let s = Schematic::new(
            "thing",
            [
                (Pos::new(5, 3, -2), b("stone_bricks")),
                (Pos::new(5, 3, -2), b("bricks")),
                (Pos::new(6, 4, -2), b("glass")),
                (Pos::new(7, 3, -2), Block::AIR),
            ],
        );
        assert_eq!(s.blocks, vec![(Pos::new(0, 0, 0), b("bricks")), (Pos::new(1, 1, 0), b("glass"))]);
        assert_eq!(s.size(), [2, 2, 1]);
        assert_eq!(s.bbox(), BBox::new(Pos::new(0, 0, 0), Pos::new(1, 1, 0)));
        assert_eq!(Schematic::new("none", []).size(), [0, 0, 0]);
    }

    #[test]
    fn translated_and_rotated() {
        let s = Schematic::new("l", [(Pos::new(0, 0, 0), b("bricks")), (Pos::new(2, 0, 0), b("glass"))]);
        let moved = s.translated(Pos::new(10, 64, -5));
        assert!(moved.contains(&(Pos::new(12, 64, -5), b("glass"))));
        let turned = s.rotated(1);
        assert_eq!(turned.size(), [1, 1, 3]);
        assert!(turned.blocks.contains(&(Pos::new(0, 0, 2), b("glass"))));
        assert_eq!(s.rotated(4), s);
        assert_eq!(s.rotated(-1), s.rotated(3));
        assert_eq!(s.block_counts().len(), 2);
    }
}
