//! Where a build goes: its footprint centred on the spot asked for, standing on the ground,
//! moved clear of the thing it is placed beside and of the speaker and agent; round a thing
//! when it has room inside ("a fence around the sheep"), or hanging below one ("a pillar under
//! the floating block").

use crate::interpreter::context::Turn;
use crate::interpreter::location::{self, Target};
use crate::schematics::{self, Schematic};
use crate::world::{BBox, Block, Pos};

/// Where a schematic goes for a target: its footprint centred on the spot, standing on the
/// ground, moved clear of the thing it is placed beside and of the speaker and agent.
pub(in crate::interpreter::actions) fn place(turn: &mut Turn, sch: &Schematic, t: &Target) -> Vec<(Pos, Block)> {
    if let Some(blocks) = round_it(turn, sch, t).or_else(|| under_it(turn, sch, t)) {
        return blocks;
    }
    let (blocks, moved) = placement(turn, sch, t);
    // A build moved a few blocks from where it was meant to go says where, and why.
    if let Some((steps, away, why)) = moved.filter(|(steps, _, _)| *steps >= MOVE_SAID) {
        let dir = crate::interpreter::directions::compass(away);
        turn.notes.push(format!("(I put it {steps} blocks {dir} of the spot you meant: {why}.)"));
    }
    blocks
}

/// "a fence around the sheep": a shape with room inside for the thing (a fence, a ring) goes
/// round it, as near centred on it as leaves the speaker outside and its own blocks on clear
/// ground. `None` otherwise: it is then placed near the thing like any build.
fn round_it(turn: &Turn, sch: &Schematic, t: &Target) -> Option<Vec<(Pos, Block)>> {
    let a = t.anchor.filter(|_| t.around)?;
    let walls;
    let sch = if schematics::is_wall(&sch.name) {
        walls = walls_round(sch, a, turn.speaker_block());
        &walls
    } else {
        sch
    };
    let [sx, _, sz] = sch.size();
    let (cx, cz) = ((a.min.x + a.max.x).div_euclid(2), (a.min.z + a.max.z).div_euclid(2));
    // The ground just outside the thing (its own top is no ground for a ring round it).
    let y = location::ground(turn.world, a.min.x - 1, a.min.z - 1, a.min.y);
    let speaker = turn.speaker_block();
    // Shifts off centre, nearest first.
    let mut shifts: Vec<(i32, i32)> = (-sx / 2..=sx / 2).flat_map(|dx| (-sz / 2..=sz / 2).map(move |dz| (dx, dz))).collect();
    shifts.sort_by_key(|(dx, dz)| (dx.abs() + dz.abs(), dx.abs()));
    shifts.into_iter().find_map(|(dx, dz)| {
        let min = Pos::new(cx - sx / 2 + dx, y, cz - sz / 2 + dz);
        let inner = |p: Pos| p.x > min.x && p.x < min.x + sx - 1 && p.z > min.z && p.z < min.z + sz - 1;
        let on_it = (min.x..min.x + sx).contains(&speaker.x) && (min.z..min.z + sz).contains(&speaker.z);
        if !inner(a.min) || !inner(a.max) || on_it {
            return None;
        }
        let blocks = sch.translated(min);
        let columns: std::collections::HashSet<(i32, i32)> = blocks.iter().map(|(p, _)| (p.x, p.z)).collect();
        let room = (a.min.x..=a.max.x).all(|x| (a.min.z..=a.max.z).all(|z| !columns.contains(&(x, z))));
        let clear = blocks.iter().all(|(p, _)| !stands(turn, *p));
        (room && clear).then_some(blocks)
    })
}

/// "a stone pillar under the gold block": below a thing with air under it, a build hangs from
/// it, its top right under the thing, and reaches down no further than the ground: what does
/// not fit between the two is left off the top, so a pillar holds the thing up. `None` when
/// the thing stands on something (the spot below is then placed like any build) or the room
/// below is taken.
fn under_it(turn: &mut Turn, sch: &Schematic, t: &Target) -> Option<Vec<(Pos, Block)>> {
    t.anchor.filter(|_| t.step.is_some_and(|s| s.y < 0 && s.x == 0 && s.z == 0) && !t.exact && !t.inside)?;
    let top = t.pos;
    let solid = |y: i32| turn.world.block_at(Pos::new(top.x, y, top.z)).is_solid();
    if solid(top.y) {
        return None;
    }
    let floor = (top.y - 64..top.y).rev().find(|&y| solid(y))? + 1;
    let [sx, sy, sz] = sch.size();
    let min = Pos::new(top.x - sx / 2, floor.max(top.y - sy + 1), top.z - sz / 2);
    let blocks: Vec<(Pos, Block)> = sch.translated(min).into_iter().filter(|(p, _)| p.y <= top.y).collect();
    if blocks.is_empty() || blocks.iter().any(|(p, _)| stands(turn, *p)) {
        return None;
    }
    let high = top.y + 1 - min.y;
    if high < sy {
        turn.notes.push(format!("(It is {high} high: that is all the room between the ground and what it holds up.)"));
    }
    Some(blocks)
}

/// "a glass wall around the tower": four walls round the thing's footprint, two blocks clear of
/// it, as high as the wall asked for and of its block, with a gate (a gap two high in the
/// middle of the side towards `towards`) so nobody is shut in: the bot builds from inside.
fn walls_round(wall: &Schematic, a: BBox, towards: Pos) -> Schematic {
    let [_, h, _] = wall.size();
    let Some((block, _)) = wall.block_counts().first().copied() else { return wall.clone() };
    let [ax, _, az] = a.size();
    let (w, l) = (ax + 4, az + 4);
    // The gate's column, on the wall side nearest `towards` (relative to the ring's corner).
    let (cx, cz) = ((a.min.x + a.max.x).div_euclid(2), (a.min.z + a.max.z).div_euclid(2));
    let (dx, dz) = (towards.x - cx, towards.z - cz);
    let gate = if dx.abs() >= dz.abs() { (if dx > 0 { w - 1 } else { 0 }, l / 2) } else { (w / 2, if dz > 0 { l - 1 } else { 0 }) };
    let edge = move |x: i32, z: i32| x == 0 || z == 0 || x == w - 1 || z == l - 1;
    let blocks = (0..h.max(1)).flat_map(move |y| {
        (0..w).flat_map(move |x| (0..l).filter(move |&z| edge(x, z) && !((x, z) == gate && y < 2)).map(move |z| (Pos::new(x, y, z), block)))
    });
    Schematic::new(wall.name.clone(), blocks)
}

/// A build moved at least this many blocks says so.
const MOVE_SAID: i32 = 3;

/// The blocks of `sch` placed for `t`, and how far (in steps of which direction) and why they
/// had to move off the spot.
fn placement(turn: &Turn, sch: &Schematic, t: &Target) -> (Vec<(Pos, Block)>, Option<(i32, Pos, &'static str)>) {
    use crate::interpreter::directions::{forward, right};
    let f = forward(turn.speaker_look);
    let ahead = Pos::new(f.x, 0, f.z);
    // "next to me": beside the body, ahead or to a side, whichever is free soonest (ahead
    // first), not past whoever stands in front; never behind, out of the speaker's sight.
    let beside_a_body = t.near && t.step.is_none() && [turn.speaker_block(), turn.agent_pos()].contains(&t.pos);
    if beside_a_body {
        let r = right(turn.speaker_look);
        let sides = [ahead, r, Pos::new(-r.x, 0, -r.z)];
        let tries = sides.map(|away| placed_along(turn, sch, t, away));
        return tries.into_iter().min_by_key(|(_, moved)| moved.map_or(0, |m| m.0)).unwrap_or_default();
    }
    // Step along the direction (or away from the speaker) until nothing is in the way.
    placed_along(turn, sch, t, t.step.filter(|s| s.y == 0).unwrap_or(ahead))
}

/// [`placement`], stepping along `away` from the spot until nothing is in the way.
fn placed_along(turn: &Turn, sch: &Schematic, t: &Target, away: Pos) -> (Vec<(Pos, Block)>, Option<(i32, Pos, &'static str)>) {
    let size = sch.size();
    let mut centre = t.pos;
    let footprint = |c: Pos, y: i32| {
        let min = Pos::new(c.x - size[0] / 2, y, c.z - size[2] / 2);
        BBox::new(min, min + Pos::new(size[0] - 1, size[1] - 1, size[2] - 1))
    };
    let ground = |c: Pos| location::ground(turn.world, c.x, c.z, c.y);
    // Inside a thing or above/below it: the height is the target's, not the ground's.
    let vertical = t.step.is_some_and(|s| s.y != 0) || t.inside;
    // The bot steps out of the way of its own build: it keeps clear of where it stands only when
    // the place was not named ("in its place", "on top of it", "between me and the tower" are
    // that place).
    let named = vertical || t.across.is_some() || turn.antecedent.as_ref().and_then(|a| a.spot()) == Some(t.pos);
    let bodies = if named { vec![turn.speaker_block()] } else { vec![turn.speaker_block(), turn.agent_pos()] };
    // The boxes of the things that stand around: a hollow tower's inside is free of blocks, yet
    // no place for another build.
    let things: Vec<BBox> = if t.inside || t.exact {
        Vec::new()
    } else {
        turn.memory.objects_of_kind(crate::memory::MemoryKind::BlockObject).unwrap_or_default().iter().map(|o| o.bbox).collect()
    };
    let mut why = "";
    // Steps aside so far (a rise onto a thing's top is no step aside).
    let mut moves = 0;
    for _ in 0..64 {
        // Typed coordinates are the place exactly, height included ("at 1 7 0": a window).
        let y = if vertical || t.exact { centre.y } else { ground(centre) };
        let b = footprint(centre, y);
        let overlaps = |o: &BBox| o.min.x <= b.max.x && b.min.x <= o.max.x && o.min.y <= b.max.y && b.min.y <= o.max.y && o.min.z <= b.max.z && b.min.z <= o.max.z;
        let in_the_way = !t.exact && in_the_way(turn, &b, centre, vertical);
        // Beside a thing means beside it: standing on its top (the ground under a pillar is its
        // top) overlaps it too. Above or below it, only its blocks are in the way (a tower's roof
        // inside its battlements is on top of it).
        let beside = !vertical
            && t.anchor.filter(|_| !t.inside).is_some_and(|a| {
                a.min.x <= b.max.x && b.min.x <= a.max.x && a.min.z <= b.max.z && b.min.z <= a.max.z
            });
        let reason = if in_the_way {
            "something stands there"
        } else if bodies.iter().any(|p| b.contains(*p) || b.contains(p.up(1))) {
            "it would have been built on top of one of us"
        } else if turn.planned.iter().any(overlaps) {
            "I'm building something else there"
        } else if beside {
            "so it stands beside it, not in it"
        } else if things.iter().filter(|o| !(vertical && t.anchor == Some(**o))).any(overlaps) {
            "it would have been inside something else"
        } else {
            return (sch.translated(b.min), (moves > 0).then_some((moves, away, why)));
        };
        // On top of a thing, what is in the way is its top (battlements round a roof): the
        // build rises until it clears the whole thing, then steps aside like any other.
        let on_top = t.step.is_some_and(|s| s.y > 0) && t.anchor.is_some_and(|a| centre.y <= a.max.y);
        if on_top && in_the_way {
            centre = centre.up(1);
            continue;
        }
        why = reason;
        centre = centre + away;
        moves += 1;
    }
    let y = ground(centre);
    (sch.translated(footprint(centre, y).min), Some((64, away, why)))
}

/// Whether something stands where box `b` would go. A build never cuts into what stands there
/// (it may cut into a hillside: terrain the world made), and it stands on the ground, not on top
/// of another build, unless asked to (`vertical`: "on top of"); `centre` is the spot it is
/// centred on.
fn in_the_way(turn: &Turn, b: &BBox, centre: Pos, vertical: bool) -> bool {
    b.iter().any(|p| stands(turn, p))
        || (!vertical && {
            let under = turn.world.block_at(Pos::new(centre.x, b.min.y - 1, centre.z));
            under.is_solid() && !under.is_natural()
        })
}

/// Does something a build may not cut into stand at `p`? Terrain the world made does not.
fn stands(turn: &Turn, p: Pos) -> bool {
    let block = turn.world.block_at(p);
    block.is_solid() && !(block.is_natural() && turn.world.made_by_world(p))
}

