//! Towers and pillars.
//!
//! A tower is a castle tower: hollow square walls with a doorway, a floor on top to stand on, and
//! battlements (every other block of the top ring, one higher) around it. "Solid" fills the
//! walls in and drops the doorway, which would lead nowhere. A pillar (column, post, pole) is
//! simply a solid upright block of stone.
//!
//! Sizes: a tower's main measure is its height, `2s + 2` (12), and it is about half as wide as it
//! is high, at least 3 (5 for the default). Below 5 high there is no room for a doorway under the
//! top floor, so short towers have none. The doorway is 2 high in the middle of the north (z = 0)
//! wall. A pillar is `2s` (10) high and 1 wide; "thick" or a width widens it.
//!
//! Default blocks: stone bricks for towers, quartz pillar blocks for pillars.

use super::{Canvas, Plan, perimeter, product};
use crate::schematics::SchematicError;
use crate::schematics::materials::{Defaults, Palette};
use crate::schematics::sizes::{Axis, Measure, Sizing};

pub(super) const DEFAULTS: Defaults = Defaults::plain("stone_bricks");
pub(super) const PILLAR_DEFAULTS: Defaults = Defaults::plain("quartz_pillar");

struct Tower {
    w: i64,
    l: i64,
    h: i64,
    hollow: bool,
}

impl Tower {
    /// The layer of the top floor; the battlements stand on it.
    fn deck(&self) -> i64 {
        self.h - 2
    }

    fn has_door(&self) -> bool {
        self.hollow && self.deck() >= 3
    }
}

impl Plan for Tower {
    fn estimate(&self) -> u64 {
        let ring = (2 * (self.w + self.l)) as u64;
        let walls = if self.hollow {
            ring.saturating_mul(self.deck() as u64)
        } else {
            product(&[self.w, self.l, self.deck()])
        };
        walls.saturating_add(product(&[self.w, self.l])).saturating_add(ring)
    }

    fn extents(&self) -> [i64; 3] {
        [self.w, self.h, self.l]
    }

    fn draw(&self, canvas: &mut Canvas, palette: &Palette) {
        let (w, l, deck) = (self.w, self.l, self.deck());
        let door_x = w / 2;
        for y in 0..deck {
            if self.hollow {
                for (x, z) in perimeter(w, l) {
                    if !(self.has_door() && z == 0 && x == door_x && y < 2) {
                        canvas.put(x, y, z, palette.main);
                    }
                }
            } else {
                canvas.fill((0, y, 0), (w - 1, y, l - 1), palette.main);
            }
        }
        canvas.fill((0, deck, 0), (w - 1, deck, l - 1), palette.main);
        for (x, z) in perimeter(w, l) {
            if (x + z) % 2 == 0 {
                canvas.put(x, deck + 1, z, palette.trim);
            }
        }
    }
}

pub(super) fn tower(s: &Sizing, hollow: bool) -> Result<Box<dyn Plan>, SchematicError> {
    let main = s.main(&[Axis::Size, Axis::Height], |scale| 2 * scale + 2);
    let h = s.axis(Axis::Height, main).at_least(3, "a tower", "high")?;
    let width = s.axis(Axis::Width, main.map(|m| ((m - 1) / 2).max(3)));
    let w = width.at_least(3, "a tower", "wide")?;
    let l = s.axis(Axis::Length, Measure::implied(w)).at_least(3, "a tower", "long")?;
    Ok(Box::new(Tower { w, l, h, hollow }))
}

/// A solid upright box.
struct Pillar {
    w: i64,
    l: i64,
    h: i64,
}

impl Plan for Pillar {
    fn estimate(&self) -> u64 {
        product(&[self.w, self.l, self.h])
    }

    fn extents(&self) -> [i64; 3] {
        [self.w, self.h, self.l]
    }

    fn draw(&self, canvas: &mut Canvas, palette: &Palette) {
        canvas.fill((0, 0, 0), (self.w - 1, self.h - 1, self.l - 1), palette.main);
    }
}

pub(super) fn pillar(s: &Sizing) -> Result<Box<dyn Plan>, SchematicError> {
    let main = s.main(&[Axis::Size, Axis::Height], |scale| 2 * scale);
    let h = s.axis(Axis::Height, main).value;
    let w = s.axis(Axis::Thickness, s.axis(Axis::Width, Measure::implied(1))).value;
    let l = s.axis(Axis::Length, Measure::implied(w)).value;
    Ok(Box::new(Pillar { w, l, h }))
}
