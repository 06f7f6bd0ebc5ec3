//! Exchange formats: what organisers bring in (CSV player lists, OpenGotha
//! files) and take out (OpenGotha, EGF `.h9`, FIDE TRF-16, HTML and
//! Markdown standings and crosstables).

pub mod csv;
pub mod h9;
pub mod opengotha;
pub mod report;
pub mod trf;

use std::borrow::Cow;

/// `text` on one line: each control character (line breaks among them) and
/// each line or paragraph separator becomes a space, so that no name in an
/// export can end its line or forge the next.
pub(crate) fn one_line(text: &str) -> Cow<'_, str> {
    let breaks = |c: char| c.is_control() || matches!(c, '\u{2028}' | '\u{2029}');
    if text.contains(breaks) {
        Cow::Owned(text.replace(breaks, " "))
    } else {
        Cow::Borrowed(text)
    }
}
