//! The chess-board games: antichess (both MIT 6.170 handouts) and
//! standard chess, on one magic-bitboard move generator.
//!
//! [`Position`] holds the board and the rule state; [`Rules`] selects the
//! rule set at run time; the generator hands out legal moves grouped by
//! piece; [`GameRecord`] adds the history that repetition needs.

pub mod antichess_weights;
pub mod attacks;
pub mod endgame;
pub mod eval;
mod eval_chess;
mod format;
mod game;
mod locked;
mod movegen;
mod moves;
pub mod net;
mod notation;
mod perft;
mod position;
pub mod quiet_order;
mod record;
mod rules;
mod see;
pub mod slow;
mod types;
pub mod weights;

pub use format::{FileStyle, FormatError, GameFile, Loc};
pub use moves::{HandoutMove, Move, PieceMoves};
pub use notation::MoveError;
pub use perft::{divide, perft};
pub use position::{Castling, Position, Setup, SetupError};
pub use record::GameRecord;
pub use rules::{Reason, Rules, Status, UnknownRules};
pub use types::{Bitboard, Color, Piece, PieceKind, Square};

/// Calls `visit` with every position along seeded random games, `games`
/// of each rule set, each of up to `max_plies` plies (fewer where it
/// ends): the positions the generator's and the keys' tests compare on.
#[cfg(test)]
pub(crate) fn random_walks(
    seed: u64,
    games: usize,
    max_plies: usize,
    mut visit: impl FnMut(&Position),
) {
    let mut rng = crate::rng::Xoshiro::new(seed);
    for rules in [Rules::Antichess, Rules::Antichess1994, Rules::Chess] {
        for _ in 0..games {
            let mut pos = Position::startpos(rules);
            for _ in 0..rng.below(max_plies) {
                visit(&pos);
                let mut moves = crate::search::MoveList::new();
                pos.legal_moves(&mut moves);
                let Some(mv) = rng.pick(&moves) else { break };
                pos = pos.play(mv);
            }
        }
    }
}
