//! Stage 2: where the candidates must be, and what "that" means.
//!
//! A location names an *anchor* — the speaker, the agent, the block the speaker looks at, literal
//! coordinates, or another object found by nested filters — and optionally a direction from it.
//! Directions are taken in the frame of whoever the anchor belongs to (the speaker's look for
//! "left of me", the agent's for "in front of you", the speaker's otherwise): LEFT/RIGHT/FRONT/
//! BACK/UP/DOWN keep the candidates on that side, NEAR/AROUND (or no direction) within
//! [`NEAR_RADIUS`] blocks, AWAY beyond it, INSIDE/OUTSIDE by the anchor's box, BETWEEN near the
//! segment joining two anchors.
//!
//! `contains_coreference` ("that", "this", "it") prefers what the speaker is looking at, then
//! what was talked about most recently (`attended_tick`, kept across restarts), then the nearest.

use super::super::error::Result;
use super::super::store::Memory;
use super::super::types::MemoryId;
use super::Resolved;
use super::candidates::Candidate;
use super::names::number;
use crate::logical_form::{
    Filters, FixedReference, Location, LocationType, ReferenceObject, RelativeDirection, SelectorLocation,
};
use crate::world::{BBox, Pos, Vec3};

/// "Near" means within this many blocks (from the anchor to the nearest part of the candidate).
pub const NEAR_RADIUS: f64 = 10.0;
/// How far from the looked-at block an object may be and still be "that".
const LOOK_SLACK: f64 = 1.5;

/// A resolved place: a point, perhaps a box, the yaw of its frame, and the memory it came from.
#[derive(Debug, Clone, PartialEq)]
pub struct Anchor {
    pub pos: Vec3,
    pub bbox: Option<BBox>,
    /// Yaw whose "front" directions are measured in.
    pub yaw: f32,
    pub id: Option<MemoryId>,
}

/// Keeps the candidates that satisfy `filters.location`, `selector.location` and
/// `contains_coreference`.
pub fn apply(
    memory: &Memory,
    filters: &Filters,
    mut found: Vec<Candidate>,
    env: &Resolved,
    depth: usize,
) -> Result<Vec<Candidate>> {
    if let Some(loc) = &filters.location {
        found = within(memory, loc, found, env, depth)?;
    }
    let selector_location = filters.selector.as_ref().and_then(|s| s.as_selector()).and_then(|s| s.location.as_ref());
    if let Some(SelectorLocation::Location(loc)) = selector_location {
        found = within(memory, loc, found, env, depth)?;
    }
    if filters.contains_coreference.is_some() {
        found = coreference(found, env);
    }
    Ok(found)
}

/// "That": one candidate, chosen as the module docs say.
pub fn coreference(found: Vec<Candidate>, env: &Resolved) -> Vec<Candidate> {
    if found.len() <= 1 {
        return found;
    }
    if let Some(target) = env.ctx.speaker_look_target {
        let t = target.center();
        let best = found
            .iter()
            .filter_map(|c| c.distance_to(t).map(|d| (d, c)))
            .filter(|(d, _)| *d <= LOOK_SLACK)
            .min_by(|a, b| a.0.total_cmp(&b.0).then(a.1.id.cmp(&b.1.id)));
        if let Some((_, c)) = best {
            return vec![c.clone()];
        }
    }
    if let Some(c) = found.iter().filter(|c| c.attended.is_some()).max_by_key(|c| (c.attended, c.id)) {
        return vec![c.clone()];
    }
    let viewer = env.viewer();
    let nearest = found.iter().min_by(|a, b| {
        let da = viewer.and_then(|v| a.distance_to(v)).unwrap_or(f64::MAX);
        let db = viewer.and_then(|v| b.distance_to(v)).unwrap_or(f64::MAX);
        da.total_cmp(&db).then(b.id.cmp(&a.id))
    });
    nearest.cloned().into_iter().collect()
}

/// Keeps the candidates at `loc`. If the anchor cannot be resolved (nobody is known to be
/// looking anywhere, the named object does not exist), nothing is in that place.
fn within(memory: &Memory, loc: &Location, found: Vec<Candidate>, env: &Resolved, depth: usize) -> Result<Vec<Candidate>> {
    if loc.relative_direction == Some(RelativeDirection::Between) {
        let a = loc.reference_object_1.as_deref().map(|r| anchor_of_object(memory, r, env, depth)).transpose()?.flatten();
        let b = loc
            .reference_object_2
            .as_deref()
            .or(loc.reference_object_1.as_deref().and_then(|r| r.reference_object_2.as_deref()))
            .map(|r| anchor_of_object(memory, r, env, depth))
            .transpose()?
            .flatten();
        let (Some(a), Some(b)) = (a, b) else { return Ok(Vec::new()) };
        return Ok(found.into_iter().filter(|c| c.pos.is_some_and(|p| between(a.pos, b.pos, p))).collect());
    }
    let Some(anchor) = anchor_of_location(memory, loc, env, depth)? else { return Ok(Vec::new()) };
    Ok(found
        .into_iter()
        .filter(|c| Some(c.id) != anchor.id && in_direction(&anchor, loc.relative_direction, c))
        .collect())
}

/// Is `c` in `direction` from the anchor?
pub fn in_direction(anchor: &Anchor, direction: Option<RelativeDirection>, c: &Candidate) -> bool {
    let Some(p) = c.pos else { return false };
    let d = Vec3::new(p.x - anchor.pos.x, p.y - anchor.pos.y, p.z - anchor.pos.z);
    let (fwd, right) = frame(anchor.yaw);
    let dist = c.distance_to(anchor.pos).unwrap_or(f64::MAX);
    use RelativeDirection as R;
    match direction {
        None | Some(R::Near) | Some(R::Around) => dist <= NEAR_RADIUS,
        Some(R::Away) => dist > NEAR_RADIUS,
        Some(R::Front) => dot(d, fwd) > 0.5,
        Some(R::Back) => dot(d, fwd) < -0.5,
        Some(R::Right) => dot(d, right) > 0.5,
        Some(R::Left) => dot(d, right) < -0.5,
        Some(R::Up) => d.y > 0.5,
        Some(R::Down) => d.y < -0.5,
        Some(R::Inside) => anchor.bbox.is_some_and(|b| b.contains(p.block())),
        Some(R::Outside) => !anchor.bbox.is_some_and(|b| b.contains(p.block())),
        // Rotations are movements, not places; BETWEEN is handled by the caller.
        Some(R::Clockwise) | Some(R::Anticlockwise) | Some(R::Between) => true,
    }
}

/// Forward and right unit vectors (horizontal) for a yaw, Minecraft convention: yaw 0 faces +z,
/// and facing +z the right hand points to −x.
pub fn frame(yaw: f32) -> (Vec3, Vec3) {
    let (s, c) = (yaw.to_radians().sin() as f64, yaw.to_radians().cos() as f64);
    (Vec3::new(-s, 0.0, c), Vec3::new(-c, 0.0, -s))
}

/// A signed distance along a direction of the anchor's frame ("the leftmost": argmax of LEFT).
pub fn along(anchor: &Anchor, direction: RelativeDirection, p: Vec3) -> Option<f64> {
    let d = Vec3::new(p.x - anchor.pos.x, p.y - anchor.pos.y, p.z - anchor.pos.z);
    let (fwd, right) = frame(anchor.yaw);
    use RelativeDirection as R;
    Some(match direction {
        R::Front => dot(d, fwd),
        R::Back => -dot(d, fwd),
        R::Right => dot(d, right),
        R::Left => -dot(d, right),
        R::Up => d.y,
        R::Down => -d.y,
        R::Away => d.x.hypot(d.y).hypot(d.z),
        R::Near | R::Around => -(d.x.hypot(d.y).hypot(d.z)),
        _ => return None,
    })
}

fn dot(a: Vec3, b: Vec3) -> f64 {
    a.x * b.x + a.y * b.y + a.z * b.z
}

/// Is `p` near the segment from `a` to `b` (and not beyond its ends)?
fn between(a: Vec3, b: Vec3, p: Vec3) -> bool {
    let ab = Vec3::new(b.x - a.x, b.y - a.y, b.z - a.z);
    let ap = Vec3::new(p.x - a.x, p.y - a.y, p.z - a.z);
    let len2 = dot(ab, ab);
    if len2 < 1e-9 {
        return p.distance(a) <= NEAR_RADIUS / 2.0;
    }
    let t = dot(ap, ab) / len2;
    let closest = Vec3::new(a.x + ab.x * t, a.y + ab.y * t, a.z + ab.z * t);
    (0.0..=1.0).contains(&t) && p.distance(closest) <= (len2.sqrt() / 2.0).max(3.0)
}

/// The anchor of a location.
pub fn anchor_of_location(memory: &Memory, loc: &Location, env: &Resolved, depth: usize) -> Result<Option<Anchor>> {
    if let Some(r) = &loc.reference_object {
        return anchor_of_object(memory, r, env, depth);
    }
    if loc.contains_coreference.is_some() {
        // "there": where the speaker looks.
        return Ok(env.ctx.speaker_look_target.map(|t| point(t.center(), env.speaker_look.yaw)));
    }
    Ok(match loc.location_type {
        Some(LocationType::AgentPos) => env.agent_pos.map(|p| Anchor { id: env.self_id, ..point(p, env.agent_look.yaw) }),
        _ => env.speaker_pos.map(|p| Anchor { id: env.speaker_id, ..point(p, env.speaker_look.yaw) }),
    })
}

fn point(pos: Vec3, yaw: f32) -> Anchor {
    Anchor { pos, bbox: None, yaw, id: None }
}

/// The anchor of a reference object: special references, coordinates, or nested filters.
pub fn anchor_of_object(memory: &Memory, r: &ReferenceObject, env: &Resolved, depth: usize) -> Result<Option<Anchor>> {
    if let Some(special) = &r.special_reference {
        if let Some(span) = special.coordinates() {
            return Ok(coordinates(&env.words(span)).map(|p| Anchor {
                pos: p.center(),
                bbox: Some(BBox::new(p, p)),
                yaw: env.speaker_look.yaw,
                id: None,
            }));
        }
        return Ok(match special.fixed() {
            Some(FixedReference::Speaker) => {
                env.speaker_pos.map(|p| Anchor { id: env.speaker_id, ..point(p, env.speaker_look.yaw) })
            }
            Some(FixedReference::Agent) => {
                env.agent_pos.map(|p| Anchor { id: env.self_id, ..point(p, env.agent_look.yaw) })
            }
            Some(FixedReference::SpeakerLook) => env.ctx.speaker_look_target.map(|t| Anchor {
                pos: t.center(),
                bbox: Some(BBox::new(t, t)),
                yaw: env.speaker_look.yaw,
                id: None,
            }),
            None => None,
        });
    }
    let filters = match (&r.filters, r.has_name) {
        (Some(f), _) => Some(f.clone()),
        (None, Some(span)) => Some(Filters {
            where_clause: Some(crate::logical_form::WhereClause::And(vec![crate::logical_form::WhereItem::Triple(
                crate::logical_form::Triple::new(crate::logical_form::Predicate::HasName, span),
            )])),
            ..Filters::default()
        }),
        (None, None) if r.contains_coreference.is_some() => {
            Some(Filters { contains_coreference: r.contains_coreference, ..Filters::default() })
        }
        (None, None) => None,
    };
    let Some(mut filters) = filters else { return Ok(None) };
    if r.contains_coreference.is_some() && filters.contains_coreference.is_none() {
        filters.contains_coreference = r.contains_coreference;
    }
    let result = memory.query_resolved(&filters, env, depth + 1)?;
    Ok(result.hits.first().and_then(|h| {
        h.pos.map(|pos| Anchor { pos, bbox: h.bbox, yaw: env.speaker_look.yaw, id: Some(h.id) })
    }))
}

/// Three numbers in the words ("0 64 0", "x 5 y 6 z 7", "5, 6, 7").
pub fn coordinates(words: &[String]) -> Option<Pos> {
    let nums: Vec<f64> = words
        .iter()
        .flat_map(|w| w.split(',').map(str::to_string).collect::<Vec<_>>())
        .filter(|w| w.chars().any(|c| c.is_ascii_digit()))
        .filter_map(|w| number(&w))
        .collect();
    match nums.as_slice() {
        [x, y, z, ..] => Some(Pos::new(x.floor() as i32, y.floor() as i32, z.floor() as i32)),
        _ => None,
    }
}
