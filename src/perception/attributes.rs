//! The facts perception states about a group of cells: where it is, how big, what colour, what
//! it is made of, what shape it has. They are stored as `perceived` triples and recomputed
//! whenever the group changes; a player's own names and tags are never touched.

use rustc_hash::{FxHashMap, FxHashSet};

use super::shape;
use crate::memory::objects::{bbox_of, centroid};
use crate::world::{BBox, Block, Pos, Vec3};

/// A colour or block type must cover this share of the cells to be stated (the most common one
/// always is).
const COLOUR_SHARE: f64 = 0.3;
const BLOCK_SHARE: f64 = 0.2;
const MAX_BLOCK_TYPES: usize = 3;

/// Where a group is and what perception says about it.
#[derive(Debug, Clone, PartialEq)]
pub struct Summary {
    pub pos: Vec3,
    pub bbox: BBox,
    pub voxels: u64,
    /// (predicate, text) pairs, stored as perceived triples.
    pub facts: Vec<(&'static str, String)>,
}

/// Summarises a block object.
pub fn block_object(cells: &FxHashMap<Pos, Block>) -> Option<Summary> {
    let mut s = built_object(cells)?;
    let set: FxHashSet<Pos> = cells.keys().copied().collect();
    for word in shape::guess(&set, &s.bbox) {
        s.facts.push(("has_shape", word.to_string()));
    }
    Some(s)
}

/// Summarises an object a build made: like [`block_object`] without the shape guess (its name
/// says what it is).
pub fn built_object(cells: &FxHashMap<Pos, Block>) -> Option<Summary> {
    let mut s = geometry(cells)?;
    let mut colours: FxHashMap<&'static str, usize> = FxHashMap::default();
    let mut types: FxHashMap<Block, usize> = FxHashMap::default();
    for b in cells.values() {
        if let Some(c) = b.colour() {
            *colours.entry(c).or_default() += 1;
        }
        *types.entry(*b).or_default() += 1;
    }
    let coloured: usize = colours.values().sum();
    for (colour, _) in dominant(colours, coloured, COLOUR_SHARE, usize::MAX) {
        s.facts.push(("has_colour", colour.to_string()));
    }
    for (block, _) in dominant(types, cells.len(), BLOCK_SHARE, MAX_BLOCK_TYPES) {
        s.facts.push(("has_block_type", block.name().to_string()));
    }
    Some(s)
}

/// Summarises a hole: its shape is "hole", and its block type is what was dug out.
pub fn hole(cells: &FxHashMap<Pos, Block>) -> Option<Summary> {
    let mut s = geometry(cells)?;
    s.facts.push(("has_shape", "hole".to_string()));
    let mut types: FxHashMap<Block, usize> = FxHashMap::default();
    for b in cells.values() {
        *types.entry(*b).or_default() += 1;
    }
    for (block, _) in dominant(types, cells.len(), BLOCK_SHARE, MAX_BLOCK_TYPES) {
        s.facts.push(("has_block_type", block.name().to_string()));
    }
    Some(s)
}

/// Position, box, size class and extents.
fn geometry(cells: &FxHashMap<Pos, Block>) -> Option<Summary> {
    let bbox = bbox_of(cells.keys().copied())?;
    let [sx, sy, sz] = bbox.size();
    let facts = vec![
        ("has_size", shape::size_class(&bbox).to_string()),
        ("has_height", sy.to_string()),
        ("has_width", sx.max(sz).to_string()),
        ("has_depth", sx.min(sz).to_string()),
    ];
    Some(Summary { pos: centroid(cells.keys().copied()), bbox, voxels: cells.len() as u64, facts })
}

/// The most common values: every one with at least `share` of `total`, the top one always,
/// at most `max`, most common first (ties in a fixed order).
fn dominant<K: Ord + Copy>(counts: FxHashMap<K, usize>, total: usize, share: f64, max: usize) -> Vec<(K, usize)> {
    let mut v: Vec<(K, usize)> = counts.into_iter().collect();
    v.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    let mut out = Vec::new();
    for (i, (k, n)) in v.into_iter().enumerate() {
        if out.len() >= max || (i > 0 && (n as f64) < share * total as f64) {
            break;
        }
        out.push((k, n));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_red_tower_with_a_white_top() {
        let red = Block::from_name("red_wool").unwrap();
        let white = Block::from_name("white_wool").unwrap();
        let mut cells = FxHashMap::default();
        for y in 5..=10 {
            cells.insert(Pos::new(0, y, 0), if y == 10 { white } else { red });
        }
        let s = block_object(&cells).unwrap();
        assert_eq!(s.voxels, 6);
        let has = |p: &str, t: &str| s.facts.iter().any(|(fp, ft)| *fp == p && ft == t);
        assert!(has("has_colour", "red") && !has("has_colour", "white"));
        assert!(has("has_block_type", "red_wool"));
        assert!(has("has_shape", "tower") && has("has_shape", "pillar"));
        assert!(has("has_height", "6") && has("has_width", "1") && has("has_size", "medium"));
    }
}
