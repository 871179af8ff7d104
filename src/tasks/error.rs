//! Why a command is refused before any work starts.
//!
//! Constructors and [`super::Task::check`] return these; their messages are chat replies, so they
//! read as sentences a player understands.

use crate::world::Pos;

#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum TaskError {
    #[error("that is {requested} blocks, and I only handle up to {limit} blocks in one go")]
    TooManyBlocks { requested: usize, limit: usize },
    #[error("there is nothing to {0}")]
    Nothing(&'static str),
    #[error("I can't dig that deep: there is bedrock at {0}")]
    Bedrock(Pos),
    #[error("{0} is outside the world (y has to stay between -64 and 319, x and z within 30000000)")]
    OutsideWorld(Pos),
    #[error("there is nothing I can undo")]
    NothingToUndo,
    #[error("{0}")]
    Invalid(String),
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_read_as_sentences() {
        assert_eq!(TaskError::Nothing("build").to_string(), "there is nothing to build");
        assert_eq!(
            TaskError::Bedrock(Pos::new(1, 0, 2)).to_string(),
            "I can't dig that deep: there is bedrock at (1, 0, 2)"
        );
        assert_eq!(TaskError::NothingToUndo.to_string(), "there is nothing I can undo");
    }
}
