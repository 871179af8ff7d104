//! A small house: a floor, four walls with a doorway and glass windows, and a pitched roof.
//!
//! Layout (x east, z south, door on the north side at z = 0):
//! - y = 0: a full floor, which doubles as the foundation.
//! - y = 1 up to the wall height: walls round the edge, log posts at the corners. The doorway is
//!   two blocks high in the middle of the north wall. Windows are at eye level (y = 2, and y = 3
//!   when the walls are tall enough), every other block along each wall but never next to a
//!   corner or the doorway.
//! - above: a stepped gable roof, ridge running north–south. Its bottom layer is a full ceiling;
//!   above it only the roof's surface is built, so the attic is hollow.
//!
//! Sizes: `s + 2` (7) wide and long, walls 4 high counting the floor (more for big houses); a bare
//! number is the width. At least 5 wide and long (room for a doorway between corner posts) and 4
//! high (floor, 2-high doorway, lintel); an explicit number below that is refused, size words
//! below it are rounded up.
//!
//! Default blocks: oak plank walls, oak log corners, cobblestone floor, spruce plank roof, glass
//! windows. A player's colour or material replaces the walls and corners only.

use super::rows::{Shell, draw_rows};
use super::{Canvas, Plan, count, perimeter};
use crate::schematics::SchematicError;
use crate::schematics::materials::{Defaults, Palette};
use crate::schematics::sizes::{Axis, Sizing};

pub(super) const DEFAULTS: Defaults = Defaults {
    main: "oak_planks",
    trim: "oak_log",
    floor: "cobblestone",
    roof: "spruce_planks",
    window: "glass",
};

struct House {
    w: i64,
    l: i64,
    /// Layers from the ground to the top of the walls, floor included.
    h: i64,
}

impl House {
    fn door_x(&self) -> i64 {
        self.w / 2
    }

    fn roof_height(&self) -> i64 {
        (self.w + 1) / 2
    }

    fn is_doorway(&self, x: i64, y: i64, z: i64) -> bool {
        z == 0 && x == self.door_x() && (1..=2).contains(&y)
    }

    fn is_window(&self, x: i64, y: i64, z: i64) -> bool {
        if y < 2 || y > (self.h - 2).min(3) {
            return false;
        }
        let spot = |p: i64, len: i64| p >= 2 && p <= len - 3 && p % 2 == 0;
        if x == 0 || x == self.w - 1 {
            spot(z, self.l)
        } else if z == self.l - 1 {
            spot(x, self.w)
        } else {
            z == 0 && spot(x, self.w) && (x - self.door_x()).abs() >= 2
        }
    }
}

impl Plan for House {
    fn estimate(&self) -> u64 {
        let (w, l, h, r) = (self.w as f64, self.l as f64, self.h as f64, self.roof_height() as f64);
        let floor_and_ceiling = 2.0 * w * l;
        let walls = 2.0 * (w + l) * h;
        let roof = 2.0 * l * r + w * r;
        count(floor_and_ceiling + walls + roof)
    }

    fn extents(&self) -> [i64; 3] {
        [self.w, self.h + self.roof_height(), self.l]
    }

    fn draw(&self, canvas: &mut Canvas, palette: &Palette) {
        let (w, l, h) = (self.w, self.l, self.h);
        canvas.fill((0, 0, 0), (w - 1, 0, l - 1), palette.floor);
        for y in 1..h {
            for (x, z) in perimeter(w, l) {
                let corner = (x == 0 || x == w - 1) && (z == 0 || z == l - 1);
                let block = if corner {
                    palette.trim
                } else if self.is_doorway(x, y, z) {
                    continue;
                } else if self.is_window(x, y, z) {
                    palette.window
                } else {
                    palette.main
                };
                canvas.put(x, y, z, block);
            }
        }
        let r = self.roof_height();
        let roof = move |y: i64, z: i64| {
            let k = y - h;
            ((0..r).contains(&k) && (0..l).contains(&z)).then_some((k, w - 1 - k))
        };
        let shell = Shell { thickness: 1, across_y: true, across_z: true };
        draw_rows(canvas, h..h + r, 0..l, &roof, Some(shell), palette.roof, 0);
    }
}

pub(super) fn plan(s: &Sizing) -> Result<Box<dyn Plan>, SchematicError> {
    let main = s.main(&[Axis::Size, Axis::Width], |scale| scale + 2);
    let w = s.axis(Axis::Width, main).at_least(5, "a house", "wide")?;
    let l = s.axis(Axis::Length, main).at_least(5, "a house", "long")?;
    let h = s.axis(Axis::Height, main.map(|m| 2 + m / 3)).at_least(4, "a house", "high")?;
    Ok(Box::new(House { w, l, h }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::schematics::materials::block;

    #[test]
    fn default_house_count() {
        let house = House { w: 7, l: 7, h: 4 };
        let palette = Palette::new(DEFAULTS, None);
        let mut c = Canvas::new(10_000);
        house.draw(&mut c, &palette);
        // floor 49, walls 24 × 3 − doorway 2, ceiling 49, roof layers 20 + 16 + 7.
        assert_eq!(c.into_blocks().len(), 49 + 70 + 49 + 43);
        assert!(house.estimate() >= 211);
        assert_eq!(block("spruce_planks"), palette.roof);
    }
}
