//! "give me 10 oak logs", "bring me some torches", "can I have 5 cobblestone?", "spawn some
//! cows": asking for an item or a mob is common, its words are a closed list (the game's items,
//! blocks and mobs), and the parser is often unsure of the long names. A line that is exactly
//! such a request is read by rule. Its small words are the lexicon's (`[give_openings]`,
//! `[quantity_words]`, …).


use crate::lexicon::{Class, lexicon};
use crate::logical_form::{
    Action, ActionType, Endpoint, Filters, FixedReference, LogicalForm, Predicate, ReferenceObject, ReferenceObjectArg, Span, SpecialReference,
    SpecialReferenceObject, Triple, WhereClause, WhereItem,
};
use crate::world::rules::kinds::MOB_KINDS;

/// Words between the opening and the item: counts and measures of quantity (`[quantity_words]`),
/// or digits.
pub(super) fn is_quantity(w: &str) -> bool {
    let lx = lexicon();
    lx.is(Class::QuantityWord, w) || lx.number(&[w], 0).is_some() || lx.value(crate::lexicon::Values::Multiple, w).is_some()
}

/// Is `words` an item or block a player can be given ("torches", "magenta stained glass")?
fn is_item(words: &[String]) -> bool {
    crate::world::rules::item_id(words).is_some()
}

/// Do `words` name a block that can be placed, and no mob ("torches", "gold blocks")?
pub(super) fn names_a_block<S: AsRef<str>>(words: &[S]) -> bool {
    crate::world::rules::item_id(words).is_some_and(|id| crate::world::Block::from_name(&id).is_some()) && crate::world::rules::mob_kind(words).is_none()
}

/// Where the request's own words end: before "please", a reason ("i 'm hungry", "because …") or
/// a spot at the speaker ("in front of me", "here").
fn request_end(words: &[String], start: usize) -> usize {
    let mut end = words.len();
    for (i, w) in words.iter().enumerate().skip(start) {
        let next = words.get(i + 1).map(String::as_str);
        let reason = lexicon().is(Class::Reason, w) || (w == "i" && matches!(next, Some("'m" | "am")));
        // "… that you mined", "… if needed": words after the items that change nothing.
        let tail = i > start && lexicon().phrase_at(Class::JobTail, words, i).is_some();
        // "… no rush", "… for my build": a closing that ends the line.
        let closing = i > start && lexicon().phrase_at(Class::Closing, words, i).is_some_and(|n| i + n == words.len());
        let here = tail || closing || lexicon().is(Class::RequestEnd, w) || (w == "in" && next == Some("front")) || (lexicon().is(Class::PlaceStart, w) && i > start);
        if reason || here {
            end = i;
            break;
        }
    }
    end
}

/// "spawn 3 pigs", "summon some cows", "spawn a couple of sheep": the form, if the line is only
/// that.
pub fn read_spawn(text: &str) -> Option<LogicalForm> {
    let words: Vec<String> = text.split_whitespace().map(String::from).collect();
    if !matches!(words.first().map(String::as_str), Some("spawn" | "summon")) {
        return None;
    }
    let mut start = 1;
    while words.get(start).is_some_and(|w| is_quantity(w)) {
        start += 1;
    }
    let end = request_end(&words, start);
    // "spawn six sheep around here": by the speaker, where a spawn goes when no place is said.
    let by_me = |k: usize| lexicon().phrase_at(Class::Around, &words, k).is_some_and(|n| k + n == words.len());
    if !(end == start + 1 && end == words.len() || by_me(start + 1)) {
        return None;
    }
    let noun = &words[start];
    let singular = [Some(noun.as_str()), noun.strip_suffix("es"), noun.strip_suffix('s')];
    if !singular.into_iter().flatten().any(|c| MOB_KINDS.contains(&c)) {
        return None;
    }
    let spawn = Action { reference_object: Some(named(Span::word(start), Span::new(1, start))), ..Action::new(ActionType::Spawn) };
    super::checked(text, LogicalForm::command(vec![spawn]))
}

/// "make 3 slimes near me", "pop a snow golem": a build (or an action the parser could not
/// name) of a mob is a spawn of it, and a spawn of a block is a build of it. Returns whether
/// the action changed.
pub fn repair_spawn(action: &mut Action, tokens: &[String]) -> bool {
    let names = |f: &Filters| name_words(f, tokens);
    match action.action_type {
        ActionType::Build => {
            let Some(schematic) = action.schematic.as_ref() else { return false };
            let Some(filters) = schematic.filters.clone().filter(|f| crate::world::rules::mob_kind(&names(f)).is_some()) else {
                return false;
            };
            // "make 3 slimes": the number before the mob is how many, in the mob's words.
            let name = filters.triples().iter().find(|t| t.pred_text == Predicate::HasName).and_then(|t| t.obj_span());
            let text_span = match (name, schematic.text_span) {
                (Some(n), _) if n.start > 0 && is_quantity(&tokens[n.start - 1]) => Some(Span::new(n.start - 1, n.end)),
                (_, said) => said,
            };
            let mob = ReferenceObject { filters: Some(filters), text_span, ..ReferenceObject::default() };
            action.reference_object = Some(ReferenceObjectArg::Object(Box::new(mob)));
            action.schematic = None;
        }
        // "give me 3 pigs", "i want five chickens": a mob asked for is spawned by the speaker,
        // unless the words also name an item ("give me a chicken" has no item "chicken").
        ActionType::Get => {
            let Some(ReferenceObjectArg::Object(r)) = action.reference_object.as_ref() else { return false };
            let words = r.filters.as_ref().map(names).unwrap_or_default();
            let speaker = |to: &Endpoint| to.reference_object.as_ref().is_some_and(|r| r.fixed_reference() == Some(FixedReference::Speaker));
            if !action.receiver.as_ref().is_none_or(speaker) || crate::world::rules::mob_kind(&words).is_none() || is_item(&words) {
                return false;
            }
            // Spawned where a spawn goes when no place is said: by the speaker.
            action.receiver = None;
        }
        ActionType::OtherAction => {
            let Some(ReferenceObjectArg::Object(r)) = action.reference_object.as_ref() else { return false };
            if r.filters.as_ref().is_none_or(|f| crate::world::rules::mob_kind(&names(f)).is_none()) {
                return false;
            }
        }
        // "put 4 torches on it": a spawn of a block that is no mob is a build of it.
        ActionType::Spawn => {
            let Some(ReferenceObjectArg::Object(r)) = action.reference_object.as_ref() else { return false };
            let words = r.filters.as_ref().map(names).unwrap_or_default();
            if !names_a_block(&words) {
                return false;
            }
            action.schematic = Some(crate::logical_form::Schematic { text_span: r.text_span, filters: r.filters.clone() });
            action.reference_object = None;
            action.action_type = ActionType::Build;
            return true;
        }
        _ => return false,
    }
    action.action_type = ActionType::Spawn;
    true
}

/// Is the action a spawn of a mob named in its words ("make 3 pigs", repaired or not)?
pub fn spawns_a_mob(action: &Action, tokens: &[String]) -> bool {
    let Some(ReferenceObjectArg::Object(r)) = action.reference_object.as_ref() else { return false };
    let names = r.filters.as_ref().map(|f| name_words(f, tokens)).unwrap_or_default();
    action.action_type == ActionType::Spawn && crate::world::rules::mob_kind(&names).is_some()
}

/// Is the action a build, said with a building verb, of a block or item that is no mob ("place
/// a gold block", "put a pumpkin there")? `step`: the action's words.
/// The block's words, when it is one: how the form splits them into a name, a colour or a
/// block type is no doubt either ("gold block": the item is the block built).
pub fn builds_a_block(action: &Action, tokens: &[String], step: std::ops::Range<usize>) -> Option<Vec<usize>> {
    let s = action.schematic.as_ref()?;
    let lx = lexicon();
    let verb = tokens.get(step).and_then(|w| w.iter().find(|w| !lx.is(Class::Opening, w) && !lx.is(Class::Politeness, w)));
    if !verb.is_some_and(|v| lx.verb(v) == Some(ActionType::Build) || lx.is(Class::PutVerb, v)) {
        return None;
    }
    // All the thing's words: "a *gold* block" is named "block" and made of gold.
    let spans = s.filters.iter().flat_map(|f| f.triples()).filter_map(|t| t.obj_span());
    let at: Vec<usize> = spans.flat_map(|sp| sp.start..=sp.end).collect::<std::collections::BTreeSet<_>>().into_iter().collect();
    let words: Vec<String> = at.iter().filter_map(|&k| tokens.get(k).cloned()).collect();
    let block = action.action_type == ActionType::Build && !words.is_empty() && is_item(&words) && crate::world::rules::mob_kind(&words).is_none();
    block.then_some(at)
}

/// The words of a thing's names (its `has_name` triples).
fn name_words(f: &Filters, tokens: &[String]) -> Vec<String> {
    f.triples().iter().filter(|t| t.pred_text == Predicate::HasName).filter_map(|t| t.obj_span()).flat_map(|s| s.words(tokens).to_vec()).collect()
}

/// The form for a line that only asks for items, if it is one: for the speaker ("give me 3
/// diamonds", "give 5 magenta stained glass and 2 redstone blocks"), or for a player named after
/// the verb or at the end ("give bob 3 diamonds", "give 4 cobblestone to alice"). One GET an item.
pub fn read(text: &str) -> Option<LogicalForm> {
    let words: Vec<String> = text.split_whitespace().map(String::from).collect();
    let speaker = || {
        let me = SpecialReferenceObject { fixed_value: Some(FixedReference::Speaker), coordinates_span: None };
        ReferenceObject { special_reference: Some(SpecialReference::Object(me)), ..ReferenceObject::default() }
    };
    let player = |n: usize| {
        let clause = WhereClause::And(vec![WhereItem::Triple(Triple::new(Predicate::HasName, Span::word(n)))]);
        let filters = Filters { where_clause: Some(clause), ..Filters::default() };
        ReferenceObject { filters: Some(filters), text_span: Some(Span::word(n)), ..ReferenceObject::default() }
    };
    let small = |w: &str| [Class::NameLead, Class::Me, Class::You, Class::Politeness].into_iter().any(|c| lexicon().is(c, w));
    let (start, mut receiver) = match lexicon().phrase_at(Class::GiveOpening, &words, 0).filter(|n| words.len() > *n) {
        Some(n) => (n, Some(speaker())),
        None => {
            let n = lexicon().phrase_at(Class::GiveToOpening, &words, 0)?;
            let name = words.get(n)?;
            // "give the cobblestone to me": whom for is said at the end.
            let article = lexicon().is(Class::Article, name) && !lexicon().is(Class::Pointing, name);
            if small(name) && !article {
                return None;
            }
            // "give bob …": one word after the verb that is a name, not "it", "some" or "5".
            if article || is_quantity(name) || is_item(std::slice::from_ref(name)) { (n, None) } else { (n + 1, Some(player(n))) }
        }
    };
    let mut end = request_end(&words, start);
    // "… to me", "… to alice" at the end.
    if end >= 2 && words[end - 2] == "to" && receiver.is_none() {
        let who = &words[end - 1];
        receiver = Some(if lexicon().is(Class::Me, who) { speaker() } else if small(who) || is_quantity(who) { return None } else { player(end - 1) });
        end -= 2;
    }
    let receiver = receiver.unwrap_or_else(speaker);
    // The items, joined by "and" or a comma (gone from the words: "3 diamonds, 2 apples" reads
    // "3 diamonds 2 apples", so a count after a name starts the next item): each its counts,
    // then its name.
    let mut gets = Vec::new();
    let mut from = start;
    while from < end {
        // "… and also 5 glass blocks": a filler after the "and" is no part of the item.
        while from < end && lexicon().is(Class::Filler, &words[from]) {
            from += 1;
        }
        let next_count = |i: usize| i > from && lexicon().number(&words, i).is_some() && !is_quantity(&words[i - 1]) && words[i - 1] != "of";
        // "a stack and a half of sand": the count's own "and" joins no items.
        let count = lexicon().number(&words, from).map_or(0, |(_, n)| n);
        let stop = (from + count..end).find(|&i| words[i] == "and" || words[i] == "," || next_count(i)).unwrap_or(end);
        let mut name = from + count;
        while name < stop && (is_quantity(&words[name]) || lexicon().phrase_at(Class::AllWords, &words, name).is_some()) {
            name += lexicon().phrase_at(Class::AllWords, &words, name).unwrap_or(1);
        }
        if name >= stop || !is_item(&words[name..stop]) {
            return None;
        }
        gets.push(Action {
            receiver: Some(Endpoint { reference_object: Some(Box::new(receiver.clone())), location: None }),
            reference_object: Some(named(Span::new(name, stop - 1), Span::new(from, stop - 1))),
            ..Action::new(ActionType::Get)
        });
        from = if stop < end && next_count(stop) { stop } else { stop + 1 };
    }
    if gets.is_empty() {
        return None;
    }
    super::checked(text, LogicalForm::command(gets))
}

/// A thing found by its name (`name`), said in the words `said`.
pub(super) fn named(name: Span, said: Span) -> ReferenceObjectArg {
    let clause = WhereClause::And(vec![WhereItem::Triple(Triple::new(Predicate::HasName, name))]);
    let filters = Filters { where_clause: Some(clause), ..Filters::default() };
    ReferenceObjectArg::Object(Box::new(ReferenceObject { filters: Some(filters), text_span: Some(said), ..ReferenceObject::default() }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn requests_for_items_are_read_with_their_words() {
        for line in ["give me 10 oak logs", "bring me some torches", "can i have 5 cobblestone", "give me 5 pieces of magenta stained glass", "get me a diamond sword please"] {
            let lf = read(line).unwrap_or_else(|| panic!("{line}"));
            assert_eq!(lf.actions()[0].action_type, crate::logical_form::ActionType::Get, "{line}");
        }
        let lf = read("give me 10 oak logs").unwrap();
        assert!(lf.to_json_value().to_string().contains(r#""text_span":[0,[2,4]]"#), "{}", lf.to_json_value());
        let lf = read("can you give bob 3 diamonds").expect("for another player");
        let json = lf.to_json_value().to_string();
        assert!(json.contains(r#""receiver":{"reference_object":{"filters""#) && json.contains(r#""text_span":[0,[3,3]]"#), "{json}");
        let lf = read("give 5 magenta stained glass and 2 redstone blocks").expect("two items");
        assert_eq!(lf.actions().len(), 2);
        assert_eq!(read("give me all the cherry wood and lanterns").expect("all of two items").actions().len(), 2);
        // The comma between two items is gone from the words: the count starts the next one.
        let lf = read("give me 3 diamonds 2 apples").expect("two items, the comma gone");
        assert_eq!(lf.actions().len(), 2);
        assert!(lf.to_json_value().to_string().contains(r#""text_span":[0,[4,5]]"#), "{}", lf.to_json_value());
        assert_eq!(read("give me 2 stacks of cobblestone").expect("one item").actions().len(), 1);
        assert_eq!(read("give me a stack and a half of sand").expect("one item, its count with an and").actions().len(), 1);
        assert_eq!(read("i need 2 stacks of sand and also 5 glass blocks for my build").expect("two items, a closing after them").actions().len(), 2);
        let lf = read("give 4 cobblestone to alice").expect("to a player at the end");
        assert!(lf.to_json_value().to_string().contains(r#""text_span":[0,[4,4]]"#), "{}", lf.to_json_value());
        for line in ["give me a hug", "give me the red cube", "give", "i want to build a house", "give it 3 diamonds", "give bob a hug", "give 3 diamonds and a hug"] {
            assert!(read(line).is_none(), "{line}");
        }
        assert!(read("fetch me some bread i 'm hungry").is_none(), "fetch is read as bring first");
        assert!(read("bring me some bread i 'm hungry").is_some());
        assert!(read("give me 5 cobblestones in front of me").is_some());
    }

    #[test]
    fn spawning_mobs_is_read_with_the_count_words() {
        for line in ["spawn some cows", "spawn 3 pigs", "summon a couple of sheep", "spawn a wolf", "spawn six sheep around here", "spawn 2 cows near me", "spawn one sheep over here"] {
            let lf = read_spawn(line).unwrap_or_else(|| panic!("{line}"));
            assert_eq!(lf.actions()[0].action_type, crate::logical_form::ActionType::Spawn, "{line}");
        }
        for line in ["spawn a pig next to the tower", "spawn a castle", "build some cows"] {
            assert!(read_spawn(line).is_none(), "{line}");
        }
    }

    #[test]
    fn a_mob_asked_for_is_spawned_and_an_item_given() {
        let get = |line: &str, name: [usize; 2]| {
            let v = serde_json::json!({"action_type": "GET", "receiver": {"reference_object": {"special_reference": {"fixed_value": "SPEAKER"}}},
                "reference_object": {"filters": {"where_clause": {"AND": [{"pred_text": "has_name", "obj_text": [0, name]}]}}}});
            let mut a: Action = serde_json::from_value(v).expect("an action");
            let tokens: Vec<String> = line.split(' ').map(String::from).collect();
            (repair_spawn(&mut a, &tokens), a)
        };
        let (changed, a) = get("give me 3 pigs", [3, 3]);
        assert!(changed && a.action_type == ActionType::Spawn && a.receiver.is_none());
        let (changed, a) = get("give me 3 diamonds", [3, 3]);
        assert!(!changed && a.action_type == ActionType::Get);
    }
}
