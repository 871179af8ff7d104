//! Questions about a place rather than a thing: "where am i?" (the speaker's own spot, said
//! from the bot's side), "what am i standing on?" and "what's at 15 5 -19?" (the thing remembered there, else the block).
//! Their forms name the place as a `location` of the filters (understanding's `asking` rules
//! write them), so the answer needs no memory search.

use super::context::Turn;
use super::describe;
use super::directions;
use crate::logical_form::{Attribute, AttributeName, FixedReference, Filters, Output};
use crate::world::{Pos, Vec3};

/// The answer, when the question's filters name a place this module answers about.
pub fn answer(turn: &mut Turn, filters: &Filters) -> Option<String> {
    let special = filters.location.as_ref()?.reference_object.as_ref()?.special_reference.as_ref()?;
    if let Some(span) = special.coordinates() {
        let n: Vec<i32> = turn.words(span).iter().filter_map(|w| w.parse().ok()).collect();
        let [x, y, z] = n.as_slice() else { return None };
        return Some(what_is_at(turn, Pos::new(*x, *y, *z)));
    }
    if special.fixed() != Some(FixedReference::Speaker) {
        return None;
    }
    let me = turn.speaker_pos;
    // "what am i standing on": the block under the speaker's feet.
    let asks_name = matches!(&filters.output, Some(Output::Attribute(a)) if a.attribute == Attribute::Name(AttributeName::Name));
    if asks_name {
        let under = turn.world.block_at(me.block().down(1));
        return Some(format!("You're standing on {}.", under.name().replace('_', " ")));
    }
    Some(format!("You're at {}, {}.", me.block(), from_the_bot(turn.agent_pos().feet(), me)))
}

/// "At (15, 5, -19) there's red wool, part of the red cube.": the block there, and the thing it
/// belongs to when that is bigger than the block (a remembered hole has no block: the hole).
fn what_is_at(turn: &mut Turn, p: Pos) -> String {
    let block = turn.world.block_at(p);
    let thing = turn.memory.object_at(p).ok().flatten();
    if let Some(id) = thing {
        let _ = turn.memory.attend(id, turn.tick);
    }
    let bigger = thing.filter(|&id| turn.memory.object(id).ok().flatten().is_some_and(|o| o.bbox.min != o.bbox.max));
    if block.is_air() {
        if let Some(id) = thing {
            return format!("At {p} is {}.", describe::the(turn.memory, id));
        }
        let below = turn.world.block_at(Pos::new(p.x, p.y - 1, p.z));
        if below.is_air() {
            return format!("Nothing at {p}: just air.");
        }
        return format!("Nothing at {p}: just air, on {}.", below.name().replace('_', " "));
    }
    let part_of = bigger.map(|id| format!(", part of {}", describe::the(turn.memory, id))).unwrap_or_default();
    format!("At {p} there's {}{part_of}.", block.name().replace('_', " "))
}

/// "12 blocks north of me", seen from the bot at `bot`.
fn from_the_bot(bot: Vec3, p: Vec3) -> String {
    let (dx, dz) = (p.x - bot.x, p.z - bot.z);
    let d = (dx * dx + dz * dz).sqrt();
    if d < 2.0 {
        return "right next to me".into();
    }
    let step = directions::heading(dx, dz);
    format!("{d:.0} blocks {} of me", directions::compass(step))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::memory::fixture::{Fixture, RED_TOWER};

    fn ask(f: &mut Fixture, text: &str) -> Option<String> {
        let lf = crate::understanding::asking::read(text).expect("read by rule");
        let mut turn = Turn::new("alice", crate::understanding::step::form(text), &f.world, &mut f.memory);
        answer(&mut turn, lf.filters.as_ref()?)
    }

    #[test]
    fn where_am_i_and_what_is_at_are_answered() {
        let mut f = Fixture::new();
        let a = ask(&mut f, "where am i").expect("answered");
        assert!(a.starts_with("You're at ("), "{a}");
        let p = RED_TOWER;
        let a = ask(&mut f, &format!("what 's at {} {} {}", p.x, p.y, p.z)).expect("answered");
        assert!(a.starts_with(&format!("At {p} there's red ")) && a.contains(", part of the red "), "{a}");
        let a = ask(&mut f, "what am i standing on").expect("answered");
        assert!(a.starts_with("You're standing on "), "{a}");
        let a = ask(&mut f, "what is at 40 30 40").expect("answered");
        assert_eq!(a, "Nothing at (40, 30, 40): just air.");
    }
}
