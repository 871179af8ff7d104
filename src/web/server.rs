//! The HTTP side of the web view (axum): the page's files, and one WebSocket per page.
//!
//! Who may look: on a loopback address, only pages this machine serves itself (the `Host`
//! header must name loopback, which stops a hostile site from reaching the bot through DNS
//! rebinding). On any other address every request needs the token printed at start, as
//! `?token=` or as the cookie the first good request sets. A WebSocket must also come from this
//! page (its `Origin` must be this host): WebSockets are not bound by the browser's same-origin
//! rule, so without the check any site a player visits could talk to their bot.

use super::message::{MAX_INPUT_BYTES, PageInput, Update};
use super::page;
use super::watch::Join;
use axum::Router;
use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use std::collections::HashMap;
use std::sync::{Arc, mpsc};
use std::time::{Duration, Instant};
use tokio::sync::{broadcast, oneshot};

/// Chat lines and button presses a page may send per second; more are dropped with a note.
const INPUTS_PER_SECOND: u32 = 10;

/// How often a page's socket is pinged: the ping and the browser's pong keep a quiet page's
/// connection inside the listener's idle deadline (`guard`).
const PING_EVERY: Duration = Duration::from_secs(20);

/// What every request handler shares.
pub(super) struct Shared {
    pub joins: mpsc::Sender<Join>,
    pub inputs: mpsc::Sender<PageInput>,
    /// Required on every request when set (a non-loopback address).
    pub token: Option<String>,
    /// Bound to a loopback address: only loopback `Host`s are served.
    pub loopback: bool,
    pub port: u16,
}

impl Shared {
    fn cookie_name(&self) -> String {
        // Per port: two bots on one machine keep their own tokens.
        format!("craftmate_token_{}", self.port)
    }
}

pub(super) fn router(shared: Arc<Shared>) -> Router {
    Router::new()
        .route("/", get(index))
        .route("/ws", get(socket))
        .route("/{file}", get(file))
        .with_state(shared)
}

type Params = Query<HashMap<String, String>>;

async fn index(State(shared): State<Arc<Shared>>, headers: HeaderMap, Query(q): Params) -> Response {
    serve(&shared, &headers, &q, "index.html")
}

async fn file(State(shared): State<Arc<Shared>>, headers: HeaderMap, Query(q): Params, Path(name): Path<String>) -> Response {
    serve(&shared, &headers, &q, &name)
}

fn serve(shared: &Shared, headers: &HeaderMap, q: &HashMap<String, String>, name: &str) -> Response {
    let set_cookie = match admit(shared, headers, q) {
        Ok(c) => c,
        Err(refused) => return refused,
    };
    let Some(asset) = page::find(name) else {
        return (StatusCode::NOT_FOUND, "no such file").into_response();
    };
    let mut response = (
        // lexicon: HTTP header values.
        [
            (header::CONTENT_TYPE, asset.mime),
            // A new binary serves new files: never run a cached page against it.
            (header::CACHE_CONTROL, "no-store"),
            (header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
            // The address may carry the token: never send it on.
            (header::REFERRER_POLICY, "no-referrer"),
            // No other site may show the page in a frame: its chat box and buttons would work there.
            (header::CONTENT_SECURITY_POLICY, "default-src 'self'; connect-src 'self'; img-src 'self' data:; frame-ancestors 'none'"),
            (header::X_FRAME_OPTIONS, "DENY"),
        ],
        asset.body,
    )
        .into_response();
    if let Some(c) = set_cookie
        && let Ok(v) = HeaderValue::from_str(&c)
    {
        response.headers_mut().insert(header::SET_COOKIE, v);
    }
    response
}

/// Whether a request may be served; `Ok(Some(cookie))` when the token came in the address and
/// should be kept as a cookie for the page's other requests.
fn admit(shared: &Shared, headers: &HeaderMap, q: &HashMap<String, String>) -> Result<Option<String>, Response> {
    let host = headers.get(header::HOST).and_then(|h| h.to_str().ok()).unwrap_or("");
    if shared.loopback && !is_loopback_host(host) {
        return Err((StatusCode::FORBIDDEN, "this view is served to this machine only (open it as http://127.0.0.1:PORT/)").into_response());
    }
    let Some(token) = &shared.token else { return Ok(None) };
    let from_query = q.get("token");
    let cookie_name = shared.cookie_name();
    let from_cookie = headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|kv| kv.trim().split_once('='))
        .find(|(k, _)| *k == cookie_name)
        .map(|(_, v)| v.to_string());
    let given = from_query.cloned().or(from_cookie);
    match given {
        Some(g) if same(g.as_bytes(), token.as_bytes()) => {
            Ok(from_query.map(|_| format!("{cookie_name}={token}; Path=/; HttpOnly; SameSite=Strict")))
        }
        _ => Err((
            StatusCode::UNAUTHORIZED,
            "this view needs its token: open the address craftmate printed at start (it ends in ?token=…)",
        )
            .into_response()),
    }
}

/// Compares in time that does not depend on where the first difference is.
fn same(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

/// `127.0.0.1:8080`, `localhost:8080`, `[::1]:8080` (with or without the port).
fn is_loopback_host(host: &str) -> bool {
    let name = match host.rsplit_once(':') {
        Some((h, port)) if !h.is_empty() && port.bytes().all(|b| b.is_ascii_digit()) && !host.ends_with(']') => h,
        _ => host,
    };
    let name = name.trim_start_matches('[').trim_end_matches(']');
    name.eq_ignore_ascii_case("localhost") || name.parse::<std::net::IpAddr>().is_ok_and(|ip| ip.is_loopback())
}

/// The `Origin` of a WebSocket request is this very host (or absent, for non-browser clients,
/// which the browser's attacks cannot make).
fn same_origin(headers: &HeaderMap) -> bool {
    let Some(origin) = headers.get(header::ORIGIN).and_then(|o| o.to_str().ok()) else { return true };
    let host = headers.get(header::HOST).and_then(|h| h.to_str().ok()).unwrap_or("");
    let origin_host = origin.split_once("://").map_or(origin, |(_, rest)| rest);
    origin_host.eq_ignore_ascii_case(host)
}

async fn socket(State(shared): State<Arc<Shared>>, headers: HeaderMap, Query(q): Params, ws: WebSocketUpgrade) -> Response {
    if let Err(refused) = admit(&shared, &headers, &q) {
        return refused;
    }
    if !same_origin(&headers) {
        return (StatusCode::FORBIDDEN, "a page from another site may not talk to the bot").into_response();
    }
    ws.max_message_size(MAX_INPUT_BYTES * 2).on_upgrade(move |socket| watch(socket, shared))
}

async fn text(ws: &mut WebSocket, s: &str) -> bool {
    ws.send(Message::Text(s.into())).await.is_ok()
}

/// One page: its snapshot, then every update, while its lines go to the bot. A page that fell
/// behind starts over from a new snapshot.
async fn watch(mut ws: WebSocket, shared: Arc<Shared>) {
    let mut window = (Instant::now(), 0u32);
    // The first ping a period in: an interval's first tick would come at once.
    let mut ping = tokio::time::interval_at(tokio::time::Instant::now() + PING_EVERY, PING_EVERY);
    loop {
        let (tx, rx) = oneshot::channel();
        if shared.joins.send(tx).is_err() {
            return;
        }
        let Ok(Ok((snapshot, mut updates))) = tokio::time::timeout(Duration::from_secs(10), rx).await else {
            let _ = text(&mut ws, &Update::Note { text: "the bot is not answering; reload the page to try again" }.json()).await;
            return;
        };
        for m in snapshot {
            if !text(&mut ws, &m).await {
                return;
            }
        }
        loop {
            tokio::select! {
                _ = ping.tick() => if ws.send(Message::Ping(Vec::new().into())).await.is_err() { return },
                u = updates.recv() => match u {
                    Ok(m) => if !text(&mut ws, &m).await { return },
                    Err(broadcast::error::RecvError::Lagged(_)) => break,
                    Err(broadcast::error::RecvError::Closed) => return,
                },
                m = ws.recv() => match m {
                    Some(Ok(Message::Text(t))) => {
                        if window.0.elapsed() >= Duration::from_secs(1) {
                            window = (Instant::now(), 0);
                        }
                        window.1 += 1;
                        let reply = if window.1 > INPUTS_PER_SECOND {
                            Some("too many messages at once; that one was dropped".to_string())
                        } else {
                            match PageInput::parse(&t) {
                                Ok(input) => {
                                    if shared.inputs.send(input).is_err() {
                                        return;
                                    }
                                    None
                                }
                                Err(e) => Some(e),
                            }
                        };
                        if let Some(r) = reply
                            && !text(&mut ws, &Update::Note { text: &r }.json()).await
                        {
                            return;
                        }
                    }
                    Some(Ok(Message::Close(_))) | Some(Err(_)) | None => return,
                    Some(Ok(_)) => {}
                },
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn loopback_hosts_are_told_from_others() {
        for h in ["127.0.0.1:8080", "localhost:8080", "LOCALHOST", "[::1]:9000", "[::1]", "127.0.0.2:80"] {
            assert!(is_loopback_host(h), "{h}");
        }
        for h in ["evil.example:8080", "192.168.1.5:8080", "", "127.0.0.1.evil.example:8080", "[::2]:1"] {
            assert!(!is_loopback_host(h), "{h}");
        }
    }

    #[test]
    fn a_socket_from_another_site_is_refused() {
        let mut h = HeaderMap::new();
        h.insert(header::HOST, HeaderValue::from_static("127.0.0.1:8080"));
        assert!(same_origin(&h), "no Origin: not a browser page");
        h.insert(header::ORIGIN, HeaderValue::from_static("http://127.0.0.1:8080"));
        assert!(same_origin(&h));
        h.insert(header::ORIGIN, HeaderValue::from_static("http://evil.example"));
        assert!(!same_origin(&h));
    }

    #[test]
    fn tokens_compare_whole() {
        assert!(same(b"abc", b"abc"));
        assert!(!same(b"abc", b"abd"));
        assert!(!same(b"abc", b"abcd"));
        assert!(!same(b"", b"a"));
    }
}
