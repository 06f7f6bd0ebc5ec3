//! Accounts and sessions: password hashing, session cookies, CSRF checks,
//! the login rate limit and throttle.

pub mod csrf;
pub mod hash_queue;
pub mod login_throttle;
pub mod password;
pub mod rate_limit;
pub mod reset_code;
pub mod session;
