//! The interpreter: from a logical form to tasks and answers, resolving references against
//! memory and the speaker's frame.

pub mod actions;
pub mod context;
pub mod describe;
pub mod directions;
pub mod execute;
pub mod finding;
pub mod location;
pub mod naming;
pub mod place_questions;
pub mod problem;
pub mod questions;
pub mod recipe;
pub mod reference;
pub mod schematic;
