//! The edge between the network and the application, below the routes:
//! the per-address connection cap ([`connections`]), the client's address
//! behind trusted proxies ([`client`]), the public origins ([`origins`]),
//! the security headers ([`headers`]), what every WebSocket shares
//! ([`socket`]), and the process's file limit ([`file_limit`]). The accept loop that uses them to serve the routes is
//! [`crate::listener`].

pub mod client;
pub mod connections;
pub mod file_limit;
pub mod headers;
pub mod origins;
pub mod socket;
