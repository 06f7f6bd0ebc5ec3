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
    /// This instance's id among several serving one PostgreSQL database
    /// (lower-case letters, digits, `_`; default: the host's name and the
    /// port). Instances find each other through the database: its
    /// LISTEN/NOTIFY is their bus. Unused on SQLite.
    #[arg(long)]
    instance_id: Option<String>,
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
    // One process per SQLite database: a second one is refused before it
    // touches anything. The lock goes with the process, however it ends.
    let _only_one = match &database {
        Database::Sqlite(path) => Some(lock_sqlite(path)?),
        Database::Postgres { .. } => None,
    };
    // Bound first, so that the port is known (it names the instance) and
    // clients wait in the backlog while the games are rebuilt.
    let listener = tokio::net::TcpListener::bind(args.addr)
        .await
        .with_context(|| format!("listening on {}", args.addr))?;
    let addr = listener.local_addr()?;
    let instance = match args.instance_id {
        Some(id) => id,
        None => shoutan_server::cluster::default_instance_id(addr.port()),
    };
    shoutan_server::cluster::check_instance_id(&instance).context("--instance-id")?;
    let shown = match &database {
        Database::Sqlite(path) => format!("SQLite {}", path.display()),
        Database::Postgres { .. } => format!("PostgreSQL, instance {instance}"),
    };
    let store = shoutan_store::open(&database)
        .await
        .with_context(|| format!("opening {shown}"))?;
    let config = ServerConfig {
        instance,
        secure_cookies: args.secure_cookies,
        allowed_origins: args.allowed_origins,
        trust_forwarded_for: args.trust_forwarded_for,
        ..ServerConfig::default()
    };
    let app = shoutan_server::start(store, config)
        .await
        .context("restoring the live games")?;
    // The first line of output: scripts (and the crash test) read the port.
    println!("shoutan: listening on http://{addr} ({shown})");
    shoutan_server::serve(listener, app, shutdown()).await?;
    Ok(())
}

/// Takes the lock that makes this process the only server of the SQLite
/// database at `path` (a file beside it, created with its directory).
fn lock_sqlite(path: &std::path::Path) -> anyhow::Result<std::fs::File> {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    }
    let lock_path = path.with_extension("db.lock");
    let file = std::fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&lock_path)
        .with_context(|| format!("opening {}", lock_path.display()))?;
    match file.try_lock() {
        Ok(()) => Ok(file),
        Err(std::fs::TryLockError::WouldBlock) => Err(anyhow::anyhow!(
            "{} is in use by another shoutan server: one process per SQLite database (to run several instances, use PostgreSQL: --database postgres://…)",
            path.display()
        )),
        Err(std::fs::TryLockError::Error(e)) => {
            Err(e).with_context(|| format!("locking {}", lock_path.display()))
        }
    }
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
