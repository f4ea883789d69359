//! Analysis on request: the engine's evaluation and best line for one
//! position of antichess or chess, for a person learning a variant where
//! intuition from chess misleads (`POST /api/chess/analysis`).
//!
//! It must never slow a game being played, so it is bounded every way:
//! one analysis at a time, on a thread of its own (another request while
//! it runs is refused `503 busy` at once, never queued), at most
//! [`MOST_TIME`] and [`MOST_NODES`] a position, a small table of its own
//! (not a game's), and a game file of at most [`MOST_FILE`] bytes. On
//! Linux its thread runs at the lowest priority (nice 19), so the
//! machine's search in a game being played keeps the cores. The
//! search is the engine's own ([`Searcher`]), from a cleared table, so
//! an analysis cut by its node cap is reproducible.

use super::body::Body;
use super::server::ApiError;
use crate::chess::{FileStyle, GameFile, Move, Position, Rules, Status};
use crate::search::{Game, Limits, ScoreKind, Searcher};
use serde_json::{Value, json};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, mpsc};
use std::time::{Duration, Instant};

/// Longest an analysis searches.
pub const MOST_TIME: Duration = Duration::from_millis(1000);

/// Most nodes an analysis visits: about a second of a release build.
pub const MOST_NODES: u64 = 2_000_000;

/// Longest game file taken, bytes (a 2002 file is about 90).
pub const MOST_FILE: usize = 2048;

/// Transposition table of the analysis, MiB.
const HASH_MIB: usize = 16;

/// Stack of the analysing thread: the search keeps a few kilobytes a ply.
const STACK: usize = 32 << 20;

/// Most moves of the best line given.
const MOST_PV: usize = 16;

/// What is asked: a position, the keys of the positions before it
/// (repetitions), and how long to look.
#[derive(Clone, Debug)]
pub struct Job {
    /// The position to analyse.
    pub position: Position,
    /// Keys of the game's earlier positions, oldest first.
    pub history: Vec<u64>,
    /// Time to search, at most [`MOST_TIME`].
    pub time: Duration,
    /// Nodes to search, at most [`MOST_NODES`].
    pub nodes: u64,
}

/// The one analyst of a server: its table and whether it is busy.
pub struct Analyst {
    shared: Arc<Shared>,
}

struct Shared {
    busy: AtomicBool,
    searcher: Mutex<Option<Box<Searcher<Position>>>>,
}

/// The right to analyse, held by the analysing thread and given back
/// when it drops, even when the page that asked has gone.
struct Permit(Arc<Shared>);

impl Drop for Permit {
    fn drop(&mut self) {
        self.0.busy.store(false, Ordering::Release);
    }
}

/// 503: another analysis is under way.
pub fn busy() -> ApiError {
    ApiError::new(
        503,
        "busy",
        "the engine is analysing another position; ask again in a second",
    )
}

impl Analyst {
    /// An idle analyst; its table is made at the first analysis.
    pub fn new() -> Analyst {
        Analyst {
            shared: Arc::new(Shared {
                busy: AtomicBool::new(false),
                searcher: Mutex::new(None),
            }),
        }
    }

    fn permit(&self) -> Option<Permit> {
        self.shared
            .busy
            .compare_exchange(false, true, Ordering::AcqRel, Ordering::Acquire)
            .ok()
            .map(|_| Permit(Arc::clone(&self.shared)))
    }

    /// Analyses `job` on the analysing thread and waits for its answer
    /// (at most about [`MOST_TIME`]); `busy` if one is under way.
    pub fn analyse(&self, job: Job) -> Result<Value, ApiError> {
        let permit = self.permit().ok_or_else(busy)?;
        let (answer, answered) = mpsc::channel();
        std::thread::Builder::new()
            .name("analysis".into())
            .stack_size(STACK)
            .spawn(move || {
                lowest_priority();
                let result = search(&permit.0, &job);
                drop(permit);
                let _ = answer.send(result);
            })
            .map_err(|e| ApiError::new(503, "busy", format!("cannot start the analysis: {e}")))?;
        answered
            .recv()
            .unwrap_or_else(|_| Err(ApiError::new(500, "internal", "the analysis failed")))
    }

    /// Reads a request body: `{"rules", "file"}` (a game file of either
    /// handout) and optionally `"ms"` (at most [`MOST_TIME`]) and
    /// `"nodes"` (at most [`MOST_NODES`]).
    pub fn job_from(body: &Body) -> Result<Job, ApiError> {
        let rules: Rules = body
            .need_text("rules")?
            .parse()
            .map_err(|e| ApiError::bad_field(format!("'rules': {e}")))?;
        let file = body.need_text("file")?;
        if file.len() > MOST_FILE {
            return Err(ApiError::bad_field(format!(
                "'file' is {} bytes; a game file has at most {MOST_FILE}",
                file.len()
            )));
        }
        let parsed = GameFile::parse(file, rules)
            .map_err(|e| ApiError::bad_field(format!("'file' is not a game file: {e}")))?;
        let most_ms = MOST_TIME.as_millis() as u64;
        let ms = body.number("ms", most_ms)?.unwrap_or(most_ms).max(1);
        let nodes = body.number("nodes", MOST_NODES)?.unwrap_or(MOST_NODES);
        Ok(Job {
            position: parsed.position,
            history: Vec::new(),
            time: Duration::from_millis(ms),
            nodes: nodes.max(1),
        })
    }
}

impl Default for Analyst {
    fn default() -> Analyst {
        Analyst::new()
    }
}

/// Puts the calling thread at nice 19: the scheduler then gives a game's
/// search at nice 0 about 98% of a core they share.
fn lowest_priority() {
    #[cfg(target_os = "linux")]
    {
        // SAFETY: gettid and setpriority take and return plain integers and
        // touch no memory of ours; on Linux PRIO_PROCESS with a thread id
        // changes that thread alone.
        let done = unsafe {
            let tid = libc::gettid();
            libc::setpriority(libc::PRIO_PROCESS, tid as libc::id_t, 19)
        };
        if done != 0 {
            log::debug!("the analysis runs at normal priority");
        }
    }
}

/// The search itself, on the analysing thread.
fn search(shared: &Shared, job: &Job) -> Result<Value, ApiError> {
    let mut slot = shared.searcher.lock().unwrap_or_else(|p| p.into_inner());
    if slot.is_none() {
        let made = Searcher::new(HASH_MIB)
            .map_err(|e| ApiError::new(503, "busy", format!("no memory to analyse: {e}")))?;
        *slot = Some(Box::new(made));
    }
    let Some(searcher) = slot.as_mut() else {
        return Err(ApiError::new(500, "internal", "the analysis has no table"));
    };
    let position = &job.position;
    searcher.new_game(&position.search_params());
    let limits = Limits {
        nodes: Some(job.nodes.min(MOST_NODES)),
        movetime: Some(job.time.min(MOST_TIME)),
        start: Some(Instant::now()),
        ..Limits::default()
    };
    let stop = AtomicBool::new(false);
    let result = searcher.search(position, &job.history, &limits, &stop, |_| {});
    let mover = position.side_to_move();
    let score = match ScoreKind::of(result.score) {
        ScoreKind::Centipawns(cp) => json!({ "cp": cp }),
        ScoreKind::Mate(n) if n > 0 => json!({ "win_in": n }),
        ScoreKind::Mate(n) => json!({ "lose_in": -n }),
    };
    let pv = line(position, &result.pv);
    Ok(json!({
        "rules": position.rules().name(),
        "to_move": mover.name(),
        "over": over(position),
        "score": score,
        "pv": pv,
        "depth": result.depth,
        "seldepth": result.seldepth,
        "nodes": result.nodes,
        "ms": result.elapsed.as_millis() as u64,
        "file": GameFile {
            position: *position,
            white_ms: 0,
            black_ms: 0,
            style: FileStyle::Y2002,
        }
        .write(" "),
    }))
}

/// The best line in the handout's notation, each move checked legal as
/// it is played out (a line from the table that went stale ends there).
fn line(start: &Position, pv: &[Move]) -> Vec<String> {
    let mut position = *start;
    let mut out = Vec::new();
    for &mv in pv.iter().take(MOST_PV) {
        let mut legal = crate::search::MoveList::new();
        position.generate(&mut legal);
        if !legal.contains(&mv) {
            break;
        }
        out.push(mv.handout().to_string());
        position = position.play(mv);
    }
    out
}

/// How the game stands if it is over there: the winner and the reason.
fn over(position: &Position) -> Value {
    match position.status() {
        Status::Won { winner, reason } => json!({
            "winner": winner.name(),
            "reason": reason.name(),
        }),
        Status::Drawn(reason) => json!({ "winner": null, "reason": reason.name() }),
        _ => Value::Null,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// While one analysis holds the permit, another is refused at once
    /// with 503 `busy`; once it is given back, analysis works again.
    #[test]
    fn a_second_analysis_is_refused_while_one_runs() {
        let analyst = Analyst::new();
        let job = Job {
            position: Position::startpos(Rules::Antichess),
            history: Vec::new(),
            time: Duration::from_millis(50),
            nodes: 2_000,
        };
        let held = analyst.permit().expect("idle at first");
        let refused = analyst.analyse(job.clone()).unwrap_err();
        assert_eq!((refused.status, refused.code), (503, "busy"));
        drop(held);
        let answer = analyst.analyse(job).expect("idle again");
        assert_eq!(answer["pv"][0].as_str().map(|m| m.len()), Some(5));
    }
}
