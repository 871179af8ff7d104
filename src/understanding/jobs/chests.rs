//! Chest jobs read whole: "put the wood in the chest", "put 6 bread and 3 apples in the food
//! chest", "get the stained glass from the design chest", "bring me the iron pickaxe from
//! storage". The verb says which way the items go; the container's words run to a place or a
//! tail; several items make one step each, all for the one chest.

use super::{item_list, matches_place, name_filters, tail, things, to_speaker};
use crate::lexicon::{Class, lexicon};
use crate::logical_form::{Action, ActionType, Endpoint, LogicalForm, ReferenceObject, Span};
use crate::understanding::giving::named;

/// "put the wood in the chest", "get the stained glass from the design chest", "bring me the
/// iron pickaxe from storage".
pub(super) fn chest_job(w: &[String]) -> Option<LogicalForm> {
    let lx = lexicon();
    let first = w.first()?.as_str();
    let (putting, mut from) = match (lx.phrase_at(Class::PutVerb, w, 0), lx.phrase_at(Class::TakeVerb, w, 0)) {
        (Some(n), _) => (true, n),
        (None, Some(n)) => (false, n),
        _ => return None,
    };
    let for_me = w.get(from).is_some_and(|x| lx.is(Class::Me, x));
    from += usize::from(for_me);
    let joint_at = |k: usize| if putting { lx.phrase_at(Class::IntoWord, w, k) } else { lx.phrase_at(Class::OutOfWord, w, k) };
    // "put 6 bread and 3 apples in the food chest": several items, one step each.
    let (items, mut end) = match (from + 1..w.len()).find_map(|k| joint_at(k).and(item_list(w, from, k)).map(|l| (l, k))) {
        Some(found) => found,
        None => things(w, from).map(|(name, said, end)| (vec![(name, said)], end))?,
    };
    // "stash everything you got in that chest": words between the items and the chest that
    // change nothing.
    while let Some(n) = lx.phrase_at(Class::JobTail, w, end) {
        end += n;
    }
    let joint = joint_at(end)?;
    let start = end + joint;
    let c_start = start + usize::from(w.get(start).is_some_and(|x| lx.is(Class::Article, x) || lx.is(Class::Possessive, x)));
    // The container's words: up to a place after it ("the chest in front of me") or a tail.
    let c_end = (c_start..w.len())
        .find(|&k| lx.phrase_at(Class::Delivery, w, k).is_some() || lx.phrase_at(Class::JobTail, w, k).is_some() || matches_place(w, k).is_some() && !matches!(w[k].as_str(), "at"))
        .unwrap_or(w.len());
    if c_end <= c_start || c_end - c_start > 6 {
        return None;
    }
    let container_words = &w[c_start..c_end];
    // The chest must be said as one ("the chest", "the design chest", "storage") or by a name
    // with "at" ("the chest at the mine").
    if !container_words.iter().any(|x| lx.is(Class::Container, x)) && !(c_end - c_start <= 2 && !putting) {
        return None;
    }
    let tail = tail(w, c_end)?;
    let chest = ReferenceObject {
        filters: Some(name_filters(Span::new(c_start, c_end - 1))),
        text_span: Some(Span::new(c_start, c_end - 1)),
        ..ReferenceObject::default()
    };
    let chest = Endpoint { reference_object: Some(Box::new(chest)), location: tail.place.map(Box::new) };
    let actions = items
        .into_iter()
        .map(|(name, said)| {
            let mut action = Action { reference_object: Some(named(name, said)), ..Action::new(if putting { ActionType::Put } else { ActionType::Get }) };
            if putting {
                action.receiver = Some(chest.clone());
            } else {
                action.source = Some(chest.clone());
                if for_me || tail.deliver || first == "bring" {
                    action.receiver = Some(to_speaker());
                }
            }
            action
        })
        .collect();
    Some(LogicalForm::command(actions))
}
