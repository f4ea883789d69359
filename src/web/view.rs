//! A chess game as the page (or a script) sees it: one JSON object with
//! the board, the players and their clocks, whose turn it is, the legal
//! moves, the last move in words, and the result with its reason. The
//! page draws only this: it never works out a rule itself.

use super::chess::ChessGame;
use super::store::Guard;
use crate::chess::{Color, Move, Piece, Position, Reason};
use crate::referee::game::{Ending, GameResult};
use crate::referee::player::FaultKind;
use crate::referee::table::{Phase, Seat};
use crate::search::MoveList;
use serde_json::{Value, json};

/// The whole state of a game.
pub fn state(game: &Guard<'_, ChessGame>) -> Value {
    let table = &game.table;
    let pos = table.position();
    let rows = rows(pos);
    let playing = table.is_playing();
    let mut legal = MoveList::new();
    if playing {
        pos.legal_moves(&mut legal);
    }
    let moves: Vec<Value> = legal
        .iter()
        .map(|m| {
            json!({
                "from": m.from().to_string(),
                "to": m.to().to_string(),
                "promotion": m.promotion().map(|k| k.letter().to_string()),
                "move": m.handout().to_string(),
            })
        })
        .collect();
    let record = table.record();
    let history: Vec<String> = record
        .moves()
        .iter()
        .map(|m| m.handout().to_string())
        .collect();
    let last_move = record
        .moves()
        .last()
        .map(|&m| last_move_json(pos.side_to_move().flip(), m));
    let check = check_square(pos);
    let clocks = table.clocks();
    let player = |side: Color| {
        let seat = table.seat(side);
        json!({
            "name": game.name(side),
            "player": match seat {
                Seat::Human => "human".to_string(),
                Seat::Machine(level) => format!("level:{level}"),
            },
            "level": match seat {
                Seat::Human => None,
                Seat::Machine(level) => Some(level),
            },
            "clock_ms": clocks.left_ms(side),
        })
    };
    let (status, result) = match table.phase() {
        Phase::Playing => ("playing", Value::Null),
        Phase::Over(result) => ("over", result_json(result)),
        Phase::Ended => ("ended", Value::Null),
    };
    json!({
        "id": game.id().to_string(),
        "version": game.version(),
        "seed": game.seed,
        "rules": table.rules().name(),
        "board": rows,
        "to_move": playing.then(|| pos.side_to_move().name()),
        "status": status,
        "result": result,
        "players": {"white": player(Color::White), "black": player(Color::Black)},
        "clock_running": clocks.running().map(Color::name),
        "thinking": game.is_thinking(),
        "last_move": last_move,
        "check": check,
        "moves": moves,
        "history": history,
        "first_mover": record.start().side_to_move().name(),
        "first_move_number": record.start().fullmove_number(),
    })
}

/// The board as the game file's rows, rank 8 first, `-` for an empty
/// square.
pub(super) fn rows(pos: &Position) -> Vec<String> {
    let board = pos.board();
    (0..8)
        .rev()
        .map(|rank| {
            (0..8)
                .map(|file| board[rank * 8 + file].map_or('-', Piece::letter))
                .collect()
        })
        .collect()
}

/// A move `side` played, for the page.
pub(super) fn last_move_json(side: Color, m: Move) -> Value {
    json!({
        "side": side.name(),
        "from": m.from().to_string(),
        "to": m.to().to_string(),
        "move": m.handout().to_string(),
        "text": format!("{side} moved {}", m.handout()),
    })
}

/// The square of the king in check, if any.
pub(super) fn check_square(pos: &Position) -> Option<String> {
    pos.in_check()
        .then(|| pos.king(pos.side_to_move()).to_string())
}

/// A finished game's result: winner, score, a reason word and the words
/// for people.
pub(super) fn result_json(result: &GameResult) -> Value {
    let reason = match &result.ending {
        Ending::Rules(reason) => match reason {
            Reason::BareKing => "bare-king",
            other => other.name(),
        },
        Ending::Fault { fault, .. } if fault.kind == FaultKind::Flag => "time",
        Ending::Fault { .. } => "fault",
        Ending::Resigned(_) => "resigned",
        Ending::Adjudicated(_) => "adjudicated",
    };
    json!({
        "winner": result.winner.map(Color::name),
        "score": result.score(),
        "reason": reason,
        "text": result.to_string(),
    })
}
