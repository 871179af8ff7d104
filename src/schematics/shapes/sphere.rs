//! Round solids: spheres, ellipsoids and domes, solid or hollow.
//!
//! All three are one ellipsoid test. With a cell's offset from the centre measured in half-blocks
//! (so even and odd diameters are both exact integers), a cell is inside when
//! (X/W)² + (Y/H)² + (Z/L)² ≤ 1 for diameters W, H, L; computed in 128-bit integers, so there is
//! no rounding and no overflow. A diameter-5 sphere is then rows of 3, 5, 5, 5, 3 at its equator,
//! which is how players draw circles by hand.
//!
//! Sizes, from the scale `s`:
//! - sphere / ball: diameter `s` (5); a bare number or `radius` r (diameter 2r+1) sets it, and
//!   a `width`, `height` or `length` stretches that axis into an ellipsoid.
//! - ellipsoid / egg: `s + 2` wide (x), `s` high and long.
//! - dome: the top half of a sphere `s + 2` across (7 wide, 4 high); `height` flattens or raises
//!   it. Domes are hollow unless "solid": a shell with an open bottom, standing on the ground.
//!
//! Hollow shapes are a closed shell `thickness` thick (1), watertight face to face.

use super::rows::{Shell, Span, draw_rows, symmetric_span};
use super::{Canvas, Plan, count, product};
use crate::schematics::SchematicError;
use crate::schematics::materials::{Defaults, Palette};
use crate::schematics::sizes::{Axis, Measure, Sizing};
use std::f64::consts::PI;

pub(super) const DEFAULTS: Defaults = Defaults::plain("stone_bricks");

/// An ellipsoid with diameters `d` (x, y, z); when `keep_from` is set only layers y ≥ that are
/// drawn, moved down to y = 0 (a dome).
struct Ellipsoid {
    d: [i64; 3],
    shell: Option<i64>,
    keep_from: i64,
}

impl Ellipsoid {
    /// Whether cell (x, y, z) is inside: X²·H²·L² + Y²·W²·L² + Z²·W²·H² ≤ W²·H²·L², with X, Y, Z
    /// the doubled offsets from the centre.
    fn inside(&self, x: i64, y: i64, z: i64) -> bool {
        let [w, h, l] = self.d.map(i128::from);
        let doubled = |c: i64, d: i128| 2 * i128::from(c) - (d - 1);
        let (xx, yy, zz) = (doubled(x, w), doubled(y, h), doubled(z, l));
        let (w2, h2, l2) = (w * w, h * h, l * l);
        xx * xx * h2 * l2 + yy * yy * w2 * l2 + zz * zz * w2 * h2 <= w2 * h2 * l2
    }

    fn span(&self, y: i64, z: i64) -> Span {
        if !(0..self.d[1]).contains(&y) || !(0..self.d[2]).contains(&z) {
            return None;
        }
        symmetric_span(self.d[0], |x| self.inside(x, y, z))
    }

    fn kept_fraction(&self) -> f64 {
        (self.d[1] - self.keep_from) as f64 / self.d[1] as f64
    }
}

impl Plan for Ellipsoid {
    fn estimate(&self) -> u64 {
        let [a, b, c] = self.d.map(|d| d as f64 / 2.0);
        // Cells whose centres are inside: up to half a block beyond the smooth surface.
        let solid = 4.0 / 3.0 * PI * (a + 0.5) * (b + 0.5) * (c + 0.5);
        let whole = match self.shell {
            None => solid,
            Some(t) => {
                // Knud Thomsen's surface formula, times the shell thickness, times 1.5 because a
                // voxel shell has more cells than its area where the surface is slanted.
                let p = 1.6075;
                let area =
                    4.0 * PI * (((a * b).powf(p) + (a * c).powf(p) + (b * c).powf(p)) / 3.0).powf(1.0 / p);
                (area * t as f64 * 1.5).min(solid)
            }
        };
        // Small shapes are mostly edge: never estimate beyond the bounding box, nor far below it.
        count(whole * self.kept_fraction() + 8.0).min(product(&self.extents()))
    }

    fn extents(&self) -> [i64; 3] {
        [self.d[0], self.d[1] - self.keep_from, self.d[2]]
    }

    fn draw(&self, canvas: &mut Canvas, palette: &Palette) {
        let shell = self.shell.map(|thickness| Shell { thickness, across_y: true, across_z: true });
        let span = |y: i64, z: i64| self.span(y, z);
        draw_rows(
            canvas,
            self.keep_from..self.d[1],
            0..self.d[2],
            &span,
            shell,
            palette.main,
            self.keep_from,
        );
    }
}

fn shell(s: &Sizing, hollow: bool) -> Option<i64> {
    hollow.then(|| s.axis(Axis::Thickness, Measure::implied(1)).value)
}

pub(super) fn sphere(s: &Sizing, hollow: bool) -> Result<Box<dyn Plan>, SchematicError> {
    let main = s.main(&[Axis::Size, Axis::Radius, Axis::Width, Axis::Height, Axis::Length], |scale| scale);
    let d = [Axis::Width, Axis::Height, Axis::Length].map(|a| s.axis(a, main).value);
    Ok(Box::new(Ellipsoid { d, shell: shell(s, hollow), keep_from: 0 }))
}

pub(super) fn ellipsoid(s: &Sizing, hollow: bool) -> Result<Box<dyn Plan>, SchematicError> {
    let main = s.main(&[Axis::Size, Axis::Radius, Axis::Width], |scale| scale + 2);
    let minor = main.map(|m| m - 2);
    let d = [
        s.axis(Axis::Width, main).value,
        s.axis(Axis::Height, minor).value,
        s.axis(Axis::Length, minor).value,
    ];
    Ok(Box::new(Ellipsoid { d, shell: shell(s, hollow), keep_from: 0 }))
}

/// The top `h` layers of an ellipsoid `w` × (2h − 1) × `l`: its widest layer is the bottom one.
pub(super) fn dome(s: &Sizing, hollow: bool) -> Result<Box<dyn Plan>, SchematicError> {
    let main = s.main(&[Axis::Size, Axis::Radius, Axis::Width, Axis::Length], |scale| scale + 2);
    let w = s.axis(Axis::Width, main).value;
    let l = s.axis(Axis::Length, main).value;
    let h = s.axis(Axis::Height, main.map(|m| (m + 1) / 2)).value;
    let full = h.saturating_mul(2) - 1;
    Ok(Box::new(Ellipsoid { d: [w, full, l], shell: shell(s, hollow), keep_from: h - 1 }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::world::Block;

    fn drawn(e: &Ellipsoid) -> Canvas {
        let stone = Block::from_name("stone_bricks").unwrap();
        let palette = Palette { main: stone, trim: stone, floor: stone, roof: stone, window: stone };
        let mut c = Canvas::new(1_000_000);
        e.draw(&mut c, &palette);
        c
    }

    #[test]
    fn small_spheres() {
        let count = |d: i64| drawn(&Ellipsoid { d: [d; 3], shell: None, keep_from: 0 }).into_blocks().len();
        assert_eq!(count(1), 1);
        assert_eq!(count(2), 8);
        assert_eq!(count(3), 19);
        assert_eq!(count(5), 81);
    }

    #[test]
    fn hollow_sphere_matches_the_neighbour_rule() {
        for d in 1..12 {
            let solid = Ellipsoid { d: [d; 3], shell: None, keep_from: 0 };
            let hollow = drawn(&Ellipsoid { d: [d; 3], shell: Some(1), keep_from: 0 });
            for x in 0..d {
                for y in 0..d {
                    for z in 0..d {
                        let inside = |x, y, z| {
                            (0..d).contains(&x)
                                && (0..d).contains(&y)
                                && (0..d).contains(&z)
                                && solid.inside(x, y, z)
                        };
                        let surface = inside(x, y, z)
                            && [(1, 0, 0), (-1, 0, 0), (0, 1, 0), (0, -1, 0), (0, 0, 1), (0, 0, -1)]
                                .iter()
                                .any(|(dx, dy, dz)| !inside(x + dx, y + dy, z + dz));
                        assert_eq!(hollow.get(x, y, z).is_some(), surface, "d={d} at {x},{y},{z}");
                    }
                }
            }
        }
    }

    #[test]
    fn estimates_bound_the_count() {
        for d in [1, 2, 3, 5, 8, 13, 21] {
            for shell in [None, Some(1), Some(2)] {
                let e = Ellipsoid { d: [d, d + 1, d], shell, keep_from: 0 };
                let real = drawn(&e).into_blocks().len() as u64;
                assert!(e.estimate() >= real, "d={d} {shell:?}: {} < {real}", e.estimate());
                assert!(e.estimate() <= 3 * real + 10, "d={d} {shell:?}: {} vs {real}", e.estimate());
            }
        }
    }
}
