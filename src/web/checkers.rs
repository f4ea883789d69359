//! The checkers games of the web board (the CS61B game): the JSON API
//! under `/api/checkers/` that the page and scripts play through (see
//! protocol.md, "Web", Checkers).
//!
//! A game is the checkers [`Record`] (the handout's referee: whose turn,
//! draw offers, resignations, the result) with a seat per colour, a person
//! or the `checkers` program's own machine player at a look-ahead level.
//! The machine thinks on a thread of its own, so no request waits for it;
//! when it has chosen it locks the game, acts, and publishes a new
//! version. Its search tables are lent from a small pool ([`Tables`]), so
//! memory and the searches under way stay bounded whatever the number of
//! games. Every request is checked in full before anything changes.

use super::body::Body;
use super::checkers_view as view;
use super::db::Db;
use super::machine::finish_thinking;
use super::server::{ApiError, Method, Request, Response, acted, game_route};
use super::store::{GameId, Guard, Slot, Store};
use crate::checkers::notation::capture_compulsory;
use crate::checkers::notation::parse_path;
use crate::checkers::player::{DEFAULT_MOVE_TIME, Machine, Seasoned, machine_seeds};
use crate::checkers::{Action, Color, PlayError, Record, read_transcript, write_transcript};
use crate::search::Searcher;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::time::Duration;

/// Longest a page's long poll is held.
const LONG_POLL: Duration = Duration::from_secs(25);

/// Highest look-ahead level accepted (the search stops on its time budget
/// long before such depths anyway).
pub const MAX_LEVEL: u32 = 40;

/// Search tables of each thinking machine, MiB (as the `checkers`
/// program's own machine player).
const TABLE_MIB: usize = 16;

/// Who plays one colour: a person at the page, or the machine player.
pub use crate::checkers::Seat;

/// A game to open, as the command line or a new-game request sets it up.
#[derive(Clone, Debug)]
pub struct Setup {
    /// The game so far (`--init`), usually the start.
    pub record: Record,
    /// Black's seat and White's.
    pub seats: [Seat; 2],
    /// The seeds of Black's and White's machine players.
    pub seeds: [u64; 2],
    /// The seed shown on the page (the command line's `--seed`).
    pub seed: u64,
    /// The machine's budget per move.
    pub move_time: Duration,
    /// Where to write the transcript when the game ends (`--transcript`).
    pub transcript: Option<PathBuf>,
}

impl Setup {
    /// A game from the start with `seats`, the machines seeded from `seed`
    /// as on the command line: a machine playing a person is the second
    /// player (`seed + 42`); of two machines Black is the first.
    pub fn new(seats: [Seat; 2], seed: u64) -> Setup {
        let seeds = machine_seeds(seed, Seat::first_player(seats));
        Setup {
            record: Record::new(),
            seats,
            seeds,
            seed,
            move_time: DEFAULT_MOVE_TIME,
            transcript: None,
        }
    }
}

/// One checkers game of the web board.
pub struct CheckersGame {
    pub(super) record: Record,
    pub(super) seats: [Seat; 2],
    pub(super) seed: u64,
    /// The machine players, by colour; taken out while one thinks.
    machines: [Option<Machine>; 2],
    /// The stop flag of the machine's search under way.
    thinking: Option<Arc<AtomicBool>>,
    /// Dropped from the store: the machine is not to start again.
    retired: bool,
    transcript: Option<PathBuf>,
    /// Whether the finished game's transcript has been written.
    written: bool,
    /// The machine's budget per move.
    pub(super) move_time: Duration,
}

impl CheckersGame {
    pub(super) fn new(setup: Setup) -> CheckersGame {
        let machine = |side: Color| match setup.seats[side.index()] {
            Seat::Human => None,
            Seat::Machine(level) => Some(Machine::new(
                setup.seeds[side.index()],
                level,
                setup.move_time,
            )),
        };
        CheckersGame {
            machines: [machine(Color::Black), machine(Color::White)],
            record: setup.record,
            seats: setup.seats,
            seed: setup.seed,
            thinking: None,
            retired: false,
            transcript: setup.transcript,
            written: false,
            move_time: setup.move_time,
        }
    }

    /// Whether the machine is choosing its action.
    pub fn is_thinking(&self) -> bool {
        self.thinking.is_some()
    }

    /// The seat of `side`.
    pub fn seat(&self, side: Color) -> Seat {
        self.seats[side.index()]
    }

    /// Writes the transcript of a finished game where `--transcript` asked,
    /// once.
    fn write_transcript(&mut self) {
        let Some(path) = &self.transcript else {
            return;
        };
        if self.written || self.record.result().is_none() {
            return;
        }
        self.written = true;
        match crate::referee::write_atomically(path, &write_transcript(&self.record)) {
            Ok(()) => log::info!("transcript written to {}", path.display()),
            Err(e) => log::error!("{e}"),
        }
    }
}

impl CheckersGame {
    /// The game leaves memory.
    pub(super) fn retire_game(&mut self) {
        if let Some(stop) = self.thinking.take() {
            stop.store(true, Ordering::Relaxed);
        }
        self.retired = true;
    }
}

/// Search tables lent to thinking machines: at most a fixed number, so
/// that memory and the searches running at once stay bounded. A machine
/// gets back the tables it used last if nobody else has had them since
/// (a game then replays as the `checkers` program plays it); others are
/// cleared first.
pub struct Tables {
    pool: Mutex<TablePool>,
    returned: Condvar,
    most: usize,
}

struct TablePool {
    /// Idle tables with the machine that used them last.
    idle: Vec<(u64, Box<Searcher<Seasoned>>)>,
    made: usize,
}

/// Why no tables were lent.
enum NoTables {
    /// The search was called off while waiting.
    Stopped,
    /// The tables could not be allocated.
    NoMemory,
}

impl Tables {
    fn new(most: usize) -> Tables {
        Tables {
            pool: Mutex::new(TablePool {
                idle: Vec::new(),
                made: 0,
            }),
            returned: Condvar::new(),
            most: most.max(1),
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, TablePool> {
        self.pool.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Tables for the machine `owner`, waiting for some to come back if
    /// all are lent.
    fn borrow(&self, owner: u64, stop: &AtomicBool) -> Result<Box<Searcher<Seasoned>>, NoTables> {
        let mut pool = self.lock();
        loop {
            if stop.load(Ordering::Relaxed) {
                return Err(NoTables::Stopped);
            }
            if let Some(i) = pool.idle.iter().position(|(o, _)| *o == owner) {
                return Ok(pool.idle.swap_remove(i).1);
            }
            if pool.made < self.most {
                pool.made += 1;
                drop(pool);
                return Searcher::new(TABLE_MIB).map(Box::new).map_err(|e| {
                    log::error!("cannot make search tables: {e}");
                    self.lock().made -= 1;
                    NoTables::NoMemory
                });
            }
            if !pool.idle.is_empty() {
                // The tables idle longest: least likely to be wanted back.
                let (_, mut tables) = pool.idle.remove(0);
                drop(pool);
                tables.clear();
                return Ok(tables);
            }
            pool = match self.returned.wait_timeout(pool, Duration::from_millis(100)) {
                Ok((pool, _)) => pool,
                Err(poisoned) => poisoned.into_inner().0,
            };
        }
    }

    fn give_back(&self, owner: u64, tables: Box<Searcher<Seasoned>>) {
        self.lock().idle.push((owner, tables));
        self.returned.notify_one();
    }

    /// The machine's action in `record`, searched with lent tables;
    /// `None` if `stop` was raised before any were free.
    fn think(
        &self,
        owner: u64,
        machine: &mut Machine,
        record: &Record,
        stop: &AtomicBool,
    ) -> Option<Action> {
        let lent = match self.borrow(owner, stop) {
            Ok(tables) => {
                machine.give_tables(tables);
                true
            }
            Err(NoTables::Stopped) => return None,
            // The machine makes do: it tries for tables of its own, and
            // plays its first legal move without.
            Err(NoTables::NoMemory) => false,
        };
        let action = machine.act(record);
        if let Some(tables) = machine.take_tables()
            && lent
        {
            self.give_back(owner, tables);
        }
        Some(action)
    }
}

/// The checkers games and the machine that plays in them.
pub struct CheckersApi {
    store: Store<CheckersGame>,
    tables: Arc<Tables>,
}

impl CheckersApi {
    /// At most `cap` games, each dropped after `idle` without a request.
    pub fn new(cap: usize, idle: Duration, db: Arc<Db>) -> CheckersApi {
        // One search per core at once; at least two tables, so that the
        // two machines of one game each keep their own.
        let cores = std::thread::available_parallelism().map_or(2, usize::from);
        CheckersApi {
            store: Store::new(cap, idle, db),
            tables: Arc::new(Tables::new(cores.max(2))),
        }
    }

    /// Drops the games idle too long.
    pub fn sweep(&self) {
        self.store.sweep();
    }

    /// What a wait for the game's next version watches, and for how long
    /// at most.
    pub fn waiting(&self, id: &str) -> Option<(tokio::sync::watch::Receiver<u64>, Duration)> {
        let slot = find(self, id).ok()?;
        Some((slot.watch(), LONG_POLL))
    }

    /// Opens a game as `setup` says (the machine starts thinking if it is
    /// to act); its id.
    pub fn open(&self, setup: Setup) -> GameId {
        let slot = self.store.insert(|_| CheckersGame::new(setup));
        let mut game = slot.lock();
        kick(&slot, &mut game, &self.tables);
        slot.id()
    }
}

type Handle = Arc<Slot<CheckersGame>>;

/// If a machine is to act, starts its search on a thread of its own; its
/// action is taken when it comes, and the next machine started from there
/// (a game of two machines).
fn kick(slot: &Handle, game: &mut Guard<'_, CheckersGame>, tables: &Arc<Tables>) {
    if game.retired || game.thinking.is_some() || game.record.result().is_some() {
        return;
    }
    let side = game.record.side_to_act();
    let Some(mut machine) = game.machines[side.index()].take() else {
        return;
    };
    let record = game.record.clone();
    let owner = game.id().seed().wrapping_add(side.index() as u64);
    let stop = Arc::new(AtomicBool::new(false));
    game.thinking = Some(Arc::clone(&stop));
    let (slot_again, tables_again) = (Arc::clone(slot), Arc::clone(tables));
    let spawned = std::thread::Builder::new()
        .name("web checkers machine".into())
        .spawn(move || {
            let action = tables_again.think(owner, &mut machine, &record, &stop);
            let mut game = slot_again.lock();
            if !finish_thinking(&mut game.thinking, &stop) {
                return;
            }
            game.machines[side.index()] = Some(machine);
            if let Some(action) = action {
                machine_acted(&mut game.record, action);
            }
            game.write_transcript();
            game.changed();
            kick(&slot_again, &mut game, &tables_again);
        });
    if let Err(e) = spawned {
        log::error!("cannot start the machine: {e}");
        game.thinking = None;
        game.record.forfeit();
        game.write_transcript();
        game.changed();
    }
}

/// Takes the machine's action; one the referee refuses forfeits the game,
/// as the `checkers` program treats a player that breaks the rules.
fn machine_acted(record: &mut Record, action: Action) {
    if let Err(e) = record.apply(action) {
        log::error!("the machine's `{action}` was refused ({e}); it forfeits");
        record.forfeit();
    }
}

/// Answers a request under `/api/checkers/`.
pub fn api(api: &CheckersApi, req: &Request, rest: &[&str]) -> Result<Response, ApiError> {
    match (req.method, rest) {
        (Method::Post, ["games"]) => new_game(api, req),
        (Method::Get, ["games", id, "transcript"]) => {
            let text = write_transcript(&find(api, id)?.lock().record);
            Ok(Response::download(
                "text/plain; charset=utf-8",
                "checkers-transcript.txt",
                text,
            ))
        }
        (Method::Post, ["games", id, action]) => {
            let slot = find(api, id)?;
            let body = Body(req.json_body()?);
            let word = match *action {
                "move" => body.need_text("move")?.trim(),
                "draw" | "accept" | "reject" | "resign" => action,
                _ => {
                    return Err(ApiError::new(
                        404,
                        "not_found",
                        format!(
                            "'{}' is not an action of a checkers game",
                            action.chars().take(40).collect::<String>()
                        ),
                    ));
                }
            };
            let doing = |game: &mut Guard<'_, CheckersGame>| {
                act(game, word)?;
                game.write_transcript();
                Ok(())
            };
            acted(&slot, doing, |slot, game| kick(slot, game, &api.tables))
        }
        _ => game_route(req, rest, |id| find(api, id)),
    }
}

/// The game `id`; one just read back from the database starts its
/// machine again if it is to act.
fn find(api: &CheckersApi, id: &str) -> Result<Handle, ApiError> {
    api.store
        .find(id, |slot, game| kick(slot, game, &api.tables))
}

/// Reads a seat: `human` or `level:N`.
fn seat(body: &Body, name: &str, default: Seat) -> Result<Seat, ApiError> {
    let levels = format!(
        ", N the plies the machine looks ahead (0: the strongest, on its time budget; at most {MAX_LEVEL})"
    );
    body.seat(name, default, MAX_LEVEL, &levels)
}

/// `POST /api/checkers/games`: a new game.
fn new_game(api: &CheckersApi, req: &Request) -> Result<Response, ApiError> {
    let body = Body(req.json_body()?);
    let seats = [
        seat(&body, "black", Seat::Human)?,
        seat(&body, "white", Seat::Machine(0))?,
    ];
    let seed = body.seed()?;
    let record = match body.text("init")? {
        None => Record::new(),
        Some(text) => read_transcript(text).map_err(|e| {
            ApiError::new(
                422,
                "bad_transcript",
                format!("the transcript cannot be read: {e}"),
            )
        })?,
    };
    let slot = api.store.insert(|id| {
        let mut setup = Setup::new(seats, seed.unwrap_or(id.short_seed()));
        setup.record = record;
        CheckersGame::new(setup)
    });
    let mut game = slot.lock();
    kick(&slot, &mut game, &api.tables);
    Ok(Response::json_status(201, &view::state(&game)))
}

/// A person's entry: a move in the handout's notation or a special move.
fn act(game: &mut Guard<'_, CheckersGame>, text: &str) -> Result<(), ApiError> {
    let record = &game.record;
    if let Some(score) = record.result() {
        return Err(ApiError::new(
            409,
            "game_over",
            format!("the game is over ({score}): start a new game"),
        ));
    }
    let side = record.side_to_act();
    if let Seat::Machine(_) = game.seat(side) {
        return Err(ApiError::new(
            409,
            "not_your_turn",
            format!(
                "{} is played by the machine: wait for its move",
                side.name()
            ),
        ));
    }
    let action = record
        .parse_allowed(text)
        .map_err(|e| refusal(record, text, e))?;
    game.record
        .apply(action)
        .map_err(|e| refusal(&game.record, text, e))
}

/// The answer to an entry the referee refuses, with what to do instead.
fn refusal(record: &Record, text: &str, e: PlayError) -> ApiError {
    let shown: String = text.chars().take(40).collect();
    match e {
        PlayError::Unreadable(_) => ApiError::new(
            422,
            "unreadable_move",
            format!(
                "`{shown}` is neither a move nor a special move: write a move with every square \
                 it lands on (11-15, 18-11-4), or draw, accept, reject, resign"
            ),
        ),
        PlayError::Illegal(_) => ApiError::new(
            422,
            "illegal_move",
            format!(
                "`{shown}` is not a legal move here ({})",
                why_illegal(record, text)
            ),
        ),
        PlayError::GameOver => ApiError::new(409, "game_over", e.to_string()),
        PlayError::DrawPending => ApiError::new(409, "draw_pending", e.to_string()),
        PlayError::NoDrawOffered => ApiError::new(409, "no_draw_offered", e.to_string()),
        PlayError::OfferAfterReject => ApiError::new(409, "offer_after_reject", e.to_string()),
    }
}

/// What the legal moves say about an illegal one: a compulsory jump, or
/// what the piece it starts from may do.
fn why_illegal(record: &Record, text: &str) -> String {
    let pos = record.position();
    let legal = pos.legal_moves();
    let list = |moves: &mut dyn Iterator<Item = &crate::checkers::Move>| {
        moves
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join(", ")
    };
    if pos.must_capture() {
        return capture_compulsory(legal.iter());
    }
    let side = pos.side_to_move();
    let from = parse_path(text).ok().and_then(|path| path.first().copied());
    let Some(from) = from else {
        return format!("the legal moves are {}", list(&mut legal.iter()));
    };
    match pos.piece_at(from) {
        Some(piece) if piece.color == side => {
            let kind = if piece.king { "king" } else { "man" };
            let mut own = legal.iter().filter(|m| m.from() == from).peekable();
            if own.peek().is_none() {
                format!("the {kind} on {from} cannot move")
            } else {
                format!("the {kind} on {from} may play {}", list(&mut own))
            }
        }
        _ => format!("there is no {} piece on {from}", side.name()),
    }
}
