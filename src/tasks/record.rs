//! What the stack remembers about each command: ids, kinds, states, block changes, and the
//! events the agent turns into memory entries and chat lines.
//!
//! Everything here is plain serialisable data, so the agent can persist it in its memory store
//! and undo can be asked for long after the command ran.

use crate::world::{Block, Pos};
use serde::{Deserialize, Serialize};

/// A top-level task's id: unique within one [`super::TaskStack`], increasing.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct TaskId(pub u64);

impl std::fmt::Display for TaskId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "#{}", self.0)
    }
}

/// Which kind of command a task is. Mirrors the logical form's action types.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum TaskKind {
    Move,
    Follow,
    Build,
    Destroy,
    Dig,
    Fill,
    Spawn,
    Dance,
    Get,
    Undo,
    Loop,
    /// Mining, chopping, harvesting: breaking blocks for what they give.
    Gather,
    /// Tilling and planting a field.
    Farm,
    /// Items moved: into or out of a chest, dropped, crafted.
    Items,
}

impl TaskKind {
    pub fn name(self) -> &'static str {
        match self {
            TaskKind::Move => "move",
            TaskKind::Follow => "follow",
            TaskKind::Build => "build",
            TaskKind::Destroy => "destroy",
            TaskKind::Dig => "dig",
            TaskKind::Fill => "fill",
            TaskKind::Spawn => "spawn",
            TaskKind::Dance => "dance",
            TaskKind::Get => "get",
            TaskKind::Undo => "undo",
            TaskKind::Loop => "loop",
            TaskKind::Gather => "gather",
            TaskKind::Farm => "farm",
            TaskKind::Items => "items",
        }
    }

    /// The kind for a logical form's `action_type` (`"BUILD"`, `"DIG"` …), if it names a task.
    pub fn from_action_type(s: &str) -> Option<TaskKind> {
        Some(match s.to_ascii_uppercase().as_str() {
            "MOVE" => TaskKind::Move,
            "BUILD" | "PAINT" => TaskKind::Build,
            "DESTROY" => TaskKind::Destroy,
            "DIG" => TaskKind::Dig,
            "FILL" => TaskKind::Fill,
            "SPAWN" => TaskKind::Spawn,
            "DANCE" => TaskKind::Dance,
            "GET" => TaskKind::Get,
            "UNDO" => TaskKind::Undo,
            "COLLECT" => TaskKind::Gather,
            "PLANT" => TaskKind::Farm,
            "PUT" | "DROP" | "CRAFT" => TaskKind::Items,
            _ => return None,
        })
    }
}

impl std::fmt::Display for TaskKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// One block change a task made: what was there and what it left.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Change {
    pub tick: u64,
    pub pos: Pos,
    pub before: Block,
    pub after: Block,
}

/// Where a top-level task is in its life.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum TaskState {
    /// On top of the stack and stepping.
    Running,
    /// A newer command is running on top of it; it resumes when that one finishes.
    Interrupted,
    /// Stopped by a player; it waits for "resume".
    Paused,
    /// Finished as asked.
    Done,
    /// Gave up (the outcome says why).
    Failed,
    /// Cancelled before it finished.
    Stopped,
}

impl TaskState {
    pub fn is_finished(self) -> bool {
        matches!(self, TaskState::Done | TaskState::Failed | TaskState::Stopped)
    }
}

/// Who asked, what they said, and the logical form it came from (attached by the caller so
/// memory can answer "what did I ask you to build?").
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct TaskMeta {
    pub speaker: Option<String>,
    pub chat: Option<String>,
    pub logical_form: Option<serde_json::Value>,
    /// The memory ids of the objects the command makes (reserved in memory before it runs).
    #[serde(default)]
    pub made: Vec<i64>,
    /// The things the command takes down, as memory knew them, for an undo to bring back.
    #[serde(default)]
    pub taken_down: Vec<TakenDown>,
    /// What the command was after and got (see [`super::Task::yields`]), once it finished.
    #[serde(default)]
    pub yields: Vec<String>,
}

/// A thing a command takes down, as memory knew it before: what was said about it
/// (predicate, text, source — its name, what players called it, who it was built for) and its
/// blocks. Undoing the command brings back the thing, not only its blocks.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct TakenDown {
    pub said: Vec<(String, String, String)>,
    pub blocks: Vec<(crate::world::Pos, crate::world::Block)>,
    /// When it was first made (a memory tick): brought back, it keeps its place in history.
    #[serde(default)]
    pub since: u64,
}

impl TaskMeta {
    pub fn from_speaker(speaker: &str) -> Self {
        TaskMeta { speaker: Some(speaker.to_string()), ..TaskMeta::default() }
    }
}

/// Everything known about one top-level command.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TaskRecord {
    pub id: TaskId,
    pub kind: TaskKind,
    pub description: String,
    pub meta: TaskMeta,
    pub state: TaskState,
    /// The last Done/Failed message (a chat line), once finished.
    pub outcome: Option<String>,
    /// Every block change this command made, sub-tasks included, oldest first.
    pub changes: Vec<Change>,
    pub created_tick: u64,
    pub finished_tick: Option<u64>,
    /// Set once an undo of this command has been started.
    pub undone: bool,
}

/// Something that happened to a top-level task, for memory and chat.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TaskEvent {
    pub id: TaskId,
    pub tick: u64,
    pub kind: TaskKind,
    pub description: String,
    pub event: TaskEventKind,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TaskEventKind {
    Started,
    /// A newer command took over; this one resumes after it.
    Interrupted,
    /// Stopped by a player (resumable).
    Paused,
    Resumed,
    Finished(String),
    Failed(String),
    /// Cancelled for good.
    Stopped,
    /// A remark while working ("could you step aside?"), worth saying in chat.
    Note(String),
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds_round_trip_and_read_like_the_logical_form() {
        assert_eq!(serde_json::to_string(&TaskKind::Build).unwrap(), "\"BUILD\"");
        assert_eq!(TaskKind::from_action_type("dig"), Some(TaskKind::Dig));
        assert_eq!(TaskKind::from_action_type("STOP"), None);
        assert_eq!(TaskId(3).to_string(), "#3");
        let e = TaskEventKind::Finished("done".into());
        let back: TaskEventKind = serde_json::from_str(&serde_json::to_string(&e).unwrap()).unwrap();
        assert_eq!(back, e);
    }
}
