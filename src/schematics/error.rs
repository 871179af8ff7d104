//! What can go wrong when a player asks for a shape, worded so the bot can say it in chat as is.
//!
//! Every failure is an ordinary value: nothing a player types (a zero, a minus sign, a radius of a
//! million) may crash the bot, so each path that could overflow or allocate too much ends here.

use thiserror::Error;

/// Why a shape could not be generated. `Display` gives a sentence fit for chat.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum SchematicError {
    /// The shape word names nothing the generator knows.
    #[error("I don't know how to build {} yet", with_article(.0))]
    UnknownShape(String),
    /// No shape was named at all ("can you build a"): the line was cut off.
    #[error("Build what? Name a thing, like \"a red tower\" or \"a small house\".")]
    NoShape,
    /// The material word is neither a block id nor a material the bot knows.
    #[error("I don't know a block called {0:?}")]
    UnknownMaterial(String),
    /// The block exists but cannot hold a shape up (air, water, flowers, torches…).
    #[error("I can't build with {0}")]
    UnusableMaterial(String),
    /// A block nobody can break once placed (bedrock): a build of it could never be undone.
    #[error("I won't build with {0}: once it is placed nobody can break it, so I couldn't undo it either")]
    PermanentMaterial(String),
    /// The colour word is not one of Minecraft's dye colours or a spelling of one.
    #[error("I don't know the colour {0:?}")]
    UnknownColour(String),
    /// The shape would need more blocks than the limit allows; `blocks` is the estimate.
    #[error("That would take {}, and I only build up to {limit} at a time", about_blocks(*.blocks))]
    TooLarge { blocks: u64, limit: usize },
    /// A size the shape cannot have (zero, negative, below what the shape needs, or absurdly far
    /// across). The text says which.
    #[error("{0}")]
    BadSize(String),
}

/// "about 20000 blocks"; a count past any build's (the estimate saturates) in words.
fn about_blocks(blocks: u64) -> String {
    if blocks >= 1_000_000_000_000 { "more blocks than I could ever count".to_string() } else { format!("about {blocks} blocks") }
}

/// "a zigurat", "an igloo", or "that" when the player named nothing.
fn with_article(word: &str) -> String {
    let word = word.trim();
    match word.chars().next() {
        None => "that".to_string(),
        Some(c) if "aeiou".contains(c.to_ascii_lowercase()) => format!("an {word}"),
        Some(_) => format!("a {word}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_read_as_chat() {
        assert_eq!(
            SchematicError::UnknownShape("zigurat".into()).to_string(),
            "I don't know how to build a zigurat yet"
        );
        assert_eq!(
            SchematicError::UnknownShape("igloo".into()).to_string(),
            "I don't know how to build an igloo yet"
        );
        assert_eq!(
            SchematicError::UnknownShape(" ".into()).to_string(),
            "I don't know how to build that yet"
        );
        let big = SchematicError::TooLarge { blocks: 20_000, limit: 10_000 };
        assert_eq!(
            big.to_string(),
            "That would take about 20000 blocks, and I only build up to 10000 at a time"
        );
        let absurd = SchematicError::TooLarge { blocks: u64::MAX, limit: 10_000 };
        assert!(absurd.to_string().starts_with("That would take more blocks than I could ever count"), "{absurd}");
    }
}
