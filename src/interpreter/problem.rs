//! Why a command cannot simply be carried out: something to say instead (not found, unknown
//! shape, refused), or one targeted question to ask (which of these did you mean?).

use crate::memory::MemoryId;

/// One candidate in a clarifying question.
#[derive(Debug, Clone, PartialEq)]
pub struct Choice {
    /// How the bot names it: "the red tower", "the blue cube".
    pub label: String,
    pub id: MemoryId,
}

#[derive(Debug, Clone, PartialEq)]
pub enum Problem {
    /// Tell the player this and do nothing.
    Say(String),
    /// Ask which of these was meant; the answer resumes the command.
    Which { question: String, choices: Vec<Choice> },
}

impl Problem {
    pub fn say(s: impl Into<String>) -> Problem {
        Problem::Say(s.into())
    }
}

impl From<crate::memory::MemoryError> for Problem {
    fn from(e: crate::memory::MemoryError) -> Problem {
        tracing::warn!("memory error: {e}");
        Problem::Say("Sorry, my memory failed me there.".into())
    }
}

impl From<crate::tasks::TaskError> for Problem {
    fn from(e: crate::tasks::TaskError) -> Problem {
        Problem::Say(e.to_string())
    }
}

pub type Result<T> = std::result::Result<T, Problem>;
