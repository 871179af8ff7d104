//! The assistant: craftmate's tick loop, wiring the boxes of the design together.
//!
//! Each tick: perception turns world changes into memory; new chat goes through the dialogue
//! manager (its chat gate first; it may push tasks); the task on top of the stack takes one
//! step; what the tasks report (done, failed, a remark) is said in chat and written to memory,
//! so the bot can answer "what are you doing?" — also after a restart, when memory is a file.

use super::Bot;
use crate::dialogue::context::Context;
use crate::dialogue::manager::DialogueManager;
use crate::interpreter::describe;
use crate::logical_form::LogicalForm;
use crate::memory::{Memory, MemoryId, MemoryKind, NewTask, TaskState};
use crate::parser::Parser;
use crate::perception::Perception;
use crate::tasks::{TaskEventKind, TaskId, TaskStack};
use crate::world::World;
use std::collections::HashMap;

pub struct Assistant {
    pub memory: Memory,
    pub perception: Perception,
    pub tasks: TaskStack,
    pub dialogue: DialogueManager,
    /// Memory rows of the task records, by task id.
    task_rows: HashMap<TaskId, MemoryId>,
    /// Whether builds a restart cut off were looked for (once, at the first tick).
    resumed: bool,
}

impl Assistant {
    pub fn new(memory: Memory, parser: Option<Box<dyn Parser>>) -> Assistant {
        Assistant { memory, perception: Perception::new(), tasks: TaskStack::default(), dialogue: DialogueManager::new(parser), task_rows: HashMap::new(), resumed: false }
    }

    /// An assistant with a fresh in-memory memory.
    pub fn in_memory(parser: Option<Box<dyn Parser>>) -> Result<Assistant, crate::memory::MemoryError> {
        Ok(Assistant::new(Memory::in_memory()?, parser))
    }

    /// Says `line` cleaned and bounded: a player's words echoed back carry no escape or hidden
    /// character, and no reply is longer than three chat lines.
    fn say(world: &mut dyn World, line: &str) {
        let line = crate::safety::text::bounded_reply(&crate::safety::text::clean_line(line));
        if !line.is_empty() {
            world.say(&line);
        }
    }

    /// Write task events to memory and say what is worth saying.
    fn report_tasks(&mut self, world: &mut dyn World) {
        for ev in self.tasks.drain_events() {
            let state = match &ev.event {
                TaskEventKind::Started => {
                    let row = self.memory.record_task(NewTask {
                        action: ev.kind.name().to_uppercase(),
                        description: ev.description.clone(),
                        logical_form: self.tasks.record(ev.id).and_then(|r| r.meta.logical_form.clone()),
                        parent: None,
                        state: TaskState::Running,
                    });
                    match row {
                        Ok(id) => {
                            self.task_rows.insert(ev.id, id);
                        }
                        Err(e) => tracing::warn!("could not record a task: {e}"),
                    }
                    None
                }
                TaskEventKind::Interrupted | TaskEventKind::Paused => Some(TaskState::Paused),
                TaskEventKind::Resumed => Some(TaskState::Running),
                TaskEventKind::Finished(msg) => {
                    Self::say(world, msg);
                    Some(TaskState::Done)
                }
                TaskEventKind::Failed(msg) => {
                    Self::say(world, msg);
                    Some(TaskState::Failed)
                }
                TaskEventKind::Stopped => Some(TaskState::Cancelled),
                TaskEventKind::Note(msg) => {
                    Self::say(world, msg);
                    None
                }
            };
            if let (Some(state), Some(row)) = (state, self.task_rows.get(&ev.id))
                && let Err(e) = self.memory.update_task(*row, state)
            {
                tracing::warn!("could not update a task: {e}");
            }
            // A build that is over no longer claims the cells it did not get to.
            if state.is_some_and(TaskState::is_finished) {
                let made = self.tasks.record(ev.id).map(|r| r.meta.made.clone()).unwrap_or_default();
                for id in made {
                    if let Err(e) = self.memory.finish_plan(id) {
                        tracing::warn!("could not drop the plan of {id}: {e}");
                    }
                }
            }
        }
    }

    /// After a restart: tasks the last run left running were cut off, and a build still missing
    /// blocks is offered to the player who asked for it ("shall I finish it?").
    fn resume_after_restart(&mut self, world: &mut dyn World) {
        self.resumed = true;
        for t in self.memory.tasks_in_state(TaskState::Running).unwrap_or_default() {
            let _ = self.memory.update_task(t.id, TaskState::Paused);
        }
        let unfinished = match self.memory.unfinished_builds() {
            Ok(u) => u,
            Err(e) => return tracing::warn!("could not read unfinished builds: {e}"),
        };
        let mut asked: Vec<String> = Vec::new();
        // Newest first: that is the one a player remembers.
        for (object, plan) in unfinished.into_iter().rev() {
            let missing: Vec<_> = plan.iter().copied().filter(|(p, b)| world.block_at(*p) != *b).collect();
            let speaker = self.memory.values_of(object, crate::memory::builds::BUILT_FOR).ok().and_then(|v| v.into_iter().next());
            let Some(speaker) = speaker.filter(|s| !missing.is_empty() && !asked.contains(s)) else {
                if missing.is_empty() {
                    let _ = self.memory.finish_plan(object);
                }
                continue;
            };
            let the = describe::the(&self.memory, object);
            let question = format!(
                "{speaker}, I was building {the} when we stopped ({} of {} blocks are up). Shall I finish it? (yes/no)",
                plan.len() - missing.len(),
                plan.len()
            );
            let plans = vec![crate::interpreter::actions::build::finishing(object, missing, the)];
            self.dialogue.ask(&speaker, world.tick(), crate::dialogue::waiting::Waiting::Finish { object, plans });
            Self::say(world, &question);
            asked.push(speaker);
        }
    }
    /// The tick's work: perceive, hear, answer, step the task, report.
    fn tick_inner(&mut self, world: &mut dyn World) {
        self.memory.set_tick(world.tick());
        if let Err(e) = self.perception.update(world, &mut self.memory) {
            tracing::warn!("perception failed this tick: {e}");
        }
        if !self.resumed {
            self.resume_after_restart(world);
        }
        // A line of several steps goes on once its step before is done, perceived this tick.
        for speaker in self.dialogue.due_steps(&self.tasks, world) {
            let mut cx = Context::new(&speaker, world, &mut self.memory, &mut self.tasks);
            let replies = self.dialogue.go_on(&mut cx);
            for r in replies {
                Self::say(world, &r);
            }
        }
        let chats = world.take_chats();
        if let Err(e) = self.perception.record_chats(&chats, &mut self.memory) {
            tracing::warn!("could not store chat: {e}");
        }
        for chat in chats {
            let mut cx = Context::new(&chat.speaker, world, &mut self.memory, &mut self.tasks);
            let replies = self.dialogue.handle(&mut cx, &chat.text);
            for r in replies {
                Self::say(world, &r);
            }
        }
        for r in self.dialogue.tick(world.tick()) {
            Self::say(world, &r);
        }
        self.tasks.tick(world);
        self.report_tasks(world);
    }
}

impl Bot for Assistant {
    fn tick(&mut self, world: &mut dyn World) {
        // One transaction a tick: everything the tick writes lands at once, or (killed) not at all.
        if let Err(e) = self.memory.begin_tick() {
            tracing::warn!("could not start the tick's memory transaction: {e}");
        }
        self.tick_inner(world);
        if let Err(e) = self.memory.end_tick() {
            tracing::warn!("could not commit this tick's memories: {e}");
        }
    }

    fn is_idle(&self) -> bool {
        self.tasks.is_idle() && !self.dialogue.is_thinking() && !self.dialogue.has_pending()
    }

    fn is_thinking(&self) -> bool {
        self.dialogue.is_thinking()
    }

    fn expect_parse(&mut self, speaker: &str, text: &str, lf: LogicalForm) {
        self.dialogue.expect_parse(speaker, text, lf);
    }

    fn describe_tasks(&self) -> Vec<String> {
        let mut lines: Vec<String> = self.tasks.pending().map(|r| format!("{:?}: {}", r.state, r.description)).collect();
        lines.reverse(); // top of the stack first
        lines
    }

    fn understood(&self) -> Option<&crate::dialogue::last::LastLine> {
        self.dialogue.last.as_ref()
    }

    fn task_lines(&self) -> Vec<super::inspect::TaskLine> {
        super::inspect::task_lines(&self.tasks)
    }

    fn memory_version(&self) -> u64 {
        self.memory.changes()
    }

    fn memory_view(&self, near: crate::world::Pos, limit: usize) -> super::inspect::MemoryView {
        super::inspect::memory_view(&self.memory, near, limit)
    }

    fn control(&mut self, control: super::inspect::Control) -> String {
        use super::inspect::Control;
        let id = match control {
            Control::Stop => self.tasks.stop(),
            Control::Resume => self.tasks.resume(),
        };
        let what = id.and_then(|id| self.tasks.record(id)).map(|r| r.description.clone());
        match (control, what) {
            (Control::Stop, Some(w)) => format!("paused: {w}"),
            (Control::Stop, None) => "nothing is running".into(),
            (Control::Resume, Some(w)) => format!("resumed: {w}"),
            (Control::Resume, None) => "nothing is paused".into(),
        }
    }

    fn describe_memory(&self) -> Vec<String> {
        let mut out = Vec::new();
        for kind in [MemoryKind::BlockObject, MemoryKind::Hole, MemoryKind::Location] {
            for o in self.memory.objects_of_kind(kind).unwrap_or_default() {
                let tags = self.memory.values_of(o.id, "has_tag").unwrap_or_default();
                let tags = if tags.is_empty() { String::new() } else { format!(" [tags: {}]", tags.join(", ")) };
                out.push(format!("#{} {} at {}{}", o.id, describe::noun(&self.memory, o.id), o.bbox.min, tags));
            }
        }
        out
    }
}
