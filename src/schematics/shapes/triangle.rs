//! Triangles, standing upright in the x–y plane like a gable end.
//!
//! A flat triangle on the ground is hard to see from eye level; an upright one reads as a
//! triangle from anywhere in front. Rows narrow by the same even steps as a pyramid's layers
//! (see `taper`), so a base of 7 gives rows 7, 5, 3, 1.
//!
//! Sizes: base `s + 2` (7) along x, height half the base rounded up (4), 1 deep along z
//! (`thickness`/`length`). Hollow: the outline only. Default block: stone bricks.

use super::rows::{Shell, draw_rows};
use super::{Canvas, Plan, count, product, taper};
use crate::schematics::SchematicError;
use crate::schematics::materials::{Defaults, Palette};
use crate::schematics::sizes::{Axis, Measure, Sizing};

pub(super) const DEFAULTS: Defaults = Defaults::plain("stone_bricks");

struct Triangle {
    w: i64,
    h: i64,
    depth: i64,
    hollow: bool,
}

impl Plan for Triangle {
    fn estimate(&self) -> u64 {
        let (w, h, d) = (self.w as f64, self.h as f64, self.depth as f64);
        // Half the bounding rectangle, plus the rounding along the slopes and the top.
        let solid = (w * h / 2.0 + w + h) * d;
        let estimate = if self.hollow { ((w + 2.0 * h) * 2.0 * d).min(solid) } else { solid };
        count(estimate).min(product(&[self.w, self.h, self.depth]))
    }

    fn extents(&self) -> [i64; 3] {
        [self.w, self.h, self.depth]
    }

    fn draw(&self, canvas: &mut Canvas, palette: &Palette) {
        let (w, h, depth) = (self.w, self.h, self.depth);
        let span = move |y: i64, z: i64| {
            if !(0..h).contains(&y) || !(0..depth).contains(&z) {
                return None;
            }
            let inset = taper(y, w, h);
            Some((inset, w - 1 - inset))
        };
        let shell = self.hollow.then_some(Shell { thickness: 1, across_y: true, across_z: false });
        draw_rows(canvas, 0..h, 0..depth, &span, shell, palette.main, 0);
    }
}

pub(super) fn plan(s: &Sizing, hollow: bool) -> Result<Box<dyn Plan>, SchematicError> {
    let main = s.main(&[Axis::Size, Axis::Width], |scale| scale + 2);
    let w = s.axis(Axis::Width, main).value;
    let h = s.axis(Axis::Height, main.map(|m| (m + 1) / 2)).value;
    let depth = s.axis(Axis::Thickness, s.axis(Axis::Length, Measure::implied(1))).value;
    Ok(Box::new(Triangle { w, h, depth, hollow }))
}
