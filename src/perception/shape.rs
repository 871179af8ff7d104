//! A guess at what a group of cells looks like, from its geometry alone, so "the yellow cube" or
//! "that tower" finds an object nobody has named yet.
//!
//! Only the box's proportions, how full the box is, and where the cells sit (on the surface,
//! at the corners) are used — cheap to compute and easy to predict. The words chosen here are
//! the keys of the synonym groups in `memory::query::names`, so "box", "column" or "platform"
//! find the same objects.

use rustc_hash::FxHashSet;

use crate::world::{BBox, Pos};

/// Shape words for a group of cells with this box (most specific first; never empty).
pub fn guess(cells: &FxHashSet<Pos>, bbox: &BBox) -> Vec<&'static str> {
    let [sx, sy, sz] = bbox.size();
    let (wide, narrow, high) = (sx.max(sz), sx.min(sz), sy);
    let n = cells.len();
    let fill = n as f64 / bbox.volume() as f64;
    let mut out = Vec::new();
    if n == 1 {
        return vec!["block"];
    }
    if high == 1 {
        if narrow == 1 {
            out.push("line");
        } else {
            out.push("floor");
        }
        return out;
    }
    // Tall and thin: a pillar (one block across) and/or a tower.
    if high >= 2 * wide && wide <= 5 {
        if wide == 1 {
            out.push("pillar");
        }
        if high >= 3 {
            out.push("tower");
        }
        if !out.is_empty() {
            return out;
        }
    }
    if narrow == 1 && wide >= 2 {
        out.push("wall");
        return out;
    }
    let dims = [sx, sy, sz];
    let (lo, hi) = (*dims.iter().min().unwrap_or(&1), *dims.iter().max().unwrap_or(&1));
    let even = hi as f64 / lo as f64 <= 1.34;
    let surface = cells.iter().filter(|p| on_surface(p, bbox)).count() as f64 / n as f64;
    if even && lo >= 2 {
        if fill >= 0.85 || (surface >= 0.95 && shell_complete(cells, bbox)) {
            out.push("cube");
        } else if lo >= 3 && corners_empty(cells, bbox) && (0.3..=0.8).contains(&fill) {
            out.push("sphere");
        }
    }
    if looks_like_house(cells, bbox) {
        out.push("house");
    }
    if out.is_empty() {
        out.push("structure");
    }
    out
}

fn on_surface(p: &Pos, b: &BBox) -> bool {
    p.x == b.min.x || p.x == b.max.x || p.y == b.min.y || p.y == b.max.y || p.z == b.min.z || p.z == b.max.z
}

/// Is (almost) every cell of the box's surface filled? A hollow cube is still a cube.
fn shell_complete(cells: &FxHashSet<Pos>, b: &BBox) -> bool {
    let [sx, sy, sz] = b.size();
    let inner = (sx - 2).max(0) as u64 * (sy - 2).max(0) as u64 * (sz - 2).max(0) as u64;
    let shell = b.volume() - inner;
    let filled = cells.iter().filter(|p| on_surface(p, b)).count() as u64;
    filled as f64 >= 0.9 * shell as f64
}

fn corners_empty(cells: &FxHashSet<Pos>, b: &BBox) -> bool {
    let xs = [b.min.x, b.max.x];
    let ys = [b.min.y, b.max.y];
    let zs = [b.min.z, b.max.z];
    xs.iter().all(|&x| ys.iter().all(|&y| zs.iter().all(|&z| !cells.contains(&Pos::new(x, y, z)))))
}

/// Walls around an empty inside, and a roof: what people build to live in. Walls at least 3
/// high all round and no roof yet are a house too (one being built: players call it "the
/// house" before it has a roof).
fn looks_like_house(cells: &FxHashSet<Pos>, b: &BBox) -> bool {
    let [sx, sy, sz] = b.size();
    if sx < 3 || sy < 3 || sz < 3 {
        return false;
    }
    let inside = BBox::new(b.min + Pos::new(1, 0, 1), b.max - Pos::new(1, 1, 1));
    let inside_cells = inside.volume();
    let inside_filled = cells.iter().filter(|p| inside.contains(**p)).count() as u64;
    let roof = (b.min.x..=b.max.x)
        .flat_map(|x| (b.min.z..=b.max.z).map(move |z| (x, z)))
        .filter(|&(x, z)| (b.min.y + 1..=b.max.y).any(|y| cells.contains(&Pos::new(x, y, z))))
        .count() as f64
        / (sx * sz) as f64;
    let side = |p: &Pos| p.x == b.min.x || p.x == b.max.x || p.z == b.min.z || p.z == b.max.z;
    let side_cells = 2 * (sx + sz - 2) as u64 * sy as u64;
    let walls = cells.iter().filter(|p| side(p)).count() as f64 / side_cells as f64;
    let top_layer = (b.min.x..=b.max.x)
        .flat_map(|x| (b.min.z..=b.max.z).map(move |z| Pos::new(x, b.max.y, z)))
        .filter(|p| cells.contains(p))
        .count() as f64
        / (sx * sz) as f64;
    let empty_inside = inside_filled as f64 <= 0.25 * inside_cells as f64;
    let roofed = walls >= 0.5 && top_layer >= 0.5 && roof >= 0.8;
    let walled = walls >= 0.8;
    empty_inside && (roofed || walled)
}

/// The size class of a box ("tiny" … "huge"), from its largest extent.
pub fn size_class(bbox: &BBox) -> &'static str {
    let [sx, sy, sz] = bbox.size();
    match sx.max(sy).max(sz) {
        ..=1 => "tiny",
        2..=3 => "small",
        4..=8 => "medium",
        9..=20 => "big",
        _ => "huge",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::memory::objects::bbox_of;

    fn shape(cells: Vec<Pos>) -> Vec<&'static str> {
        let b = bbox_of(cells.iter().copied()).unwrap();
        guess(&cells.into_iter().collect(), &b)
    }

    fn fill(a: Pos, b: Pos) -> Vec<Pos> {
        BBox::new(a, b).iter().collect()
    }

    #[test]
    fn guesses() {
        assert_eq!(shape(fill(Pos::new(0, 0, 0), Pos::new(0, 5, 0))), vec!["pillar", "tower"]);
        assert_eq!(shape(fill(Pos::new(0, 0, 0), Pos::new(1, 7, 1))), vec!["tower"]);
        assert_eq!(shape(fill(Pos::new(0, 0, 0), Pos::new(2, 2, 2))), vec!["cube"]);
        assert_eq!(shape(fill(Pos::new(0, 0, 0), Pos::new(6, 3, 0))), vec!["wall"]);
        assert_eq!(shape(fill(Pos::new(0, 0, 0), Pos::new(4, 0, 4))), vec!["floor"]);
        assert_eq!(shape(fill(Pos::new(0, 0, 0), Pos::new(4, 0, 0))), vec!["line"]);
        assert_eq!(shape(vec![Pos::new(0, 0, 0)]), vec!["block"]);
        // A ball of radius 3.
        let ball: Vec<Pos> = fill(Pos::new(-3, -3, -3), Pos::new(3, 3, 3))
            .into_iter()
            .filter(|p| ((p.x * p.x + p.y * p.y + p.z * p.z) as f64) <= 9.5)
            .collect();
        assert_eq!(shape(ball), vec!["sphere"]);
        // A hollow 5×4×5 box with a door: walls and a roof.
        let b = BBox::new(Pos::new(0, 0, 0), Pos::new(4, 3, 4));
        let house: Vec<Pos> = b
            .iter()
            .filter(|p| p.x == 0 || p.x == 4 || p.z == 0 || p.z == 4 || p.y == 3)
            .filter(|p| !(p.x == 2 && p.z == 0 && p.y <= 1))
            .collect();
        assert!(shape(house).contains(&"house"));
        // Walls 4 high all round with no roof yet: a house being built.
        let walls: Vec<Pos> = b.iter().filter(|p| p.x == 0 || p.x == 4 || p.z == 0 || p.z == 4).collect();
        assert!(shape(walls).contains(&"house"));
        // A low pen (walls 2 high) is not.
        let pen: Vec<Pos> = BBox::new(Pos::new(0, 0, 0), Pos::new(4, 1, 4)).iter().filter(|p| p.x == 0 || p.x == 4 || p.z == 0 || p.z == 4).collect();
        assert!(!shape(pen).contains(&"house"));
    }

    #[test]
    fn sizes() {
        assert_eq!(size_class(&BBox::new(Pos::new(0, 0, 0), Pos::new(0, 0, 0))), "tiny");
        assert_eq!(size_class(&BBox::new(Pos::new(0, 0, 0), Pos::new(2, 2, 2))), "small");
        assert_eq!(size_class(&BBox::new(Pos::new(0, 0, 0), Pos::new(0, 9, 0))), "big");
        assert_eq!(size_class(&BBox::new(Pos::new(0, 0, 0), Pos::new(30, 0, 0))), "huge");
    }
}
