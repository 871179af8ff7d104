//! Where shapes draw their blocks: a set of positions that refuses to grow past the block limit.
//!
//! Estimates decide most refusals up front, but they are formulas; the canvas is the hard stop
//! that makes "never allocate more than the limit" true whatever a generator does.

use crate::world::{Block, Pos};
use std::collections::HashMap;

pub(crate) struct Canvas {
    blocks: HashMap<Pos, Block>,
    cap: usize,
    overflowed: bool,
}

impl Canvas {
    /// An empty canvas that holds at most `cap` blocks.
    pub(crate) fn new(cap: usize) -> Canvas {
        Canvas { blocks: HashMap::new(), cap, overflowed: false }
    }

    /// Sets the block at (x, y, z), replacing what was there; air clears it. Positions outside
    /// `i32` are ignored (plans are checked against [`MAX_EXTENT`](super::super::MAX_EXTENT)
    /// first, so this never happens in practice).
    pub(crate) fn put(&mut self, x: i64, y: i64, z: i64, block: Block) {
        let (Ok(x), Ok(y), Ok(z)) = (i32::try_from(x), i32::try_from(y), i32::try_from(z)) else { return };
        let p = Pos::new(x, y, z);
        if block.is_air() {
            self.blocks.remove(&p);
        } else if let Some(slot) = self.blocks.get_mut(&p) {
            *slot = block;
        } else if self.blocks.len() >= self.cap {
            self.overflowed = true;
        } else {
            self.blocks.insert(p, block);
        }
    }

    /// Fills the inclusive box from `min` to `max` (given as (x, y, z)).
    pub(crate) fn fill(&mut self, min: (i64, i64, i64), max: (i64, i64, i64), block: Block) {
        for y in min.1..=max.1 {
            for z in min.2..=max.2 {
                for x in min.0..=max.0 {
                    if self.overflowed {
                        return;
                    }
                    self.put(x, y, z, block);
                }
            }
        }
    }

    /// Whether a block was refused for lack of room.
    pub(crate) fn overflowed(&self) -> bool {
        self.overflowed
    }

    #[cfg(test)]
    pub(crate) fn get(&self, x: i64, y: i64, z: i64) -> Option<Block> {
        self.blocks.get(&Pos::new(x as i32, y as i32, z as i32)).copied()
    }

    pub(crate) fn into_blocks(self) -> Vec<(Pos, Block)> {
        self.blocks.into_iter().collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stops_at_the_cap() {
        let stone = Block::from_name("stone_bricks").unwrap();
        let mut c = Canvas::new(4);
        c.fill((0, 0, 0), (9, 9, 9), stone);
        assert!(c.overflowed());
        assert_eq!(c.into_blocks().len(), 4);
        let mut c = Canvas::new(4);
        c.put(0, 0, 0, stone);
        c.put(0, 0, 0, stone);
        c.put(0, 0, 0, Block::AIR);
        c.put(i64::MAX, 0, 0, stone);
        assert!(!c.overflowed());
        assert_eq!(c.get(0, 0, 0), None);
    }
}
