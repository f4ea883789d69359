//! The game families the line protocol plays: chess (under the three
//! chess rule sets) and checkers. Each family says, through [`Family`],
//! how its moves and boards are read and written and when its games end;
//! the commands themselves ([`desk`](super::desk)) are written once over
//! that trait.

mod checkers;
mod chess;

pub use self::checkers::{CheckersGame, CheckersMoveError};
pub use self::chess::ChessGame;

use super::command::{Protocol, Start};
use super::levels::Quick;
use super::session::EngineError;
use crate::chess::{Color, Rules};
use crate::search::Game;
use std::fmt;

/// A rule set of either family, as `set rules` names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RuleSet {
    /// One of the chess rule sets.
    Chess(Rules),
    /// The CS61B handout's checkers.
    Checkers,
}

impl RuleSet {
    /// The names `set rules` accepts, for error messages.
    pub const NAMES: &'static str = "antichess, antichess1994, chess or checkers";
}

impl std::str::FromStr for RuleSet {
    type Err = ();

    fn from_str(word: &str) -> Result<RuleSet, ()> {
        if word.eq_ignore_ascii_case("checkers") {
            return Ok(RuleSet::Checkers);
        }
        word.parse().map(RuleSet::Chess).map_err(|_| ())
    }
}

impl fmt::Display for RuleSet {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            RuleSet::Chess(rules) => rules.fmt(f),
            RuleSet::Checkers => f.write_str("checkers"),
        }
    }
}

/// How a finished game ended: the score and the reason word of a
/// `result` answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Verdict {
    /// `1-0`, `0-1` or `1/2-1/2`: the first player of the family (White in
    /// chess, Black in checkers) scores first.
    pub score: String,
    /// Why it ended, one word (`checkmate`, `no-moves`, ...).
    pub reason: &'static str,
}

impl fmt::Display for Verdict {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "{} {}", self.score, self.reason)
    }
}

/// Why a move text was refused, in either family.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveWhy {
    /// A chess move.
    Chess(crate::chess::MoveError),
    /// A checkers move.
    Checkers(CheckersMoveError),
}

impl fmt::Display for MoveWhy {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            MoveWhy::Chess(e) => e.fmt(f),
            MoveWhy::Checkers(e) => e.fmt(f),
        }
    }
}

/// The move type of a family.
pub type MoveOf<F> = <<F as Family>::Position as Game>::Move;

/// A game of one family in progress, as far as the protocol needs it:
/// the position and the keys before it, the rules, and the text forms.
pub trait Family: Clone + Sized {
    /// The position the search and the quick levels play.
    type Position: Quick;
    /// The rule sets within the family (`()` when there is only one).
    type Rules: Copy + fmt::Debug;

    /// A game from `start` under `rules`, and the clocks if the board
    /// gave them.
    fn load(start: &Start, rules: Self::Rules) -> Result<(Self, Option<[u64; 2]>), EngineError>;

    /// The rules of this game.
    fn rules(&self) -> Self::Rules;

    /// The rule set as `set rules` names it.
    fn rule_set(rules: Self::Rules) -> RuleSet;

    /// The current position.
    fn position(&self) -> &Self::Position;

    /// Keys of the earlier positions, oldest first (not the current one).
    fn history(&self) -> &[u64];

    /// The side to move, in the protocol's colour words.
    fn side_to_move(&self) -> Color;

    /// The legal move `text` names.
    fn parse_move(&self, text: &str) -> Result<MoveOf<Self>, MoveWhy>;

    /// Plays a legal move.
    fn play(&mut self, mv: MoveOf<Self>);

    /// How the game ended, if it has.
    fn verdict(&self) -> Option<Verdict>;

    /// `mv` as `protocol` writes it.
    fn move_text(mv: MoveOf<Self>, protocol: Protocol) -> String;

    /// The one-line board of `board`, with White's and Black's clocks.
    fn board_line(&self, clocks: [u64; 2]) -> String;

    /// Leaf positions `depth` plies below `position`: the family's bulk
    /// counter.
    fn perft(position: &Self::Position, depth: u32) -> u64;
}
