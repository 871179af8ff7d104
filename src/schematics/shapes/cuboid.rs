//! Box-like shapes: cubes and cuboids (solid or hollow), flat squares, rectangles and floors,
//! walls and lines.
//!
//! Sizes, from the scale `s` the size words give (5 by default):
//! - cube / cuboid / box: `s` on every side. A bare number is the edge; each side can be set
//!   ("a box 5 wide 2 high"). Hollow shells are `thickness` thick (1) and closed on all six faces.
//! - square, floor, platform: `s` × `s`, one layer (`height` or `thickness` sets the layers).
//!   A rectangle is half as wide again as it is long (7 × 5). Hollow: just the outline.
//! - wall: runs along x, `2s` long, `s` high, `thickness` 1 thick (2 when "thick"). Its length
//!   is `width`, else `length`, else `size`; "a wall 10 by 4" is 10 long, 4 high.
//! - line / row: `2s` blocks along x, one block thin.
//!
//! Default blocks: stone bricks (a neutral, built-looking block), floors oak planks, walls
//! cobblestone.

use super::rows::{Shell, draw_rows};
use super::{Canvas, Plan, product};
use crate::schematics::SchematicError;
use crate::schematics::materials::{Defaults, Palette};
use crate::schematics::sizes::{Axis, Measure, Sizing};

pub(super) const DEFAULTS: Defaults = Defaults::plain("stone_bricks");
pub(super) const FLOOR_DEFAULTS: Defaults = Defaults::plain("oak_planks");
pub(super) const WALL_DEFAULTS: Defaults = Defaults::plain("cobblestone");

/// A box `w` × `h` × `l`, solid or hollowed to a closed shell `t` thick; with `open_y` the shell
/// is an outline instead (only x and z count as outside), which is what a hollow square is.
struct Boxy {
    w: i64,
    h: i64,
    l: i64,
    shell: Option<i64>,
    open_y: bool,
}

impl Plan for Boxy {
    fn estimate(&self) -> u64 {
        let full = product(&[self.w, self.h, self.l]);
        let Some(t) = self.shell else { return full };
        let inner = |e: i64| (e - 2 * t).max(0);
        let hole = if self.open_y {
            product(&[inner(self.w), self.h, inner(self.l)])
        } else {
            product(&[inner(self.w), inner(self.h), inner(self.l)])
        };
        full.saturating_sub(hole)
    }

    fn extents(&self) -> [i64; 3] {
        [self.w, self.h, self.l]
    }

    fn draw(&self, canvas: &mut Canvas, palette: &Palette) {
        let (w, h, l) = (self.w, self.h, self.l);
        let span = move |y: i64, z: i64| ((0..h).contains(&y) && (0..l).contains(&z)).then_some((0, w - 1));
        let shell = self.shell.map(|thickness| Shell { thickness, across_y: !self.open_y, across_z: true });
        draw_rows(canvas, 0..h, 0..l, &span, shell, palette.main, 0);
    }
}

pub(super) fn cuboid(s: &Sizing, hollow: bool) -> Result<Box<dyn Plan>, SchematicError> {
    let main = s.main(&[Axis::Size, Axis::Width, Axis::Length, Axis::Height], |scale| scale);
    let shell = hollow.then(|| s.axis(Axis::Thickness, Measure::implied(1)).value);
    Ok(Box::new(Boxy {
        w: s.axis(Axis::Width, main).value,
        h: s.axis(Axis::Height, main).value,
        l: s.axis(Axis::Length, main).value,
        shell,
        open_y: false,
    }))
}

/// Squares, floors and platforms; a rectangle when `oblong`.
pub(super) fn flat(s: &Sizing, hollow: bool, oblong: bool) -> Result<Box<dyn Plan>, SchematicError> {
    let main = s.main(&[Axis::Size, Axis::Width, Axis::Length], |scale| scale);
    let width_base =
        if oblong && s.explicit(Axis::Width).is_none() { main.map(|m| m + (m / 2).max(1)) } else { main };
    let layers = s.axis(Axis::Height, s.axis(Axis::Thickness, Measure::implied(1)));
    Ok(Box::new(Boxy {
        w: s.axis(Axis::Width, width_base).value,
        h: layers.value,
        l: s.axis(Axis::Length, main).value,
        shell: hollow.then_some(1),
        open_y: true,
    }))
}

pub(super) fn wall(s: &Sizing) -> Result<Box<dyn Plan>, SchematicError> {
    let (width, length) = (s.explicit(Axis::Width), s.explicit(Axis::Length));
    let main = s.main(&[Axis::Size], |scale| 2 * scale);
    let run = match (width, length) {
        (Some(w), _) => w,
        (None, Some(l)) => l,
        (None, None) => s.axis(Axis::Length, main).value,
    };
    let height = match (s.explicit(Axis::Height), width, length) {
        (Some(h), _, _) => h,
        (None, Some(_), Some(l)) => l,
        _ => s.axis(Axis::Height, Measure::implied((run / 2).max(1))).value,
    };
    let thickness = s.axis(Axis::Thickness, Measure::implied(1)).value;
    Ok(Box::new(Boxy { w: run, h: height, l: thickness, shell: None, open_y: false }))
}

pub(super) fn line(s: &Sizing) -> Result<Box<dyn Plan>, SchematicError> {
    let main = s.main(&[Axis::Size, Axis::Length, Axis::Width], |scale| 2 * scale);
    let run = s.axis(Axis::Length, main).value;
    Ok(Box::new(Boxy { w: run, h: 1, l: 1, shell: None, open_y: false }))
}
