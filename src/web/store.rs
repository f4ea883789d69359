//! The games the server holds in memory, by id: at most a fixed number,
//! the oldest idle one dropped to make room, and any game nobody has asked
//! about for a while dropped by a sweeper, so memory stays bounded
//! whatever the browsers do. Every game is also in the database ([`Db`]):
//! each change is written there before the lock is let go (so before the
//! answer goes out), and a game asked for that is not held is read back.
//!
//! Each game sits in a [`Slot`] with its own lock and a version number
//! that goes up with every change, so a page can wait for the next
//! version (a long poll, or server-sent events through [`Slot::watch`])
//! instead of asking again and again.

use std::cell::Cell;
use std::collections::HashMap;
use std::collections::hash_map::RandomState;
use std::hash::{BuildHasher, Hasher};
use std::ops::{Deref, DerefMut};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use super::db::{Db, Family, Saved};
use super::server::ApiError;
use tokio::sync::watch;

/// A game the store can hold and keep in the database.
pub trait Kept: Send + Sized + 'static {
    /// The family whose rows these are.
    const FAMILY: Family;

    /// The game leaves memory: stop any work it has under way (a thinking
    /// machine), since that work holds the game alive.
    fn retire(&mut self);

    /// What the database keeps of the game now.
    fn saved(&mut self) -> Saved;

    /// The game rebuilt from a record [`Kept::saved`] wrote; its clocks
    /// wait until it is started again.
    fn restore(id: GameId, record: &serde_json::Value) -> Result<Self, String>;
}

/// A game the pages show: what they draw of it now and, for a replay,
/// every position it went through.
pub trait Shown: Kept {
    /// The state a page draws (a chess game first lets a fallen flag end it).
    fn state(game: &mut Guard<'_, Self>) -> serde_json::Value;

    /// Every position the game went through, for the pages' replay.
    fn replay(&self, id: GameId) -> serde_json::Value;
}

/// A game id: 16 hex digits, hard to guess.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct GameId(u64);

impl GameId {
    /// Reads an id from a URL; `None` if it is not one.
    pub fn parse(text: &str) -> Option<GameId> {
        // One spelling per id, as it is printed: no sign, no capitals.
        if text.len() != 16 || !text.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f')) {
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
    /// The version, for waiters that must not block a thread.
    version: watch::Sender<u64>,
    db: Arc<Db>,
    /// Milliseconds since the store's epoch when someone last asked.
    touched: AtomicU64,
    /// The store's use count then: orders uses closer than a millisecond.
    used: AtomicU64,
}

impl<G: Kept> Slot<G> {
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

    /// The game's version now and each time it changes.
    pub fn watch(&self) -> watch::Receiver<u64> {
        self.version.subscribe()
    }
}

/// A locked game. Whoever changes it calls [`Guard::changed`]; the
/// version then goes up and waiting pages wake when the lock is released.
pub struct Guard<'a, G: Kept> {
    held: MutexGuard<'a, Held<G>>,
    slot: &'a Slot<G>,
    changed: bool,
}

impl<G: Kept> Guard<'_, G> {
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

impl<G: Kept> Deref for Guard<'_, G> {
    type Target = G;
    fn deref(&self) -> &G {
        &self.held.game
    }
}

impl<G: Kept> DerefMut for Guard<'_, G> {
    fn deref_mut(&mut self) -> &mut G {
        &mut self.held.game
    }
}

impl<G: Kept> Guard<'_, G> {
    /// Writes the game to the database as it is now.
    pub fn save(&mut self) {
        let version = self.held.version + u64::from(self.changed);
        let saved = self.held.game.saved();
        let id = self.slot.id.to_string();
        if let Err(e) = self.slot.db.save(G::FAMILY, &id, version, &saved) {
            log::error!("game {id} could not be saved: {e}");
            SAVE_FAILED.with(|failed| failed.set(true));
        }
    }
}

thread_local! {
    /// Whether a save on this thread failed since [`watch_saves`] began:
    /// a handler runs on one thread, and its answer must not claim a change
    /// the database does not hold.
    static SAVE_FAILED: Cell<bool> = const { Cell::new(false) };
}

/// Runs `handler` and says whether any game it changed could not be
/// written to the database.
pub fn watch_saves<T>(handler: impl FnOnce() -> T) -> (T, bool) {
    SAVE_FAILED.with(|failed| failed.set(false));
    let answer = handler();
    (answer, SAVE_FAILED.with(|failed| failed.replace(false)))
}

impl<G: Kept> Drop for Guard<'_, G> {
    fn drop(&mut self) {
        if self.changed {
            // On disk before the lock is let go, so before any answer.
            self.save();
            self.held.version += 1;
            self.slot.version.send_replace(self.held.version);
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
    db: Arc<Db>,
}

/// A game found: whether it was just read back from the database (its
/// family then starts its clock and machine again).
pub struct Found<G> {
    /// The game.
    pub slot: Arc<Slot<G>>,
    /// Read back from the database just now.
    pub restored: bool,
}

impl<G: Kept> Store<G> {
    /// A store of at most `cap` games in memory that drops games idle for
    /// `idle`; every game is kept in `db`.
    pub fn new(cap: usize, idle: Duration, db: Arc<Db>) -> Store<G> {
        Store {
            games: Mutex::new(HashMap::new()),
            cap: cap.max(1),
            idle,
            epoch: Instant::now(),
            ids: RandomState::new(),
            counter: AtomicU64::new(0),
            uses: AtomicU64::new(0),
            db,
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

    fn slot(&self, id: GameId, game: G, version: u64) -> Arc<Slot<G>> {
        Arc::new(Slot {
            id,
            held: Mutex::new(Held { game, version }),
            version: watch::Sender::new(version),
            db: Arc::clone(&self.db),
            touched: AtomicU64::new(self.now_ms()),
            used: AtomicU64::new(self.uses.fetch_add(1, Ordering::Relaxed)),
        })
    }

    /// Makes room for one more game: drops the games idle too long, and
    /// the least recently used one if the store is full.
    fn make_room(&self, games: &mut HashMap<GameId, Arc<Slot<G>>>) -> Vec<Arc<Slot<G>>> {
        let mut dropped = self.drop_idle(games);
        if games.len() >= self.cap {
            let oldest = games
                .values()
                .min_by_key(|s| s.used.load(Ordering::Relaxed))
                .map(|s| s.id);
            if let Some(slot) = oldest.and_then(|id| games.remove(&id)) {
                log::info!("dropping game {} from memory to make room", slot.id);
                dropped.push(slot);
            }
        }
        dropped
    }

    /// Adds a game made by `make` from its new id, written to the
    /// database at once.
    pub fn insert(&self, make: impl FnOnce(GameId) -> G) -> Arc<Slot<G>> {
        let mut games = lock(&self.games);
        let dropped = self.make_room(&mut games);
        let id = self.new_id(&games);
        let slot = self.slot(id, make(id), 0);
        games.insert(id, Arc::clone(&slot));
        drop(games);
        retire(dropped);
        slot.lock().save();
        slot
    }

    /// The game with this id (as text from a URL), marked as used now;
    /// one not in memory is read back from the database.
    pub fn get(&self, id: &str) -> Option<Found<G>> {
        let id = GameId::parse(id)?;
        let held = lock(&self.games).get(&id).cloned();
        let found = match held {
            Some(slot) => Found {
                slot,
                restored: false,
            },
            None => self.restore(id)?,
        };
        found.slot.touched.store(self.now_ms(), Ordering::Relaxed);
        found
            .slot
            .used
            .store(self.uses.fetch_add(1, Ordering::Relaxed), Ordering::Relaxed);
        Some(found)
    }

    /// The game `id` for a request (404 when there is none); one just read
    /// back from the database is handed to `wake`, which starts its clock
    /// and machine again.
    pub fn find(
        &self,
        id: &str,
        wake: impl FnOnce(&Arc<Slot<G>>, &mut Guard<'_, G>),
    ) -> Result<Arc<Slot<G>>, ApiError> {
        let found = self.get(id).ok_or_else(|| ApiError::unknown_game(id))?;
        if found.restored {
            let mut game = found.slot.lock();
            wake(&found.slot, &mut game);
        }
        Ok(found.slot)
    }

    fn restore(&self, id: GameId) -> Option<Found<G>> {
        let row = match self.db.load(G::FAMILY, &id.to_string()) {
            Ok(row) => row?,
            Err(e) => {
                log::error!("{e}");
                return None;
            }
        };
        let game = match G::restore(id, &row.record) {
            Ok(game) => game,
            Err(e) => {
                log::error!("game {id} cannot be rebuilt from the database: {e}");
                return None;
            }
        };
        let mut games = lock(&self.games);
        if let Some(slot) = games.get(&id) {
            // Read back meanwhile by another request.
            return Some(Found {
                slot: Arc::clone(slot),
                restored: false,
            });
        }
        let dropped = self.make_room(&mut games);
        // A version past any a page saw before, so its waits end.
        let slot = self.slot(id, game, row.version + 1);
        games.insert(id, Arc::clone(&slot));
        drop(games);
        retire(dropped);
        log::info!("game {id} read back from the database");
        Some(Found {
            slot,
            restored: true,
        })
    }

    /// The database.
    pub fn db(&self) -> &Arc<Db> {
        &self.db
    }

    /// How many games are held in memory.
    pub fn len(&self) -> usize {
        lock(&self.games).len()
    }

    /// Whether no game is held in memory.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Drops from memory the games nobody asked about for the idle time.
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

/// Tells dropped games to stop, outside the store's lock; they stay in
/// the database.
fn retire<G: Kept>(dropped: Vec<Arc<Slot<G>>>) {
    for slot in dropped {
        log::info!("game {} dropped from memory", slot.id);
        let mut game = slot.lock();
        game.retire();
        game.save();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    struct Toy {
        retired: Arc<AtomicU64>,
        moves: u64,
    }

    impl Kept for Toy {
        const FAMILY: Family = Family::Chess;
        fn retire(&mut self) {
            self.retired.fetch_add(1, Ordering::Relaxed);
        }
        fn saved(&mut self) -> Saved {
            Saved {
                summary: json!({"status": "playing"}),
                record: json!({"moves": self.moves}),
            }
        }
        fn restore(_: GameId, record: &serde_json::Value) -> Result<Toy, String> {
            Ok(Toy {
                retired: Arc::new(AtomicU64::new(0)),
                moves: record["moves"].as_u64().ok_or("no moves")?,
            })
        }
    }

    fn store(cap: usize, idle: Duration) -> Store<Toy> {
        Store::new(cap, idle, Arc::new(Db::open(":memory:").unwrap()))
    }

    #[test]
    fn cap_drops_the_least_recently_used_from_memory_only() {
        let retired = Arc::new(AtomicU64::new(0));
        let store = store(2, Duration::from_secs(3600));
        let toy = || Toy {
            retired: Arc::clone(&retired),
            moves: 0,
        };
        let a = store.insert(|_| toy()).id().to_string();
        let slot_b = store.insert(|_| toy());
        let b = slot_b.id().to_string();
        {
            let mut game = slot_b.lock();
            game.moves = 7;
            game.changed();
        }
        drop(slot_b);
        assert!(!store.get(&a).unwrap().restored);
        let c = store.insert(|_| toy()).id().to_string();
        assert_eq!(store.len(), 2);
        assert_eq!(retired.load(Ordering::Relaxed), 1);
        let back = store.get(&b).expect("b is read back");
        assert!(back.restored);
        assert_eq!(back.slot.lock().moves, 7);
        assert_eq!(back.slot.lock().version(), 2, "past the version seen");
        assert_eq!(store.len(), 2);
        assert!(store.get(&c).is_some());
        assert!(store.get("not an id").is_none());
    }

    #[test]
    fn a_refused_save_is_reported_to_the_handler() {
        let path =
            std::env::temp_dir().join(format!("antichess-save-{}.sqlite3", std::process::id()));
        let _ = std::fs::remove_file(&path);
        let db = Arc::new(Db::open(path.to_str().unwrap()).unwrap());
        let store = Store::new(4, Duration::from_secs(3600), Arc::clone(&db));
        let toy = || Toy {
            retired: Arc::new(AtomicU64::new(0)),
            moves: 0,
        };
        let slot = store.insert(|_| toy());
        let change = |moves| {
            watch_saves(|| {
                let mut game = slot.lock();
                game.moves = moves;
                game.changed();
            })
            .1
        };
        assert!(!change(1), "a kept change is not reported");
        // Another process takes the table away: the next save fails.
        rusqlite::Connection::open(&path)
            .unwrap()
            .execute_batch("DROP TABLE games")
            .unwrap();
        assert!(change(2), "a change the database refused is reported");
        assert!(!watch_saves(|| ()).1, "the report is for one handler only");
        drop((slot, store, db));
        let _ = std::fs::remove_file(&path);
    }

    #[test]
    fn ids_have_one_spelling() {
        assert!(GameId::parse("3f0c9a51d2e87b64").is_some());
        assert!(GameId::parse("3F0C9A51D2E87B64").is_none());
        assert!(GameId::parse("+f0c9a51d2e87b64").is_none());
        assert!(GameId::parse("3f0c9a51d2e87b6").is_none());
        let id = GameId::parse("000000000000000a").unwrap();
        assert_eq!(id.to_string(), "000000000000000a");
    }

    #[test]
    fn idle_games_are_swept() {
        let retired = Arc::new(AtomicU64::new(0));
        let store = store(8, Duration::ZERO);
        store.insert(|_| Toy {
            retired: Arc::clone(&retired),
            moves: 0,
        });
        store.sweep();
        assert!(store.is_empty());
        assert_eq!(retired.load(Ordering::Relaxed), 1);
    }

    #[test]
    fn versions_reach_watchers() {
        let store = store(8, Duration::from_secs(3600));
        let slot = store.insert(|_| Toy {
            retired: Arc::new(AtomicU64::new(0)),
            moves: 0,
        });
        let seen = slot.lock().version();
        let mut watch = slot.watch();
        assert!(!watch.has_changed().unwrap());
        slot.lock().changed();
        assert!(watch.has_changed().unwrap());
        assert_eq!(*watch.borrow_and_update(), seen + 1);
        // A look without a change wakes nobody.
        drop(slot.lock());
        assert!(!watch.has_changed().unwrap());
    }
}
