//! What must hold for any line given to the GTP front end, shared by the
//! fuzz target (`fuzz/fuzz_targets/gtp_command.rs`) and the regression test
//! of the inputs in `tests/gtp-fuzz-inputs/`.

use shoutan_engine::gtp::{Command, Line, parse_line};
use shoutan_rules::Color;

/// Parsing never panics and is the same twice; a line is answered unless
/// it holds nothing but space, control characters and a comment; a `play`
/// command reads back from its own writing.
pub fn check(bytes: &[u8]) {
    let text = String::from_utf8_lossy(bytes);
    let line = parse_line(&text);
    assert_eq!(line, parse_line(&text), "parsed differently twice");
    let has_words = text
        .split('#')
        .next()
        .unwrap_or("")
        .chars()
        .any(|c| !c.is_whitespace() && !c.is_control());
    assert_eq!(line.is_some(), has_words, "{text:?}");
    if let Some(Line {
        command: Ok(Command::Play(color, vertex)),
        ..
    }) = &line
    {
        let letter = match color {
            Color::Black => "b",
            Color::White => "w",
        };
        let again = parse_line(&format!("play {letter} {vertex}")).expect("a line");
        assert_eq!(again.command, Ok(Command::Play(*color, *vertex)));
    }
}
