//! The machine player: picks moves with the shared search, and decides
//! about draws.
//!
//! Levels: 0 is the strongest and minds the clock (a time budget per
//! move); level N > 0 looks at most N plies ahead within the same budget,
//! so strength never decreases with N and never passes level 0. The handout
//! has no draw rule, so a machine offers a draw once nothing irreversible
//! has happened for a long while and it is not ahead, and accepts one when
//! it is not ahead or when the game has long stopped progressing; two
//! machines therefore always finish.

use std::time::Duration;

use super::eval::evaluate;
use super::movegen::Move;
use super::notation::Action;
use super::record::Record;
use super::rng::Rng;
use crate::search::Score;

/// Quiet plies (no man moved, nothing taken) before offering a draw.
const OFFER_AFTER: u32 = 60;

/// Own turns between two offers.
const OFFER_GAP: u32 = 10;

/// Quiet plies after which any offer is accepted.
const ACCEPT_AFTER: u32 = 120;

/// The default time budget per move at level 0.
pub const DEFAULT_MOVE_TIME: Duration = Duration::from_millis(1000);

/// A machine player for one side.
pub struct Machine {
    rng: Rng,
    level: u32,
    move_time: Duration,
    /// Own turns since this player last offered a draw.
    since_offer: u32,
}

impl Machine {
    /// A machine playing at `level`, its random choices drawn from `seed`.
    pub fn new(seed: u64, level: u32, move_time: Duration) -> Machine {
        Machine {
            rng: Rng::new(seed),
            level,
            move_time,
            since_offer: OFFER_GAP,
        }
    }

    /// The search's choice and its score for the side to move.
    fn think(&mut self, record: &Record) -> Option<(Move, Score)> {
        // TODO(search): drive the shared search (src/search) once it lands
        // on main: Limits::depth(level) (none at level 0) with
        // Limits::movetime(self.move_time), history = record.keys(), and
        // the seeded noise below for variety. Until then: the best move by
        // static evaluation after one ply, ties broken at random.
        let _ = (self.level, self.move_time);
        let pos = record.position();
        let moves = pos.legal_moves();
        let scored: Vec<(Move, Score)> = moves
            .iter()
            .map(|&m| (m, -evaluate(&pos.play(m))))
            .collect();
        let best = scored.iter().map(|&(_, s)| s).max()?;
        let ties: Vec<_> = scored.iter().filter(|&&(_, s)| s == best).collect();
        ties.get(self.rng.below(ties.len())).map(|&&ms| ms)
    }

    /// The machine's entry when it is its turn to act in `record`.
    pub fn act(&mut self, record: &Record) -> Action {
        let quiet = record.position().quiet_plies();
        if record.draw_offered() {
            // The offerer is to move: its score is the negation of ours.
            let ours = -evaluate(record.position());
            return if ours <= 0 || quiet >= ACCEPT_AFTER {
                Action::Accept
            } else {
                Action::Reject
            };
        }
        self.since_offer = self.since_offer.saturating_add(1);
        let Some((mv, score)) = self.think(record) else {
            // No legal move means the game is already over; never reached
            // through the game loop.
            return Action::Resign;
        };
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
