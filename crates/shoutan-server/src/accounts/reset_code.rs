//! One-time password reset codes, given by the operator (`shoutan admin
//! reset-password`) since the server sends no mail: 80 random bits in
//! Crockford's base 32 (no I, L, O or U to misread), in groups of four.
//! Only a hash is stored; a code is typed back in any case, with or
//! without its dashes and spaces.

use sha2::{Digest, Sha256};

/// Crockford's base-32 digits.
const DIGITS: &[u8; 32] = b"0123456789ABCDEFGHJKMNPQRSTVWXYZ";

/// How long a code stays good, in milliseconds (a day).
pub const LIFETIME_MS: i64 = 24 * 3600 * 1000;

/// A new code, as the operator reads it out: `7KQ2-M9XD-4TRA-0PZC`.
pub fn new_code() -> Result<String, getrandom::Error> {
    let mut bytes = [0u8; 16];
    getrandom::fill(&mut bytes)?;
    let digits: Vec<char> = bytes
        .iter()
        .map(|b| char::from(DIGITS[usize::from(b % 32)]))
        .collect();
    Ok(digits
        .chunks(4)
        .map(|group| group.iter().collect::<String>())
        .collect::<Vec<_>>()
        .join("-"))
}

/// The stored form of a code as typed: upper case, dashes and spaces
/// dropped, then SHA-256.
#[must_use]
pub fn hash(typed: &str) -> [u8; 32] {
    let canonical: String = typed
        .chars()
        .filter(|c| !matches!(c, '-' | ' '))
        .map(|c| c.to_ascii_uppercase())
        .collect();
    Sha256::digest(canonical.as_bytes()).into()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_random_readable_and_typed_back_loosely() {
        let code = new_code().unwrap();
        assert_eq!(code.len(), 19);
        assert_eq!(code.matches('-').count(), 3);
        assert!(
            code.chars()
                .all(|c| c == '-' || DIGITS.contains(&(c as u8)))
        );
        assert!(!code.contains(['I', 'L', 'O', 'U']));
        assert_ne!(code, new_code().unwrap());
        let typed = code.replace('-', " ").to_lowercase();
        assert_eq!(hash(&typed), hash(&code));
        assert_ne!(hash("AAAA-BBBB"), hash(&code));
    }
}
