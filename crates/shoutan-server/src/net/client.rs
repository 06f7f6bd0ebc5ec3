//! Who the client is: its address, for rate limits and throttles.
//!
//! Behind a reverse proxy every connection comes from the proxy, and the
//! client's address is in `X-Forwarded-For`, to which each proxy appends
//! the address it was reached from. Only the entries that trusted proxies
//! appended can be believed: the client writes the first ones itself. So
//! the address is read right to left, skipping the addresses of trusted
//! proxies, and the first one that is not a trusted proxy is the client —
//! and the header is read at all only when the connection itself comes from
//! a trusted proxy.
//!
//! ```
//! use shoutan_server::net::client::{AddressRanges, client_address};
//! let proxies: AddressRanges = ["127.0.0.1/32".parse().unwrap()].into_iter().collect();
//! let peer = "127.0.0.1".parse().unwrap();
//! // The client forged "1.2.3.4"; nginx appended the address it saw.
//! let client = client_address(&proxies, peer, ["1.2.3.4, 203.0.113.7"]);
//! assert_eq!(client, "203.0.113.7".parse::<std::net::IpAddr>().unwrap());
//! ```

use std::net::{IpAddr, SocketAddr};
use std::str::FromStr;

use axum::extract::{ConnectInfo, FromRequestParts};
use axum::http::request::Parts;
use ipnet::IpNet;

use crate::AppState;
use crate::error::ApiError;

/// A range of addresses: a network (`10.0.0.0/8`, `::1/128`) or a single
/// address (`127.0.0.1`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AddressRange(IpNet);

impl FromStr for AddressRange {
    type Err = String;
    fn from_str(s: &str) -> Result<AddressRange, String> {
        let s = s.trim();
        if let Ok(ip) = s.parse::<IpAddr>() {
            return Ok(AddressRange(IpNet::from(ip)));
        }
        s.parse::<IpNet>()
            .map(|net| AddressRange(net.trunc()))
            .map_err(|_| format!("{s:?} is not an address or a network like 10.0.0.0/8"))
    }
}

/// A set of address ranges: the trusted proxies, the addresses that may
/// read `/metrics`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct AddressRanges(Vec<AddressRange>);

impl FromIterator<AddressRange> for AddressRanges {
    fn from_iter<I: IntoIterator<Item = AddressRange>>(nets: I) -> AddressRanges {
        AddressRanges(nets.into_iter().collect())
    }
}

impl AddressRanges {
    /// Whether `ip` is in one of the ranges.
    #[must_use]
    pub fn contains(&self, ip: IpAddr) -> bool {
        let ip = canonical(ip);
        self.0.iter().any(|net| net.0.contains(&ip))
    }
}

/// An IPv4 address written as IPv6 (`::ffff:1.2.3.4`) is the IPv4 address.
#[must_use]
pub fn canonical(ip: IpAddr) -> IpAddr {
    match ip {
        IpAddr::V6(v6) => v6.to_ipv4_mapped().map_or(ip, IpAddr::V4),
        v4 => v4,
    }
}

/// The client's address: the `peer`'s, or, when the peer is a trusted
/// proxy, the rightmost `X-Forwarded-For` entry (of all such headers in
/// order) that is not a trusted proxy. An entry that is no address ends
/// the search at the proxy that wrote it.
pub fn client_address<'a>(
    proxies: &AddressRanges,
    peer: IpAddr,
    forwarded_for: impl IntoIterator<Item = &'a str>,
) -> IpAddr {
    let mut client = canonical(peer);
    if !proxies.contains(client) {
        return client;
    }
    let headers: Vec<&str> = forwarded_for.into_iter().collect();
    for entry in headers.iter().rev().flat_map(|h| h.rsplit(',')) {
        let Some(ip) = parse_entry(entry) else {
            return client;
        };
        client = canonical(ip);
        if !proxies.contains(client) {
            return client;
        }
    }
    client
}

/// An `X-Forwarded-For` entry: an address, an IPv6 address in brackets,
/// either with a port.
fn parse_entry(entry: &str) -> Option<IpAddr> {
    let entry = entry.trim();
    entry
        .parse()
        .ok()
        .or_else(|| entry.parse::<SocketAddr>().ok().map(|s| s.ip()))
        .or_else(|| {
            entry
                .strip_prefix('[')
                .and_then(|e| e.strip_suffix(']'))
                .and_then(|e| e.parse().ok())
        })
}

/// A handler argument: the client's address (see [`client_address`]).
pub struct ClientAddress(pub IpAddr);

impl FromRequestParts<AppState> for ClientAddress {
    type Rejection = ApiError;
    async fn from_request_parts(parts: &mut Parts, app: &AppState) -> Result<Self, ApiError> {
        let ConnectInfo(peer) = parts
            .extensions
            .get::<ConnectInfo<SocketAddr>>()
            .copied()
            .ok_or_else(|| ApiError::internal("no peer address on the connection"))?;
        let headers = parts
            .headers
            .get_all("x-forwarded-for")
            .iter()
            .filter_map(|v| v.to_str().ok());
        Ok(ClientAddress(client_address(
            &app.config.trusted_proxies,
            peer.ip(),
            headers,
        )))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ip(s: &str) -> IpAddr {
        s.parse().unwrap()
    }

    fn proxies(nets: &[&str]) -> AddressRanges {
        nets.iter().map(|n| n.parse().unwrap()).collect()
    }

    #[test]
    fn read_right_to_left_past_trusted_proxies_only() {
        let trusted = proxies(&["127.0.0.1", "10.0.0.0/8", "::1"]);
        // Without a trusted peer the header is ignored.
        assert_eq!(
            client_address(&trusted, ip("198.51.100.1"), ["1.2.3.4"]),
            ip("198.51.100.1")
        );
        // nginx on loopback: the entry it appended is the client; the
        // client's forged entries before it are not read.
        assert_eq!(
            client_address(&trusted, ip("127.0.0.1"), ["1.2.3.4, 203.0.113.7"]),
            ip("203.0.113.7")
        );
        // Two proxies (a load balancer at 10.1.2.3, then nginx): the
        // balancer's own entry is skipped.
        assert_eq!(
            client_address(
                &trusted,
                ip("127.0.0.1"),
                ["6.6.6.6", "203.0.113.7, 10.1.2.3"]
            ),
            ip("203.0.113.7")
        );
        // Every entry a trusted proxy: the leftmost of them.
        assert_eq!(
            client_address(&trusted, ip("::1"), ["10.0.0.5, 10.0.0.6"]),
            ip("10.0.0.5")
        );
        // No header: the proxy itself.
        assert_eq!(
            client_address(&trusted, ip("127.0.0.1"), []),
            ip("127.0.0.1")
        );
        // Garbage where a proxy wrote: stop at that proxy.
        assert_eq!(
            client_address(&trusted, ip("127.0.0.1"), ["203.0.113.7, unknown"]),
            ip("127.0.0.1")
        );
        // Ports, brackets and IPv4-mapped forms.
        assert_eq!(
            client_address(&trusted, ip("::ffff:127.0.0.1"), ["203.0.113.7:4711"]),
            ip("203.0.113.7")
        );
        assert_eq!(
            client_address(&trusted, ip("127.0.0.1"), ["[2001:db8::1]:80"]),
            ip("2001:db8::1")
        );
        assert_eq!(
            client_address(&trusted, ip("127.0.0.1"), ["[2001:db8::2]"]),
            ip("2001:db8::2")
        );
        // Nothing trusted: never read.
        assert_eq!(
            client_address(&AddressRanges::default(), ip("127.0.0.1"), ["1.2.3.4"]),
            ip("127.0.0.1")
        );
        assert!("10.0.0.0/33".parse::<AddressRange>().is_err());
        assert!("nginx".parse::<AddressRange>().is_err());
    }
}
