//! The antichess and chess games of the web board (rule sets antichess,
//! antichess1994 and chess): the JSON API under `/api/chess/` that the
//! page and scripts play through (see protocol.md, "Web").
//!
//! Each game is a [`Table`] (the front ends' shared game: record, referee
//! clocks, seats, result) plus names and the machine's search under way.
//! The machine thinks on a thread of its own ([`Machines`]); when it has
//! chosen, it locks the game, plays, and publishes a new version, which
//! wakes the pages waiting for one. Every request is checked in full
//! before anything changes, so a refused one leaves the game as it was.

use super::body::Body;
use super::chess_saved::ClockPair;
use super::db::Db;
use super::machine::{Machines, Request as Think, finish_thinking};
use super::server::{ApiError, Method, Request, Response, acted, game_route};
use super::store::{Guard, Slot, Store};
use super::view;
use crate::chess::{Color, Position, Rules};
use crate::engine::levels::MAX_LEVEL;
use crate::referee::clock;
use crate::referee::player::{Fault, FaultKind};
use crate::referee::table::{Refusal, Seat, Table, Typed};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// Longest a page's long poll is held.
const LONG_POLL: Duration = Duration::from_secs(25);

/// Longest time a side can be given, ms (100 hours).
const MAX_TIME_MS: u64 = 360_000_000;

/// Each side's time when a new game does not say, ms.
const DEFAULT_TIME_MS: u64 = 300_000;

/// The machine's level when a new game does not say.
const DEFAULT_LEVEL: u32 = 3;

/// Longest player name kept.
const MAX_NAME: usize = 40;

/// One game of the web board.
pub struct ChessGame {
    pub(super) table: Table,
    pub(super) names: [Option<String>; 2],
    /// The seed of the levels that choose without a search.
    pub(super) seed: u64,
    /// The stop flag of the machine's search under way.
    thinking: Option<Arc<AtomicBool>>,
    /// Dropped from the store: the machine is not to start again.
    retired: bool,
    /// Both clocks when the game (or the loaded file) began.
    pub(super) start_clocks: ClockPair,
    /// Both clocks just after each move.
    pub(super) clock_log: Vec<ClockPair>,
}

impl ChessGame {
    pub(super) fn new(table: Table, seed: u64) -> ChessGame {
        let clocks = table.clocks();
        let start_clocks = [clocks.left_ms(Color::White), clocks.left_ms(Color::Black)];
        ChessGame {
            table,
            names: [None, None],
            seed,
            thinking: None,
            retired: false,
            start_clocks,
            clock_log: Vec::new(),
        }
    }

    /// Whether the machine is searching.
    pub fn is_thinking(&self) -> bool {
        self.thinking.is_some()
    }

    /// The name shown for `side`.
    pub fn name(&self, side: Color) -> String {
        if let Some(name) = &self.names[side.index()] {
            return name.clone();
        }
        match self.table.seat(side) {
            Seat::Machine(level) => format!("antichess level {level}"),
            Seat::Human if self.table.seat(side.flip()) == Seat::Human => {
                format!("{} player", capitalised(side))
            }
            Seat::Human => "You".to_string(),
        }
    }

    /// Stops the machine's search, if any; its move will not be played.
    fn cancel_thinking(&mut self) {
        if let Some(stop) = self.thinking.take() {
            stop.store(true, Ordering::Relaxed);
        }
    }

    /// Replaces the game, keeping the names.
    fn replace(&mut self, table: Table) {
        self.cancel_thinking();
        let clocks = table.clocks();
        self.start_clocks = [clocks.left_ms(Color::White), clocks.left_ms(Color::Black)];
        self.clock_log.clear();
        self.table = table;
    }

    /// The game leaves memory.
    pub(super) fn retire_game(&mut self) {
        self.cancel_thinking();
        self.table.pause_clock();
        self.retired = true;
    }
}

fn capitalised(side: Color) -> &'static str {
    match side {
        Color::White => "White",
        Color::Black => "Black",
    }
}

/// The chess games and the machine that plays in them.
pub struct ChessApi {
    store: Store<ChessGame>,
    machines: Arc<Machines<Position>>,
}

impl ChessApi {
    /// At most `cap` games, each dropped after `idle` without a request.
    pub fn new(cap: usize, idle: Duration, db: Arc<Db>) -> ChessApi {
        ChessApi {
            store: Store::new(cap, idle, db),
            machines: Arc::new(Machines::new(Machines::<Position>::default_size())),
        }
    }

    /// Drops the games idle too long.
    pub fn sweep(&self) {
        self.store.sweep();
    }

    /// What a wait for the game's next version watches, and for how long
    /// at most: the long poll's time, or until a running clock could fall.
    pub fn waiting(&self, id: &str) -> Option<(tokio::sync::watch::Receiver<u64>, Duration)> {
        let slot = find(self, id).ok()?;
        let game = slot.lock();
        let clocks = game.table.clocks();
        let wait = clocks
            .running()
            .map_or(LONG_POLL, |side| {
                clocks.left(side) + Duration::from_millis(20)
            })
            .min(LONG_POLL);
        Some((slot.watch(), wait))
    }
}

type Handle = Arc<Slot<ChessGame>>;

/// Starts the clock of the side to move and, if the machine is to move,
/// its search; its move is played when it comes, and the next machine
/// move (a game of two machines) started from there.
fn kick(slot: &Handle, game: &mut Guard<'_, ChessGame>, machines: &Arc<Machines<Position>>) {
    // The clocks just after a move, before the next side's starts.
    game.sync_clock_log();
    if game.retired || game.thinking.is_some() {
        return;
    }
    let Some(seat) = game.table.seat_to_move() else {
        return;
    };
    game.table.start_clock();
    let Seat::Machine(level) = seat else {
        return;
    };
    let side = game.table.side();
    let clocks = game.table.clocks();
    let request = Think {
        position: *game.table.position(),
        side,
        history: game.table.record().history().to_vec(),
        level,
        seed: game.seed,
        clocks: [clocks.left_ms(Color::White), clocks.left_ms(Color::Black)],
    };
    let stop = Arc::new(AtomicBool::new(false));
    game.thinking = Some(Arc::clone(&stop));
    let (slot_again, machines_again, mine) =
        (Arc::clone(slot), Arc::clone(machines), Arc::clone(&stop));
    let done = move |chosen| {
        let mut game = slot_again.lock();
        if !finish_thinking(&mut game.thinking, &mine) {
            return;
        }
        machine_moved(&mut game, side, chosen);
        game.changed();
        kick(&slot_again, &mut game, &machines_again);
    };
    if let Err(e) = machines.think_in_background(request, stop, done) {
        game.thinking = None;
        game.table.lose(
            side,
            Fault::new(FaultKind::Crash, format!("cannot think: {e}")),
        );
        game.changed();
    }
}

fn machine_moved(game: &mut ChessGame, side: Color, chosen: Option<crate::chess::Move>) {
    let refused = match chosen {
        Some(mv) => game.table.play(mv).err(),
        None => Some(Refusal::GameOver),
    };
    if let Some(why) = refused
        && game.table.is_playing()
    {
        let fault = Fault::new(
            FaultKind::Crash,
            format!("the machine found no move ({why})"),
        );
        game.table.lose(side, fault);
    }
}

/// Answers a request under `/api/chess/`.
pub fn api(api: &ChessApi, req: &Request, rest: &[&str]) -> Result<Response, ApiError> {
    match (req.method, rest) {
        (Method::Post, ["games"]) => new_game(api, req),
        (Method::Get, ["games", id, "file"]) => file(&find(api, id)?, req),
        (Method::Get, ["games", id, "pgn"]) => {
            let slot = find(api, id)?;
            let game = slot.lock();
            let text = game.pgn();
            Ok(Response::download(
                "application/x-chess-pgn",
                &format!("antichess-{}.pgn", slot.id()),
                text,
            ))
        }
        (Method::Post, ["games", id, action]) => {
            let slot = find(api, id)?;
            let body = Body(req.json_body()?);
            let doing = |game: &mut Guard<'_, ChessGame>| {
                flag(game);
                act(game, action, &body)
            };
            acted(&slot, doing, |slot, game| kick(slot, game, &api.machines))
        }
        _ => game_route(req, rest, |id| find(api, id)),
    }
}

/// The game `id`; one just read back from the database starts its clock
/// (and the machine, if it is to move) again.
fn find(api: &ChessApi, id: &str) -> Result<Handle, ApiError> {
    api.store
        .find(id, |slot, game| kick(slot, game, &api.machines))
}

/// `GET /api/chess/games/ID/file[?ply=N]`: the 2002 game file of the
/// position after N moves (default: now); play goes on.
fn file(slot: &Handle, req: &Request) -> Result<Response, ApiError> {
    let game = slot.lock();
    let plies = game.table.record().moves().len();
    let text = match req.query_value("ply") {
        None => game.table.game_file().write("\n"),
        Some(v) => {
            let ply = v
                .parse::<usize>()
                .ok()
                .filter(|&p| p <= plies)
                .ok_or_else(|| {
                    ApiError::bad_field(format!("'ply' must be a number from 0 to {plies}"))
                })?;
            game.file_at(ply).unwrap_or_default()
        }
    };
    Ok(Response::download(
        "text/plain; charset=utf-8",
        "antichess-game.txt",
        text,
    ))
}

/// Ends the game if the side to move has run out of time.
pub(super) fn flag(game: &mut Guard<'_, ChessGame>) {
    if game.table.check_flag() {
        game.cancel_thinking();
        game.changed();
    }
}

/// Reads a seat: `human` or `level:N`.
fn seat(body: &Body, name: &str, default: Seat) -> Result<Seat, ApiError> {
    let levels = format!(" with N from 0 (strongest) to {MAX_LEVEL}");
    body.seat(name, default, MAX_LEVEL, &levels)
}

fn rules(body: &Body) -> Result<Rules, ApiError> {
    match body.text("rules")? {
        None => Ok(Rules::Antichess),
        Some(word) => word
            .parse()
            .map_err(|e| ApiError::bad_field(format!("{e}"))),
    }
}

fn name(body: &Body, field: &str) -> Result<Option<String>, ApiError> {
    Ok(body
        .text(field)?
        .map(|n| n.trim().chars().take(MAX_NAME).collect::<String>())
        .filter(|n| !n.is_empty()))
}

/// `POST /api/chess/games`: a new game.
fn new_game(api: &ChessApi, req: &Request) -> Result<Response, ApiError> {
    let body = Body(req.json_body()?);
    let rules = rules(&body)?;
    let seats = [
        seat(&body, "white", Seat::Human)?,
        seat(&body, "black", Seat::Machine(DEFAULT_LEVEL))?,
    ];
    let ms = body
        .number("time_ms", MAX_TIME_MS)?
        .unwrap_or(DEFAULT_TIME_MS);
    let table = match body.text("file")? {
        Some(text) => Table::from_file(text, rules, seats).map_err(bad_file)?,
        None => Table::new(Position::startpos(rules), ms, ms, seats),
    };
    let names = [name(&body, "white_name")?, name(&body, "black_name")?];
    let seed = body.seed()?;
    let slot = api.store.insert(|id| {
        let mut game = ChessGame::new(table, seed.unwrap_or(id.short_seed()));
        game.names = names;
        game
    });
    let mut game = slot.lock();
    kick(&slot, &mut game, &api.machines);
    Ok(Response::json_status(201, &view::state(&game)))
}

fn bad_file(e: crate::chess::FormatError) -> ApiError {
    ApiError::new(
        422,
        "bad_file",
        format!("the game file cannot be read: {e}"),
    )
}

fn game_over(game: &ChessGame) -> ApiError {
    let why = match game.table.phase() {
        crate::referee::table::Phase::Over(result) => format!("the game is over ({result})"),
        _ => "the game was ended".to_string(),
    };
    ApiError::new(409, "game_over", format!("{why}: start a new game"))
}

/// `POST /api/chess/games/ID/ACTION`: everything that changes a game.
fn act(game: &mut Guard<'_, ChessGame>, action: &str, body: &Body) -> Result<(), ApiError> {
    match action {
        "move" => play(game, body.need_text("move")?),
        "undo" => {
            if game.table.record().moves().is_empty() {
                return Err(ApiError::new(
                    409,
                    "nothing_to_undo",
                    "there is no move to take back",
                ));
            }
            game.cancel_thinking();
            game.table.undo();
            Ok(())
        }
        "time" => {
            let side = body
                .color("side")?
                .ok_or_else(|| ApiError::bad_field("'side' is missing"))?;
            let ms = body
                .number("ms", MAX_TIME_MS)?
                .ok_or_else(|| ApiError::bad_field("'ms' is missing"))?;
            if !game.table.is_playing() {
                return Err(game_over(game));
            }
            game.table.set_time(side, ms);
            if side == game.table.side() {
                // A search planned on the old clock starts again on the new.
                game.cancel_thinking();
            }
            log::info!(
                "{side}'s clock set to {}",
                clock::show(Duration::from_millis(ms))
            );
            Ok(())
        }
        "name" => {
            let side = body
                .color("side")?
                .ok_or_else(|| ApiError::bad_field("'side' is missing"))?;
            let name = name(body, "name")?
                .ok_or_else(|| ApiError::bad_field("'name' must be a non-empty string"))?;
            game.names[side.index()] = Some(name);
            Ok(())
        }
        "resign" => {
            let side = match body.color("side")? {
                Some(side) => side,
                None => human_side(game)?,
            };
            game.cancel_thinking();
            game.table.resign(side).map_err(|_| game_over(game))
        }
        "end" => {
            game.cancel_thinking();
            game.table.end();
            Ok(())
        }
        "load" => load(game, body),
        _ => Err(ApiError::new(
            404,
            "not_found",
            format!(
                "'{}' is not an action of a game",
                action.chars().take(40).collect::<String>()
            ),
        )),
    }
}

/// The side a person plays: the one to move if both are people.
fn human_side(game: &ChessGame) -> Result<Color, ApiError> {
    let side = game.table.side();
    [side, side.flip()]
        .into_iter()
        .find(|&s| game.table.seat(s) == Seat::Human)
        .ok_or_else(|| ApiError::bad_field("both sides are machines: say which side resigns"))
}

/// A person's move.
fn play(game: &mut Guard<'_, ChessGame>, text: &str) -> Result<(), ApiError> {
    let typed = game.table.read_move(text).map_err(|why| match why {
        Refusal::GameOver => game_over(game),
        Refusal::Illegal(e) => ApiError::new(422, "illegal_move", e.to_string()),
    })?;
    let side = game.table.side();
    if let Seat::Machine(_) = game.table.seat(side) {
        return Err(ApiError::new(
            409,
            "not_your_turn",
            format!("{side} is played by the machine: wait for its move"),
        ));
    }
    let mv = match typed {
        Typed::Move(mv) => mv,
        Typed::ChoosePromotion { from, to } => {
            return Err(ApiError::new(
                422,
                "promotion_needed",
                format!(
                    "which piece should the pawn become? add its letter: {from}-{to}q, r, b or n"
                ),
            ));
        }
    };
    game.table.play(mv).map_err(|why| match why {
        Refusal::GameOver => game_over(game),
        Refusal::Illegal(e) => ApiError::new(422, "illegal_move", e.to_string()),
    })
}

/// `load`: a game file replaces the game, with the seats given (or the
/// current ones); a file that does not read changes nothing.
fn load(game: &mut Guard<'_, ChessGame>, body: &Body) -> Result<(), ApiError> {
    let text = body.need_text("file")?;
    let seats = [
        seat(body, "white", game.table.seat(Color::White))?,
        seat(body, "black", game.table.seat(Color::Black))?,
    ];
    let rules = match body.text("rules")? {
        Some(_) => rules(body)?,
        None => game.table.rules(),
    };
    let table = Table::from_file(text, rules, seats).map_err(bad_file)?;
    game.replace(table);
    Ok(())
}
