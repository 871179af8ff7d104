//! The task stack: the agent's to-do list of commands, newest on top.
//!
//! - [`TaskStack::push`]: a new command goes on top and *interrupts* the current one, which
//!   resumes by itself when the new one finishes ("build a house" … "come here" … the house
//!   continues).
//! - [`TaskStack::tick`]: one step of the innermost sub-task of the top command.
//! - [`TaskStack::stop`] pauses the top command; nothing runs until [`TaskStack::resume`] or a
//!   new command (a command pushed on top of a paused one runs; the paused one still waits for
//!   "resume" afterwards). [`TaskStack::cancel`] drops it for good.
//! - Finished, failed and cancelled commands move to [`TaskStack::history`] with their block
//!   changes, which is what [`TaskStack::undo_last`] reverts.
//! - [`TaskStack::drain_events`] hands the agent what happened (started, interrupted, paused,
//!   resumed, finished, failed, notes) to store in memory and to say in chat.
//!
//! Each top-level command owns a stack of frames: its own task at the bottom, sub-tasks (a
//! Move pushed by a Build) above. Sub-tasks share the command's change list and scaffold set.

use super::context::Ledger;
use super::record::{TaskEvent, TaskEventKind, TaskId, TaskKind, TaskMeta, TaskRecord, TaskState};
use super::undo::Undo;
use super::{ChildOutcome, Limits, Step, Task, TaskContext, TaskError};
use crate::world::{Pos, World};
use rustc_hash::FxHashSet;

/// Finished commands kept for "undo" and "what did you do?" (the oldest are dropped first).
pub const MAX_HISTORY: usize = 1000;

struct Frame {
    task: Box<dyn Task>,
    checked: bool,
}

struct Entry {
    record: TaskRecord,
    frames: Vec<Frame>,
    ledger: Ledger,
    /// What the command looked like when it last moved on, and since when (see [`Watch`]).
    watch: Watch,
}

/// A command that changes blocks has made progress when its count of blocks done changed.
/// One that shows none for [`Limits::max_idle_ticks`] ticks is stopped with a message, so no
/// command hangs forever (a walk with no way on, a build done but never ended). Moving about or
/// putting scaffold up and down is no progress: a bot pacing on its scaffold is stuck.
#[derive(Default)]
struct Watch {
    seen: Option<(usize, usize)>,
    since: u64,
    /// The last tick the command ran: time paused or under another command does not count.
    last: u64,
}

#[derive(Default)]
pub struct TaskStack {
    limits: Limits,
    entries: Vec<Entry>,
    history: Vec<TaskRecord>,
    events: Vec<TaskEvent>,
    next_id: u64,
    now: u64,
    /// Scaffold a finished command left standing (the pillar it climbed onto a roof by): the
    /// next command takes it over, so it may break it to come down, and tidies it away.
    left_scaffold: FxHashSet<Pos>,
}

fn event(events: &mut Vec<TaskEvent>, record: &TaskRecord, tick: u64, e: TaskEventKind) {
    events.push(TaskEvent {
        id: record.id,
        tick,
        kind: record.kind,
        description: record.description.clone(),
        event: e,
    });
}

impl TaskStack {
    pub fn new(limits: Limits) -> Self {
        TaskStack { limits, ..TaskStack::default() }
    }

    pub fn limits(&self) -> &Limits {
        &self.limits
    }

    pub fn set_limits(&mut self, limits: Limits) {
        self.limits = limits;
    }

    /// Put a new command on top; the current one (if any) is interrupted until this finishes.
    pub fn push(&mut self, task: Box<dyn Task>, meta: TaskMeta) -> TaskId {
        self.next_id += 1;
        let id = TaskId(self.next_id);
        if let Some(top) = self.entries.last_mut()
            && top.record.state == TaskState::Running
        {
            top.record.state = TaskState::Interrupted;
            event(&mut self.events, &top.record, self.now, TaskEventKind::Interrupted);
        }
        let record = TaskRecord {
            id,
            kind: task.kind(),
            description: task.describe(),
            meta,
            state: TaskState::Running,
            outcome: None,
            changes: Vec::new(),
            created_tick: self.now,
            finished_tick: None,
            undone: false,
        };
        tracing::info!(%id, task = %record.description, "task pushed");
        event(&mut self.events, &record, self.now, TaskEventKind::Started);
        let ledger = Ledger { scaffold: std::mem::take(&mut self.left_scaffold), ..Ledger::default() };
        self.entries.push(Entry { record, frames: vec![Frame { task, checked: false }], ledger, watch: Watch { seen: None, since: self.now, last: self.now } });
        id
    }

    /// Like [`TaskStack::push`], but first runs the task's world checks, so a request that
    /// cannot work (digging through bedrock) is refused before it is accepted.
    pub fn push_checked(
        &mut self,
        task: Box<dyn Task>,
        meta: TaskMeta,
        world: &dyn World,
    ) -> Result<TaskId, TaskError> {
        task.check(world, &self.limits)?;
        Ok(self.push(task, meta))
    }

    /// One tick: step the innermost sub-task of the top command (nothing if it is paused).
    pub fn tick(&mut self, world: &mut dyn World) {
        self.now = world.tick();
        let TaskStack { limits, entries, events, now, .. } = self;
        let Some(entry) = entries.last_mut() else { return };
        match entry.record.state {
            TaskState::Paused => return,
            TaskState::Interrupted => {
                entry.record.state = TaskState::Running;
                event(events, &entry.record, *now, TaskEventKind::Resumed);
            }
            _ => {}
        }
        let Entry { record, frames, ledger, watch } = entry;
        let mut finished = None;
        {
            let mut ctx = TaskContext::new(world, limits, &mut record.changes, ledger);
            let Some(frame) = frames.last_mut() else { return };
            let mut step = if frame.checked {
                frame.task.step(&mut ctx)
            } else {
                frame.checked = true;
                match frame.task.check(&*ctx.world, ctx.limits) {
                    Ok(()) => frame.task.step(&mut ctx),
                    Err(e) => Step::Failed(e.to_string()),
                }
            };
            // A finishing sub-task hands its outcome to its parent, which may finish too.
            loop {
                match step {
                    Step::Continue => break,
                    Step::Push(task) => {
                        tracing::debug!(sub = %task.describe(), depth = frames.len(), "sub-task pushed");
                        frames.push(Frame { task, checked: false });
                        break;
                    }
                    Step::Done(msg) if frames.len() <= 1 => {
                        record.meta.yields = frames.pop().map(|f| f.task.yields()).unwrap_or_default();
                        finished = Some((true, msg));
                        break;
                    }
                    Step::Failed(msg) if frames.len() <= 1 => {
                        record.meta.yields = frames.pop().map(|f| f.task.yields()).unwrap_or_default();
                        finished = Some((false, msg));
                        break;
                    }
                    Step::Done(msg) => {
                        frames.pop();
                        step = frames
                            .last_mut()
                            .and_then(|f| f.task.child_finished(ChildOutcome::Done(msg)))
                            .unwrap_or(Step::Continue);
                    }
                    Step::Failed(msg) => {
                        tracing::debug!(reason = %msg, "sub-task failed");
                        frames.pop();
                        step = frames
                            .last_mut()
                            .and_then(|f| f.task.child_finished(ChildOutcome::Failed(msg)))
                            .unwrap_or(Step::Continue);
                    }
                }
            }
        }
        for note in ledger.notes.drain(..) {
            event(events, record, *now, TaskEventKind::Note(note));
        }
        if finished.is_none() {
            finished = stalled(watch, frames, *now, limits.max_idle_ticks);
        }
        if let Some((ok, msg)) = finished {
            let standing: Vec<Pos> = ledger.scaffold.iter().filter(|p| world.block_at(**p) == limits.scaffold).copied().collect();
            self.left_scaffold.extend(standing);
            self.finish_top(if ok { TaskState::Done } else { TaskState::Failed }, msg);
        }
    }

    /// Move the top command to history with its final state.
    fn finish_top(&mut self, state: TaskState, msg: String) {
        let Some(mut entry) = self.entries.pop() else { return };
        entry.record.state = state;
        entry.record.outcome = Some(msg.clone());
        entry.record.finished_tick = Some(self.now);
        let e = match state {
            TaskState::Done => TaskEventKind::Finished(msg),
            TaskState::Failed => TaskEventKind::Failed(msg),
            _ => TaskEventKind::Stopped,
        };
        tracing::info!(id = %entry.record.id, ?state, "task finished");
        event(&mut self.events, &entry.record, self.now, e);
        self.history.push(entry.record);
        if self.history.len() > MAX_HISTORY {
            // The agent keeps its own long-term memory of events; the stack keeps recent ones.
            self.history.drain(..self.history.len() - MAX_HISTORY);
        }
    }

    /// Pause the top command ("stop"). It stays on the stack and can be resumed.
    pub fn stop(&mut self) -> Option<TaskId> {
        let top = self.entries.last_mut()?;
        if top.record.state == TaskState::Paused {
            return None;
        }
        top.record.state = TaskState::Paused;
        event(&mut self.events, &top.record, self.now, TaskEventKind::Paused);
        Some(top.record.id)
    }

    /// Resume the most recently paused command. If newer commands are running above it, it
    /// continues when they finish.
    pub fn resume(&mut self) -> Option<TaskId> {
        let n = self.entries.len();
        let i = self.entries.iter().rposition(|e| e.record.state == TaskState::Paused)?;
        let entry = &mut self.entries[i];
        if i + 1 == n {
            entry.record.state = TaskState::Running;
            event(&mut self.events, &entry.record, self.now, TaskEventKind::Resumed);
        } else {
            entry.record.state = TaskState::Interrupted;
        }
        Some(entry.record.id)
    }

    /// Drop the top command for good ("forget it"); its changes stay undoable.
    pub fn cancel(&mut self) -> Option<TaskId> {
        let id = self.entries.last()?.record.id;
        self.finish_top(TaskState::Stopped, "stopped".into());
        Some(id)
    }

    /// Drop for good the commands on top of the stack that are making one of `things` (memory
    /// ids): "destroy it" said of the bridge being built ends its build, or the build would
    /// resume once the bridge is down. Returns how many were dropped.
    pub fn cancel_making(&mut self, things: &[i64]) -> usize {
        let mut dropped = 0;
        while self.entries.last().is_some_and(|e| e.record.meta.made.iter().any(|id| things.contains(id))) {
            self.cancel();
            dropped += 1;
        }
        dropped
    }

    /// Cancel every command.
    pub fn clear(&mut self) {
        while self.cancel().is_some() {}
    }

    /// Nothing is running: the stack is empty or its top command is paused.
    pub fn is_idle(&self) -> bool {
        self.entries.last().is_none_or(|e| e.record.state == TaskState::Paused)
    }

    /// What the agent is doing now (the running top command), for "what are you doing?".
    pub fn current(&self) -> Option<String> {
        let e = self.entries.last().filter(|e| e.record.state != TaskState::Paused)?;
        Some(e.frames.first()?.task.describe())
    }

    /// How far along the running top command is, `(blocks done, blocks in all)`, when it
    /// changes blocks.
    pub fn current_progress(&self) -> Option<(usize, usize)> {
        let e = self.entries.last().filter(|e| e.record.state != TaskState::Paused)?;
        e.frames.first()?.task.progress()
    }

    /// How far along command `id` (on the stack, running or not) is, `(blocks done, blocks in
    /// all)`, when it changes blocks.
    pub fn progress_of(&self, id: TaskId) -> Option<(usize, usize)> {
        let e = self.entries.iter().find(|e| e.record.id == id)?;
        e.frames.first()?.task.progress()
    }

    /// The innermost sub-task of command `id` on the stack, when it has one ("going to …").
    pub fn step_of(&self, id: TaskId) -> Option<String> {
        let e = self.entries.iter().find(|e| e.record.id == id)?;
        e.frames.get(1..)?.last().map(|f| f.task.describe())
    }

    /// The running top command's id and kind.
    pub fn current_task(&self) -> Option<(TaskId, TaskKind)> {
        let e = self.entries.last().filter(|e| e.record.state != TaskState::Paused)?;
        Some((e.record.id, e.record.kind))
    }

    /// The innermost running sub-task's description ("getting within reach of (3, 9, 2)").
    pub fn current_step(&self) -> Option<String> {
        let e = self.entries.last().filter(|e| e.record.state != TaskState::Paused)?;
        Some(e.frames.last()?.task.describe())
    }

    /// How many tasks deep the top command is (1 = no sub-task running; 0 = empty stack).
    pub fn depth(&self) -> usize {
        self.entries.last().map_or(0, |e| e.frames.len())
    }

    /// The paused command waiting for "resume", if any.
    pub fn paused(&self) -> Option<String> {
        let e = self.entries.iter().rev().find(|e| e.record.state == TaskState::Paused)?;
        Some(e.frames.first()?.task.describe())
    }

    /// Commands on the stack (running, interrupted or paused), oldest first.
    pub fn pending(&self) -> impl Iterator<Item = &TaskRecord> {
        self.entries.iter().map(|e| &e.record)
    }

    /// Finished, failed and cancelled commands, oldest first.
    pub fn history(&self) -> &[TaskRecord] {
        &self.history
    }

    /// Every command known, finished or not, oldest first.
    pub fn commands(&self) -> Vec<&TaskRecord> {
        let mut all: Vec<&TaskRecord> = self.history.iter().chain(self.entries.iter().map(|e| &e.record)).collect();
        all.sort_by_key(|r| r.id);
        all
    }

    /// A command's record, on the stack or in history.
    pub fn record(&self, id: TaskId) -> Option<&TaskRecord> {
        self.pending().chain(self.history.iter()).find(|r| r.id == id)
    }

    /// Everything that happened since the last call.
    pub fn drain_events(&mut self) -> Vec<TaskEvent> {
        std::mem::take(&mut self.events)
    }

    /// The most recent command (on the stack or finished) with block changes not yet undone,
    /// optionally of one kind. Undos themselves only count when asked for by kind.
    pub fn last_undoable(&self, kind: Option<TaskKind>) -> Option<&TaskRecord> {
        self.pending()
            .chain(self.history.iter())
            .filter(|r| !r.undone && !r.changes.is_empty())
            .filter(|r| match kind {
                Some(k) => r.kind == k,
                None => r.kind != TaskKind::Undo,
            })
            .max_by_key(|r| r.id)
    }

    /// The most recent undoable command that made the memory object `made` ("undo the wall").
    pub fn undoable_that_made(&self, made: i64) -> Option<&TaskRecord> {
        self.pending().chain(self.history.iter()).filter(|r| !r.undone && !r.changes.is_empty() && r.meta.made.contains(&made)).max_by_key(|r| r.id)
    }

    /// "Undo": revert the most recent undoable command (of `kind`, if given). A command still
    /// on the stack is cancelled first. Returns the id of the pushed Undo task.
    pub fn undo_last(&mut self, kind: Option<TaskKind>, meta: TaskMeta) -> Result<TaskId, TaskError> {
        let id = self.last_undoable(kind).ok_or(TaskError::NothingToUndo)?.id;
        self.undo(id, meta)
    }

    /// Revert the command `id` (unless it was undone already).
    pub fn undo(&mut self, id: TaskId, meta: TaskMeta) -> Result<TaskId, TaskError> {
        if let Some(i) = self.entries.iter().position(|e| e.record.id == id) {
            // Cancel it (and anything pushed on top of it) before reverting.
            while self.entries.len() > i {
                self.finish_top(TaskState::Stopped, "stopped to be undone".into());
            }
        }
        let record = self.history.iter_mut().find(|r| r.id == id && !r.undone).ok_or(TaskError::NothingToUndo)?;
        let undo = Undo::of(record)?;
        record.undone = true;
        Ok(self.push(Box::new(undo), meta))
    }
}

/// The end of a command that changes blocks and has shown no progress for `idle` ticks: done
/// when every block is in place (only the tidying up hung), else failed; `None` while it moves
/// on (or changes no blocks: following a player who stands still is no hang).
fn stalled(watch: &mut Watch, frames: &[Frame], now: u64, idle: u32) -> Option<(bool, String)> {
    let progress = frames.first()?.task.progress()?;
    let resumed = now > watch.last + 1;
    watch.last = now;
    if watch.seen != Some(progress) || resumed {
        *watch = Watch { seen: Some(progress), since: now, last: now };
        return None;
    }
    if now.saturating_sub(watch.since) < u64::from(idle) {
        return None;
    }
    let (done, total) = progress;
    let secs = idle / 20;
    Some(if done >= total {
        (true, format!("All {total} blocks are in place, but then I got stuck for {secs} seconds, so I stopped there."))
    } else {
        (false, format!("I made no progress for {secs} seconds ({done} of {total} blocks done), so I stopped."))
    })
}

#[cfg(test)]
#[path = "stack_tests.rs"]
mod tests;
