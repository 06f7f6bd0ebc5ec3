//! What must hold for any text a client sends over a game's WebSocket,
//! shared by the fuzz target (`fuzz/fuzz_targets/ws_message.rs`) and the
//! regression test of the inputs in `tests/ws-fuzz-inputs/`.

use shoutan_server::live::protocol::{MAX_ID, id_of, parse};

/// Reading never panics; an id read is one a browser can hold; the id read
/// from a message too large to read agrees with the one the message has;
/// a command has an id; an error frame is JSON of type `error`, with an id
/// only when the message had a valid one.
pub fn check(bytes: &[u8]) {
    let Ok(text) = std::str::from_utf8(bytes) else {
        return;
    };
    let quick = id_of(text);
    assert!(
        quick.is_none_or(|id| (1..=MAX_ID).contains(&id)),
        "{quick:?}"
    );
    match parse(text) {
        Ok(envelope) => {
            if quick.is_some() {
                assert_eq!(envelope.id, quick, "two readings of one id");
            }
            assert!(envelope.id.is_none_or(|id| (1..=MAX_ID).contains(&id)));
            if envelope.message.is_command() {
                assert!(envelope.id.is_some(), "a command without an id");
            }
        }
        Err(frame) => {
            let json: serde_json::Value =
                serde_json::from_str(frame.text().as_str()).expect("an error frame is JSON");
            assert_eq!(json["type"], "error");
            assert_eq!(json["code"], frame.code.as_str());
            if let Some(id) = frame.id {
                assert!((1..=MAX_ID).contains(&id), "{id}");
                assert!(
                    quick.is_none_or(|q| q == id),
                    "the error names id {id}, the message {quick:?}"
                );
            }
        }
    }
}
