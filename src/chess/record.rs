//! A game in progress: the current position and the keys of the positions
//! before it, which repetition needs and a single position cannot know.

use super::moves::Move;
use super::position::Position;
use super::rules::{Reason, Rules, Status};

/// The positions of a game so far.
#[derive(Clone, Debug)]
pub struct GameRecord {
    start: Position,
    position: Position,
    moves: Vec<Move>,
    keys: Vec<u64>,
}

impl GameRecord {
    /// A game starting from `start`.
    pub fn new(start: Position) -> GameRecord {
        GameRecord {
            start,
            position: start,
            moves: Vec::new(),
            keys: Vec::new(),
        }
    }

    /// The position the game started from.
    pub fn start(&self) -> &Position {
        &self.start
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        &self.position
    }

    /// The moves played so far.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// Keys of the earlier positions, oldest first (not the current one).
    pub fn history(&self) -> &[u64] {
        &self.keys
    }

    /// Plays a move that must be legal in the current position.
    pub fn play(&mut self, mv: Move) {
        self.keys.push(self.position.key());
        self.moves.push(mv);
        self.position = self.position.play(mv);
    }

    /// Takes back the last move; `false` if there is none.
    pub fn undo(&mut self) -> bool {
        if self.moves.pop().is_none() {
            return false;
        }
        self.keys.pop();
        let mut pos = self.start;
        for &m in &self.moves {
            pos = pos.play(m);
        }
        self.position = pos;
        true
    }

    /// How many times the current position occurred before, counting only
    /// positions since the last irreversible move.
    pub fn repetitions(&self) -> usize {
        let key = self.position.key();
        let window = self.position.halfmove_clock() as usize;
        self.keys
            .iter()
            .rev()
            .take(window)
            .filter(|&&k| k == key)
            .count()
    }

    /// The game's status, with threefold repetition for chess.
    pub fn status(&self) -> Status {
        let status = self.position.status();
        if status == Status::Ongoing
            && self.position.rules() == Rules::Chess
            && self.repetitions() >= 2
        {
            return Status::Drawn(Reason::Repetition);
        }
        status
    }
}
