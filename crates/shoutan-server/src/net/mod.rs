//! The edge between the network and the application: the accept loop with
//! its per-address connection cap and header deadline ([`listener`]), the
//! client's address behind trusted proxies ([`client`]), the public
//! origins ([`origins`]), the security headers ([`headers`]), and the
//! process's file limit ([`file_limit`]).

pub mod client;
pub mod connections;
pub mod file_limit;
pub mod headers;
pub mod listener;
pub mod origins;
