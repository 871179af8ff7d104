//! Fences: an enclosure (a pen for animals) round a rectangle, posts and rails.
//!
//! The registry has no thin fence blocks, so a fence is full blocks: log posts at the corners and
//! every 4 blocks, plank rails between them, 2 high so animals cannot jump it. No gap is left: a
//! pen with a hole does not hold animals; players open it where they like. A fence only one block
//! wide or long is a straight run.
//!
//! Sizes: `2s` (10) on each side (a bare number, `width`, `length`), 2 high; a fence with only
//! its length (or width) said is a straight run that long, along x. Default blocks: oak
//! log posts, oak plank rails; a player's material makes both.

use super::{Canvas, Plan, count, perimeter};
use crate::schematics::SchematicError;
use crate::schematics::materials::{Defaults, Palette};
use crate::schematics::sizes::{Axis, Measure, Sizing};

pub(super) const DEFAULTS: Defaults = Defaults {
    main: "oak_planks",
    trim: "oak_log",
    floor: "oak_planks",
    roof: "oak_planks",
    window: "glass",
};

const POST_SPACING: i64 = 4;

struct Fence {
    w: i64,
    l: i64,
    h: i64,
}

impl Plan for Fence {
    fn estimate(&self) -> u64 {
        let (w, l, h) = (self.w as f64, self.l as f64, self.h as f64);
        count(2.0 * (w + l) * h)
    }

    fn extents(&self) -> [i64; 3] {
        [self.w, self.h, self.l]
    }

    fn draw(&self, canvas: &mut Canvas, palette: &Palette) {
        let (w, l) = (self.w, self.l);
        for (x, z) in perimeter(w, l) {
            let corner = (x == 0 || x == w - 1) && (z == 0 || z == l - 1);
            let on_x_side = z == 0 || z == l - 1;
            let post = corner || if on_x_side { x % POST_SPACING == 0 } else { z % POST_SPACING == 0 };
            canvas.fill((x, 0, z), (x, self.h - 1, z), if post { palette.trim } else { palette.main });
        }
    }
}

pub(super) fn plan(s: &Sizing) -> Result<Box<dyn Plan>, SchematicError> {
    let main = s.main(&[Axis::Size, Axis::Width, Axis::Length], |scale| 2 * scale);
    // "a fence 10 long" (one side said, no size) is a straight run of 10, not a 10 × 10 pen.
    let one_side = s.explicit(Axis::Size).is_none() && (s.explicit(Axis::Width).is_none() != s.explicit(Axis::Length).is_none());
    let (w, l) = match (one_side, s.explicit(Axis::Width)) {
        (true, Some(w)) => (w, 1),
        (true, None) => (s.axis(Axis::Length, main).value, 1),
        (false, _) => (s.axis(Axis::Width, main).value, s.axis(Axis::Length, main).value),
    };
    let h = s.axis(Axis::Height, Measure::implied(2)).value;
    Ok(Box::new(Fence { w, l, h }))
}
