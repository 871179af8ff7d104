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
}

impl Assistant {
    pub fn new(memory: Memory, parser: Option<Box<dyn Parser>>) -> Assistant {
        Assistant { memory, perception: Perception::new(), tasks: TaskStack::default(), dialogue: DialogueManager::new(parser), task_rows: HashMap::new() }
    }

    /// An assistant with a fresh in-memory memory.
    pub fn in_memory(parser: Option<Box<dyn Parser>>) -> Result<Assistant, crate::memory::MemoryError> {
        Ok(Assistant::new(Memory::in_memory()?, parser))
    }

    fn say(world: &mut dyn World, line: &str) {
        if !line.trim().is_empty() {
            world.say(line);
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
        }
    }
}

impl Bot for Assistant {
    fn tick(&mut self, world: &mut dyn World) {
        self.memory.set_tick(world.tick());
        if let Err(e) = self.perception.update(world, &mut self.memory) {
            tracing::warn!("perception failed this tick: {e}");
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

    fn is_idle(&self) -> bool {
        self.tasks.is_idle() && !self.dialogue.is_thinking()
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
