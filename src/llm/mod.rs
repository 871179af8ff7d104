//! The optional language model: friendly answers to chat that is not a command, fully offline.
//!
//! When the parser marks chat as NOOP (or is unsure), the dialogue manager may ask a language model
//! for a companion-style answer instead of one of its canned lines. This module sits below the
//! dialogue: it knows nothing of it, and takes the disallowed-words list from [`crate::safety`].
//! Everything here is built so that the model can never do harm:
//! - its output is **plain chat only**, never executed: [`sanitize`] strips control characters and
//!   Minecraft formatting codes (`§c`), removes leading slashes (so a reply cannot be a server
//!   command), caps the length at a sentence or word boundary and replaces replies with a
//!   disallowed word by a polite fallback line; before that, [`echo`] drops the instructions a
//!   small model repeats back ("You are a helper bot …", "(make it up)");
//! - every call has a **hard deadline**: the backends run the request on a worker thread and
//!   give up at the deadline, and [`reply`] then answers with a polite fallback line;
//! - facts about the world come from the caller's [`Grounding`] (memory and perception), and the
//!   system prompt tells the model to say it is unsure about anything else;
//! - a small model ([`Chat::is_small`]: under [`SMALL_WEIGHTS`] weights) gets a short prompt it can
//!   follow, without recent chat, and only the first sentence of its answer is said
//!   ([`reply::first_sentence`]): what such a model says after that wanders off.
//!
//! Two backends implement [`Chat`]:
//! - [`OpenAiChat`]: `POST {base}/v1/chat/completions`, which llama.cpp's server, Ollama, LM Studio
//!   and vLLM all speak;
//! - [`GgufChat`]: a quantized GGUF file run in-process by candle (llama, qwen2 and qwen3
//!   architectures), with the tokenizer built from the file's own metadata ([`gguf_tokenizer`]).
//!
//! [`LlmConfig`] reads the `[llm]` table of `craftmate.toml` and [`backend`] builds the chosen one.
//! [`propose_logical_form`] optionally lets the model suggest a logical form for a command the
//! parser failed on; the suggestion is used only if it passes [`crate::logical_form::validate_json`].
//!
//! How the dialogue manager uses it (once, at start: `let chat = llm::backend(&config)?`, kept as
//! `Option<Arc<dyn Chat>>`; `None` when `craftmate.toml` has no `[llm]` table):
//!
//! ```text
//! parse = parser.parse(text)
//! if parse is NOOP (or low confidence):
//!     if let Some(chat) = &chat:
//!         // maybe a command the parser missed: a proposal is used only if it validates
//!         if looks_like_a_command(text) && let Some(lf) = llm::propose_logical_form(chat, text, limit) { act on lf }
//!         say(llm::reply(chat, &grounding, &disallowed, text, config.timeout()))   // blocks ≤ timeout
//!         // or, never blocking the tick: pending = llm::spawn_reply(chat.clone(), ...); each tick
//!         // `if let Some(line) = pending.poll() { say(line) }`
//!     else:
//!         say(a canned line)   // the dialogue's own, without a model
//! ```
//!
//! Map of the files: [`config`], [`openai`], [`gguf`], [`gguf_tokenizer`], [`prompt`] (grounding
//! and the system prompt), [`sanitize`](mod@sanitize), [`reply`](mod@reply) (the entry points the
//! dialogue manager calls), [`propose`].

pub mod config;
pub mod echo;
pub mod gguf;
pub mod gguf_tokenizer;
pub mod openai;
pub mod prompt;
pub mod propose;
pub mod reply;
pub mod sanitize;

use std::time::{Duration, Instant};

pub use config::{BackendKind, LlmConfig, backend};
pub use gguf::{GgufChat, GgufOptions};
pub use openai::{OpenAiChat, OpenAiOptions};
pub use prompt::{Grounding, messages_for, messages_for_small};
pub use propose::propose_logical_form;
pub use reply::{
    FALLBACK_DISALLOWED, FALLBACK_ERROR, FALLBACK_SLOW, Outcome, PendingReply, Reply, first_sentence, reply,
    reply_detailed, spawn_reply,
};
pub use sanitize::{MAX_REPLY_CHARS, sanitize};

/// A model with fewer weights than this is small: it gets the short prompt and says one sentence.
pub const SMALL_WEIGHTS: u64 = 1_000_000_000;

/// Who said a message in a conversation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    System,
    User,
    Assistant,
}

impl Role {
    /// The name chat templates and the OpenAI API use.
    pub fn as_str(self) -> &'static str {
        match self {
            Role::System => "system",
            Role::User => "user",
            Role::Assistant => "assistant",
        }
    }
}

/// One message of a conversation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Message {
    pub role: Role,
    pub content: String,
}

impl Message {
    pub fn system(content: impl Into<String>) -> Message {
        Message { role: Role::System, content: content.into() }
    }

    pub fn user(content: impl Into<String>) -> Message {
        Message { role: Role::User, content: content.into() }
    }

    pub fn assistant(content: impl Into<String>) -> Message {
        Message { role: Role::Assistant, content: content.into() }
    }
}

/// What to complete, and by when.
#[derive(Debug, Clone)]
pub struct ChatRequest {
    pub messages: Vec<Message>,
    /// The most tokens to generate; `None` uses the backend's configured `max_tokens`.
    pub max_tokens: Option<u32>,
    /// The backend must return by then (plus a few milliseconds), with [`LlmError::Timeout`] if the
    /// answer is not ready.
    pub deadline: Instant,
}

impl ChatRequest {
    /// A request that must be answered within `limit` from now.
    pub fn new(messages: Vec<Message>, limit: Duration) -> ChatRequest {
        ChatRequest { messages, max_tokens: None, deadline: Instant::now() + limit }
    }

    /// The time left until the deadline (zero once it has passed).
    pub fn remaining(&self) -> Duration {
        self.deadline.saturating_duration_since(Instant::now())
    }
}

/// A backend's raw answer (not yet sanitised) with what is known about its cost.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Completion {
    pub text: String,
    /// Tokens in the prompt, when the backend reports them.
    pub prompt_tokens: Option<usize>,
    /// Tokens generated, when the backend reports them.
    pub generated_tokens: Option<usize>,
    /// Time spent reading the prompt (in-process backends only).
    pub prompt_time: Option<Duration>,
    /// Time from the request (or, in-process, from the first generated token) to the answer.
    pub generation_time: Duration,
    /// The answer stopped at the token limit rather than at the end of its turn.
    pub truncated: bool,
}

impl Completion {
    /// Generated tokens per second, when the token count is known.
    pub fn tokens_per_second(&self) -> Option<f64> {
        let n = self.generated_tokens? as f64;
        let s = self.generation_time.as_secs_f64();
        (s > 0.0).then(|| n / s)
    }
}

/// A chat backend: given messages, return the model's next assistant message.
///
/// Implementations must honour [`ChatRequest::deadline`]: return [`LlmError::Timeout`] rather than
/// block past it (both backends here run the work on a worker thread and stop waiting at the
/// deadline). They are `Send + Sync` so one backend can serve every conversation.
pub trait Chat: Send + Sync {
    /// A short description for logs, e.g. `openai llama3.2 at http://localhost:11434`.
    fn describe(&self) -> String;

    /// Completes the conversation. The text is raw model output: pass it through [`sanitize`]
    /// before anyone sees it (or use [`reply`], which does).
    fn complete(&self, request: &ChatRequest) -> Result<Completion, LlmError>;

    /// A small model (under [`SMALL_WEIGHTS`] weights), which [`reply`] gives a short prompt and
    /// takes one sentence from. A backend that cannot tell (a server's model) says no.
    fn is_small(&self) -> bool {
        false
    }
}

impl<C: Chat + ?Sized> Chat for Box<C> {
    fn describe(&self) -> String {
        (**self).describe()
    }

    fn complete(&self, request: &ChatRequest) -> Result<Completion, LlmError> {
        (**self).complete(request)
    }

    fn is_small(&self) -> bool {
        (**self).is_small()
    }
}

impl<C: Chat + ?Sized> Chat for std::sync::Arc<C> {
    fn describe(&self) -> String {
        (**self).describe()
    }

    fn complete(&self, request: &ChatRequest) -> Result<Completion, LlmError> {
        (**self).complete(request)
    }

    fn is_small(&self) -> bool {
        (**self).is_small()
    }
}

/// Everything that can go wrong between a question and an answer.
#[derive(Debug, thiserror::Error)]
pub enum LlmError {
    /// A bad setting; `field` is its name in the `[llm]` table (e.g. `llm.base_url`).
    #[error("{field}: {message}")]
    Config { field: String, message: String },
    #[error("{path}: {message}")]
    File { path: String, message: String },
    #[error("no answer before the deadline")]
    Timeout,
    #[error("HTTP {status} from the LLM server: {body}")]
    Status { status: u16, body: String },
    #[error("cannot reach the LLM server: {0}")]
    Http(String),
    #[error("unexpected answer from the LLM server: {0}")]
    BadResponse(String),
    #[error("tokenizer: {0}")]
    Tokenizer(String),
    #[error("model: {0}")]
    Model(String),
}

impl LlmError {
    pub(crate) fn config(field: &str, message: impl Into<String>) -> LlmError {
        LlmError::Config { field: field.to_string(), message: message.into() }
    }
}

impl From<candle_core::Error> for LlmError {
    fn from(e: candle_core::Error) -> LlmError {
        LlmError::Model(e.to_string())
    }
}
