//! The messages between the agent's thread and the azalea thread.
//!
//! The agent ticks on its own thread with the same code as in the embedded world; azalea runs
//! its ECS on a tokio thread. They share nothing mutable: the agent sends [`Command`]s (one small
//! action each, numbered), the client sends [`ClientEvent`]s back (a [`Snapshot`] of what it sees
//! every game tick, chat, block changes, refusals, connection news). Both directions are
//! unbounded channels polled without waiting, so neither side ever blocks the other; the only
//! shared thing is the read-only [`super::blocks::BlockView`] of loaded chunks.

use super::blocks::BlockView;
use crate::world::{Block, ItemInfo, Look, MobInfo, PlayerInfo, Pos, Vec3};
use std::time::Duration;

/// Command numbers: the client reports the last one it carried out, so the agent knows which of
/// its own predictions the snapshots already include.
pub type Seq = u64;

/// One action for the client to carry out in its next game tick, in order.
#[derive(Debug, Clone, PartialEq)]
pub enum Command {
    /// Put the feet at `feet` (the middle of an adjacent block; see `placement::step_target`).
    Step { seq: Seq, feet: Vec3 },
    /// Turn body and head.
    Look { seq: Seq, look: Look },
    /// Put `block` at `pos` by clicking block `against` on its face towards `pos`.
    Place { seq: Seq, pos: Pos, block: Block, against: Pos },
    /// Break the block at `pos` (creative: at once).
    Break { seq: Seq, pos: Pos },
    /// Use the spawn egg `egg` (an item id) on the top of block `on`.
    Spawn { seq: Seq, egg: String, on: Pos },
    /// Throw `count` of `item` (an item id) towards `towards`, one at a time (each becomes an
    /// item entity: some servers give a player only one item per entity picked up).
    Give { seq: Seq, item: String, count: u32, towards: Vec3 },
    /// Open the container at `pos` (clicking it, as a player does), make `moves` in order,
    /// close it, and report what it holds ([`ClientEvent::ChestSeen`]). No moves: a look
    /// inside. Later commands wait while it is open (a player at an open chest stands still).
    Chest { seq: Seq, pos: Pos, moves: Vec<ChestMove> },
    /// One chat line, already cleaned and split (see `chat::outgoing`); the client paces them.
    Say(String),
}

impl Command {
    pub fn seq(&self) -> Option<Seq> {
        match self {
            Command::Step { seq, .. }
            | Command::Look { seq, .. }
            | Command::Place { seq, .. }
            | Command::Break { seq, .. }
            | Command::Spawn { seq, .. }
            | Command::Give { seq, .. }
            | Command::Chest { seq, .. } => Some(*seq),
            Command::Say(_) => None,
        }
    }
}

/// Items moved between the bot's inventory and an open chest (creative: what is put in comes
/// from creative supply).
#[derive(Debug, Clone, PartialEq)]
pub enum ChestMove {
    Put { item: String, count: u32 },
    Take { item: String, count: u32 },
}

/// What the client sees at the end of one game tick.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Snapshot {
    /// The last command carried out (its effects are in this snapshot).
    pub applied: Seq,
    /// The bot's feet and look.
    pub pos: Vec3,
    pub look: Look,
    /// Creative mode (the bot places any block only there).
    pub creative: bool,
    /// Other players the client can see (in the tab list and within view).
    pub players: Vec<PlayerInfo>,
    /// Living entities that are not players.
    pub mobs: Vec<MobInfo>,
    /// Items lying around (item entities), named by what they hold or by the bot's throw.
    pub items: Vec<ItemInfo>,
}

/// What the client sends the agent.
#[derive(Debug, Clone)]
pub enum ClientEvent {
    /// In the world and ready: `after` is the time since this connection attempt began.
    Joined { name: String, after: Duration, view: BlockView, attempt: u32 },
    /// The client moved to another world (a respawn or a dimension change) without reconnecting.
    WorldChanged { view: BlockView },
    /// One game tick's view.
    Snapshot(Snapshot),
    /// A chat line: the sender when the server named one, else the raw system message. With
    /// signed player chat `from` is only the name the message shows (a nickname, perhaps); `id`
    /// is the sender's UUID and `account` their account name from the player list, when they
    /// are in it.
    Chat { from: Option<String>, id: Option<String>, account: Option<String>, text: String },
    /// The server changed a block (someone built or broke it, or it confirmed or undid ours).
    BlockChanged { pos: Pos, before: Block, after: Block },
    /// Someone picked up an item entity (the server's take-item packet): a player (`by`, when
    /// the client knows the name) or the bot itself; the item when known.
    PickedUp { by: Option<String>, by_me: bool, item: Option<String>, count: u32 },
    /// The chest at `pos` was opened and closed again: what it held then (item ids with
    /// counts), after the moves; `None` when it never opened.
    ChestSeen { pos: Pos, items: Option<Vec<(String, u32)>> },
    /// The server put back something other than what the bot placed or broke at `pos`.
    Refused { pos: Pos, wanted: Block, got: Block },
    /// The connection ended.
    Disconnected { reason: String },
    /// The next attempt to join starts after `delay`.
    Reconnecting { attempt: u32, of: u32, delay: Duration },
    /// No more attempts: the client thread has ended.
    GaveUp { reason: String },
}
