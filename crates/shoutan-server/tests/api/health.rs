//! `GET /api/health` says whether the store takes writes.

use std::time::Duration;

use crate::common::{Backend, Client, TestServer, config};

async fn health_reports_a_store_that_takes_no_writes(backend: Backend) {
    let Some(server) = TestServer::new(backend, config()).await else {
        return;
    };
    let anon = Client::anonymous(&server);
    let ok = anon.get("/api/health").await;
    assert_eq!((ok.status, ok.json["ok"].as_bool()), (200, Some(true)));
    // The table the write check writes to goes away under the server.
    server.raw_sql("DROP TABLE heartbeat").await;
    tokio::time::sleep(Duration::from_millis(1100)).await;
    let failed = anon.get("/api/health").await;
    assert_eq!(
        (failed.status, failed.json["error"].as_str()),
        (503, Some("storage_failed")),
        "{}",
        failed.body
    );
    assert!(
        failed.json["message"]
            .as_str()
            .unwrap()
            .contains("heartbeat")
    );
    // Repaired, it is healthy again.
    server
        .raw_sql("CREATE TABLE heartbeat (id INTEGER PRIMARY KEY, at BIGINT NOT NULL)")
        .await;
    tokio::time::sleep(Duration::from_millis(1100)).await;
    assert_eq!(anon.get("/api/health").await.status, 200);
}

crate::for_both_backends!(health_reports_a_store_that_takes_no_writes);
