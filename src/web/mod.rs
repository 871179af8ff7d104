//! The web view: watch the bot's world in 3D, talk to it, and see what it understood, what it
//! is doing and what it remembers — in a browser, served by the bot itself.
//!
//! `craftmate play --web` and `craftmate connect … --web` call [`start`], which binds the
//! address and runs the server on a thread of its own (a small tokio runtime). The driver's tick
//! loop keeps the returned [`Watcher`]: after each tick it calls [`Watcher::publish`], and it
//! acts on [`Watcher::take_inputs`] (chat typed into the page, stop and resume buttons). The two
//! sides share only channels, so a slow or closed browser never slows the bot.
//!
//! Map: [`server`] (HTTP, WebSocket, who may look), [`guard`] (caps and deadlines on connections), [`watch`] (what changed since the last tick),
//! [`surface`] (which blocks are drawn), [`palette`] (their colours), [`message`] (what travels
//! over the socket), [`page`] (the page's files, built into the binary).

pub mod guard;
pub mod message;
pub mod page;
pub mod palette;
pub mod server;
pub mod surface;
pub mod watch;

pub use message::PageInput;
pub use watch::{Identity, Watcher};

use std::net::{IpAddr, Ipv4Addr, SocketAddr, TcpListener};
use std::sync::{Arc, mpsc};

/// Where the view listens when `--web` names no address.
pub const DEFAULT_ADDR: &str = "127.0.0.1:8080";

#[derive(Debug, thiserror::Error)]
pub enum WebError {
    #[error("not an address to listen on: {0:?} (use PORT, HOST:PORT or [IPv6]:PORT, e.g. 127.0.0.1:8080)")]
    Address(String),
    #[error("cannot listen on {addr}: {source}")]
    Bind { addr: SocketAddr, source: std::io::Error },
    #[error("cannot start the web view: {0}")]
    Start(#[from] std::io::Error),
}

/// A running web view.
pub struct Web {
    pub watcher: Watcher,
    /// The address it listens on (the real port when 0 was asked for).
    pub addr: SocketAddr,
    /// Required on every request when the address is not loopback.
    pub token: Option<String>,
}

impl Web {
    /// The address to open, token included.
    pub fn url(&self) -> String {
        let host = match self.addr.ip() {
            ip if ip.is_unspecified() => "localhost".to_string(),
            IpAddr::V6(ip) => format!("[{ip}]"),
            ip => ip.to_string(),
        };
        match &self.token {
            Some(t) => format!("http://{host}:{}/?token={t}", self.addr.port()),
            None => format!("http://{host}:{}/", self.addr.port()),
        }
    }
}

/// Reads `PORT`, `:PORT`, `HOST:PORT` or `[IPv6]:PORT`; a bare host name must resolve.
pub fn parse_addr(s: &str) -> Result<SocketAddr, WebError> {
    let s = s.trim();
    let bad = || WebError::Address(s.to_string());
    if let Ok(port) = s.trim_start_matches(':').parse::<u16>() {
        return Ok(SocketAddr::new(IpAddr::V4(Ipv4Addr::LOCALHOST), port));
    }
    if let Ok(a) = s.parse::<SocketAddr>() {
        return Ok(a);
    }
    use std::net::ToSocketAddrs;
    s.to_socket_addrs().map_err(|_| bad())?.next().ok_or_else(bad)
}

/// A fresh token: 128 random bits, in hex.
fn new_token() -> String {
    let bytes: [u8; 16] = rand::random();
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Binds `addr` and serves the view on a thread of its own. A non-loopback address gets a token.
pub fn start(addr: &str, identity: Identity) -> Result<Web, WebError> {
    let addr = parse_addr(addr)?;
    let listener = TcpListener::bind(addr).map_err(|source| WebError::Bind { addr, source })?;
    listener.set_nonblocking(true)?;
    let bound = listener.local_addr()?;
    let loopback = bound.ip().is_loopback();
    let token = (!loopback).then(new_token);
    let (updates, _) = tokio::sync::broadcast::channel(watch::BACKLOG);
    let (joins_tx, joins_rx) = mpsc::channel();
    let (inputs_tx, inputs_rx) = mpsc::channel();
    let shared = Arc::new(server::Shared { joins: joins_tx, inputs: inputs_tx, token: token.clone(), loopback, port: bound.port() });
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build()?;
    std::thread::Builder::new().name("craftmate-web".into()).spawn(move || {
        let served = runtime.block_on(async move {
            let listener = tokio::net::TcpListener::from_std(listener)?;
            axum::serve(guard::Guarded::new(listener, guard::Limits::default()), server::router(shared)).await
        });
        if let Err(e) = served {
            tracing::error!("the web view stopped: {e}");
        }
    })?;
    let watcher = Watcher::new(identity, updates, joins_rx, inputs_rx);
    Ok(Web { watcher, addr: bound, token })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn addresses_are_read_in_every_usual_form() {
        assert_eq!(parse_addr("8080").unwrap(), "127.0.0.1:8080".parse().unwrap());
        assert_eq!(parse_addr(":9000").unwrap(), "127.0.0.1:9000".parse().unwrap());
        assert_eq!(parse_addr("0.0.0.0:80").unwrap(), "0.0.0.0:80".parse().unwrap());
        assert_eq!(parse_addr("[::1]:8080").unwrap(), "[::1]:8080".parse().unwrap());
        assert!(parse_addr("localhost:8080").unwrap().ip().is_loopback());
        assert!(matches!(parse_addr("not an address"), Err(WebError::Address(_))));
        assert!(matches!(parse_addr("127.0.0.1:99999"), Err(WebError::Address(_))));
    }

    #[test]
    fn a_token_is_made_for_other_addresses_only() {
        let id = || Identity { bot: "craftmate".into(), you: "alice".into(), mode: "play" };
        let local = start("127.0.0.1:0", id()).unwrap();
        assert!(local.token.is_none());
        assert!(local.url().starts_with("http://127.0.0.1:"));
        let open = start("0.0.0.0:0", id()).unwrap();
        let token = open.token.clone().unwrap();
        assert_eq!(token.len(), 32);
        assert!(open.url().ends_with(&format!("?token={token}")));
        assert_ne!(start("0.0.0.0:0", id()).unwrap().token.unwrap(), token, "a new token each start");
    }

    #[test]
    fn a_port_in_use_is_a_clear_error() {
        let id = || Identity { bot: "craftmate".into(), you: "alice".into(), mode: "play" };
        let first = start("127.0.0.1:0", id()).unwrap();
        let err = start(&first.addr.to_string(), id()).err().unwrap().to_string();
        assert!(err.starts_with(&format!("cannot listen on {}", first.addr)), "{err}");
    }
}
