//! The history and current state of the task stack: what the bot was asked to do, what it is
//! doing, and what it finished. Kept so "what are you doing?", "undo that" and a restarted bot
//! can look back at it.

use rusqlite::{OptionalExtension, Row, params};

use super::error::{MemoryError, Result};
use super::store::{Memory, tick_rust, tick_sql};
use super::types::{MemoryId, MemoryKind};

/// Where a task is in its life.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TaskState {
    Pending,
    Running,
    Paused,
    Done,
    Failed,
    Cancelled,
}

impl TaskState {
    pub fn as_str(self) -> &'static str {
        match self {
            TaskState::Pending => "pending",
            TaskState::Running => "running",
            TaskState::Paused => "paused",
            TaskState::Done => "done",
            TaskState::Failed => "failed",
            TaskState::Cancelled => "cancelled",
        }
    }

    pub fn parse(text: &str) -> Option<TaskState> {
        [
            TaskState::Pending,
            TaskState::Running,
            TaskState::Paused,
            TaskState::Done,
            TaskState::Failed,
            TaskState::Cancelled,
        ]
        .into_iter()
        .find(|s| s.as_str() == text)
    }

    /// Done, failed or cancelled: the task will not run again.
    pub fn is_finished(self) -> bool {
        matches!(self, TaskState::Done | TaskState::Failed | TaskState::Cancelled)
    }
}

/// A task to record.
#[derive(Debug, Clone, PartialEq)]
pub struct NewTask {
    /// The action type (`BUILD`, `MOVE`, …) or a task name.
    pub action: String,
    /// What it is doing, in words ("building a red tower").
    pub description: String,
    pub logical_form: Option<serde_json::Value>,
    pub parent: Option<MemoryId>,
    pub state: TaskState,
}

impl NewTask {
    pub fn new(action: &str, description: &str) -> NewTask {
        NewTask {
            action: action.to_string(),
            description: description.to_string(),
            logical_form: None,
            parent: None,
            state: TaskState::Pending,
        }
    }
}

/// A stored task.
#[derive(Debug, Clone, PartialEq)]
pub struct TaskRecord {
    pub id: MemoryId,
    pub action: String,
    pub state: TaskState,
    pub logical_form: Option<serde_json::Value>,
    pub parent: Option<MemoryId>,
    pub description: String,
    pub created_tick: u64,
    pub finished_tick: Option<u64>,
}

const COLUMNS: &str = "id, action, state, logical_form, parent, description, created_tick, finished_tick";

fn read_row(r: &Row) -> rusqlite::Result<(TaskRecord, Option<String>, String)> {
    let state: String = r.get(2)?;
    let lf: Option<String> = r.get(3)?;
    Ok((
        TaskRecord {
            id: r.get(0)?,
            action: r.get(1)?,
            state: TaskState::parse(&state).unwrap_or(TaskState::Failed),
            logical_form: None,
            parent: r.get(4)?,
            description: r.get(5)?,
            created_tick: tick_rust(r.get(6)?),
            finished_tick: r.get::<_, Option<i64>>(7)?.map(tick_rust),
        },
        lf,
        state,
    ))
}

/// Parses the stored JSON and state, refusing (rather than guessing at) data it cannot read.
fn finish(row: (TaskRecord, Option<String>, String)) -> Result<TaskRecord> {
    let (mut task, lf, state) = row;
    if TaskState::parse(&state).is_none() {
        return Err(MemoryError::BadData { id: task.id, detail: format!("unknown task state {state:?}") });
    }
    if let Some(text) = lf {
        task.logical_form = Some(
            serde_json::from_str(&text).map_err(|e| MemoryError::BadData { id: task.id, detail: e.to_string() })?,
        );
    }
    Ok(task)
}

impl Memory {
    /// Records a task at the current tick.
    pub fn record_task(&mut self, t: NewTask) -> Result<MemoryId> {
        if t.action.trim().is_empty() {
            return Err(MemoryError::Invalid("a task needs an action".into()));
        }
        if let Some(parent) = t.parent
            && self.kind_of(parent)? != Some(MemoryKind::Task)
        {
            return Err(MemoryError::NotFound(parent));
        }
        let lf = match &t.logical_form {
            Some(v) => Some(serde_json::to_string(v).map_err(|e| MemoryError::Invalid(e.to_string()))?),
            None => None,
        };
        self.wrote_history()?;
        self.batch(|m| {
            let tick = m.tick();
            let id = m.new_memory(MemoryKind::Task, tick)?;
            let finished = t.state.is_finished().then_some(tick_sql(tick));
            m.conn
                .prepare_cached(
                    "INSERT INTO tasks (id, action, state, logical_form, parent, description, created_tick, finished_tick)
                     VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
                )?
                .execute(params![id, t.action, t.state.as_str(), lf, t.parent, t.description, tick_sql(tick), finished])?;
            Ok(id)
        })
    }

    /// Moves a task to `state` at the current tick (a finished state stamps `finished_tick`).
    pub fn update_task(&mut self, id: MemoryId, state: TaskState) -> Result<()> {
        let tick = tick_sql(self.tick());
        let n = self
            .conn
            .prepare_cached(
                "UPDATE tasks SET state = ?2,
                 finished_tick = CASE WHEN ?3 THEN coalesce(finished_tick, ?4) ELSE NULL END WHERE id = ?1",
            )?
            .execute(params![id, state.as_str(), state.is_finished(), tick])?;
        if n == 0 {
            return Err(MemoryError::NotFound(id));
        }
        self.touch(id, self.tick())
    }

    /// A task by id.
    pub fn task(&self, id: MemoryId) -> Result<Option<TaskRecord>> {
        let mut stmt = self.conn.prepare_cached(&format!("SELECT {COLUMNS} FROM tasks WHERE id = ?1"))?;
        stmt.query_row([id], read_row).optional()?.map(finish).transpose()
    }

    /// The last `n` tasks recorded, newest first.
    pub fn last_tasks(&self, n: usize) -> Result<Vec<TaskRecord>> {
        let mut stmt =
            self.conn.prepare_cached(&format!("SELECT {COLUMNS} FROM tasks ORDER BY created_tick DESC, id DESC LIMIT ?1"))?;
        let rows = stmt.query_map([n.min(i64::MAX as usize) as i64], read_row)?;
        rows.map(|r| finish(r?)).collect()
    }

    /// Tasks in `state`, oldest first.
    pub fn tasks_in_state(&self, state: TaskState) -> Result<Vec<TaskRecord>> {
        let mut stmt = self.conn.prepare_cached(&format!("SELECT {COLUMNS} FROM tasks WHERE state = ?1 ORDER BY id"))?;
        let rows = stmt.query_map([state.as_str()], read_row)?;
        rows.map(|r| finish(r?)).collect()
    }
}
