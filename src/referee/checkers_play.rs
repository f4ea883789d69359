//! The games of a checkers match: its players (engines speaking the line
//! protocol with `set rules checkers`, seeded random movers), the seeded
//! random openings, and one refereed game — wall-time clocks, faults that
//! lose, and the referee's draw rules, since the checkers rules have none.

use super::checkers_match::{CheckersConfig, CheckersEnding, CheckersResult, QUIET_PLIES};
use super::clock::Clocks;
use super::external::{Claims, read_move, shown, sync};
use super::player::{EngineBinary, Fault, FaultKind, PlayerSpec};
use super::process::Process;
use crate::checkers::{Action, Color as Side, Move, Record};
use crate::chess::Color;
use crate::rng::SplitMix;
use std::time::{Duration, Instant};

/// The clock seat of a checkers side: Black moves first, as White does
/// in chess.
fn seat(side: Side) -> Color {
    match side {
        Side::Black => Color::White,
        Side::White => Color::Black,
    }
}

/// What a player is told when it is to move.
pub struct Turn<'a> {
    record: &'a Record,
    my_ms: u64,
    their_ms: u64,
    deadline: Instant,
}

/// One side of a checkers game.
pub trait CheckersPlayer: Send {
    /// A new game: the player has `side`.
    fn new_game(&mut self, side: Side);
    /// Its move, as text.
    fn choose(&mut self, turn: &Turn) -> Result<String, Fault>;
}

/// Seeded random legal moves.
struct RandomMover(SplitMix);

impl CheckersPlayer for RandomMover {
    fn new_game(&mut self, _side: Side) {}

    fn choose(&mut self, turn: &Turn) -> Result<String, Fault> {
        let moves = turn.record.position().legal_moves();
        let mv = moves[self.0.below(moves.len())];
        Ok(mv.to_string())
    }
}

/// An engine speaking the line protocol with `set rules checkers`.
struct LineEngine {
    process: Process,
    level: u32,
    options: Vec<(String, String)>,
    side: Side,
    /// The moves the engine has been told, if it is in step.
    known: Option<Vec<Move>>,
}

impl LineEngine {
    fn start(
        name: &str,
        argv: &[String],
        level: u32,
        options: &[(String, String)],
    ) -> Result<LineEngine, Fault> {
        let mut process = Process::spawn(name, argv)?;
        sync(&mut process)?;
        Ok(LineEngine {
            process,
            level,
            options: options.to_vec(),
            side: Side::Black,
            known: None,
        })
    }

    /// Tells the engine the current position as a new game.
    fn restart(&mut self, record: &Record, moves: &[Move]) -> Result<(), Fault> {
        self.process.send("set rules checkers")?;
        for (name, value) in &self.options {
            self.process.send(&format!("set {name} {value}"))?;
        }
        let mut new = format!("new {} {}", self.side.name(), self.level);
        if !moves.is_empty() {
            new.push(' ');
            new.push_str(&record.position().to_line());
        }
        self.process.send(&new)?;
        sync(&mut self.process)?;
        self.known = Some(moves.to_vec());
        Ok(())
    }
}

/// The moves of `record` (its actions are moves only in a match).
pub(super) fn moves_of(record: &Record) -> Vec<Move> {
    record
        .actions()
        .iter()
        .filter_map(|a| match a {
            Action::Move(m) => Some(*m),
            _ => None,
        })
        .collect()
}

impl CheckersPlayer for LineEngine {
    fn new_game(&mut self, side: Side) {
        self.side = side;
        self.known = None;
    }

    fn choose(&mut self, turn: &Turn) -> Result<String, Fault> {
        let moves = moves_of(turn.record);
        let news = match &self.known {
            Some(known) if moves.starts_with(known) && moves.len() <= known.len() + 1 => {
                moves.get(known.len()).copied()
            }
            _ => {
                self.restart(turn.record, &moves)?;
                None
            }
        };
        let opponent = news.map_or("-".to_string(), |m| m.to_string());
        self.process
            .send(&format!("move {opponent} {} {}", turn.my_ms, turn.their_ms))?;
        let answer = read_move(
            &mut self.process,
            turn.deadline,
            "<squares>",
            Claims::Unknown,
        )?;
        if let (Some(known), Ok(own)) =
            (&mut self.known, turn.record.position().parse_move(&answer))
        {
            known.extend(news);
            known.push(own);
        }
        Ok(answer)
    }
}

/// Starts the player of `spec`.
pub(super) fn build(
    spec: &PlayerSpec,
    name: &str,
    engine: &EngineBinary,
) -> Result<Box<dyn CheckersPlayer>, Fault> {
    Ok(match spec {
        PlayerSpec::Builtin { level } => {
            Box::new(LineEngine::start(name, &[engine.path()?], *level, &[])?)
        }
        PlayerSpec::Line {
            argv,
            level,
            options,
        } => Box::new(LineEngine::start(name, argv, *level, options)?),
        PlayerSpec::Random { seed } => Box::new(RandomMover(SplitMix(*seed))),
        PlayerSpec::Human | PlayerSpec::Uci { .. } => {
            return Err(Fault::new(
                FaultKind::Crash,
                "checkers matches take level:N, proto:COMMAND and random:SEED players",
            ));
        }
    })
}

/// The seeded random plies of pair `pair`: none that end the game.
pub(super) fn random_opening(plies: u32, seed: u64, pair: u32) -> Vec<Move> {
    let mut rng = SplitMix(seed ^ u64::from(pair).wrapping_mul(0x9E37_79B9_7F4A_7C15));
    for _ in 0..100 {
        let mut record = Record::new();
        let mut moves = Vec::new();
        for _ in 0..plies {
            let legal = record.position().legal_moves();
            if legal.is_empty() {
                break;
            }
            let mv = legal[rng.below(legal.len())];
            if record.apply(Action::Move(mv)).is_err() {
                break;
            }
            moves.push(mv);
        }
        if record.result().is_none() && moves.len() == plies as usize {
            return moves;
        }
    }
    Vec::new()
}

/// Plays one game; `black` moves first.
pub(super) fn play_game(
    config: &CheckersConfig,
    black: &mut dyn CheckersPlayer,
    white: &mut dyn CheckersPlayer,
    opening: &[Move],
) -> CheckersResult {
    let mut record = Record::new();
    for mv in opening {
        // The opening was played from the start position: it is legal.
        let _ = record.apply(Action::Move(*mv));
    }
    black.new_game(Side::Black);
    white.new_game(Side::White);
    let mut clocks = Clocks::new(config.time_ms, config.time_ms, config.increment_ms);
    let mut left_after = Vec::new();
    let end = |record: &Record, winner, ending, clocks: Vec<u64>| CheckersResult {
        moves: moves_of(record),
        opening_plies: opening.len(),
        winner,
        ending,
        clocks,
    };
    loop {
        let pos = *record.position();
        let side = pos.side_to_move();
        if !pos.has_moves() {
            return end(
                &record,
                Some(side.opponent()),
                CheckersEnding::NoMoves,
                left_after,
            );
        }
        let key = pos.zobrist_key();
        let times = record.keys().iter().filter(|&&k| k == key).count();
        if times >= config.repetitions as usize {
            return end(
                &record,
                None,
                CheckersEnding::Repetition(config.repetitions),
                left_after,
            );
        }
        if pos.quiet_plies() >= QUIET_PLIES {
            return end(&record, None, CheckersEnding::Quiet, left_after);
        }
        if let Some(cap) = config.max_plies
            && record.actions().len() >= cap as usize
        {
            return end(&record, None, CheckersEnding::PlyCap(cap), left_after);
        }
        let player: &mut dyn CheckersPlayer = match side {
            Side::Black => &mut *black,
            Side::White => &mut *white,
        };
        let me = seat(side);
        let left = clocks.left(me);
        let turn = Turn {
            record: &record,
            my_ms: clocks.left_ms(me),
            their_ms: clocks.left_ms(me.flip()),
            deadline: Instant::now() + left + Duration::from_millis(config.grace_ms),
        };
        clocks.start(me);
        let answer = player.choose(&turn);
        let stopped = clocks.stop();
        let lost = |fault: Fault| CheckersEnding::Fault { side, fault };
        let text = match answer {
            Ok(text) => text,
            Err(fault) => return end(&record, Some(side.opponent()), lost(fault), left_after),
        };
        if let Some(s) = stopped
            && s.flagged
        {
            let fault = Fault::late(s.elapsed, left);
            return end(&record, Some(side.opponent()), lost(fault), left_after);
        }
        let played = pos
            .parse_move(text.trim())
            .map_err(|e| e.to_string())
            .and_then(|mv| record.apply(Action::Move(mv)).map_err(|e| e.to_string()));
        if let Err(why) = played {
            let kind = if text.trim().split('-').all(|s| s.parse::<u32>().is_ok()) {
                FaultKind::Illegal
            } else {
                FaultKind::Malformed
            };
            let text = shown(text.trim());
            let detail = if why.contains(&text) {
                why
            } else {
                format!("{text}: {why}")
            };
            let fault = Fault::new(kind, detail);
            return end(&record, Some(side.opponent()), lost(fault), left_after);
        }
        left_after.push(clocks.left_ms(me));
    }
}
