//! A game's record read back from the database, as any JSON: each family
//! rebuilds a game or says why not, never panicking.
#![no_main]

use antichess::web::checkers::CheckersGame;
use antichess::web::chess::ChessGame;
use antichess::web::chessforge::ForgeGame;
use antichess::web::store::{GameId, Kept};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(record) = serde_json::from_slice::<serde_json::Value>(data) else {
        return;
    };
    let id = GameId::parse("00000000000000aa").unwrap();
    if let Ok(mut game) = ChessGame::restore(id, &record) {
        let _ = game.saved();
    }
    if let Ok(mut game) = CheckersGame::restore(id, &record) {
        let _ = game.saved();
    }
    if let Ok(mut game) = ForgeGame::restore(id, &record) {
        let _ = game.saved();
    }
});
