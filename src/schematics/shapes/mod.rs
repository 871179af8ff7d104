//! The shape families, one generator per file, and what they share.
//!
//! Each family turns a request's sizes into a plan (its dimensions, resolved and checked) that
//! can estimate its block count cheaply and then draw itself. The estimate comes first so an
//! enormous request is refused before anything is allocated; it is a closed formula, never a loop
//! over the shape, and errs on the high side.

mod arch;
mod bridge;
mod canvas;
mod cuboid;
mod disk;
mod fence;
mod house;
mod hut;
mod pyramid;
mod rows;
mod sphere;
mod stairs;
mod tower;
mod triangle;

pub(crate) use canvas::Canvas;

use super::SchematicError;
use super::catalogue::ShapeKind;
use super::materials::{Defaults, Palette};
use super::sizes::Sizing;

/// A shape with its dimensions decided, ready to be counted and drawn.
pub(crate) trait Plan {
    /// About how many blocks the shape has, computed without generating it; at least the real
    /// count for all but the smallest shapes, saturating rather than overflowing.
    fn estimate(&self) -> u64;
    /// Extents along x, y, z.
    fn extents(&self) -> [i64; 3];
    /// Puts the shape's blocks on `canvas`, minimum corner at (0,0,0).
    fn draw(&self, canvas: &mut Canvas, palette: &Palette);
}

/// The plan for `kind` from the request's sizes. `hollow` is already decided (the player's word,
/// else the family's habit).
pub(crate) fn plan(kind: ShapeKind, sizing: &Sizing, hollow: bool) -> Result<Box<dyn Plan>, SchematicError> {
    use ShapeKind::*;
    match kind {
        Cuboid => cuboid::cuboid(sizing, hollow),
        Square | Floor => cuboid::flat(sizing, hollow, false),
        Rectangle => cuboid::flat(sizing, hollow, true),
        Wall => cuboid::wall(sizing),
        Line => cuboid::line(sizing),
        Sphere => sphere::sphere(sizing, hollow),
        Dome => sphere::dome(sizing, hollow),
        Ellipsoid => sphere::ellipsoid(sizing, hollow),
        Pyramid => pyramid::plan(sizing, hollow),
        Tower => tower::tower(sizing, hollow),
        Pillar => tower::pillar(sizing),
        Arch => arch::plan(sizing),
        Disk => disk::disk(sizing, hollow),
        Ring => disk::ring(sizing),
        Cylinder => disk::cylinder(sizing, hollow),
        Triangle => triangle::plan(sizing, hollow),
        Stairs => stairs::plan(sizing),
        House => house::plan(sizing),
        Hut => hut::plan(sizing),
        Bridge => bridge::plan(sizing),
        Fence => fence::plan(sizing),
    }
}

/// The blocks `kind` is built of when the player names none.
pub(crate) fn defaults(kind: ShapeKind) -> Defaults {
    use ShapeKind::*;
    match kind {
        Cuboid | Square | Rectangle | Line => cuboid::DEFAULTS,
        Floor => cuboid::FLOOR_DEFAULTS,
        Wall => cuboid::WALL_DEFAULTS,
        Sphere | Dome | Ellipsoid => sphere::DEFAULTS,
        Pyramid => pyramid::DEFAULTS,
        Tower => tower::DEFAULTS,
        Pillar => tower::PILLAR_DEFAULTS,
        Arch => arch::DEFAULTS,
        Disk | Ring | Cylinder => disk::DEFAULTS,
        Triangle => triangle::DEFAULTS,
        Stairs => stairs::DEFAULTS,
        House => house::DEFAULTS,
        Hut => hut::DEFAULTS,
        Bridge => bridge::DEFAULTS,
        Fence => fence::DEFAULTS,
    }
}

/// A non-negative count from a float estimate: rounded up, saturating, NaN treated as huge.
pub(super) fn count(f: f64) -> u64 {
    if f.is_nan() { u64::MAX } else { f.max(0.0).ceil() as u64 }
}

/// The product of some extents, saturating.
pub(super) fn product(extents: &[i64]) -> u64 {
    extents
        .iter()
        .try_fold(1u128, |acc, e| acc.checked_mul(u128::try_from((*e).max(0)).ok()?))
        .map_or(u64::MAX, |p| u64::try_from(p).unwrap_or(u64::MAX))
}

/// How far in from each side layer `y` of a tapering shape (pyramid, triangle) is, for a base
/// `base` wide narrowing over `height` layers: the inset grows evenly from 0 at the bottom to
/// the middle at the top, rounded to whole blocks. A base-7 pyramid 4 high has layers 7, 5, 3, 1;
/// a taller one repeats layers, a flatter one skips them.
pub(super) fn taper(y: i64, base: i64, height: i64) -> i64 {
    if height <= 1 {
        return 0;
    }
    let most = (base - 1) / 2;
    let (num, den) = (y.saturating_mul(base - 1), 2 * (height - 1));
    (num.saturating_add(den / 2) / den).min(most)
}

/// The cells of the outline of a `w` × `l` rectangle, as (x, z), each once; all of it when it is
/// one block thin.
pub(super) fn perimeter(w: i64, l: i64) -> impl Iterator<Item = (i64, i64)> {
    (0..l).flat_map(move |z| {
        let edge = z == 0 || z == l - 1;
        (0..w).filter(move |&x| edge || x == 0 || x == w - 1).map(move |x| (x, z))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn taper_layers() {
        let widths = |base: i64, h: i64| (0..h).map(|y| base - 2 * taper(y, base, h)).collect::<Vec<_>>();
        assert_eq!(widths(7, 4), vec![7, 5, 3, 1]);
        assert_eq!(widths(5, 3), vec![5, 3, 1]);
        assert_eq!(widths(6, 3), vec![6, 4, 2]);
        assert_eq!(widths(3, 6), vec![3, 3, 3, 1, 1, 1]);
        assert_eq!(widths(9, 1), vec![9]);
    }

    #[test]
    fn perimeter_cells() {
        assert_eq!(perimeter(3, 3).count(), 8);
        assert_eq!(perimeter(5, 1).count(), 5);
        assert_eq!(perimeter(1, 4).count(), 4);
        assert_eq!(perimeter(0, 4).count(), 0);
    }

    #[test]
    fn saturating_counts() {
        assert_eq!(product(&[i32::MAX as i64; 3]), u64::MAX);
        assert_eq!(product(&[3, 3, 3]), 27);
        assert_eq!(count(f64::INFINITY), u64::MAX);
        assert_eq!(count(f64::NAN), u64::MAX);
        assert_eq!(count(2.1), 3);
    }
}
