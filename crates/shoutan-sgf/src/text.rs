//! SGF value text: escaping for the writer, and the two ways SGF reads text
//! back (`Text` keeps line breaks, `SimpleText` turns them into spaces).

/// Escapes `]` and `\` so that `text` can stand between brackets; with
/// `compose`, also `:` (the first part of a composed value such as `LB`).
pub(crate) fn escape(text: &str, compose: bool) -> String {
    let mut out = String::with_capacity(text.len());
    for ch in text.chars() {
        if ch == ']' || ch == '\\' || (compose && ch == ':') {
            out.push('\\');
        }
        out.push(ch);
    }
    out
}

/// Reads raw SGF text: `\` followed by a line break is a soft break and
/// disappears, `\x` is `x`, line breaks (`\n`, `\r\n`, `\n\r`, `\r`) become
/// `\n` (or a space in `SimpleText`), other white space becomes a space.
pub(crate) fn unescape(raw: &str, simple: bool) -> String {
    let mut out = String::with_capacity(raw.len());
    let mut chars = raw.chars().peekable();
    while let Some(ch) = chars.next() {
        match ch {
            '\\' => match chars.next() {
                Some(first @ ('\n' | '\r')) => skip_pair(&mut chars, first),
                Some(escaped) => out.push(escaped),
                None => {}
            },
            '\n' | '\r' => {
                skip_pair(&mut chars, ch);
                out.push(if simple { ' ' } else { '\n' });
            }
            c if c.is_whitespace() && c != ' ' && c.is_ascii() => out.push(' '),
            c => out.push(c),
        }
    }
    out
}

/// A line break is `\n`, `\r`, `\r\n` or `\n\r`: after one of `\n`
/// and `\r`, the other belongs to the same break.
fn skip_pair(chars: &mut std::iter::Peekable<std::str::Chars<'_>>, first: char) {
    let pair = if first == '\n' { '\r' } else { '\n' };
    if chars.peek() == Some(&pair) {
        chars.next();
    }
}

/// Splits a raw composed value (`dd:label`) at its first unescaped `:`.
pub(crate) fn split_compose(raw: &str) -> Option<(&str, &str)> {
    let mut escaped = false;
    for (i, ch) in raw.char_indices() {
        match ch {
            _ if escaped => escaped = false,
            '\\' => escaped = true,
            ':' => return Some((&raw[..i], &raw[i + 1..])),
            _ => {}
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escaping_reads_back() {
        for text in [
            "plain",
            "a]b",
            "back\\slash",
            "w:1",
            "line\nbreak",
            "中文 [注]",
        ] {
            assert_eq!(unescape(&escape(text, false), false), text);
            assert_eq!(unescape(&escape(text, true), false), text);
        }
        assert_eq!(escape("a:b]", true), "a\\:b\\]");
    }

    #[test]
    fn soft_and_hard_line_breaks() {
        assert_eq!(unescape("one\\\ntwo", false), "onetwo");
        assert_eq!(unescape("one\\\r\ntwo", false), "onetwo");
        assert_eq!(unescape("one\r\ntwo", false), "one\ntwo");
        assert_eq!(unescape("one\n\rtwo", false), "one\ntwo");
        assert_eq!(unescape("one\rtwo", true), "one two");
        assert_eq!(unescape("tab\there", false), "tab here");
    }

    #[test]
    fn compose_splits_at_the_first_unescaped_colon() {
        assert_eq!(split_compose("dd:A"), Some(("dd", "A")));
        assert_eq!(split_compose("dd:a:b"), Some(("dd", "a:b")));
        assert_eq!(split_compose("a\\:b:c"), Some(("a\\:b", "c")));
        assert_eq!(split_compose("dd"), None);
    }
}
