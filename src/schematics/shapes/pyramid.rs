//! Stepped pyramids.
//!
//! Each layer is the one below shrunk by a block on every side, as players build them, so a base
//! of 7 gives layers 7, 5, 3, 1. A `height` other than the natural one (half the base, rounded
//! up) spreads or compresses the steps evenly (see `taper`). A non-square base keeps shrinking
//! both ways until its short side runs out, leaving a ridge on top.
//!
//! Sizes: base `s + 2` (7) on each side; a bare number is the base. Hollow pyramids keep their
//! outer surface, including the bottom layer, so they are closed like a hollow cube. Default
//! block: sandstone, the pyramid's natural material.

use super::rows::{Shell, draw_rows};
use super::{Canvas, Plan, count, product, taper};
use crate::schematics::SchematicError;
use crate::schematics::materials::{Defaults, Palette};
use crate::schematics::sizes::{Axis, Measure, Sizing};

pub(super) const DEFAULTS: Defaults = Defaults::plain("sandstone");

struct Pyramid {
    w: i64,
    l: i64,
    h: i64,
    hollow: bool,
}

impl Pyramid {
    fn short_side(&self) -> i64 {
        self.w.min(self.l)
    }
}

impl Plan for Pyramid {
    fn estimate(&self) -> u64 {
        // Layers shrink evenly, so the count is close to an integral over the height. Rounding
        // can leave a layer up to half a block wider on each side than the smooth slope: taking
        // the slope one block wider, plus one extra base layer, keeps the estimate above.
        let (w, l, h) = (self.w as f64 + 1.0, self.l as f64 + 1.0, self.h as f64);
        let u = (self.short_side() - 1) as f64;
        let base = w * l;
        if u <= 0.0 || h <= 1.0 {
            return product(&[self.w, self.l, self.h]);
        }
        let per_u = (h - 1.0) / u;
        let solid = per_u * (w * l * u - (w + l) * u * u / 2.0 + u * u * u / 3.0) + base;
        let estimate = if self.hollow {
            // Outline of every layer, plus the bottom and the exposed step tops (together at
            // most two bases).
            let rings = per_u * (2.0 * (w + l) * u - 2.0 * u * u) + 2.0 * (w + l);
            (rings + 2.0 * base).min(solid)
        } else {
            solid
        };
        count(estimate).min(product(&[self.w, self.l, self.h]))
    }

    fn extents(&self) -> [i64; 3] {
        [self.w, self.h, self.l]
    }

    fn draw(&self, canvas: &mut Canvas, palette: &Palette) {
        let (w, l, h, side) = (self.w, self.l, self.h, self.short_side());
        let span = move |y: i64, z: i64| {
            if !(0..h).contains(&y) {
                return None;
            }
            let inset = taper(y, side, h);
            (z >= inset && z <= l - 1 - inset).then_some((inset, w - 1 - inset))
        };
        let shell = self.hollow.then_some(Shell { thickness: 1, across_y: true, across_z: true });
        draw_rows(canvas, 0..h, 0..l, &span, shell, palette.main, 0);
    }
}

pub(super) fn plan(s: &Sizing, hollow: bool) -> Result<Box<dyn Plan>, SchematicError> {
    let main = s.main(&[Axis::Size, Axis::Width, Axis::Length], |scale| scale + 2);
    let w = s.axis(Axis::Width, main).value;
    let l = s.axis(Axis::Length, main).value;
    let h = s.axis(Axis::Height, Measure::implied((w.min(l) + 1) / 2)).value;
    Ok(Box::new(Pyramid { w, l, h, hollow }))
}
