//! MOVE: "go to the red tower", "come here", "walk 4 steps forward", "follow me". A move to a
//! thing stops anywhere beside it; a counted walk ends exactly that many steps away; a move to a
//! player that never ends is following them.

use crate::interpreter::describe;
use crate::interpreter::location::{self, Purpose};
use crate::interpreter::recipe::Recipe;
use crate::interpreter::reference::{self, Referent, Want};
use crate::logical_form::{Action, LocationArg};
use crate::memory::MemoryKind;
use crate::tasks::{Follow as FollowTask, Limits, Move, Task, TaskError, TaskKind, Times};
use crate::world::Pos;

use super::{Plan, push};
use crate::interpreter::context::Turn;
use crate::interpreter::problem::{Problem, Result};

/// Walk to `pos`, stopping within `tolerance` blocks of it (0: exactly there). With no way
/// there, it goes as close as it can and says so.
#[derive(Debug, Clone, PartialEq)]
pub struct MoveTo {
    pub pos: Pos,
    pub tolerance: i32,
    /// May build its way up on scaffold ("go on top of the house").
    pub climb: bool,
    /// What it is doing ("going inside your house") and what it is going to ("your house"),
    /// in words, for what it says on the way.
    pub named: Option<(String, String)>,
}

impl MoveTo {
    pub fn new(pos: Pos, tolerance: i32) -> MoveTo {
        MoveTo { pos, tolerance, climb: false, named: None }
    }

    /// A walk to a thing, said in words: `doing` for "what are you doing", `destination` for
    /// "as close as I can get to …".
    fn named(pos: Pos, tolerance: i32, doing: String, destination: String) -> MoveTo {
        MoveTo { named: Some((doing, destination)), ..MoveTo::new(pos, tolerance) }
    }
}

impl Recipe for MoveTo {
    fn kind(&self) -> TaskKind {
        TaskKind::Move
    }
    fn task(&self, _: &Limits, _: u32) -> std::result::Result<Box<dyn Task>, TaskError> {
        let goal = crate::tasks::path::Goal::Near { target: self.pos, tolerance: self.tolerance.max(0) };
        let options = if self.climb { crate::tasks::MoveOptions::working(None) } else { crate::tasks::MoveOptions::default() };
        let mut m = Move::with_goal(goal, options).or_nearest();
        if let Some((doing, destination)) = &self.named {
            m = m.labelled(doing.clone()).towards(destination.clone());
        }
        Ok(Box::new(m))
    }
    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}

/// Come to where the speaker stands.
#[derive(Debug, Clone, PartialEq)]
pub struct ComeHere(pub Pos);

impl Recipe for ComeHere {
    fn kind(&self) -> TaskKind {
        TaskKind::Move
    }
    fn task(&self, _: &Limits, _: u32) -> std::result::Result<Box<dyn Task>, TaskError> {
        Ok(Box::new(Move::come_here(self.0)))
    }
    fn doing(&self, _: &str, _: &str) -> String {
        "coming".into()
    }
    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}

/// Follow a player until told to stop.
#[derive(Debug, Clone, PartialEq)]
pub struct Follow(pub String);

impl Recipe for Follow {
    fn kind(&self) -> TaskKind {
        TaskKind::Follow
    }
    fn task(&self, _: &Limits, _: u32) -> std::result::Result<Box<dyn Task>, TaskError> {
        Ok(Box::new(FollowTask::player(self.0.clone())))
    }
    fn doing(&self, label: &str, speaker: &str) -> String {
        if self.0 == speaker { "following you. Say \"stop\" when you want me to stop".into() } else { label.into() }
    }
    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}

pub(super) fn movement(turn: &mut Turn, a: &Action, times: Times) -> Result<Plan> {
    let loc = a.location.clone().or_else(|| {
        // One odd annotation puts the direction on the action itself ("move north five steps").
        a.relative_direction.map(|d| {
            LocationArg::Location(Box::new(crate::logical_form::Location { relative_direction: Some(d), steps: a.steps, ..Default::default() }))
        })
    });
    let Some(loc) = loc else { return Err(Problem::say("Where should I go?")) };
    // "follow me" / "follow alice": a move to a player that never ends.
    if matches!(times, Times::Forever)
        && let Some(r) = loc.as_location().and_then(|l| l.reference_object.as_deref())
    {
        if let Ok(Referent::Memory { id, kind: MemoryKind::Player, .. }) = reference::resolve_one(turn, r, Want::Anything) {
            let name = describe::noun(turn.memory, id);
            return Ok(push(Follow(name.clone()), Times::Count(1), format!("following {name}")));
        }
        if r.fixed_reference() == Some(crate::logical_form::FixedReference::Speaker) {
            let name = turn.speaker.clone();
            return Ok(push(Follow(name.clone()), Times::Count(1), format!("following {name}")));
        }
    }
    let speaker_ref = loc.as_location().is_some_and(|l| {
        l.relative_direction.is_none()
            && (l.reference_object.as_ref().is_some_and(|r| r.fixed_reference() == Some(crate::logical_form::FixedReference::Speaker))
                || (l.reference_object.is_none() && l.contains_coreference.is_some() && turn.details().deixis == Some(crate::logical_form::Deixis::Here)))
    });
    if speaker_ref {
        return Ok(push(ComeHere(turn.speaker_block()), times, "coming to you"));
    }
    let t = location::resolve(turn, &loc, Purpose::Move)?;
    let inside = matches!(loc.as_location().and_then(|l| l.relative_direction), Some(crate::logical_form::RelativeDirection::Inside))
        || turn.details().inside;
    let on_top = t.step.is_some_and(|s| s.y > 0) || turn.details().on_top;
    if let Some(b) = t.anchor {
        let name = describe_anchor(turn, &loc);
        // Inside a thing: on its floor, if it has one to stand on; the walk finds the door.
        if inside {
            let what = name.unwrap_or_else(|| "it".into());
            let Some(pos) = location::inside_spot(turn.world, b) else {
                return Err(Problem::say(format!("There's no room inside {what} for me to stand.")));
            };
            let doing = format!("going inside {what}");
            return Ok(push(MoveTo::named(pos, 0, doing.clone(), what), times, doing));
        }
        // On top, only when asked: building its way up if there are no stairs.
        if on_top {
            let c = reference::centre(&b).block();
            let pos = Pos::new(c.x, location::ground(turn.world, c.x, c.z, b.max.y + 1), c.z);
            let what = format!("the top of {}", name.unwrap_or_else(|| "it".into()));
            let doing = format!("going to {what}");
            return Ok(push(MoveTo { climb: true, ..MoveTo::named(pos, 1, doing.clone(), what) }, times, doing));
        }
        // To a thing: stand on the ground beside it, on the side nearest the speaker.
        if t.step.is_none() {
            let pos = location::beside(turn.world, b, turn.speaker_block());
            let what = name.unwrap_or_else(|| pos.to_string());
            let doing = format!("going to {what}");
            return Ok(push(MoveTo::named(pos, 1, doing.clone(), what), times, doing));
        }
    }
    let pos = Pos::new(t.pos.x, location::ground(turn.world, t.pos.x, t.pos.z, t.pos.y), t.pos.z);
    // To a thing: anywhere beside it will do.
    let tolerance = match (t.near, t.anchor, t.step) {
        (_, Some(b), None) => b.size()[0].max(b.size()[2]) / 2 + 2,
        (true, _, _) => 2,
        // "walk 4 steps forward": a counted walk ends exactly that many steps away.
        (false, None, Some(_)) if t.steps.is_some() => 0,
        _ => 1,
    };
    Ok(push(MoveTo::new(pos, tolerance), times, format!("going to {pos}")))
}

/// "the red tower": the thing a location points at, in the player's words.
fn describe_anchor(turn: &mut Turn, loc: &LocationArg) -> Option<String> {
    let r = loc.as_location()?.reference_object.as_deref()?;
    match reference::resolve_one(turn, r, Want::Anything).ok()? {
        Referent::Memory { id, .. } => Some(describe::the_for_speaker(turn.memory, id, turn.form_words(), &turn.speaker)),
        Referent::Point(_) | Referent::Place(_) => None,
    }
}

#[cfg(test)]
mod tests {
    use super::super::command;
    use super::*;
    use crate::logical_form::LogicalForm;
    use crate::memory::Memory;
    use crate::schematics;
    use crate::world::embedded::EmbeddedWorld;
    use crate::world::{Look, Vec3};

    #[test]
    fn a_missing_thing_is_named_in_the_players_words() {
        let mut w = EmbeddedWorld::flat();
        w.add_player("alice", Vec3::new(0.5, 5.0, 0.5), Look::new(0.0, 0.0));
        let mut memory = Memory::in_memory().unwrap();
        // The annotations' convention: the name's span leaves out "the", and colour comes after
        // the name in the clause list. The reply still reads "the red castle".
        let text = "go to the red castle";
        let lf = crate::logical_form::validate_json(
            text,
            r#"{"dialogue_type": "HUMAN_GIVE_COMMAND", "action_sequence": [{"action_type": "MOVE", "location": {"reference_object": {"filters": {"where_clause": {"AND": [{"pred_text": "has_name", "obj_text": [0, [4, 4]]}, {"pred_text": "has_colour", "obj_text": [0, [3, 3]]}]}}}}}]}"#,
        )
        .unwrap();
        let mut turn = Turn::new("alice", crate::understanding::step::form(text), &w, &mut memory);
        match command(&mut turn, &lf, &schematics::Limits::default()) {
            Err(Problem::Say(s)) => assert_eq!(s, "I can't find \"the red castle\"."),
            other => panic!("expected a polite refusal, got {:?}", other.map(|p| p.len())),
        }
        // With a text_span that leaves the article out, as the annotations do.
        let text = "go to the castle";
        let lf = crate::logical_form::validate_json(
            text,
            r#"{"dialogue_type": "HUMAN_GIVE_COMMAND", "action_sequence": [{"action_type": "MOVE", "location": {"reference_object": {"filters": {"where_clause": {"AND": [{"pred_text": "has_name", "obj_text": [0, [3, 3]]}]}}, "text_span": [0, [3, 3]]}}}]}"#,
        )
        .unwrap();
        let mut turn = Turn::new("alice", crate::understanding::step::form(text), &w, &mut memory);
        match command(&mut turn, &lf, &schematics::Limits::default()) {
            Err(Problem::Say(s)) => assert_eq!(s, "I can't find \"the castle\"."),
            other => panic!("expected a polite refusal, got {:?}", other.map(|p| p.len())),
        }
    }

    #[test]
    fn counted_steps_walk_exactly_that_far() {
        let mut w = EmbeddedWorld::flat();
        w.add_player("alice", Vec3::new(8.5, 5.0, 0.5), Look::new(0.0, 0.0));
        w.set_agent_pos(Pos::new(0, 5, 6));
        let mut memory = Memory::in_memory().unwrap();
        let text = "walk 4 steps forward";
        let lf = LogicalForm::from_json_str(
            r#"{"dialogue_type": "HUMAN_GIVE_COMMAND", "action_sequence": [{"action_type": "MOVE", "location": {"relative_direction": "FRONT",
              "reference_object": {"special_reference": {"fixed_value": "AGENT"}}, "steps": [0, [1, 1]], "text_span": [0, [1, 3]]}}]}"#,
        )
        .unwrap();
        let mut turn = Turn::new("alice", crate::understanding::step::form(text), &w, &mut memory);
        let plans = command(&mut turn, &lf, &schematics::Limits::default()).unwrap();
        let Plan::Push { recipe, .. } = &plans[0] else { panic!("expected a move, got {:?}", plans[0]) };
        let Some(MoveTo { pos, tolerance, .. }) = recipe.as_any().downcast_ref::<MoveTo>() else {
            panic!("expected a move, got {recipe:?}")
        };
        assert_eq!(*tolerance, 0, "4 steps means 4, not 3");
        assert_eq!((pos.x, pos.z), (0, 10), "forward of an agent facing south is +z");
    }
}
