//! A ChessForge game as the page (or a script) sees it: the 36 squares in
//! screen order with each tile's symbol and hits, the legal targets, the
//! rule the next strike follows in words, the strikes made and tiles
//! removed, the board's text form (protocol.md), the history of strikes,
//! the solver's hint if one was asked, and a finished game's score. The
//! page draws only this.

use super::chessforge::{ForgeGame, Struck};
use super::store::Guard;
use crate::chessforge::play::explain;
use crate::chessforge::square::{SIZE, SQUARES};
use crate::chessforge::{Board, RuleSet, Square, Symbol, TOTAL_STRIKES};
use serde_json::{Value, json};

/// The 36 squares in screen order, each tile's symbol and hits.
pub(super) fn tiles(board: &Board) -> Vec<Value> {
    (0..SIZE)
        .rev()
        .flat_map(|row| (0..SIZE).filter_map(move |col| Square::new(row, col)))
        .map(|sq| match board.tile(sq) {
            Some(tile) => json!({
                "square": sq.to_string(),
                "symbol": tile.symbol().name(),
                "letter": tile.symbol().letter().to_string(),
                "hits": tile.hits(),
            }),
            None => json!({"square": sq.to_string(), "symbol": null, "letter": null, "hits": 0}),
        })
        .collect()
}

/// The whole state of a game.
pub fn state(game: &Guard<'_, ForgeGame>) -> Value {
    let board = &game.board;
    let tiles = tiles(board);
    let targets: Vec<String> = board.targets().iter().map(|s| s.to_string()).collect();
    let over = board.is_over();
    let last = board.last().map(|strike| {
        let text = if over {
            format!(
                "The {} from {} reaches no tile that is left ({}).",
                strike.rule,
                strike.square,
                explain(strike.rule)
            )
        } else {
            format!(
                "Next strike follows the {} from {}: {}.",
                strike.rule,
                strike.square,
                explain(strike.rule)
            )
        };
        json!({
            "square": strike.square.to_string(),
            "rule": strike.rule.name(),
            "text": text,
        })
    });
    let history: Vec<Value> = game
        .history
        .iter()
        .enumerate()
        .map(|(i, s)| struck_json(i + 1, s))
        .collect();
    let hint = game.current_hint().and_then(|hint| {
        let best = hint.best.first()?;
        let candidates: Vec<Value> = hint
            .best
            .iter()
            .map(|c| {
                json!({
                    "square": c.square.to_string(),
                    "mean": (c.mean * 10.0).round() / 10.0,
                    "exact": c.playouts == 0,
                })
            })
            .collect();
        Some(json!({
            "square": best.square.to_string(),
            "candidates": candidates,
            "text": format!(
                "Strike {}: about {:.1} more strikes to come{}",
                best.square,
                best.mean,
                if best.playouts == 0 { " (solved exactly)" } else { "" }
            ),
        }))
    });
    json!({
        "id": game.id().to_string(),
        "version": game.version(),
        "seed": game.seed,
        "rules": board.rules().name(),
        "board": board.to_string(),
        "tiles": tiles,
        "targets": targets,
        "last": last,
        "first_strike": board.last().is_none(),
        "strikes": board.strikes_made(),
        "total_strikes": TOTAL_STRIKES,
        "tiles_removed": board.tiles_removed(),
        "total_tiles": SQUARES,
        "hits_left": board.hits_left(),
        "status": if over { "over" } else { "playing" },
        "score": over.then(|| score_json(board)),
        "history": history,
        "hint": hint,
        "legend": legend(board.rules()),
    })
}

fn struck_json(number: usize, s: &Struck) -> Value {
    let became = match s.became {
        Some(symbol) => format!("became a {symbol}"),
        None => "was removed".to_string(),
    };
    json!({
        "number": number,
        "square": s.square.to_string(),
        "symbol": s.symbol.name(),
        "letter": s.symbol.letter().to_string(),
        "hits": s.hits,
        "became": s.became.map(Symbol::name),
        "text": format!("{}: the {} ({} {}) {became}", s.square, s.symbol, s.hits,
            if s.hits == 1 { "hit" } else { "hits" }),
    })
}

/// A finished game's score: strikes made out of the 108 possible.
pub(super) fn score_json(board: &Board) -> Value {
    let cleared = board.is_cleared();
    let text = if cleared {
        format!("Board cleared! All {TOTAL_STRIKES} strikes made.")
    } else {
        format!(
            "No legal strike is left. Score: {} of {TOTAL_STRIKES} strikes, {} of {SQUARES} tiles removed.",
            board.strikes_made(),
            board.tiles_removed()
        )
    };
    json!({
        "strikes": board.strikes_made(),
        "of": TOTAL_STRIKES,
        "tiles_removed": board.tiles_removed(),
        "cleared": cleared,
        "text": text,
    })
}

/// The symbols of the rule set with the rule of each in words.
fn legend(rules: RuleSet) -> Vec<Value> {
    Symbol::ALL
        .into_iter()
        .filter(|&s| rules.allows(s))
        .map(|s| {
            let text = match s {
                Symbol::Lambda => "repeats the rule that led to it",
                other => explain(other),
            };
            json!({"symbol": s.name(), "letter": s.letter().to_string(), "text": text})
        })
        .collect()
}
