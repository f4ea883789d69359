//! The machine's moves for the web games: the engine's own thinker
//! (level ladder, search, time management) run in-process in a thread of
//! its own, so a request never waits for a search.
//!
//! Thinkers are lent from a small pool: their tables are the memory the
//! server spends on searching, and their number is how many searches run
//! at once, however many games are held. A game waiting for a thinker
//! waits on its own thread; its clock runs as it would for a slow engine.

use crate::chess::Color;
use crate::engine::command::Go;
use crate::engine::levels::{Level, Quick};
use crate::engine::think::{Job, Thinker};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

/// Takes back a game's thinking token when the machine that held `stop`
/// answers; false when the game has since stopped that thinking or started
/// another (an undo, a new game), so the answer is stale.
pub fn finish_thinking(thinking: &mut Option<Arc<AtomicBool>>, stop: &Arc<AtomicBool>) -> bool {
    if !thinking.as_ref().is_some_and(|s| Arc::ptr_eq(s, stop)) {
        return false;
    }
    *thinking = None;
    true
}

/// Transposition table of each thinker, MiB.
const HASH_MIB: usize = 16;

/// Stack of a thinking thread: the search keeps a few kilobytes per ply.
const THINK_STACK: usize = 32 << 20;

/// What the machine is asked.
#[derive(Clone, Debug)]
pub struct Request<P> {
    /// The position to move in.
    pub position: P,
    /// The side to move there.
    pub side: Color,
    /// Keys of the game's earlier positions, oldest first.
    pub history: Vec<u64>,
    /// The machine's level.
    pub level: u32,
    /// Seed of the quick levels.
    pub seed: u64,
    /// White's and black's time left, ms.
    pub clocks: [u64; 2],
}

/// A pool of thinkers for one game family.
pub struct Machines<P: Quick> {
    free: Mutex<Pool<P>>,
    returned: Condvar,
    most: usize,
}

struct Pool<P: Quick> {
    idle: Vec<Thinker<P>>,
    made: usize,
}

impl<P: Quick + Send + 'static> Machines<P>
where
    P::Move: Send,
{
    /// A pool of at most `most` thinkers, made when first needed.
    pub fn new(most: usize) -> Machines<P> {
        Machines {
            free: Mutex::new(Pool {
                idle: Vec::new(),
                made: 0,
            }),
            returned: Condvar::new(),
            most: most.max(1),
        }
    }

    /// The number of searches the machine runs at once: the cores.
    pub fn default_size() -> usize {
        std::thread::available_parallelism().map_or(2, usize::from)
    }

    /// Borrows a thinker, making one if the pool has room, else waiting
    /// for one to come back; `None` if `stop` is raised first or no
    /// table can be had.
    fn borrow(&self, stop: &AtomicBool) -> Option<Thinker<P>> {
        let mut pool = self.free.lock().unwrap_or_else(|p| p.into_inner());
        loop {
            if stop.load(Ordering::Relaxed) {
                return None;
            }
            if let Some(thinker) = pool.idle.pop() {
                return Some(thinker);
            }
            if pool.made < self.most {
                pool.made += 1;
                drop(pool);
                return match Thinker::new(HASH_MIB) {
                    Ok(thinker) => Some(thinker),
                    Err(e) => {
                        log::error!("cannot make a thinker: {e}");
                        self.free.lock().unwrap_or_else(|p| p.into_inner()).made -= 1;
                        None
                    }
                };
            }
            pool = match self.returned.wait_timeout(pool, Duration::from_millis(100)) {
                Ok((pool, _)) => pool,
                Err(poisoned) => poisoned.into_inner().0,
            };
        }
    }

    fn give_back(&self, thinker: Thinker<P>) {
        let mut pool = self.free.lock().unwrap_or_else(|p| p.into_inner());
        pool.idle.push(thinker);
        self.returned.notify_one();
    }

    /// Chooses a move; `None` if the game is over or `stop` was raised
    /// before a thinker was free.
    pub fn think(&self, request: &Request<P>, stop: &AtomicBool) -> Option<P::Move> {
        let arrived = Instant::now();
        let mut thinker = self.borrow(stop)?;
        let [wtime, btime] = request.clocks;
        let job = Job {
            position: &request.position,
            side: request.side,
            history: &request.history,
            go: Go {
                wtime: Some(wtime),
                btime: Some(btime),
                ..Go::default()
            },
            level: Level(request.level),
            seed: request.seed,
            arrived,
            stop,
        };
        let chosen = thinker.think(&job, &mut |_| {});
        self.give_back(thinker);
        chosen
    }

    /// Thinks on a thread of its own and hands the move to `done`, unless
    /// `stop` is raised (the game changed or was dropped). Fails only if
    /// no thread can be started.
    pub fn think_in_background(
        self: &Arc<Self>,
        request: Request<P>,
        stop: Arc<AtomicBool>,
        done: impl FnOnce(Option<P::Move>) + Send + 'static,
    ) -> std::io::Result<()> {
        let machines = Arc::clone(self);
        let spawned = std::thread::Builder::new()
            .name("web machine".into())
            .stack_size(THINK_STACK)
            .spawn(move || {
                let chosen = machines.think(&request, &stop);
                if !stop.load(Ordering::Relaxed) {
                    done(chosen);
                }
            });
        spawned.map(drop)
    }
}
