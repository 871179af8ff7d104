//! The rest of a line of several steps: "build a red cube, then a blue cube on top of it".
//!
//! Steps run in order, and each is interpreted when it starts, against the world as it then is:
//! the speaker's place and look at that moment, and what the step before left behind (the
//! [`Antecedent`]: what it made, destroyed, dug or went to), which "it", "that", "there" and "on
//! top of it" in the later step mean. The dialogue manager carries out the first step at once and
//! keeps the rest here, one line per player; each tick the agent asks whether the tasks of the
//! step being carried out are over, and the manager goes on with the next. The manager's methods
//! that start, continue, hold and drop a line's steps live here too, beside the state they keep.

use std::collections::{HashMap, VecDeque};

use super::context::Context;
use super::last::Outcome;
use super::manager::DialogueManager;
use super::waiting::Waiting;
use crate::interpreter::actions::{self, Plan};
use crate::interpreter::context::{Antecedent, Turn};
use crate::interpreter::execute::{Executed, execute};
use crate::interpreter::problem::Problem;
use crate::interpreter::{naming, questions};
use crate::logical_form::{DialogueType, LogicalForm};
use crate::memory::MemoryId;
use crate::tasks::{TaskId, TaskKind, TaskMeta, TaskStack, TaskState};
use crate::understanding::step::{self, Step};
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
    let mut yields: Vec<String> = Vec::new();
    let mut first_last: HashMap<Pos, (Block, Block)> = HashMap::new();
    let mut order: Vec<Pos> = Vec::new();
    for id in ids {
        let Some(r) = tasks.record(*id) else { continue };
        object = object.or(r.meta.made.first().copied());
        yields.extend(r.meta.yields.iter().filter(|i| !yields.contains(i)).cloned().collect::<Vec<_>>());
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
    Some(Antecedent { object, cells, dug, mob: mob.map(|m| m.id), shape, walked, yields })
}

/// The dialogue manager's side: starting a line's steps, going on with them, holding them.
impl DialogueManager {
    /// Is a line of several steps still going on (not held by a question)?
    pub fn has_pending(&self) -> bool {
        self.pending.iter().any(|p| !p.held)
    }

    /// Players whose line has a next step due, or whose step failed.
    pub fn due_steps(&self, tasks: &crate::tasks::TaskStack, world: &dyn crate::world::World) -> Vec<String> {
        self.pending.iter().filter(|p| p.progress(tasks, world) != Progress::Wait).map(|p| p.speaker.clone()).collect()
    }

    /// Goes on with the speaker's line: the next step, interpreted now, or (the step before
    /// failed or was cancelled) a word about what was dropped.
    pub fn go_on(&mut self, cx: &mut Context) -> Vec<String> {
        let Some(i) = self.pending.iter().position(|p| p.speaker == cx.speaker) else { return Vec::new() };
        match self.pending[i].progress(cx.tasks, cx.world) {
            Progress::Wait => Vec::new(),
            Progress::Dropped => {
                let line = self.pending.remove(i);
                vec![format!("So I didn't go on with \"{}\".", line.rest_said())]
            }
            Progress::Next(mut antecedent) => {
                // An animal the step spawned is known to memory by now (perception ran first).
                if let Some(a) = antecedent.as_mut().filter(|a| a.object.is_none())
                    && let Some(entity) = a.mob
                {
                    a.object = cx.memory.mob_id(entity).ok().flatten();
                }
                let mut line = self.pending.remove(i);
                let Some(next) = line.steps.pop_front() else { return Vec::new() };
                self.run_steps(cx, &line.chat, next, line.steps, antecedent, None)
            }
        }
    }

    /// The speaker's line held by a question goes on once the tasks `pushed` are done (the
    /// question was answered and its step carried out).
    pub(super) fn release(&mut self, speaker: &str, pushed: Vec<TaskId>) {
        if let Some(p) = self.pending.iter_mut().find(|p| p.speaker == speaker && p.held) {
            p.held = false;
            p.waiting = pushed;
        }
    }

    /// The speaker's line held by a question is dropped (the answer was no, or a new line).
    pub(super) fn drop_held(&mut self, speaker: &str) {
        self.pending.retain(|p| !(p.speaker == speaker && p.held));
    }


    /// A new command: its steps carried out in order, each interpreted when it starts. It
    /// replaces what is left of the speaker's earlier line.
    pub(super) fn command(&mut self, cx: &mut Context, text: &str, lf: &LogicalForm, prefer: Option<MemoryId>) -> Vec<String> {
        self.pending.retain(|p| p.speaker != cx.speaker);
        let mut steps: VecDeque<Step> = self.understanding.steps(text, lf).into();
        let Some(first) = steps.pop_front() else { return vec!["What would you like me to do?".into()] };
        self.run_steps(cx, text, first, steps, None, prefer)
    }

    /// A step again, with the player's answer to "which one?"; the rest of its line goes on after.
    pub(super) fn step_again(&mut self, cx: &mut Context, text: &str, lf: &LogicalForm, prefer: MemoryId) -> Vec<String> {
        let held = self.pending.iter().position(|p| p.speaker == cx.speaker && p.held).map(|i| self.pending.remove(i));
        let (chat, rest, antecedent) = match held {
            Some(p) => (p.chat, p.steps, p.antecedent),
            None => (text.to_string(), VecDeque::new(), None),
        };
        let step = Step { lf: lf.clone(), form: step::form(text) };
        self.run_steps(cx, &chat, step, rest, antecedent, Some(prefer))
    }

    /// Interprets `step` now (`prefer`: the answer to a "which one?"; `antecedent`: what the step
    /// before left) and carries it out; the `rest` waits for its tasks, or goes on at once when
    /// it made none. A question about the step holds the rest; a step that cannot be done drops it.
    fn run_steps(&mut self, cx: &mut Context, chat: &str, mut step: Step, mut rest: VecDeque<Step>, mut antecedent: Option<Antecedent>, prefer: Option<MemoryId>) -> Vec<String> {
        let mut replies = Vec::new();
        loop {
            let step_text = step.form.words.join(" ");
            let mut turn = Turn::new(cx.speaker, step.form.clone(), cx.world, cx.memory);
            turn.rules = self.rules;
            turn.prefer = prefer;
            turn.antecedent = antecedent.clone();
            // "… and call it bob": a naming step names what the step before made.
            if step.lf.dialogue_type == DialogueType::PutMemory {
                let last = cx.tasks.history().last().map(|r| r.description.clone());
                self.note(Outcome::Remembered);
                match naming::update(&mut turn, &step.lf, last.as_deref()) {
                    naming::Updated::Said(said) => replies.push(said),
                    naming::Updated::Which { question, choices } => {
                        // The rest of the line waits for the answer, as for a command's question.
                        self.hold(cx.speaker, chat, rest, antecedent);
                        self.questions.ask(cx.speaker, cx.now(), Waiting::Which { chat: step_text, lf: step.lf.clone(), choices });
                        replies.push(question);
                        return replies;
                    }
                }
            } else if step.lf.dialogue_type == DialogueType::GetMemory {
                // "… then tell me where it is": answered when the step before is done.
                replies.push(questions::answer(&mut turn, &step.lf, cx.tasks));
                self.note(Outcome::Answered);
            } else {
                let planned = actions::command(&mut turn, &step.lf, &self.limits);
                let notes = std::mem::take(&mut turn.notes);
                match planned {
                    Ok(plans) => {
                        let meta = TaskMeta { speaker: Some(cx.speaker.to_string()), chat: Some(chat.to_string()), logical_form: Some(step.lf.to_json_value()), ..TaskMeta::default() };
                        let makes_tasks = plans.iter().any(|p| matches!(p, Plan::Push { .. }));
                        match execute(plans, meta, cx.world, cx.tasks, cx.memory, false) {
                            Executed::Done(lines, pushed) => {
                                // A task that could not even be made ("I don't know how to build
                                // …") is not done.
                                self.note(if makes_tasks && pushed.is_empty() { Outcome::NotDone } else { Outcome::ActedOn });
                                replies.extend(lines);
                                replies.extend(notes);
                                if !pushed.is_empty() {
                                    if !rest.is_empty() {
                                        let line = PendingLine { speaker: cx.speaker.to_string(), chat: chat.to_string(), steps: rest, waiting: pushed, held: false, antecedent };
                                        self.pending.push(line);
                                    }
                                    return replies;
                                }
                            }
                            Executed::Ask { question, plans } => {
                                self.note(Outcome::AskedBack);
                                self.questions.ask(cx.speaker, cx.now(), Waiting::Confirm { chat: step_text, lf: step.lf.clone(), plans });
                                self.hold(cx.speaker, chat, rest, antecedent);
                                replies.push(question);
                                return replies;
                            }
                        }
                    }
                    Err(Problem::Say(s)) => {
                        self.note(Outcome::NotDone);
                        replies.push(s);
                        if !rest.is_empty() {
                            let said: Vec<String> = rest.iter().map(|s| s.form.words.join(" ")).collect();
                            replies.push(format!("So I didn't go on with \"{}\".", said.join(", then ")));
                        }
                        return replies;
                    }
                    Err(Problem::Which { question, choices }) => {
                        self.note(Outcome::AskedBack);
                        self.questions.ask(cx.speaker, cx.now(), Waiting::Which { chat: step_text, lf: step.lf.clone(), choices });
                        self.hold(cx.speaker, chat, rest, antecedent);
                        replies.push(question);
                        return replies;
                    }
                }
            }
            // Nothing to wait for (a reply, a stop, a name given): the next step at once.
            match rest.pop_front() {
                Some(next) => step = next,
                None => return replies,
            }
            antecedent = antecedent.take();
        }
    }

    /// Keeps the rest of a line while a question about its step is open.
    fn hold(&mut self, speaker: &str, chat: &str, rest: VecDeque<Step>, antecedent: Option<Antecedent>) {
        if !rest.is_empty() {
            self.pending.push(PendingLine { speaker: speaker.to_string(), chat: chat.to_string(), steps: rest, waiting: Vec::new(), held: true, antecedent });
        }
    }
}
