//! A ChessForge game as the database keeps it, and its replay: the seed,
//! the rules and the squares struck. The same seed and strikes deal the
//! same game, so it comes back by striking them again. The puzzle has one
//! player: the list gives White's seat to the person and Black's to the
//! puzzle itself.

use super::chessforge::{DEFAULT_BUDGET, ForgeGame, Setup};
use super::chessforge_view as view;
use super::db::{Family, Saved};
use super::store::{GameId, Guard, Kept, Shown};
use crate::chessforge::policy::new_game;
use crate::chessforge::solver::Budget;
use crate::chessforge::{RuleSet, Square};
use serde_json::{Value, json};

fn rules_word(rules: RuleSet) -> &'static str {
    match rules {
        RuleSet::Standard => "standard",
        RuleSet::Extra => "extra",
    }
}

impl ForgeGame {
    fn summary(&self) -> Value {
        let over = self.board.is_over();
        json!({
            "rules": rules_word(self.rules),
            "white": {"name": "You", "player": "human"},
            "black": {"name": "ChessForge", "player": "puzzle"},
            "status": if over { "over" } else { "playing" },
            "result": over.then(|| view::score_json(&self.board)),
            "plies": self.history.len(),
        })
    }
}

impl Shown for ForgeGame {
    fn state(game: &mut Guard<'_, ForgeGame>) -> Value {
        view::state(game)
    }

    /// Every board from the deal, one per strike: `GET .../replay`.
    fn replay(&self, id: GameId) -> Value {
        let (mut board, mut deal) = new_game(self.seed, self.rules);
        let entry = |ply: usize, board: &crate::chessforge::Board, last: Option<Square>| {
            json!({
                "ply": ply,
                "board": board.to_string(),
                "tiles": view::tiles(board),
                "to_move": (!board.is_over()).then_some("white"),
                "last_move": last.map(|sq| json!({"square": sq.to_string()})),
                "check": null,
                "clock_ms": null,
            })
        };
        let mut positions = vec![entry(0, &board, None)];
        for struck in &self.history {
            match board.strike(struck.square, &mut deal) {
                Ok(next) => board = next,
                Err(_) => break,
            }
            positions.push(entry(positions.len(), &board, Some(struck.square)));
        }
        json!({
            "id": id.to_string(),
            "family": "chessforge",
            "rules": rules_word(self.rules),
            "positions": positions,
            "result": self.summary()["result"],
        })
    }
}

impl Kept for ForgeGame {
    const FAMILY: Family = Family::Chessforge;

    fn retire(&mut self) {
        // Nothing runs on a game's behalf: a hint under way holds only a
        // copy of the board.
    }

    fn saved(&mut self) -> Saved {
        let strikes: Vec<String> = self.history.iter().map(|s| s.square.to_string()).collect();
        let playouts = match self.budget {
            Budget::Playouts(n) => Some(n),
            Budget::Time(_) => None,
        };
        Saved {
            summary: self.summary(),
            record: json!({
                "seed": self.seed,
                "rules": rules_word(self.rules),
                "playouts": playouts,
                "strikes": strikes,
            }),
        }
    }

    fn restore(_id: GameId, saved: &Value) -> Result<ForgeGame, String> {
        let rules = match saved["rules"].as_str() {
            Some("standard") => RuleSet::Standard,
            Some("extra") => RuleSet::Extra,
            _ => return Err("no rules".to_string()),
        };
        let budget = saved["playouts"]
            .as_u64()
            .and_then(|n| u32::try_from(n).ok())
            .map_or(DEFAULT_BUDGET, Budget::Playouts);
        let mut game = ForgeGame::new(Setup {
            seed: saved["seed"].as_u64().ok_or("no seed")?,
            rules,
            budget,
        });
        for square in saved["strikes"].as_array().ok_or("no strikes")? {
            let text = square.as_str().ok_or("a strike is not text")?;
            let sq: Square = text.parse().map_err(|e| format!("{text}: {e}"))?;
            game.strike(sq).map_err(|e| format!("{text}: {e}"))?;
        }
        Ok(game)
    }
}
