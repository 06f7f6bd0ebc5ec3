//! `shoutan serve`: the weiqi server with the web client, over embedded
//! SQLite (created on first start in `--data`) or PostgreSQL.

use std::net::SocketAddr;
use std::process::ExitCode;
use std::time::Duration;

use anyhow::Context;
use shoutan_server::ServerConfig;
use shoutan_server::accounts::password::PasswordCost;
use shoutan_server::accounts::rate_limit::Limit;
use shoutan_server::net::client::AddressRange;
use shoutan_server::net::file_limit::raise_file_limit;
use shoutan_store::Database;

/// Arguments.
#[derive(clap::Args)]
pub struct Args {
    /// Address to listen on (port 0: any free port, printed at start).
    #[arg(long, default_value = "127.0.0.1:8080")]
    addr: SocketAddr,
    #[command(flatten)]
    location: crate::database::Location,
    /// Mark the session cookie `Secure` (when users reach the server over
    /// https, directly or through a proxy).
    #[arg(long)]
    secure_cookies: bool,
    /// The public origin players' browsers reach the server at, e.g.
    /// `https://play.example.org` behind a proxy (repeatable; also
    /// `--allowed-origin`). Only its pages may change anything or open
    /// WebSockets. Default: the `--addr` forms, with `localhost` for a
    /// loopback address.
    #[arg(long = "origin", visible_alias = "allowed-origin", value_parser = origin)]
    origins: Vec<String>,
    /// A reverse proxy whose `X-Forwarded-For` is believed: an address or
    /// a network (`127.0.0.1`, `10.0.0.0/8`; repeatable). The client is
    /// the rightmost forwarded address that is not a trusted proxy.
    #[arg(long = "trusted-proxy")]
    trusted_proxies: Vec<AddressRange>,
    /// A client address or network that may read `/metrics` (repeatable;
    /// default: loopback only, `127.0.0.0/8` and `::1`).
    #[arg(long = "metrics-from")]
    metrics_from: Vec<AddressRange>,
    /// Connections one client address may hold at once, HTTP and
    /// WebSocket together (trusted proxies are not capped).
    #[arg(
        long,
        default_value_t = ServerConfig::default().max_connections_per_address,
        value_parser = positive
    )]
    max_connections_per_address: usize,
    /// Seconds a client has to send a request's headers.
    #[arg(
        long,
        default_value_t = ServerConfig::default().header_timeout.as_secs(),
        value_parser = clap::value_parser!(u64).range(1..)
    )]
    header_timeout: u64,
    /// For load benchmarks only: the cheapest password hash and no limit
    /// on registrations and logins per address.
    #[arg(long, hide = true)]
    benchmark_accounts: bool,
    /// This instance's id among several serving one PostgreSQL database
    /// (lower-case letters, digits, `_`; default: the host's name and the
    /// port). Instances find each other through the database: its
    /// LISTEN/NOTIFY is their bus. Unused on SQLite.
    #[arg(long)]
    instance_id: Option<String>,
    /// A KataGo network file (`.bin.gz`) for the computer, the reviews,
    /// position judgements and dead stones, instead of the built-in one.
    #[arg(long, value_name = "FILE")]
    model: Option<std::path::PathBuf>,
}

/// A count of at least one.
fn positive(text: &str) -> Result<usize, String> {
    match text.parse::<usize>() {
        Ok(n) if n > 0 => Ok(n),
        _ => Err(format!("{text:?} is not a positive number")),
    }
}

/// An origin as a browser sends it: `http(s)://host[:port]`, nothing more.
fn origin(text: &str) -> Result<String, String> {
    let rest = text
        .strip_prefix("https://")
        .or_else(|| text.strip_prefix("http://"))
        .ok_or_else(|| format!("{text:?} is no origin: it starts with https:// or http://"))?;
    let host = rest.strip_suffix('/').unwrap_or(rest);
    if host.is_empty()
        || !host
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | ':' | '[' | ']'))
    {
        return Err(format!(
            "{text:?} is no origin: a scheme, a host and a port at most (no path)"
        ));
    }
    Ok(text.trim_end_matches('/').to_owned())
}

/// Runs the server until Ctrl-C or SIGTERM.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    tracing_subscriber::fmt()
        .with_max_level(tracing::Level::INFO)
        .with_target(false)
        .with_writer(std::io::stderr)
        .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stderr()))
        .init();
    match raise_file_limit() {
        Ok(limit) => tracing::info!(
            "open files: up to {} (hard limit {})",
            limit.soft,
            limit.hard
        ),
        Err(e) => tracing::warn!("the open-file limit could not be raised: {e}"),
    }
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("starting the async runtime")?;
    runtime.block_on(serve(args))?;
    Ok(ExitCode::SUCCESS)
}

/// Connections the kernel holds until they are accepted (it caps this at
/// `net.core.somaxconn`, 4,096 on current Linux). After a restart every
/// client reconnects at once — 4,400 sockets in `bench event` — and a
/// connection the backlog has no room for is dropped, for its client to
/// try again a second or three later (the README's `bench event` says
/// what Tokio's default of 1,024 cost in the round of a restart).
const BACKLOG: u32 = 8192;

/// A listening socket on `addr`, with room for a crowd reconnecting.
fn listen(addr: SocketAddr) -> std::io::Result<tokio::net::TcpListener> {
    let socket = if addr.is_ipv4() {
        tokio::net::TcpSocket::new_v4()?
    } else {
        tokio::net::TcpSocket::new_v6()?
    };
    // As Tokio's own bind: a restarted server takes its port back at once.
    socket.set_reuseaddr(true)?;
    socket.bind(addr)?;
    socket.listen(BACKLOG)
}

async fn serve(args: Args) -> anyhow::Result<()> {
    // The network before anything else: a bad file stops the start here.
    let network = crate::model::network(args.model.as_deref())?;
    let database = args.location.database()?;
    // One process per SQLite database: a second one is refused before it
    // touches anything. The lock goes with the process, however it ends.
    let _only_one = match &database {
        Database::Sqlite(path) => Some(crate::database::lock_sqlite(path)?),
        Database::Postgres { .. } => None,
    };
    // Bound first, so that the port is known (it names the instance) and
    // clients wait in the backlog while the games are rebuilt.
    let listener = listen(args.addr).with_context(|| format!("listening on {}", args.addr))?;
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
    let mut config = ServerConfig {
        instance,
        network,
        secure_cookies: args.secure_cookies,
        origins: args.origins,
        trusted_proxies: args.trusted_proxies.into_iter().collect(),
        max_connections_per_address: args.max_connections_per_address,
        header_timeout: Duration::from_secs(args.header_timeout),
        ..ServerConfig::default()
    };
    if !args.metrics_from.is_empty() {
        config.metrics_from = args.metrics_from.into_iter().collect();
    }
    if args.benchmark_accounts {
        let unlimited = Limit::new(u32::MAX, Duration::from_millis(1));
        config.password_cost = PasswordCost::TESTING;
        config.register_per_address = unlimited;
        config.login_per_address = unlimited;
    }
    let app = shoutan_server::start(store, config)
        .await
        .context("restoring the live games")?;
    // The first line of output: scripts (and the crash test) read the port.
    println!("shoutan: listening on http://{addr} ({shown})");
    let origins = shoutan_server::net::origins::Origins::for_listener(&app.config.origins, addr);
    tracing::info!(
        "pages accepted from {} (--origin to name the public one)",
        origins.list().join(", ")
    );
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
