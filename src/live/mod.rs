//! The live world: the [`World`](crate::world::World) trait over a real Minecraft 26.1 server, through azalea.
//!
//! The agent's tick loop is the same code as in the embedded world; only this module knows the
//! world is real. Azalea runs on its own thread ([`client`]); [`LiveWorld`] (`state.rs`) lives on
//! the agent's thread and talks to it through channels ([`bridge`]):
//!
//! - **Perception** comes from the client: a [`bridge::Snapshot`] each game tick (the bot's
//!   position and look, players, mobs), chat, and the server's block updates, which become the
//!   block-change record. Blocks are read from the chunks the client has loaded ([`blocks`]).
//! - **Actions** are checked here first, with the rules every world follows
//!   ([`rules`](crate::world::rules)), then sent as numbered commands, and take effect in this
//!   view at once: until the client reports a command carried out, the bot's own position, look
//!   and changed blocks are predicted, so a task sees what it just did in the next tick, as it
//!   would in the embedded world.
//! - **Refusals**: when the server puts back something other than what the bot placed or broke
//!   (a protected area, a plugin), the change record shows it, and further changes at that spot
//!   — and, after a burst of refusals, near it — fail at once with the reason for a while, so a
//!   task reports the refusal instead of retrying in a storm.
//! - **Access**: chat from players not on the allow-list ([`access`]) never reaches the agent;
//!   they get a polite answer.
//!
//! The driver (the `connect` command) calls [`LiveWorld::sync`] once per tick before ticking the
//! bot, and ticks the bot only while [`LiveWorld::is_ready`].
//!
//! Files: `state.rs` (the state, grouped by concern, and its life), `events.rs` (what the client
//! reports, taken in), `actions.rs` (the World trait), `containers.rs` (chests), `refusals.rs`, [`access`], [`chat`],
//! [`blocks`] (reading the client's chunks), [`placement`] (the geometry of clicking),
//! [`bridge`] (the messages), [`client`] (the azalea thread), [`reconnect`].

pub mod access;
mod actions;
mod containers;
pub mod blocks;
pub mod bridge;
pub mod chat;
pub mod client;
mod events;
pub mod placement;
pub mod reconnect;
mod refusals;
mod state;

#[cfg(test)]
mod tests;

pub use state::LiveWorld;

use crate::world::{Block, Pos};
use access::Access;
use reconnect::Backoff;
use std::time::Duration;

/// How to join a server.
#[derive(Debug, Clone)]
pub struct LiveConfig {
    /// `host[:port]`.
    pub address: String,
    /// The bot's name (offline mode), or the Microsoft account's cache key.
    pub name: String,
    pub microsoft: bool,
    pub access: Access,
    pub backoff: Backoff,
    /// How long one attempt may take from connecting to being in the world.
    pub join_timeout: Duration,
    /// The view distance the bot tells the server (chunks). The server sends terrain within the
    /// smaller of this and its own setting, so a generous value means "as far as the server
    /// allows"; too small, and the bot cannot see where it is asked to work.
    pub view_distance: u8,
}

/// The view distance sent by default: more than most servers allow, so theirs decides.
pub const DEFAULT_VIEW_DISTANCE: u8 = 12;

impl LiveConfig {
    pub fn offline(address: &str, name: &str) -> LiveConfig {
        LiveConfig {
            address: address.to_string(),
            name: name.to_string(),
            microsoft: false,
            access: Access::everyone(),
            backoff: Backoff::default(),
            join_timeout: Duration::from_secs(30),
            view_distance: DEFAULT_VIEW_DISTANCE,
        }
    }
}

#[derive(Debug, thiserror::Error)]
pub enum LiveError {
    #[error(transparent)]
    Address(#[from] client::AddressError),
    #[error("{0:?} cannot be an offline-mode player name (1 to 16 letters, digits or underscores)")]
    BadName(String),
    #[error("could not start the client thread: {0}")]
    Thread(#[from] std::io::Error),
}

/// What happened to the connection, for the driver to report.
#[derive(Debug, Clone, PartialEq)]
pub enum Notice {
    /// In the world and the chunks around the bot are loaded: `login` is the time from starting
    /// the attempt to spawning, `ready` to this moment.
    Ready {
        name: String,
        login: Duration,
        ready: Duration,
        attempt: u32,
        reconnected: bool,
    },
    Disconnected {
        reason: String,
    },
    Reconnecting {
        attempt: u32,
        of: u32,
        delay: Duration,
    },
    /// No more attempts; the bot cannot act any more.
    GaveUp {
        reason: String,
    },
    /// The server put back a block the bot changed.
    Refused {
        pos: Pos,
        wanted: Block,
        got: Block,
    },
    /// The bot is not in creative mode (it cannot place arbitrary blocks).
    NotCreative,
}

/// A line of the transcript the driver may print: what the bot heard and said.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Line {
    pub speaker: String,
    pub text: String,
    /// Heard from a player who is not allowed to command the bot.
    pub refused: bool,
}
