//! The game as it is being played: the position, every action so far, the
//! draw-offer state, and the result. All the handout's rules about whose
//! turn it is and which special move is allowed when live here, so the text
//! interface, the transcript reader and the network peer share one referee.

use std::fmt;

use super::board::{Color, Position};
use super::notation::{Action, MoveError, Score};

/// Why an action is not allowed now.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PlayError {
    /// The text is neither a move nor a special move.
    Unreadable(String),
    /// A move that is not legal in the position.
    Illegal(String),
    /// The game has already ended.
    GameOver,
    /// A draw has been offered: only `accept` or `reject` may follow.
    DrawPending,
    /// `accept` or `reject` with no draw on offer.
    NoDrawOffered,
    /// A `draw` straight after the same player's offer was rejected.
    OfferAfterReject,
}

impl fmt::Display for PlayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlayError::Unreadable(s) => write!(f, "`{s}` is neither a move nor a special move"),
            PlayError::Illegal(s) => write!(f, "`{s}` is not a legal move here"),
            PlayError::GameOver => f.write_str("the game is already over"),
            PlayError::DrawPending => f.write_str("a draw is on offer: accept or reject it"),
            PlayError::NoDrawOffered => f.write_str("no draw is on offer"),
            PlayError::OfferAfterReject => {
                f.write_str("a rejected draw must be followed by a move, not another offer")
            }
        }
    }
}

impl std::error::Error for PlayError {}

/// Where the draw offers stand.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Offer {
    None,
    /// The side to move offered; the other side must answer.
    Pending,
    /// The side to move's offer was just rejected; it must now move.
    Rejected,
}

/// A game from the start position: the actions played, the position they
/// lead to, and the result once there is one.
#[derive(Clone, Debug)]
pub struct Record {
    position: Position,
    actions: Vec<Action>,
    offer: Offer,
    result: Option<Score>,
    /// Keys of the positions since the last irreversible move, oldest
    /// first, the current one last: what repetition detection needs.
    keys: Vec<u64>,
}

impl Default for Record {
    fn default() -> Self {
        Record::new()
    }
}

impl Record {
    /// A game at the start position, Black to move.
    pub fn new() -> Record {
        let position = Position::initial();
        Record {
            position,
            actions: Vec::new(),
            offer: Offer::None,
            result: None,
            keys: vec![position.zobrist_key()],
        }
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        &self.position
    }

    /// Every action so far, Black's first; the two sides alternate.
    pub fn actions(&self) -> &[Action] {
        &self.actions
    }

    /// Keys of the positions since the last irreversible move, oldest
    /// first, ending with the current position's.
    pub fn keys(&self) -> &[u64] {
        &self.keys
    }

    /// The result, once the game is over.
    pub fn result(&self) -> Option<Score> {
        self.result
    }

    /// Whether the side to act must answer a draw offer.
    pub fn draw_offered(&self) -> bool {
        self.offer == Offer::Pending
    }

    /// Whether the side to act may offer a draw now.
    pub fn may_offer_draw(&self) -> bool {
        self.result.is_none() && self.offer == Offer::None
    }

    /// Who acts next: the side to move, or the side answering its offer.
    pub fn side_to_act(&self) -> Color {
        let side = self.position.side_to_move();
        if self.draw_offered() {
            side.opponent()
        } else {
            side
        }
    }

    /// The move number of the transcript line holding the next action: one
    /// more than White's moves so far. Special moves do not count, so a
    /// draw offer and its answer share the number of the moves after them.
    pub fn move_number(&self) -> u32 {
        let white_moves = self
            .actions
            .iter()
            .skip(1)
            .step_by(2)
            .filter(|a| a.is_move())
            .count();
        white_moves as u32 + 1
    }

    /// Reads an action typed or received as `text`: a move in full
    /// notation or a special move.
    pub fn parse_action(&self, text: &str) -> Result<Action, PlayError> {
        if let Some(a) = Action::special(text) {
            return Ok(a);
        }
        if self.result.is_some() {
            return Err(PlayError::GameOver);
        }
        if self.draw_offered() {
            // The answering side is not the side to move, so the move would
            // be judged in the wrong position.
            return Err(PlayError::DrawPending);
        }
        match self.position.parse_move(text) {
            Ok(m) => Ok(Action::Move(m)),
            Err(MoveError::Syntax(s)) => Err(PlayError::Unreadable(s)),
            Err(MoveError::Illegal(s)) => Err(PlayError::Illegal(s)),
        }
    }

    /// Reads `text` as an action and checks that it may be played now:
    /// how typed and received entries are vetted.
    pub fn parse_allowed(&self, text: &str) -> Result<Action, PlayError> {
        let action = self.parse_action(text)?;
        self.check(action)?;
        Ok(action)
    }

    /// Checks that `action` may be played now, without playing it.
    pub fn check(&self, action: Action) -> Result<(), PlayError> {
        if self.result.is_some() {
            return Err(PlayError::GameOver);
        }
        match (action, self.offer) {
            (Action::Accept | Action::Reject, Offer::Pending) => Ok(()),
            (Action::Accept | Action::Reject, _) => Err(PlayError::NoDrawOffered),
            (_, Offer::Pending) => Err(PlayError::DrawPending),
            (Action::Draw, Offer::Rejected) => Err(PlayError::OfferAfterReject),
            (Action::Draw | Action::Resign, _) => Ok(()),
            (Action::Move(m), _) => {
                if self.position.legal_moves().contains(&m) {
                    Ok(())
                } else {
                    Err(PlayError::Illegal(m.to_string()))
                }
            }
        }
    }

    /// Plays `action` if it is allowed now, and settles the result when it
    /// ends the game (a resignation, an accepted draw, or a move that
    /// leaves the opponent without a move).
    pub fn apply(&mut self, action: Action) -> Result<(), PlayError> {
        self.check(action)?;
        let actor = self.side_to_act();
        match action {
            Action::Move(m) => {
                self.position = self.position.play(m);
                if self.position.quiet_plies() == 0 {
                    self.keys.clear();
                }
                self.keys.push(self.position.zobrist_key());
                self.offer = Offer::None;
                if !self.position.has_moves() {
                    self.result = Some(Score::win_for(actor));
                }
            }
            Action::Draw => self.offer = Offer::Pending,
            Action::Reject => self.offer = Offer::Rejected,
            Action::Accept => {
                self.offer = Offer::None;
                self.result = Some(Score::Draw);
            }
            Action::Resign => self.result = Some(Score::win_for(actor.opponent())),
        }
        self.actions.push(action);
        Ok(())
    }

    /// Ends the game against the side to act: what an illegal move or a
    /// lost connection from a remote program amounts to. It is recorded as
    /// its resignation, except when it owed an answer to a draw offer,
    /// where `resign` may not stand; there only the score records it.
    /// Does nothing once the game is over.
    pub fn forfeit(&mut self) {
        if self.result.is_none() {
            let loser = self.side_to_act();
            if self.offer != Offer::Pending {
                self.actions.push(Action::Resign);
            }
            self.result = Some(Score::win_for(loser.opponent()));
        }
    }

    /// Ends a game that is not over yet with `score`, as a transcript may
    /// (a forfeit or an adjudication). Does nothing once the game is over.
    pub fn end_with(&mut self, score: Score) {
        self.result.get_or_insert(score);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn play(r: &mut Record, text: &str) -> Result<(), PlayError> {
        let a = r.parse_action(text)?;
        r.apply(a)
    }

    #[test]
    fn draw_offer_flow() {
        let mut r = Record::new();
        play(&mut r, "11-15").unwrap();
        assert_eq!(play(&mut r, "accept"), Err(PlayError::NoDrawOffered));
        play(&mut r, "draw").unwrap();
        assert_eq!(r.side_to_act(), Color::Black);
        assert_eq!(play(&mut r, "9-13"), Err(PlayError::DrawPending));
        assert_eq!(play(&mut r, "resign"), Err(PlayError::DrawPending));
        play(&mut r, "reject").unwrap();
        assert_eq!(r.side_to_act(), Color::White);
        assert_eq!(play(&mut r, "draw"), Err(PlayError::OfferAfterReject));
        play(&mut r, "24-20").unwrap();
        play(&mut r, "draw").unwrap();
        play(&mut r, "accept").unwrap();
        assert_eq!(r.result(), Some(Score::Draw));
        assert_eq!(play(&mut r, "8-11"), Err(PlayError::GameOver));
    }

    #[test]
    fn move_numbers_skip_special_moves() {
        let mut r = Record::new();
        for (text, number) in [
            ("11-15", 1),
            ("24-20", 1),
            ("draw", 2),
            ("reject", 2),
            ("8-11", 2),
        ] {
            assert_eq!(r.move_number(), number, "before {text}");
            play(&mut r, text).unwrap();
        }
        assert_eq!(r.move_number(), 2);
        play(&mut r, "28-24").unwrap();
        assert_eq!(r.move_number(), 3);
    }

    #[test]
    fn resign_and_forfeit() {
        let mut r = Record::new();
        play(&mut r, "resign").unwrap();
        assert_eq!(r.result(), Some(Score::WhiteWins));
        let mut r = Record::new();
        play(&mut r, "draw").unwrap();
        r.forfeit();
        assert_eq!(r.result(), Some(Score::BlackWins));
        assert_eq!(r.actions(), [Action::Draw]);
    }

    #[test]
    fn no_moves_loses() {
        let mut r = Record::new();
        assert_eq!(play(&mut r, "x"), Err(PlayError::Unreadable("x".into())));
        assert_eq!(
            play(&mut r, "11-14"),
            Err(PlayError::Illegal("11-14".into()))
        );
    }
}
