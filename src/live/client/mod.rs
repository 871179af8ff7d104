//! The azalea side of the live world: one thread running a tokio runtime with azalea's ECS.
//!
//! Two things run there:
//! - **the connection manager** (`connection.rs`, an async task): joins the server, rejoins with
//!   backoff, and reports each step;
//! - **our systems inside azalea's game loop** (`plugin.rs`): every game tick they carry out the
//!   agent's commands in order (`actions.rs`), then send a snapshot of what the client sees
//!   (`convert.rs`); a chest is used over several ticks (`chests.rs`); every frame they pass on chat and the server's block updates, and put other
//!   bodies right after a teleport (`teleports.rs`).

mod actions;
mod address;
mod chests;
mod connection;
mod convert;
mod items;
mod plugin;
mod teleports;

pub use address::{AddressError, parse_address};
pub use connection::{AccountChoice, ClientConfig, ClientThread, spawn};
