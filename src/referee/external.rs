//! External engines: programs speaking our line protocol (`protocol.md`,
//! the 6.170 MachinePlayer as a process; our own engine is one of them)
//! and programs speaking UCI (Stockfish, Fairy-Stockfish).
//!
//! Each keeps track of what its engine has been told, so that the referee
//! may hand it any game: a line-protocol engine hears only the opponent's
//! last move when it is in step, and a fresh `new` otherwise (after an
//! undo or a load in `play`); a UCI engine gets the whole game each time.

use super::player::{Fault, FaultKind, Player, Turn};
use super::process::Process;
use crate::chess::{Color, FileStyle, GameFile, Move, Position, Rules};
use std::time::{Duration, Instant};

/// How long an engine may take to start or to answer `isready`.
const STARTUP: Duration = Duration::from_secs(20);

/// The first characters of an answer, for fault details.
pub(super) fn shown(line: &str) -> String {
    let mut s: String = line.chars().take(60).collect();
    if s.len() < line.len() {
        s.push_str("...");
    }
    s
}

/// Sends `isready` and waits for `readyok`; an `error` line on the way
/// means the engine refused what it was sent before.
pub(super) fn sync(process: &mut Process) -> Result<(), Fault> {
    process.send("isready")?;
    let deadline = Instant::now() + STARTUP;
    loop {
        let line = process
            .recv(deadline)
            .map_err(|why| process.fault(why, "readyok"))?;
        let line = line.trim();
        if line == "readyok" {
            return Ok(());
        }
        if let Some(why) = line.strip_prefix("error") {
            return Err(Fault::new(
                FaultKind::Malformed,
                format!("it refused the setup: {}", shown(why.trim())),
            ));
        }
    }
}

/// What a line-protocol engine's `result` line in answer to `move` is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Claims {
    /// A claim that the game is over, which the referee refuses by name.
    Refused,
    /// No word of the protocol: an answer like any other that is not a move.
    Unknown,
}

/// Reads a line-protocol engine's answer to `move`: `move <squares>`,
/// after any blank or `info` lines; `shape` names the squares' form in a
/// fault.
pub(super) fn read_move(
    process: &mut Process,
    deadline: Instant,
    shape: &str,
    claims: Claims,
) -> Result<String, Fault> {
    loop {
        let line = process
            .recv(deadline)
            .map_err(|why| process.fault(why, "move"))?;
        let mut words = line.split_whitespace();
        return match (words.next(), words.next(), words.next()) {
            (None, _, _) | (Some("info"), _, _) => continue,
            (Some("move"), Some(mv), None) => Ok(mv.to_string()),
            (Some("result"), ..) if claims == Claims::Refused => Err(Fault::new(
                FaultKind::Malformed,
                format!("it claimed '{}' but the game goes on", shown(&line)),
            )),
            _ => Err(Fault::new(
                FaultKind::Malformed,
                format!("expected 'move {shape}', got '{}'", shown(&line)),
            )),
        };
    }
}

/// An engine speaking our line protocol.
pub struct LineEngine {
    name: String,
    process: Process,
    level: u32,
    options: Vec<(String, String)>,
    color: Color,
    /// The start position (by key) and moves the engine has been told.
    known: Option<(u64, Vec<Move>)>,
}

impl LineEngine {
    /// Starts the program and waits until it is ready.
    pub fn start(
        name: &str,
        argv: &[String],
        level: u32,
        options: &[(String, String)],
    ) -> Result<LineEngine, Fault> {
        let mut process = Process::spawn(name, argv)?;
        sync(&mut process)?;
        Ok(LineEngine {
            name: name.to_string(),
            process,
            level,
            options: options.to_vec(),
            color: Color::White,
            known: None,
        })
    }

    /// Tells the engine the current position as a new game.
    fn restart(&mut self, turn: &Turn) -> Result<(), Fault> {
        let pos = turn.game.position();
        let rules = pos.rules();
        self.process.send(&format!("set rules {rules}"))?;
        for (name, value) in &self.options {
            self.process.send(&format!("set {name} {value}"))?;
        }
        let mut new = format!("new {} {}", self.color, self.level);
        if *pos != Position::startpos(rules) {
            if rules.castling_and_en_passant() {
                // The game file cannot carry castling rights or en passant.
                new.push_str(&format!(" fen {}", pos.fen()));
            } else {
                let (white_ms, black_ms) = turn.times();
                let file = GameFile {
                    position: *pos,
                    white_ms,
                    black_ms,
                    style: FileStyle::Y2002,
                };
                new.push(' ');
                new.push_str(&file.write(" "));
            }
        }
        self.process.send(&new)?;
        sync(&mut self.process)?;
        self.known = Some((turn.game.start().key(), turn.game.moves().to_vec()));
        Ok(())
    }

    /// The opponent's move to pass on (`None` for `-`), if the engine is
    /// in step with the game.
    fn news(&self, turn: &Turn) -> Option<Option<Move>> {
        let (start, known) = self.known.as_ref()?;
        let moves = turn.game.moves();
        if *start != turn.game.start().key() || !moves.starts_with(known) {
            return None;
        }
        match &moves[known.len()..] {
            [] => Some(None),
            [last] => Some(Some(*last)),
            _ => None,
        }
    }
}

impl Player for LineEngine {
    fn name(&self) -> &str {
        &self.name
    }

    fn new_game(&mut self, _start: &Position, color: Color) -> Result<(), Fault> {
        self.color = color;
        self.known = None;
        Ok(())
    }

    fn choose(&mut self, turn: &Turn) -> Result<String, Fault> {
        self.color = turn.side();
        let news = match self.news(turn) {
            Some(news) => news,
            None => {
                self.restart(turn)?;
                None
            }
        };
        let opponent = news.map_or("-".to_string(), |m| m.handout().to_string());
        self.process
            .send(&format!("move {opponent} {} {}", turn.my_ms, turn.their_ms))?;
        let answer = read_move(
            &mut self.process,
            turn.deadline,
            "<from>-<to>",
            Claims::Refused,
        )?;
        if let (Some((_, known)), Ok(own)) =
            (&mut self.known, turn.game.position().parse_move(&answer))
        {
            known.extend(news);
            known.push(own);
        }
        Ok(answer)
    }
}

/// An engine speaking UCI.
pub struct UciEngine {
    name: String,
    process: Process,
    options: Vec<(String, String)>,
    /// Options the engine offers, from its `option name ...` lines.
    offered: Vec<String>,
}

/// The Fairy-Stockfish variant of each rule set, as defined in
/// `scripts/antichess_variants.ini` (load it with `VariantPath`).
fn variant(rules: Rules) -> &'static str {
    match rules {
        Rules::Antichess => "antichess6170",
        Rules::Antichess1994 => "antichess1994",
        Rules::Chess => "chess",
    }
}

impl UciEngine {
    /// Starts the program, reads its options and sets the given ones.
    pub fn start(
        name: &str,
        argv: &[String],
        options: &[(String, String)],
    ) -> Result<UciEngine, Fault> {
        let mut process = Process::spawn(name, argv)?;
        process.send("uci")?;
        let deadline = Instant::now() + STARTUP;
        let mut offered = Vec::new();
        loop {
            let line = process
                .recv(deadline)
                .map_err(|why| process.fault(why, "uciok"))?;
            if line.trim() == "uciok" {
                break;
            }
            if let Some(rest) = line.trim().strip_prefix("option name ") {
                let option = rest.split(" type ").next().unwrap_or(rest);
                offered.push(option.trim().to_string());
            }
        }
        for (option, value) in options {
            process.send(&format!("setoption name {option} value {value}"))?;
        }
        Ok(UciEngine {
            name: name.to_string(),
            process,
            options: options.to_vec(),
            offered,
        })
    }
}

impl Player for UciEngine {
    fn name(&self) -> &str {
        &self.name
    }

    fn new_game(&mut self, start: &Position, _color: Color) -> Result<(), Fault> {
        let set_by_user = self
            .options
            .iter()
            .any(|(n, _)| n.eq_ignore_ascii_case("UCI_Variant"));
        if !set_by_user && self.offered.iter().any(|o| o == "UCI_Variant") {
            let name = variant(start.rules());
            self.process
                .send(&format!("setoption name UCI_Variant value {name}"))?;
        }
        self.process.send("ucinewgame")?;
        sync(&mut self.process)
    }

    fn choose(&mut self, turn: &Turn) -> Result<String, Fault> {
        let mut position = format!("position fen {}", turn.game.start().fen());
        if !turn.game.moves().is_empty() {
            position.push_str(" moves");
            for m in turn.game.moves() {
                position.push_str(&format!(" {m}"));
            }
        }
        self.process.send(&position)?;
        let (white_ms, black_ms) = turn.times();
        let inc = turn.increment_ms;
        self.process.send(&format!(
            "go wtime {white_ms} btime {black_ms} winc {inc} binc {inc}"
        ))?;
        loop {
            let line = self
                .process
                .recv(turn.deadline)
                .map_err(|why| self.process.fault(why, "bestmove"))?;
            let mut words = line.split_whitespace();
            match (words.next(), words.next()) {
                (Some("bestmove"), Some(mv)) => return Ok(mv.to_string()),
                (Some("bestmove"), None) => {
                    return Err(Fault::new(
                        FaultKind::Malformed,
                        "'bestmove' without a move",
                    ));
                }
                // info, and anything else an engine may print while thinking.
                _ => continue,
            }
        }
    }
}
