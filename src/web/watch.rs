//! The tick side of the web view: after each tick the driver hands the [`Watcher`] the world and
//! the bot; it works out what changed and publishes it for every page at once.
//!
//! The bot never waits for a page. Updates go out on a broadcast channel that drops the oldest
//! messages for a page that reads too slowly (that page then asks for a fresh snapshot), and a
//! new page's snapshot is handed over through a one-shot channel, answered here between ticks.
//! With no page connected the watcher only keeps the chat transcript: nothing is scanned.

use super::message::{Body, ChatLine, PageInput, Update, cell};
use super::surface::Surface;
use crate::agent::Bot;
use crate::agent::inspect::{MemoryView, TaskLine};
use crate::dialogue::last::LastLine;
use crate::world::World;
use std::collections::VecDeque;
use std::sync::Arc;
use std::sync::mpsc;
use std::time::Duration;
use tokio::sync::{broadcast, oneshot};

/// Chat lines a new page is shown.
const CHAT_KEPT: usize = 200;
/// Things listed in the memory panel (the nearest).
const MEMORY_SHOWN: usize = 100;
/// Ticks between two reads of memory while it keeps changing.
const MEMORY_EVERY: u64 = 10;
/// Ticks between two status messages.
const STATUS_EVERY: u64 = 20;
/// Messages a page may fall behind before it must start over from a snapshot.
pub const BACKLOG: usize = 1024;

/// A page's request to join: its snapshot and its subscription come back on the one-shot.
pub type Join = oneshot::Sender<(Vec<Arc<str>>, broadcast::Receiver<Arc<str>>)>;

/// Who the page is, for its hello.
#[derive(Clone, Debug)]
pub struct Identity {
    pub bot: String,
    /// Whom the page speaks as.
    pub you: String,
    pub mode: &'static str,
}

/// What the pages were last sent, to send only differences.
#[derive(Default)]
struct Sent {
    bodies: Option<(Body, Vec<Body>, Vec<Body>)>,
    understood: Option<LastLine>,
    tasks: Option<Vec<TaskLine>>,
    memory: Option<MemoryView>,
    memory_version: Option<u64>,
    memory_tick: u64,
    status_tick: u64,
}

pub struct Watcher {
    identity: Identity,
    updates: broadcast::Sender<Arc<str>>,
    joins: mpsc::Receiver<Join>,
    inputs: mpsc::Receiver<PageInput>,
    /// The drawn blocks, the change-log position they are up to date with and the tick they
    /// were scanned; `None` while no page watches.
    surface: Option<(Surface, usize, u64)>,
    /// Ticks between two full scans, for worlds whose change record misses changes (a live
    /// server's chunks arrive without one).
    rescan_every: Option<u64>,
    chat: VecDeque<ChatLine>,
    sent: Sent,
    /// Tick times since the last status message.
    tick_times: Vec<Duration>,
}

impl Watcher {
    pub(super) fn new(
        identity: Identity,
        updates: broadcast::Sender<Arc<str>>,
        joins: mpsc::Receiver<Join>,
        inputs: mpsc::Receiver<PageInput>,
    ) -> Watcher {
        Watcher {
            identity,
            updates,
            joins,
            inputs,
            surface: None,
            rescan_every: None,
            chat: VecDeque::new(),
            sent: Sent::default(),
            tick_times: Vec::new(),
        }
    }

    /// Pages connected now.
    pub fn pages(&self) -> usize {
        self.updates.receiver_count()
    }

    /// Scan the drawn box again every `ticks` ticks and send what differs: for a world whose
    /// change record does not see everything (a live server's chunks as they load).
    pub fn rescan_every(&mut self, ticks: u64) {
        self.rescan_every = Some(ticks.max(1));
    }

    /// The world was swapped for another (a loaded save, a new connection): draw it from
    /// scratch.
    pub fn world_replaced(&mut self) {
        self.surface = None;
        self.sent = Sent::default();
    }

    /// What the pages sent since the last call: chat lines and button presses, in order.
    pub fn take_inputs(&mut self) -> Vec<PageInput> {
        self.inputs.try_iter().collect()
    }

    /// Tells every page something that is not chat (the answer to a button).
    pub fn note(&mut self, text: &str) {
        self.send(Update::Note { text }.json());
    }

    fn send(&self, json: String) {
        // No receiver is not an error: nobody is watching.
        let _ = self.updates.send(Arc::from(json));
    }

    /// After a tick: publish what changed. `chat` is the transcript lines of this tick;
    /// `took` how long the tick took.
    pub fn publish(&mut self, world: &dyn World, bot: &dyn Bot, chat: Vec<ChatLine>, took: Duration) {
        self.tick_times.push(took);
        let watching = self.pages() > 0;
        if watching && !chat.is_empty() {
            self.send(Update::Chat { lines: &chat }.json());
        }
        self.chat.extend(chat);
        while self.chat.len() > CHAT_KEPT {
            self.chat.pop_front();
        }
        let joins: Vec<Join> = self.joins.try_iter().collect();
        if !watching && joins.is_empty() {
            // Nobody watches: forget what was sent, so the next page starts from a full scan.
            self.surface = None;
            self.sent = Sent::default();
            self.tick_times.clear();
            return;
        }
        self.blocks(world);
        self.bodies(world);
        self.understood(bot);
        self.tasks(bot);
        self.memory(world, bot, false);
        let now = world.tick();
        if now >= self.sent.status_tick + STATUS_EVERY {
            self.sent.status_tick = now;
            let n = self.tick_times.len().max(1) as f64;
            let tick_ms = self.tick_times.drain(..).map(|d| d.as_secs_f64() * 1000.0).sum::<f64>() / n;
            let tick_ms = (tick_ms * 1000.0).round() / 1000.0;
            self.send(Update::Status { tick: now, tick_ms, pages: self.pages() }.json());
        }
        for join in joins {
            let snapshot = self.snapshot(world, bot);
            // A page that went away before its answer came just misses it.
            let _ = join.send((snapshot, self.updates.subscribe()));
        }
    }

    fn blocks(&mut self, world: &dyn World) {
        let (here, now) = (world.agent_pos(), world.tick());
        let stale = match &self.surface {
            None => true,
            Some((s, _, _)) => s.left_behind(here),
        };
        if stale {
            let (_, cursor) = world.changes_since(usize::MAX);
            let surface = Surface::scan(world, Surface::area_around(here));
            if self.pages() > 0 {
                self.send(full_blocks(&surface));
            }
            self.surface = Some((surface, cursor, now));
            return;
        }
        let Some((surface, cursor, scanned)) = &mut self.surface else { return };
        let (changes, next) = world.changes_since(*cursor);
        *cursor = next;
        let delta = if self.rescan_every.is_some_and(|n| now >= *scanned + n) {
            let newer = Surface::scan(world, surface.area);
            let delta = surface.diff(&newer);
            *surface = newer;
            *scanned = now;
            delta
        } else if changes.is_empty() {
            return;
        } else {
            surface.update(world, changes.iter().map(|c| c.pos))
        };
        if !delta.is_empty() {
            let set = delta.set.iter().map(|&(p, c)| cell(p, c)).collect();
            let clear = delta.clear.iter().map(|p| [p.x, p.y, p.z]).collect();
            self.send(Update::Blocks { reset: false, area: None, set, clear }.json());
        }
    }

    fn bodies(&mut self, world: &dyn World) {
        let (a, look) = (world.agent_pos(), world.agent_look());
        let bot = Body::new(world.agent_name(), a.x as f64 + 0.5, a.y as f64, a.z as f64 + 0.5, look.yaw);
        let players: Vec<Body> = world
            .players()
            .iter()
            .filter(|p| p.name != world.agent_name())
            .map(|p| Body::new(&p.name, p.pos.x, p.pos.y, p.pos.z, p.look.yaw))
            .collect();
        let mobs: Vec<Body> = world.mobs().iter().map(|m| Body::new(&m.kind, m.pos.x, m.pos.y, m.pos.z, 0.0)).collect();
        let now = (bot, players, mobs);
        if self.sent.bodies.as_ref() != Some(&now) {
            self.send(Update::Entities { bot: &now.0, players: &now.1, mobs: &now.2 }.json());
            self.sent.bodies = Some(now);
        }
    }

    fn understood(&mut self, bot: &dyn Bot) {
        let Some(line) = bot.understood() else { return };
        // Compared whole: a line's outcome can change after it was read (a question answered).
        if self.sent.understood.as_ref() != Some(line) {
            self.send(Update::Understood { line }.json());
            self.sent.understood = Some(line.clone());
        }
    }

    fn tasks(&mut self, bot: &dyn Bot) {
        let stack = bot.task_lines();
        if self.sent.tasks.as_ref() != Some(&stack) {
            self.send(Update::Tasks { stack: &stack }.json());
            self.sent.tasks = Some(stack);
        }
    }

    /// Rereads memory when it was written to (at most every [`MEMORY_EVERY`] ticks, unless
    /// `now`), and sends it when what is shown changed.
    fn memory(&mut self, world: &dyn World, bot: &dyn Bot, now: bool) {
        let version = bot.memory_version();
        let due = now || world.tick() >= self.sent.memory_tick + MEMORY_EVERY;
        if self.sent.memory_version == Some(version) || !due {
            return;
        }
        self.sent.memory_version = Some(version);
        self.sent.memory_tick = world.tick();
        let view = bot.memory_view(world.agent_pos(), MEMORY_SHOWN);
        if self.sent.memory.as_ref() != Some(&view) {
            self.send(Update::Memory { view: &view }.json());
            self.sent.memory = Some(view);
        }
    }

    /// Everything a new page needs, as it is now.
    fn snapshot(&mut self, world: &dyn World, bot: &dyn Bot) -> Vec<Arc<str>> {
        self.memory(world, bot, true);
        let id = &self.identity;
        let mut out = vec![Update::Hello { bot: &id.bot, you: &id.you, mode: id.mode, tick: world.tick() }.json()];
        if let Some((surface, _, _)) = &self.surface {
            out.push(full_blocks(surface));
        }
        if let Some((bot_body, players, mobs)) = &self.sent.bodies {
            out.push(Update::Entities { bot: bot_body, players, mobs }.json());
        }
        let chat: Vec<ChatLine> = self.chat.iter().cloned().collect();
        out.push(Update::Chat { lines: &chat }.json());
        if let Some(line) = bot.understood() {
            out.push(Update::Understood { line }.json());
        }
        if let Some(stack) = &self.sent.tasks {
            out.push(Update::Tasks { stack }.json());
        }
        if let Some(view) = &self.sent.memory {
            out.push(Update::Memory { view }.json());
        }
        out.into_iter().map(Arc::from).collect()
    }
}

fn full_blocks(surface: &Surface) -> String {
    let mut set: Vec<_> = surface.cells().map(|(p, c)| cell(p, c)).collect();
    set.sort_unstable();
    let a = surface.area;
    Update::Blocks { reset: true, area: Some([[a.min.x, a.min.y, a.min.z], [a.max.x, a.max.y, a.max.z]]), set, clear: Vec::new() }
        .json()
}
