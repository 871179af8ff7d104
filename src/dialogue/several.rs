//! Several things in one line. Questions ("where are you and what are you doing"): each part is
//! handled as a line of its own, in order, when every part reads as a question. A line that
//! mixes a command with a question is left whole: the steps of a command are [`super::steps`]'
//! job. A remark before a request ("ngl that wall is ugly, tear it down"): the request.

use super::context::Context;
use super::manager::DialogueManager;
use crate::logical_form::DialogueType;
use crate::memory::Memory;
use crate::understanding::{Reading as Understood, Source, several};

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

    /// `whole`, the reading of the whole line, unless it is chit-chat (or too unsure even to
    /// ask back) and the line's last sentence is a request read surely enough to ask back at
    /// least: "ngl that wall is ugly, tear it down" is "tear it down". A whole line that would
    /// be asked back gives way to its last sentence read surely enough to act on ("thanks a
    /// lot! now could you make a stone tower").
    pub(super) fn request_after_remark(&self, speaker: &str, memory: &Memory, chat: &str, whole: Option<Understood>) -> Option<Understood> {
        let chat_only = whole.as_ref().is_none_or(|r| r.lf.dialogue_type == DialogueType::Noop || r.confidence < self.guess_confidence);
        let unsure = whole.as_ref().is_some_and(|r| r.confidence < self.min_confidence);
        let is_name = |w: &str| memory.objects_with_name(w).is_ok_and(|ids| !ids.is_empty());
        let Some((before, last)) = several::request_after_remark(chat, |t| self.understanding.prepare_unfixed(t), is_name) else { return whole };
        let Some(request) = self.understand(speaker, memory, &last).filter(|r| r.lf.dialogue_type == DialogueType::HumanGiveCommand) else { return whole };
        if request.confidence < if chat_only { self.guess_confidence } else { self.min_confidence } {
            return whole;
        }
        // "that blue cube looks ugly, can you make it white": a remark (chit-chat, not a naming
        // or another request) before a request surer than the whole line is that request. The
        // remark is read only when it could change the answer.
        let surer = || {
            whole.as_ref().is_some_and(|w| request.confidence > w.confidence)
                && self.understand(speaker, memory, before).is_none_or(|r| r.lf.dialogue_type == DialogueType::Noop)
        };
        if chat_only || unsure || surer() {
            return Some(request);
        }
        whole
    }
}
