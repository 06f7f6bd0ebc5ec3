//! Passwords are kept as argon2id hashes (PHC strings with their own salt
//! and parameters), computed off the async threads.

use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use argon2::{Algorithm, Argon2, Params, Version};

/// The argon2id cost.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PasswordCost {
    /// Memory in KiB.
    pub memory_kib: u32,
    /// Passes.
    pub iterations: u32,
}

impl Default for PasswordCost {
    /// OWASP's recommendation for argon2id: 19 MiB, 2 passes, 1 lane.
    fn default() -> PasswordCost {
        PasswordCost {
            memory_kib: 19 * 1024,
            iterations: 2,
        }
    }
}

impl PasswordCost {
    /// The cheapest argon2id allows: for tests and load benchmarks only,
    /// where thousands of accounts are made in seconds.
    pub const TESTING: PasswordCost = PasswordCost {
        memory_kib: 8,
        iterations: 1,
    };

    fn hasher(self) -> Result<Argon2<'static>, argon2::Error> {
        let params = Params::new(self.memory_kib, self.iterations, 1, None)?;
        Ok(Argon2::new(Algorithm::Argon2id, Version::V0x13, params))
    }
}

/// Hashing failed (bad parameters: a configuration error).
#[derive(Debug, thiserror::Error)]
#[error("password hashing failed: {0}")]
pub struct HashError(String);

/// The PHC string of `password` with a fresh random salt.
pub async fn hash(password: String, cost: PasswordCost) -> Result<String, HashError> {
    tokio::task::spawn_blocking(move || {
        let mut salt = [0u8; 16];
        getrandom::fill(&mut salt).map_err(|e| HashError(e.to_string()))?;
        let salt = SaltString::encode_b64(&salt).map_err(|e| HashError(e.to_string()))?;
        let hasher = cost.hasher().map_err(|e| HashError(e.to_string()))?;
        hasher
            .hash_password(password.as_bytes(), &salt)
            .map(|h| h.to_string())
            .map_err(|e| HashError(e.to_string()))
    })
    .await
    .map_err(|e| HashError(e.to_string()))?
}

/// Whether `password` matches the stored PHC string (with the parameters
/// stored in it). A malformed stored hash matches nothing.
pub async fn verify(password: String, phc: String) -> bool {
    tokio::task::spawn_blocking(move || {
        PasswordHash::new(&phc).is_ok_and(|parsed| {
            Argon2::default()
                .verify_password(password.as_bytes(), &parsed)
                .is_ok()
        })
    })
    .await
    .unwrap_or(false)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn hashes_are_argon2id_salted_and_verify() {
        let a = hash("秘密 password".into(), PasswordCost::TESTING)
            .await
            .unwrap();
        let b = hash("秘密 password".into(), PasswordCost::TESTING)
            .await
            .unwrap();
        assert!(a.starts_with("$argon2id$v=19$m=8,t=1,p=1$"), "{a}");
        assert_ne!(a, b, "each hash has its own salt");
        assert!(verify("秘密 password".into(), a.clone()).await);
        assert!(!verify("秘密 passwore".into(), a).await);
        assert!(!verify("x".into(), "not a hash".into()).await);
    }

    #[tokio::test]
    async fn the_default_cost_is_owasps() {
        let h = hash("pw".into(), PasswordCost::default()).await.unwrap();
        assert!(h.starts_with("$argon2id$v=19$m=19456,t=2,p=1$"), "{h}");
        assert!(verify("pw".into(), h).await);
    }
}
