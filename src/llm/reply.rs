//! The entry points the dialogue manager calls: a safe, time-limited answer to chat.
//!
//! [`reply`] blocks the caller for at most `limit` (the backends stop waiting at the deadline).
//! A tick loop that must not block at all uses [`spawn_reply`] and polls the [`PendingReply`] each
//! tick; it yields the answer, or the slow-thinking fallback once the limit has passed.
//!
//! A small model ([`Chat::is_small`]) is asked with the short prompt and only the first sentence
//! of its answer is said: it answers first, then adds rules, a second answer or a story.

use std::sync::Arc;
use std::sync::mpsc::{self, Receiver, TryRecvError};
use std::time::{Duration, Instant};

use super::prompt::{Grounding, messages_for, messages_for_small};
use super::sanitize::{Rejected, sanitize_for};
use super::{Chat, ChatRequest, Completion, LlmError};
use crate::safety::disallowed::Disallowed;

/// Said when the model did not answer in time.
pub const FALLBACK_SLOW: &str = "Sorry, I'm thinking too slowly right now.";
/// Said when the model failed (server down, HTTP error, bad answer).
pub const FALLBACK_ERROR: &str = "Sorry, I can't think of an answer right now.";
/// Said instead of an answer with a disallowed word (or to chat that has one).
pub const FALLBACK_DISALLOWED: &str = "Hmm, let's talk about something else! Want to build something?";

/// How a reply came about.
#[derive(Debug, Clone, PartialEq)]
pub enum Outcome {
    /// The model answered; the text is its sanitised answer.
    Answered,
    /// No answer before the limit: [`FALLBACK_SLOW`].
    TimedOut,
    /// The backend failed: [`FALLBACK_ERROR`]; the error, for logs.
    Failed(String),
    /// The answer (or the chat) had a disallowed word: [`FALLBACK_DISALLOWED`].
    Disallowed(String),
    /// The answer was empty after cleaning: [`FALLBACK_ERROR`].
    Empty,
}

/// A safe chat line with how it came about and, when the model answered, its raw completion.
#[derive(Debug, Clone)]
pub struct Reply {
    pub text: String,
    pub outcome: Outcome,
    pub completion: Option<Completion>,
    pub elapsed: Duration,
}

/// A friendly, grounded answer to `text`, safe to say in chat, within `limit`.
///
/// Never fails: errors, timeouts and unsafe answers become polite fallback lines.
pub fn reply(chat: &dyn Chat, grounding: &Grounding, disallowed: &Disallowed, text: &str, limit: Duration) -> String {
    reply_detailed(chat, grounding, disallowed, text, limit).text
}

/// [`reply`] with the outcome and the raw completion (for logs and benchmarks).
pub fn reply_detailed(
    chat: &dyn Chat,
    grounding: &Grounding,
    disallowed: &Disallowed,
    text: &str,
    limit: Duration,
) -> Reply {
    let start = Instant::now();
    let done = |text: &str, outcome: Outcome, completion: Option<Completion>| Reply {
        text: text.to_string(),
        outcome,
        completion,
        elapsed: start.elapsed(),
    };
    if let Some(word) = disallowed.find(text) {
        return done(FALLBACK_DISALLOWED, Outcome::Disallowed(word), None);
    }
    let small = chat.is_small();
    let messages = if small { messages_for_small(grounding, text) } else { messages_for(grounding, text) };
    let request = ChatRequest::new(messages, limit);
    let completion = match chat.complete(&request) {
        Ok(c) => c,
        Err(LlmError::Timeout) => return done(FALLBACK_SLOW, Outcome::TimedOut, None),
        Err(e) => {
            tracing::warn!("LLM {} failed: {e}", chat.describe());
            return done(FALLBACK_ERROR, Outcome::Failed(e.to_string()), None);
        }
    };
    if Instant::now() > request.deadline + Duration::from_millis(200) {
        // A backend that ignores its deadline: the answer is late, but still better than nothing.
        tracing::warn!("LLM {} answered {:?} after its deadline", chat.describe(), start.elapsed() - limit);
    }
    tracing::debug!("LLM raw answer (truncated: {}): {:?}", completion.truncated, completion.text);
    let raw = if completion.truncated { end_of_last_sentence(&completion.text) } else { completion.text.clone() };
    // The instructions repeated back are no answer (an echo only leaves nothing: the fallback).
    let prompt = request.messages.first().map(|m| m.content.as_str()).unwrap_or_default();
    let raw = super::echo::without_echo(&raw, prompt);
    let raw = if small { first_sentence(&raw).to_string() } else { raw };
    match sanitize_for(&raw, &grounding.name(), disallowed) {
        Ok(safe) => done(&safe, Outcome::Answered, Some(completion)),
        Err(Rejected::Disallowed(word)) => done(FALLBACK_DISALLOWED, Outcome::Disallowed(word), Some(completion)),
        Err(Rejected::Empty) => done(FALLBACK_ERROR, Outcome::Empty, Some(completion)),
    }
}

/// An answer cut off by the token limit, trimmed to its last complete sentence (or marked `...`
/// when it has none).
pub fn end_of_last_sentence(text: &str) -> String {
    let text = text.trim_end();
    let end = super::sanitize::sentence_ends(text).last();
    match end {
        Some(end) => text[..end].to_string(),
        None if text.ends_with(['.', '!', '?']) => text.to_string(),
        None => format!("{}...", text.trim_end_matches(|c: char| !c.is_alphanumeric())),
    }
}

/// A sentence this short ("Sure!", "Hi there!") is no answer on its own: the next one is kept too.
const MIN_FIRST_SENTENCE_WORDS: usize = 3;

/// The first sentence of `text` (all of it when it has no sentence end), with the sentences
/// before it when they are shorter than [`MIN_FIRST_SENTENCE_WORDS`] words ("Sure! A furnace
/// takes eight cobblestone.").
pub fn first_sentence(text: &str) -> &str {
    let text = text.trim();
    let mut from = 0;
    for end in super::sanitize::sentence_ends(text) {
        if text[from..end].split_whitespace().count() >= MIN_FIRST_SENTENCE_WORDS {
            return text[..end].trim_end();
        }
        from = end;
    }
    text
}

/// A reply being computed on a worker thread; poll it from the tick loop.
pub struct PendingReply {
    receiver: Receiver<Reply>,
    deadline: Instant,
    finished: bool,
    /// The worker thread: it may go on after the deadline answered for it.
    worker: Option<std::thread::JoinHandle<()>>,
}

impl PendingReply {
    /// `None` while the answer is being computed; then, once, the reply (or the slow-thinking
    /// fallback when the limit has passed); `None` again after that.
    pub fn poll(&mut self) -> Option<String> {
        self.poll_detailed().map(|r| r.text)
    }

    /// [`PendingReply::poll`] with the outcome.
    pub fn poll_detailed(&mut self) -> Option<Reply> {
        if self.finished {
            return None;
        }
        match self.receiver.try_recv() {
            Ok(reply) => {
                self.finished = true;
                Some(reply)
            }
            Err(TryRecvError::Empty) if Instant::now() < self.deadline => None,
            Err(_) => {
                self.finished = true;
                Some(Reply {
                    text: FALLBACK_SLOW.to_string(),
                    outcome: Outcome::TimedOut,
                    completion: None,
                    elapsed: self.deadline.elapsed(),
                })
            }
        }
    }

    /// Blocks until the reply is ready or the limit has passed.
    pub fn wait(mut self) -> String {
        if let Some(reply) = self.poll() {
            return reply;
        }
        let left = self.deadline.saturating_duration_since(Instant::now());
        match self.receiver.recv_timeout(left) {
            Ok(reply) => reply.text,
            Err(_) => FALLBACK_SLOW.to_string(),
        }
    }

    /// Whether [`PendingReply::poll`] has already returned the reply.
    pub fn is_finished(&self) -> bool {
        self.finished
    }

    /// Whether the model is still working on it (also after its deadline has answered).
    pub fn is_working(&self) -> bool {
        self.worker.as_ref().is_some_and(|w| !w.is_finished())
    }
}

/// Starts [`reply`] on a worker thread and returns at once; the tick loop polls the result.
pub fn spawn_reply(
    chat: Arc<dyn Chat>,
    grounding: Grounding,
    disallowed: Disallowed,
    text: String,
    limit: Duration,
) -> PendingReply {
    let deadline = Instant::now() + limit;
    let (sender, receiver) = mpsc::channel();
    let spawned = std::thread::Builder::new().name("llm-reply".into()).spawn(move || {
        let reply = reply_detailed(chat.as_ref(), &grounding, &disallowed, &text, limit);
        let _ = sender.send(reply);
    });
    let worker = match spawned {
        Ok(w) => Some(w),
        Err(e) => {
            tracing::warn!("cannot start the LLM reply thread: {e}");
            None
        }
    };
    // A failed spawn drops the sender: the first poll then answers with the fallback.
    PendingReply { receiver, deadline, finished: false, worker }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_small_model_says_only_its_first_sentence() {
        assert_eq!(first_sentence("I like towers. You are a helper bot. Let's build!"), "I like towers.");
        assert_eq!(first_sentence("Sure! A furnace takes eight cobblestone. Then add coal."), "Sure! A furnace takes eight cobblestone.");
        assert_eq!(first_sentence("  I'm not sure, sorry!  "), "I'm not sure, sorry!");
        assert_eq!(first_sentence("Version 1.20 has 2. more things? Yes it does."), "Version 1.20 has 2. more things?");
        assert_eq!(first_sentence("Hi! Yo!"), "Hi! Yo!");
        assert_eq!(first_sentence(""), "");
    }

    /// A model that answers in three sentences and keeps the prompts it was given.
    struct Chatty {
        small: bool,
        prompts: std::sync::Mutex<Vec<Vec<String>>>,
    }

    impl Chat for Chatty {
        fn describe(&self) -> String {
            "chatty".into()
        }
        fn complete(&self, request: &ChatRequest) -> Result<Completion, LlmError> {
            self.prompts.lock().unwrap().push(request.messages.iter().map(|m| m.content.clone()).collect());
            Ok(Completion { text: "I like tall towers. Also castles. Let me tell you a story.".into(), ..Completion::default() })
        }
        fn is_small(&self) -> bool {
            self.small
        }
    }

    #[test]
    fn a_small_model_gets_the_short_prompt_and_says_one_sentence() {
        let g = Grounding { recent_chat: vec![("alice".into(), "an old line".into())], ..Grounding::named("Robo") };
        let ask = |small: bool| {
            let chat = Chatty { small, prompts: Default::default() };
            let said = reply(&chat, &g, &Disallowed::default(), "what do you like?", Duration::from_secs(5));
            let prompt = chat.prompts.lock().unwrap()[0][0].clone();
            (said, prompt)
        };
        let (said, prompt) = ask(true);
        assert_eq!(said, "I like tall towers.");
        assert_eq!(prompt, g.short_prompt());
        assert!(!prompt.contains("an old line"));
        let (said, prompt) = ask(false);
        assert!(said.starts_with("I like tall towers. Also castles."), "{said}");
        assert!(prompt.contains("an old line"));
    }

    #[test]
    fn truncated_answers_end_cleanly() {
        assert_eq!(end_of_last_sentence("Use a furnace. Put coal in the bottom and"), "Use a furnace.");
        assert_eq!(end_of_last_sentence("You'll need a few things: 1"), "You'll need a few things: 1...");
        assert_eq!(end_of_last_sentence("Craft it with 8 cobblestone, then"), "Craft it with 8 cobblestone, then...");
        assert_eq!(end_of_last_sentence("All done!"), "All done!");
        assert_eq!(end_of_last_sentence("Steps: 1. Get stone. 2. Craft"), "Steps: 1. Get stone.");
        assert_eq!(end_of_last_sentence("Version 1.20 is great"), "Version 1.20 is great...");
    }
}
