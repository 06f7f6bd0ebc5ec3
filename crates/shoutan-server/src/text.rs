//! Text that users write and others read: account names, chat lines, and
//! the labels of events (names, places). Each is stored in Unicode NFC, so
//! that one spelling is one string, and none may hold a character that
//! changes how the text around it is shown: control characters (line
//! breaks among them: a name could forge a line of an export or a log) and
//! the bidirectional overrides, embeddings and isolates (U+202A–U+202E,
//! U+2066–U+2069), with which "1d" can be made to show as "d1". The
//! bidirectional marks (LRM, RLM, ALM) stay: Arabic and Hebrew writers need
//! them, and they reorder nothing beyond themselves.
//!
//! ```
//! use shoutan_server::text::{TextError, clean_chat};
//! assert_eq!(clean_chat("  好棋！ ").unwrap(), "好棋！");
//! assert_eq!(clean_chat("a\u{202e}b"), Err(TextError::Bidi('\u{202e}')));
//! ```

use unicode_normalization::UnicodeNormalization;

use crate::error::{ApiError, ErrorCode};

/// The longest account name, in characters.
pub const MAX_NAME: usize = 24;
/// The shortest account name, in characters.
pub const MIN_NAME: usize = 2;

/// Text that cannot be accepted.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TextError {
    /// A control character (C0, DEL, C1, or a line or paragraph separator).
    #[error("control character U+{:04X} is not allowed", u32::from(*.0))]
    Control(char),
    /// A bidirectional override, embedding or isolate.
    #[error("bidirectional control U+{:04X} is not allowed", u32::from(*.0))]
    Bidi(char),
    /// A name outside the length bounds.
    #[error("a name has {MIN_NAME} to {MAX_NAME} characters")]
    NameLength,
    /// A name with a character other than letters, digits, `_`, `-`, `.`.
    #[error("a name has letters, digits, '_', '-' and '.' only, not {0:?}")]
    NameCharacter(char),
}

impl TextError {
    /// The API's code for it.
    #[must_use]
    pub fn code(&self) -> ErrorCode {
        match self {
            TextError::Control(_) => ErrorCode::ControlCharacter,
            TextError::Bidi(_) => ErrorCode::BidiControl,
            TextError::NameLength | TextError::NameCharacter(_) => ErrorCode::BadName,
        }
    }
}

impl From<TextError> for ApiError {
    fn from(e: TextError) -> ApiError {
        ApiError::bad_request(e.code(), e.to_string())
    }
}

/// Whether `c` reorders the text around it (overrides, embeddings,
/// isolates and their terminators).
fn is_bidi_control(c: char) -> bool {
    matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

/// Whether `c` is a control character or breaks a line.
fn is_control(c: char) -> bool {
    c.is_control() || matches!(c, '\u{2028}' | '\u{2029}')
}

/// `text` trimmed and in NFC, or the first character it may not hold.
pub fn clean_line(text: &str) -> Result<String, TextError> {
    let text: String = text.trim().nfc().collect();
    match text.chars().find(|&c| is_control(c) || is_bidi_control(c)) {
        Some(c) if is_bidi_control(c) => Err(TextError::Bidi(c)),
        Some(c) => Err(TextError::Control(c)),
        None => Ok(text),
    }
}

/// A chat line as it is kept and shown: [`clean_line`]. Its length is the
/// game's to judge.
pub fn clean_chat(text: &str) -> Result<String, TextError> {
    clean_line(text)
}

/// An account name: [`clean_line`], then 2 to 24 letters (any script),
/// digits, `_`, `-` or `.`. Whether it looks like another account's name
/// is the store's to say (it keeps every name's skeleton).
pub fn clean_name(name: &str) -> Result<String, TextError> {
    let name = clean_line(name)?;
    if !(MIN_NAME..=MAX_NAME).contains(&name.chars().count()) {
        return Err(TextError::NameLength);
    }
    match name
        .chars()
        .find(|&c| !(c.is_alphanumeric() || matches!(c, '_' | '-' | '.')))
    {
        Some(c) => Err(TextError::NameCharacter(c)),
        None => Ok(name),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_nfc_and_plain() {
        for good in ["ke_jie", "柯洁", "Lee.Sedol-9", "ab", "이세돌"] {
            assert_eq!(clean_name(good).unwrap(), good);
        }
        // "é" written as e + a combining acute is kept as one character.
        assert_eq!(clean_name("Re\u{301}mi").unwrap(), "R\u{e9}mi");
        for bad in ["a", "has space", "<script>", "x/y", &"n".repeat(25)] {
            assert_eq!(
                clean_name(bad).unwrap_err().code(),
                ErrorCode::BadName,
                "{bad}"
            );
        }
        assert_eq!(clean_name("ab\u{202e}cd"), Err(TextError::Bidi('\u{202e}')));
        assert_eq!(clean_name("ab\u{2067}cd"), Err(TextError::Bidi('\u{2067}')));
        assert_eq!(clean_name("ab\u{7}cd"), Err(TextError::Control('\u{7}')));
    }

    #[test]
    fn chat_keeps_marks_and_refuses_controls_and_overrides() {
        assert_eq!(clean_chat(" gg ").unwrap(), "gg");
        // A right-to-left mark is a mark, not an override.
        assert_eq!(clean_chat("שלום\u{200f}!").unwrap(), "שלום\u{200f}!");
        for (text, code) in [
            ("two\nlines", "control_character"),
            ("a\rb", "control_character"),
            ("bell\u{7}", "control_character"),
            ("c1\u{85}x", "control_character"),
            ("sep\u{2028}x", "control_character"),
            ("\u{202e}1d", "bidi_control"),
            ("x\u{2066}y\u{2069}", "bidi_control"),
            ("x\u{202a}y\u{202c}", "bidi_control"),
        ] {
            assert_eq!(clean_chat(text).unwrap_err().code(), code, "{text:?}");
        }
        // Decomposed Hangul is composed.
        assert_eq!(clean_chat("\u{1100}\u{1161}").unwrap(), "\u{ac00}");
    }
}
