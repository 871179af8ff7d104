//! Chests and the items in them: which chest a player means ("the design chest", "the chest in
//! front of me", "the chest at the mine", "storage"), and which items their words pick out of
//! a chest or the bot's pockets ("the wood blocks", "stained glass", "a pickaxe", "everything").

use crate::interpreter::context::Turn;
use crate::interpreter::problem::{Problem, Result};
use crate::interpreter::reference::{self, Referent, Want};
use crate::lexicon::{Class, Group, lexicon};
use crate::logical_form::{Endpoint, Filters, Predicate, ReferenceObject, Span, Triple, WhereClause, WhereItem};
use crate::world::rules::{self, is_container};
use crate::world::{Inventory, Pos};

/// How far from the speaker (or a named place) the bot looks for a chest said without a name.
const CHEST_AROUND: i32 = 16;

/// The nearest container to `p` within `r`.
fn nearest_chest(turn: &Turn, p: Pos, r: i32) -> Option<Pos> {
    super::blocks_near(turn.world, super::around(p, r, 6, 6), p, |n| is_container(crate::world::Block::from_name(n).unwrap_or_default())).into_iter().next()
}

fn named(span: Span) -> ReferenceObject {
    let clause = WhereClause::And(vec![WhereItem::Triple(Triple::new(Predicate::HasName, span))]);
    ReferenceObject { filters: Some(Filters { where_clause: Some(clause), ..Filters::default() }), text_span: Some(span), ..ReferenceObject::default() }
}

/// A remembered thing's chest: a container within or beside it.
fn chest_of(turn: &Turn, r: &Referent) -> Option<Pos> {
    match r {
        Referent::Memory { bbox: Some(b), .. } => crate::world::BBox::new(b.min - Pos::new(1, 1, 1), b.max + Pos::new(1, 1, 1)).iter().find(|p| is_container(turn.world.block_at(*p))).or_else(|| nearest_chest(turn, r.pos().block(), 8)),
        _ => nearest_chest(turn, r.pos().block(), 8),
    }
}

/// The chest an endpoint names, with how to say it.
pub fn chest(turn: &mut Turn, end: &Endpoint) -> Result<(Pos, String)> {
    let lx = lexicon();
    let r = end.reference_object.as_deref().ok_or_else(|| Problem::say("Which chest?"))?;
    let span = r.text_span;
    let words = span.map(|s| turn.words(s)).unwrap_or_default();
    // "that chest", "this chest": the one the speaker looks at.
    if words.iter().any(|w| lx.is(Class::Pointing, w))
        && let Some(hit) = turn.look_hit.filter(|h| is_container(turn.world.block_at(h.block)))
    {
        return Ok((hit.block, "that chest".to_string()));
    }
    let plain_words: Vec<&str> = words.iter().map(String::as_str).filter(|w| !lx.is(Class::Pointing, w)).collect();
    let said = format!("the {}", plain_words.join(" "));
    // A place said after the chest ("in front of me") is where to look.
    let near = match &end.location {
        Some(l) => crate::interpreter::location::resolve(turn, &crate::logical_form::LocationArg::Location(l.clone()), crate::interpreter::location::Purpose::Move)?.pos,
        None => turn.speaker_block(),
    };
    // A thing remembered by that name ("the design chest", "storage").
    if let Ok(found) = reference::resolve_one(turn, r, Want::Anything)
        && let Some(p) = chest_of(turn, &found)
    {
        return Ok((p, said));
    }
    // "the chest at the mine": the chest nearest a place remembered by name.
    if let (Some(s), Some(at)) = (span, words.iter().position(|w| lx.is(Class::PlaceLead, w) || lx.is(Class::IntoWord, w)))
        && at + 1 < words.len()
    {
        let skip = usize::from(lx.is(Class::Article, &words[at + 1]));
        let place = named(Span::new(s.start + at + 1 + skip, s.end));
        if let Ok(found) = reference::resolve_one(turn, &place, Want::Anything)
            && let Some(p) = chest_of(turn, &found)
        {
            return Ok((p, said));
        }
    }
    let plain = words.iter().all(|w| lx.is(Class::Container, w) || lx.is(Class::Article, w));
    match nearest_chest(turn, near, CHEST_AROUND) {
        Some(p) if plain => Ok((p, format!("the chest at {p}"))),
        Some(p) => Ok((p, format!("the chest at {p} (I don't know one called {said}; that's the nearest)"))),
        None => Err(Problem::say(format!("I don't see {said} anywhere near here. Place one and say \"this is the … chest\" to name it."))),
    }
}

/// Words that only count or point ("5", "pieces of", "the", "all").
fn small(w: &str) -> bool {
    let lx = lexicon();
    lx.is(Class::QuantityWord, w) || lx.is(Class::Article, w) || lx.is(Class::AllWords, w) || lx.is(Class::Possessive, w) || lx.number(&[w], 0).is_some() || w == "related"
}

/// The items in `inv` the words pick out, with how many of each; `None` when the words name
/// nothing there. A number takes that many, "a"/"an" one, otherwise all of them.
pub fn pick(words: &[String], inv: &Inventory) -> Option<Vec<(String, u32)>> {
    let lx = lexicon();
    // "wood-related": its parts.
    let parts: Vec<&str> = words.iter().flat_map(|w| w.split('-')).collect();
    let name: Vec<&str> = parts.iter().copied().filter(|w| !small(w)).collect();
    let everything = name.is_empty();
    // A wood ("birch") names its logs, planks and stairs; "wood", "logs" any wood's.
    let wood_type = name.iter().copied().find(|w| crate::world::Block::from_name(&format!("{w}_log")).is_some());
    let any_wood = |w: &str| lx.meaning(Group::Resource, w) == Some("wood") && crate::world::Block::from_name(&format!("{w}_log")).is_none();
    // "your logs": logs of every wood (not planks), when no wood is named.
    // lexicon: "log" is the Minecraft item's own name, as in `oak_log`.
    let logs = name.iter().any(|w| w.trim_end_matches('s') == "log");
    let any_logs = wood_type.is_none() && logs;
    let wood = !any_logs && (name.iter().any(|w| any_wood(w) || matches!(*w, "wooden" | "planks")) || wood_type.is_some());
    // A kind of items ("the wood blocks") is every item of it, not the one block its name is.
    let generic = !logs && name.iter().any(|w| any_wood(w) || *w == "wooden");
    let exact = if generic && name.len() <= 2 { None } else { rules::item_id(&name) };
    let exact = exact.filter(|_| !any_logs);
    let joined = name.iter().map(|w| crate::lexicon::lexicon().lemma(w)).filter(|w| w != "block").collect::<Vec<_>>().join("_");
    // lexicon: Minecraft item id parts (game knowledge): what counts as wood.
    let is_wood = |id: &str| ["_log", "_wood", "_planks", "_stairs"].iter().any(|s| id.ends_with(s)) && !id.contains("stone");
    let fits = |id: &str| {
        everything
            || exact.as_deref() == Some(id)
            || (!joined.is_empty() && (id == joined || id.ends_with(&format!("_{joined}")) || id.starts_with(&format!("{joined}_"))))
            || (wood && is_wood(id) && wood_type.is_none_or(|t| id.contains(t)))
            || (any_logs && id.ends_with("_log"))
    };
    let mut found: Vec<(String, u32)> = inv.items().iter().filter(|(id, _)| exact.as_deref() == Some(id.as_str())).cloned().collect();
    if found.is_empty() {
        found = inv.items().iter().filter(|(id, _)| fits(id)).cloned().collect();
    }
    if found.is_empty() {
        return None;
    }
    let wanted = crate::interpreter::actions::number(words).map(|n| n.max(1) as u32).or_else(|| words.first().filter(|w| matches!(w.as_str(), "a" | "an")).map(|_| 1));
    if let Some(mut left) = wanted {
        for (_, n) in found.iter_mut() {
            *n = (*n).min(left);
            left -= *n;
        }
        found.retain(|(_, n)| *n > 0);
    }
    Some(found)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(s: &str) -> Vec<String> {
        s.split(' ').map(String::from).collect()
    }

    #[test]
    fn the_words_pick_items_by_name_by_kind_and_by_count() {
        let inv = Inventory::from(vec![
            ("red_stained_glass".to_string(), 20),
            ("oak_log".to_string(), 5),
            ("birch_planks".to_string(), 8),
            ("cobblestone".to_string(), 3),
            ("iron_pickaxe".to_string(), 1),
        ]);
        assert_eq!(pick(&words("10 stained glass"), &inv), Some(vec![("red_stained_glass".to_string(), 10)]), "a kind of glass, ten of it");
        let wood = pick(&words("the wood-related blocks"), &inv).unwrap();
        assert_eq!(wood, vec![("oak_log".to_string(), 5), ("birch_planks".to_string(), 8)], "logs and planks are wood; stone is not");
        assert_eq!(pick(&words("a pickaxe"), &inv), Some(vec![("iron_pickaxe".to_string(), 1)]));
        assert_eq!(pick(&words("everything"), &inv).map(|v| v.len()), Some(5));
        assert_eq!(pick(&words("the diamonds"), &inv), None);
        assert_eq!(pick(&words("the birch"), &inv), Some(vec![("birch_planks".to_string(), 8)]), "one wood's items");
        let logs = Inventory::from(vec![("oak_log".to_string(), 5), ("birch_log".to_string(), 3), ("oak_planks".to_string(), 2)]);
        assert_eq!(pick(&words("your logs"), &logs).map(|v| v.len()), Some(2), "logs of every wood, not planks");
        assert_eq!(pick(&words("the oak logs"), &logs), Some(vec![("oak_log".to_string(), 5)]));
    }
}
