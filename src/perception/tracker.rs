//! Connected groups of cells that keep their identity while they change.
//!
//! A [`Tracker`] holds one layer of cells — placed blocks, or dug-out air — grouped into objects
//! that are maximal connected groups under the 26-neighbourhood (cells touching by a face, an edge
//! or a corner). It never looks at the world: it is told which cells appeared, changed or went,
//! and works out what happened to the groups, touching only the objects those cells belong to.
//!
//! Identity rules, which make "the tower alice named" stay alice's tower:
//! - cells added next to an object join it (a growing tower keeps its id);
//! - when cells go and an object falls apart, its largest part keeps the id and the other parts
//!   become new objects;
//! - when new cells connect several objects, the oldest id (the smallest: ids only grow) survives
//!   and the others are merged into it;
//! - an object whose last cell goes is destroyed.
//!
//! - a *pinned* object (one a build made: see `memory::builds`) is the blocks it was given, not a
//!   connected group: cells are added to it only by [`Edit::Join`], it never merges with what it
//!   touches and never splits, and it is destroyed when its last cell goes.
//!
//! Adding cells never needs a flood fill: an object nothing was removed from is still connected,
//! so it takes part as one unit. Only objects that lost cells are flood-filled, to find their parts.

use rustc_hash::{FxHashMap, FxHashSet};

use crate::memory::MemoryId;
use crate::world::{Block, Pos};

/// A change to one cell of the layer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Edit {
    /// The cell is (now) part of the layer, holding this block.
    Set(Pos, Block),
    /// The cell is not part of the layer (any more).
    Clear(Pos),
    /// The cell holds this block and belongs to this pinned object, whatever it touches.
    Join(Pos, Block, MemoryId),
}

impl Edit {
    pub fn pos(&self) -> Pos {
        match self {
            Edit::Set(p, _) | Edit::Clear(p) | Edit::Join(p, _, _) => *p,
        }
    }
}

/// A cell whose stored row must change: it moved from `old` (if any) to `new` (if any).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CellWrite {
    pub pos: Pos,
    pub old: Option<MemoryId>,
    pub new: Option<(MemoryId, Block)>,
}

/// What one [`Tracker::apply`] did to the objects.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Outcome {
    /// New objects (also listed in `changed`).
    pub created: Vec<MemoryId>,
    /// Objects whose cells changed and that still exist (attributes need refreshing).
    pub changed: Vec<MemoryId>,
    /// `(from, into)`: `from` was joined to the older `into` and no longer exists.
    pub merged: Vec<(MemoryId, MemoryId)>,
    /// Objects with no cells left.
    pub destroyed: Vec<MemoryId>,
    pub writes: Vec<CellWrite>,
}

impl Outcome {
    pub fn is_empty(&self) -> bool {
        self.changed.is_empty() && self.merged.is_empty() && self.destroyed.is_empty() && self.writes.is_empty()
    }
}

/// One layer of tracked cells.
#[derive(Debug, Default, Clone)]
pub struct Tracker {
    owner: FxHashMap<Pos, MemoryId>,
    objects: FxHashMap<MemoryId, FxHashMap<Pos, Block>>,
    /// Objects that are their given cells rather than a connected group.
    pinned: FxHashSet<MemoryId>,
    /// Cells pinned objects lost, and to whom: a block put back there is theirs again (a doorway
    /// the agent cut to break out and closed behind it, a player mending a wall of the bot's).
    vacated: FxHashMap<Pos, MemoryId>,
    /// Objects a running build is making: they stay, with their names, even with no cells left
    /// (a server that restarted fresh mid-build), until the build is over.
    reserved: FxHashSet<MemoryId>,
}

/// A piece taking part in a regrouping: an untouched object, a part of an object that lost cells,
/// or one new cell.
#[derive(Debug)]
enum Unit {
    Intact(MemoryId),
    Piece(MemoryId, Vec<Pos>),
    New(Pos, Block),
}

impl Tracker {
    pub fn new() -> Tracker {
        Tracker::default()
    }

    /// Rebuilds a tracker from stored cells (after a restart).
    pub fn load(cells: impl IntoIterator<Item = (MemoryId, Pos, Block)>) -> Tracker {
        let mut t = Tracker::new();
        for (id, p, b) in cells {
            // A cell stored twice (which the schema allows across objects) goes to the older id.
            if let Some(&other) = t.owner.get(&p) {
                if other <= id {
                    continue;
                }
                if let Some(cells) = t.objects.get_mut(&other) {
                    cells.remove(&p);
                }
            }
            t.owner.insert(p, id);
            t.objects.entry(id).or_default().insert(p, b);
        }
        t.objects.retain(|_, cells| !cells.is_empty());
        t
    }

    /// Marks objects as pinned (they may have no cells yet).
    pub fn pin(&mut self, ids: impl IntoIterator<Item = MemoryId>) {
        self.pinned.extend(ids);
    }

    pub fn is_pinned(&self, id: MemoryId) -> bool {
        self.pinned.contains(&id)
    }

    /// Sets the objects running builds are making (see `reserved`). Returns those no longer
    /// reserved that have no cells: they are gone now.
    pub fn reserve(&mut self, ids: impl IntoIterator<Item = MemoryId>) -> Vec<MemoryId> {
        let reserved: FxHashSet<MemoryId> = ids.into_iter().collect();
        let mut gone: Vec<MemoryId> = self
            .reserved
            .difference(&reserved)
            .copied()
            .filter(|id| self.objects.get(id).is_some_and(|c| c.is_empty()))
            .collect();
        gone.sort_unstable();
        for id in &gone {
            self.objects.remove(id);
            self.pinned.remove(id);
        }
        self.vacated.retain(|_, id| !gone.contains(id));
        self.reserved = reserved;
        gone
    }

    pub fn owner_of(&self, p: Pos) -> Option<MemoryId> {
        self.owner.get(&p).copied()
    }

    pub fn cells(&self, id: MemoryId) -> Option<&FxHashMap<Pos, Block>> {
        self.objects.get(&id)
    }

    pub fn ids(&self) -> impl Iterator<Item = MemoryId> + '_ {
        self.objects.keys().copied()
    }

    /// Every tracked cell with its owner and block.
    pub fn all_cells(&self) -> impl Iterator<Item = (Pos, MemoryId, Block)> + '_ {
        self.objects.iter().flat_map(|(&id, cells)| cells.iter().map(move |(&p, &b)| (p, id, b)))
    }

    pub fn object_count(&self) -> usize {
        self.objects.len()
    }

    pub fn cell_count(&self) -> usize {
        self.owner.len()
    }

    /// Applies edits (the last edit of a cell wins) and regroups the touched objects. `new_id`
    /// is called once for each object that has to be created. If it fails, the error is
    /// returned and the tracker may be ahead of whatever the ids were for: the caller reloads.
    pub fn apply<E>(&mut self, edits: &[Edit], new_id: &mut dyn FnMut() -> Result<MemoryId, E>) -> Result<Outcome, E> {
        let mut last: FxHashMap<Pos, Edit> = FxHashMap::default();
        let mut order: Vec<Pos> = Vec::new();
        for e in edits {
            if last.insert(e.pos(), *e).is_none() {
                order.push(e.pos());
            }
        }
        let mut out = Outcome::default();
        let mut retyped: FxHashSet<MemoryId> = FxHashSet::default();
        let mut shrunk: FxHashSet<MemoryId> = FxHashSet::default();
        let mut added: Vec<(Pos, Block)> = Vec::new();
        for p in order {
            let mut edit = last[&p];
            if let (Edit::Set(_, b), None) = (edit, self.owner.get(&p))
                && let Some(&id) = self.vacated.get(&p)
                && self.objects.get(&id).is_some_and(|c| !c.is_empty())
            {
                edit = Edit::Join(p, b, id);
            }
            match (edit, self.owner.get(&p).copied()) {
                (Edit::Join(_, b, target), Some(id)) if id == target => {
                    let cells = self.objects.entry(id).or_default();
                    if cells.get(&p) != Some(&b) {
                        cells.insert(p, b);
                        retyped.insert(id);
                        out.writes.push(CellWrite { pos: p, old: Some(id), new: Some((id, b)) });
                    }
                }
                (Edit::Join(_, b, target), old) => {
                    if let Some(id) = old {
                        if let Some(cells) = self.objects.get_mut(&id) {
                            cells.remove(&p);
                        }
                        if self.pinned.contains(&id) { retyped.insert(id) } else { shrunk.insert(id) };
                    }
                    self.pinned.insert(target);
                    self.owner.insert(p, target);
                    self.objects.entry(target).or_default().insert(p, b);
                    retyped.insert(target);
                    out.writes.push(CellWrite { pos: p, old, new: Some((target, b)) });
                }
                (Edit::Clear(_), Some(id)) if self.pinned.contains(&id) => {
                    // A pinned object only loses the cell: it does not fall apart.
                    self.owner.remove(&p);
                    self.vacated.insert(p, id);
                    if let Some(cells) = self.objects.get_mut(&id) {
                        cells.remove(&p);
                    }
                    retyped.insert(id);
                    out.writes.push(CellWrite { pos: p, old: Some(id), new: None });
                }
                (Edit::Set(_, b), Some(id)) => {
                    let cells = self.objects.entry(id).or_default();
                    if cells.get(&p) != Some(&b) {
                        cells.insert(p, b);
                        retyped.insert(id);
                        out.writes.push(CellWrite { pos: p, old: Some(id), new: Some((id, b)) });
                    }
                }
                (Edit::Set(_, b), None) => added.push((p, b)),
                (Edit::Clear(_), Some(id)) => {
                    self.owner.remove(&p);
                    if let Some(cells) = self.objects.get_mut(&id) {
                        cells.remove(&p);
                    }
                    shrunk.insert(id);
                    out.writes.push(CellWrite { pos: p, old: Some(id), new: None });
                }
                (Edit::Clear(_), None) => {}
            }
        }

        // Units and a union-find over them.
        let mut units: Vec<Unit> = Vec::new();
        let mut intact_unit: FxHashMap<MemoryId, usize> = FxHashMap::default();
        let mut piece_of: FxHashMap<Pos, usize> = FxHashMap::default();
        let mut new_unit: FxHashMap<Pos, usize> = FxHashMap::default();
        let mut shrunk_sorted: Vec<MemoryId> = shrunk.iter().copied().collect();
        shrunk_sorted.sort_unstable();
        for &id in &shrunk_sorted {
            let cells: Vec<Pos> = self.objects.get(&id).map(|c| c.keys().copied().collect()).unwrap_or_default();
            for piece in components(&cells) {
                let u = units.len();
                for &p in &piece {
                    piece_of.insert(p, u);
                }
                units.push(Unit::Piece(id, piece));
            }
        }
        for &(p, b) in &added {
            new_unit.insert(p, units.len());
            units.push(Unit::New(p, b));
        }
        let mut uf = UnionFind::new(units.len());
        for &(p, _) in &added {
            let me = new_unit[&p];
            for n in p.neighbours26() {
                let other = if let Some(&u) = new_unit.get(&n) {
                    Some(u)
                } else if let Some(&u) = piece_of.get(&n) {
                    Some(u)
                } else if let Some(&id) = self.owner.get(&n).filter(|id| !self.pinned.contains(id)) {
                    Some(*intact_unit.entry(id).or_insert_with(|| {
                        units.push(Unit::Intact(id));
                        uf.push();
                        units.len() - 1
                    }))
                } else {
                    None
                };
                if let Some(o) = other {
                    uf.union(me, o);
                }
            }
        }

        // Each old id prefers the component holding its intact self or its largest piece.
        let mut preferred: FxHashMap<MemoryId, (usize, usize)> = FxHashMap::default(); // id → (size, unit)
        for (u, unit) in units.iter().enumerate() {
            let (id, size) = match unit {
                Unit::Intact(id) => (*id, usize::MAX),
                Unit::Piece(id, cells) => (*id, cells.len()),
                Unit::New(..) => continue,
            };
            let better = match preferred.get(&id) {
                None => true,
                Some(&(best, bu)) => size > best || (size == best && min_pos(&units[u]) < min_pos(&units[bu])),
            };
            if better {
                preferred.insert(id, (size, u));
            }
        }
        let mut winner: FxHashMap<usize, MemoryId> = FxHashMap::default(); // root → id
        let mut ids: Vec<MemoryId> = preferred.keys().copied().collect();
        ids.sort_unstable();
        for id in ids {
            let root = uf.find(preferred[&id].1);
            match winner.get(&root) {
                None => {
                    winner.insert(root, id);
                }
                Some(&older) => out.merged.push((id, older)),
            }
        }
        // Roots in a stable order (by their smallest cell) so new ids are assigned reproducibly.
        let mut root_min: FxHashMap<usize, Pos> = FxHashMap::default();
        for (u, unit) in units.iter().enumerate() {
            let r = uf.find(u);
            let m = min_pos(unit);
            root_min.entry(r).and_modify(|e| *e = (*e).min(m)).or_insert(m);
        }
        let mut roots: Vec<(Pos, usize)> = root_min.into_iter().map(|(r, m)| (m, r)).collect();
        roots.sort_unstable();
        for &(_, root) in &roots {
            if let std::collections::hash_map::Entry::Vacant(e) = winner.entry(root) {
                let id = new_id()?;
                e.insert(id);
                out.created.push(id);
            }
        }

        // Move cells to their final owners.
        let mut changed: FxHashSet<MemoryId> = retyped;
        for (u, unit) in units.iter().enumerate() {
            let target = winner[&uf.find(u)];
            match unit {
                Unit::Intact(id) if *id == target => {}
                Unit::Intact(id) => {
                    let cells: Vec<(Pos, Block)> =
                        self.objects.get(id).map(|c| c.iter().map(|(&p, &b)| (p, b)).collect()).unwrap_or_default();
                    self.move_cells(*id, target, &cells, &mut out.writes);
                }
                Unit::Piece(id, cells) if *id == target => {
                    let _ = cells;
                }
                Unit::Piece(id, cells) => {
                    let cells: Vec<(Pos, Block)> = cells
                        .iter()
                        .filter_map(|p| self.objects.get(id).and_then(|c| c.get(p)).map(|b| (*p, *b)))
                        .collect();
                    self.move_cells(*id, target, &cells, &mut out.writes);
                }
                Unit::New(p, b) => {
                    self.owner.insert(*p, target);
                    self.objects.entry(target).or_default().insert(*p, *b);
                    out.writes.push(CellWrite { pos: *p, old: None, new: Some((target, *b)) });
                }
            }
            changed.insert(target);
        }
        changed.extend(shrunk.iter().copied());
        // Whatever has no cells left is gone (merged objects were emptied by the moves above).
        let merged_ids: FxHashSet<MemoryId> = out.merged.iter().map(|(from, _)| *from).collect();
        let mut gone: Vec<MemoryId> = changed
            .iter()
            .chain(merged_ids.iter())
            .copied()
            .filter(|id| self.objects.get(id).is_none_or(|c| c.is_empty()))
            .filter(|id| merged_ids.contains(id) || !self.reserved.contains(id))
            .collect();
        gone.sort_unstable();
        gone.dedup();
        if !gone.is_empty() {
            self.vacated.retain(|_, id| !gone.contains(id));
        }
        for id in gone {
            self.objects.remove(&id);
            self.pinned.remove(&id);
            changed.remove(&id);
            if !merged_ids.contains(&id) {
                out.destroyed.push(id);
            }
        }
        let mut changed: Vec<MemoryId> = changed.into_iter().collect();
        changed.sort_unstable();
        out.changed = changed;
        Ok(out)
    }

    fn move_cells(&mut self, from: MemoryId, to: MemoryId, cells: &[(Pos, Block)], writes: &mut Vec<CellWrite>) {
        for &(p, b) in cells {
            if let Some(c) = self.objects.get_mut(&from) {
                c.remove(&p);
            }
            self.owner.insert(p, to);
            self.objects.entry(to).or_default().insert(p, b);
            writes.push(CellWrite { pos: p, old: Some(from), new: Some((to, b)) });
        }
    }
}

fn min_pos(unit: &Unit) -> Pos {
    match unit {
        Unit::Intact(_) => Pos::new(i32::MIN, i32::MIN, i32::MIN),
        Unit::Piece(_, cells) => cells.iter().copied().min().unwrap_or(Pos::new(i32::MAX, i32::MAX, i32::MAX)),
        Unit::New(p, _) => *p,
    }
}

/// The 26-connected components of a set of cells, each sorted, in order of their smallest cell.
pub fn components(cells: &[Pos]) -> Vec<Vec<Pos>> {
    let set: FxHashSet<Pos> = cells.iter().copied().collect();
    let mut seen: FxHashSet<Pos> = FxHashSet::default();
    let mut sorted: Vec<Pos> = cells.to_vec();
    sorted.sort_unstable();
    let mut out = Vec::new();
    for &start in &sorted {
        if !seen.insert(start) {
            continue;
        }
        let mut part = vec![start];
        let mut stack = vec![start];
        while let Some(p) = stack.pop() {
            for n in p.neighbours26() {
                if set.contains(&n) && seen.insert(n) {
                    part.push(n);
                    stack.push(n);
                }
            }
        }
        part.sort_unstable();
        out.push(part);
    }
    out
}

/// Union-find with path halving and union by size.
struct UnionFind {
    parent: Vec<usize>,
    size: Vec<usize>,
}

impl UnionFind {
    fn new(n: usize) -> UnionFind {
        UnionFind { parent: (0..n).collect(), size: vec![1; n] }
    }

    fn push(&mut self) {
        self.parent.push(self.parent.len());
        self.size.push(1);
    }

    fn find(&mut self, mut x: usize) -> usize {
        while self.parent[x] != x {
            self.parent[x] = self.parent[self.parent[x]];
            x = self.parent[x];
        }
        x
    }

    fn union(&mut self, a: usize, b: usize) {
        let (mut a, mut b) = (self.find(a), self.find(b));
        if a == b {
            return;
        }
        if self.size[a] < self.size[b] {
            std::mem::swap(&mut a, &mut b);
        }
        self.parent[b] = a;
        self.size[a] += self.size[b];
    }
}

#[cfg(test)]
#[path = "tracker_tests.rs"]
mod tests;
