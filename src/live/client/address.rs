//! Server addresses: `host`, `host:port` or `[ipv6]:port`, checked up front and resolved before
//! each connection attempt (the system resolver first, then Minecraft's SRV records).


use azalea::protocol::address::{ResolvedAddr, ServerAddr};
// The `Resource` derive names `bevy_ecs`; azalea re-exports it as `ecs`.
use std::time::Duration;

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

pub(super) async fn resolve(address: &str) -> Result<ResolvedAddr, String> {
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
}
