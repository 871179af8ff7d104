//! The blocks the web view draws: every block in a box around the bot that can be seen, that is,
//! that has a see-through neighbour (air, glass, water) beside or above it. In a flat world that is the top layer
//! of the terrain and everything built on it — a few thousand cubes, not a few hundred thousand.
//!
//! [`Surface::scan`] reads the whole box once (when a page first connects, or when the bot has
//! walked far enough that the box moves with it); after that [`Surface::update`] re-checks only
//! the cells the world's change log names, and their neighbours.

use super::palette::Palette;
use crate::world::{BBox, Block, Pos, World};
use rustc_hash::{FxHashMap, FxHashSet};

/// Blocks drawn on each side of the bot, horizontally.
pub const RADIUS: i32 = 32;
/// Blocks drawn below and above the bot's feet.
pub const BELOW: i32 = 16;
pub const ABOVE: i32 = 32;
/// The box is placed on a grid of this many blocks.
const SNAP: i32 = 8;

const SIDES: [(i32, i32, i32); 6] = [(1, 0, 0), (-1, 0, 0), (0, 1, 0), (0, -1, 0), (0, 0, 1), (0, 0, -1)];
/// The sides a block can be seen through: all but the one below. The camera looks from above,
/// so a face turned down is never seen, and the underside of the world's floor is not drawn.
const SEEN_FROM: [(i32, i32, i32); 5] = [(1, 0, 0), (-1, 0, 0), (0, 1, 0), (0, 0, 1), (0, 0, -1)];

fn offset(p: Pos, (dx, dy, dz): (i32, i32, i32)) -> Pos {
    Pos::new(p.x.saturating_add(dx), p.y.saturating_add(dy), p.z.saturating_add(dz))
}

/// What changed in the drawn blocks: cells to draw (with their colour) and cells to drop.
#[derive(Debug, Default, PartialEq)]
pub struct Delta {
    pub set: Vec<(Pos, u32)>,
    pub clear: Vec<Pos>,
}

impl Delta {
    pub fn is_empty(&self) -> bool {
        self.set.is_empty() && self.clear.is_empty()
    }
}

pub struct Surface {
    /// The box drawn, inclusive.
    pub area: BBox,
    cells: FxHashMap<Pos, u32>,
    palette: Palette,
}

impl Surface {
    /// The box drawn around a bot whose feet are at `p` (its centre snapped to a grid, so small
    /// moves keep the same box). Saturating: a bot at the world's edge still gets a box.
    pub fn area_around(p: Pos) -> BBox {
        let snap = |v: i32| v.div_euclid(SNAP).saturating_mul(SNAP);
        let (cx, cz) = (snap(p.x), snap(p.z));
        BBox {
            min: Pos::new(cx.saturating_sub(RADIUS), p.y.saturating_sub(BELOW), cz.saturating_sub(RADIUS)),
            max: Pos::new(cx.saturating_add(RADIUS), p.y.saturating_add(ABOVE), cz.saturating_add(RADIUS)),
        }
    }

    /// Reads every block of `area` and keeps the visible ones.
    pub fn scan(world: &dyn World, area: BBox) -> Surface {
        let [sx, sy, sz] = area.size().map(|v| v.max(0) as usize);
        let index = |p: Pos| -> Option<usize> {
            if !area.contains(p) {
                return None;
            }
            let (x, y, z) = ((p.x - area.min.x) as usize, (p.y - area.min.y) as usize, (p.z - area.min.z) as usize);
            Some((y * sz + z) * sx + x)
        };
        let mut grid = vec![Block::AIR; sx * sy * sz];
        let solid = world.blocks_in(area);
        for &(p, b) in &solid {
            if let Some(i) = index(p) {
                grid[i] = b;
            }
        }
        let mut surface = Surface { area, cells: FxHashMap::default(), palette: Palette::default() };
        for (p, b) in solid {
            let open = SEEN_FROM.iter().any(|&d| {
                let n = offset(p, d);
                match index(n) {
                    Some(i) => surface.palette.see_through(grid[i]),
                    // Above the box is sky; beside and below it, terrain goes on.
                    None => n.y > area.max.y,
                }
            });
            if open {
                let c = surface.palette.colour(b);
                surface.cells.insert(p, c);
            }
        }
        surface
    }

    /// Whether the bot, now at `p`, has walked far enough that the box should move with it:
    /// half-way to its side, or up or down by half what is drawn there. A bot working near one
    /// spot never makes the page reload the whole box.
    pub fn left_behind(&self, p: Pos) -> bool {
        let (a, b) = (self.area.min, self.area.max);
        let centre = |lo: i32, hi: i32| (lo as i64 + hi as i64) / 2;
        let off = |v: i32, lo: i32, hi: i32| (v as i64 - centre(lo, hi)).abs();
        off(p.x, a.x, b.x) > (RADIUS / 2) as i64
            || off(p.z, a.z, b.z) > (RADIUS / 2) as i64
            || (p.y as i64) < a.y as i64 + (BELOW / 2) as i64
            || (p.y as i64) > b.y as i64 - (ABOVE / 2) as i64
    }

    /// Every drawn cell and its colour.
    pub fn cells(&self) -> impl Iterator<Item = (Pos, u32)> + '_ {
        self.cells.iter().map(|(p, c)| (*p, *c))
    }

    pub fn len(&self) -> usize {
        self.cells.len()
    }

    pub fn is_empty(&self) -> bool {
        self.cells.is_empty()
    }

    /// What to draw differently to show `newer` (a later scan of the same box) instead.
    pub fn diff(&self, newer: &Surface) -> Delta {
        let mut delta = Delta::default();
        for (p, c) in newer.cells() {
            if self.cells.get(&p) != Some(&c) {
                delta.set.push((p, c));
            }
        }
        delta.clear = self.cells.keys().filter(|p| !newer.cells.contains_key(p)).copied().collect();
        delta.set.sort_by_key(|(p, _)| (p.y, p.z, p.x));
        delta.clear.sort_by_key(|p| (p.y, p.z, p.x));
        delta
    }

    /// Re-checks the cells at `changed` and their neighbours; returns what to draw differently.
    pub fn update(&mut self, world: &dyn World, changed: impl IntoIterator<Item = Pos>) -> Delta {
        let mut check = FxHashSet::default();
        for p in changed {
            check.insert(p);
            for d in SIDES {
                check.insert(offset(p, d));
            }
        }
        let mut delta = Delta::default();
        let mut cells: Vec<Pos> = check.into_iter().filter(|p| self.area.contains(*p)).collect();
        // The same order every time: the page applies them in order, and tests compare them.
        cells.sort_by_key(|p| (p.y, p.z, p.x));
        for p in cells {
            let now = self.visible_colour(world, p);
            match (now, self.cells.get(&p).copied()) {
                (Some(c), Some(old)) if c == old => {}
                (Some(c), _) => {
                    self.cells.insert(p, c);
                    delta.set.push((p, c));
                }
                (None, Some(_)) => {
                    self.cells.remove(&p);
                    delta.clear.push(p);
                }
                (None, None) => {}
            }
        }
        delta
    }

    fn visible_colour(&mut self, world: &dyn World, p: Pos) -> Option<u32> {
        let b = world.block_at(p);
        if b.is_air() {
            return None;
        }
        let area = self.area;
        let open = SEEN_FROM.iter().any(|&d| {
            let n = offset(p, d);
            if area.contains(n) { self.palette.see_through(world.block_at(n)) } else { n.y > area.max.y }
        });
        open.then(|| self.palette.colour(b))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::world::embedded::{EmbeddedWorld, Preset};
    use crate::world::Actor;

    fn flat() -> EmbeddedWorld {
        EmbeddedWorld::new(Preset::Flat, "craftmate", Pos::new(0, 5, 0))
    }

    #[test]
    fn a_flat_world_shows_its_top_layer_only() {
        let w = flat();
        let area = Surface::area_around(w.agent_pos());
        let s = Surface::scan(&w, area);
        let [sx, _, sz] = area.size();
        assert_eq!(s.len(), (sx * sz) as usize, "one visible block per column");
        assert!(s.cells().all(|(p, _)| p.y == 4), "the ground's top layer");
    }

    #[test]
    fn a_placed_block_is_drawn_and_hides_the_ground_only_where_it_covers_it() {
        let mut w = flat();
        let area = Surface::area_around(w.agent_pos());
        let mut s = Surface::scan(&w, area);
        let (_, cursor) = w.changes_since(usize::MAX);
        let red = Block::from_name("red_wool").unwrap();
        w.set_block_by(Pos::new(3, 5, 3), red, Actor::World);
        let (changes, _) = w.changes_since(cursor);
        let delta = s.update(&w, changes.iter().map(|c| c.pos));
        // The ground cell under it had only its top open; now that is wool, so it is hidden.
        assert_eq!(delta.set, vec![(Pos::new(3, 5, 3), 0xb02e26)]);
        assert_eq!(delta.clear, vec![Pos::new(3, 4, 3)]);
        // Broken again: the ground shows again and the wool goes.
        let (_, cursor) = w.changes_since(usize::MAX);
        w.set_block_by(Pos::new(3, 5, 3), Block::AIR, Actor::World);
        let (changes, _) = w.changes_since(cursor);
        let delta = s.update(&w, changes.iter().map(|c| c.pos));
        assert_eq!(delta.clear, vec![Pos::new(3, 5, 3)]);
        assert_eq!(delta.set.len(), 1);
        assert_eq!(delta.set[0].0, Pos::new(3, 4, 3));
    }

    #[test]
    fn a_second_scan_sends_only_the_difference() {
        let mut w = flat();
        let area = Surface::area_around(w.agent_pos());
        let first = Surface::scan(&w, area);
        w.set_block_by(Pos::new(-2, 5, 1), Block::from_name("blue_wool").unwrap(), Actor::World);
        let second = Surface::scan(&w, area);
        let d = first.diff(&second);
        assert_eq!(d.set, vec![(Pos::new(-2, 5, 1), 0x3c44aa)]);
        assert_eq!(d.clear, vec![Pos::new(-2, 4, 1)]);
        assert!(second.diff(&second).is_empty());
    }

    #[test]
    fn the_box_follows_the_bot_only_when_it_walks_away_and_never_overflows() {
        let w = flat();
        let s = Surface::scan(&w, Surface::area_around(Pos::new(0, 5, 0)));
        for near in [Pos::new(3, 5, 2), Pos::new(-15, 5, 10), Pos::new(0, 12, 0)] {
            assert!(!s.left_behind(near), "{near} keeps the box");
        }
        for far in [Pos::new(20, 5, 0), Pos::new(0, 5, -17), Pos::new(0, 30, 0), Pos::new(0, -5, 0)] {
            assert!(s.left_behind(far), "{far} moves the box");
        }
        let edge = Surface::area_around(Pos::new(i32::MAX, i32::MAX, i32::MIN));
        assert!(edge.min.x <= edge.max.x && edge.min.z <= edge.max.z);
    }
}
