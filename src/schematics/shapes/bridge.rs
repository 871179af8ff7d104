//! Bridges: a deck with railings along both sides, raised on piers when it is tall.
//!
//! The deck runs along x (the bridge's length) and is open at both ends. Railings are one block
//! high on the two outer rows of the deck, so the walkway is the rows between them; a bridge
//! narrower than 3 has no railings (they would fill it). With a height above 2 the deck is lifted
//! to height − 2 and stands on piers under both railings, at the ends and about every 6 blocks,
//! so it can span a valley or river with its piers on the bottom; y = 0 is the bottom of the
//! piers.
//!
//! Sizes: `2s` (10) long (a bare number or `length`), 5 wide (`width`, "wide", "narrow"), 2 high
//! (deck and railing; "tall" or `height` raise it). Default blocks: oak plank deck, oak log
//! railings and piers.

use super::{Canvas, Plan, count};
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

/// Distance between piers along the bridge.
const PIER_SPACING: i64 = 6;

struct Bridge {
    span: i64,
    w: i64,
    h: i64,
}

impl Bridge {
    fn railings(&self) -> bool {
        self.w >= 3 && self.h >= 2
    }

    fn deck_y(&self) -> i64 {
        if self.railings() { self.h - 2 } else { self.h - 1 }
    }

    /// Piers at both ends and every `PIER_SPACING` blocks, skipping one that would stand
    /// right next to the far end's.
    fn is_pier(&self, x: i64) -> bool {
        let last = self.span - 1;
        x == 0 || x == last || (x % PIER_SPACING == 0 && last - x >= 3)
    }
}

impl Plan for Bridge {
    fn estimate(&self) -> u64 {
        let (span, w, deck) = (self.span as f64, self.w as f64, self.deck_y() as f64);
        let piers = (span / PIER_SPACING as f64 + 2.0) * 2.0 * deck;
        count(span * w + 2.0 * span + piers)
    }

    fn extents(&self) -> [i64; 3] {
        [self.span, self.h, self.w]
    }

    fn draw(&self, canvas: &mut Canvas, palette: &Palette) {
        let (span, w, deck) = (self.span, self.w, self.deck_y());
        let edges = [0, w - 1];
        for x in (0..span).filter(|&x| self.is_pier(x)) {
            for z in edges {
                canvas.fill((x, 0, z), (x, deck - 1, z), palette.trim);
            }
        }
        canvas.fill((0, deck, 0), (span - 1, deck, w - 1), palette.main);
        if self.railings() {
            for z in edges {
                canvas.fill((0, deck + 1, z), (span - 1, deck + 1, z), palette.trim);
            }
        }
    }
}

pub(super) fn plan(s: &Sizing) -> Result<Box<dyn Plan>, SchematicError> {
    let main = s.main(&[Axis::Size, Axis::Length], |scale| 2 * scale);
    let span = s.axis(Axis::Length, main).value;
    let w = s.axis(Axis::Width, Measure::implied(5)).value;
    let h = s.axis(Axis::Height, Measure::implied(2)).value;
    Ok(Box::new(Bridge { span, w, h }))
}
