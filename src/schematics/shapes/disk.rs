//! Round flat shapes and their upright extension: circles (disks), rings and cylinders.
//!
//! The circle test is the sphere's in two dimensions (half-block units, exact integers), so a
//! disk is the equator of a sphere of the same size. A ring keeps only the cells within
//! `thickness` of the rim, looking sideways only, so stacking layers gives a tube rather than a
//! lidded can; a hollow cylinder does look up and down, and is closed at both ends.
//!
//! Sizes: circles and rings are `s + 2` (7) across, a bare number or `radius` r (2r+1) sets the
//! diameter, and `width`/`length` differing give an ellipse. They are one layer (`height`, or a
//! disk's `thickness`, adds layers). A cylinder is `s` across and `s` high. Default block: stone
//! bricks.

use super::rows::{Shell, Span, draw_rows, symmetric_span};
use super::{Canvas, Plan, count, product};
use crate::schematics::SchematicError;
use crate::schematics::materials::{Defaults, Palette};
use crate::schematics::sizes::{Axis, Measure, Sizing};
use std::f64::consts::PI;

pub(super) const DEFAULTS: Defaults = Defaults::plain("stone_bricks");

/// An upright elliptic cylinder `w` × `h` × `l`; a disk is one `h` = 1.
struct Round {
    w: i64,
    l: i64,
    h: i64,
    shell: Option<Shell>,
}

impl Round {
    fn inside(&self, x: i64, z: i64) -> bool {
        let (w, l) = (i128::from(self.w), i128::from(self.l));
        let xx = 2 * i128::from(x) - (w - 1);
        let zz = 2 * i128::from(z) - (l - 1);
        xx * xx * l * l + zz * zz * w * w <= w * w * l * l
    }

    fn span(&self, y: i64, z: i64) -> Span {
        if !(0..self.h).contains(&y) || !(0..self.l).contains(&z) {
            return None;
        }
        symmetric_span(self.w, |x| self.inside(x, z))
    }
}

impl Plan for Round {
    fn estimate(&self) -> u64 {
        let (w, l, h) = (self.w as f64, self.l as f64, self.h as f64);
        let area = PI / 4.0 * w * l + (w + l);
        let solid = area * h;
        let estimate = match self.shell {
            None => solid,
            Some(s) => {
                let t = s.thickness as f64;
                // Rim (circumference, ×1.5 for the voxel staircase) times thickness, per layer,
                // plus two full lids for a closed cylinder.
                let rim = PI * (w + l) / 2.0 * 1.5 * t * h;
                let lids = if s.across_y { 2.0 * area * t } else { 0.0 };
                (rim + lids + 8.0).min(solid)
            }
        };
        count(estimate).min(product(&[self.w, self.h, self.l]))
    }

    fn extents(&self) -> [i64; 3] {
        [self.w, self.h, self.l]
    }

    fn draw(&self, canvas: &mut Canvas, palette: &Palette) {
        let span = |y: i64, z: i64| self.span(y, z);
        draw_rows(canvas, 0..self.h, 0..self.l, &span, self.shell, palette.main, 0);
    }
}

/// Diameters across x and z: a bare number, a radius, or a width/length, else `default(scale)`.
fn footprint(s: &Sizing, default: impl FnOnce(i64) -> i64) -> (Measure, i64, i64) {
    let main = s.main(&[Axis::Size, Axis::Radius, Axis::Width, Axis::Length], default);
    (main, s.axis(Axis::Width, main).value, s.axis(Axis::Length, main).value)
}

pub(super) fn disk(s: &Sizing, hollow: bool) -> Result<Box<dyn Plan>, SchematicError> {
    let (_, w, l) = footprint(s, |scale| scale + 2);
    let h = s.axis(Axis::Height, s.axis(Axis::Thickness, Measure::implied(1))).value;
    let shell = hollow.then_some(Shell { thickness: 1, across_y: false, across_z: true });
    Ok(Box::new(Round { w, l, h, shell }))
}

pub(super) fn ring(s: &Sizing) -> Result<Box<dyn Plan>, SchematicError> {
    let (_, w, l) = footprint(s, |scale| scale + 2);
    let h = s.axis(Axis::Height, Measure::implied(1)).value;
    let thickness = s.axis(Axis::Thickness, Measure::implied(1)).value;
    Ok(Box::new(Round { w, l, h, shell: Some(Shell { thickness, across_y: false, across_z: true }) }))
}

pub(super) fn cylinder(s: &Sizing, hollow: bool) -> Result<Box<dyn Plan>, SchematicError> {
    let (main, w, l) = footprint(s, |scale| scale);
    let h = s.axis(Axis::Height, main).value;
    let shell = hollow.then(|| Shell {
        thickness: s.axis(Axis::Thickness, Measure::implied(1)).value,
        across_y: true,
        across_z: true,
    });
    Ok(Box::new(Round { w, l, h, shell }))
}
