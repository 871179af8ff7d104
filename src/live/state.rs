//! The live world's state on the agent's thread, grouped by concern, and its life: connecting,
//! taking in what the client reports once a tick, and deciding when the bot may act.

use super::access::Access;
use super::blocks::BlockView;
use super::bridge::{ClientEvent, Command, Seq, Snapshot};
use super::client::{self, AccountChoice, ClientConfig, ClientThread};
use super::refusals::Refusals;
use super::{LiveConfig, LiveError, Line, Notice, chat};
use crate::world::{ActionError, Actor, Block, BlockChange, ChatMessage, Look, Pos, World, rules};
use rustc_hash::FxHashMap;
use std::sync::mpsc::{Receiver, Sender};
use std::time::{Duration, Instant};

/// Chunks around the bot (radius) that must be loaded before it acts, or this long after joining.
const READY_CHUNK_RADIUS: i32 = 2;
const READY_WAIT: Duration = Duration::from_secs(3);
/// Feet further than this from the middle of their block, sideways, put the body (0.6 wide) over
/// a neighbouring column too; see [`LiveWorld::keep_centred`].
const OFF_CENTRE: f64 = 0.2;
/// Ticks between two centring steps, so a player pushing the bot does not make it fidget.
pub(super) const CENTRE_COOLDOWN: u64 = 20;

pub struct LiveWorld {
    pub(super) name: String,
    pub(super) access: Access,
    pub(super) tick: u64,
    /// The tick of the last centring step.
    pub(super) centred_at: Option<u64>,
    pub(super) link: ClientLink,
    pub(super) connection: Connection,
    pub(super) seen: Seen,
    pub(super) predicted: Predicted,
    pub(super) log: Log,
    pub(super) refusals: Refusals,
    /// Whether a server message in chat form was already reported as not believed.
    pub(super) warned_system_chat: bool,
    /// What the bot knows of the chests it used.
    pub(super) chests: super::containers::Chests,
}

/// The channels to the client thread, and the thread itself.
pub(super) struct ClientLink {
    pub(super) commands: Sender<Command>,
    pub(super) events: Receiver<ClientEvent>,
    pub(super) client: Option<ClientThread>,
    /// The number of the last command sent.
    pub(super) next_seq: Seq,
}

/// Where the connection stands.
#[derive(Default)]
pub(super) struct Connection {
    pub(super) joined: Option<Joined>,
    /// In the world with the chunks around loaded: the bot may act.
    pub(super) ready: bool,
    /// Times the bot became ready (more than one is a reconnection).
    pub(super) sessions: u32,
    pub(super) gave_up: bool,
    pub(super) warned_creative: bool,
}

pub(super) struct Joined {
    pub(super) name: String,
    pub(super) login: Duration,
    pub(super) at: Instant,
    pub(super) attempt: u32,
}

/// What the client last showed: its loaded chunks, the world's height, and the tick's snapshot.
pub(super) struct Seen {
    pub(super) view: Option<BlockView>,
    pub(super) height: (i32, i32),
    pub(super) snapshot: Snapshot,
    pub(super) has_snapshot: bool,
}

/// The bot's own actions the snapshots do not show yet: feet block, look and blocks, each until
/// the command with that number is carried out.
#[derive(Default)]
pub(super) struct Predicted {
    pub(super) moved: Option<(Pos, Seq)>,
    pub(super) looked: Option<(Look, Seq)>,
    pub(super) pending: FxHashMap<Pos, (Block, Seq)>,
}

impl Predicted {
    /// Forget every prediction (a new session starts from what it sees).
    pub(super) fn clear(&mut self) {
        *self = Predicted::default();
    }

    /// Drop the predictions the client has carried out up to command `applied`.
    pub(super) fn settle(&mut self, applied: Seq) {
        self.pending.retain(|_, (_, seq)| *seq > applied);
        if self.moved.is_some_and(|(_, seq)| seq <= applied) {
            self.moved = None;
        }
        if self.looked.is_some_and(|(_, seq)| seq <= applied) {
            self.looked = None;
        }
    }
}

/// What happened, for the agent (block changes, chat) and the driver (the transcript).
#[derive(Default)]
pub(super) struct Log {
    /// The newest block changes; `changes_dropped` older ones were let go.
    pub(super) changes: Vec<BlockChange>,
    pub(super) changes_dropped: usize,
    pub(super) chats: Vec<ChatMessage>,
    pub(super) transcript: Vec<Line>,
    /// Pickups the server announced (see `events.rs`); `pickups_dropped` older ones let go.
    pub(super) pickups: Vec<crate::world::Pickup>,
    pub(super) pickups_dropped: usize,
}

impl Log {
    /// Records a block change, keeping the record bounded ([`crate::world::record`]).
    pub(super) fn change(&mut self, change: BlockChange) {
        self.changes.push(change);
        self.changes_dropped += crate::world::record::trim(&mut self.changes, crate::world::record::KEEP_CHANGES);
    }
}

impl LiveWorld {
    /// Start joining the server in the background; [`LiveWorld::sync`] reports progress.
    pub fn connect(config: LiveConfig) -> Result<LiveWorld, LiveError> {
        client::parse_address(&config.address)?;
        if !config.microsoft && !chat::is_player_name(&config.name) {
            return Err(LiveError::BadName(config.name));
        }
        let account = if config.microsoft {
            AccountChoice::Microsoft(config.name.clone())
        } else {
            AccountChoice::Offline(config.name.clone())
        };
        let (cmd_tx, cmd_rx) = std::sync::mpsc::channel();
        let (ev_tx, ev_rx) = std::sync::mpsc::channel();
        let client = client::spawn(
            ClientConfig {
                address: config.address,
                account,
                backoff: config.backoff,
                join_timeout: config.join_timeout,
                view_distance: config.view_distance,
            },
            cmd_rx,
            ev_tx,
        )?;
        let mut world = LiveWorld::over(config.name, config.access, cmd_tx, ev_rx);
        world.link.client = Some(client);
        Ok(world)
    }

    /// A live world on these channels, with no client thread behind them (yet).
    pub(super) fn over(
        name: String,
        access: Access,
        commands: Sender<Command>,
        events: Receiver<ClientEvent>,
    ) -> LiveWorld {
        LiveWorld {
            name,
            access,
            tick: 0,
            centred_at: None,
            link: ClientLink { commands, events, client: None, next_seq: 0 },
            connection: Connection::default(),
            seen: Seen { view: None, height: rules::HEIGHT, snapshot: Snapshot::default(), has_snapshot: false },
            predicted: Predicted::default(),
            log: Log::default(),
            refusals: Refusals::default(),
            warned_system_chat: false,
            chests: Default::default(),
        }
    }

    /// Connected, in the world, chunks loaded: the bot may act.
    pub fn is_ready(&self) -> bool {
        self.connection.ready
    }

    /// The client gave up reconnecting.
    pub fn gave_up(&self) -> bool {
        self.connection.gave_up
    }

    /// Disconnect now.
    pub fn disconnect(&mut self) {
        if let Some(mut c) = self.link.client.take() {
            c.stop();
        }
        self.connection.ready = false;
    }

    /// A line from the operator's console (the web view in `connect`): the bot hears it as from
    /// an allowed player named `operator`, and it goes into the transcript. Nothing is sent to
    /// the server: the console talks to the bot, not to the other players.
    pub fn console_says(&mut self, operator: &str, text: &str) {
        self.log.transcript.push(Line { speaker: operator.to_string(), text: text.to_string(), refused: false });
        self.log.chats.push(crate::world::ChatMessage { tick: self.tick, speaker: operator.to_string(), text: text.to_string() });
    }

    /// What the bot heard and said since the last call.
    pub fn take_transcript(&mut self) -> Vec<Line> {
        std::mem::take(&mut self.log.transcript)
    }

    /// Goes on counting ticks from `tick` (the memory's latest, after a restart): what happens
    /// now comes after everything remembered. Never moves time backwards.
    pub fn resume_at(&mut self, tick: u64) {
        self.tick = self.tick.max(tick);
    }

    /// Advance one tick: take in everything the client reported. Call once per tick, before the
    /// bot's tick.
    pub fn sync(&mut self) -> Vec<Notice> {
        self.tick += 1;
        let mut notices = Vec::new();
        while let Ok(ev) = self.link.events.try_recv() {
            self.take_event(ev, &mut notices);
        }
        if !self.connection.ready
            && self.seen.has_snapshot
            && let (Some(j), Some(view)) = (&self.connection.joined, &self.seen.view)
        {
            let (loaded, total) = view.loaded_around(self.seen.snapshot.pos.block(), READY_CHUNK_RADIUS);
            if loaded == total || j.at.elapsed() >= READY_WAIT {
                self.connection.ready = true;
                self.connection.sessions += 1;
                notices.push(Notice::Ready {
                    name: j.name.clone(),
                    login: j.login,
                    ready: j.login + j.at.elapsed(),
                    attempt: j.attempt,
                    reconnected: self.connection.sessions > 1,
                });
            }
        }
        if self.connection.ready && self.seen.has_snapshot {
            self.keep_centred();
        }
        notices
    }

    /// Tasks see the bot as one block, the one its feet are in, and wait for it to fall when that
    /// block has air under it. A real body is 0.6 blocks wide: off the middle of its block (where
    /// the server spawns or teleports it, or a push leaves it) it can stand on the edge of a
    /// neighbour with air under its feet block, and a task would wait for a fall that never
    /// comes. So a bot standing off the middle steps to the middle of its own block (and falls
    /// from there if nothing is under it), as it does after each of its own steps.
    fn keep_centred(&mut self) {
        if self.predicted.moved.is_some() || self.centred_at.is_some_and(|t| self.tick < t + CENTRE_COOLDOWN) {
            return;
        }
        let at = self.seen.snapshot.pos;
        let standing = (at.y - at.y.round()).abs() < 1e-3;
        let off = |v: f64| (v - v.floor() - 0.5).abs() > OFF_CENTRE;
        if !standing || !(off(at.x) || off(at.z)) {
            return;
        }
        let here = self.agent_pos();
        if !rules::has_room(here, |p| self.block_at(p)) {
            return;
        }
        tracing::debug!(?at, %here, "stepping to the middle of the block");
        self.centred_at = Some(self.tick);
        let feet = here.feet();
        let seq = self.send(|seq| Command::Step { seq, feet });
        self.predicted.moved = Some((here, seq));
    }

    // ---- small checks and bookkeeping the actions share ----

    pub(super) fn send(&mut self, make: impl FnOnce(Seq) -> Command) -> Seq {
        self.link.next_seq += 1;
        let seq = self.link.next_seq;
        // A closed channel means the client thread ended; `sync` reports why.
        let _ = self.link.commands.send(make(seq));
        seq
    }

    pub(super) fn connected(&self) -> Result<(), ActionError> {
        if self.connection.ready { Ok(()) } else { Err(ActionError::Refused("I'm not connected to the server right now".into())) }
    }

    pub(super) fn body_positions(&self) -> Vec<Pos> {
        self.seen.snapshot.players.iter().map(|p| p.pos.block()).collect()
    }

    /// Changes at `p` fail for a while after the server refused one there (or, after a burst of
    /// refusals, one nearby).
    pub(super) fn check_refused(&mut self, p: Pos) -> Result<(), ActionError> {
        self.refusals.check(self.tick, p)
    }

    pub(super) fn loaded(&self, p: Pos) -> Result<(), ActionError> {
        match &self.seen.view {
            Some(v) if v.is_loaded(p) => Ok(()),
            _ => Err(ActionError::Refused(format!("the world around {p} is not loaded"))),
        }
    }

    pub(super) fn record(&mut self, pos: Pos, before: Block, after: Block) {
        self.log.change(BlockChange { tick: self.tick, pos, before, after, by: Actor::Agent });
    }
}

impl Drop for LiveWorld {
    fn drop(&mut self) {
        self.disconnect();
    }
}
