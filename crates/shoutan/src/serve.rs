//! `shoutan serve`: the weiqi server with the web client, over embedded
//! SQLite (created on first start in `--data`) or PostgreSQL.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use shoutan_server::ServerConfig;
use shoutan_store::Database;

/// Arguments.
#[derive(clap::Args)]
pub struct Args {
    /// Address to listen on (port 0: any free port, printed at start).
    #[arg(long, default_value = "127.0.0.1:8080")]
    addr: SocketAddr,
    /// Directory of the embedded SQLite database (created if missing).
    #[arg(long, default_value = "./shoutan-data")]
    data: PathBuf,
    /// A database URL instead: `postgres://user@host:5432/db` (or
    /// `sqlite://PATH`). Overrides `--data`.
    #[arg(long)]
    database: Option<String>,
    /// Mark the session cookie `Secure` (when users reach the server over
    /// https, directly or through a proxy).
    #[arg(long)]
    secure_cookies: bool,
    /// An origin besides the server's own whose pages may use the API,
    /// e.g. `https://play.example.org` behind a proxy (repeatable).
    #[arg(long = "allowed-origin")]
    allowed_origins: Vec<String>,
    /// Trust `X-Forwarded-For` for the client's address (behind a proxy
    /// that sets it).
    #[arg(long)]
    trust_forwarded_for: bool,
}

/// Runs the server until Ctrl-C or SIGTERM.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    tracing_subscriber::fmt()
        .with_max_level(tracing::Level::INFO)
        .with_target(false)
        .with_writer(std::io::stderr)
        .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stderr()))
        .init();
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("starting the async runtime")?;
    runtime.block_on(serve(args))?;
    Ok(ExitCode::SUCCESS)
}

async fn serve(args: Args) -> anyhow::Result<()> {
    let database = match &args.database {
        Some(url) => url.parse().context("--database")?,
        None => Database::sqlite_in(&args.data),
    };
    let shown = match &database {
        Database::Sqlite(path) => format!("SQLite {}", path.display()),
        Database::Postgres { .. } => "PostgreSQL".to_owned(),
    };
    let store = shoutan_store::open(&database)
        .await
        .with_context(|| format!("opening {shown}"))?;
    let config = ServerConfig {
        secure_cookies: args.secure_cookies,
        allowed_origins: args.allowed_origins,
        trust_forwarded_for: args.trust_forwarded_for,
        ..ServerConfig::default()
    };
    let app = shoutan_server::start(store, config)
        .await
        .context("restoring the live games")?;
    let listener = tokio::net::TcpListener::bind(args.addr)
        .await
        .with_context(|| format!("listening on {}", args.addr))?;
    let addr = listener.local_addr()?;
    // The first line of output: scripts (and the crash test) read the port.
    println!("shoutan: listening on http://{addr} ({shown})");
    shoutan_server::serve(listener, app, shutdown()).await?;
    Ok(())
}

/// Ctrl-C or SIGTERM.
async fn shutdown() {
    let interrupt = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let terminate = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut term) => {
                term.recv().await;
            }
            Err(_) => std::future::pending().await,
        }
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<()>();
    tokio::select! {
        () = interrupt => {}
        () = terminate => {}
    }
    tracing::info!("shutting down");
}
