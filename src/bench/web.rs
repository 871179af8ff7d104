//! Web view benchmarks: what watching costs the bot, and how fast a page hears of a change.
//!
//! A `play` session in the embedded world with a web view on a free loopback port; a WebSocket
//! client in another thread stands in for the browser (it reads every message, as a page does).
//!
//! - `web_block_to_page_ms_p50` / `_p95`: from a block change in the world (made just before a
//!   tick) to the client holding the message that draws it: the tick, the watcher's diff, the
//!   fan-out and the socket. 100 changes.
//! - `web_tick_us_*`: the mean and p99 of one session tick while the bot builds a red cube
//!   (5×5×5, about 300 ticks), with no web view, with a view no page watches, and with one page
//!   connected; `web_build_ticks` says how many ticks were measured.
//! - `web_snapshot_kb`: what a page receives when it connects to a fresh flat world.
//! - `web_idle_bytes_per_s`: what an idle page receives per second, at 20 ticks a second, over
//!   10 seconds.

use super::Figure;
use crate::agent::Bot;
use crate::agent::assistant::Assistant;
use crate::parser::Parser;
use crate::play::Session;
use std::net::TcpStream;
use std::sync::mpsc;
use std::time::{Duration, Instant};
use tungstenite::Message;

type Client = tungstenite::WebSocket<tungstenite::stream::MaybeTlsStream<TcpStream>>;

/// Runs the web benchmarks; `parser` reads "build a red cube" (loaded once, shared by the runs).
pub fn run(parser: impl Fn() -> Option<Box<dyn Parser>> + 'static) -> Vec<Figure> {
    let parser = std::rc::Rc::new(parser);
    let make = {
        let parser = parser.clone();
        move || -> Box<dyn FnMut() -> Box<dyn Bot>> {
            let parser = parser.clone();
            Box::new(move || Box::new(Assistant::in_memory(parser()).expect("an in-memory memory opens")) as Box<dyn Bot>)
        }
    };
    let mut out = Vec::new();

    // A page's first snapshot, then the delay of 100 changes.
    let (mut session, url) = watched(make());
    let (mut client, snapshot) = connect(&url, &mut session);
    out.push(Figure::new("web_snapshot_kb", snapshot as f64 / 1024.0, "KiB"));
    let delays = block_delays(&mut session, &mut client);
    out.push(Figure::new("web_block_to_page_ms_p50", percentile(&delays, 0.5), "ms"));
    out.push(Figure::new("web_block_to_page_ms_p95", percentile(&delays, 0.95), "ms"));

    // An idle page, in real time.
    let idle = idle_bytes(&mut session, client, Duration::from_secs(10));
    out.push(Figure::new("web_idle_bytes_per_s", idle, "B/s"));

    // Tick cost while building: no view, a view nobody watches, one page.
    let mut plain = Session::new("alice", make(), false);
    let (mean, p99, ticks) = build_ticks(&mut plain, None);
    out.push(Figure::new("web_build_ticks", ticks as f64, "ticks"));
    out.push(Figure::new("web_tick_us_no_view_mean", mean, "us"));
    out.push(Figure::new("web_tick_us_no_view_p99", p99, "us"));
    let (mut unwatched, _) = watched(make());
    let (mean, p99, _) = build_ticks(&mut unwatched, None);
    out.push(Figure::new("web_tick_us_no_page_mean", mean, "us"));
    out.push(Figure::new("web_tick_us_no_page_p99", p99, "us"));
    let (mut session, url) = watched(make());
    let (client, _) = connect(&url, &mut session);
    let (mean, p99, _) = build_ticks(&mut session, Some(client));
    out.push(Figure::new("web_tick_us_one_page_mean", mean, "us"));
    out.push(Figure::new("web_tick_us_one_page_p99", p99, "us"));
    out
}

/// A session with a web view on a free loopback port, and the view's WebSocket address.
fn watched(make_bot: Box<dyn FnMut() -> Box<dyn Bot>>) -> (Session, String) {
    let mut session = Session::new("alice", make_bot, false);
    let identity = crate::web::Identity { bot: "craftmate".into(), you: "alice".into(), mode: "play" };
    let web = crate::web::start("127.0.0.1:0", identity).expect("a free loopback port");
    let url = format!("ws://{}/ws", web.addr);
    session.attach_web(web.watcher);
    (session, url)
}

/// Connects a client (the session ticks while the page waits for its snapshot); returns it and
/// the snapshot's size in bytes.
fn connect(url: &str, session: &mut Session) -> (Client, usize) {
    let (tx, rx) = mpsc::channel();
    let url = url.to_string();
    std::thread::spawn(move || {
        let (mut ws, _) = tungstenite::connect(url.as_str()).expect("the web view accepts a socket");
        // The snapshot ends with the memory panel; it is complete once that arrived.
        let mut bytes = 0;
        loop {
            let m = ws.read().expect("the snapshot arrives");
            if let Message::Text(t) = m {
                bytes += t.len();
                if t.starts_with(r#"{"t":"memory""#) {
                    break;
                }
            }
        }
        let _ = tx.send((ws, bytes));
    });
    loop {
        session.tick();
        if let Ok(got) = rx.recv_timeout(Duration::from_millis(5)) {
            return got;
        }
    }
}

fn percentile(samples: &[f64], q: f64) -> f64 {
    let mut s = samples.to_vec();
    s.sort_by(f64::total_cmp);
    s.get(((s.len() as f64 - 1.0) * q).round() as usize).copied().unwrap_or(f64::NAN)
}

/// Sets a block 100 times, each just before a tick, and times until the client has the message
/// that draws it.
fn block_delays(session: &mut Session, client: &mut Client) -> Vec<f64> {
    if let tungstenite::stream::MaybeTlsStream::Plain(s) = client.get_ref() {
        let _ = s.set_read_timeout(Some(Duration::from_secs(2)));
    }
    let mut delays = Vec::new();
    for i in 0..100 {
        let (x, z) = (10 + i % 10, 10 + i / 10);
        let _ = session.input(&format!("/setblock {x} 5 {z} red_wool"));
        let needle = format!("[{x},5,{z},");
        let start = Instant::now();
        session.tick();
        loop {
            match client.read() {
                Ok(Message::Text(t)) if t.starts_with(r#"{"t":"blocks""#) && t.contains(&needle) => break,
                Ok(_) => {}
                Err(_) => return delays,
            }
        }
        delays.push(start.elapsed().as_secs_f64() * 1000.0);
    }
    delays
}

/// Reads everything the client receives in a thread of its own, counting bytes.
fn drain(mut client: Client) -> std::sync::Arc<std::sync::atomic::AtomicUsize> {
    use std::sync::atomic::{AtomicUsize, Ordering};
    let bytes = std::sync::Arc::new(AtomicUsize::new(0));
    let counted = bytes.clone();
    if let tungstenite::stream::MaybeTlsStream::Plain(s) = client.get_ref() {
        let _ = s.set_read_timeout(None);
    }
    std::thread::spawn(move || {
        while let Ok(m) = client.read() {
            counted.fetch_add(m.len(), Ordering::Relaxed);
        }
    });
    bytes
}

/// Bytes per second an idle page receives while the session ticks in real time.
fn idle_bytes(session: &mut Session, client: Client, how_long: Duration) -> f64 {
    let bytes = drain(client);
    // Let the last changes settle before counting.
    for _ in 0..20 {
        session.tick();
    }
    std::thread::sleep(Duration::from_millis(200));
    let before = bytes.load(std::sync::atomic::Ordering::Relaxed);
    let start = Instant::now();
    let mut next = start;
    while start.elapsed() < how_long {
        session.tick();
        next += Duration::from_millis(50);
        std::thread::sleep(next.saturating_duration_since(Instant::now()));
    }
    let got = bytes.load(std::sync::atomic::Ordering::Relaxed) - before;
    got as f64 / start.elapsed().as_secs_f64()
}

/// Mean and p99 of one tick, in microseconds, while the bot builds a cube (as fast as the
/// machine ticks; a connected page reads in its own thread).
fn build_ticks(session: &mut Session, client: Option<Client>) -> (f64, f64, usize) {
    let _reader = client.map(drain);
    let _ = session.input("build a red cube");
    let mut times = Vec::new();
    for _ in 0..crate::play::MAX_TICKS_PER_LINE {
        let start = Instant::now();
        session.tick();
        times.push(start.elapsed().as_secs_f64() * 1e6);
        if session.bot_is_idle() && times.len() > 20 {
            break;
        }
    }
    let mean = times.iter().sum::<f64>() / times.len().max(1) as f64;
    (mean, percentile(&times, 0.99), times.len())
}
