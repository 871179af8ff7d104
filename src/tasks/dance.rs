//! Dance: turning, looking, pointing, and the little named dances (spin, jump, nod, head shake,
//! walking a circle around something).
//!
//! Angles follow Minecraft: yaw 0 faces south, and a *positive* yaw change turns the agent to
//! its right (clockwise seen from above); pitch +90 looks straight down. The interpreter
//! converts "turn left 90 degrees" into `Turn::Relative { yaw: -90.0, .. }`. Every move takes
//! at least one tick, one turn (or one step) per tick, so a player can see it happen.

use super::context::{FallWatch, Landing};
use super::movement::Move;
use crate::logical_form::DanceName;
use super::{ChildOutcome, Step, Task, TaskContext, TaskKind};
use crate::world::rules;
use crate::world::{Look, Pos, Vec3};

/// A turn of body or head.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Turn {
    /// Add to the current yaw/pitch (degrees; positive yaw turns right).
    Relative { yaw: f32, pitch: f32 },
    /// Face an absolute yaw and/or pitch; `None` keeps the current value.
    Absolute { yaw: Option<f32>, pitch: Option<f32> },
}

/// One dance move.
#[derive(Clone, Debug, PartialEq)]
pub enum DanceMove {
    /// Turn the body (yaw only) or the head (yaw and pitch).
    Turn { turn: Turn, head_only: bool },
    /// Look at a point.
    LookAt(Vec3),
    /// Point at a point (the agent has no arm to raise: it faces the point and says so).
    PointAt(Vec3),
    /// Turn all the way round, in 45° steps, `turns` times.
    Spin { clockwise: bool, turns: u32 },
    /// Jump straight up and land, `times` times.
    Jump { times: u32 },
    /// Walk a loop of 8 points around `around` at `radius`.
    Circle { around: Pos, radius: i32, clockwise: bool },
    /// Look down and up again.
    Nod { times: u32 },
    /// Look left and right.
    ShakeHead { times: u32 },
}

pub struct Dance {
    mv: DanceMove,
    /// Steps done so far (turn steps, jumps, waypoints…).
    done: u32,
    start: Option<Look>,
    airborne: bool,
    in_air: FallWatch,
    waypoints: Vec<Pos>,
    /// Circle waypoints reached, and why the last one could not be.
    reached: u32,
    last_failure: Option<String>,
}

impl Dance {
    pub fn new(mv: DanceMove) -> Dance {
        Dance {
            mv,
            done: 0,
            start: None,
            airborne: false,
            in_air: FallWatch::default(),
            waypoints: Vec::new(),
            reached: 0,
            last_failure: None,
        }
    }

    pub fn turn(turn: Turn) -> Dance {
        Dance::new(DanceMove::Turn { turn, head_only: false })
    }

    pub fn turn_head(turn: Turn) -> Dance {
        Dance::new(DanceMove::Turn { turn, head_only: true })
    }

    pub fn look_at(p: Vec3) -> Dance {
        Dance::new(DanceMove::LookAt(p))
    }

    pub fn point_at(p: Vec3) -> Dance {
        Dance::new(DanceMove::PointAt(p))
    }

    pub fn spin(clockwise: bool) -> Dance {
        Dance::new(DanceMove::Spin { clockwise, turns: 1 })
    }

    pub fn jump() -> Dance {
        Dance::new(DanceMove::Jump { times: 1 })
    }

    pub fn circle(around: Pos, radius: i32, clockwise: bool) -> Dance {
        Dance::new(DanceMove::Circle { around, radius: radius.clamp(1, 16), clockwise })
    }

    pub fn nod() -> Dance {
        Dance::new(DanceMove::Nod { times: 2 })
    }

    /// A named dance. `around` is the target of a circle dance (the interpreter's reference
    /// object); without it there is no circle to walk.
    pub fn named(name: DanceName, around: Option<Pos>) -> Option<Dance> {
        let mv = match name {
            DanceName::Dance => DanceMove::Spin { clockwise: true, turns: 1 },
            DanceName::Spin { clockwise } => DanceMove::Spin { clockwise, turns: 1 },
            DanceName::Jump => DanceMove::Jump { times: 1 },
            DanceName::Nod => DanceMove::Nod { times: 2 },
            DanceName::ShakeHead => DanceMove::ShakeHead { times: 2 },
            DanceName::Circle { clockwise } => return around.map(|a| Dance::circle(a, 2, clockwise)),
        };
        Some(Dance::new(mv))
    }

    fn look(ctx: &mut TaskContext, yaw: f32, pitch: f32) {
        ctx.world.set_look(Look::new(yaw, pitch));
    }
}

/// Angles from outside may be NaN or infinite: treat those as no turn at all.
fn finite(angle: f32) -> f32 {
    if angle.is_finite() { angle } else { 0.0 }
}

fn eye(ctx: &TaskContext) -> Vec3 {
    rules::eye_of(ctx.world.agent_pos().feet())
}

impl Task for Dance {
    fn kind(&self) -> TaskKind {
        TaskKind::Dance
    }

    fn describe(&self) -> String {
        match &self.mv {
            DanceMove::Turn { head_only: true, .. } => "turning my head".into(),
            DanceMove::Turn { .. } => "turning".into(),
            DanceMove::LookAt(_) => "looking".into(),
            DanceMove::PointAt(_) => "pointing".into(),
            DanceMove::Spin { clockwise, .. } => {
                format!("spinning {}", if *clockwise { "clockwise" } else { "anticlockwise" })
            }
            DanceMove::Jump { .. } => "jumping".into(),
            DanceMove::Circle { around, .. } => format!("dancing around {around}"),
            DanceMove::Nod { .. } => "nodding".into(),
            DanceMove::ShakeHead { .. } => "shaking my head".into(),
        }
    }

    fn step(&mut self, ctx: &mut TaskContext) -> Step {
        let now = ctx.world.agent_look();
        let start = *self.start.get_or_insert(now);
        match self.mv.clone() {
            DanceMove::Turn { turn, head_only } => {
                let (yaw, pitch) = match turn {
                    Turn::Relative { yaw, pitch } => {
                        (now.yaw + finite(yaw), now.pitch + if head_only { finite(pitch) } else { 0.0 })
                    }
                    Turn::Absolute { yaw, pitch } => {
                        let pitch = if head_only { pitch.map(finite).unwrap_or(now.pitch) } else { now.pitch };
                        (yaw.map(finite).unwrap_or(now.yaw), pitch)
                    }
                };
                Dance::look(ctx, yaw, pitch);
                Step::Done("Done.".into())
            }
            DanceMove::LookAt(p) => {
                ctx.world.set_look(Look::towards(eye(ctx), p));
                Step::Done("I'm looking at it.".into())
            }
            DanceMove::PointAt(p) => {
                ctx.world.set_look(Look::towards(eye(ctx), p));
                Step::Done("It's over there.".into())
            }
            DanceMove::Spin { clockwise, turns } => {
                const STEPS: u32 = 8;
                self.done += 1;
                let sign = if clockwise { 1.0 } else { -1.0 };
                Dance::look(ctx, start.yaw + sign * 45.0 * self.done as f32, start.pitch);
                if self.done >= STEPS * turns.max(1) {
                    return Step::Done("Wheee!".into());
                }
                Step::Continue
            }
            DanceMove::Jump { times } => {
                match self.in_air.check(ctx) {
                    Landing::Resting => {}
                    Landing::Falling => return Step::Continue, // gravity brings it down
                    Landing::Overdue => {
                        return Step::Failed(format!("I'm stuck in the air at {}.", ctx.world.agent_pos()));
                    }
                }
                if self.airborne {
                    self.airborne = false;
                    self.done += 1;
                }
                if self.done >= times.max(1) {
                    return Step::Done("Boing!".into());
                }
                let up = ctx.world.agent_pos().up(1);
                match ctx.world.step_to(up) {
                    Ok(()) => {
                        self.airborne = true;
                        Step::Continue
                    }
                    Err(e) => Step::Failed(format!("I can't jump here: {e}")),
                }
            }
            DanceMove::Circle { around, radius, clockwise } => {
                if self.waypoints.is_empty() {
                    self.waypoints = circle_points(around, radius, clockwise, ctx.world.agent_pos());
                }
                let i = self.done as usize;
                if i >= self.waypoints.len() {
                    return match (self.reached, self.last_failure.take()) {
                        (0, Some(why)) => Step::Failed(format!("I can't dance around {around}: {why}")),
                        _ => Step::Done("Ta-da!".into()),
                    };
                }
                self.done += 1;
                Step::Push(Box::new(Move::near(self.waypoints[i], 1)))
            }
            DanceMove::Nod { times } => {
                self.done += 1;
                let pitch = if self.done % 2 == 1 { 35.0 } else { start.pitch };
                Dance::look(ctx, start.yaw, pitch);
                if self.done >= 2 * times.max(1) {
                    return Step::Done("Yes!".into());
                }
                Step::Continue
            }
            DanceMove::ShakeHead { times } => {
                self.done += 1;
                let last = 2 * times.max(1) + 1;
                let yaw = match self.done {
                    d if d >= last => start.yaw,
                    d if d % 2 == 1 => start.yaw + 30.0,
                    _ => start.yaw - 30.0,
                };
                Dance::look(ctx, yaw, start.pitch);
                if self.done >= last {
                    return Step::Done("No!".into());
                }
                Step::Continue
            }
        }
    }

    /// A circle waypoint that cannot be reached is skipped, not a reason to stop dancing.
    fn child_finished(&mut self, outcome: ChildOutcome) -> Option<Step> {
        match outcome {
            ChildOutcome::Done(_) => self.reached += 1,
            ChildOutcome::Failed(why) => self.last_failure = Some(why),
        }
        None
    }
}

/// 8 points around `c` at `radius`, in walking order starting from the one nearest `from`.
/// Clockwise (seen from above) is the direction of increasing yaw: south → west → north → east.
fn circle_points(c: Pos, radius: i32, clockwise: bool, from: Pos) -> Vec<Pos> {
    let r = radius as f64;
    let points: Vec<Pos> = (0..8)
        .map(|k| {
            let yaw = (k as f64 * 45.0).to_radians();
            // The direction a yaw faces: (-sin, cos) in (x, z).
            let dx = (-yaw.sin() * r).round() as i32;
            let dz = (yaw.cos() * r).round() as i32;
            Pos::new(c.x.saturating_add(dx), c.y, c.z.saturating_add(dz))
        })
        .collect();
    let dist = |p: Pos| (p.x as i64 - from.x as i64).abs() + (p.z as i64 - from.z as i64).abs();
    let first = (0..8).min_by_key(|&k| dist(points[k])).unwrap_or(0);
    let mut out: Vec<Pos> =
        (0..8).map(|i| if clockwise { points[(first + i) % 8] } else { points[(first + 8 - i) % 8] }).collect();
    out.push(points[first]); // close the loop
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn circle_goes_round_in_the_asked_direction() {
        let c = Pos::new(0, 5, 0);
        let cw = circle_points(c, 3, true, Pos::new(0, 5, 5));
        assert_eq!(cw.len(), 9);
        assert_eq!(cw[0], Pos::new(0, 5, 3), "starts south, nearest the agent");
        assert_eq!(cw[2], Pos::new(-3, 5, 0), "clockwise from above: south, then west");
        let acw = circle_points(c, 3, false, Pos::new(0, 5, 5));
        assert_eq!(acw[2], Pos::new(3, 5, 0), "anticlockwise: south, then east");
        assert_eq!(cw[8], cw[0]);
    }

    #[test]
    fn names() {
        assert!(matches!(Dance::named(DanceName::Spin { clockwise: true }, None).unwrap().mv, DanceMove::Spin { clockwise: true, .. }));
        assert!(matches!(
            Dance::named(DanceName::Spin { clockwise: false }, None).unwrap().mv,
            DanceMove::Spin { clockwise: false, .. }
        ));
        assert!(Dance::named(DanceName::Circle { clockwise: true }, None).is_none());
        assert!(Dance::named(DanceName::Circle { clockwise: true }, Some(Pos::new(1, 2, 3))).is_some());
    }

    /// A landing that never comes (no gravity without `advance`) ends the jumps with a reason.
    #[test]
    fn a_jump_that_never_lands_fails_with_a_reason() {
        use crate::tasks::testing::run_task;
        use crate::tasks::{Limits, TaskMeta, TaskStack, TaskState};
        use crate::world::embedded::EmbeddedWorld;
        let mut w = EmbeddedWorld::flat();
        assert_eq!(run_task(&mut w, Dance::new(DanceMove::Jump { times: 2 }), 50).1, "Boing!");
        let mut stack = TaskStack::default();
        let id = stack.push(Box::new(Dance::new(DanceMove::Jump { times: 2 })), TaskMeta::default());
        for _ in 0..Limits::default().max_fall_ticks + 5 {
            stack.tick(&mut w);
        }
        let record = stack.record(id).unwrap();
        assert_eq!(record.state, TaskState::Failed);
        assert!(record.outcome.as_deref().unwrap_or("").starts_with("I'm stuck in the air at"), "{record:?}");
    }
}
