//! Temporary support for a block with nothing to lean on (an arch's top, a floating part): the
//! chain of scaffold cells the edit engine places first, from something solid up to it.

use super::TaskContext;
use super::blueprint::Blueprint;
use crate::world::Pos;
use crate::world::rules::{MAX_Y, MIN_Y, has_support};
use rustc_hash::{FxHashMap, FxHashSet};
use std::collections::VecDeque;

/// The shortest chain of empty cells from a cell that can hold a block (it touches something
/// solid) to `floating`, which has nothing to lean on. Cells of the build and bodies are
/// avoided; downward cells are tried first so supports tend to stand on the ground. Beyond the
/// search's span, a straight column down to the ground is tried.
pub(super) fn support_chain(ctx: &TaskContext, floating: Pos, blueprint: &Blueprint) -> Option<Vec<Pos>> {
    nearest_support(ctx, floating, blueprint).or_else(|| column_support(ctx, floating, blueprint))
}

/// A straight column under `floating`, down to the first block (at most 64 cells).
fn column_support(ctx: &TaskContext, floating: Pos, blueprint: &Blueprint) -> Option<Vec<Pos>> {
    let world = &*ctx.world;
    let mut column = Vec::new();
    for d in 1..=64 {
        let p = floating.down(d);
        if p.y < MIN_Y || !world.block_at(p).is_air() || blueprint.contains(p) || ctx.body_at(p) {
            return None;
        }
        column.push(p);
        if has_support(p, |q| world.block_at(q)) {
            column.reverse();
            return Some(column);
        }
    }
    None
}

fn nearest_support(ctx: &TaskContext, floating: Pos, blueprint: &Blueprint) -> Option<Vec<Pos>> {
    const MAX_VISITED: usize = 20_000;
    const MAX_SPAN: i32 = 16;
    let world = &*ctx.world;
    let mut parent: FxHashMap<Pos, Pos> = FxHashMap::default();
    let mut seen: FxHashSet<Pos> = FxHashSet::default();
    let mut queue = VecDeque::from([floating]);
    seen.insert(floating);
    while let Some(q) = queue.pop_front() {
        if seen.len() > MAX_VISITED {
            return None;
        }
        let f = q.faces();
        // faces(): +x, -x, +y, -y, +z, -z → try down first, up last.
        for n in [f[3], f[0], f[1], f[4], f[5], f[2]] {
            if !(MIN_Y..=MAX_Y).contains(&n.y) || n.chebyshev(floating) > MAX_SPAN || !seen.insert(n) {
                continue;
            }
            if !world.block_at(n).is_air() || blueprint.contains(n) || ctx.body_at(n) {
                continue;
            }
            parent.insert(n, q);
            if has_support(n, |q| world.block_at(q)) {
                let mut chain = vec![n];
                let mut at = n;
                while let Some(&up) = parent.get(&at) {
                    if up == floating {
                        break;
                    }
                    chain.push(up);
                    at = up;
                }
                return Some(chain);
            }
            queue.push_back(n);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tasks::Limits;
    use crate::tasks::context::Ledger;
    use crate::tasks::testing::block;
    use crate::world::Actor;
    use crate::world::embedded::EmbeddedWorld;

    #[test]
    fn a_support_chain_runs_from_something_solid_to_the_floating_block() {
        let mut w = EmbeddedWorld::flat();
        w.set_block_by(Pos::new(3, 5, 0), block("stone"), Actor::World);
        let limits = Limits::default();
        let (mut changes, mut ledger) = (Vec::new(), Ledger::default());
        let ctx = TaskContext::new(&mut w, &limits, &mut changes, &mut ledger);
        let bp = Blueprint::new([(Pos::new(3, 7, 0), block("red_wool"))]);
        // Straight down onto the stone: one support block.
        assert_eq!(support_chain(&ctx, Pos::new(3, 7, 0), &bp), Some(vec![Pos::new(3, 6, 0)]));
        let chain = support_chain(&ctx, Pos::new(9, 8, 0), &bp).unwrap();
        assert_eq!(chain.first(), Some(&Pos::new(9, 5, 0)), "rests on the ground");
        assert_eq!(chain.last(), Some(&Pos::new(9, 7, 0)), "ends under the floating block");
        assert!(chain.windows(2).all(|p| p[0].manhattan(p[1]) == 1));
        // High up, beyond the search's span: a plain column.
        assert_eq!(support_chain(&ctx, Pos::new(0, 40, 9), &bp).map(|c| c.len()), Some(35));
    }
}
