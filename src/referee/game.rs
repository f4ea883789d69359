//! One refereed game: the referee keeps the clocks from wall time, asks
//! the side to move for its move, checks it against our rules and plays
//! it, until the rules end the game, a player commits a fault, or an
//! adjudication the user asked for applies.

use super::clock::Clocks;
use super::player::{Fault, FaultKind, Player, Turn};
use crate::chess::{Color, GameRecord, MoveError, Position, Reason, Status};
use std::fmt;
use std::time::{Duration, Instant};

/// Optional adjudication, off by default; whatever it decides is labelled
/// as adjudicated in results.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Adjudication {
    /// Draw after this many plies.
    pub max_plies: Option<u32>,
    /// Draw when a position occurs this many times (antichess has no
    /// repetition rule of its own).
    pub repetitions: Option<u32>,
    /// End a game the antichess endgame tables settle with their result
    /// (the tables installed by [`crate::chess::endgame::install`]).
    pub tables: bool,
}

/// How a game is to be played.
#[derive(Clone, Copy, Debug)]
pub struct GameSetup {
    /// Where it starts.
    pub start: Position,
    /// White's time, ms.
    pub white_ms: u64,
    /// Black's time, ms.
    pub black_ms: u64,
    /// Added after each move, ms.
    pub increment_ms: u64,
    /// How long past its flag the referee waits for an answer before it
    /// calls the player hung, ms.
    pub grace_ms: u64,
    /// Adjudication rules.
    pub adjudication: Adjudication,
}

/// What adjudication decided.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Adjudicated {
    /// The ply cap was reached.
    PlyCap(u32),
    /// A position occurred this many times.
    Repetition(u32),
    /// The endgame tables settle the position: the side to move wins
    /// (`Some(true)`), loses (`Some(false)`) or neither can force a win.
    Tables(Option<bool>),
}

/// Why a game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Ending {
    /// The rules ended it.
    Rules(Reason),
    /// `side` committed a fault and lost.
    Fault {
        /// Who.
        side: Color,
        /// What happened.
        fault: Fault,
    },
    /// `side` resigned (a person in `play`).
    Resigned(Color),
    /// An adjudication the user asked for.
    Adjudicated(Adjudicated),
}

/// A finished game.
#[derive(Clone, Debug)]
pub struct GameResult {
    /// The winner; `None` for a draw.
    pub winner: Option<Color>,
    /// Why it ended.
    pub ending: Ending,
    /// The moves.
    pub record: GameRecord,
    /// The mover's time left after each move, in milliseconds, where a
    /// referee kept the clocks (empty otherwise): PGN's `%clk`.
    pub clocks: Vec<u64>,
}

impl GameResult {
    /// `1-0`, `0-1` or `1/2-1/2`.
    pub fn score(&self) -> &'static str {
        match self.winner {
            Some(Color::White) => "1-0",
            Some(Color::Black) => "0-1",
            None => "1/2-1/2",
        }
    }

    /// The result from a status of the rules, if the game is over.
    pub fn from_status(status: Status, record: &GameRecord) -> Option<GameResult> {
        let (winner, reason) = match status {
            Status::Ongoing => return None,
            Status::Won { winner, reason } => (Some(winner), reason),
            Status::Drawn(reason) => (None, reason),
        };
        Some(GameResult {
            winner,
            ending: Ending::Rules(reason),
            record: record.clone(),
            clocks: Vec::new(),
        })
    }
}

/// Says who won and why, in words: "white wins: black lost on time".
impl fmt::Display for GameResult {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self.winner {
            Some(w) => write!(f, "{w} wins: ")?,
            None => write!(f, "draw: ")?,
        }
        let anti = self.record.position().rules().is_antichess();
        match &self.ending {
            Ending::Rules(Reason::BareKing) => write!(f, "only the king is left"),
            Ending::Rules(Reason::Checkmate) if anti => {
                write!(f, "checkmated, and in antichess the mated side wins")
            }
            Ending::Rules(Reason::Checkmate) => write!(f, "checkmate"),
            Ending::Rules(Reason::Stalemate) => write!(f, "stalemate"),
            Ending::Rules(Reason::FiftyMoves) => {
                write!(f, "fifty moves without a capture or pawn move")
            }
            Ending::Rules(Reason::Repetition) => write!(f, "the same position three times"),
            Ending::Rules(Reason::InsufficientMaterial) => {
                write!(f, "neither side can checkmate")
            }
            Ending::Fault { side, fault } if fault.kind == FaultKind::Flag => {
                write!(f, "{side} lost on time ({})", fault.detail)
            }
            Ending::Fault { side, fault } => write!(f, "{side}: {fault}"),
            Ending::Resigned(side) => write!(f, "{side} resigned"),
            Ending::Adjudicated(Adjudicated::PlyCap(n)) => {
                write!(f, "adjudicated after {n} plies")
            }
            Ending::Adjudicated(Adjudicated::Repetition(n)) => {
                write!(f, "adjudicated: a position occurred {n} times")
            }
            Ending::Adjudicated(Adjudicated::Tables(_)) => {
                write!(f, "adjudicated by the endgame tables")
            }
        }
    }
}

/// Turns a refused move into the fault that loses the game.
pub fn move_fault(text: &str, error: &MoveError) -> Fault {
    match error {
        MoveError::Syntax(_) => Fault::new(FaultKind::Malformed, error.to_string()),
        _ => Fault::new(FaultKind::Illegal, format!("{}: {error}", text.trim())),
    }
}

/// Plays one game between `white` and `black`.
pub fn play_game(white: &mut dyn Player, black: &mut dyn Player, setup: &GameSetup) -> GameResult {
    let mut clocks = Vec::new();
    let mut result = play_moves(white, black, setup, &mut clocks);
    result.clocks = clocks;
    result
}

/// [`play_game`], noting each mover's time left in `left_after`.
fn play_moves(
    white: &mut dyn Player,
    black: &mut dyn Player,
    setup: &GameSetup,
    left_after: &mut Vec<u64>,
) -> GameResult {
    let mut record = GameRecord::new(setup.start);
    let lost = |side: Color, fault: Fault, record: &GameRecord| GameResult {
        winner: Some(side.flip()),
        ending: Ending::Fault { side, fault },
        record: record.clone(),
        clocks: Vec::new(),
    };
    if let Err(fault) = white.new_game(&setup.start, Color::White) {
        return lost(Color::White, fault, &record);
    }
    if let Err(fault) = black.new_game(&setup.start, Color::Black) {
        return lost(Color::Black, fault, &record);
    }
    let mut clocks = Clocks::new(setup.white_ms, setup.black_ms, setup.increment_ms);
    loop {
        if let Some(result) = GameResult::from_status(record.status(), &record) {
            return result;
        }
        if let Some(adjudicated) = adjudicate(&setup.adjudication, &record) {
            let mover = record.position().side_to_move();
            return GameResult {
                winner: match adjudicated {
                    Adjudicated::Tables(Some(true)) => Some(mover),
                    Adjudicated::Tables(Some(false)) => Some(mover.flip()),
                    _ => None,
                },
                ending: Ending::Adjudicated(adjudicated),
                record,
                clocks: Vec::new(),
            };
        }
        let side = record.position().side_to_move();
        let player: &mut dyn Player = match side {
            Color::White => &mut *white,
            Color::Black => &mut *black,
        };
        let left = clocks.left(side);
        let turn = Turn {
            game: &record,
            my_ms: clocks.left_ms(side),
            their_ms: clocks.left_ms(side.flip()),
            increment_ms: clocks.increment_ms(),
            deadline: Instant::now() + left + Duration::from_millis(setup.grace_ms),
        };
        clocks.start(side);
        let answer = player.choose(&turn);
        let stopped = clocks.stop();
        let text = match answer {
            Ok(text) => text,
            Err(fault) => return lost(side, fault, &record),
        };
        if let Some(s) = stopped
            && s.flagged
        {
            let fault = Fault::late(s.elapsed, left);
            return lost(side, fault, &record);
        }
        match record.position().parse_move(&text) {
            Ok(mv) => {
                record.play(mv);
                left_after.push(clocks.left_ms(side));
            }
            Err(error) => return lost(side, move_fault(&text, &error), &record),
        }
    }
}

/// Whether adjudication ends the game here.
fn adjudicate(rules: &Adjudication, record: &GameRecord) -> Option<Adjudicated> {
    if let Some(cap) = rules.max_plies
        && record.moves().len() >= cap as usize
    {
        return Some(Adjudicated::PlyCap(cap));
    }
    if let Some(n) = rules.repetitions
        && record.repetitions() + 1 >= n as usize
    {
        return Some(Adjudicated::Repetition(n));
    }
    if rules.tables {
        use crate::chess::endgame::{Value, probe};
        return probe(record.position()).map(|value| {
            Adjudicated::Tables(match value {
                Value::Win(_) => Some(true),
                Value::Loss(_) => Some(false),
                Value::Draw => None,
            })
        });
    }
    None
}
