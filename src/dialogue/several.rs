//! Several questions in one line ("where are you and what are you doing"): each part is handled
//! as a line of its own, in order, when every part reads as a question. A line that mixes a
//! command with a question is left whole: the steps of a command are [`super::steps`]' job.

use super::context::Context;
use super::manager::DialogueManager;
use crate::logical_form::DialogueType;
use crate::understanding::{Source, several};

impl DialogueManager {
    /// The questions of `chat` when it asks several; `None` for a line of one question, or when
    /// some part is not a question.
    pub(super) fn several_questions(&self, cx: &Context, chat: &str) -> Option<Vec<String>> {
        let parts = several::questions(chat)?;
        let asks = |part: &String| {
            self.understand(cx.speaker, cx.memory, part).is_some_and(|r| {
                r.lf.dialogue_type == DialogueType::GetMemory || matches!(r.source, Source::DidYou | Source::WhatBuilt | Source::AskedMe)
            })
        };
        parts.iter().all(asks).then_some(parts)
    }
}
