//! A checkers game as the page (or a script) sees it: one JSON object with
//! the 32 squares and where each is drawn, the players, who acts next and
//! what they may do (the legal moves with their jump routes, a draw on
//! offer), the last move and the last entry in words, the transcript in
//! the handout's notation, and the result with its reason. The page draws
//! only this and never works out a rule itself.

use super::checkers::{CheckersGame, Seat};
use super::store::Guard;
use crate::checkers::{Action, Color, Move, Position, Record, Score, Square, write_transcript};
use serde_json::{Value, json};

/// The whole state of a game.
pub fn state(game: &Guard<'_, CheckersGame>) -> Value {
    let record = &game.record;
    let pos = record.position();
    let squares = squares(pos);
    let playing = record.result().is_none();
    let moves: Vec<Value> = if playing && !record.draw_offered() {
        pos.legal_moves().iter().map(|&m| move_json(m)).collect()
    } else {
        Vec::new()
    };
    let player = |side: Color| {
        let (men, kings) = pos.count(side);
        let (kind, level) = match game.seat(side) {
            Seat::Human => ("human".to_string(), None),
            Seat::Machine(level) => (format!("level:{level}"), Some(level)),
        };
        json!({
            "name": name(game, side),
            "player": kind,
            "level": level,
            "men": men,
            "kings": kings,
        })
    };
    let actor = |i: usize| {
        if i.is_multiple_of(2) {
            Color::Black
        } else {
            Color::White
        }
    };
    let actions = record.actions();
    let last_action = actions.last().map(|&a| {
        let side = actor(actions.len() - 1);
        json!({"side": side.name(), "action": a.to_string(), "text": words(side, a)})
    });
    let last_move = actions
        .iter()
        .enumerate()
        .rev()
        .find_map(|(i, &a)| match a {
            Action::Move(m) => Some((actor(i), m)),
            _ => None,
        })
        .map(|(side, m)| last_move_json(side, m));
    json!({
        "id": game.id().to_string(),
        "version": game.version(),
        "seed": game.seed,
        "squares": squares,
        "status": if playing { "playing" } else { "over" },
        "result": record.result().map(|score| result_json(record, score)),
        "to_act": playing.then(|| record.side_to_act().name()),
        "to_move": playing.then(|| pos.side_to_move().name()),
        "players": {"black": player(Color::Black), "white": player(Color::White)},
        "thinking": game.is_thinking(),
        "draw_offered": playing && record.draw_offered(),
        "may_offer_draw": record.may_offer_draw(),
        "must_capture": playing && pos.must_capture(),
        "moves": moves,
        "move_number": record.move_number(),
        "last_action": last_action,
        "last_move": last_move,
        "transcript": write_transcript(record),
    })
}

/// The 32 squares by number, where each is drawn and its piece.
pub(super) fn squares(pos: &Position) -> Vec<Value> {
    Square::all()
        .map(|sq| {
            json!({
                "square": sq.number(),
                "row": sq.row(),
                "col": sq.column(),
                "piece": pos.piece_at(sq).map(|p| p.to_char().to_string()),
            })
        })
        .collect()
}

/// A move `side` made, with its route and in words.
pub(super) fn last_move_json(side: Color, m: Move) -> Value {
    let mut shown = move_json(m);
    if let Some(fields) = shown.as_object_mut() {
        fields.insert("side".into(), side.name().into());
        fields.insert("text".into(), words(side, Action::Move(m)).into());
    }
    shown
}

/// A move: its text, every square it stands on, and the squares of the
/// pieces it takes.
fn move_json(m: Move) -> Value {
    json!({
        "move": m.to_string(),
        "path": m.squares().iter().map(|s| s.number()).collect::<Vec<_>>(),
        "captures": m.taken().map(Square::number).collect::<Vec<_>>(),
    })
}

/// The name shown for `side`.
pub(super) fn name(game: &CheckersGame, side: Color) -> String {
    match game.seat(side) {
        Seat::Machine(_) => "Machine".to_string(),
        Seat::Human if game.seat(side.opponent()) == Seat::Human => {
            format!("{} player", capitalised(side))
        }
        Seat::Human => "You".to_string(),
    }
}

fn capitalised(side: Color) -> &'static str {
    match side {
        Color::Black => "Black",
        Color::White => "White",
    }
}

/// An entry in words: `white moved 24-20`, `black offers a draw`.
fn words(side: Color, action: Action) -> String {
    let who = side.name();
    match action {
        Action::Move(m) if m.is_capture() => {
            let n = m.captures();
            let pieces = if n == 1 { "piece" } else { "pieces" };
            format!("{who} jumped {m}, taking {n} {pieces}")
        }
        Action::Move(m) => format!("{who} moved {m}"),
        Action::Draw => format!("{who} offers a draw"),
        Action::Accept => format!("{who} accepted the draw"),
        Action::Reject => format!("{who} rejected the draw"),
        Action::Resign => format!("{who} resigned"),
    }
}

/// The result: the score as the transcript writes it, the winner, a
/// reason word and the words for people.
pub(super) fn result_json(record: &Record, score: Score) -> Value {
    let last = record.actions().last().copied();
    let (reason, text) = match (score.winner(), last) {
        (None, _) => ("agreed", "Drawn by agreement".to_string()),
        (Some(winner), _) if !record.position().has_moves() => (
            "no-moves",
            format!(
                "{} wins: {} has no legal move",
                capitalised(winner),
                capitalised(winner.opponent()),
            ),
        ),
        (Some(winner), Some(Action::Resign)) => (
            "resigned",
            format!(
                "{} wins: {} resigned",
                capitalised(winner),
                capitalised(winner.opponent())
            ),
        ),
        (Some(winner), _) => (
            "forfeit",
            format!(
                "{} wins: {} forfeited",
                capitalised(winner),
                capitalised(winner.opponent())
            ),
        ),
    };
    json!({
        "score": score.to_string(),
        "winner": score.winner().map(Color::name),
        "reason": reason,
        "text": text,
    })
}
