//! The connection manager: the client thread and its runtime, logging in, and one session after
//! another. It joins the server, watches for the bot being kicked or the server going away, and
//! rejoins with [`Backoff`], reporting each step to the agent. Reconnecting is ours, not azalea's,
//! so the agent hears about every attempt.

use super::address::resolve;
use super::plugin::{Link, LivePlugin};
use crate::live::blocks::BlockView;
use crate::live::bridge::{ClientEvent, Command};
use crate::live::reconnect::Backoff;

use azalea::ClientInformation;
use azalea::account::Account;
use azalea::app::App;
use azalea::disconnect::DisconnectEvent;
use azalea::ecs::world::World as Ecs;
use azalea::events::LocalPlayerEvents;
use azalea::join::{ConnectOpts, StartJoinServerEvent};
use azalea::local_player::WorldHolder;
use azalea::player::GameProfileComponent;
// The `Resource` derive names `bevy_ecs`; azalea re-exports it as `ecs`.
use azalea::Event;
use parking_lot::RwLock;
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
    /// The view distance told to the server, in chunks (see [`super::plugin::tell_settings`]).
    pub view_distance: u8,
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
pub(super) enum Ended {
    Quit,
    Lost { reason: String, joined: bool },
}

pub(super) async fn run(
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
pub(super) async fn make_account(choice: &AccountChoice) -> Result<Account, String> {
    match choice {
        AccountChoice::Offline(name) => Ok(Account::offline(name)),
        AccountChoice::Microsoft(key) => {
            Account::microsoft(key).await.map_err(|e| format!("Microsoft login failed: {e}"))
        }
    }
}

#[cfg(not(feature = "microsoft"))]
pub(super) async fn make_account(choice: &AccountChoice) -> Result<Account, String> {
    match choice {
        AccountChoice::Offline(name) => Ok(Account::offline(name)),
        AccountChoice::Microsoft(_) => {
            Err("this build has no Microsoft login (build with `--features microsoft`)".to_string())
        }
    }
}

/// One connection: join, then wait until it ends (or the agent quits).
pub(super) async fn session(
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
    // The join gave the client default settings (view distance 8); ours go out in the
    // configuration phase, and again once in the game (`plugin::tell_settings`).
    let settings = ClientInformation { view_distance: config.view_distance, ..ClientInformation::default() };
    ecs.write().entity_mut(entity).insert((LocalPlayerEvents(tx), settings));

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
