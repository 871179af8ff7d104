//! Drawing convex solids (and their hollow shells) one row at a time.
//!
//! A convex solid meets every line along x in one unbroken span, so a shape can be given as "the
//! x-span of row (y, z)". That is cheap to compute (a formula or a binary search per row), and it
//! makes hollowing exact and cheap too: a cell is interior when the cells `t` steps away along
//! each axis are all inside, and for a convex shape those six tests are enough. Per row, the
//! interior is then one interval (the row shrunk by `t` at both ends, intersected with the rows
//! `t` above, below, north and south), and the shell is the row minus that interval.
//!
//! The span function may be asked about rows outside the drawn range: that is how a dome stays
//! open at the bottom (the full sphere continues below the cut) while a cube's shell is closed
//! (nothing exists beyond its faces).

use super::Canvas;
use crate::world::Block;
use std::ops::Range;

/// An inclusive x-span, or `None` for an empty row.
pub(super) type Span = Option<(i64, i64)>;

/// How to hollow a solid: keep cells within `thickness` of the outside, looking across y
/// (up/down) and/or z (north/south) as well as along x. A flat ring looks only across z, so its
/// top and bottom are not counted as outside.
#[derive(Clone, Copy, Debug)]
pub(super) struct Shell {
    pub thickness: i64,
    pub across_y: bool,
    pub across_z: bool,
}

fn intersect(a: Span, b: Span) -> Span {
    let ((a0, a1), (b0, b1)) = (a?, b?);
    let (lo, hi) = (a0.max(b0), a1.min(b1));
    (lo <= hi).then_some((lo, hi))
}

/// Draws rows `ys` × `zs` of the solid given by `span`, whole or as a `shell`, at y - `y_shift`.
pub(super) fn draw_rows(
    canvas: &mut Canvas,
    ys: Range<i64>,
    zs: Range<i64>,
    span: &dyn Fn(i64, i64) -> Span,
    shell: Option<Shell>,
    block: Block,
    y_shift: i64,
) {
    for y in ys {
        for z in zs.clone() {
            if canvas.overflowed() {
                return;
            }
            let Some((a, b)) = span(y, z) else { continue };
            let interior = shell.and_then(|s| {
                let t = s.thickness.max(1);
                let mut inner = (a.saturating_add(t) <= b.saturating_sub(t)).then_some((a + t, b - t));
                if s.across_y {
                    inner = intersect(intersect(inner, span(y - t, z)), span(y + t, z));
                }
                if s.across_z {
                    inner = intersect(intersect(inner, span(y, z - t)), span(y, z + t));
                }
                inner
            });
            let mut put_run = |from: i64, to: i64| {
                for x in from..=to {
                    canvas.put(x, y - y_shift, z, block);
                }
            };
            match interior {
                None => put_run(a, b),
                Some((lo, hi)) => {
                    put_run(a, lo - 1);
                    put_run(hi + 1, b);
                }
            }
        }
    }
}

/// The span of a row of a solid that is symmetric about the middle of `0..width` and convex:
/// found by binary search for its first cell, given a test for whether a cell is inside.
pub(super) fn symmetric_span(width: i64, inside: impl Fn(i64) -> bool) -> Span {
    if width <= 0 {
        return None;
    }
    let middle = (width - 1) / 2;
    if !inside(middle) {
        return None;
    }
    let (mut lo, mut hi) = (0, middle);
    while lo < hi {
        let mid = lo + (hi - lo) / 2;
        if inside(mid) { hi = mid } else { lo = mid + 1 }
    }
    Some((lo, width - 1 - lo))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hollow_box_by_rows() {
        let stone = Block::from_name("stone_bricks").unwrap();
        let cube = |y: i64, z: i64| ((0..3).contains(&y) && (0..3).contains(&z)).then_some((0, 2));
        let mut c = Canvas::new(100);
        let shell = Shell { thickness: 1, across_y: true, across_z: true };
        draw_rows(&mut c, 0..3, 0..3, &cube, Some(shell), stone, 0);
        assert_eq!(c.get(1, 1, 1), None);
        assert_eq!(c.into_blocks().len(), 26);
    }

    #[test]
    fn spans() {
        assert_eq!(symmetric_span(7, |x| (2..=4).contains(&x)), Some((2, 4)));
        assert_eq!(symmetric_span(4, |x| x >= 1), Some((1, 2)));
        assert_eq!(symmetric_span(5, |_| false), None);
        assert_eq!(symmetric_span(0, |_| true), None);
        assert_eq!(intersect(Some((0, 5)), Some((6, 9))), None);
    }
}
