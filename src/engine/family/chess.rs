//! The chess family: the three chess rule sets, the handouts' game files
//! with their clocks, FEN, and moves as `e2-e4` (UCI form in UCI mode).

use super::{Family, MoveWhy, RuleSet, Verdict};
use crate::chess::{Color, FileStyle, GameFile, GameRecord, Move, Position, Rules, perft};
use crate::engine::command::{Protocol, Start};
use crate::engine::session::EngineError;

/// A chess game in progress: the record (for repetitions) and the board
/// style `board` answers in.
#[derive(Clone, Debug)]
pub struct ChessGame {
    record: GameRecord,
    style: FileStyle,
}

impl Family for ChessGame {
    type Position = Position;
    type Rules = Rules;

    fn load(start: &Start, rules: Rules) -> Result<(ChessGame, Option<[u64; 2]>), EngineError> {
        let (position, clocks, style) = match start {
            Start::Initial => (Position::startpos(rules), None, FileStyle::Y2002),
            Start::Fen(fen) => (
                Position::from_fen(fen, rules).map_err(EngineError::Fen)?,
                None,
                FileStyle::Y2002,
            ),
            Start::Board(text) => {
                let file = GameFile::parse(text, rules).map_err(EngineError::Board)?;
                (
                    file.position,
                    Some([file.white_ms, file.black_ms]),
                    file.style,
                )
            }
        };
        let game = ChessGame {
            record: GameRecord::new(position),
            style,
        };
        Ok((game, clocks))
    }

    fn rules(&self) -> Rules {
        self.record.position().rules()
    }

    fn rule_set(rules: Rules) -> RuleSet {
        RuleSet::Chess(rules)
    }

    fn position(&self) -> &Position {
        self.record.position()
    }

    fn history(&self) -> &[u64] {
        self.record.history()
    }

    fn side_to_move(&self) -> Color {
        self.position().side_to_move()
    }

    fn parse_move(&self, text: &str) -> Result<Move, MoveWhy> {
        self.position().parse_move(text).map_err(MoveWhy::Chess)
    }

    fn play(&mut self, mv: Move) {
        self.record.play(mv);
    }

    fn verdict(&self) -> Option<Verdict> {
        let status = self.record.status();
        status.is_over().then(|| Verdict {
            score: status.score().to_string(),
            reason: status.reason().map_or("-", |r| r.name()),
        })
    }

    fn move_text(mv: Move, protocol: Protocol) -> String {
        match protocol {
            Protocol::Line => mv.handout().to_string(),
            Protocol::Uci => mv.to_string(),
        }
    }

    fn board_line(&self, clocks: [u64; 2]) -> String {
        GameFile {
            position: *self.position(),
            white_ms: clocks[Color::White.index()],
            black_ms: clocks[Color::Black.index()],
            style: self.style,
        }
        .write(" ")
    }

    fn perft(position: &Position, depth: u32) -> u64 {
        perft(position, depth)
    }
}
