//! Bytes to text. Files from Chinese, Taiwanese, Korean and Japanese
//! servers come in GB2312/GBK, Big5, EUC-KR or Shift_JIS, declared by
//! `CA[]`, declared wrongly, or not declared at all; some are UTF-8 with a
//! name cut in the middle of a character. The decoders are `encoding_rs`
//! (Firefox's), the guess for undeclared legacy text is `chardetng`'s.
//!
//! The rules, in order:
//! 1. A byte-order mark decides (UTF-8 or UTF-16).
//! 2. Valid UTF-8 with non-ASCII characters is UTF-8, whatever `CA` says:
//!    legacy CJK text is practically never valid UTF-8, while converted
//!    files often keep their old `CA[gb2312]`.
//! 3. Otherwise a declared legacy encoding is used.
//! 4. Declared UTF-8 (or nothing) but not valid: if most non-ASCII text is
//!    valid UTF-8, the few broken sequences become U+FFFD; otherwise the
//!    encoding is guessed.

use encoding_rs::{Encoding, UTF_8};

use crate::warning::Warning;

/// Decoded text and how it was obtained.
#[derive(Debug, Clone)]
pub struct Decoded {
    /// The text.
    pub text: String,
    /// The encoding it was read in.
    pub encoding: &'static Encoding,
    /// What was repaired or converted.
    pub warnings: Vec<Warning>,
}

/// Decodes an SGF file's bytes.
///
/// ```
/// use shoutan_sgf::decode;
/// // 柯洁 in GB2312, declared.
/// let bytes = b"(;CA[GB2312]PB[\xbf\xc2\xbd\xe0])";
/// let decoded = decode(bytes);
/// assert_eq!(decoded.text, "(;CA[GB2312]PB[柯洁])");
/// assert_eq!(decoded.encoding.name(), "GBK");
/// ```
#[must_use]
pub fn decode(bytes: &[u8]) -> Decoded {
    let mut warnings = Vec::new();
    if let Some((bom, len)) = Encoding::for_bom(bytes) {
        let (text, had_errors) = bom.decode_without_bom_handling(&bytes[len..]);
        if bom != UTF_8 {
            warnings.push(Warning::Reencoded {
                from: bom.name().to_owned(),
            });
        }
        if had_errors {
            warnings.push(Warning::InvalidBytes {
                encoding: bom.name().to_owned(),
            });
        }
        return Decoded {
            text: text.into_owned(),
            encoding: bom,
            warnings,
        };
    }
    let declared_label = declared_charset(bytes);
    let declared = declared_label.as_deref().and_then(|label| {
        let found = Encoding::for_label(label.trim().as_bytes());
        if found.is_none() {
            warnings.push(Warning::UnknownCharset {
                label: label.to_owned(),
            });
        }
        found
    });
    let ascii = bytes.is_ascii();
    if let Ok(text) = std::str::from_utf8(bytes) {
        if !ascii && declared.is_some_and(|d| d != UTF_8) {
            warnings.push(Warning::MislabelledEncoding {
                declared: declared_label.unwrap_or_default(),
                actual: UTF_8.name().to_owned(),
            });
        }
        return Decoded {
            text: text.to_owned(),
            encoding: UTF_8,
            warnings,
        };
    }
    let encoding = match declared {
        Some(d) if d != UTF_8 => d,
        _ if mostly_utf8(bytes) => UTF_8,
        _ => {
            let guess = guess_legacy(bytes);
            warnings.push(match &declared_label {
                Some(label) if declared.is_some() => Warning::MislabelledEncoding {
                    declared: label.clone(),
                    actual: guess.name().to_owned(),
                },
                _ => Warning::UndeclaredEncoding {
                    detected: guess.name().to_owned(),
                },
            });
            guess
        }
    };
    let (text, had_errors) = encoding.decode_without_bom_handling(bytes);
    if encoding != UTF_8 {
        warnings.push(Warning::Reencoded {
            from: encoding.name().to_owned(),
        });
    }
    if had_errors {
        warnings.push(Warning::InvalidBytes {
            encoding: encoding.name().to_owned(),
        });
    }
    Decoded {
        text: text.into_owned(),
        encoding,
        warnings,
    }
}

/// The value of the `CA` property, found byte-wise (every encoding SGF
/// files use keeps ASCII as ASCII) by a scan that skips other properties'
/// values; `None` if absent or empty.
fn declared_charset(bytes: &[u8]) -> Option<String> {
    let mut identifier: Vec<u8> = Vec::new();
    let mut in_identifier = false;
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        match b {
            b'[' => {
                let start = i + 1;
                let mut end = start;
                while end < bytes.len() && bytes[end] != b']' {
                    end += if bytes[end] == b'\\' { 2 } else { 1 };
                }
                let end = end.min(bytes.len());
                if is_ca(&identifier) {
                    let label = String::from_utf8_lossy(&bytes[start..end])
                        .trim()
                        .to_owned();
                    return (!label.is_empty()).then_some(label);
                }
                in_identifier = false;
                i = end + 1;
                continue;
            }
            b'A'..=b'Z' | b'a'..=b'z' => {
                if !in_identifier {
                    identifier.clear();
                    in_identifier = true;
                }
                identifier.push(b);
            }
            _ if b.is_ascii_whitespace() => in_identifier = false,
            _ => {
                in_identifier = false;
                identifier.clear();
            }
        }
        i += 1;
    }
    None
}

/// Whether an identifier reads as `CA` the way the parser reads
/// identifiers (`FF[3]` lower-case letters dropped, or all in capitals).
fn is_ca(identifier: &[u8]) -> bool {
    let upper: Vec<u8> = if identifier.iter().any(u8::is_ascii_uppercase) {
        identifier
            .iter()
            .copied()
            .filter(u8::is_ascii_uppercase)
            .collect()
    } else {
        identifier.to_ascii_uppercase()
    };
    upper == b"CA"
}

/// Whether the non-ASCII text is overwhelmingly valid UTF-8: at least four
/// valid characters for each broken sequence (a name cut mid-character).
fn mostly_utf8(bytes: &[u8]) -> bool {
    let (mut valid, mut broken) = (0usize, 0usize);
    for chunk in bytes.utf8_chunks() {
        valid += chunk.valid().chars().filter(|c| !c.is_ascii()).count();
        if !chunk.invalid().is_empty() {
            broken += 1;
        }
    }
    valid >= 4 * broken
}

fn guess_legacy(bytes: &[u8]) -> &'static Encoding {
    let mut detector = chardetng::EncodingDetector::new(chardetng::Iso2022JpDetection::Allow);
    detector.feed(bytes, true);
    detector.guess(None, chardetng::Utf8Detection::Deny)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn encode(text: &str, label: &str) -> Vec<u8> {
        let enc = Encoding::for_label(label.as_bytes()).unwrap();
        let (bytes, _, errors) = enc.encode(text);
        assert!(!errors);
        bytes.into_owned()
    }

    const GAME: &str = "(;GM[1]PB[柯洁]PW[古力]C[这盘棋黑棋下得很好，白棋中盘认输。])";

    #[test]
    fn declared_legacy_encodings() {
        for label in ["GB2312", "GBK", "gb18030", "Big5"] {
            let game = if label == "Big5" {
                "(;GM[1]PB[柯潔]PW[古力]C[這盤棋黑棋下得很好。])"
            } else {
                GAME
            };
            let text = game.replace("(;", &format!("(;CA[{label}]"));
            let decoded = decode(&encode(&text, label));
            assert_eq!(decoded.text, text, "{label}");
            assert!(matches!(&decoded.warnings[..], [Warning::Reencoded { .. }]));
        }
    }

    #[test]
    fn undeclared_gbk_is_recognised() {
        let decoded = decode(&encode(GAME, "GBK"));
        assert_eq!(decoded.text, GAME);
        assert_eq!(decoded.encoding.name(), "GBK");
        assert!(matches!(
            &decoded.warnings[0],
            Warning::UndeclaredEncoding { detected } if detected == "GBK"
        ));
    }

    #[test]
    fn utf8_labelled_gb2312_is_read_as_utf8() {
        let text = GAME.replace("(;", "(;CA[gb2312]");
        let decoded = decode(text.as_bytes());
        assert_eq!(decoded.text, text);
        assert!(matches!(
            &decoded.warnings[..],
            [Warning::MislabelledEncoding { declared, actual }] if declared == "gb2312" && actual == "UTF-8"
        ));
    }

    #[test]
    fn gbk_labelled_utf8_is_recognised() {
        let text = GAME.replace("(;", "(;CA[UTF-8]");
        let decoded = decode(&encode(&text, "GBK"));
        assert_eq!(decoded.text, text);
        assert!(matches!(
            &decoded.warnings[0],
            Warning::MislabelledEncoding { actual, .. } if actual == "GBK"
        ));
    }

    #[test]
    fn a_name_cut_mid_character_loses_only_that_character() {
        // Fox cuts long names at a byte count: 你若有 + half of 因.
        let mut bytes = b"(;CA[UTF-8]PB[".to_vec();
        bytes.extend_from_slice("你若有".as_bytes());
        bytes.extend_from_slice(&"因".as_bytes()[..2]);
        bytes.extend_from_slice("]BR[9段]PW[天地皆醉])".as_bytes());
        let decoded = decode(&bytes);
        assert_eq!(
            decoded.text,
            "(;CA[UTF-8]PB[你若有\u{FFFD}]BR[9段]PW[天地皆醉])"
        );
        assert_eq!(
            decoded.warnings,
            vec![Warning::InvalidBytes {
                encoding: "UTF-8".into()
            }]
        );
    }

    #[test]
    fn byte_order_marks() {
        let mut utf8 = vec![0xEF, 0xBB, 0xBF];
        utf8.extend_from_slice(GAME.as_bytes());
        let decoded = decode(&utf8);
        assert_eq!(decoded.text, GAME);
        assert!(decoded.warnings.is_empty());
        let mut utf16 = vec![0xFF, 0xFE];
        utf16.extend(GAME.encode_utf16().flat_map(u16::to_le_bytes));
        let decoded = decode(&utf16);
        assert_eq!(decoded.text, GAME);
        assert_eq!(decoded.encoding.name(), "UTF-16LE");
    }

    #[test]
    fn an_unknown_charset_label_is_reported() {
        let decoded = decode(b"(;CA[klingon]GM[1])");
        assert_eq!(
            decoded.warnings,
            vec![Warning::UnknownCharset {
                label: "klingon".into()
            }]
        );
    }

    #[test]
    fn the_charset_is_the_ca_property_not_text_that_looks_like_it() {
        assert_eq!(
            declared_charset(b"(;C[write CA[GB2312] here]CA[Big5])"),
            Some("Big5".into())
        );
        assert_eq!(declared_charset(b"(;GM[CA[]W[4])"), None);
        assert_eq!(declared_charset(b"(;CA [ gbk ])"), Some("gbk".into()));
        assert_eq!(declared_charset(b"(;XCA[gbk]CA[])"), None);
        assert_eq!(
            declared_charset(b"(;CharsetX[x]ca[gbk])"),
            Some("gbk".into())
        );
        assert!(decode(b"(;CA[])").warnings.is_empty());
    }

    #[test]
    fn latin1_without_declaration() {
        let bytes = b"(;GM[1]PB[Fran\xe7ois M\xfcller]C[d\xe9j\xe0 vu, tr\xe8s bien jou\xe9])";
        let decoded = decode(bytes);
        assert!(decoded.text.contains("François Müller"), "{}", decoded.text);
    }
}
