//! The order to place a schematic's blocks in.
//!
//! Placing needs something to place against, and a builder that goes layer by layer never has to
//! reach under what it already built. So blocks go bottom layer first (y ascending), and within a
//! layer they spread outwards from blocks that are already supported: a block comes after the
//! block below it, and after a neighbour in its own layer that was placed before it. Overhangs
//! (an arch's top, a roof over a hollow room) grow sideways from the walls that carry them. Only
//! where a layer has a part touching nothing placed so far (the top rings of a hollow sphere,
//! which rest on the ring below only at their corners) does a block start without a face to lean
//! on; it is then one that at least touches a placed block diagonally, if any does.

use crate::world::{Block, Pos};
use std::collections::{BTreeMap, HashMap, HashSet, VecDeque};

/// `blocks` (unique positions) in build order; see the module doc. Deterministic: ties are broken
/// by z, then x.
pub(crate) fn build_order(blocks: &[(Pos, Block)]) -> Vec<(Pos, Block)> {
    let mut layers: BTreeMap<i32, Vec<(Pos, Block)>> = BTreeMap::new();
    for &(p, b) in blocks {
        layers.entry(p.y).or_default().push((p, b));
    }
    let bottom = layers.keys().next().copied().unwrap_or(0);
    let mut placed: HashSet<Pos> = HashSet::with_capacity(blocks.len());
    let mut order = Vec::with_capacity(blocks.len());
    for (y, mut layer) in layers {
        layer.sort_by_key(|(p, _)| (p.z, p.x));
        let index: HashMap<Pos, usize> = layer.iter().enumerate().map(|(i, (p, _))| (*p, i)).collect();
        let mut done = vec![false; layer.len()];
        let mut queue = VecDeque::new();
        // Seeds: on the ground, or on a block of the layer below.
        for (i, (p, _)) in layer.iter().enumerate() {
            if y == bottom || placed.contains(&Pos::new(p.x, y.saturating_sub(1), p.z)) {
                done[i] = true;
                queue.push_back(i);
            }
        }
        let mut next_unplaced = 0;
        loop {
            while let Some(i) = queue.pop_front() {
                let (p, b) = layer[i];
                placed.insert(p);
                order.push((p, b));
                for n in beside(p) {
                    if let Some(&j) = index.get(&n)
                        && !done[j]
                    {
                        done[j] = true;
                        queue.push_back(j);
                    }
                }
            }
            // A part of the layer nothing supports: start it where it at least touches
            // something placed, diagonally; failing that, at its first block.
            while next_unplaced < layer.len() && done[next_unplaced] {
                next_unplaced += 1;
            }
            if next_unplaced == layer.len() {
                break;
            }
            let start = (next_unplaced..layer.len())
                .find(|&i| !done[i] && touches_diagonally(layer[i].0, &placed))
                .unwrap_or(next_unplaced);
            done[start] = true;
            queue.push_back(start);
        }
    }
    order
}

/// The four neighbours in the same layer (saturating at the edge of the coordinate range).
fn beside(p: Pos) -> [Pos; 4] {
    [
        Pos::new(p.x.saturating_add(1), p.y, p.z),
        Pos::new(p.x.saturating_sub(1), p.y, p.z),
        Pos::new(p.x, p.y, p.z.saturating_add(1)),
        Pos::new(p.x, p.y, p.z.saturating_sub(1)),
    ]
}

/// Whether any of the 26 blocks around `p` is placed.
fn touches_diagonally(p: Pos, placed: &HashSet<Pos>) -> bool {
    (-1..=1).any(|dx: i32| {
        (-1..=1).any(|dy: i32| {
            (-1..=1).any(|dz: i32| {
                let n = Pos::new(p.x.saturating_add(dx), p.y.saturating_add(dy), p.z.saturating_add(dz));
                n != p && placed.contains(&n)
            })
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn stone() -> Block {
        Block::from_name("stone_bricks").unwrap()
    }

    #[test]
    fn bottom_up_and_spreading_from_support() {
        // A bridge-like slab on two posts: the slab's middle must grow from the post tops.
        let mut blocks = vec![(Pos::new(0, 0, 0), stone()), (Pos::new(4, 0, 0), stone())];
        for x in 0..5 {
            blocks.push((Pos::new(x, 1, 0), stone()));
        }
        blocks.reverse();
        let order = build_order(&blocks);
        let pos: Vec<Pos> = order.iter().map(|(p, _)| *p).collect();
        assert_eq!(pos.len(), 7);
        assert!(pos[..2].iter().all(|p| p.y == 0));
        for (i, p) in pos.iter().enumerate().skip(2) {
            assert!(p.faces().iter().any(|n| pos[..i].contains(n)), "{p} floats");
        }
    }

    #[test]
    fn floating_part_starts_next_to_something_placed() {
        let blocks =
            vec![(Pos::new(0, 0, 0), stone()), (Pos::new(1, 1, 0), stone()), (Pos::new(5, 1, 5), stone())];
        let order = build_order(&blocks);
        assert_eq!(order[0].0, Pos::new(0, 0, 0));
        assert_eq!(order[1].0, Pos::new(1, 1, 0));
        assert_eq!(build_order(&[]), vec![]);
    }
}
