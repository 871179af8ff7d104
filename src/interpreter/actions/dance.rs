//! DANCE: "spin around", "look left", "face north", "point at the tower", "do a little dance".
//! Turns are relative unless a compass word makes them a heading; a named dance is the
//! [`DanceName`] understanding read in the step.

use crate::interpreter::location::{self, Purpose};
use crate::interpreter::recipe::Recipe;
use crate::logical_form::{Action, Angle, DanceName, LocationArg};
use crate::tasks::{Dance as DanceTask, Limits, Task, TaskError, TaskKind, Times, Turn as TurnBy};
use crate::world::{Pos, Vec3};

use super::{Plan, push, span_number};
use crate::interpreter::context::Turn;
use crate::interpreter::problem::{Problem, Result};

/// A dance or turn, as data.
#[derive(Clone, Debug, PartialEq)]
pub enum DanceSpec {
    Body(TurnBy),
    Head(TurnBy),
    LookAt(Vec3),
    PointAt(Vec3),
    Named { name: DanceName, around: Option<Pos> },
}

/// Dance, turn, look or point as the spec says.
#[derive(Debug, Clone, PartialEq)]
pub struct Dance(pub DanceSpec);

impl Recipe for Dance {
    fn kind(&self) -> TaskKind {
        TaskKind::Dance
    }
    fn task(&self, _: &Limits, _: u32) -> std::result::Result<Box<dyn Task>, TaskError> {
        Ok(Box::new(match &self.0 {
            DanceSpec::Body(t) => DanceTask::turn(*t),
            DanceSpec::Head(t) => DanceTask::turn_head(*t),
            DanceSpec::LookAt(p) => DanceTask::look_at(*p),
            DanceSpec::PointAt(p) => DanceTask::point_at(*p),
            DanceSpec::Named { name, around } => DanceTask::named(*name, *around).unwrap_or_else(|| DanceTask::spin(true)),
        }))
    }
    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}

fn angle(turn: &Turn, a: &Angle) -> Option<f32> {
    match a {
        Angle::Span(s) => span_number(turn, Some(*s)).map(|v| v as f32),
        Angle::Literal(l) => l.text().and_then(|t| t.parse::<f32>().ok()),
    }
}

pub(super) fn dance(turn: &mut Turn, a: &Action, times: Times) -> Result<Plan> {
    let Some(d) = &a.dance_type else {
        return Ok(push(Dance(DanceSpec::Named { name: DanceName::Dance, around: None }), times, "dancing"));
    };
    let left = turn.details().turn_left;
    for (turn_spec, head) in [(&d.look_turn, true), (&d.body_turn, false)] {
        let Some(t) = turn_spec else { continue };
        if let Some(l) = &t.location {
            let target = location::resolve(turn, &LocationArg::Location(l.clone()), Purpose::Place)?;
            let p = target.pos.center();
            return Ok(push(Dance(DanceSpec::LookAt(p)), times, "looking"));
        }
        // "face north": the annotations write compass faces as relative yaws ("0", "90"), which
        // would turn by that much from wherever the bot faces; a compass word is a heading.
        let compass = turn.details().compass.map(|c| c.yaw());
        let by = if let (Some(yaw), None) = (compass, t.yaw) {
            TurnBy::Absolute { yaw: Some(yaw), pitch: None }
        } else if let Some(y) = &t.relative_yaw {
            let deg = angle(turn, y).unwrap_or(90.0);
            // Positive yaw turns right; "left" flips the sign unless the number already did.
            let deg = if left && deg > 0.0 { -deg } else { deg };
            let pitch = t.relative_pitch.as_ref().and_then(|p| angle(turn, p)).unwrap_or(0.0);
            TurnBy::Relative { yaw: deg, pitch: if turn.details().up { -pitch.abs() } else { pitch } }
        } else if let Some(p) = &t.relative_pitch {
            let deg = angle(turn, p).unwrap_or(45.0).abs();
            TurnBy::Relative { yaw: 0.0, pitch: if turn.details().up { -deg } else { deg } }
        } else if let Some(y) = t.yaw {
            TurnBy::Absolute { yaw: span_number(turn, Some(y)).map(|v| v as f32), pitch: None }
        } else if let Some(p) = t.pitch {
            TurnBy::Absolute { yaw: None, pitch: span_number(turn, Some(p)).map(|v| v as f32) }
        } else {
            TurnBy::Relative { yaw: if left { -90.0 } else { 90.0 }, pitch: 0.0 }
        };
        let spec = if head { DanceSpec::Head(by) } else { DanceSpec::Body(by) };
        return Ok(push(Dance(spec), times, "turning"));
    }
    if let Some(p) = &d.point {
        let target = location::resolve(turn, &LocationArg::Location(p.location.clone()), Purpose::Place)?;
        return Ok(push(Dance(DanceSpec::PointAt(target.pos.center())), times, "pointing"));
    }
    // A named dance: the one understanding read in the step, else a spin (a dance with no
    // name, "do a little dance").
    let name = match turn.details().dance {
        Some(n) => n,
        None if d.filters.is_none() => DanceName::Dance,
        None => return Err(Problem::say("I don't know that dance yet. I can spin, jump, nod, shake my head, or circle around you.")),
    };
    let around = a
        .location
        .as_ref()
        .map(|l| location::resolve(turn, l, Purpose::Move))
        .transpose()?
        .map(|t| t.pos)
        .or(Some(turn.speaker_block()));
    let what = match name {
        DanceName::Dance => "dance",
        DanceName::Spin { clockwise: true } => "spin",
        DanceName::Spin { clockwise: false } => "spin anticlockwise",
        DanceName::Jump => "jump",
        DanceName::Nod => "nod",
        DanceName::ShakeHead => "head shake",
        DanceName::Circle { .. } => "circle",
    };
    Ok(push(Dance(DanceSpec::Named { name, around }), times, format!("doing a {what}")))
}

#[cfg(test)]
mod tests {
    use super::super::command;
    use super::*;
    use crate::logical_form::LogicalForm;
    use crate::memory::Memory;
    use crate::schematics;
    use crate::world::embedded::EmbeddedWorld;

    #[test]
    fn face_a_compass_direction_is_a_heading_not_a_turn() {
        let w = EmbeddedWorld::flat();
        let mut memory = Memory::in_memory().unwrap();
        for (text, yaw) in [("face north", 180.0), ("face east", -90.0)] {
            let rel = if yaw > 0.0 { "0" } else { "90" };
            let lf = LogicalForm::from_json_str(&format!(
                r#"{{"dialogue_type": "HUMAN_GIVE_COMMAND", "action_sequence": [{{"action_type": "DANCE", "dance_type": {{"look_turn": {{"relative_yaw": {{"fixed_value": "{rel}"}}}}}}}}]}}"#
            ))
            .unwrap();
            let mut turn = Turn::new("alice", crate::understanding::step::form(text), &w, &mut memory);
            let plans = command(&mut turn, &lf, &schematics::Limits::default()).unwrap();
            match &plans[0] {
                Plan::Push { recipe, .. } => match recipe.as_any().downcast_ref::<Dance>() {
                    Some(Dance(DanceSpec::Head(TurnBy::Absolute { yaw: Some(y), pitch: None }))) => assert_eq!(*y, yaw, "{text}"),
                    other => panic!("{text}: expected an absolute heading, got {other:?}"),
                },
                other => panic!("{text}: expected an absolute heading, got {other:?}"),
            }
        }
    }
}
