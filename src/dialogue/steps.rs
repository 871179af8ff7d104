//! The rest of a line of several steps: "build a red cube, then a blue cube on top of it".
//!
//! Steps run in order, and each is interpreted when it starts, against the world as it then is:
//! the speaker's place and look at that moment, and what the step before left behind (the
//! [`Antecedent`]: what it made, destroyed, dug or went to), which "it", "that", "there" and "on
//! top of it" in the later step mean. The dialogue manager carries out the first step at once and
//! keeps the rest here, one line per player; each tick the agent asks whether the tasks of the
//! step being carried out are over, and the manager goes on with the next.

use std::collections::{HashMap, VecDeque};

use crate::interpreter::context::Antecedent;
use crate::tasks::{TaskId, TaskKind, TaskStack, TaskState};
use crate::understanding::step::Step;
use crate::world::{Block, Pos, World};

/// At most this many cells of a step's changes are kept for the next step.
const MAX_CELLS: usize = 4096;

/// How far from the bot an animal it just spawned can stand.
const SPAWN_REACH: f64 = 8.0;

/// The steps of a player's line not begun yet.
#[derive(Debug)]
pub struct PendingLine {
    pub speaker: String,
    /// The whole line, for the tasks' records.
    pub chat: String,
    pub steps: VecDeque<Step>,
    /// The tasks of the step being carried out: the next step starts when all are done.
    pub waiting: Vec<TaskId>,
    /// A question about the step (which one? are you sure? did you mean?) is open: nothing
    /// goes on until it is answered.
    pub held: bool,
    /// What the step before the current one left behind, kept when the current one leaves
    /// nothing (a reply, a stop).
    pub antecedent: Option<Antecedent>,
}

/// Where the step being carried out stands.
#[derive(Debug, PartialEq)]
pub enum Progress {
    /// Still running, paused, or held by a question.
    Wait,
    /// Over: go on with the next step, which refers to this.
    Next(Option<Antecedent>),
    /// It failed or was cancelled: the rest is dropped, and the player told.
    Dropped,
}

impl PendingLine {
    pub fn progress(&self, tasks: &TaskStack, world: &dyn World) -> Progress {
        if self.held {
            return Progress::Wait;
        }
        for id in &self.waiting {
            match tasks.record(*id).map(|r| r.state) {
                Some(TaskState::Done) | None => {}
                Some(TaskState::Failed | TaskState::Stopped) => return Progress::Dropped,
                Some(_) => return Progress::Wait,
            }
        }
        if self.waiting.is_empty() {
            return Progress::Next(self.antecedent.clone());
        }
        Progress::Next(left_behind(tasks, &self.waiting, world).or_else(|| self.antecedent.clone()))
    }

    /// The rest in the player's words: "walk 10 blocks east, then come back".
    pub fn rest_said(&self) -> String {
        self.steps.iter().map(|s| s.form.words.join(" ")).collect::<Vec<_>>().join(", then ")
    }
}

/// What finished tasks left behind: the thing they made, the cells they changed for good
/// (scaffolding put up and taken down again is not a change), what they dug out; a walk leaves
/// the spot it ended on.
pub fn left_behind(tasks: &TaskStack, ids: &[TaskId], world: &dyn World) -> Option<Antecedent> {
    let mut object = None;
    let mut shape = None;
    let mut first_last: HashMap<Pos, (Block, Block)> = HashMap::new();
    let mut order: Vec<Pos> = Vec::new();
    for id in ids {
        let Some(r) = tasks.record(*id) else { continue };
        object = object.or(r.meta.made.first().copied());
        // The bot's own words for what it did ("destroying the green wall"): the shape in them.
        shape = shape.or_else(|| r.description.split(' ').rev().find(|w| crate::schematics::is_known_shape(w)).map(str::to_string));
        for c in &r.changes {
            first_last
                .entry(c.pos)
                .and_modify(|(_, after)| *after = c.after)
                .or_insert_with(|| {
                    order.push(c.pos);
                    (c.before, c.after)
                });
        }
    }
    let changed: Vec<(Pos, Block, Block)> =
        order.into_iter().filter_map(|p| first_last.get(&p).filter(|(b, a)| b != a).map(|(b, a)| (p, *b, *a))).take(MAX_CELLS).collect();
    let dug = changed.iter().filter(|(_, before, after)| before.is_solid() && !after.is_solid()).map(|(p, b, _)| (*p, *b)).collect();
    let mut cells: Vec<Pos> = changed.iter().map(|(p, _, _)| *p).collect();
    let mut mob = None;
    let walked = cells.is_empty() && ids.iter().any(|id| tasks.record(*id).is_some_and(|r| r.kind == TaskKind::Move));
    if cells.is_empty() {
        // A spawn: the newest animal near the bot is what it made; a walk: where it ended.
        let spawned = ids.iter().any(|id| tasks.record(*id).is_some_and(|r| r.kind == TaskKind::Spawn));
        let here = world.agent_pos().feet();
        mob = world.mobs().into_iter().filter(|m| spawned && m.pos.distance(here) <= SPAWN_REACH).max_by_key(|m| m.id);
        cells.push(mob.as_ref().map(|m| m.pos.block()).unwrap_or_else(|| world.agent_pos()));
    }
    Some(Antecedent { object, cells, dug, mob: mob.map(|m| m.id), shape, walked })
}
