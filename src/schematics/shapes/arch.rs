//! Arches: two legs joined by a curved top, standing in the x–y plane.
//!
//! The opening is a rectangle topped by a half-ellipse: as wide as the gap between the legs, and
//! rising as much as half that width allows while leaving one block of arch above it. Like the
//! round shapes, the curve is tested in half-block units, so odd and even spans are symmetric and
//! exact. A 7-wide, 6-high arch leaves a 5-wide opening, 4 blocks high at the sides and 5 in the
//! middle: room to walk through.
//!
//! Sizes: span `s + 2` (7) along x, height one less than the span (6), and 1 block deep along z
//! (`thickness`, `length` or "thick" make it deeper). At least 3 wide and 2 high, or it has no
//! opening. Default block: stone bricks.

use super::{Canvas, Plan, product};
use crate::schematics::SchematicError;
use crate::schematics::materials::{Defaults, Palette};
use crate::schematics::sizes::{Axis, Measure, Sizing};

pub(super) const DEFAULTS: Defaults = Defaults::plain("stone_bricks");

struct Arch {
    w: i64,
    h: i64,
    depth: i64,
}

impl Arch {
    /// Whether (x, y) is part of the opening.
    fn open(&self, x: i64, y: i64) -> bool {
        let (w, h) = (self.w, self.h);
        if x < 1 || x > w - 2 || y < 0 || y > h - 2 {
            return false;
        }
        let gap = w - 2;
        // Rise of the curve: half the gap (rounded up), but leave a row of arch on top.
        let rise = ((gap + 1) / 2).min(h - 2);
        let spring = h - 1 - rise;
        if y < spring {
            return true;
        }
        // Half-ellipse over the gap, in doubled units: semi-axes `gap` across, `2·rise` up.
        let xx = i128::from(2 * x - (w - 1));
        let yy = i128::from(2 * (y - spring) + 1);
        let (a, b) = (i128::from(gap), i128::from(2 * rise));
        xx * xx * b * b + yy * yy * a * a <= a * a * b * b
    }
}

impl Plan for Arch {
    fn estimate(&self) -> u64 {
        product(&[self.w, self.h, self.depth])
    }

    fn extents(&self) -> [i64; 3] {
        [self.w, self.h, self.depth]
    }

    fn draw(&self, canvas: &mut Canvas, palette: &Palette) {
        for y in 0..self.h {
            for x in 0..self.w {
                if !self.open(x, y) {
                    for z in 0..self.depth {
                        canvas.put(x, y, z, palette.main);
                    }
                }
            }
        }
    }
}

pub(super) fn plan(s: &Sizing) -> Result<Box<dyn Plan>, SchematicError> {
    let main = s.main(&[Axis::Size, Axis::Width], |scale| scale + 2);
    let w = s.axis(Axis::Width, main).at_least(3, "an arch", "wide")?;
    let h = s.axis(Axis::Height, main.map(|m| m - 1)).at_least(2, "an arch", "high")?;
    let depth = s.axis(Axis::Thickness, s.axis(Axis::Length, Measure::implied(1))).value;
    Ok(Box::new(Arch { w, h, depth }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn picture(a: &Arch) -> Vec<String> {
        (0..a.h).rev().map(|y| (0..a.w).map(|x| if a.open(x, y) { '.' } else { '#' }).collect()).collect()
    }

    #[test]
    fn default_arch_shape() {
        let a = Arch { w: 7, h: 6, depth: 1 };
        assert_eq!(picture(&a), vec!["#######", "##...##", "#.....#", "#.....#", "#.....#", "#.....#"]);
        assert_eq!(picture(&Arch { w: 3, h: 3, depth: 1 }), vec!["###", "#.#", "#.#"]);
        assert_eq!(picture(&Arch { w: 4, h: 2, depth: 1 }), vec!["####", "#..#"]);
    }
}
