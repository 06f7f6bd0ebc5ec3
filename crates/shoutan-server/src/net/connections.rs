//! Simultaneous connections per client address. Every connection holds a
//! [`Slot`] from the moment it is accepted until its socket is closed —
//! through an upgrade to a WebSocket too, since the slot travels inside the
//! socket ([`Counted`]). Without a cap one visitor could hold every file
//! descriptor of the process with idle half-requests or spectator sockets.
//!
//! IPv6 addresses are counted by their /64 network, which one subscriber
//! usually has whole. Trusted proxies are not capped: every client behind
//! them shares their address (the proxy should cap its clients).

use std::collections::HashMap;
use std::io;
use std::net::{IpAddr, Ipv6Addr};
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};

use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};

use super::client::{AddressRanges, canonical};

/// One client address as limits count it: an IPv4 address, or an IPv6
/// /64 (which one subscriber usually has whole, so rotating within it
/// gains nothing).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct AddressKey(IpAddr);

impl std::fmt::Display for AddressKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.0 {
            IpAddr::V6(net) => write!(f, "{net}/64"),
            IpAddr::V4(ip) => write!(f, "{ip}"),
        }
    }
}

impl AddressKey {
    /// The server's own machine (work it does for itself).
    pub const LOOPBACK: AddressKey = AddressKey(IpAddr::V4(std::net::Ipv4Addr::LOCALHOST));

    /// The key of `ip`.
    #[must_use]
    pub fn of(ip: IpAddr) -> AddressKey {
        match canonical(ip) {
            IpAddr::V6(v6) => {
                let network = u128::from(v6) & !((1u128 << 64) - 1);
                AddressKey(IpAddr::V6(Ipv6Addr::from(network)))
            }
            v4 => AddressKey(v4),
        }
    }
}

/// The open connections per address, under a cap.
pub struct ConnectionLimits {
    per_address: usize,
    trusted: AddressRanges,
    open: Mutex<HashMap<AddressKey, usize>>,
}

impl ConnectionLimits {
    /// At most `per_address` connections from one address (trusted proxies
    /// excepted).
    #[must_use]
    pub fn new(per_address: usize, trusted: AddressRanges) -> Arc<ConnectionLimits> {
        Arc::new(ConnectionLimits {
            per_address,
            trusted,
            open: Mutex::new(HashMap::new()),
        })
    }

    /// A slot for a new connection from `ip`, or `None` when the address
    /// has its cap already.
    pub fn admit(self: &Arc<Self>, ip: IpAddr) -> Option<Slot> {
        let key = (!self.trusted.contains(ip)).then(|| AddressKey::of(ip));
        if let Some(key) = key {
            let mut open = self.open.lock().ok()?;
            let count = open.entry(key).or_insert(0);
            if *count >= self.per_address {
                return None;
            }
            *count += 1;
        }
        Some(Slot {
            limits: Arc::clone(self),
            key,
        })
    }

    /// Connections open from `ip`'s address.
    #[must_use]
    pub fn open_from(&self, ip: IpAddr) -> usize {
        self.open
            .lock()
            .map_or(0, |o| o.get(&AddressKey::of(ip)).copied().unwrap_or(0))
    }
}

/// One connection's place in the count, given back when dropped.
pub struct Slot {
    limits: Arc<ConnectionLimits>,
    key: Option<AddressKey>,
}

impl Drop for Slot {
    fn drop(&mut self) {
        let Some(key) = self.key else { return };
        if let Ok(mut open) = self.limits.open.lock()
            && let Some(count) = open.get_mut(&key)
        {
            *count -= 1;
            if *count == 0 {
                open.remove(&key);
            }
        }
    }
}

/// A socket that holds its connection's [`Slot`] for as long as it lives.
pub struct Counted<S> {
    inner: S,
    _slot: Slot,
}

impl<S> Counted<S> {
    /// `inner`, counted in `slot`.
    pub fn new(inner: S, slot: Slot) -> Counted<S> {
        Counted { inner, _slot: slot }
    }
}

impl<S: AsyncRead + Unpin> AsyncRead for Counted<S> {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_read(cx, buf)
    }
}

impl<S: AsyncWrite + Unpin> AsyncWrite for Counted<S> {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.inner).poll_write(cx, buf)
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_shutdown(cx)
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.inner).poll_write_vectored(cx, bufs)
    }

    fn is_write_vectored(&self) -> bool {
        self.inner.is_write_vectored()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ip(s: &str) -> IpAddr {
        s.parse().unwrap()
    }

    #[test]
    fn a_cap_per_address_given_back_on_drop() {
        let trusted = ["127.0.0.1".parse().unwrap()].into_iter().collect();
        let limits = ConnectionLimits::new(2, trusted);
        let a = limits.admit(ip("203.0.113.1")).unwrap();
        let _b = limits.admit(ip("::ffff:203.0.113.1")).unwrap();
        assert!(limits.admit(ip("203.0.113.1")).is_none());
        assert!(limits.admit(ip("203.0.113.2")).is_some());
        drop(a);
        assert_eq!(limits.open_from(ip("203.0.113.1")), 1);
        assert!(limits.admit(ip("203.0.113.1")).is_some());
        // One IPv6 /64 is one address.
        let _c = limits.admit(ip("2001:db8::1")).unwrap();
        let _d = limits.admit(ip("2001:db8::ffff:2")).unwrap();
        assert_eq!(
            AddressKey::of(ip("2001:db8::ffff:2")).to_string(),
            "2001:db8::/64"
        );
        assert!(limits.admit(ip("2001:db8::3")).is_none());
        assert!(limits.admit(ip("2001:db8:0:1::3")).is_some());
        // A trusted proxy is not capped.
        let proxied: Vec<_> = (0..5).map(|_| limits.admit(ip("127.0.0.1"))).collect();
        assert!(proxied.iter().all(Option::is_some));
        assert_eq!(limits.open_from(ip("127.0.0.1")), 0);
    }
}
