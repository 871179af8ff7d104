//! What the bot shows of itself to a watcher (the web view): the task stack with progress, what
//! it remembers, and what it made of the last line; and the two controls a watcher has, stop
//! and resume.
//!
//! Everything here is plain serialisable data, built between ticks from the assistant's own
//! state. Building the memory view reads SQLite, so watchers ask for it only when
//! [`crate::agent::Bot::memory_version`] says something was written.

use crate::interpreter::describe;
use crate::memory::{Memory, MemoryKind};
use crate::tasks::TaskStack;
use crate::world::Pos;
use serde::Serialize;

/// One command on the task stack.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TaskLine {
    pub id: u64,
    pub kind: &'static str,
    pub description: String,
    /// "running", "interrupted" (a newer command runs on top) or "paused" (waits for resume).
    pub state: &'static str,
    /// Blocks done and blocks in all, for commands that change blocks.
    pub done: Option<usize>,
    pub total: Option<usize>,
    /// The sub-task it is on ("going to (3, 5, 2)"), when there is one.
    pub step: Option<String>,
}

/// A command that is over (from memory, so it survives a restart).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PastTask {
    pub description: String,
    /// "done", "failed", "cancelled", "paused", "running".
    pub state: &'static str,
    pub tick: u64,
}

/// The task stack, top first.
pub fn task_lines(tasks: &TaskStack) -> Vec<TaskLine> {
    let mut lines: Vec<TaskLine> = tasks
        .pending()
        .map(|r| {
            let progress = tasks.progress_of(r.id);
            TaskLine {
                id: r.id.0,
                kind: r.kind.name(),
                description: r.description.clone(),
                state: match r.state {
                    crate::tasks::TaskState::Paused => "paused",
                    crate::tasks::TaskState::Interrupted => "interrupted",
                    _ => "running",
                },
                done: progress.map(|p| p.0),
                total: progress.map(|p| p.1),
                step: tasks.step_of(r.id),
            }
        })
        .collect();
    lines.reverse();
    lines
}

/// A thing the bot remembers.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ObjectLine {
    pub id: i64,
    /// "block object" or "hole".
    pub kind: &'static str,
    /// How the bot names it in chat: "the red cube", "the pumpkin box".
    pub the: String,
    pub names: Vec<String>,
    pub tags: Vec<String>,
    pub colour: Option<String>,
    /// Width (x), height (y) and depth (z) in blocks.
    pub size: [i32; 3],
    pub min: [i32; 3],
    pub max: [i32; 3],
    pub blocks: u64,
}

/// A named place ("home", "the spot where we met").
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PlaceLine {
    pub id: i64,
    pub name: String,
    pub pos: [i32; 3],
}

/// What the bot remembers, nearest things first.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct MemoryView {
    pub objects: Vec<ObjectLine>,
    /// Things remembered beyond the `limit` shown.
    pub more: usize,
    pub places: Vec<PlaceLine>,
    /// The last commands, newest first.
    pub recent: Vec<PastTask>,
}

fn xyz(p: Pos) -> [i32; 3] {
    [p.x, p.y, p.z]
}

/// Up to `limit` remembered things, the nearest to `near` first; named places; recent tasks.
pub fn memory_view(memory: &Memory, near: Pos, limit: usize) -> MemoryView {
    let mut things = Vec::new();
    for kind in [MemoryKind::BlockObject, MemoryKind::Hole] {
        things.extend(memory.objects_of_kind(kind).unwrap_or_default());
    }
    let here = near.feet();
    things.sort_by(|a, b| a.distance_to(here).total_cmp(&b.distance_to(here)).then(a.id.cmp(&b.id)));
    let more = things.len().saturating_sub(limit);
    let objects = things
        .into_iter()
        .take(limit)
        .map(|o| ObjectLine {
            id: o.id,
            kind: if o.kind == MemoryKind::Hole { "hole" } else { "block object" },
            the: describe::the(memory, o.id),
            names: memory.values_of(o.id, "has_name").unwrap_or_default(),
            tags: memory.values_of(o.id, "has_tag").unwrap_or_default(),
            colour: memory.values_of(o.id, "has_colour").ok().and_then(|v| v.into_iter().next()),
            size: o.bbox.size(),
            min: xyz(o.bbox.min),
            max: xyz(o.bbox.max),
            blocks: o.voxels,
        })
        .collect();
    let places = memory
        .objects_of_kind(MemoryKind::Location)
        .unwrap_or_default()
        .into_iter()
        .map(|o| PlaceLine { id: o.id, name: describe::noun(memory, o.id), pos: xyz(o.bbox.min) })
        .collect();
    let recent = memory
        .last_tasks(8)
        .unwrap_or_default()
        .into_iter()
        .map(|t| PastTask { description: t.description, state: t.state.as_str(), tick: t.finished_tick.unwrap_or(t.created_tick) })
        .collect();
    MemoryView { objects, more, places, recent }
}

/// What a watcher may do to the bot besides talking to it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Control {
    /// Pause the running command (as "stop" in chat).
    Stop,
    /// Resume the paused command (as "resume" in chat).
    Resume,
}
