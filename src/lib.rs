//! craftmate: an offline Minecraft assistant.
//!
//! The crate mirrors the flow in `DESIGN.md`, one module per box:
//! chat → parser → [`logical_form`] → [`dialogue`] → [`interpreter`] → [`tasks`] → [`world`],
//! with [`perception`] writing what the bot sees into [`memory`] (a SQLite triple store) and
//! [`schematics`] generating the shapes the bot builds. [`llm`] (optional) answers chit-chat with a
//! local language model, safely. [`live`] is the World over a real server (azalea).
//! Only the [`world`] implementations know whether Minecraft is real.

pub mod agent;
pub mod bench;
pub mod dialogue;
pub mod interpreter;
pub mod live;
pub mod llm;
pub mod logical_form;
pub mod memory;
pub mod parser;
pub mod perception;
pub mod play;
pub mod scenario;
pub mod schematics;
pub mod tasks;
pub mod training;
pub mod world;
