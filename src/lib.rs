//! craftmate: an offline Minecraft assistant.
//!
//! The crate mirrors the flow in `DESIGN.md`, one module per box:
//! chat → [`parser`] → [`logical_form`] → dialogue → interpreter → tasks → [`world`].
//! Only the [`world`] implementations know whether Minecraft is real.

pub mod agent;
pub mod logical_form;
pub mod parser;
pub mod scenario;
pub mod schematics;
pub mod world;
pub mod training;
