//! Accounts and sessions: password hashing, session cookies, CSRF checks,
//! and the login rate limit.

pub mod csrf;
pub mod password;
pub mod rate_limit;
pub mod session;
