//! How much history the memory keeps: the newest chat lines and finished tasks, a bounded number
//! of each, so a long-running bot (or a flood of chat) cannot grow its memory without end.
//!
//! Only history is pruned. Running and paused tasks, objects, names, locations, schematics and
//! lessons are what the bot knows about its world and its players; they are never pruned here.
//! The server owner sets the bounds in `[rules]` (`keep_chat_lines`, `keep_finished_tasks`).

use super::error::Result;
use super::store::Memory;

/// How many of each kind of history the memory keeps.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Retention {
    pub chat_lines: u64,
    pub finished_tasks: u64,
}

impl Default for Retention {
    fn default() -> Retention {
        Retention { chat_lines: Retention::CHAT_LINES, finished_tasks: Retention::FINISHED_TASKS }
    }
}

impl Retention {
    /// The default bound on chat lines: hours of busy chat, a few MB at most.
    pub const CHAT_LINES: u64 = 5000;
    /// The default bound on finished tasks ("what did we build", undo, "Lately" in the web view).
    pub const FINISHED_TASKS: u64 = 5000;
    /// History is pruned once every this many writes: one delete per row would cost a query
    /// per chat line, and going over the bound by a few rows costs nothing.
    pub const EVERY_WRITES: u32 = 64;
}

impl Memory {
    /// Sets how much history this memory keeps (the owner's `[rules]`).
    pub fn set_retention(&mut self, retention: Retention) {
        self.retention = retention;
    }

    /// Counts a write of history, pruning the oldest beyond the retention every
    /// [`Retention::EVERY_WRITES`] writes.
    pub(crate) fn wrote_history(&mut self) -> Result<()> {
        self.history_writes += 1;
        if self.history_writes >= Retention::EVERY_WRITES {
            self.history_writes = 0;
            self.prune_history()?;
        }
        Ok(())
    }

    /// Forgets the chat lines and finished tasks beyond the retention, oldest first. Returns how
    /// many memories went.
    pub fn prune_history(&mut self) -> Result<u64> {
        let Retention { chat_lines, finished_tasks } = self.retention;
        let keep = |n: u64| n.min(i64::MAX as u64) as i64;
        let chats = self.conn.prepare_cached(
            "DELETE FROM memories WHERE id IN
                 (SELECT id FROM chats ORDER BY tick DESC, id DESC LIMIT -1 OFFSET ?1)",
        )?
        .execute([keep(chat_lines)])?;
        let tasks = self.conn.prepare_cached(
            "DELETE FROM memories WHERE id IN
                 (SELECT id FROM tasks WHERE state IN ('done', 'failed', 'cancelled')
                  ORDER BY finished_tick DESC, id DESC LIMIT -1 OFFSET ?1)",
        )?
        .execute([keep(finished_tasks)])?;
        if chats + tasks > 0 {
            // Triples about what went were removed with it.
            self.lookups.clear();
        }
        Ok((chats + tasks) as u64)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::memory::{NewTask, TaskState};

    #[test]
    fn only_the_newest_history_is_kept_and_running_tasks_never_go() {
        let mut m = Memory::in_memory().unwrap();
        m.set_retention(Retention { chat_lines: 100, finished_tasks: 10 });
        let mut running = NewTask::new("BUILD", "building a wall");
        running.state = TaskState::Running;
        let wall = m.record_task(running).unwrap();
        let name = m.add_location("home", crate::world::Pos::new(0, 5, 0)).unwrap();
        for i in 0..1000u64 {
            m.set_tick(i);
            m.record_chat("alice", &format!("line {i}"), i).unwrap();
            let mut done = NewTask::new("MOVE", "walking");
            done.state = TaskState::Done;
            m.record_task(done).unwrap();
        }
        let chats: i64 = m.conn.query_row("SELECT COUNT(*) FROM chats", [], |r| r.get(0)).unwrap();
        let tasks: i64 = m.conn.query_row("SELECT COUNT(*) FROM tasks WHERE state = 'done'", [], |r| r.get(0)).unwrap();
        assert!((100..100 + Retention::EVERY_WRITES as i64).contains(&chats), "{chats} chat lines kept");
        assert!((10..10 + Retention::EVERY_WRITES as i64).contains(&tasks), "{tasks} finished tasks kept");
        assert_eq!(m.recent_chats(1, None).unwrap()[0].text, "line 999", "the newest are the ones kept");
        assert_eq!(m.task(wall).unwrap().map(|t| t.state), Some(TaskState::Running), "a running task stays");
        assert!(m.info(name).unwrap().is_some(), "names and places are not history");
    }
}
