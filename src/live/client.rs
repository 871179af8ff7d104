//! The azalea side of the live world: one thread running a tokio runtime with azalea's ECS.
//!
//! Two things run there:
//! - **the connection manager** (an async task): joins the server, watches for the bot being
//!   kicked or the server going away, and rejoins with [`Backoff`], reporting each step;
//! - **[`LivePlugin`]'s systems** inside azalea's game loop: every game tick they carry out the
//!   agent's [`Command`]s in order (moves, looks, clicks, chat), then send a [`Snapshot`] of what
//!   the client sees; every frame they pass on chat and the server's block updates.
//!
//! How actions are done, like a creative-mode player:
//! - **Placing**: the block's item goes into hotbar slot 0 with the creative-slot packet (only
//!   when it changes), slot 0 is selected, the bot looks at the middle of the clicked face and
//!   sends the use-item-on packet for the neighbour it clicks. The block is also put into the
//!   client's own world at once (as vanilla clients predict), and the prediction is checked
//!   against the server's block update: a different block back means the server refused.
//! - **Breaking**: the start-destroy action, which breaks at once in creative.
//! - **Moving**: one step is one block. The body is put in the middle of the next block and the
//!   position packet sent in the same tick, before any click that follows (a pillar step places
//!   the block under the feet right after). A step straight up is lifted a little, like the top
//!   of a jump, so that block does not touch the body. Gravity is azalea's physics: after a step
//!   off an edge the body falls as it would for a player. At most one step a tick (20 blocks a
//!   second) is within a creative player's flying speed and vanilla's movement checks.
//! - **Mobs** come from spawn eggs used on the block below; **items** are handed over by putting
//!   them in hotbar slot 1 and dropping the stack towards the player.
//!
//! Nothing here blocks the game loop: commands arrive on a channel that is read without waiting,
//! and events leave on an unbounded channel.

use super::blocks::{self, BlockView};
use super::bridge::{ClientEvent, Command, Seq, Snapshot};
use super::chat::Pacer;
use super::placement::{self, Face};
use super::reconnect::Backoff;
use crate::world::{Block, Look, MobInfo, PlayerInfo, Pos, Vec3};

use azalea::account::Account;
use azalea::app::{App, Plugin, Update};
use azalea::block_update::{QueuedServerBlockUpdates, handle_block_update_event};
use azalea::chat::handler::SendChatKindEvent;
use azalea::chat::{ChatKind, ChatPacket, ChatReceivedEvent};
use azalea::core::direction::Direction;
use azalea::core::game_type::GameMode;
use azalea::core::tick::GameTick;
use azalea::disconnect::DisconnectEvent;
use azalea::ecs::prelude::{
    Entity, Has, IntoScheduleConfigs, MessageReader, Mut, Query, Res, ResMut, Resource, With, Without,
};
use azalea::ecs::world::World as Ecs;
use azalea::entity::metadata::{AbstractLiving, Player};
use azalea::entity::{
    Dead, EntityKindComponent, EntityUuid, HasClientLoaded, LastSentPosition, LoadedBy, LocalEntity, LookDirection,
    Physics, Position,
};
use azalea::events::LocalPlayerEvents;
use azalea::interact::BlockStatePredictionHandler;
use azalea::join::{ConnectOpts, ConnectionFailedEvent, StartJoinServerEvent};
use azalea::local_player::{LocalGameMode, TabList, WorldHolder};
use azalea::movement::{LastSentLookDirection, send_position};
use azalea::packet::game::SendGamePacketEvent;
use azalea::physics::collision::BlockWithShape;
use azalea::player::GameProfileComponent;
use azalea::protocol::address::{ResolvedAddr, ServerAddr};
use azalea::protocol::common::movements::MoveFlags;
use azalea::protocol::packets::Packet;
use azalea::protocol::packets::game::s_interact::InteractionHand;
use azalea::protocol::packets::game::s_player_action::Action;
use azalea::protocol::packets::game::s_use_item_on::BlockHit;
use azalea::protocol::packets::game::{
    ServerboundGamePacket, ServerboundMovePlayerPos, ServerboundMovePlayerRot, ServerboundPlayerAction,
    ServerboundSetCarriedItem, ServerboundSetCreativeModeSlot, ServerboundSwing, ServerboundUseItemOn,
};
use azalea::registry::builtin::ItemKind;
// The `Resource` derive names `bevy_ecs`; azalea re-exports it as `ecs`.
use azalea::ecs as bevy_ecs;
use azalea::{BlockPos, Event};
use azalea_inventory::ItemStack;
use parking_lot::RwLock;
use std::collections::{HashMap, VecDeque};
use std::sync::mpsc::{Receiver, Sender};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::sync::watch;

/// Which account the bot logs in with.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AccountChoice {
    /// An offline-mode account with this name (servers with `online-mode=false`).
    Offline(String),
    /// A Microsoft account (cached under this key, e.g. an e-mail address); needs the
    /// `microsoft` cargo feature.
    Microsoft(String),
}

#[derive(Debug, Clone)]
pub struct ClientConfig {
    /// `host`, `host:port` or `[v6]:port`.
    pub address: String,
    pub account: AccountChoice,
    pub backoff: Backoff,
    /// How long one attempt may take from connecting to being in the world.
    pub join_timeout: Duration,
}

#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum AddressError {
    #[error("{0:?} is not a server address (host or host:port)")]
    Bad(String),
}

/// `host`, `host:port` or `[ipv6]:port`; the port defaults to 25565.
pub fn parse_address(address: &str) -> Result<(String, u16), AddressError> {
    let bad = || AddressError::Bad(address.to_string());
    let a = address.trim();
    let (host, port) = if let Some(rest) = a.strip_prefix('[') {
        let (host, after) = rest.split_once(']').ok_or_else(bad)?;
        match after.strip_prefix(':') {
            Some(p) => (host, Some(p)),
            None if after.is_empty() => (host, None),
            None => return Err(bad()),
        }
    } else {
        match a.rsplit_once(':') {
            Some((h, p)) if !h.contains(':') => (h, Some(p)),
            Some(_) => return Err(bad()),
            None => (a, None),
        }
    };
    let port = match port {
        Some(p) => p.parse::<u16>().ok().filter(|p| *p > 0).ok_or_else(bad)?,
        None => 25565,
    };
    if host.is_empty() || host.chars().any(|c| c.is_whitespace() || c == '/') {
        return Err(bad());
    }
    Ok((host.to_string(), port))
}

/// The running client thread. Dropping it disconnects the bot.
pub struct ClientThread {
    quit: watch::Sender<bool>,
    handle: Option<std::thread::JoinHandle<()>>,
}

impl ClientThread {
    /// Disconnect and wait (briefly) for the thread to end.
    pub fn stop(&mut self) {
        let _ = self.quit.send(true);
        if let Some(h) = self.handle.take() {
            let start = Instant::now();
            while !h.is_finished() && start.elapsed() < Duration::from_secs(2) {
                std::thread::sleep(Duration::from_millis(10));
            }
            if h.is_finished() {
                let _ = h.join();
            }
        }
    }
}

impl Drop for ClientThread {
    fn drop(&mut self) {
        self.stop();
    }
}

/// Start the client thread: it connects at once and keeps trying per `config.backoff`.
pub fn spawn(
    config: ClientConfig,
    commands: Receiver<Command>,
    events: Sender<ClientEvent>,
) -> std::io::Result<ClientThread> {
    let (quit_tx, quit_rx) = watch::channel(false);
    let handle = std::thread::Builder::new().name("azalea".into()).spawn(move || {
        let runtime = match tokio::runtime::Builder::new_current_thread().enable_all().build() {
            Ok(rt) => rt,
            Err(e) => {
                let _ = events.send(ClientEvent::GaveUp { reason: format!("cannot start the network runtime: {e}") });
                return;
            }
        };
        // azalea's game loop runs as a local task (`start_ecs_runner` needs a LocalSet).
        let local = tokio::task::LocalSet::new();
        local.block_on(&runtime, run(config, commands, events, quit_rx));
    })?;
    Ok(ClientThread { quit: quit_tx, handle: Some(handle) })
}

/// How one connection ended.
enum Ended {
    Quit,
    Lost { reason: String, joined: bool },
}

async fn run(
    config: ClientConfig,
    commands: Receiver<Command>,
    events: Sender<ClientEvent>,
    mut quit: watch::Receiver<bool>,
) {
    let account = match make_account(&config.account).await {
        Ok(a) => a,
        Err(reason) => {
            let _ = events.send(ClientEvent::GaveUp { reason });
            return;
        }
    };
    let mut app = App::new();
    app.add_plugins((azalea::DefaultPlugins, azalea::bot::DefaultBotPlugins, LivePlugin));
    let (ecs, start_running, _exit) = azalea::start_ecs_runner(app.main_mut());
    let (failed_tx, mut failed) = tokio::sync::mpsc::unbounded_channel();
    {
        let mut w = ecs.write();
        // Reconnecting is ours (with backoff and reporting), not azalea's.
        w.insert_resource(azalea::auto_reconnect::AutoReconnectDelay::new(Duration::MAX));
        w.insert_resource(Link { commands: Mutex::new(commands), events: events.clone(), failed: failed_tx });
        // One bot's systems are small: running them on this thread costs less than handing them
        // to bevy's thread pool 80 times a second (that alone took about 5% of a core when idle).
        for (_, schedule) in w.resource_mut::<azalea::ecs::schedule::Schedules>().iter_mut() {
            schedule.set_executor_kind(azalea::ecs::schedule::ExecutorKind::SingleThreaded);
        }
    }
    start_running();

    let mut backoff = config.backoff.clone();
    let mut attempt = 0u32;
    loop {
        attempt += 1;
        match session(&config, &ecs, &account, attempt, &events, &mut failed, &mut quit).await {
            Ended::Quit => break,
            Ended::Lost { reason, joined } => {
                tracing::warn!("connection to {} ended: {reason}", config.address);
                if joined {
                    backoff.reset();
                }
                let _ = events.send(ClientEvent::Disconnected { reason: reason.clone() });
                let Some(delay) = backoff.next_delay() else {
                    let _ = events.send(ClientEvent::GaveUp {
                        reason: format!("gave up after {} failed attempts; last: {reason}", backoff.attempts()),
                    });
                    break;
                };
                tracing::info!(
                    "reconnecting in {delay:?} (attempt {} of {})",
                    backoff.attempts(),
                    backoff.max_attempts
                );
                let _ = events.send(ClientEvent::Reconnecting {
                    attempt: backoff.attempts(),
                    of: backoff.max_attempts,
                    delay,
                });
                tokio::select! {
                    _ = tokio::time::sleep(delay) => {}
                    _ = quit.changed() => break,
                }
            }
        }
    }
    ecs.write().write_message(azalea::app::AppExit::Success);
    // Let the game loop see the exit (and close the socket) before the runtime goes.
    tokio::time::sleep(Duration::from_millis(50)).await;
}

#[cfg(feature = "microsoft")]
async fn make_account(choice: &AccountChoice) -> Result<Account, String> {
    match choice {
        AccountChoice::Offline(name) => Ok(Account::offline(name)),
        AccountChoice::Microsoft(key) => {
            Account::microsoft(key).await.map_err(|e| format!("Microsoft login failed: {e}"))
        }
    }
}

#[cfg(not(feature = "microsoft"))]
async fn make_account(choice: &AccountChoice) -> Result<Account, String> {
    match choice {
        AccountChoice::Offline(name) => Ok(Account::offline(name)),
        AccountChoice::Microsoft(_) => {
            Err("this build has no Microsoft login (build with `--features microsoft`)".to_string())
        }
    }
}

async fn resolve(address: &str) -> Result<ResolvedAddr, String> {
    let (host, port) = parse_address(address).map_err(|e| e.to_string())?;
    let server = ServerAddr { host: host.clone(), port };
    if let Ok(ip) = host.parse::<std::net::IpAddr>() {
        return Ok(ResolvedAddr { server, socket: std::net::SocketAddr::new(ip, port) });
    }
    // The system resolver first (it knows /etc/hosts, so `localhost` needs no DNS), then
    // azalea's, which also follows Minecraft SRV records.
    let lookup = format!("{host}:{port}");
    let system = tokio::task::spawn_blocking(move || {
        use std::net::ToSocketAddrs;
        lookup.to_socket_addrs().ok().and_then(|mut a| a.next())
    })
    .await
    .ok()
    .flatten();
    if port != 25565
        && let Some(socket) = system
    {
        return Ok(ResolvedAddr { server, socket });
    }
    match tokio::time::timeout(Duration::from_secs(10), ResolvedAddr::new(server.clone())).await {
        Ok(Ok(addr)) => Ok(addr),
        _ => match system {
            Some(socket) => Ok(ResolvedAddr { server, socket }),
            None => Err(format!("cannot find the server {address}")),
        },
    }
}

/// One connection: join, then wait until it ends (or the agent quits).
async fn session(
    config: &ClientConfig,
    ecs: &Arc<RwLock<Ecs>>,
    account: &Account,
    attempt: u32,
    events: &Sender<ClientEvent>,
    failed: &mut tokio::sync::mpsc::UnboundedReceiver<String>,
    quit: &mut watch::Receiver<bool>,
) -> Ended {
    let began = Instant::now();
    // Failures reported for an earlier attempt are old news.
    while failed.try_recv().is_ok() {}
    let address = match resolve(&config.address).await {
        Ok(a) => a,
        Err(reason) => return Ended::Lost { reason, joined: false },
    };
    tracing::info!("connecting to {} ({}), attempt {attempt}", config.address, address.socket);
    let (entity_tx, mut entity_rx) = tokio::sync::mpsc::unbounded_channel();
    ecs.write().write_message(StartJoinServerEvent {
        account: account.clone(),
        connect_opts: ConnectOpts { address, server_proxy: None, sessionserver_proxy: None },
        start_join_callback_tx: Some(entity_tx),
    });
    let Some(entity) = entity_rx.recv().await else {
        return Ended::Lost { reason: "the client did not start".into(), joined: false };
    };
    let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel();
    ecs.write().entity_mut(entity).insert(LocalPlayerEvents(tx));

    let mut joined = false;
    let deadline = tokio::time::Instant::now() + config.join_timeout;
    loop {
        tokio::select! {
            ev = rx.recv() => match ev {
                Some(Event::Spawn) => {
                    let view = ecs.read().get::<WorldHolder>(entity).map(|h| BlockView::new(h.shared.clone()));
                    let Some(view) = view else { continue };
                    let name = ecs.read().get::<GameProfileComponent>(entity).map(|p| p.name.clone())
                        .unwrap_or_else(|| account.username().to_string());
                    let ev = if joined {
                        ClientEvent::WorldChanged { view }
                    } else {
                        ClientEvent::Joined { name, after: began.elapsed(), view, attempt }
                    };
                    joined = true;
                    let _ = events.send(ev);
                }
                Some(Event::Disconnect(reason)) => {
                    let reason = reason.map(|r| r.to_string()).unwrap_or_else(|| "the connection closed".into());
                    return Ended::Lost { reason, joined };
                }
                Some(Event::ConnectionFailed(e)) => return Ended::Lost { reason: e.to_string(), joined },
                Some(_) => {}
                None => return Ended::Lost { reason: "the client stopped".into(), joined },
            },
            // Also seen here, not only as an event: a connection refused at once can fail before
            // the event channel above is attached to the client.
            Some(reason) = failed.recv() => return Ended::Lost { reason, joined },
            _ = tokio::time::sleep_until(deadline), if !joined => {
                ecs.write().write_message(DisconnectEvent { entity, reason: None });
                return Ended::Lost {
                    reason: format!("not in the world after {} s", config.join_timeout.as_secs()),
                    joined: false,
                };
            }
            _ = quit.changed() => {
                ecs.write().write_message(DisconnectEvent { entity, reason: None });
                // A few frames for the disconnect to go out.
                tokio::time::sleep(Duration::from_millis(100)).await;
                return Ended::Quit;
            }
        }
    }
}

// ---------------------------------------------------------------- inside azalea's game loop

/// The channels to the agent, as an ECS resource.
#[derive(Resource)]
struct Link {
    commands: Mutex<Receiver<Command>>,
    events: Sender<ClientEvent>,
    /// Failed connection attempts, for the connection manager.
    failed: tokio::sync::mpsc::UnboundedSender<String>,
}

/// A block the bot changed that the server has not confirmed yet.
#[derive(Debug, Clone, Copy)]
struct Prediction {
    wanted: Block,
    /// What the client's world held before.
    was: azalea::block::BlockState,
    tick: u64,
}

/// The plugin's own state between ticks.
#[derive(Resource, Default)]
struct LiveState {
    tick: u64,
    /// The last command carried out.
    applied: Seq,
    /// In a world (a session's state below is reset when this turns true).
    loaded: bool,
    /// What hotbar slot 0 holds, as far as this session set it, and whether it is selected.
    held: Option<ItemKind>,
    selected: bool,
    predictions: HashMap<Pos, Prediction>,
    says: VecDeque<String>,
    pacer: Pacer,
}

/// Predictions the server has not answered within this many ticks are taken back: the server
/// dropped the change without a word (vanilla always answers, some servers do not).
const PREDICTION_TICKS: u64 = 60;
/// Chat lines waiting for the pacer beyond this are dropped (oldest first).
const MAX_WAITING_LINES: usize = 64;
/// The hotbar slot blocks and eggs are held in, and the one items are handed over from.
const BUILD_SLOT: u16 = 0;
const GIVE_SLOT: u16 = 1;
/// Inventory-menu index of hotbar slot 0.
const HOTBAR_MENU_START: u16 = 36;

struct LivePlugin;

impl Plugin for LivePlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<LiveState>()
            .add_systems(Update, capture_world.before(handle_block_update_event))
            .add_systems(Update, forward_failures.after(azalea::join::poll_create_connection_task))
            .add_systems(
                GameTick,
                // Exclusive: it runs alone, so its order against the other tick systems cannot
                // matter beyond coming after the position is sent.
                carry_out_commands.after(send_position).ambiguous_with_all(),
            );
    }
}

/// Chat and the server's block updates, before azalea applies the updates (so the block they
/// replace is still there to report).
fn capture_world(
    query: Query<(&QueuedServerBlockUpdates, &WorldHolder), With<LocalEntity>>,
    mut chats: MessageReader<ChatReceivedEvent>,
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
            if let Some(pred) = state.predictions.remove(&p)
                && pred.wanted != after
            {
                let _ = link.events.send(ClientEvent::Refused { pos: p, wanted: pred.wanted, got: after });
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
        let _ = link.events.send(ClientEvent::Chat { from, text });
    }
}

/// Failed connection attempts, to the connection manager.
fn forward_failures(mut failures: MessageReader<ConnectionFailedEvent>, link: Option<Res<Link>>) {
    let Some(link) = link else { return };
    for f in failures.read() {
        let _ = link.failed.send(f.error.to_string());
    }
}

/// The agent's commands for this tick, in order, then the tick's snapshot.
fn carry_out_commands(world: &mut Ecs) {
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
        let last = incoming.iter().filter_map(Command::seq).max().unwrap_or(0);
        state.applied = state.applied.max(last);
        let Some(me) = me else {
            // Not in a world: nothing asked for can happen. The agent does not act while
            // disconnected, and re-plans from what it sees after rejoining.
            state.loaded = false;
            state.says.clear();
            state.predictions.clear();
            return;
        };
        if !state.loaded {
            state.loaded = true;
            state.held = None;
            state.selected = false;
            state.predictions.clear();
        }
        for cmd in incoming {
            tracing::trace!(tick = state.tick, feet = ?feet(world, me), ?cmd, "carrying out");
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
            .map(|(k, p)| (*k, *p))
            .collect();
        for (pos, p) in expired {
            state.predictions.remove(&pos);
            take_back(world, me, &events, pos, p);
        }
        let snapshot = snapshot(world, me, state.applied);
        let _ = events.send(ClientEvent::Snapshot(snapshot));
    });
}

/// Clicks the held item on a block face (placing a block, using a spawn egg), then swings the arm
/// as a vanilla client does.
fn use_item_on(world: &mut Ecs, me: Entity, on: Pos, face: Direction, cursor: Vec3) {
    let seq = next_seq(world, me);
    let block_hit = BlockHit {
        block_pos: block_pos(on),
        direction: face,
        location: azalea_vec(cursor),
        inside: false,
        world_border: false,
    };
    send(world, me, ServerboundUseItemOn { hand: InteractionHand::MainHand, block_hit, seq });
    send(world, me, ServerboundSwing { hand: InteractionHand::MainHand });
}

fn carry_out(world: &mut Ecs, me: Entity, state: &mut LiveState, cmd: Command) {
    match cmd {
        Command::Step { feet, .. } => step(world, me, feet),
        Command::Look { look, .. } => look_to(world, me, look),
        Command::Place { pos, block, against, .. } => {
            let (Some(item), Some(face)) = (blocks::item(block.name()), Face::between(against, pos)) else {
                tracing::warn!(%pos, block = block.name(), "cannot place: no item or no face");
                return;
            };
            hold(world, me, state, item);
            let cursor = placement::face_centre(against, face);
            look_to(world, me, Look::towards(eye(world, me), cursor));
            predict(world, me, state, pos, block);
            use_item_on(world, me, against, direction(face), cursor);
        }
        Command::Break { pos, .. } => {
            let face = placement::facing_face(pos, eye(world, me));
            look_to(world, me, Look::towards(eye(world, me), placement::face_centre(pos, face)));
            predict(world, me, state, pos, Block::AIR);
            let seq = next_seq(world, me);
            send(
                world,
                me,
                ServerboundPlayerAction {
                    action: Action::StartDestroyBlock,
                    pos: block_pos(pos),
                    direction: direction(face),
                    seq,
                },
            );
            send(world, me, ServerboundSwing { hand: InteractionHand::MainHand });
        }
        Command::Spawn { egg, on, .. } => {
            let Some(item) = blocks::item(&egg) else { return };
            hold(world, me, state, item);
            let cursor = placement::face_centre(on, Face::Up);
            look_to(world, me, Look::towards(eye(world, me), cursor));
            use_item_on(world, me, on, Direction::Up, cursor);
        }
        Command::Give { item, count, towards, .. } => {
            let Some(item) = blocks::item(&item) else { return };
            look_to(world, me, Look::towards(eye(world, me), towards));
            send(
                world,
                me,
                ServerboundSetCreativeModeSlot {
                    slot_num: HOTBAR_MENU_START + GIVE_SLOT,
                    item_stack: ItemStack::new(item, count.clamp(1, 64) as i32),
                },
            );
            send(world, me, ServerboundSetCarriedItem { slot: GIVE_SLOT });
            send(
                world,
                me,
                ServerboundPlayerAction {
                    action: Action::DropAllItems,
                    pos: BlockPos::new(0, 0, 0),
                    direction: Direction::Down,
                    seq: 0,
                },
            );
            send(world, me, ServerboundSetCarriedItem { slot: BUILD_SLOT });
            state.selected = true;
        }
        Command::Say(line) => {
            if state.says.len() >= MAX_WAITING_LINES {
                tracing::warn!("too much chat waiting; dropping a line");
                state.says.pop_front();
            }
            state.says.push_back(line);
        }
    }
}

fn send(world: &mut Ecs, me: Entity, packet: impl Packet<ServerboundGamePacket>) {
    world.trigger(SendGamePacketEvent::new(me, packet));
}

/// Put `item` in the build slot (creative) and select that slot, sending only what changed.
fn hold(world: &mut Ecs, me: Entity, state: &mut LiveState, item: ItemKind) {
    if state.held != Some(item) {
        send(
            world,
            me,
            ServerboundSetCreativeModeSlot {
                slot_num: HOTBAR_MENU_START + BUILD_SLOT,
                item_stack: ItemStack::new(item, 1),
            },
        );
        state.held = Some(item);
    }
    if !state.selected {
        send(world, me, ServerboundSetCarriedItem { slot: BUILD_SLOT });
        state.selected = true;
    }
}

/// Show the change in the client's world at once, and remember it to check the server's answer.
fn predict(world: &mut Ecs, me: Entity, state: &mut LiveState, pos: Pos, block: Block) {
    let Some(holder) = world.get::<WorldHolder>(me) else { return };
    let shared = holder.shared.read();
    let was = shared.get_block_state(block_pos(pos)).unwrap_or_default();
    if let Some(s) = blocks::state_of(block) {
        shared.set_block_state(block_pos(pos), s);
    }
    let tick = state.tick;
    // An older prediction for the same place keeps what was there before it.
    let was = state.predictions.get(&pos).map_or(was, |p| p.was);
    state.predictions.insert(pos, Prediction { wanted: block, was, tick });
}

/// The server never answered a change: put back what the client's world held before (if the
/// prediction is still what it shows) and report it, so the bot sees the change did not happen.
fn take_back(world: &mut Ecs, me: Entity, events: &Sender<ClientEvent>, pos: Pos, p: Prediction) {
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

/// The next block-change sequence number (the server acknowledges them).
fn next_seq(world: &mut Ecs, me: Entity) -> u32 {
    world.get_mut::<BlockStatePredictionHandler>(me).map(|mut h| h.start_predicting()).unwrap_or(0)
}

fn feet(world: &Ecs, me: Entity) -> Vec3 {
    world.get::<Position>(me).map(|p| Vec3::new(p.x, p.y, p.z)).unwrap_or_default()
}

fn eye(world: &Ecs, me: Entity) -> Vec3 {
    placement::eye_of(feet(world, me))
}

/// Put the feet at `to` and tell the server now, so clicks that follow in this tick are judged
/// from there.
fn step(world: &mut Ecs, me: Entity, to: Vec3) {
    let target = azalea_vec(to);
    let grounded = standing_on_something(world, me, to);
    if let Some(mut p) = world.get_mut::<Position>(me) {
        *p = Position::new(target);
    }
    if let Some(mut ph) = world.get_mut::<Physics>(me) {
        ph.velocity = azalea::Vec3::ZERO;
        ph.fall_distance = 0.0;
        ph.set_on_ground(grounded);
    }
    send(
        world,
        me,
        ServerboundMovePlayerPos { pos: target, flags: MoveFlags { on_ground: grounded, horizontal_collision: false } },
    );
    if let Some(mut last) = world.get_mut::<LastSentPosition>(me) {
        **last = target;
    }
}

fn standing_on_something(world: &Ecs, me: Entity, feet: Vec3) -> bool {
    if feet.y.fract().abs() > 1e-6 {
        return false;
    }
    let below = Pos::new(feet.x.floor() as i32, feet.y as i32 - 1, feet.z.floor() as i32);
    world
        .get::<WorldHolder>(me)
        .and_then(|h| h.shared.read().get_block_state(block_pos(below)))
        .is_some_and(|s| !s.is_collision_shape_empty())
}

/// Turn to `look` and tell the server now (clicks that follow are made looking there).
fn look_to(world: &mut Ecs, me: Entity, look: Look) {
    let direction = LookDirection::new(look.yaw, look.pitch);
    if let Some(mut d) = world.get_mut::<LookDirection>(me) {
        *d = direction;
    }
    let on_ground = world.get::<Physics>(me).is_some_and(|p| p.on_ground());
    send(
        world,
        me,
        ServerboundMovePlayerRot {
            look_direction: direction,
            flags: MoveFlags { on_ground, horizontal_collision: false },
        },
    );
    if let Some(mut last) = world.get_mut::<LastSentLookDirection>(me) {
        last.y_rot = direction.y_rot();
        last.x_rot = direction.x_rot();
    }
}

/// What the client sees now.
fn snapshot(world: &mut Ecs, me: Entity, applied: Seq) -> Snapshot {
    let mut others = world.query_filtered::<(
        &Position,
        &EntityKindComponent,
        &EntityUuid,
        Option<&LookDirection>,
        Option<&GameProfileComponent>,
        &LoadedBy,
        &azalea::core::entity_id::MinecraftEntityId,
        Has<Player>,
        Has<AbstractLiving>,
        Has<Dead>,
    ), Without<LocalEntity>>();
    let world: &Ecs = world;
    let pos = feet(world, me);
    let look = world.get::<LookDirection>(me).map(|d| Look::new(d.y_rot(), d.x_rot())).unwrap_or_default();
    let creative = world.get::<LocalGameMode>(me).is_some_and(|g| g.current == GameMode::Creative);
    let tab = world.get::<TabList>(me);
    let mut players = Vec::new();
    let mut mobs = Vec::new();
    for (p, kind, uuid, dir, profile, loaded_by, id, is_player, living, dead) in others.iter(world) {
        if !loaded_by.contains(&me) || dead {
            continue;
        }
        let at = Vec3::new(p.x, p.y, p.z);
        let look = dir.map(|d| Look::new(d.y_rot(), d.x_rot())).unwrap_or_default();
        if is_player {
            let name = profile
                .map(|g| g.name.clone())
                .or_else(|| tab.and_then(|t| t.get(&**uuid)).map(|i| i.profile.name.clone()));
            if let Some(name) = name {
                players.push(PlayerInfo { name, pos: at, look });
            }
        } else if living {
            mobs.push(MobInfo { id: id.0 as u64, kind: blocks::entity_id(**kind).to_string(), pos: at });
        }
    }
    players.sort_by(|a, b| a.name.cmp(&b.name));
    mobs.sort_by_key(|m| m.id);
    Snapshot { applied, pos, look, creative, players, mobs }
}

fn block_pos(p: Pos) -> BlockPos {
    BlockPos::new(p.x, p.y, p.z)
}

fn azalea_vec(v: Vec3) -> azalea::Vec3 {
    azalea::Vec3::new(v.x, v.y, v.z)
}

fn direction(face: Face) -> Direction {
    match face {
        Face::Down => Direction::Down,
        Face::Up => Direction::Up,
        Face::North => Direction::North,
        Face::South => Direction::South,
        Face::West => Direction::West,
        Face::East => Direction::East,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn addresses() {
        assert_eq!(parse_address("localhost"), Ok(("localhost".into(), 25565)));
        assert_eq!(parse_address("127.0.0.1:25570"), Ok(("127.0.0.1".into(), 25570)));
        assert_eq!(parse_address(" mc.example.org:1 "), Ok(("mc.example.org".into(), 1)));
        assert_eq!(parse_address("[::1]:25566"), Ok(("::1".into(), 25566)));
        assert_eq!(parse_address("[::1]"), Ok(("::1".into(), 25565)));
        for bad in
            ["", ":25565", "host:", "host:0", "host:70000", "host:port", "a b:1", "::1:25565", "[::1]x", "http://x"]
        {
            assert!(parse_address(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn faces_map_to_minecraft_directions() {
        assert_eq!(direction(Face::North), Direction::North);
        assert_eq!(direction(Face::East), Direction::East);
        assert_eq!(direction(Face::Up), Direction::Up);
    }
}
