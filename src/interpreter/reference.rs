//! Reference objects: from "the red tower", "that", "alice", "where I'm looking", "0 64 0" to
//! the things memory knows, or to plain positions.
//!
//! Three rules shape the answers players expect:
//! - "that"/"it"/"this" is what the speaker looks at, else the last thing we talked about;
//! - generic nouns ("thing", "structure", "it") never block a match the other words make unique;
//! - when several things fit and nothing picks one, ask once ("Which one: …?") rather than guess
//!   — a wrong guess could destroy somebody's house.

use super::context::Turn;
use super::describe;
use super::problem::{Choice, Problem, Result};
use crate::logical_form::{
    Coreference, FixedReference, Filters, Predicate, QuantityKind, ReferenceObject, ReturnQuantity, SelectorArg, Span,
    Triple, WhereClause, WhereItem,
};
use crate::memory::query::location::coordinates;
use crate::memory::{Hit, MemoryId, MemoryKind};
use crate::world::{BBox, Pos, Vec3};

/// What a command may act on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Want {
    /// Any remembered thing or place (move to it, look at it, ask about it).
    Anything,
    /// Things built of blocks (destroy, copy).
    Blocks,
    /// Holes (fill).
    Holes,
}

impl Want {
    fn accepts(self, kind: MemoryKind) -> bool {
        match self {
            Want::Anything => kind.is_reference_object(),
            Want::Blocks => kind == MemoryKind::BlockObject,
            Want::Holes => kind == MemoryKind::Hole,
        }
    }
}

/// Something a reference resolved to.
#[derive(Debug, Clone, PartialEq)]
pub enum Referent {
    Memory { id: MemoryId, kind: MemoryKind, pos: Vec3, bbox: Option<BBox> },
    Point(Pos),
    /// Cells an earlier step of the line changed that memory keeps no thing for (a hole filled
    /// with water): "next to it" is next to them.
    Place(BBox),
}

impl Referent {
    pub fn pos(&self) -> Vec3 {
        match self {
            Referent::Memory { pos, .. } => *pos,
            Referent::Point(p) => p.feet(),
            Referent::Place(b) => centre(b),
        }
    }

    pub fn bbox(&self) -> BBox {
        match self {
            Referent::Memory { bbox: Some(b), .. } | Referent::Place(b) => *b,
            _ => BBox::new(self.pos().block(), self.pos().block()),
        }
    }

    pub fn id(&self) -> Option<MemoryId> {
        match self {
            Referent::Memory { id, .. } => Some(*id),
            Referent::Point(_) | Referent::Place(_) => None,
        }
    }

    pub fn kind(&self) -> Option<MemoryKind> {
        match self {
            Referent::Memory { kind, .. } => Some(*kind),
            Referent::Point(_) | Referent::Place(_) => None,
        }
    }
}

/// Words that name no particular thing ("thing", "it", "structure"): the lexicon's generic nouns.
fn is_generic(words: &[String]) -> bool {
    let lx = crate::lexicon::lexicon();
    use crate::lexicon::Class;
    let generic = |w: &str| [Class::GenericThing, Class::Pointing, Class::Here, Class::There].into_iter().any(|c| lx.is(c, w));
    !words.is_empty() && words.iter().all(|w| generic(w))
}

/// The filters with generic `has_name` triples removed; also says whether anything is left that
/// actually constrains the search.
pub(crate) fn without_generic(filters: &Filters, turn: &Turn) -> (Filters, bool) {
    fn keep(item: &WhereItem, turn: &Turn) -> bool {
        match item {
            WhereItem::Triple(t) => !(t.pred_text == Predicate::HasName && t.obj_span().is_some_and(|s| is_generic(&turn.words(s)))),
            _ => true,
        }
    }
    // "the red one", "that big blue thing": colours and sizes before a generic noun, read as
    // one name, are the thing's colour and size.
    let coloured = |item: &WhereItem| -> Option<Vec<WhereItem>> {
        let WhereItem::Triple(t) = item else { return None };
        let span = t.obj_span().filter(|_| t.pred_text == Predicate::HasName)?;
        let words = turn.words(span);
        let (last, described) = words.split_last()?;
        let lx = crate::lexicon::lexicon();
        let all_described = !described.is_empty() && described.iter().all(|w| lx.colour(w).is_some() || lx.size(w).is_some());
        let triple = |k: usize| Triple::new(if lx.colour(&turn.words(Span::word(k))[0]).is_some() { Predicate::HasColour } else { Predicate::HasSize }, Span::word(k));
        (all_described && is_generic(std::slice::from_ref(last))).then(|| (span.start..span.end).map(|k| WhereItem::Triple(triple(k))).collect())
    };
    let mut f = filters.clone();
    if let Some(WhereClause::And(items)) = &mut f.where_clause {
        *items = items.iter().flat_map(|i| coloured(i).unwrap_or_else(|| vec![i.clone()])).collect();
        items.retain(|i| keep(i, turn));
        if items.is_empty() {
            f.where_clause = None;
        }
    }
    let constrained = f.where_clause.is_some() || f.selector.is_some() || f.location.is_some() || f.memory_type.is_some();
    (f, constrained)
}

/// "the last tower", "the latest thing": the filters without a selector for the newest
/// (understanding writes the words that ask for it so, `understanding::latest`), and whether
/// they had one.
pub(crate) fn without_newest(filters: &Filters) -> (Filters, bool) {
    if !filters.selector.as_ref().is_some_and(SelectorArg::is_newest) {
        return (filters.clone(), false);
    }
    (Filters { selector: None, ..filters.clone() }, true)
}

/// The thing built last that fits the filters (any thing built, when they say nothing more).
fn last_built(turn: &mut Turn, filters: &Filters, constrained: bool, want: Want) -> Result<Referent> {
    let built = turn.memory.built_objects()?;
    let fits: Vec<MemoryId> = if constrained { search(turn, filters, want)?.hits.iter().filter(|h| want.accepts(h.kind)).map(|h| h.id).collect() } else { built.clone() };
    let Some(id) = built.iter().rev().find(|id| fits.contains(id)) else {
        return Err(Problem::say("I haven't built anything like that yet."));
    };
    let found = memory_referent(turn, *id)?.ok_or_else(|| Problem::say("I can't find what I built last."))?;
    attend(turn, &found);
    Ok(found)
}

/// What memory holds that fits the filters: as they are, else with a name of several words read
/// as one ([`as_one_name`]), else without the sizes ("the big blue one": a size is how the player
/// sees the thing, and the size class memory perceived may differ).
fn search(turn: &Turn, filters: &Filters, want: Want) -> Result<crate::memory::QueryResult> {
    let mut result = turn.memory.query(filters, &turn.query_ctx())?;
    for other in [as_one_name(filters), without_sizes(filters)].into_iter().flatten() {
        if result.hits.iter().any(|h| want.accepts(h.kind)) {
            break;
        }
        result = turn.memory.query(&other, &turn.query_ctx())?;
    }
    Ok(result)
}

/// The filters without their size triples, when they have some and something else is left.
fn without_sizes(filters: &Filters) -> Option<Filters> {
    let Some(WhereClause::And(items)) = &filters.where_clause else { return None };
    let kept: Vec<WhereItem> = items.iter().filter(|i| !matches!(i, WhereItem::Triple(t) if t.pred_text == Predicate::HasSize)).cloned().collect();
    (kept.len() < items.len() && !kept.is_empty()).then(|| Filters { where_clause: Some(WhereClause::And(kept)), ..filters.clone() })
}

/// A name of several words read as separate words ("the pumpkin box" as a block type and a
/// name, "big ben" as a size and a name): the same filters with those words as one name, when
/// they are one run of words.
pub(crate) fn as_one_name(filters: &Filters) -> Option<Filters> {
    let Some(WhereClause::And(items)) = &filters.where_clause else { return None };
    let wordy = |t: &Triple| matches!(t.pred_text, Predicate::HasName | Predicate::HasBlockType | Predicate::HasColour | Predicate::HasTag | Predicate::HasSize);
    let mut spans: Vec<Span> =
        items.iter().filter_map(|i| if let WhereItem::Triple(t) = i && wordy(t) { t.obj_span() } else { None }).collect();
    if spans.len() < 2 {
        return None;
    }
    spans.sort_by_key(|s| s.start);
    if spans.windows(2).any(|w| w[1].start != w[0].end + 1) {
        return None;
    }
    let mut kept: Vec<WhereItem> = items.iter().filter(|i| !matches!(i, WhereItem::Triple(t) if wordy(t))).cloned().collect();
    kept.push(WhereItem::Triple(Triple::new(Predicate::HasName, Span::new(spans[0].start, spans[spans.len() - 1].end))));
    let mut f = filters.clone();
    f.where_clause = Some(WhereClause::And(kept));
    Some(f)
}

fn wants_all(filters: &Filters) -> bool {
    match &filters.selector {
        Some(SelectorArg::Kind(QuantityKind::All)) => true,
        Some(SelectorArg::Selector(s)) => matches!(s.return_quantity, Some(ReturnQuantity::Kind(QuantityKind::All))),
        _ => false,
    }
}

/// The words a player used for this reference, for "I can't find …" replies.
pub fn phrase(turn: &Turn, r: &ReferenceObject) -> String {
    // In the player's order and with their article: "the red tower", not "tower red" or "tower".
    let said = |first: Span, text: String| match turn.article_before(first) {
        Some(article) => format!("{article} {text}"),
        None => text,
    };
    if let Some(s) = r.text_span {
        return said(s, turn.text_of(s));
    }
    let mut spans: Vec<_> = r.filters.iter().flat_map(|f| f.triples()).filter_map(|t| t.obj_span()).collect();
    spans.sort_by_key(|s| s.start);
    let Some(first) = spans.first() else { return "that".into() };
    said(*first, spans.iter().map(|s| turn.text_of(*s)).collect::<Vec<_>>().join(" "))
}

fn memory_referent(turn: &Turn, id: MemoryId) -> Result<Option<Referent>> {
    let Some(o) = turn.memory.object(id)? else { return Ok(None) };
    Ok(Some(Referent::Memory { id, kind: o.kind, pos: o.pos, bbox: Some(o.bbox) }))
}

pub fn centre(b: &BBox) -> Vec3 {
    Vec3::new((b.min.x + b.max.x + 1) as f64 / 2.0, b.min.y as f64, (b.min.z + b.max.z + 1) as f64 / 2.0)
}

fn hit_referent(h: &Hit) -> Referent {
    let pos = h.pos.unwrap_or_else(|| h.bbox.map(|b| centre(&b)).unwrap_or_default());
    Referent::Memory { id: h.id, kind: h.kind, pos, bbox: h.bbox }
}

/// The thing the speaker looks at, if memory knows it and it is wanted.
fn looked_at(turn: &Turn, want: Want) -> Result<Option<Referent>> {
    let Some(hit) = turn.look_hit else { return Ok(None) };
    match turn.memory.object_at(hit.block)? {
        Some(id) => {
            let r = memory_referent(turn, id)?;
            Ok(r.filter(|r| r.kind().is_some_and(|k| want.accepts(k))))
        }
        None => Ok(None),
    }
}

/// How long "it" keeps pointing at what was last talked about (five minutes of game time);
/// after that, what the speaker looks at wins, as for "that".
const RECENT_TICKS: u64 = 6000;

/// Is the reference a word that points back ("it", "them"), with no "this" or "that" in it? A
/// reference without words of its own ("call it c1": the thing a name is for) is judged by the
/// words of its step.
fn points_back(turn: &Turn, r: &ReferenceObject) -> bool {
    use crate::lexicon::{Class, lexicon};
    let words = match r.text_span {
        Some(span) => turn.words(span),
        None => turn.form_words().to_vec(),
    };
    let lx = lexicon();
    words.iter().any(|w| lx.is(Class::PointingBack, w)) && !words.iter().any(|w| lx.is(Class::Pointing, w) && !lx.is(Class::PointingBack, w))
}

/// "them", "those": everything made or talked about together with `found` ("build 2 gold
/// cubes and then knock them both down"); "it" is `found` alone. Each is attended.
fn together(turn: &mut Turn, r: &ReferenceObject, found: Referent) -> Result<Vec<Referent>> {
    let all = match &found {
        Referent::Memory { id, .. } if points_at_several(turn, r) => {
            let ids = turn.memory.attended_with(*id)?;
            ids.into_iter().map(|id| memory_referent(turn, id)).collect::<Result<Vec<_>>>()?.into_iter().flatten().collect()
        }
        _ => vec![found],
    };
    all.iter().for_each(|x| attend(turn, x));
    Ok(all)
}

/// Does the reference point at several things ("them", "those") rather than name them?
pub(crate) fn points_at_several(turn: &Turn, r: &ReferenceObject) -> bool {
    use crate::lexicon::{Class, lexicon};
    let words = match r.text_span {
        Some(span) => turn.words(span),
        None => turn.form_words().to_vec(),
    };
    words.iter().any(|w| lexicon().is(Class::PointingPlural, w))
}

/// What was last talked about (or made), if it is wanted; only if it was within `within` ticks
/// when that is given.
fn last_talked_about(turn: &Turn, want: Want, within: Option<u64>) -> Result<Option<Referent>> {
    let kinds: Vec<MemoryKind> = [MemoryKind::BlockObject, MemoryKind::Hole, MemoryKind::Mob, MemoryKind::Player, MemoryKind::Location]
        .into_iter()
        .filter(|k| want.accepts(*k))
        .collect();
    let Some(id) = turn.memory.last_attended(&kinds)? else { return Ok(None) };
    if let Some(window) = within {
        let when = turn.memory.info(id)?.and_then(|i| i.attended_tick);
        if when.is_none_or(|t| t + window < turn.tick) {
            return Ok(None);
        }
    }
    memory_referent(turn, id)
}

/// What was talked about (or made) in the last few minutes, if anything: where "go there" goes
/// when the speaker looks at nothing.
pub(super) fn recently_talked_about(turn: &Turn) -> Result<Option<Referent>> {
    last_talked_about(turn, Want::Anything, Some(RECENT_TICKS))
}

/// What the step before this one in the same line made, dug or acted on, if memory knows it and
/// it is wanted: its own object, else a remembered thing on the cells it changed (the hole a
/// dig left).
fn earlier_step(turn: &Turn, want: Want) -> Result<Option<Referent>> {
    let Some(a) = &turn.antecedent else { return Ok(None) };
    if let Some(id) = a.object
        && let Some(r) = memory_referent(turn, id)?
        && r.kind().is_some_and(|k| want.accepts(k))
    {
        return Ok(Some(r));
    }
    for p in a.cells.iter().take(4096) {
        if let Some(id) = turn.memory.object_at(*p)?
            && let Some(r) = memory_referent(turn, id)?
            && r.kind().is_some_and(|k| want.accepts(k))
        {
            return Ok(Some(r));
        }
    }
    // Nothing memory keeps: the cells themselves, for a place ("build a wall next to it").
    Ok(a.bbox().filter(|_| want == Want::Anything && a.object.is_none()).map(Referent::Place))
}

fn fixed(turn: &Turn, f: FixedReference) -> Result<Referent> {
    match f {
        FixedReference::Speaker => match turn.memory.player_id(&turn.speaker)? {
            Some(id) => Ok(memory_referent(turn, id)?.unwrap_or(Referent::Point(turn.speaker_block()))),
            None => Ok(Referent::Point(turn.speaker_block())),
        },
        FixedReference::Agent => Ok(Referent::Point(turn.agent_pos())),
        FixedReference::SpeakerLook => match turn.look_hit {
            Some(hit) => Ok(match turn.memory.object_at(hit.block)? {
                Some(id) => memory_referent(turn, id)?.unwrap_or(Referent::Point(hit.block)),
                None => Referent::Point(hit.block),
            }),
            None => Err(Problem::say("I can't tell what you're looking at.")),
        },
    }
}

/// Coordinates a player typed, if they are inside the world: a point past the border or the
/// height limits can be neither reached nor built on (and would overflow the sums after it).
pub fn typed_point(p: Pos) -> Result<Pos> {
    use crate::world::rules::{MAX_Y, MIN_Y, WORLD_BORDER, in_world};
    if in_world(p) {
        Ok(p)
    } else {
        Err(Problem::say(format!(
            "{} {} {} is outside the world: x and z go from -{WORLD_BORDER} to {WORLD_BORDER}, and y from {MIN_Y} to {MAX_Y}.",
            p.x, p.y, p.z
        )))
    }
}

/// "x 70 z -80": x and z without a height stand on the ground there (the first block from the
/// top of the world down that is not air); `None` when the words are not that, or no ground is
/// known there.
fn on_the_ground(turn: &Turn, words: &[String]) -> Option<Pos> {
    let after = |axis: &str| words.iter().position(|w| w == axis).and_then(|i| words.get(i + 1)).and_then(|w| w.parse::<i32>().ok());
    let (x, z) = (after("x")?, after("z")?);
    let top = (crate::world::rules::MIN_Y..=crate::world::rules::MAX_Y).rev().find(|&y| !turn.world.block_at(Pos::new(x, y, z)).is_air())?;
    Some(Pos::new(x, top + 1, z))
}

/// Resolve a reference to what it names. Returns several referents only for "all …".
pub fn resolve(turn: &mut Turn, r: &ReferenceObject, want: Want) -> Result<Vec<Referent>> {
    if let Some(f) = r.fixed_reference() {
        return fixed(turn, f).map(|x| vec![x]);
    }
    if let Some(span) = r.special_reference.as_ref().and_then(|s| s.coordinates()) {
        let words = turn.words(span);
        return match coordinates(&words).or_else(|| on_the_ground(turn, &words)) {
            Some(p) => typed_point(p).map(|p| vec![Referent::Point(p)]),
            None => Err(Problem::say(format!("I couldn't read \"{}\" as x y z coordinates.", turn.text_of(span)))),
        };
    }
    let mut filters = r.filters.clone().unwrap_or_default();
    // Odd annotations put names straight on the reference object.
    let mut extra: Vec<WhereItem> = Vec::new();
    if let Some(span) = r.has_name {
        extra.push(WhereItem::Triple(Triple::new(Predicate::HasName, span)));
    }
    extra.extend(r.triples.iter().flatten().cloned().map(WhereItem::Triple));
    if !extra.is_empty() {
        match &mut filters.where_clause {
            Some(WhereClause::And(items)) => items.extend(extra),
            _ => filters.where_clause = Some(WhereClause::And(extra)),
        }
    }
    let coref = filters.contains_coreference.is_some() || r.contains_coreference == Some(Coreference::Yes);
    let (filters, latest) = without_newest(&filters);
    let (mut filters, constrained) = without_generic(&filters, turn);
    if latest {
        match last_built(turn, &filters, constrained, want) {
            Ok(x) => return Ok(vec![x]),
            // Nothing like it built by the bot: the newest such thing memory holds.
            Err(_) if constrained => filters.selector = Some(SelectorArg::newest()),
            Err(e) => return Err(e),
        }
    }

    if !constrained {
        return pointed_at(turn, r, want, coref);
    }

    let result = search(turn, &filters, want)?;
    let hits: Vec<&Hit> = result.hits.iter().filter(|h| want.accepts(h.kind)).collect();
    if hits.is_empty() {
        let what = phrase(turn, r);
        return Err(Problem::say(match want {
            Want::Holes => format!("I can't find a hole like \"{what}\"."),
            _ => format!("I can't find \"{what}\"."),
        }));
    }
    if wants_all(&filters) {
        let all: Vec<Referent> = hits.iter().map(|h| hit_referent(h)).collect();
        all.iter().for_each(|x| attend(turn, x));
        return Ok(all);
    }
    // One clear pick: coreference, a selector, what the speaker looks at, or a single match.
    let look_pick = turn.look_hit.and_then(|lh| hits.iter().find(|h| h.bbox.is_some_and(|b| b.contains(lh.block))));
    let preferred = turn.prefer.and_then(|id| hits.iter().find(|h| h.id == id));
    let pick = if let Some(h) = preferred {
        Some(*h)
    } else if let Some(h) = look_pick {
        Some(*h)
    } else if coref || filters.selector.is_some() || hits.len() == 1 {
        Some(hits[0])
    } else {
        None
    };
    if let Some(h) = pick {
        let found = hit_referent(h);
        attend(turn, &found);
        return Ok(vec![found]);
    }
    Err(which(turn, &hits))
}

/// "that", "it", "this thing": what an earlier step of the line made or acted on, then the look,
/// then what we last talked about.
fn pointed_at(turn: &mut Turn, r: &ReferenceObject, want: Want, coref: bool) -> Result<Vec<Referent>> {
    if let Some(found) = earlier_step(turn, want)? {
        return together(turn, r, found);
    }
    // "it" is what we talked about a moment ago, wherever the speaker looks now; "that" is what
    // they look at.
    let just_talked_about = if points_back(turn, r) { last_talked_about(turn, want, Some(RECENT_TICKS))? } else { None };
    let found = match just_talked_about {
        Some(found) => Some(found),
        None => match looked_at(turn, want)? {
            Some(found) => Some(found),
            None => last_talked_about(turn, want, None)?,
        },
    };
    if let Some(found) = found {
        return together(turn, r, found);
    }
    Err(Problem::say(if coref { "I'm not sure what you mean by that. Look at it and tell me again?" } else { "I'm not sure which thing you mean." }))
}

/// "Which one: the red tower or the blue tower?"
fn which(turn: &Turn, hits: &[&Hit]) -> Problem {
    let mut choices: Vec<Choice> = hits.iter().take(4).map(|h| Choice { label: describe::the_for(turn.memory, h.id, turn.form_words()), id: h.id }).collect();
    // Same words for two things: tell them apart by place.
    let labels: Vec<String> = choices.iter().map(|c| c.label.clone()).collect();
    for (c, h) in choices.iter_mut().zip(hits) {
        if labels.iter().filter(|l| **l == c.label).count() > 1 {
            let p = h.bbox.map(|b| b.min).or(h.pos.map(|p| p.block())).unwrap_or_default();
            c.label = format!("{} at {p}", c.label);
        }
    }
    let names: Vec<&str> = choices.iter().map(|c| c.label.as_str()).collect();
    let list = match names.as_slice() {
        [a, b] => format!("{a} or {b}"),
        [rest @ .., last] => format!("{} or {last}", rest.join(", ")),
        [] => String::new(),
    };
    Problem::Which { question: format!("Which one: {list}?"), choices }
}

fn attend(turn: &mut Turn, r: &Referent) {
    if let Some(id) = r.id() {
        let _ = turn.memory.attend(id, turn.tick);
    }
}

/// "between the cubes", "between the two towers": the two things of a "between", which the
/// parser writes as one plural name twice. When both references are the same words, they are
/// two different things that fit them: the two there are, or the two nearest the speaker.
pub fn resolve_two(turn: &mut Turn, a: &ReferenceObject, b: &ReferenceObject) -> Result<(Referent, Referent)> {
    let (Some(f), true) = (&a.filters, a.filters == b.filters) else {
        return Ok((resolve_one(turn, a, Want::Anything)?, resolve_one(turn, b, Want::Anything)?));
    };
    let (filters, constrained) = without_generic(f, turn);
    if !constrained {
        return Err(Problem::say("Between which two things?"));
    }
    let result = search(turn, &filters, Want::Anything)?;
    let me = turn.speaker_block();
    let mut hits: Vec<&Hit> = result.hits.iter().filter(|h| Want::Anything.accepts(h.kind)).collect();
    hits.sort_by_key(|h| {
        let p = centre(&h.bbox.unwrap_or(BBox::new(h.pos.unwrap_or_default().block(), h.pos.unwrap_or_default().block())));
        ((p.x - f64::from(me.x)).powi(2) + (p.z - f64::from(me.z)).powi(2)) as i64
    });
    match hits.as_slice() {
        [first, second, ..] => {
            let (x, y) = (hit_referent(first), hit_referent(second));
            attend(turn, &x);
            attend(turn, &y);
            Ok((x, y))
        }
        _ => Err(Problem::say(format!("I can only find one \"{}\", and \"between\" needs two.", phrase(turn, a)))),
    }
}

/// Resolve a reference that must name exactly one thing.
pub fn resolve_one(turn: &mut Turn, r: &ReferenceObject, want: Want) -> Result<Referent> {
    let mut all = resolve(turn, r, want)?;
    Ok(all.remove(0))
}
