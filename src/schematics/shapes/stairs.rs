//! Staircases: steps rising one block per block forward.
//!
//! Each step is a full column down to the ground, so the staircase is solid underneath: it
//! stands on its own, and every block rests on the one below. Steps climb towards +z (south):
//! the bottom step is on the north side, where a player coming from the north starts walking up.
//!
//! Sizes: `s` (5) steps; a bare number, `height` or `length` sets the number of steps (so it is
//! always as long as it is high). 2 blocks wide along x ("wide", "narrow" or `width` change it).
//! "Hollow" is ignored: without the filling the steps would float. Default block: cobblestone.

use super::{Canvas, Plan, count};
use crate::schematics::SchematicError;
use crate::schematics::materials::{Defaults, Palette};
use crate::schematics::sizes::{Axis, Measure, Sizing};

pub(super) const DEFAULTS: Defaults = Defaults::plain("cobblestone");

struct Stairs {
    steps: i64,
    w: i64,
}

impl Plan for Stairs {
    fn estimate(&self) -> u64 {
        let n = self.steps as f64;
        count(self.w as f64 * n * (n + 1.0) / 2.0)
    }

    fn extents(&self) -> [i64; 3] {
        [self.w, self.steps, self.steps]
    }

    fn draw(&self, canvas: &mut Canvas, palette: &Palette) {
        for step in 0..self.steps {
            canvas.fill((0, 0, step), (self.w - 1, step, step), palette.main);
        }
    }
}

pub(super) fn plan(s: &Sizing) -> Result<Box<dyn Plan>, SchematicError> {
    let main = s.main(&[Axis::Size, Axis::Height, Axis::Length], |scale| scale);
    let steps = s.axis(Axis::Height, main).value;
    let w = s.axis(Axis::Width, Measure::implied(2)).value;
    Ok(Box::new(Stairs { steps, w }))
}
