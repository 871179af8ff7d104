//! A hut (shack, cabin, shed): the simplest shelter, log walls with a doorway, one window and a
//! flat plank roof, straight on the ground.
//!
//! Compared with a house it has no floor, no corner posts and no pitched roof, so it is quick to
//! build and reads as rough. The doorway is 2 high in the middle of the north wall (z = 0); the
//! window is in the middle of the back wall at y = 1.
//!
//! Sizes: `s` (5) wide and long, walls 3 high (doorway and lintel) with the roof on top. At least
//! 3 each way and 3 high. Default blocks: oak log walls, oak plank roof, glass window.

use super::{Canvas, Plan, count, perimeter};
use crate::schematics::SchematicError;
use crate::schematics::materials::{Defaults, Palette};
use crate::schematics::sizes::{Axis, Measure, Sizing};

pub(super) const DEFAULTS: Defaults =
    Defaults { main: "oak_log", trim: "oak_log", floor: "oak_planks", roof: "oak_planks", window: "glass" };

struct Hut {
    w: i64,
    l: i64,
    /// Wall layers; the roof is the layer above.
    h: i64,
}

impl Plan for Hut {
    fn estimate(&self) -> u64 {
        let (w, l, h) = (self.w as f64, self.l as f64, self.h as f64);
        count(2.0 * (w + l) * h + w * l)
    }

    fn extents(&self) -> [i64; 3] {
        [self.w, self.h + 1, self.l]
    }

    fn draw(&self, canvas: &mut Canvas, palette: &Palette) {
        let (w, l, h) = (self.w, self.l, self.h);
        let middle = w / 2;
        for y in 0..h {
            for (x, z) in perimeter(w, l) {
                if z == 0 && x == middle && y < 2 {
                    continue;
                }
                let window = z == l - 1 && x == middle && y == 1;
                canvas.put(x, y, z, if window { palette.window } else { palette.main });
            }
        }
        canvas.fill((0, h, 0), (w - 1, h, l - 1), palette.roof);
    }
}

pub(super) fn plan(s: &Sizing) -> Result<Box<dyn Plan>, SchematicError> {
    let main = s.main(&[Axis::Size, Axis::Width], |scale| scale);
    let w = s.axis(Axis::Width, main).at_least(3, "a hut", "wide")?;
    let l = s.axis(Axis::Length, main).at_least(3, "a hut", "long")?;
    let h = s.axis(Axis::Height, Measure::implied(3)).at_least(3, "a hut", "high")?;
    Ok(Box::new(Hut { w, l, h }))
}
