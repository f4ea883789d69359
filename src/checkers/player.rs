//! The machine player: picks moves with the shared search, and decides
//! about draws.
//!
//! Levels: 0 is the strongest and minds the clock (a time budget per
//! move); level N > 0 looks at most N plies ahead (quiescence on jumps
//! beyond) within the same budget, so strength never decreases with N and
//! never passes level 0. Variety comes from the seed: each player adds its
//! own small, fixed pseudo-random term to the evaluation, so two machines
//! with different seeds play different games, and one seed always plays
//! the same one (single-threaded search to a depth it completes is
//! deterministic).
//!
//! The handout has no draw rule, so a machine offers a draw once nothing
//! irreversible has happened for a long while and it is not ahead, and
//! accepts one when it is not ahead or when the game has long stopped
//! progressing; two machines therefore always finish.
//!
//! Two machines in one program are seeded apart, as the handout suggests:
//! the first player plays the seed, the second the seed plus 42
//! ([`machine_seeds`]), wherever the game is played.

use std::sync::atomic::AtomicBool;
use std::time::Duration;

use super::board::{Color, Position};
use super::eval::evaluate;
use super::movegen::Move;
use super::notation::Action;
use super::record::Record;
use crate::rng::{SplitMix, mix};
use crate::search::{Game, Limits, MoveList, Outcome, Score, SearchParams, Searcher};

/// Quiet plies (no man moved, nothing taken) before offering a draw.
const OFFER_AFTER: u32 = 60;

/// Own turns between two offers.
const OFFER_GAP: u32 = 10;

/// Quiet plies after which any offer is accepted.
const ACCEPT_AFTER: u32 = 120;

/// Who plays one colour of a game, as `checkers --level` sets it.
pub use crate::seat::Seat;

impl Seat {
    /// The colour of the first player of a game with `seats` (Black's
    /// first): the person's when one machine plays a person, Black's when
    /// machines (or people) play both sides.
    pub fn first_player(seats: [Seat; 2]) -> Color {
        match seats {
            [Seat::Machine(_), Seat::Human] => Color::White,
            _ => Color::Black,
        }
    }
}

/// How much the second machine player's seed differs from the first's.
pub const SECOND_SEED_OFFSET: u64 = 42;

/// The seeds of Black's and White's machine players in a game seeded with
/// `seed` whose first player has the colour `first`: the first plays
/// `seed`, the second `seed + 42` (wrapping, as Java's `long`).
pub fn machine_seeds(seed: u64, first: Color) -> [u64; 2] {
    let second = seed.wrapping_add(SECOND_SEED_OFFSET);
    match first {
        Color::Black => [seed, second],
        Color::White => [second, seed],
    }
}

/// The default time budget per move.
pub const DEFAULT_MOVE_TIME: Duration = Duration::from_millis(1000);

/// Transposition table size per machine player.
const HASH_MIB: usize = 16;

/// Half-width of the seeded evaluation noise, in hundredths of a man.
const NOISE: u64 = 4;

/// The search needs a few kilobytes of stack per ply.
const SEARCH_STACK: usize = 32 << 20;

/// A position as one machine player sees it: the real evaluation plus that
/// player's fixed noise, a function of the position and the seed only.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Seasoned {
    pos: Position,
    salt: u64,
}

impl Game for Seasoned {
    type Move = Move;

    fn key(&self) -> u64 {
        self.pos.zobrist_key()
    }

    fn generate(&self, moves: &mut MoveList<Move>) {
        self.pos.generate(moves);
    }

    fn play(&self, mv: Move) -> Self {
        Seasoned {
            pos: self.pos.play(mv),
            salt: self.salt,
        }
    }

    fn outcome(&self, moves: &[Move]) -> Option<Outcome> {
        self.pos.outcome(moves)
    }

    fn evaluate(&self) -> Score {
        let noise = (mix(self.pos.zobrist_key() ^ self.salt) % (2 * NOISE + 1)) as Score;
        evaluate(&self.pos) + noise - NOISE as Score
    }

    fn in_check(&self) -> bool {
        false
    }

    fn is_tactical(&self, mv: Move) -> bool {
        self.pos.is_tactical(mv)
    }

    fn tactical_order(&self, mv: Move) -> i32 {
        self.pos.tactical_order(mv)
    }

    fn history_index(&self, mv: Move) -> usize {
        self.pos.history_index(mv)
    }

    fn reversible_plies(&self) -> u32 {
        self.pos.reversible_plies()
    }

    fn search_params(&self) -> SearchParams {
        self.pos.search_params()
    }

    fn pack(mv: Move) -> u16 {
        <Position as Game>::pack(mv)
    }
}

/// A machine player for one side.
pub struct Machine {
    salt: u64,
    level: u32,
    move_time: Duration,
    /// Created at the first move, so a seat that never moves costs nothing.
    searcher: Option<Box<Searcher<Seasoned>>>,
    /// Own turns since this player last offered a draw.
    since_offer: u32,
    /// Score of this player's last search, for its own side.
    last_score: Option<Score>,
}

impl Machine {
    /// A machine playing at `level` (0: strongest), thinking at most
    /// `move_time` a move, its choices varied by `seed`.
    pub fn new(seed: u64, level: u32, move_time: Duration) -> Machine {
        let salt = SplitMix::new(seed).next_u64();
        Machine {
            salt,
            level,
            move_time,
            searcher: None,
            since_offer: OFFER_GAP,
            last_score: None,
        }
    }

    /// Takes this player's search tables away, if it has made them: a
    /// server holding many games lends a few tables to whichever player is
    /// thinking, so its memory does not grow with the games.
    pub fn take_tables(&mut self) -> Option<Box<Searcher<Seasoned>>> {
        self.searcher.take()
    }

    /// Gives this player tables to search with, replacing any it has.
    /// Tables another player used should be cleared first, or its
    /// evaluation noise would leak into this player's choices.
    pub fn give_tables(&mut self, tables: Box<Searcher<Seasoned>>) {
        self.searcher = Some(tables);
    }

    /// The limits of one move's search.
    fn limits(&self) -> Limits {
        let limits = Limits::movetime(self.move_time);
        if self.level > 0 {
            limits.with_depth(self.level)
        } else {
            limits
        }
    }

    /// The search's choice and its score for the side to move; `None` when
    /// there is no legal move.
    ///
    /// `history` holds the keys of the positions before `pos` since the
    /// last irreversible move (repetitions of them count as draws).
    pub fn choose(&mut self, pos: &Position, history: &[u64]) -> Option<(Move, Score)> {
        let root = Seasoned {
            pos: *pos,
            salt: self.salt,
        };
        let limits = self.limits();
        let searcher = match &mut self.searcher {
            Some(s) => s,
            None => match Searcher::new(HASH_MIB) {
                Ok(s) => self.searcher.insert(Box::new(s)),
                Err(e) => {
                    log::error!("no memory for the search ({e}); playing the first move");
                    let first = root.pos.legal_moves().first().copied()?;
                    return Some((first, 0));
                }
            },
        };
        let stop = AtomicBool::new(false);
        // The search wants a deep stack; the caller's thread may not have one.
        let result = std::thread::scope(|scope| {
            std::thread::Builder::new()
                .stack_size(SEARCH_STACK)
                .spawn_scoped(scope, || {
                    searcher.search(&root, history, &limits, &stop, |_| {})
                })
                .ok()
                .and_then(|handle| handle.join().ok())
        })?;
        log::debug!(
            "depth {} score {} nodes {} in {:?}: {:?}",
            result.depth,
            result.score,
            result.nodes,
            result.elapsed,
            result.pv
        );
        result.best_move.map(|m| (m, result.score))
    }

    /// The machine's entry when it is its turn to act in `record`.
    pub fn act(&mut self, record: &Record) -> Action {
        let quiet = record.position().quiet_plies();
        if record.draw_offered() {
            // The offerer is to move: its evaluation is the negation of ours.
            let ours = self
                .last_score
                .unwrap_or_else(|| -evaluate(record.position()));
            return if ours <= 0 || quiet >= ACCEPT_AFTER {
                Action::Accept
            } else {
                Action::Reject
            };
        }
        self.since_offer = self.since_offer.saturating_add(1);
        let Some((mv, score)) = self.choose(record.position(), record.keys()) else {
            // Without a legal move the game is already over; the game loop
            // never asks then.
            return Action::Resign;
        };
        self.last_score = Some(score);
        if record.may_offer_draw()
            && quiet >= OFFER_AFTER
            && self.since_offer > OFFER_GAP
            && score <= 0
        {
            self.since_offer = 0;
            return Action::Draw;
        }
        Action::Move(mv)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_second_machine_plays_the_seed_plus_42() {
        assert_eq!(machine_seeds(7, Color::Black), [7, 49]);
        assert_eq!(machine_seeds(7, Color::White), [49, 7]);
        // Negative seeds come in as Java's long does: the sum wraps.
        assert_eq!(machine_seeds(u64::MAX, Color::Black), [u64::MAX, 41]);
    }

    #[test]
    fn the_first_player_is_the_person_or_black() {
        let (h, m) = (Seat::Human, Seat::Machine(2));
        assert_eq!(Seat::first_player([m, h]), Color::White);
        assert_eq!(Seat::first_player([h, m]), Color::Black);
        assert_eq!(Seat::first_player([m, m]), Color::Black);
    }
}
