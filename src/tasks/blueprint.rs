//! A blueprint: the blocks a build is meant to end up with, indexed for quick questions.
//!
//! The planner asks two things while a build is under way: "if I pillar up here, which block
//! should I stand on?" (a blueprint block, so the pillar becomes part of the build, otherwise
//! scaffold) and "is this spot inside the build?" A spot with blueprint blocks both above and
//! below it in its column — the inside of a hollow box or sphere — is where the agent could get
//! sealed in, so walking there is made expensive.

use crate::world::{BBox, Block, Pos};
use rustc_hash::FxHashMap;

#[derive(Clone, Debug, Default)]
pub struct Blueprint {
    blocks: FxHashMap<Pos, Block>,
    /// For each (x, z) column: the lowest and highest blueprint y.
    columns: FxHashMap<(i32, i32), (i32, i32)>,
    bbox: Option<BBox>,
}

impl Blueprint {
    /// A blueprint of the non-air blocks among `blocks`.
    pub fn new(blocks: impl IntoIterator<Item = (Pos, Block)>) -> Self {
        let mut bp = Blueprint::default();
        for (p, b) in blocks {
            if b.is_air() {
                continue;
            }
            bp.blocks.insert(p, b);
            let col = bp.columns.entry((p.x, p.z)).or_insert((p.y, p.y));
            col.0 = col.0.min(p.y);
            col.1 = col.1.max(p.y);
            let one = BBox::new(p, p);
            bp.bbox = Some(bp.bbox.map_or(one, |b| b.union(&one)));
        }
        bp
    }

    pub fn get(&self, p: Pos) -> Option<Block> {
        self.blocks.get(&p).copied()
    }

    pub fn contains(&self, p: Pos) -> bool {
        self.blocks.contains_key(&p)
    }

    pub fn len(&self) -> usize {
        self.blocks.len()
    }

    pub fn is_empty(&self) -> bool {
        self.blocks.is_empty()
    }

    pub fn bbox(&self) -> Option<BBox> {
        self.bbox
    }

    /// Is `p` an empty cell enclosed above and below by the build (the inside of a room)?
    pub fn is_interior(&self, p: Pos) -> bool {
        match self.columns.get(&(p.x, p.z)) {
            Some(&(lo, hi)) => lo < p.y && p.y < hi && !self.blocks.contains_key(&p),
            None => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn interior_of_a_box() {
        let stone = Block::from_name("stone").unwrap();
        let b = BBox::new(Pos::new(0, 0, 0), Pos::new(2, 2, 2));
        let shell = b.iter().filter(|&p| p != Pos::new(1, 1, 1)).map(|p| (p, stone));
        let bp = Blueprint::new(shell.chain([(Pos::new(9, 9, 9), Block::AIR)]));
        assert_eq!(bp.len(), 26);
        assert!(bp.is_interior(Pos::new(1, 1, 1)));
        assert!(!bp.is_interior(Pos::new(1, 3, 1)) && !bp.is_interior(Pos::new(0, 1, 0)));
        assert_eq!(bp.bbox(), Some(b));
        assert_eq!(bp.get(Pos::new(0, 0, 0)), Some(stone));
    }
}
