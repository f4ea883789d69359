//! The ChessForge games of the web board (the CS71 puzzle): the JSON API
//! under `/api/chessforge/` (see protocol.md, "Web", ChessForge).
//!
//! A game is a [`Board`] and the seeded source that deals the struck
//! tiles' new symbols, exactly as `chessforge play --seed` deals them, so
//! the same seed and strikes give the same game in the terminal and in
//! the browser. A hint runs the solver on a copy of the board outside the
//! game's lock: the page can still be answered meanwhile, and a strike
//! made in between simply makes the hint stale and dropped.

use super::body::Body;
use super::chessforge_view as view;
use super::db::Db;
use super::server::{ApiError, Method, Request, Response, acted, game_route};
use super::store::{GameId, Slot, Store};
use crate::chessforge::policy::new_game;
use crate::chessforge::solver::{Budget, Candidate, Solver};
use crate::chessforge::{Board, RuleSet, Square, StrikeError, Symbol, Xoshiro};
use std::sync::Arc;
use std::time::Duration;

/// The solver's budget for a hint when none is set, as `chessforge play`.
pub const DEFAULT_BUDGET: Budget = Budget::Playouts(2000);

/// How many of the solver's best strikes a hint keeps.
const HINT_CANDIDATES: usize = 3;

/// A game to open.
#[derive(Clone, Copy, Debug)]
pub struct Setup {
    /// The game's seed: the board and every replacement.
    pub seed: u64,
    /// Standard or extra rules.
    pub rules: RuleSet,
    /// The solver's budget per hint.
    pub budget: Budget,
}

/// One strike as it happened.
#[derive(Clone, Copy, Debug)]
pub struct Struck {
    /// Where.
    pub square: Square,
    /// The tile's symbol before the strike (its rule governs the next).
    pub symbol: Symbol,
    /// The tile's hits before the strike.
    pub hits: u8,
    /// The new symbol; `None` when the tile was removed.
    pub became: Option<Symbol>,
}

/// The solver's advice for one position.
#[derive(Clone, Debug)]
pub struct Hint {
    /// The board it was asked for.
    pub board: Board,
    /// The best strikes, best first.
    pub best: Vec<Candidate>,
}

/// One ChessForge game of the web board.
pub struct ForgeGame {
    pub(super) board: Board,
    pub(super) seed: u64,
    pub(super) history: Vec<Struck>,
    pub(super) hint: Option<Hint>,
    deal: Xoshiro,
    /// The solver's own random source, as the terminal's.
    solver_rng: Xoshiro,
    pub(super) budget: Budget,
    pub(super) rules: RuleSet,
}

impl ForgeGame {
    pub(super) fn new(setup: Setup) -> ForgeGame {
        let (board, deal) = new_game(setup.seed, setup.rules);
        ForgeGame {
            board,
            seed: setup.seed,
            history: Vec::new(),
            hint: None,
            deal,
            solver_rng: Xoshiro::new(!setup.seed),
            budget: setup.budget,
            rules: setup.rules,
        }
    }

    /// The hint for the board as it is, if one was asked for.
    pub fn current_hint(&self) -> Option<&Hint> {
        self.hint.as_ref().filter(|h| h.board == self.board)
    }

    /// Strikes `sq`, keeping a record of what happened.
    pub(super) fn strike(&mut self, sq: Square) -> Result<(), StrikeError> {
        let before = self.board.tile(sq);
        let next = self.board.strike(sq, &mut self.deal)?;
        if let Some(tile) = before {
            self.history.push(Struck {
                square: sq,
                symbol: tile.symbol(),
                hits: tile.hits(),
                became: next.tile(sq).map(|t| t.symbol()),
            });
        }
        self.board = next;
        self.hint = None;
        Ok(())
    }
}

/// The ChessForge games.
pub struct ForgeApi {
    store: Store<ForgeGame>,
}

impl ForgeApi {
    /// At most `cap` games, each dropped after `idle` without a request.
    pub fn new(cap: usize, idle: Duration, db: Arc<Db>) -> ForgeApi {
        ForgeApi {
            store: Store::new(cap, idle, db),
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
        Some((slot.watch(), Duration::from_secs(25)))
    }

    /// Opens a game as `setup` says; its id.
    pub fn open(&self, setup: Setup) -> GameId {
        self.store.insert(|_| ForgeGame::new(setup)).id()
    }
}

type Handle = Arc<Slot<ForgeGame>>;

/// Answers a request under `/api/chessforge/`.
pub fn api(api: &ForgeApi, req: &Request, rest: &[&str]) -> Result<Response, ApiError> {
    match (req.method, rest) {
        (Method::Post, ["games"]) => new_game_request(api, req),
        (Method::Post, ["games", id, "strike"]) => {
            let slot = find(api, id)?;
            let body = Body(req.json_body()?);
            let text = body.need_text("square")?;
            let sq: Square = text.trim().parse().map_err(|e| {
                ApiError::bad_field(format!("'square' must name a square a1 to f6: {e}"))
            })?;
            acted(&slot, |game| game.strike(sq).map_err(refusal), |_, _| {})
        }
        (Method::Post, ["games", id, "hint"]) => {
            let slot = find(api, id)?;
            // Nothing is read from the body, but a malformed one is refused.
            req.json_body()?;
            hint(&slot)
        }
        (Method::Post, ["games", _, action]) => Err(ApiError::new(
            404,
            "not_found",
            format!(
                "'{}' is not an action of a ChessForge game",
                action.chars().take(40).collect::<String>()
            ),
        )),
        _ => game_route(req, rest, |id| find(api, id)),
    }
}

fn find(api: &ForgeApi, id: &str) -> Result<Handle, ApiError> {
    // A puzzle has no clock or machine to start again.
    api.store.find(id, |_, _| {})
}

fn refusal(e: StrikeError) -> ApiError {
    match e {
        StrikeError::GameOver => ApiError::new(409, "game_over", format!("{e}: start a new game")),
        _ => ApiError::new(422, "illegal_strike", e.to_string()),
    }
}

/// `POST /api/chessforge/games`: a new game.
fn new_game_request(api: &ForgeApi, req: &Request) -> Result<Response, ApiError> {
    let body = Body(req.json_body()?);
    let rules = match body.text("rules")? {
        None => RuleSet::Standard,
        Some(word) if word.eq_ignore_ascii_case("standard") => RuleSet::Standard,
        Some(word) if word.eq_ignore_ascii_case("extra") => RuleSet::Extra,
        Some(_) => {
            return Err(ApiError::bad_field(
                "'rules' must be \"standard\" or \"extra\"",
            ));
        }
    };
    let seed = body.seed()?;
    let slot = api.store.insert(|id| {
        ForgeGame::new(Setup {
            seed: seed.unwrap_or(id.short_seed()),
            rules,
            budget: DEFAULT_BUDGET,
        })
    });
    let game = slot.lock();
    Ok(Response::json_status(201, &view::state(&game)))
}

/// `POST /api/chessforge/games/ID/hint`: the solver's best strikes. It
/// thinks on a copy, without the game's lock.
fn hint(slot: &Handle) -> Result<Response, ApiError> {
    let (board, mut rng, budget) = {
        let game = slot.lock();
        if game.current_hint().is_some() {
            return Ok(Response::json(&view::state(&game)));
        }
        if game.board.is_over() {
            return Err(ApiError::new(
                409,
                "game_over",
                "no strike is left, so there is nothing to advise: start a new game",
            ));
        }
        (game.board, game.solver_rng.clone(), game.budget)
    };
    let mut best = Solver::new(budget).analyse(&board, &mut rng);
    best.truncate(HINT_CANDIDATES);
    let mut game = slot.lock();
    if game.board == board {
        game.solver_rng = rng;
        game.hint = Some(Hint { board, best });
        game.changed();
    }
    Ok(Response::json(&view::state(&game)))
}
