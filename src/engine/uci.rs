//! What is particular to UCI: the identification and the options a GUI
//! is offered. The commands themselves share the typed enum and the
//! session with the line protocol.

use super::NAME;
use super::command::MAX_HASH_MIB;
use super::levels::MAX_LEVEL;
use super::session::DEFAULT_HASH_MIB;
use super::think::MAX_THREADS;
use crate::chess::Rules;

/// The lines answering `uci`, before `uciok`.
pub fn hello(rules: Rules) -> Vec<String> {
    let variants: String = Rules::ALL.iter().map(|r| format!(" var {r}")).collect();
    vec![
        format!("id name {NAME}"),
        "id author the antichess developers".to_string(),
        format!("option name UCI_Variant type combo default {rules}{variants}"),
        format!("option name Hash type spin default {DEFAULT_HASH_MIB} min 1 max {MAX_HASH_MIB}"),
        format!("option name Threads type spin default 1 min 1 max {MAX_THREADS}"),
        format!("option name Level type spin default 0 min 0 max {MAX_LEVEL}"),
        "option name Seed type spin default 0 min 0 max 2147483647".to_string(),
    ]
}
