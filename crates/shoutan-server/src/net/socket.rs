//! What the server's WebSockets (a game's, the lobby's) share: the largest
//! frame read, the close that tells a client why its frame was refused,
//! and a frame written as text — or, if it cannot be written, logged and
//! counted, never sent empty.

use std::time::Duration;

use axum::extract::ws::{CloseFrame, Message, Utf8Bytes, WebSocket, close_code};
use serde::Serialize;

/// Frames larger than this close the connection (1009); frames between
/// `max_message` and this get a `too_large` error frame.
pub const HARD_LIMIT: usize = 64 * 1024;

/// How long a connection closed for a bad frame stays open after its close
/// frame, so that the client reads the close code before the socket goes
/// (the rest of an oversized frame is never read, and closing over unread
/// data resets the connection).
const LINGER: Duration = Duration::from_secs(1);

/// Writes `frame` as JSON text; `None` — logged, and counted in
/// `shoutan_unwritable_frames_total` — when it cannot be written, so that
/// no socket is ever sent an empty message in its place.
pub fn written<T: Serialize + ?Sized>(socket: &'static str, frame: &T) -> Option<Utf8Bytes> {
    match serde_json::to_string(frame) {
        Ok(text) => Some(Utf8Bytes::from(text)),
        Err(e) => {
            tracing::error!("a {socket} frame cannot be written: {e}");
            metrics::counter!("shoutan_unwritable_frames_total", "socket" => socket).increment(1);
            None
        }
    }
}

/// Ends a connection whose frame could not be read, with the close code
/// RFC 6455 gives the reason: 1009 for a frame over [`HARD_LIMIT`], 1007
/// for a text frame that is not UTF-8, 1002 for a broken frame. A
/// connection already gone gets nothing.
pub async fn close_after(socket: &mut WebSocket, error: axum::Error) {
    let (code, reason) = match error
        .into_inner()
        .downcast::<tungstenite::Error>()
        .map(|e| *e)
    {
        Ok(tungstenite::Error::Capacity(_)) => (
            close_code::SIZE,
            format!("a frame is at most {HARD_LIMIT} bytes"),
        ),
        Ok(tungstenite::Error::Utf8(_)) => {
            (close_code::INVALID, "a text frame must be UTF-8".to_owned())
        }
        Ok(tungstenite::Error::Protocol(e)) => (close_code::PROTOCOL, e.to_string()),
        _ => return,
    };
    let close = Message::Close(Some(CloseFrame {
        code,
        reason: reason.into(),
    }));
    if socket.send(close).await.is_ok() {
        tokio::time::sleep(LINGER).await;
    }
}
