//! Stage 3: picking among the matches.
//!
//! - No selector, or `ALL`: every match, in the default order — most recently talked about
//!   first, then nearest to the speaker, then oldest id — so the first hit is the likeliest
//!   meaning of "the house" when there are several.
//! - `argval` MAX/MIN of a quantity ("the tallest", "the closest to me", "the newest") ranks the
//!   matches; `ordinal` then says which rank ("the second tallest"; FIRST by default).
//! - `RANDOM` picks `ordinal` memories ("five pigs"; one by default) with a seeded generator, so
//!   the same context picks the same ones. `same: ALLOWED` may pick one memory twice,
//!   `DISALLOWED` (and the default) never does, and leaves out [`QueryContext::exclude`]d ones.
//! - An ordinal alone ("the third cube") is a rank in the default order.
//!
//! [`QueryContext::exclude`]: super::QueryContext::exclude

use super::super::error::Result;
use super::super::store::Memory;
use super::Resolved;
use super::candidates::Candidate;
use super::location::{along, anchor_of_location, anchor_of_object};
use super::names::number_in;
use crate::logical_form::{
    ArgVal, Attribute, AttributeName, Filters, Ordinal, Polarity, QuantityKind, ReturnQuantity, Same, Selector,
    SelectorArg,
};

/// Applies the selector (see the module docs). Returns the picked candidates in order.
pub fn select(memory: &Memory, filters: &Filters, mut found: Vec<Candidate>, env: &Resolved, depth: usize) -> Result<Vec<Candidate>> {
    let selector: Option<&Selector> = match &filters.selector {
        Some(SelectorArg::Selector(s)) => Some(s),
        Some(SelectorArg::Kind(_)) | None => None,
    };
    let same = selector.and_then(|s| s.same);
    if same != Some(Same::Allowed) && same != Some(Same::Required) && !env.ctx.exclude.is_empty() {
        found.retain(|c| !env.ctx.exclude.contains(&c.id));
    }
    if same == Some(Same::Required) && !env.ctx.exclude.is_empty() {
        found.retain(|c| env.ctx.exclude.contains(&c.id));
    }
    default_order(&mut found, env);
    let Some(selector) = selector else { return Ok(found) };
    let count = selector.ordinal.as_ref().map(|o| ordinal_number(o, env));
    match &selector.return_quantity {
        Some(ReturnQuantity::Ranked(ranked)) => {
            let ranked = rank(memory, &ranked.argval, found, env, depth)?;
            let n = count.unwrap_or(1).max(1);
            Ok(ranked.into_iter().nth(n - 1).into_iter().collect())
        }
        Some(ReturnQuantity::Kind(QuantityKind::Random)) => {
            Ok(random_pick(found, count.unwrap_or(1), same == Some(Same::Allowed), env.ctx.seed))
        }
        Some(ReturnQuantity::Kind(QuantityKind::All)) => Ok(found),
        None => match count {
            Some(n) if n >= 1 => Ok(found.into_iter().nth(n - 1).into_iter().collect()),
            _ => Ok(found),
        },
    }
}

/// Most recently attended first, then nearest to the viewer, then oldest.
fn default_order(found: &mut [Candidate], env: &Resolved) {
    let viewer = env.viewer();
    found.sort_by(|a, b| {
        let da = viewer.and_then(|v| a.distance_to(v)).unwrap_or(f64::MAX);
        let db = viewer.and_then(|v| b.distance_to(v)).unwrap_or(f64::MAX);
        b.attended.cmp(&a.attended).then(da.total_cmp(&db)).then(a.id.cmp(&b.id))
    });
}

/// The number an ordinal stands for: FIRST is 1, a span is read as a number ("third", "5").
fn ordinal_number(o: &Ordinal, env: &Resolved) -> usize {
    match o {
        Ordinal::Fixed(_) => 1,
        Ordinal::Span(span) => number_in(&env.words(*span)).filter(|n| *n >= 1.0).map(|n| n as usize).unwrap_or(1),
    }
}

/// Sorts by the argval's quantity (ties by id); memories without that quantity drop out.
fn rank(memory: &Memory, argval: &ArgVal, found: Vec<Candidate>, env: &Resolved, depth: usize) -> Result<Vec<Candidate>> {
    let measure = Measure::of(memory, argval, env, depth)?;
    let mut scored: Vec<(f64, Candidate)> =
        found.into_iter().filter_map(|c| measure.value(&c, env).map(|v| (v, c))).collect();
    scored.sort_by(|a, b| {
        let order = a.0.total_cmp(&b.0);
        let order = if argval.polarity == Polarity::Max { order.reverse() } else { order };
        order.then(a.1.id.cmp(&b.1.id))
    });
    Ok(scored.into_iter().map(|(_, c)| c).collect())
}

/// What an argval measures.
pub enum Measure {
    Attribute(AttributeName),
    /// Distance from a point (or signed offset along a direction of its frame).
    From(super::location::Anchor, Option<crate::logical_form::RelativeDirection>),
    /// The anchor could not be found: nothing can be ranked.
    Nothing,
}

impl Measure {
    pub fn of(memory: &Memory, argval: &ArgVal, env: &Resolved, depth: usize) -> Result<Measure> {
        let q = &argval.quantity;
        if let Some(Attribute::Name(name)) = &q.attribute {
            return Ok(Measure::Attribute(*name));
        }
        let extent = match &q.attribute {
            Some(Attribute::Object(o)) => o.linear_extent.as_ref(),
            _ => None,
        };
        let source = match extent.and_then(|e| e.source.as_ref()) {
            Some(endpoint) => match (&endpoint.reference_object, &endpoint.location) {
                (Some(r), _) => anchor_of_object(memory, r, env, depth)?,
                (None, Some(l)) => anchor_of_location(memory, l, env, depth)?,
                (None, None) => None,
            },
            None => match &q.location {
                Some(l) => anchor_of_location(memory, l, env, depth)?,
                // "the closest" with nothing said: closest to the speaker.
                None => env.viewer().map(|p| super::location::Anchor {
                    pos: p,
                    bbox: None,
                    yaw: env.speaker_look.yaw,
                    id: env.speaker_id,
                }),
            },
        };
        Ok(match source {
            Some(anchor) => Measure::From(anchor, extent.and_then(|e| e.relative_direction)),
            None => Measure::Nothing,
        })
    }

    pub fn value(&self, c: &Candidate, env: &Resolved) -> Option<f64> {
        match self {
            Measure::Attribute(name) => attribute_value(*name, c, env),
            Measure::From(anchor, None) => {
                if Some(c.id) == anchor.id {
                    return None; // "the closest to me" is never me
                }
                c.distance_to(anchor.pos)
            }
            Measure::From(anchor, Some(dir)) => along(anchor, *dir, c.pos?),
            Measure::Nothing => None,
        }
    }
}

/// A numeric attribute of a candidate, computed from its stored box and times.
pub fn attribute_value(name: AttributeName, c: &Candidate, env: &Resolved) -> Option<f64> {
    let size = c.bbox.map(|b| b.size());
    Some(match name {
        AttributeName::Height => size?[1] as f64,
        AttributeName::Width => size.map(|s| s[0].max(s[2]) as f64)?,
        AttributeName::Size | AttributeName::VoxelCount => c.voxels as f64,
        AttributeName::X => c.pos?.x,
        AttributeName::Y => c.pos?.y,
        AttributeName::Z => c.pos?.z,
        AttributeName::BornTime | AttributeName::CreateTime => c.created as f64,
        AttributeName::ModifyTime => c.updated as f64,
        AttributeName::CurrentTime => env.ctx.tick as f64,
        AttributeName::Location => env.viewer().and_then(|v| c.distance_to(v))?,
        _ => return None,
    })
}

/// `n` picks from a seeded shuffle; with `repeat`, picks may repeat once the pool runs out.
fn random_pick(found: Vec<Candidate>, n: usize, repeat: bool, seed: u64) -> Vec<Candidate> {
    if found.is_empty() || n == 0 {
        return Vec::new();
    }
    let mut rng = SplitMix(seed ^ 0x9e37_79b9_7f4a_7c15);
    let mut pool = found;
    // Fisher–Yates over the default order, so the result depends only on the seed and the set.
    pool.sort_by_key(|c| c.id);
    for i in (1..pool.len()).rev() {
        let j = (rng.next() % (i as u64 + 1)) as usize;
        pool.swap(i, j);
    }
    if n <= pool.len() || !repeat {
        pool.truncate(n);
        return pool;
    }
    let mut out = pool.clone();
    while out.len() < n {
        out.push(pool[(rng.next() % pool.len() as u64) as usize].clone());
    }
    out
}

/// A tiny deterministic generator (SplitMix64): no dependency, same numbers everywhere.
struct SplitMix(u64);

impl SplitMix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
}
