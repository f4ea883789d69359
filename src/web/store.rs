//! The games the server holds, by id: at most a fixed number, the oldest
//! idle one dropped to make room, and any game nobody has asked about for
//! a while dropped by a sweeper, so memory stays bounded whatever the
//! browsers do.
//!
//! Each game sits in a [`Slot`] with its own lock and a version number
//! that goes up with every change, so a page can wait for the next
//! version (a long poll) instead of asking again and again.

use std::collections::HashMap;
use std::collections::hash_map::RandomState;
use std::hash::{BuildHasher, Hasher};
use std::ops::{Deref, DerefMut};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};

/// What a held game must do when it is dropped: stop any work it has
/// under way (a thinking machine), since that work holds the game alive.
pub trait Retire: Send + 'static {
    /// The game leaves the store.
    fn retire(&mut self);
}

/// A game id: 16 hex digits, hard to guess.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct GameId(u64);

impl GameId {
    /// Reads an id from a URL; `None` if it is not one.
    pub fn parse(text: &str) -> Option<GameId> {
        if text.len() != 16 {
            return None;
        }
        u64::from_str_radix(text, 16).ok().map(GameId)
    }

    /// A number from the id, to seed the game's random choices.
    pub fn seed(self) -> u64 {
        self.0
    }

    /// A game's seed when the request names none: from the id, and short
    /// enough for a person to type back into a program's `--seed` or the
    /// engine's `set seed`.
    pub fn short_seed(self) -> u64 {
        self.0 % 1_000_000
    }
}

impl std::fmt::Display for GameId {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        write!(f, "{:016x}", self.0)
    }
}

/// A mutex whose data stays usable even if a holder panicked.
fn lock<T: ?Sized>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

struct Held<G> {
    game: G,
    version: u64,
}

/// One game, its lock and its version.
pub struct Slot<G> {
    id: GameId,
    held: Mutex<Held<G>>,
    changed: Condvar,
    /// Milliseconds since the store's epoch when someone last asked.
    touched: AtomicU64,
    /// The store's use count then: orders uses closer than a millisecond.
    used: AtomicU64,
}

impl<G> Slot<G> {
    /// The game's id.
    pub fn id(&self) -> GameId {
        self.id
    }

    /// Locks the game.
    pub fn lock(&self) -> Guard<'_, G> {
        Guard {
            held: lock(&self.held),
            slot: self,
            changed: false,
        }
    }

    /// Locks the game once its version differs from `seen`, or after
    /// `timeout`, whichever comes first.
    pub fn wait_change(&self, seen: u64, timeout: Duration) -> Guard<'_, G> {
        let deadline = Instant::now() + timeout;
        let mut held = lock(&self.held);
        while held.version == seen {
            let now = Instant::now();
            if now >= deadline {
                break;
            }
            held = match self.changed.wait_timeout(held, deadline - now) {
                Ok((held, _)) => held,
                Err(poisoned) => poisoned.into_inner().0,
            };
        }
        Guard {
            held,
            slot: self,
            changed: false,
        }
    }
}

/// A locked game. Whoever changes it calls [`Guard::changed`]; the
/// version then goes up and waiting pages wake when the lock is released.
pub struct Guard<'a, G> {
    held: MutexGuard<'a, Held<G>>,
    slot: &'a Slot<G>,
    changed: bool,
}

impl<G> Guard<'_, G> {
    /// Marks the game as changed.
    pub fn changed(&mut self) {
        self.changed = true;
    }

    /// The version, counting a change marked but not yet published.
    pub fn version(&self) -> u64 {
        self.held.version + u64::from(self.changed)
    }

    /// The game's id.
    pub fn id(&self) -> GameId {
        self.slot.id
    }
}

impl<G> Deref for Guard<'_, G> {
    type Target = G;
    fn deref(&self) -> &G {
        &self.held.game
    }
}

impl<G> DerefMut for Guard<'_, G> {
    fn deref_mut(&mut self) -> &mut G {
        &mut self.held.game
    }
}

impl<G> Drop for Guard<'_, G> {
    fn drop(&mut self) {
        if self.changed {
            self.held.version += 1;
            self.slot.changed.notify_all();
        }
    }
}

/// The games of one family.
pub struct Store<G> {
    games: Mutex<HashMap<GameId, Arc<Slot<G>>>>,
    cap: usize,
    idle: Duration,
    epoch: Instant,
    ids: RandomState,
    counter: AtomicU64,
    uses: AtomicU64,
}

impl<G: Retire> Store<G> {
    /// A store of at most `cap` games that drops games idle for `idle`.
    pub fn new(cap: usize, idle: Duration) -> Store<G> {
        Store {
            games: Mutex::new(HashMap::new()),
            cap: cap.max(1),
            idle,
            epoch: Instant::now(),
            ids: RandomState::new(),
            counter: AtomicU64::new(0),
            uses: AtomicU64::new(0),
        }
    }

    fn now_ms(&self) -> u64 {
        u64::try_from(self.epoch.elapsed().as_millis()).unwrap_or(u64::MAX)
    }

    fn new_id(&self, taken: &HashMap<GameId, Arc<Slot<G>>>) -> GameId {
        loop {
            // RandomState is seeded from the system's randomness per
            // process; hashing a counter gives ids nobody can predict.
            let mut hasher = self.ids.build_hasher();
            hasher.write_u64(self.counter.fetch_add(1, Ordering::Relaxed));
            let id = GameId(hasher.finish());
            if !taken.contains_key(&id) {
                return id;
            }
        }
    }

    /// Adds a game made by `make` from its new id; drops the games idle
    /// too long, and the least recently used one if the store is full.
    pub fn insert(&self, make: impl FnOnce(GameId) -> G) -> Arc<Slot<G>> {
        let mut games = lock(&self.games);
        let mut dropped = self.drop_idle(&mut games);
        if games.len() >= self.cap {
            let oldest = games
                .values()
                .min_by_key(|s| s.used.load(Ordering::Relaxed))
                .map(|s| s.id);
            if let Some(slot) = oldest.and_then(|id| games.remove(&id)) {
                log::info!("dropping game {} to make room", slot.id);
                dropped.push(slot);
            }
        }
        let id = self.new_id(&games);
        let slot = Arc::new(Slot {
            id,
            held: Mutex::new(Held {
                game: make(id),
                version: 0,
            }),
            changed: Condvar::new(),
            touched: AtomicU64::new(self.now_ms()),
            used: AtomicU64::new(self.uses.fetch_add(1, Ordering::Relaxed)),
        });
        games.insert(id, Arc::clone(&slot));
        drop(games);
        retire(dropped);
        slot
    }

    /// The game with this id (as text from a URL), marked as used now.
    pub fn get(&self, id: &str) -> Option<Arc<Slot<G>>> {
        let id = GameId::parse(id)?;
        let slot = lock(&self.games).get(&id).cloned()?;
        slot.touched.store(self.now_ms(), Ordering::Relaxed);
        slot.used
            .store(self.uses.fetch_add(1, Ordering::Relaxed), Ordering::Relaxed);
        Some(slot)
    }

    /// How many games are held.
    pub fn len(&self) -> usize {
        lock(&self.games).len()
    }

    /// Whether no game is held.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Drops the games nobody asked about for the idle time.
    pub fn sweep(&self) {
        let dropped = self.drop_idle(&mut lock(&self.games));
        retire(dropped);
    }

    fn drop_idle(&self, games: &mut HashMap<GameId, Arc<Slot<G>>>) -> Vec<Arc<Slot<G>>> {
        let idle_ms = u64::try_from(self.idle.as_millis()).unwrap_or(u64::MAX);
        let now = self.now_ms();
        let stale: Vec<GameId> = games
            .values()
            .filter(|s| now.saturating_sub(s.touched.load(Ordering::Relaxed)) >= idle_ms)
            .map(|s| s.id)
            .collect();
        stale.iter().filter_map(|id| games.remove(id)).collect()
    }
}

/// Tells dropped games to stop, outside the store's lock.
fn retire<G: Retire>(dropped: Vec<Arc<Slot<G>>>) {
    for slot in dropped {
        log::info!("game {} dropped", slot.id);
        slot.lock().retire();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Toy {
        retired: Arc<AtomicU64>,
    }

    impl Retire for Toy {
        fn retire(&mut self) {
            self.retired.fetch_add(1, Ordering::Relaxed);
        }
    }

    #[test]
    fn cap_drops_the_least_recently_used() {
        let retired = Arc::new(AtomicU64::new(0));
        let store = Store::new(2, Duration::from_secs(3600));
        let toy = || Toy {
            retired: Arc::clone(&retired),
        };
        let a = store.insert(|_| toy()).id().to_string();
        let b = store.insert(|_| toy()).id().to_string();
        assert!(store.get(&a).is_some());
        let c = store.insert(|_| toy()).id().to_string();
        assert_eq!(store.len(), 2);
        assert!(store.get(&a).is_some() && store.get(&c).is_some());
        assert!(store.get(&b).is_none());
        assert_eq!(retired.load(Ordering::Relaxed), 1);
        assert!(store.get("not an id").is_none());
    }

    #[test]
    fn idle_games_are_swept() {
        let retired = Arc::new(AtomicU64::new(0));
        let store = Store::new(8, Duration::ZERO);
        store.insert(|_| Toy {
            retired: Arc::clone(&retired),
        });
        store.sweep();
        assert!(store.is_empty());
        assert_eq!(retired.load(Ordering::Relaxed), 1);
    }

    #[test]
    fn versions_wake_waiters() {
        let store: Store<Toy> = Store::new(8, Duration::from_secs(3600));
        let slot = store.insert(|_| Toy {
            retired: Arc::new(AtomicU64::new(0)),
        });
        let seen = slot.lock().version();
        let waiter = {
            let slot = Arc::clone(&slot);
            std::thread::spawn(move || slot.wait_change(seen, Duration::from_secs(30)).version())
        };
        std::thread::sleep(Duration::from_millis(20));
        slot.lock().changed();
        assert_eq!(waiter.join().unwrap(), seen + 1);
        let start = Instant::now();
        let _ = slot.wait_change(seen + 1, Duration::from_millis(10));
        assert!(start.elapsed() >= Duration::from_millis(10));
    }
}
