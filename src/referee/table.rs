//! A game as a front end runs it, one event at a time: who sits at each
//! side (a person, or the machine at a level), the record, the referee's
//! clocks, and whether the game goes on or how it ended.
//!
//! The terminal (`antichess play`) and the web board (`antichess serve`)
//! both keep their games in a [`Table`]; they differ only in how they ask
//! the machine for its move and how they show the game. Every rule of the
//! front ends lives here once: a person's move is checked with a reason,
//! a move stops the mover's clock and loses on time if it ran out, undo
//! goes back to a person's turn, and a loaded game file replaces the game
//! only if it reads.

use super::clock::Clocks;
use super::game::{Ending, GameResult};
use super::player::{Fault, FaultKind};
use crate::chess::{
    Color, FileStyle, FormatError, GameFile, GameRecord, Move, MoveError, Position, Rules,
};
use std::fmt;

pub use crate::seat::Seat;

/// Where the game stands.
#[derive(Clone, Debug)]
pub enum Phase {
    /// Moves are being played.
    Playing,
    /// The game is over with a result.
    Over(Box<GameResult>),
    /// Someone ended it without a result.
    Ended,
}

/// A move as a person typed it, read against the position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Typed {
    /// A legal move, ready to play.
    Move(Move),
    /// A pawn reaching the last rank in chess, typed without the piece it
    /// becomes: the person has to choose.
    ChoosePromotion {
        /// From.
        from: crate::chess::Square,
        /// To.
        to: crate::chess::Square,
    },
}

/// Why a move was not played; the game is unchanged.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// The game is over (or was ended).
    GameOver,
    /// The move is not legal here, and why.
    Illegal(MoveError),
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            Refusal::GameOver => f.write_str("the game is over: start a new one"),
            Refusal::Illegal(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for Refusal {}

/// One game and its seats.
#[derive(Clone, Debug)]
pub struct Table {
    seats: [Seat; 2],
    record: GameRecord,
    clocks: Clocks,
    phase: Phase,
}

impl Table {
    /// A game from `start` with the given clocks; it may be over at once
    /// (a loaded file with no move left).
    pub fn new(start: Position, white_ms: u64, black_ms: u64, seats: [Seat; 2]) -> Table {
        let mut table = Table {
            seats,
            record: GameRecord::new(start),
            clocks: Clocks::new(white_ms, black_ms, 0),
            phase: Phase::Playing,
        };
        table.check_status();
        table
    }

    /// A game from a game file of either handout, under `rules`; a damaged
    /// file is refused with the reason and its line.
    pub fn from_file(text: &str, rules: Rules, seats: [Seat; 2]) -> Result<Table, FormatError> {
        let file = GameFile::parse(text, rules)?;
        Ok(Table::new(
            file.position,
            file.white_ms,
            file.black_ms,
            seats,
        ))
    }

    /// The game as a 2002 game file (the current position and clocks).
    pub fn game_file(&self) -> GameFile {
        GameFile {
            position: *self.record.position(),
            white_ms: self.clocks.left_ms(Color::White),
            black_ms: self.clocks.left_ms(Color::Black),
            style: FileStyle::Y2002,
        }
    }

    /// The rule set.
    pub fn rules(&self) -> Rules {
        self.record.position().rules()
    }

    /// The moves so far.
    pub fn record(&self) -> &GameRecord {
        &self.record
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        self.record.position()
    }

    /// The clocks.
    pub fn clocks(&self) -> &Clocks {
        &self.clocks
    }

    /// Where the game stands.
    pub fn phase(&self) -> &Phase {
        &self.phase
    }

    /// Whether moves are being played.
    pub fn is_playing(&self) -> bool {
        matches!(self.phase, Phase::Playing)
    }

    /// Who sits at each side, white first.
    pub fn seats(&self) -> [Seat; 2] {
        self.seats
    }

    /// Who sits at `side`.
    pub fn seat(&self, side: Color) -> Seat {
        self.seats[side.index()]
    }

    /// Changes who sits where; the game goes on.
    pub fn set_seats(&mut self, seats: [Seat; 2]) {
        self.seats = seats;
    }

    /// The side to move.
    pub fn side(&self) -> Color {
        self.record.position().side_to_move()
    }

    /// Who is to move, while the game goes on.
    pub fn seat_to_move(&self) -> Option<Seat> {
        self.is_playing().then(|| self.seat(self.side()))
    }

    /// Starts the clock of the side to move, if the game goes on and it is
    /// not running already.
    pub fn start_clock(&mut self) {
        let side = self.side();
        if self.is_playing() && self.clocks.running() != Some(side) {
            self.clocks.start(side);
        }
    }

    /// Stops the clocks without a move (the game waits, as in setup mode).
    pub fn pause_clock(&mut self) {
        self.clocks.pause();
    }

    /// Ends the game on time if the side to move has none left; whether
    /// it did. A front end calls this whenever it looks at the game, so a
    /// flag falls even if nobody moves.
    pub fn check_flag(&mut self) -> bool {
        let side = self.side();
        if self.is_playing() && self.clocks.flagged(side) {
            self.lose(side, Fault::new(FaultKind::Flag, "the clock ran out"));
            return true;
        }
        false
    }

    /// Reads a move typed by a person: `e2-e4`, `e2e4`, `e7-e8n`. In chess
    /// a promotion typed without its letter asks for the piece.
    pub fn read_move(&self, text: &str) -> Result<Typed, Refusal> {
        if !self.is_playing() {
            return Err(Refusal::GameOver);
        }
        let mv = self
            .record
            .position()
            .parse_move(text)
            .map_err(Refusal::Illegal)?;
        let letters = text.chars().filter(|c| c.is_ascii_alphanumeric()).count();
        if mv.promotion().is_some() && self.rules().promotions().len() > 1 && letters != 5 {
            return Ok(Typed::ChoosePromotion {
                from: mv.from(),
                to: mv.to(),
            });
        }
        Ok(Typed::Move(mv))
    }

    /// Plays a move of the side to move: its clock stops (and if it ran
    /// out, the side loses on time and the move is not played), then the
    /// rules may end the game. Refused, with nothing changed, if the game
    /// is over or the move is not legal.
    pub fn play(&mut self, mv: Move) -> Result<(), Refusal> {
        if !self.is_playing() {
            return Err(Refusal::GameOver);
        }
        let pos = *self.record.position();
        if !pos.is_legal(mv) {
            // The text form explains why.
            return Err(match pos.parse_move(&mv.to_string()) {
                Err(e) => Refusal::Illegal(e),
                Ok(_) => Refusal::Illegal(MoveError::Syntax(mv.to_string())),
            });
        }
        let side = self.side();
        if self.clocks.stop().is_some_and(|s| s.flagged) {
            self.lose(side, Fault::new(FaultKind::Flag, "the clock ran out"));
            return Ok(());
        }
        self.record.play(mv);
        self.check_status();
        Ok(())
    }

    /// `side` loses by a fault outside the rules (time, a broken engine).
    pub fn lose(&mut self, side: Color, fault: Fault) {
        self.finish(GameResult {
            winner: Some(side.flip()),
            ending: Ending::Fault { side, fault },
            record: self.record.clone(),
            clocks: Vec::new(),
        });
    }

    /// `side` gives up.
    pub fn resign(&mut self, side: Color) -> Result<(), Refusal> {
        if !self.is_playing() {
            return Err(Refusal::GameOver);
        }
        self.finish(GameResult {
            winner: Some(side.flip()),
            ending: Ending::Resigned(side),
            record: self.record.clone(),
            clocks: Vec::new(),
        });
        Ok(())
    }

    /// Ends the game without a result; whether it was still going on.
    pub fn end(&mut self) -> bool {
        self.clocks.pause();
        let was_playing = self.is_playing();
        self.phase = Phase::Ended;
        was_playing
    }

    /// Sets the time left of `side`; a running clock counts on from there.
    pub fn set_time(&mut self, side: Color, ms: u64) {
        self.clocks.set_ms(side, ms);
    }

    /// Takes back moves until a person is to move (or the game is back at
    /// its start); returns how many. The game goes on, and its clocks wait
    /// for the person's next move.
    pub fn undo(&mut self) -> usize {
        let mut taken = 0;
        while self.record.undo() {
            taken += 1;
            if self.seat(self.side()) == Seat::Human {
                break;
            }
        }
        if taken > 0 {
            self.clocks.pause();
            self.phase = Phase::Playing;
        }
        taken
    }

    fn finish(&mut self, result: GameResult) {
        self.clocks.pause();
        self.phase = Phase::Over(Box::new(result));
    }

    fn check_status(&mut self) {
        if let Some(result) = GameResult::from_status(self.record.status(), &self.record) {
            self.finish(result);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mv(pos: &Position, text: &str) -> Move {
        pos.parse_move(text).unwrap()
    }

    #[test]
    fn a_refused_move_changes_nothing() {
        let mut t = Table::new(
            Position::startpos(Rules::Antichess),
            1000,
            1000,
            [Seat::Human; 2],
        );
        t.play(mv(t.position(), "e2-e4")).unwrap();
        t.play(mv(t.position(), "d7-d5")).unwrap();
        let before = t.position().fen();
        let err = t.read_move("a2-a3").unwrap_err();
        assert!(err.to_string().contains("a capture is compulsory: e4-d5"));
        assert_eq!(t.position().fen(), before);
    }

    #[test]
    fn chess_promotion_without_letter_asks() {
        let file = "white 1000 1000\n----k---\n-P-----p\n--------\n--------\n--------\n--------\n--------\n----K---\n";
        let t = Table::from_file(file, Rules::Chess, [Seat::Human; 2]).unwrap();
        assert!(matches!(
            t.read_move("b7-b8"),
            Ok(Typed::ChoosePromotion { .. })
        ));
        assert!(matches!(t.read_move("b7-b8n"), Ok(Typed::Move(_))));
        let t = Table::from_file(file, Rules::Antichess, [Seat::Human; 2]).unwrap();
        assert!(matches!(t.read_move("b7-b8"), Ok(Typed::Move(_))));
    }

    #[test]
    fn undo_goes_back_to_the_person() {
        let seats = [Seat::Human, Seat::Machine(1)];
        let mut t = Table::new(Position::startpos(Rules::Chess), 1000, 1000, seats);
        t.play(mv(t.position(), "e2-e4")).unwrap();
        t.play(mv(t.position(), "e7-e5")).unwrap();
        assert_eq!(t.undo(), 2);
        assert_eq!(t.record().moves().len(), 0);
        assert_eq!(t.undo(), 0);
    }

    #[test]
    fn a_flag_loses_on_time() {
        let mut t = Table::new(Position::startpos(Rules::Chess), 0, 1000, [Seat::Human; 2]);
        t.start_clock();
        assert!(t.check_flag());
        let Phase::Over(result) = t.phase() else {
            panic!("not over")
        };
        assert_eq!(result.winner, Some(Color::Black));
        assert_eq!(t.read_move("e2-e4"), Err(Refusal::GameOver));
    }
}
