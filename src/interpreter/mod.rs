//! The interpreter: from a logical form to tasks and answers, resolving references against
//! memory and the speaker's frame.

pub mod directions;
pub mod schematic;
