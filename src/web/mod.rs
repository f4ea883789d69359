//! The web board: `antichess serve` runs an HTTP server whose pages play
//! the games in a browser, and whose JSON API (protocol.md, "Web") lets a
//! script play too.
//!
//! This layer owns only the web: HTTP ([`http`]) and routing ([`server`]), the games
//! held by id with a cap and idle eviction ([`store`]), the machine
//! thinking in the background ([`machine`]), and each family's API and
//! view ([`chess`] and [`view`]; [`checkers`], whose machine is the
//! `checkers` program's own player; [`chessforge`]). The rules, the clocks and the machine's
//! levels come from the game families, the referee's [`Table`] and the
//! engine; the pages in `static/` draw what the server says and never
//! decide a rule themselves.
//!
//! A game family joins by adding its module beside [`chess`] (its game
//! type implementing [`store::Retire`], kept in a [`store::Store`], its
//! machine from [`machine::Machines`] over its position type), a field of
//! [`App`], its routes in [`server::route`], and its page and script in
//! [`assets`]; `static/board.js` draws any square board given a piece
//! drawing function, and `static/api.js` does the requests and long polls.
//!
//! [`Table`]: crate::referee::table::Table

pub mod analysis;
pub mod assets;
pub mod body;
pub mod checkers;
mod checkers_view;
pub mod chess;
pub mod chessforge;
mod chessforge_view;
pub mod http;
pub mod machine;
pub mod server;
pub mod store;
pub mod view;

use std::io::Write;
use std::sync::Arc;
use std::time::Duration;

/// Most games of one family held at once; past it the least recently
/// used is dropped.
pub const GAME_CAP: usize = 64;

/// A game nobody has asked about for this long is dropped.
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
    /// The engine's analysis of a position on request, one at a time.
    pub analyst: analysis::Analyst,
}

impl App {
    /// The games of every family, empty.
    pub fn new() -> App {
        App {
            chess: chess::ChessApi::new(GAME_CAP, IDLE_LIMIT),
            checkers: checkers::CheckersApi::new(GAME_CAP, IDLE_LIMIT),
            chessforge: chessforge::ForgeApi::new(GAME_CAP, IDLE_LIMIT),
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

/// Serves until the process is killed. The first line on stdout is the
/// page's address, `http://HOST:PORT/PAGE`, with the real port.
pub fn serve(options: &ServeOptions) -> Result<(), String> {
    serve_app(options, App::new())
}

/// Serves `app`, whose games may have been opened beforehand (`checkers
/// --display` opens the command line's game and names it in the page).
pub fn serve_app(options: &ServeOptions, app: App) -> Result<(), String> {
    let host = if options.host.contains(':') && !options.host.starts_with('[') {
        format!("[{}]", options.host)
    } else {
        options.host.clone()
    };
    let (server, bound) = server::bind(&format!("{host}:{}", options.port))?;
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
    server::run(server, bound, app);
    Ok(())
}
