//! craftmate: an offline Minecraft assistant.
//!
//! The crate mirrors the flow in `DESIGN.md`, one module per box:
//! chat → [`parser`] → [`logical_form`] → dialogue → interpreter → tasks → [`world`], with
//! [`perception`] turning the world into [`memory`], which answers questions and resolves references.
//! Only the [`world`] implementations know whether Minecraft is real.

pub mod agent;
pub mod bench;
pub mod logical_form;
pub mod memory;
pub mod perception;
pub mod scenario;
pub mod world;
