//! What is particular to UCI: the identification and the options a GUI
//! is offered. The commands themselves share the typed enum and the
//! session with the line protocol.

use super::NAME;
use super::command::MAX_HASH_MIB;
use super::levels::MAX_LEVEL;
use super::session::DEFAULT_HASH_MIB;
use crate::chess::Rules;
use crate::search::{Info, MAX_THREADS, ScoreKind};

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
        "option name TablePath type string default <empty>".to_string(),
    ]
}

/// An `info` line for a completed iteration, its moves written by
/// `text`.
pub fn info_line<M: Copy>(info: &Info<'_, M>, text: impl Fn(M) -> String) -> String {
    let mut line = format!(
        "info depth {} seldepth {} score {} nodes {} nps {} hashfull {} time {}",
        info.depth,
        info.seldepth,
        ScoreKind::of(info.score),
        info.nodes,
        info.nps(),
        info.hashfull,
        info.elapsed.as_millis()
    );
    if !info.pv.is_empty() {
        line.push_str(" pv");
        for mv in info.pv {
            line.push(' ');
            line.push_str(&text(*mv));
        }
    }
    line
}
