//! The listener in front of the web view: a cap on open connections, from one address and in
//! all, and deadlines for connections that do nothing. Without them a few hundred half-open
//! connections (opened, never finished) would hold the process's files until nothing else could
//! open one — no page for the owner, no `/save` — and nobody needs the token to open a socket.
//!
//! - A new connection must be answered (its first request read and served) within
//!   [`Limits::first_request`], however slowly its bytes arrive; after that it is closed when
//!   nothing goes either way for [`Limits::idle`]. Pages keep their WebSocket alive with pings
//!   (`server::watch`).
//! - Connections past [`Limits::per_address`] from one address, or [`Limits::total`] in all,
//!   are closed as soon as they are accepted.

use std::collections::HashMap;
use std::io;
use std::net::{IpAddr, SocketAddr};
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::Duration;

use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::time::{Instant, Sleep};

/// The caps and deadlines.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    pub per_address: usize,
    pub total: usize,
    pub first_request: Duration,
    pub idle: Duration,
}

impl Default for Limits {
    fn default() -> Self {
        Limits { per_address: 16, total: 128, first_request: Duration::from_secs(10), idle: Duration::from_secs(60) }
    }
}

/// Open connections, by address.
type Open = Arc<Mutex<HashMap<IpAddr, usize>>>;

/// A TCP listener that admits connections within the [`Limits`].
pub struct Guarded {
    inner: TcpListener,
    limits: Limits,
    open: Open,
}

impl Guarded {
    pub fn new(inner: TcpListener, limits: Limits) -> Guarded {
        Guarded { inner, limits, open: Arc::default() }
    }

    /// Counts a connection from `ip` in, unless a cap is reached.
    fn admit(&self, ip: IpAddr) -> Option<Slot> {
        let mut open = self.open.lock().unwrap_or_else(|e| e.into_inner());
        let total: usize = open.values().sum();
        let mine = open.entry(ip).or_insert(0);
        if *mine >= self.limits.per_address || total >= self.limits.total {
            return None;
        }
        *mine += 1;
        Some(Slot { ip, open: self.open.clone() })
    }
}

impl axum::serve::Listener for Guarded {
    type Io = GuardedStream;
    type Addr = SocketAddr;

    async fn accept(&mut self) -> (GuardedStream, SocketAddr) {
        loop {
            let (stream, addr) = match self.inner.accept().await {
                Ok(accepted) => accepted,
                Err(e) => {
                    // Out of files, or a connection reset before it was taken: wait a moment
                    // (the deadlines free files meanwhile) rather than spin.
                    tracing::debug!("web view: accept failed: {e}");
                    tokio::time::sleep(Duration::from_millis(100)).await;
                    continue;
                }
            };
            match self.admit(addr.ip()) {
                Some(slot) => return (GuardedStream::new(stream, slot, self.limits), addr),
                None => tracing::debug!(%addr, "web view: too many connections; one closed"),
            }
        }
    }

    fn local_addr(&self) -> io::Result<SocketAddr> {
        self.inner.local_addr()
    }
}

/// One connection's place in the count, given back when the connection ends.
struct Slot {
    ip: IpAddr,
    open: Open,
}

impl Drop for Slot {
    fn drop(&mut self) {
        let mut open = self.open.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(n) = open.get_mut(&self.ip) {
            *n -= 1;
            if *n == 0 {
                open.remove(&self.ip);
            }
        }
    }
}

/// A connection with its deadline: reads and writes fail with `TimedOut` once it passes.
pub struct GuardedStream {
    inner: TcpStream,
    _slot: Slot,
    limits: Limits,
    /// Something was written back: the first request was answered.
    answered: bool,
    deadline: Pin<Box<Sleep>>,
}

impl GuardedStream {
    fn new(inner: TcpStream, slot: Slot, limits: Limits) -> GuardedStream {
        let deadline = Box::pin(tokio::time::sleep(limits.first_request));
        GuardedStream { inner, _slot: slot, limits, answered: false, deadline }
    }

    /// Bytes went one way or the other: once answered, the idle deadline starts again.
    fn active(&mut self, wrote: bool) {
        self.answered |= wrote;
        if self.answered {
            self.deadline.as_mut().reset(Instant::now() + self.limits.idle);
        }
    }

    /// `Ready(Err)` once the deadline has passed (and registers for it otherwise).
    fn expired(&mut self, cx: &mut Context<'_>) -> Poll<io::Error> {
        match self.deadline.as_mut().poll(cx) {
            Poll::Ready(()) => Poll::Ready(io::Error::new(io::ErrorKind::TimedOut, "the connection was idle too long")),
            Poll::Pending => Poll::Pending,
        }
    }
}

impl AsyncRead for GuardedStream {
    fn poll_read(mut self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &mut ReadBuf<'_>) -> Poll<io::Result<()>> {
        let before = buf.filled().len();
        match Pin::new(&mut self.inner).poll_read(cx, buf) {
            Poll::Ready(Ok(())) => {
                if buf.filled().len() > before {
                    self.active(false);
                }
                Poll::Ready(Ok(()))
            }
            Poll::Ready(Err(e)) => Poll::Ready(Err(e)),
            Poll::Pending => self.expired(cx).map(Err),
        }
    }
}

impl AsyncWrite for GuardedStream {
    fn poll_write(mut self: Pin<&mut Self>, cx: &mut Context<'_>, data: &[u8]) -> Poll<io::Result<usize>> {
        match Pin::new(&mut self.inner).poll_write(cx, data) {
            Poll::Ready(Ok(n)) => {
                if n > 0 {
                    self.active(true);
                }
                Poll::Ready(Ok(n))
            }
            Poll::Ready(Err(e)) => Poll::Ready(Err(e)),
            Poll::Pending => self.expired(cx).map(Err),
        }
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_shutdown(cx)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::serve::Listener;
    use tokio::io::{AsyncReadExt, AsyncWriteExt};

    fn runtime() -> tokio::runtime::Runtime {
        tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap()
    }

    /// Connections past the cap from one address are closed at once; one that ends frees its
    /// place.
    #[test]
    fn connections_past_the_cap_are_closed_at_once() {
        runtime().block_on(async {
            let limits = Limits { per_address: 2, total: 10, ..Limits::default() };
            let mut guarded = Guarded::new(TcpListener::bind("127.0.0.1:0").await.unwrap(), limits);
            let addr = guarded.local_addr().unwrap();
            let mut clients = Vec::new();
            for _ in 0..3 {
                clients.push(TcpStream::connect(addr).await.unwrap());
            }
            let (a, _) = guarded.accept().await;
            let (b, _) = guarded.accept().await;
            // The third is closed by the listener: its client reads the end.
            let accepting = tokio::spawn(async move {
                let third = guarded.accept().await;
                (guarded, third)
            });
            let mut byte = [0u8; 1];
            let read = tokio::time::timeout(Duration::from_secs(5), clients[2].read(&mut byte)).await.expect("closed, not hanging");
            assert!(matches!(read, Ok(0) | Err(_)), "{read:?}");
            drop((a, b));
            let again = TcpStream::connect(addr).await.unwrap();
            let (_, (third, _)) = tokio::time::timeout(Duration::from_secs(5), accepting).await.expect("a freed place").unwrap();
            drop((third, again));
        });
    }

    /// A connection that never finishes its first request is closed at the deadline, however
    /// slowly it keeps sending; an answered one lives while bytes flow.
    #[test]
    fn a_connection_that_is_never_answered_times_out() {
        runtime().block_on(async {
            let limits = Limits { first_request: Duration::from_millis(300), idle: Duration::from_millis(600), ..Limits::default() };
            let mut guarded = Guarded::new(TcpListener::bind("127.0.0.1:0").await.unwrap(), limits);
            let addr = guarded.local_addr().unwrap();
            let mut client = TcpStream::connect(addr).await.unwrap();
            let (mut server, _) = guarded.accept().await;
            let trickle = tokio::spawn(async move {
                for _ in 0..10 {
                    if client.write_all(b"G").await.is_err() {
                        break;
                    }
                    tokio::time::sleep(Duration::from_millis(100)).await;
                }
                client
            });
            let started = Instant::now();
            let mut buf = [0u8; 64];
            let outcome = loop {
                match server.read(&mut buf).await {
                    Ok(0) => break None,
                    Ok(_) => continue,
                    Err(e) => break Some(e.kind()),
                }
            };
            assert_eq!(outcome, Some(io::ErrorKind::TimedOut));
            assert!(started.elapsed() < Duration::from_millis(900), "{:?}", started.elapsed());
            drop(trickle.await);
        });
    }
}
