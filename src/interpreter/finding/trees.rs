//! Trees: logs standing together with leaves on them. A heap of logs with no leaves (a log
//! cabin, a pile someone placed) is not a tree, and more logs than a tree has are not one.

use crate::world::{Pos, World};
use rustc_hash::FxHashSet;
use std::collections::VecDeque;

/// The most logs one tree has (a big spruce); more is something built.
const MAX_LOGS: usize = 40;
/// The most leaves taken down with a tree.
const MAX_LEAVES: usize = 150;

#[derive(Debug, Clone, PartialEq)]
pub struct Tree {
    pub logs: Vec<Pos>,
    pub leaves: Vec<Pos>,
    /// The log id ("oak_log").
    pub wood: String,
}

fn is_log(name: &str) -> bool {
    name.ends_with("_log") && !name.starts_with("stripped_")
}

/// The tree a log or leaf at `start` belongs to, if it is one.
fn tree_at(world: &dyn World, start: Pos, seen: &mut FxHashSet<Pos>) -> Option<Tree> {
    let mut seed = start;
    if world.block_at(start).name().ends_with("_leaves") {
        // From a leaf, the nearest log of its tree.
        seed = super::blocks_near(world, super::around(start, 3, 4, 2), start, is_log).into_iter().next()?;
    }
    let wood = world.block_at(seed).name();
    if !is_log(wood) {
        return None;
    }
    let mut logs = Vec::new();
    let mut queue = VecDeque::from([seed]);
    seen.insert(seed);
    while let Some(p) = queue.pop_front() {
        logs.push(p);
        if logs.len() > MAX_LOGS {
            return None;
        }
        for n in p.neighbours26() {
            if world.block_at(n).name() == wood && seen.insert(n) {
                queue.push_back(n);
            }
        }
    }
    let leaves = leaves_of(world, &logs);
    (!leaves.is_empty()).then(|| Tree { logs, leaves, wood: wood.to_string() })
}

/// The leaves within a few blocks of the logs, joined to them through leaves.
fn leaves_of(world: &dyn World, logs: &[Pos]) -> Vec<Pos> {
    let mut seen: FxHashSet<Pos> = logs.iter().copied().collect();
    let mut queue: VecDeque<Pos> = logs.iter().copied().collect();
    let mut leaves = Vec::new();
    while let Some(p) = queue.pop_front() {
        for n in p.faces() {
            let near = logs.iter().any(|l| l.chebyshev(n) <= 3);
            if near && world.block_at(n).name().ends_with("_leaves") && seen.insert(n) && leaves.len() < MAX_LEAVES {
                leaves.push(n);
                queue.push_back(n);
            }
        }
    }
    leaves
}

/// Trees within `radius` blocks of `from` (of the given log id, if any), nearest first;
/// `first` (a block the player points at) picks its tree to come first.
pub fn trees_near(world: &dyn World, from: Pos, radius: i32, wood: Option<&str>, first: Option<Pos>) -> Vec<Tree> {
    let mut seen = FxHashSet::default();
    let mut trees = Vec::new();
    if let Some(p) = first
        && let Some(t) = tree_at(world, p, &mut seen).filter(|t| wood.is_none_or(|w| w == t.wood))
    {
        trees.push(t);
    }
    let logs = super::blocks_near(world, super::around(from, radius, 12, 24), from, |n| is_log(n) && wood.is_none_or(|w| w == n));
    for p in logs {
        if seen.contains(&p) {
            continue;
        }
        if let Some(t) = tree_at(world, p, &mut seen) {
            trees.push(t);
        }
        if trees.len() >= 12 {
            break;
        }
    }
    trees
}
