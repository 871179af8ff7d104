//! The live world: the [`World`] trait over a real Minecraft 26.1 server, through azalea.
//!
//! The agent's tick loop is the same code as in the embedded world; only this module knows the
//! world is real. Azalea runs on its own thread ([`client`]); [`LiveWorld`] lives on the agent's
//! thread and talks to it through channels ([`bridge`]):
//!
//! - **Perception** comes from the client: a [`bridge::Snapshot`] each game tick (the bot's
//!   position and look, players, mobs), chat, and the server's block updates, which become the
//!   block-change record. Blocks are read from the chunks the client has loaded ([`blocks`]).
//! - **Actions** are checked here first, with the embedded world's rules ([`rules`]), then sent
//!   as numbered commands, and take effect in this view at once: until the client reports a
//!   command carried out, the bot's own position, look and changed blocks are predicted, so a
//!   task sees what it just did in the next tick, as it would in the embedded world.
//! - **Refusals**: when the server puts back something other than what the bot placed or broke
//!   (a protected area, a plugin), the change record shows it, and further changes at that spot
//!   — and, after a burst of refusals, near it — fail at once with the reason for a while, so a
//!   task reports the refusal instead of retrying in a storm.
//! - **Access**: chat from players not on the allow-list ([`access`]) never reaches the agent;
//!   they get a polite answer.
//!
//! The driver (the `connect` command) calls [`LiveWorld::sync`] once per tick before ticking the
//! bot, and ticks the bot only while [`LiveWorld::is_ready`].

pub mod access;
pub mod blocks;
pub mod bridge;
pub mod chat;
pub mod client;
pub mod placement;
pub mod reconnect;
pub mod rules;

#[cfg(test)]
mod tests;

use crate::world::{
    ActionError, Actor, BBox, Block, BlockChange, ChatMessage, Look, MobInfo, PlayerInfo, Pos, Vec3, World,
};
use crate::safety::gate::{self, Admission, Admitted};
use access::Access;
use blocks::BlockView;
use bridge::{ClientEvent, Command, Seq, Snapshot};
use client::{AccountChoice, ClientConfig, ClientThread};
use reconnect::Backoff;
use rustc_hash::FxHashMap;
use std::collections::VecDeque;
use std::sync::mpsc::{Receiver, Sender};
use std::time::{Duration, Instant};

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
}

impl LiveConfig {
    pub fn offline(address: &str, name: &str) -> LiveConfig {
        LiveConfig {
            address: address.to_string(),
            name: name.to_string(),
            microsoft: false,
            access: Access::everyone(),
            backoff: Backoff::default(),
            join_timeout: Duration::from_secs(30),
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

/// Changes at a refused spot fail for this many ticks.
const REFUSED_TICKS: u64 = 600;
/// This many refusals within [`BURST_TICKS`] make changes near them fail too.
const BURST_REFUSALS: usize = 3;
const BURST_TICKS: u64 = 100;
const BURST_RADIUS: i32 = 8;
/// Chunks around the bot (radius) that must be loaded before it acts, or this long after joining.
const READY_CHUNK_RADIUS: i32 = 2;
const READY_WAIT: Duration = Duration::from_secs(3);
/// Feet further than this from the middle of their block, sideways, put the body (0.6 wide) over
/// a neighbouring column too; see [`LiveWorld::keep_centred`].
const OFF_CENTRE: f64 = 0.2;
/// Ticks between two centring steps, so a player pushing the bot does not make it fidget.
const CENTRE_COOLDOWN: u64 = 20;

struct Joined {
    name: String,
    login: Duration,
    at: Instant,
    attempt: u32,
}

pub struct LiveWorld {
    name: String,
    access: Access,
    commands: Sender<Command>,
    events: Receiver<ClientEvent>,
    client: Option<ClientThread>,
    view: Option<BlockView>,
    height: (i32, i32),
    snapshot: Snapshot,
    has_snapshot: bool,
    joined: Option<Joined>,
    ready: bool,
    sessions: u32,
    gave_up: bool,
    tick: u64,
    next_seq: Seq,
    /// Predicted feet block / look / blocks, until the command with that number is carried out.
    moved: Option<(Pos, Seq)>,
    looked: Option<(Look, Seq)>,
    pending: FxHashMap<Pos, (Block, Seq)>,
    changes: Vec<BlockChange>,
    chats: Vec<ChatMessage>,
    transcript: Vec<Line>,
    refused: FxHashMap<Pos, u64>,
    recent_refusals: VecDeque<(u64, Pos)>,
    warned_creative: bool,
    /// The tick of the last centring step.
    centred_at: Option<u64>,
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
            },
            cmd_rx,
            ev_tx,
        )?;
        let mut world = LiveWorld::over(config.name, config.access, cmd_tx, ev_rx);
        world.client = Some(client);
        Ok(world)
    }

    /// A live world on these channels, with no client thread behind them (yet).
    fn over(name: String, access: Access, commands: Sender<Command>, events: Receiver<ClientEvent>) -> LiveWorld {
        LiveWorld {
            name,
            access,
            commands,
            events,
            client: None,
            view: None,
            height: (-64, 319),
            snapshot: Snapshot::default(),
            has_snapshot: false,
            joined: None,
            ready: false,
            sessions: 0,
            gave_up: false,
            tick: 0,
            next_seq: 0,
            moved: None,
            looked: None,
            pending: FxHashMap::default(),
            changes: Vec::new(),
            chats: Vec::new(),
            transcript: Vec::new(),
            refused: FxHashMap::default(),
            recent_refusals: VecDeque::new(),
            warned_creative: false,
            centred_at: None,
        }
    }

    /// Connected, in the world, chunks loaded: the bot may act.
    pub fn is_ready(&self) -> bool {
        self.ready
    }

    /// The client gave up reconnecting.
    pub fn gave_up(&self) -> bool {
        self.gave_up
    }

    /// Disconnect now.
    pub fn disconnect(&mut self) {
        if let Some(mut c) = self.client.take() {
            c.stop();
        }
        self.ready = false;
    }

    /// What the bot heard and said since the last call.
    pub fn take_transcript(&mut self) -> Vec<Line> {
        std::mem::take(&mut self.transcript)
    }

    /// Advance one tick: take in everything the client reported. Call once per tick, before the
    /// bot's tick.
    pub fn sync(&mut self) -> Vec<Notice> {
        self.tick += 1;
        let mut notices = Vec::new();
        while let Ok(ev) = self.events.try_recv() {
            self.take_event(ev, &mut notices);
        }
        if !self.ready
            && self.has_snapshot
            && let (Some(j), Some(view)) = (&self.joined, &self.view)
        {
            let (loaded, total) = view.loaded_around(self.snapshot.pos.block(), READY_CHUNK_RADIUS);
            if loaded == total || j.at.elapsed() >= READY_WAIT {
                self.ready = true;
                self.sessions += 1;
                notices.push(Notice::Ready {
                    name: j.name.clone(),
                    login: j.login,
                    ready: j.login + j.at.elapsed(),
                    attempt: j.attempt,
                    reconnected: self.sessions > 1,
                });
            }
        }
        if self.ready && self.has_snapshot {
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
        if self.moved.is_some() || self.centred_at.is_some_and(|t| self.tick < t + CENTRE_COOLDOWN) {
            return;
        }
        let at = self.snapshot.pos;
        let standing = (at.y - at.y.round()).abs() < 1e-3;
        let off = |v: f64| (v - v.floor() - 0.5).abs() > OFF_CENTRE;
        if !standing || !(off(at.x) || off(at.z)) {
            return;
        }
        let here = self.agent_pos();
        if self.block_at(here).is_solid() || self.block_at(here.up(1)).is_solid() {
            return;
        }
        tracing::debug!(?at, %here, "stepping to the middle of the block");
        self.centred_at = Some(self.tick);
        let feet = here.feet();
        let seq = self.send(|seq| Command::Step { seq, feet });
        self.moved = Some((here, seq));
    }

    fn take_event(&mut self, ev: ClientEvent, notices: &mut Vec<Notice>) {
        match ev {
            ClientEvent::Joined { name, after, view, attempt } => {
                self.height = view.height_range();
                self.view = Some(view);
                self.joined = Some(Joined { name, login: after, at: Instant::now(), attempt });
                self.ready = false;
                self.has_snapshot = false;
                self.moved = None;
                self.looked = None;
                self.pending.clear();
            }
            ClientEvent::WorldChanged { view } => {
                self.height = view.height_range();
                self.view = Some(view);
                self.pending.clear();
            }
            ClientEvent::Snapshot(s) => {
                let applied = s.applied;
                self.snapshot = s;
                self.has_snapshot = true;
                self.pending.retain(|_, (_, seq)| *seq > applied);
                if self.moved.is_some_and(|(_, seq)| seq <= applied) {
                    self.moved = None;
                }
                if self.looked.is_some_and(|(_, seq)| seq <= applied) {
                    self.looked = None;
                }
                if !self.snapshot.creative && self.ready && !self.warned_creative {
                    self.warned_creative = true;
                    notices.push(Notice::NotCreative);
                }
            }
            ClientEvent::Chat { from, text } => self.hear(from, text),
            ClientEvent::BlockChanged { pos, before, after } => {
                self.changes.push(BlockChange { tick: self.tick, pos, before, after, by: Actor::World });
            }
            ClientEvent::Refused { pos, wanted, got } => {
                tracing::info!(%pos, wanted = wanted.name(), got = got.name(), "the server refused a block change");
                self.refused.insert(pos, self.tick);
                self.recent_refusals.push_back((self.tick, pos));
                while self.recent_refusals.len() > 64 {
                    self.recent_refusals.pop_front();
                }
                notices.push(Notice::Refused { pos, wanted, got });
            }
            ClientEvent::Disconnected { reason } => {
                self.ready = false;
                self.joined = None;
                notices.push(Notice::Disconnected { reason });
            }
            ClientEvent::Reconnecting { attempt, of, delay } => {
                notices.push(Notice::Reconnecting { attempt, of, delay })
            }
            ClientEvent::GaveUp { reason } => {
                self.ready = false;
                self.joined = None;
                self.gave_up = true;
                notices.push(Notice::GaveUp { reason });
            }
        }
    }

    /// A chat line from the server: find the speaker, drop our own lines, and let only allowed
    /// players through.
    fn hear(&mut self, from: Option<String>, text: String) {
        let (speaker, text) = match from {
            Some(name) if !name.is_empty() => (name, text),
            _ => match chat::parse_system(&text) {
                Some(pair) => pair,
                None => {
                    tracing::debug!("server message: {text}");
                    return;
                }
            },
        };
        if speaker.eq_ignore_ascii_case(&self.name) {
            return;
        }
        let admitted = gate::admit(&mut self.access, &speaker, self.tick);
        self.transcript.push(Line { speaker: speaker.clone(), text: text.clone(), refused: admitted != Admitted::Yes });
        match admitted {
            Admitted::Yes => self.chats.push(ChatMessage { tick: self.tick, speaker, text }),
            Admitted::No(Some(line)) => self.say(&line),
            Admitted::No(None) => {}
        }
    }

    fn send(&mut self, make: impl FnOnce(Seq) -> Command) -> Seq {
        self.next_seq += 1;
        let seq = self.next_seq;
        // A closed channel means the client thread ended; `sync` reports why.
        let _ = self.commands.send(make(seq));
        seq
    }

    fn connected(&self) -> Result<(), ActionError> {
        if self.ready { Ok(()) } else { Err(ActionError::Refused("I'm not connected to the server right now".into())) }
    }

    fn body_positions(&self) -> Vec<Pos> {
        self.snapshot.players.iter().map(|p| p.pos.block()).collect()
    }

    /// Changes at `p` fail for a while after the server refused one there (or, after a burst of
    /// refusals, one nearby).
    fn check_refused(&mut self, p: Pos) -> Result<(), ActionError> {
        let tick = self.tick;
        self.refused.retain(|_, t| tick.saturating_sub(*t) < REFUSED_TICKS);
        while self.recent_refusals.front().is_some_and(|(t, _)| tick.saturating_sub(*t) >= BURST_TICKS) {
            self.recent_refusals.pop_front();
        }
        let burst = self.recent_refusals.len() >= BURST_REFUSALS
            && self.recent_refusals.iter().any(|(_, q)| q.chebyshev(p) <= BURST_RADIUS);
        if self.refused.contains_key(&p) || burst {
            return Err(ActionError::Refused(format!("I'm not allowed to change the block at {p}")));
        }
        Ok(())
    }

    fn loaded(&self, p: Pos) -> Result<(), ActionError> {
        match &self.view {
            Some(v) if v.is_loaded(p) => Ok(()),
            _ => Err(ActionError::Refused(format!("the world around {p} is not loaded"))),
        }
    }

    fn record(&mut self, pos: Pos, before: Block, after: Block) {
        self.changes.push(BlockChange { tick: self.tick, pos, before, after, by: Actor::Agent });
    }
}

impl Drop for LiveWorld {
    fn drop(&mut self) {
        self.disconnect();
    }
}

impl World for LiveWorld {
    fn tick(&self) -> u64 {
        self.tick
    }

    fn block_at(&self, p: Pos) -> Block {
        if let Some((b, _)) = self.pending.get(&p) {
            return *b;
        }
        self.view.as_ref().and_then(|v| v.block_at(p)).unwrap_or(Block::AIR)
    }

    fn blocks_in(&self, bbox: BBox) -> Vec<(Pos, Block)> {
        let mut out = match &self.view {
            Some(v) => v.blocks_in(bbox),
            None => Vec::new(),
        };
        if !self.pending.is_empty() {
            let inside = |p: &Pos| {
                (bbox.min.x..=bbox.max.x).contains(&p.x)
                    && (bbox.min.y..=bbox.max.y).contains(&p.y)
                    && (bbox.min.z..=bbox.max.z).contains(&p.z)
            };
            out.retain(|(p, _)| !self.pending.contains_key(p));
            out.extend(self.pending.iter().filter(|(p, (b, _))| inside(p) && !b.is_air()).map(|(p, (b, _))| (*p, *b)));
        }
        out
    }

    fn players(&self) -> Vec<PlayerInfo> {
        self.snapshot.players.clone()
    }

    fn mobs(&self) -> Vec<MobInfo> {
        self.snapshot.mobs.clone()
    }

    fn agent_name(&self) -> &str {
        &self.name
    }

    fn agent_pos(&self) -> Pos {
        match self.moved {
            Some((p, _)) => p,
            // Feet resting on a block are at a whole y; a hair up keeps rounding from putting
            // them inside the block below.
            None => Vec3::new(self.snapshot.pos.x, self.snapshot.pos.y + 1e-3, self.snapshot.pos.z).block(),
        }
    }

    fn agent_look(&self) -> Look {
        self.looked.map(|(l, _)| l).unwrap_or(self.snapshot.look)
    }

    fn take_chats(&mut self) -> Vec<ChatMessage> {
        std::mem::take(&mut self.chats)
    }

    fn changes_since(&self, cursor: usize) -> (Vec<BlockChange>, usize) {
        let from = cursor.min(self.changes.len());
        (self.changes[from..].to_vec(), self.changes.len())
    }

    fn step_to(&mut self, to: Pos) -> Result<(), ActionError> {
        self.connected()?;
        let from = self.agent_pos();
        rules::check_step(from, to, self.height, |p| self.block_at(p))?;
        self.loaded(to)?;
        let feet = placement::step_target(from, to);
        let seq = self.send(|seq| Command::Step { seq, feet });
        self.moved = Some((to, seq));
        Ok(())
    }

    fn place_block(&mut self, p: Pos, block: Block) -> Result<(), ActionError> {
        self.connected()?;
        if block.is_air() {
            return self.break_block(p);
        }
        let agent = self.agent_pos();
        rules::check_place(p, block, agent, &self.body_positions(), self.height, |q| self.block_at(q))?;
        self.loaded(p)?;
        self.check_refused(p)?;
        if blocks::item(block.name()).is_none() {
            return Err(ActionError::UnknownItem(block.name().to_string()));
        }
        let eye = placement::eye_of(agent.feet());
        let Some((against, _)) = placement::click_for(p, eye, |n| rules::clickable(self.block_at(n))) else {
            return Err(ActionError::NoFooting(p));
        };
        let before = self.block_at(p);
        let seq = self.send(|seq| Command::Place { seq, pos: p, block, against });
        self.pending.insert(p, (block, seq));
        self.record(p, before, block);
        Ok(())
    }

    fn break_block(&mut self, p: Pos) -> Result<(), ActionError> {
        self.connected()?;
        rules::check_break(p, self.agent_pos(), self.height, |q| self.block_at(q))?;
        self.loaded(p)?;
        self.check_refused(p)?;
        let before = self.block_at(p);
        let seq = self.send(|seq| Command::Break { seq, pos: p });
        self.pending.insert(p, (Block::AIR, seq));
        self.record(p, before, Block::AIR);
        Ok(())
    }

    fn set_look(&mut self, look: Look) {
        let look = Look::new(look.yaw, look.pitch);
        if self.ready {
            let seq = self.send(|seq| Command::Look { seq, look });
            self.looked = Some((look, seq));
        }
    }

    fn spawn_mob(&mut self, kind: &str, p: Vec3) -> Result<(), ActionError> {
        let kind = kind.trim().to_lowercase().replace(' ', "_");
        let Some(egg) = blocks::spawn_egg(&kind) else { return Err(ActionError::UnknownMob(kind)) };
        self.connected()?;
        let at = p.block();
        if at.y < self.height.0 || at.y > self.height.1 {
            return Err(ActionError::OutOfWorld(at));
        }
        if self.block_at(at).is_solid() {
            return Err(ActionError::Blocked(at));
        }
        // The egg is used on the block below the spot, like a player would.
        let on = at.down(1);
        if !rules::clickable(self.block_at(on)) {
            return Err(ActionError::NoFooting(at));
        }
        if crate::tasks::context::reach_distance(self.agent_pos(), on) > rules::REACH {
            return Err(ActionError::OutOfReach(at));
        }
        self.loaded(on)?;
        let egg = blocks::id(egg.to_str()).to_string();
        self.send(|seq| Command::Spawn { seq, egg, on });
        Ok(())
    }

    fn give_item(&mut self, player: &str, item: &str, count: u32) -> Result<(), ActionError> {
        let item = item.trim().to_lowercase().replace(' ', "_");
        let item = blocks::id(&item).to_string();
        if blocks::item(&item).is_none() {
            return Err(ActionError::UnknownItem(item));
        }
        self.connected()?;
        let Some(target) = self.snapshot.players.iter().find(|p| p.name.eq_ignore_ascii_case(player)) else {
            return Err(ActionError::UnknownPlayer(player.to_string()));
        };
        let towards = target.eye();
        // Thrown items fly a few blocks: be close.
        if towards.distance(placement::eye_of(self.agent_pos().feet())) > 6.0 {
            return Err(ActionError::OutOfReach(target.pos.block()));
        }
        let mut left = count.max(1);
        while left > 0 {
            let n = left.min(64);
            let item = item.clone();
            self.send(|seq| Command::Give { seq, item, count: n, towards });
            left -= n;
        }
        Ok(())
    }

    fn say(&mut self, text: &str) {
        for line in chat::outgoing(text) {
            self.transcript.push(Line { speaker: self.name.clone(), text: line.clone(), refused: false });
            let _ = self.commands.send(Command::Say(line));
        }
    }
}

/// The allow-list is the chat gate's answer to who may command the bot.
impl Admission for Access {
    fn allows(&self, speaker: &str) -> bool {
        Access::allows(self, speaker)
    }
    fn refusal(&mut self, speaker: &str, tick: u64) -> Option<String> {
        Access::refusal(self, speaker, tick)
    }
}
