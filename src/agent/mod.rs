//! The agent's tick loop, as seen from whoever drives it (the scenario runner, the REPL, the live
//! client).
//!
//! Each tick the agent perceives, handles new chat and advances its current task. Drivers only
//! need the [`Bot`] trait: tick it, ask whether it is idle, and — for scenarios' `lf` steps — hand
//! it the logical form to use for a chat line instead of parsing it. Watchers (the web view) also
//! read what the bot shows of itself ([`inspect`]) and may stop and resume it.

pub mod assistant;
pub mod inspect;

use crate::logical_form::LogicalForm;
use crate::world::World;

/// Something that plays in a [`World`], one tick at a time.
pub trait Bot {
    /// One game tick: perceive, handle chat, step the current task.
    fn tick(&mut self, world: &mut dyn World);
    /// Nothing left to do: no task running and nothing waiting to be said.
    fn is_idle(&self) -> bool;
    /// When `speaker` says exactly `text`, act on `lf` instead of parsing the text.
    fn expect_parse(&mut self, speaker: &str, text: &str, lf: LogicalForm);
    /// Waiting on something outside game time (a language model's answer).
    fn is_thinking(&self) -> bool {
        false
    }
    /// One line per task on the stack, top first (for `/stack` in the REPL).
    fn describe_tasks(&self) -> Vec<String> {
        Vec::new()
    }
    /// One line per remembered object with its names and tags (for `/memory` in the REPL).
    fn describe_memory(&self) -> Vec<String> {
        Vec::new()
    }
    /// What the bot made of the last chat line it handled.
    fn understood(&self) -> Option<&crate::dialogue::last::LastLine> {
        None
    }
    /// The task stack with progress, top first.
    fn task_lines(&self) -> Vec<inspect::TaskLine> {
        Vec::new()
    }
    /// Grows whenever memory is written: a watcher rereads [`Bot::memory_view`] only then.
    fn memory_version(&self) -> u64 {
        0
    }
    /// What the bot remembers, the nearest `limit` things to `near` first.
    fn memory_view(&self, _near: crate::world::Pos, _limit: usize) -> inspect::MemoryView {
        inspect::MemoryView::default()
    }
    /// Stop or resume from outside the chat; returns what happened, in words.
    fn control(&mut self, _control: inspect::Control) -> String {
        "this bot takes no commands".into()
    }
}

/// A bot that hears and remembers chat but never acts or answers.
///
/// Used to test harnesses (the scenario runner must judge the world, not the bot) and as the
/// behaviour of `craftmate scenario --bot listener`.
#[derive(Default, Debug)]
pub struct Listener {
    /// Every chat line heard, in order: (speaker, text).
    pub heard: Vec<(String, String)>,
    /// Logical forms handed in by `lf` steps: (speaker, text, form).
    pub forms: Vec<(String, String, LogicalForm)>,
}

impl Bot for Listener {
    fn tick(&mut self, world: &mut dyn World) {
        for chat in world.take_chats() {
            self.heard.push((chat.speaker, chat.text));
        }
    }

    fn is_idle(&self) -> bool {
        true
    }

    fn expect_parse(&mut self, speaker: &str, text: &str, lf: LogicalForm) {
        self.forms.push((speaker.to_string(), text.to_string(), lf));
    }
}
