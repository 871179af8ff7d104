//! [`LivePlugin`]: our systems inside azalea's game loop. Every game tick they carry out the
//! agent's [`Command`]s in order, then send a [`Snapshot`] of what the client sees; every frame
//! they pass on chat and the server's block updates, checking our own predicted blocks against
//! them, and keep the client's beliefs right where azalea alone would not: the client's
//! settings told in the game too, other bodies' positions after a teleport (`teleports.rs`).
//! Nothing here blocks the game loop: commands arrive on a channel read without waiting, and
//! events leave on an unbounded channel.

use super::actions::{carry_out, feet};
use super::convert::{block_pos, snapshot};
use crate::live::blocks;
use crate::live::bridge::{ClientEvent, Command, Seq};
use crate::live::chat::Pacer;
use crate::world::{Block, Pos};

use azalea::app::{App, Plugin, PreUpdate, Update};
use azalea::block_update::{QueuedServerBlockUpdates, handle_block_update_event};
use azalea::chat::handler::SendChatKindEvent;
use azalea::chat::{ChatKind, ChatPacket, ChatReceivedEvent};
use azalea::core::tick::GameTick;
use azalea::ClientInformation;
use azalea::ecs::prelude::{
    Commands, Entity, IntoScheduleConfigs, MessageReader, Mut, Query, Res, ResMut, Resource, With,
};
use azalea::ecs::world::World as Ecs;
use azalea::entity::{
    HasClientLoaded, LocalEntity,
};
use azalea::join::ConnectionFailedEvent;
use azalea::local_player::{TabList, WorldHolder};
use azalea::movement::send_position;
use azalea::packet::game::{ReceiveGamePacketEvent, SendGamePacketEvent};
use azalea::protocol::packets::game::ClientboundGamePacket;
use azalea::protocol::packets::game::s_client_information::ServerboundClientInformation;
use azalea::registry::builtin::ItemKind;
// The `Resource` derive names `bevy_ecs`; azalea re-exports it as `ecs`.
use azalea::ecs as bevy_ecs;
use std::collections::{HashMap, VecDeque};
use std::sync::mpsc::{Receiver, Sender};
use std::sync::Mutex;

/// The channels to the agent, as an ECS resource.
#[derive(Resource)]
pub(super) struct Link {
    pub(super) commands: Mutex<Receiver<Command>>,
    pub(super) events: Sender<ClientEvent>,
    /// Failed connection attempts, for the connection manager.
    pub(super) failed: tokio::sync::mpsc::UnboundedSender<String>,
}

/// A block the bot changed that the server has not confirmed yet.
#[derive(Debug, Clone)]
pub(super) struct Prediction {
    pub(super) wanted: Block,
    /// What earlier changes at the same place asked for, oldest first, still unanswered: a
    /// block cleared and put back within one round trip gets two answers, and the first is
    /// no refusal of the second.
    pub(super) earlier: Vec<Block>,
    /// What the client's world held before.
    pub(super) was: azalea::block::BlockState,
    pub(super) tick: u64,
}

/// What a block update from the server says about a prediction at its place.
#[derive(Debug, PartialEq)]
pub(super) enum Answer {
    /// The change took.
    Settled,
    /// The answer to an earlier change there; the latest is still to come.
    Earlier,
    /// The server holds something the bot never asked for: it refused.
    Refused,
}

impl Prediction {
    /// Take the server's word that the place now holds `after`.
    pub(super) fn answer(&mut self, after: Block) -> Answer {
        if after == self.wanted {
            return Answer::Settled;
        }
        match self.earlier.iter().position(|b| *b == after) {
            Some(i) => {
                self.earlier.drain(..=i);
                Answer::Earlier
            }
            None => Answer::Refused,
        }
    }
}

/// The plugin's own state between ticks.
#[derive(Resource, Default)]
pub(super) struct LiveState {
    pub(super) tick: u64,
    /// The last command carried out.
    pub(super) applied: Seq,
    /// In a world (a session's state below is reset when this turns true).
    pub(super) loaded: bool,
    /// What hotbar slot 0 holds, as far as this session set it, and whether it is selected.
    pub(super) held: Option<ItemKind>,
    pub(super) selected: bool,
    pub(super) predictions: HashMap<Pos, Prediction>,
    pub(super) says: VecDeque<String>,
    pub(super) pacer: Pacer,
    /// A chest being used, and the commands that came while it was: they wait their turn.
    pub(super) chest: Option<super::chests::ChestJob>,
    pub(super) waiting: VecDeque<Command>,
}

/// Predictions the server has not answered within this many ticks are taken back: the server
/// dropped the change without a word (vanilla always answers, some servers do not).
pub(super) const PREDICTION_TICKS: u64 = 60;

pub(super) struct LivePlugin;

impl Plugin for LivePlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<LiveState>()
            .add_systems(Update, capture_world.before(handle_block_update_event))
            .add_systems(Update, forward_failures.after(azalea::join::poll_create_connection_task))
            .add_systems(Update, super::items::capture_pickups)
            .add_systems(Update, tell_settings)
            // Right after azalea has read the frame's packets, before anything looks at bodies.
            .add_systems(PreUpdate, super::teleports::rebase_teleported.after(azalea::connection::read_packets))
            .add_systems(
                GameTick,
                // Exclusive: it runs alone, so its order against the other tick systems cannot
                // matter beyond coming after the position is sent.
                carry_out_commands.after(send_position).ambiguous_with_all(),
            );
    }
}

/// Chat (with the account behind signed lines, from the player list) and the server's block
/// updates, before azalea applies the updates (so the block they replace is still there to
/// report).
pub(super) fn capture_world(
    query: Query<(&QueuedServerBlockUpdates, &WorldHolder), With<LocalEntity>>,
    mut chats: MessageReader<ChatReceivedEvent>,
    tabs: Query<&TabList, With<LocalEntity>>,
    link: Option<Res<Link>>,
    mut state: ResMut<LiveState>,
) {
    let Some(link) = link else { return };
    for (queued, holder) in &query {
        if queued.list.is_empty() {
            continue;
        }
        let world = holder.shared.read();
        let mut seen: HashMap<Pos, Block> = HashMap::new();
        for (pos, new_state) in &queued.list {
            let p = Pos::new(pos.x, pos.y, pos.z);
            let after = blocks::block_of(*new_state);
            let before = seen.get(&p).copied().or_else(|| world.get_block_state(*pos).map(blocks::block_of));
            seen.insert(p, after);
            if let Some(pred) = state.predictions.get_mut(&p) {
                match pred.answer(after) {
                    Answer::Earlier => {}
                    Answer::Settled => drop(state.predictions.remove(&p)),
                    Answer::Refused => {
                        let wanted = pred.wanted;
                        state.predictions.remove(&p);
                        let _ = link.events.send(ClientEvent::Refused { pos: p, wanted, got: after });
                    }
                }
            }
            if let Some(before) = before
                && before != after
            {
                let _ = link.events.send(ClientEvent::BlockChanged { pos: p, before, after });
            }
        }
    }
    for ev in chats.read() {
        let (from, text) = match &ev.packet {
            ChatPacket::System(p) if p.overlay => continue,
            ChatPacket::System(p) => (None, p.content.to_string()),
            other => other.split_sender_and_content(),
        };
        let sender = ev.packet.sender_uuid();
        // The account behind a signed line: the name it shows may be a nickname.
        let account = sender.and_then(|u| tabs.iter().find_map(|t| t.get(&u))).map(|i| i.profile.name.clone());
        let id = sender.map(|u| u.to_string());
        let _ = link.events.send(ClientEvent::Chat { from, id, account, text });
    }
}

/// Tell the server the client's settings again once in the game. They went out in the
/// configuration phase already, which is where vanilla servers read them; servers that only read
/// them in the game (flying-squid) otherwise keep a view distance of their own choosing — sending
/// no terrain beyond the chunks around the spawn. Vanilla clients send them in the game whenever
/// they change, so a second copy is nothing unusual.
pub(super) fn tell_settings(
    mut packets: MessageReader<ReceiveGamePacketEvent>,
    settings: Query<&ClientInformation, With<LocalEntity>>,
    mut commands: Commands,
) {
    for ev in packets.read() {
        if !matches!(*ev.packet, ClientboundGamePacket::Login(_)) {
            continue;
        }
        let Ok(info) = settings.get(ev.entity) else { continue };
        tracing::debug!(view_distance = info.view_distance, "telling the server the client's settings");
        let packet = ServerboundClientInformation { client_information: info.clone() };
        commands.trigger(SendGamePacketEvent::new(ev.entity, packet));
    }
}

/// Failed connection attempts, to the connection manager.
pub(super) fn forward_failures(mut failures: MessageReader<ConnectionFailedEvent>, link: Option<Res<Link>>) {
    let Some(link) = link else { return };
    for f in failures.read() {
        let _ = link.failed.send(f.error.to_string());
    }
}

/// The agent's commands for this tick, in order, then the tick's snapshot.
pub(super) fn carry_out_commands(world: &mut Ecs) {
    let Some(link) = world.get_resource::<Link>() else { return };
    let incoming: Vec<Command> = match link.commands.lock() {
        Ok(rx) => rx.try_iter().collect(),
        Err(_) => Vec::new(),
    };
    let events = link.events.clone();
    let me = {
        let mut q = world.query_filtered::<Entity, (With<LocalEntity>, With<HasClientLoaded>)>();
        q.iter(world).next()
    };
    world.resource_scope(|world, mut state: Mut<LiveState>| {
        state.tick += 1;
        let Some(me) = me else {
            // Not in a world: nothing asked for can happen. The agent does not act while
            // disconnected, and re-plans from what it sees after rejoining.
            let last = incoming.iter().chain(&state.waiting).filter_map(Command::seq).max().unwrap_or(0);
            state.applied = state.applied.max(last);
            state.loaded = false;
            state.says.clear();
            state.predictions.clear();
            state.waiting.clear();
            if let Some(job) = state.chest.take() {
                let _ = events.send(ClientEvent::ChestSeen { pos: job.pos(), items: None });
            }
            return;
        };
        if !state.loaded {
            state.loaded = true;
            state.held = None;
            state.selected = false;
            state.predictions.clear();
        }
        // Chat goes out at once; actions wait while a chest is open.
        for cmd in incoming {
            match cmd {
                Command::Say(_) => carry_out(world, me, &mut state, cmd),
                other => state.waiting.push_back(other),
            }
        }
        while !super::chests::advance(world, me, &mut state, &events) {
            let Some(cmd) = state.waiting.pop_front() else { break };
            tracing::trace!(tick = state.tick, feet = ?feet(world, me), ?cmd, "carrying out");
            state.applied = state.applied.max(cmd.seq().unwrap_or(0));
            carry_out(world, me, &mut state, cmd);
        }
        state.pacer.tick();
        while !state.says.is_empty() && state.pacer.try_send() {
            if let Some(line) = state.says.pop_front() {
                world.write_message(SendChatKindEvent { entity: me, content: line, kind: ChatKind::Message });
            }
        }
        let tick = state.tick;
        let expired: Vec<(Pos, Prediction)> = state
            .predictions
            .iter()
            .filter(|(_, p)| tick.saturating_sub(p.tick) >= PREDICTION_TICKS)
            .map(|(k, p)| (*k, p.clone()))
            .collect();
        for (pos, p) in expired {
            state.predictions.remove(&pos);
            take_back(world, me, &events, pos, p);
        }
        let snapshot = snapshot(world, me, state.applied);
        let _ = events.send(ClientEvent::Snapshot(snapshot));
    });
}

/// The server never answered a change: put back what the client's world held before (if the
/// prediction is still what it shows) and report it, so the bot sees the change did not happen.
pub(super) fn take_back(world: &mut Ecs, me: Entity, events: &Sender<ClientEvent>, pos: Pos, p: Prediction) {
    tracing::debug!(%pos, wanted = p.wanted.name(), "the server never answered a block change; taking it back");
    let Some(holder) = world.get::<WorldHolder>(me) else { return };
    let shared = holder.shared.read();
    let Some(now) = shared.get_block_state(block_pos(pos)) else { return };
    if blocks::block_of(now) != p.wanted {
        return; // something newer (a chunk sent again) already shows the truth
    }
    shared.set_block_state(block_pos(pos), p.was);
    let before = p.wanted;
    let after = blocks::block_of(p.was);
    if before != after {
        let _ = events.send(ClientEvent::BlockChanged { pos, before, after });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn block(name: &str) -> Block {
        Block::from_name(name).expect("a block")
    }

    #[test]
    fn an_answer_to_an_earlier_change_is_no_refusal() {
        // Cleared, then a plank put there, before the server answered either.
        let (air, plank, stone) = (Block::AIR, block("oak_planks"), block("stone"));
        let mut p = Prediction { wanted: plank, earlier: vec![air], was: Default::default(), tick: 0 };
        assert_eq!(p.answer(air), Answer::Earlier);
        assert_eq!(p.answer(plank), Answer::Settled);
        let mut p = Prediction { wanted: plank, earlier: vec![air], was: Default::default(), tick: 0 };
        assert_eq!(p.answer(stone), Answer::Refused, "what nobody asked for is a refusal");
    }
}
