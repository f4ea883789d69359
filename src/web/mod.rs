//! The web board: `antichess serve` runs an HTTP server whose pages play
//! the games in a browser, and whose JSON API (protocol.md, "Web") lets a
//! script play too.
//!
//! This layer owns only the web: HTTP ([`net`]: axum on hyper and tokio,
//! with every limit and the checks that keep other sites out), the
//! handlers' request and answer types and routing ([`server`]), the games
//! held in memory by id with a cap and idle eviction ([`store`]) over the
//! database that keeps every game ([`db`]), the machine thinking in the
//! background ([`machine`]), and each family's API, view and stored form
//! ([`chess`], [`view`], [`chess_saved`]; [`checkers`], whose machine is
//! the `checkers` program's own player; [`chessforge`]). The rules, the
//! clocks and the machine's levels come from the game families, the
//! referee's [`Table`] and the engine; the pages in `static/` draw what
//! the server says and never decide a rule themselves.
//!
//! A game family joins by adding its module beside [`chess`] (its game
//! type implementing [`store::Kept`], kept in a [`store::Store`], its
//! machine from [`machine::Machines`] over its position type), a field of
//! [`App`], its routes in [`server::route`], its [`db::Family`], and its
//! page and script in [`assets`]; `static/board.js` draws any square board
//! given a piece drawing function, and `static/api.js` does the requests
//! and follows a game's events.
//!
//! [`Table`]: crate::referee::table::Table

pub mod analysis;
pub mod assets;
pub mod body;
pub mod checkers;
mod checkers_saved;
mod checkers_view;
pub mod chess;
pub mod chess_saved;
pub mod chessforge;
mod chessforge_saved;
mod chessforge_view;
pub mod db;
pub mod machine;
pub mod net;
pub mod server;
pub mod store;
pub mod view;

use std::io::Write;
use std::sync::Arc;
use std::time::Duration;

/// Most games of one family held in memory at once; past it the least
/// recently used is dropped from memory (it stays in the database).
pub const GAME_CAP: usize = 64;

/// A game nobody has asked about for this long is dropped from memory.
pub const IDLE_LIMIT: Duration = Duration::from_secs(2 * 60 * 60);

/// How often idle games are looked for.
const SWEEP_EVERY: Duration = Duration::from_secs(60);

/// Everything the server serves.
pub struct App {
    /// Antichess and chess.
    pub chess: chess::ChessApi,
    /// Checkers (the CS61B game).
    pub checkers: checkers::CheckersApi,
    /// ChessForge (the CS71 puzzle).
    pub chessforge: chessforge::ForgeApi,
    /// Where every game is kept.
    pub db: Arc<db::Db>,
    /// The server's bounds.
    pub limits: net::Limits,
    /// The engine's analysis of a position on request, one at a time.
    pub analyst: analysis::Analyst,
}

impl App {
    /// The games of every family, kept in memory only (`--db :memory:`).
    pub fn new() -> App {
        let db = db::Db::open(":memory:").expect("an in-memory database opens");
        App::with_db(Arc::new(db))
    }

    /// The games of every family, kept in `db`.
    pub fn with_db(db: Arc<db::Db>) -> App {
        App {
            chess: chess::ChessApi::new(GAME_CAP, IDLE_LIMIT, Arc::clone(&db)),
            checkers: checkers::CheckersApi::new(GAME_CAP, IDLE_LIMIT, Arc::clone(&db)),
            chessforge: chessforge::ForgeApi::new(GAME_CAP, IDLE_LIMIT, Arc::clone(&db)),
            db,
            limits: net::Limits::default(),
            analyst: analysis::Analyst::new(),
        }
    }

    fn sweep(&self) {
        self.chess.sweep();
        self.checkers.sweep();
        self.chessforge.sweep();
    }
}

impl Default for App {
    fn default() -> App {
        App::new()
    }
}

/// Where to listen and which page to open.
#[derive(Clone, Debug)]
pub struct ServeOptions {
    /// Address to bind; 127.0.0.1 unless told otherwise.
    pub host: String,
    /// Port; 0 picks a free one.
    pub port: u16,
    /// The page whose address is printed: `chess`, `checkers?game=ID`, ...
    pub page: String,
}

/// `antichess serve`: opens the database (`db`: a path, `:memory:`, or
/// the default path) and serves until the process is killed. The first
/// line on stdout is the page's address, `http://HOST:PORT/PAGE`, with the
/// real port.
pub fn serve(
    options: &ServeOptions,
    db: Option<&str>,
    header_read: Option<Duration>,
) -> Result<(), String> {
    let path = match db {
        Some(path) => path.to_string(),
        None => db::default_path()
            .ok_or("no database path: set HOME or XDG_DATA_HOME, or give --db")?
            .to_string_lossy()
            .into_owned(),
    };
    let db = db::Db::open(&path).map_err(|e| e.to_string())?;
    log::info!("games kept in {path}");
    let mut app = App::with_db(Arc::new(db));
    if let Some(timeout) = header_read {
        app.limits.header_read = timeout;
    }
    serve_app(options, app)
}

/// Serves `app`, whose games may have been opened beforehand (`checkers
/// --display` opens the command line's game and names it in the page).
pub fn serve_app(options: &ServeOptions, app: App) -> Result<(), String> {
    let host = if options.host.contains(':') && !options.host.starts_with('[') {
        format!("[{}]", options.host)
    } else {
        options.host.clone()
    };
    let addr = format!("{host}:{}", options.port);
    let listener =
        std::net::TcpListener::bind(&addr).map_err(|e| format!("cannot listen on {addr}: {e}"))?;
    let bound = listener
        .local_addr()
        .map_err(|e| format!("cannot listen on {addr}: {e}"))?;
    if !bound.ip().is_loopback() {
        eprintln!(
            "antichess serve: listening on {bound}, which is not a loopback address: anyone who can reach this machine can open the board and play"
        );
    }
    let app = Arc::new(app);
    let sweeper = Arc::clone(&app);
    std::thread::Builder::new()
        .name("web sweeper".into())
        .spawn(move || {
            loop {
                std::thread::sleep(SWEEP_EVERY);
                sweeper.sweep();
            }
        })
        .map_err(|e| format!("cannot start the sweeper: {e}"))?;
    let mut out = std::io::stdout();
    writeln!(out, "http://{bound}/{}", options.page)
        .and_then(|()| out.flush())
        .map_err(|e| format!("cannot write the address: {e}"))?;
    log::info!("serving on {bound}");
    net::run(listener, bound, app)
}
