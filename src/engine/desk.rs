//! A game in progress and the thinker that plays it, for any game family:
//! the commands that concern the game (`new`, `move`, `play`, `board`,
//! `moves`, `perft`, `go`, UCI `position`) written once over [`Family`].
//!
//! Every command is checked in full before anything changes, so a refused
//! command leaves the game exactly as it was: the referee can resend.

use super::command::{Go, Protocol, Start};
use super::family::{Family, MoveOf, Verdict};
use super::levels::Level;
use super::session::{DEFAULT_CLOCK_MS, EngineError};
use super::think::{Job, Thinker};
use super::{Begun, Control, Out, uci};
use crate::chess::Color;
use crate::search::{Game as _, MoveList};
use std::cmp::Ordering;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

/// What a searching command needs from the session around it.
pub struct Context<'a> {
    /// Where `info` lines go (UCI only).
    pub out: &'a Out,
    /// The protocol in use.
    pub protocol: Protocol,
    /// Strength level.
    pub level: Level,
    /// Seed of the quick levels.
    pub seed: u64,
    /// When the command was read: time limits count from then.
    pub arrived: Instant,
    /// The flag that ends a search or a count, and whom to tell when one
    /// begins.
    pub control: &'a Control<'a>,
}

/// A game in progress.
#[derive(Clone, Debug)]
struct Game<F: Family> {
    /// How it started, kept to replay it under other rules.
    origin: Start,
    state: F,
    /// The moves played since `origin`.
    moves: Vec<MoveOf<F>>,
    /// The colour the engine plays; `None` until `new` says or the first
    /// `move` shows.
    engine: Option<Color>,
    /// White's and black's time left, ms, as last given.
    clocks: [u64; 2],
}

impl<F: Family> Game<F> {
    /// A game from `origin` under `rules`.
    fn load(origin: Start, rules: F::Rules, engine: Option<Color>) -> Result<Self, EngineError> {
        let (state, clocks) = F::load(&origin, rules)?;
        Ok(Game {
            origin,
            state,
            moves: Vec::new(),
            engine,
            clocks: clocks.unwrap_or([DEFAULT_CLOCK_MS; 2]),
        })
    }

    fn play(&mut self, mv: MoveOf<F>) {
        self.state.play(mv);
        self.moves.push(mv);
    }

    /// Reads `text` as a move of the side to move and plays it.
    fn play_text(&mut self, text: &str) -> Result<(), EngineError> {
        if let Some(verdict) = self.state.verdict() {
            return Err(EngineError::GameOver(verdict));
        }
        let mv = self
            .state
            .parse_move(text)
            .map_err(|why| EngineError::Move {
                text: super::command::shown(text),
                why,
            })?;
        self.play(mv);
        Ok(())
    }

    /// The same game under `rules`: its start read again and its moves
    /// replayed, which fails if one of them is not legal there.
    fn under(&self, rules: F::Rules) -> Result<Self, EngineError> {
        let wrap = |why| EngineError::Rules {
            rules: F::rule_set(rules),
            why: Box::new(why),
        };
        let mut game = Game::load(self.origin.clone(), rules, self.engine).map_err(wrap)?;
        for &mv in &self.moves {
            game.play_text(&F::move_text(mv, Protocol::Uci))
                .map_err(wrap)?;
        }
        game.clocks = self.clocks;
        Ok(game)
    }
}

/// The `result` answer for a finished game.
fn result_line(verdict: &Verdict) -> String {
    format!("result {verdict}")
}

/// Compares move texts with runs of digits as numbers, so that checkers
/// moves list as `9-13 9-14 10-14`; chess texts (one-digit ranks) keep
/// their plain order.
fn natural(a: &str, b: &str) -> Ordering {
    fn chunks(s: &str) -> Vec<(bool, u64, &str)> {
        let mut out = Vec::new();
        let mut rest = s;
        while let Some(first) = rest.chars().next() {
            let digit = first.is_ascii_digit();
            let end = rest
                .find(|c: char| c.is_ascii_digit() != digit)
                .unwrap_or(rest.len());
            let (chunk, tail) = rest.split_at(end);
            out.push((digit, chunk.parse().unwrap_or(0), chunk));
            rest = tail;
        }
        out
    }
    let key = |s| {
        chunks(s)
            .into_iter()
            .map(|(digit, n, text)| if digit { (n, "") } else { (0, text) })
            .collect::<Vec<_>>()
    };
    key(a).cmp(&key(b)).then_with(|| a.cmp(b))
}

/// One family's game and thinker.
pub struct Desk<F: Family> {
    game: Game<F>,
    thinker: Thinker<F::Position>,
}

impl<F: Family> Desk<F> {
    /// A desk with a game from the start position under `rules` and a
    /// thinker whose `hash_mib` MiB table is allocated now.
    pub fn new(
        rules: F::Rules,
        engine: Option<Color>,
        hash_mib: usize,
        threads: usize,
    ) -> Result<Self, EngineError> {
        let game = Game::load(Start::Initial, rules, engine)?;
        let mut thinker = Thinker::new(hash_mib)?;
        thinker.set_threads(threads);
        Ok(Desk { game, thinker })
    }

    /// The rules of the game in progress.
    pub fn rules(&self) -> F::Rules {
        self.game.state.rules()
    }

    /// The colour the engine plays, if known.
    pub fn engine(&self) -> Option<Color> {
        self.game.engine
    }

    /// Replays the game under other `rules`; if it cannot be, starts
    /// again from their start position.
    pub fn switch_rules(&mut self, rules: F::Rules) -> Result<(), EngineError> {
        self.game = match self.game.under(rules) {
            Ok(game) => game,
            // Referees and GUIs set the rules and then send the game
            // (`new`, `position`): the old one does not matter.
            Err(e) => {
                log::info!("{e}; starting from the start position");
                Game::load(Start::Initial, rules, self.game.engine)?
            }
        };
        Ok(())
    }

    /// Replaces the table by a cleared one of `mib` MiB; on failure the
    /// old one is kept.
    pub fn resize_hash(&mut self, mib: usize) -> Result<(), EngineError> {
        Ok(self.thinker.resize_hash(mib)?)
    }

    /// Searches with `threads` threads.
    pub fn set_threads(&mut self, threads: usize) {
        self.thinker.set_threads(threads);
    }

    /// `new` (and UCI `ucinewgame`): a new game, and the search forgets
    /// the old one.
    pub fn new_game(&mut self, start: Start, engine: Option<Color>) -> Result<(), EngineError> {
        self.game = Game::load(start, self.rules(), engine)?;
        let params = self.game.state.position().search_params();
        self.thinker.new_game(&params);
        Ok(())
    }

    /// UCI `position`: the new game is built aside and kept only if every
    /// move is legal.
    pub fn set_position(&mut self, start: Start, moves: &[String]) -> Result<(), EngineError> {
        let mut game = Game::load(start, self.rules(), None)?;
        for text in moves {
            game.play_text(text)?;
        }
        self.game = game;
        Ok(())
    }

    /// `play`: a move for the side to move, without searching.
    pub fn play(&mut self, text: &str) -> Result<(), EngineError> {
        self.game.play_text(text)
    }

    /// `board`: the one-line board.
    pub fn board(&self) -> String {
        format!("board {}", self.game.state.board_line(self.game.clocks))
    }

    /// `moves`: the legal moves, sorted; none once the game is over, even
    /// by a rule the position alone does not show (chess's draws), since
    /// `play` would refuse them.
    pub fn moves(&self, protocol: Protocol) -> String {
        let mut moves = MoveList::new();
        if self.game.state.verdict().is_none() {
            self.game.state.position().generate(&mut moves);
        }
        let mut words: Vec<String> = moves.iter().map(|&m| F::move_text(m, protocol)).collect();
        words.sort_by(|a, b| natural(a, b));
        std::iter::once("moves".to_string())
            .chain(words)
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// `perft`: counted like a search runs, so that `stop` and `quit`
    /// end it.
    pub fn perft(&self, depth: u32, ctx: &Context<'_>) -> Result<String, EngineError> {
        ctx.control.begin(Begun::Count);
        let stop = ctx.control.stop;
        perft_until(self.game.state.position(), depth, stop, &F::perft)
            .map(|count| format!("perft {depth} {count}"))
            .ok_or(EngineError::PerftStopped(depth))
    }

    /// `move`: the opponent's move (if any) and the clocks, then the
    /// engine's reply; all or nothing.
    pub fn play_turn(
        &mut self,
        opponent: Option<&str>,
        my_ms: u64,
        their_ms: u64,
        ctx: &Context<'_>,
    ) -> Result<String, EngineError> {
        if let Some(verdict) = self.game.state.verdict() {
            return Ok(result_line(&verdict));
        }
        let mut game = self.game.clone();
        let to_move = game.state.side_to_move();
        match (opponent, game.engine) {
            (Some(_), Some(me)) if me == to_move => return Err(EngineError::MyTurn(me)),
            (None, Some(me)) if me != to_move => return Err(EngineError::NotMyTurn(to_move)),
            _ => {}
        }
        if let Some(text) = opponent {
            game.play_text(text)?;
        }
        let me = game.state.side_to_move();
        game.engine = Some(me);
        game.clocks[me.index()] = my_ms;
        game.clocks[me.flip().index()] = their_ms;
        if let Some(verdict) = game.state.verdict() {
            self.game = game;
            return Ok(result_line(&verdict));
        }
        let go = Go {
            wtime: Some(game.clocks[Color::White.index()]),
            btime: Some(game.clocks[Color::Black.index()]),
            ..Go::default()
        };
        let Some(mv) = self.think(&game, go, ctx) else {
            // Unreachable while the verdict and move generation agree;
            // answer with the game as it stands rather than no move.
            self.game = game;
            return Ok(self.go_over());
        };
        game.play(mv);
        self.game = game;
        Ok(format!("move {}", F::move_text(mv, Protocol::Line)))
    }

    /// What a search answers when there is nothing to search.
    fn go_over(&self) -> String {
        self.game
            .state
            .verdict()
            .map_or_else(|| "result * -".to_string(), |v| result_line(&v))
    }

    fn think(&mut self, game: &Game<F>, go: Go, ctx: &Context<'_>) -> Option<MoveOf<F>> {
        let job = Job {
            position: game.state.position(),
            side: game.state.side_to_move(),
            history: game.state.history(),
            go,
            level: ctx.level,
            seed: ctx.seed,
            arrived: ctx.arrived,
            stop: ctx.control.stop,
        };
        let uci = ctx.protocol == Protocol::Uci;
        // From here on the command is taken in: `isready` need not wait
        // for the move.
        ctx.control.begin(Begun::Search {
            unbounded: job.go.is_unbounded(),
        });
        self.thinker.think(&job, &mut |info| {
            // The line protocol answers each command with one line.
            if uci {
                ctx.out
                    .line(&uci::info_line(info, |m| F::move_text(m, Protocol::Uci)));
            }
        })
    }

    /// `go`: search without moving. A finished game answers `result` in
    /// the line protocol and the null move in UCI.
    pub fn go(&mut self, go: Go, ctx: &Context<'_>) -> String {
        let game = self.game.clone();
        let chosen = if game.state.verdict().is_some() {
            None
        } else {
            self.think(&game, go, ctx)
        };
        match (chosen, ctx.protocol) {
            (Some(mv), protocol) => format!("bestmove {}", F::move_text(mv, protocol)),
            (None, Protocol::Line) => self.go_over(),
            (None, Protocol::Uci) => "bestmove 0000".to_string(),
        }
    }
}

/// Plies above the leaves below which a perft is left to the family's
/// bulk counter: at most a few milliseconds between looks at the flag.
const PERFT_HANDOFF: u32 = 3;

/// Leaf positions `depth` plies below `pos`, or `None` once `stop` is
/// raised. The top of the tree is walked here, looking at the flag at
/// each node; `count` counts the last [`PERFT_HANDOFF`] plies in bulk.
fn perft_until<P: crate::search::Game>(
    pos: &P,
    depth: u32,
    stop: &AtomicBool,
    count: &impl Fn(&P, u32) -> u64,
) -> Option<u64> {
    if depth <= PERFT_HANDOFF {
        return Some(count(pos, depth));
    }
    if stop.load(std::sync::atomic::Ordering::Relaxed) {
        return None;
    }
    let mut moves = MoveList::new();
    pos.generate(&mut moves);
    let mut total = 0;
    for &mv in moves.iter() {
        total += perft_until(&pos.play(mv), depth - 1, stop, count)?;
    }
    Some(total)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn natural_order_reads_numbers_as_numbers() {
        let mut words = vec!["10-14", "9-14", "9-13", "11-15", "1-6-10"];
        words.sort_by(|a, b| natural(a, b));
        assert_eq!(words, ["1-6-10", "9-13", "9-14", "10-14", "11-15"]);
        let mut chess = vec!["g1-f3", "a2-a4", "a2-a3", "b1-c3", "e7-e8n", "e7-e8"];
        let mut plain = chess.clone();
        chess.sort_by(|a, b| natural(a, b));
        plain.sort();
        assert_eq!(chess, plain);
    }
}
