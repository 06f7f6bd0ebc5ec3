//! The accept loop, above the routes it serves: every connection is admitted under the per-address
//! cap ([`ConnectionLimits`]), gets `TCP_NODELAY`, and is served by hyper's
//! HTTP/1 with a deadline for each request's headers — an idle or
//! trickling half-request (slowloris) is closed when it passes, and so is a
//! keep-alive connection that sends no next request in that time.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use hyper::server::conn::http1;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use tokio::net::{TcpListener, TcpStream};
use tower_service::Service;

use crate::AppState;
use crate::net::connections::{ConnectionLimits, Counted};
use crate::net::headers::SecurityHeaders;
use crate::net::origins::Origins;

/// How long a shutdown waits for requests under way.
const DRAIN: Duration = Duration::from_secs(10);

/// The answer to a connection over its address's cap, written at once.
const TOO_MANY: &[u8] = b"HTTP/1.1 429 Too Many Requests\r\ncontent-type: application/json\r\n\
connection: close\r\ncontent-length: 83\r\n\r\n\
{\"error\":\"too_many_connections\",\"message\":\"too many connections from your address\"}";

/// Serves `app` on `listener` until `shutdown` completes, then lets the
/// requests under way finish (for a while).
pub async fn serve(
    listener: TcpListener,
    app: AppState,
    shutdown: impl std::future::Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    let origins = Origins::for_listener(&app.config.origins, listener.local_addr()?);
    let headers = Arc::new(SecurityHeaders::new(&origins));
    let limits = ConnectionLimits::new(
        app.config.max_connections_per_address,
        app.config.trusted_proxies.clone(),
    );
    let mut http = http1::Builder::new();
    http.timer(TokioTimer::new())
        .header_read_timeout(app.config.header_timeout);
    let router = crate::routes::router(app, Arc::new(origins), headers);
    let mut make_service = router.into_make_service_with_connect_info::<SocketAddr>();
    let (stop, stopped) = tokio::sync::watch::channel(false);
    tokio::pin!(shutdown);
    loop {
        let (stream, peer) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(accepted) => accepted,
                Err(e) => {
                    // Out of file descriptors, most likely: wait for some to
                    // be given back rather than spin.
                    tracing::warn!("accept: {e}");
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            },
            () = &mut shutdown => break,
        };
        let Some(slot) = limits.admit(peer.ip()) else {
            refuse(&stream);
            continue;
        };
        if let Err(e) = stream.set_nodelay(true) {
            tracing::warn!("TCP_NODELAY not set: {e}");
        }
        let Ok(service) = make_service.call(peer).await;
        let service = TowerToHyperService::new(service);
        let connection = http
            .serve_connection(TokioIo::new(Counted::new(stream, slot)), service)
            .with_upgrades();
        let mut stopped = stopped.clone();
        tokio::spawn(async move {
            tokio::pin!(connection);
            let outcome = tokio::select! {
                outcome = connection.as_mut() => outcome,
                _ = async { stopped.wait_for(|&stop| stop).await.map(|_| ()) } => {
                    connection.as_mut().graceful_shutdown();
                    connection.await
                }
            };
            if let Err(e) = outcome {
                tracing::debug!("connection from {peer}: {e}");
            }
        });
    }
    drop(listener);
    drop(stopped);
    let _ = stop.send(true);
    // Every connection task holds a receiver: all gone, all done.
    let _ = tokio::time::timeout(DRAIN, stop.closed()).await;
    Ok(())
}

/// Answers a connection over the cap with 429 if its buffer takes it at
/// once, and closes it.
fn refuse(stream: &TcpStream) {
    let _ = stream.try_write(TOO_MANY);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_refusal_is_well_formed_http() {
        let text = std::str::from_utf8(TOO_MANY).unwrap();
        let (head, body) = text.split_once("\r\n\r\n").unwrap();
        let length: usize = head
            .lines()
            .find_map(|l| l.strip_prefix("content-length: "))
            .unwrap()
            .parse()
            .unwrap();
        assert_eq!(length, body.len());
        assert!(serde_json::from_str::<serde_json::Value>(body).is_ok());
    }
}
