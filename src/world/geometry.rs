//! Block positions, entity positions and boxes, with the small amount of arithmetic the rest of
//! the bot needs (neighbours, distances, inclusive boxes).

use serde::{Deserialize, Serialize};
use std::ops::{Add, Sub};

/// A block position: integer coordinates, x east, y up, z south.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default, Serialize, Deserialize)]
pub struct Pos {
    pub x: i32,
    pub y: i32,
    pub z: i32,
}

/// How far apart two coordinates are, at most `i32::MAX` (their true gap may be 2³²−1).
fn gap(a: i32, b: i32) -> i32 {
    a.abs_diff(b).min(i32::MAX as u32) as i32
}

impl Pos {
    pub const fn new(x: i32, y: i32, z: i32) -> Self {
        Pos { x, y, z }
    }

    pub fn up(self, n: i32) -> Self {
        Pos::new(self.x, self.y.saturating_add(n), self.z)
    }

    pub fn down(self, n: i32) -> Self {
        Pos::new(self.x, self.y.saturating_sub(n), self.z)
    }

    /// The centre of the block, as an entity position.
    pub fn center(self) -> Vec3 {
        Vec3::new(self.x as f64 + 0.5, self.y as f64 + 0.5, self.z as f64 + 0.5)
    }

    /// The point an entity standing in this block has its feet at.
    pub fn feet(self) -> Vec3 {
        Vec3::new(self.x as f64 + 0.5, self.y as f64, self.z as f64 + 0.5)
    }

    /// Largest difference along any axis (how many king-moves apart two blocks are).
    pub fn chebyshev(self, o: Pos) -> i32 {
        gap(self.x, o.x).max(gap(self.y, o.y)).max(gap(self.z, o.z))
    }

    pub fn manhattan(self, o: Pos) -> i32 {
        gap(self.x, o.x).saturating_add(gap(self.y, o.y)).saturating_add(gap(self.z, o.z))
    }

    pub fn distance(self, o: Pos) -> f64 {
        self.center().distance(o.center())
    }

    /// The 6 face neighbours (at the edge of the coordinates, the cell itself stands in for the
    /// neighbour that cannot exist).
    pub fn faces(self) -> [Pos; 6] {
        [
            Pos::new(self.x.saturating_add(1), self.y, self.z),
            Pos::new(self.x.saturating_sub(1), self.y, self.z),
            Pos::new(self.x, self.y.saturating_add(1), self.z),
            Pos::new(self.x, self.y.saturating_sub(1), self.z),
            Pos::new(self.x, self.y, self.z.saturating_add(1)),
            Pos::new(self.x, self.y, self.z.saturating_sub(1)),
        ]
    }

    /// The 26 neighbours sharing a face, edge or corner (fewer at the edge of the coordinates).
    pub fn neighbours26(self) -> impl Iterator<Item = Pos> {
        (-1..=1).flat_map(move |dx| {
            (-1..=1).flat_map(move |dy| {
                (-1..=1).filter_map(move |dz: i32| {
                    if dx == 0 && dy == 0 && dz == 0 {
                        return None;
                    }
                    Some(Pos::new(self.x.checked_add(dx)?, self.y.checked_add(dy)?, self.z.checked_add(dz)?))
                })
            })
        })
    }
}

// Saturating: at the edge of the coordinate range a neighbour or a box around a position stays
// at the edge instead of wrapping to the far side of the world (and a box never turns inside out).
impl Add for Pos {
    type Output = Pos;
    fn add(self, o: Pos) -> Pos {
        Pos::new(self.x.saturating_add(o.x), self.y.saturating_add(o.y), self.z.saturating_add(o.z))
    }
}

impl Sub for Pos {
    type Output = Pos;
    fn sub(self, o: Pos) -> Pos {
        Pos::new(self.x.saturating_sub(o.x), self.y.saturating_sub(o.y), self.z.saturating_sub(o.z))
    }
}

impl From<[i32; 3]> for Pos {
    fn from(a: [i32; 3]) -> Self {
        Pos::new(a[0], a[1], a[2])
    }
}

impl std::fmt::Display for Pos {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "({}, {}, {})", self.x, self.y, self.z)
    }
}

/// An entity position in continuous space.
#[derive(Clone, Copy, Debug, PartialEq, Default, Serialize, Deserialize)]
pub struct Vec3 {
    pub x: f64,
    pub y: f64,
    pub z: f64,
}

impl Vec3 {
    pub const fn new(x: f64, y: f64, z: f64) -> Self {
        Vec3 { x, y, z }
    }

    /// The block this point lies in.
    pub fn block(self) -> Pos {
        Pos::new(self.x.floor() as i32, self.y.floor() as i32, self.z.floor() as i32)
    }

    pub fn distance(self, o: Vec3) -> f64 {
        ((self.x - o.x).powi(2) + (self.y - o.y).powi(2) + (self.z - o.z).powi(2)).sqrt()
    }
}

/// An inclusive axis-aligned box of blocks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct BBox {
    pub min: Pos,
    pub max: Pos,
}

impl BBox {
    /// The box spanning two corners, given in any order.
    pub fn new(a: Pos, b: Pos) -> Self {
        BBox {
            min: Pos::new(a.x.min(b.x), a.y.min(b.y), a.z.min(b.z)),
            max: Pos::new(a.x.max(b.x), a.y.max(b.y), a.z.max(b.z)),
        }
    }

    /// The cube of blocks within `radius` (Chebyshev) of `c`.
    pub fn around(c: Pos, radius: i32) -> Self {
        BBox::new(c - Pos::new(radius, radius, radius), c + Pos::new(radius, radius, radius))
    }

    pub fn contains(&self, p: Pos) -> bool {
        (self.min.x..=self.max.x).contains(&p.x)
            && (self.min.y..=self.max.y).contains(&p.y)
            && (self.min.z..=self.max.z).contains(&p.z)
    }

    /// Number of blocks in the box, exact for any box of `i32` corners (saturating at
    /// `u64::MAX`, which only a box wider than 2⁶⁴ blocks in all could reach).
    pub fn volume(&self) -> u64 {
        let [x, y, z] = self.extent();
        x.saturating_mul(y).saturating_mul(z)
    }

    /// Extent along x, y, z in blocks, without overflow: a box from `i32::MIN` to `i32::MAX` is
    /// 2³² blocks long.
    pub fn extent(&self) -> [u64; 3] {
        let e = |lo: i32, hi: i32| (hi as i64 - lo as i64 + 1).max(0) as u64;
        [e(self.min.x, self.max.x), e(self.min.y, self.max.y), e(self.min.z, self.max.z)]
    }

    /// Extent along x, y, z in blocks (at most `i32::MAX`: see [`BBox::extent`] for the exact
    /// figure of a box wider than that).
    pub fn size(&self) -> [i32; 3] {
        self.extent().map(|e| e.min(i32::MAX as u64) as i32)
    }

    /// The smallest box holding both.
    pub fn union(&self, o: &BBox) -> BBox {
        BBox::new(
            Pos::new(self.min.x.min(o.min.x), self.min.y.min(o.min.y), self.min.z.min(o.min.z)),
            Pos::new(self.max.x.max(o.max.x), self.max.y.max(o.max.y), self.max.z.max(o.max.z)),
        )
    }

    /// Every position in the box, x fastest, then z, then y (bottom layer first).
    pub fn iter(&self) -> impl Iterator<Item = Pos> + '_ {
        let b = *self;
        (b.min.y..=b.max.y).flat_map(move |y| {
            (b.min.z..=b.max.z).flat_map(move |z| (b.min.x..=b.max.x).map(move |x| Pos::new(x, y, z)))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_world_wide_box_is_measured_without_overflow() {
        let b = BBox::new(Pos::new(i32::MIN, 5, 0), Pos::new(i32::MAX, 5, 0));
        assert_eq!(b.extent(), [1 << 32, 1, 1]);
        assert_eq!(b.volume(), 1 << 32, "not 0, as a wrapped size once said");
        assert_eq!(b.size(), [i32::MAX, 1, 1]);
        let all = BBox::new(Pos::new(i32::MIN, i32::MIN, i32::MIN), Pos::new(i32::MAX, i32::MAX, i32::MAX));
        assert_eq!(all.volume(), u64::MAX, "saturates");
        // A box around the edge of the world stays small.
        let edge = BBox::around(Pos::new(i32::MAX, 0, i32::MIN), 8);
        assert_eq!(edge.volume(), 9 * 17 * 9);
    }

    #[test]
    fn box_corners_in_any_order() {
        let b = BBox::new(Pos::new(3, 1, -2), Pos::new(0, 4, 2));
        assert_eq!(b.min, Pos::new(0, 1, -2));
        assert_eq!(b.max, Pos::new(3, 4, 2));
        assert_eq!(b.volume(), 4 * 4 * 5);
        assert_eq!(b.iter().count(), 80);
        assert!(b.contains(Pos::new(0, 4, 2)) && !b.contains(Pos::new(0, 5, 2)));
    }

    #[test]
    fn neighbours() {
        let p = Pos::new(0, 0, 0);
        assert_eq!(p.neighbours26().count(), 26);
        assert!(p.neighbours26().all(|n| n.chebyshev(p) == 1));
        assert_eq!(Vec3::new(-0.5, 4.0, 2.9).block(), Pos::new(-1, 4, 2));
    }
}
