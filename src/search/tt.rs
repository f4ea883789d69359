//! The transposition table: a fixed-size cache of search results keyed by
//! position.
//!
//! Memory is allocated once, at creation or on an explicit [`resize`], and
//! never grows. Entries live in 64-byte buckets of four, one cache line
//! each. Every entry is two atomic words, the data and the key XOR the data,
//! so a reader detects a torn write by another thread (the key check fails)
//! without locks; that is what a later Lazy SMP search needs, and costs a
//! single-threaded search nothing.
//!
//! [`resize`]: TranspositionTable::resize

use super::game::Score;
use super::pages::{Block, Zeroable};
use std::fmt;
use std::sync::atomic::{AtomicU8, AtomicU64, Ordering};

/// What a stored score says about the true value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The true value is at most the score (every move failed low).
    Upper = 1,
    /// The true value is at least the score (a move failed high).
    Lower = 2,
    /// The score is the true value at the stored depth.
    Exact = 3,
}

/// One entry's contents: what a successful probe returns and what a store
/// takes. The score is node-relative; the search converts it to and from
/// a root-relative score.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TtHit {
    /// Packed best move, if one was stored.
    pub mv: Option<u16>,
    /// Stored score (node-relative).
    pub score: Score,
    /// Remaining depth the score was searched to.
    pub depth: i32,
    /// How the score bounds the true value.
    pub bound: Bound,
    /// The position was on a principal variation when stored (or an
    /// earlier entry for it said so).
    pub pv: bool,
}

/// Why a table could not be made.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TtError {
    /// A table needs at least one MiB.
    ZeroSize,
    /// The system refused the memory.
    OutOfMemory {
        /// The size asked for.
        mib: usize,
    },
}

impl fmt::Display for TtError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TtError::ZeroSize => write!(f, "hash size must be at least 1 MiB"),
            TtError::OutOfMemory { mib } => write!(f, "cannot allocate {mib} MiB of hash"),
        }
    }
}

impl std::error::Error for TtError {}

const ENTRIES_PER_BUCKET: usize = 4;
const BUCKET_BYTES: usize = 64;
const MIB: usize = 1 << 20;
/// Generations wrap in 6 bits; age is measured modulo this.
const GENERATIONS: u8 = 64;

#[derive(Default)]
struct Entry {
    /// Position key XOR `data`.
    check: AtomicU64,
    data: AtomicU64,
}

#[derive(Default)]
#[repr(align(64))]
struct Bucket {
    entries: [Entry; ENTRIES_PER_BUCKET],
}

// SAFETY: a bucket is atomic words, and zero words are an empty entry.
unsafe impl Zeroable for Bucket {}

/// Unpacked form of an entry's data word:
/// move (16 bits) | move present (1) | score (16) | depth (8) | bound (2) |
/// generation (6) | pv (1). An all-zero word (bound 0) is an empty entry.
#[derive(Clone, Copy)]
struct Data {
    mv: Option<u16>,
    score: Score,
    depth: u8,
    bound: u8,
    generation: u8,
    pv: bool,
}

impl Data {
    fn pack(self) -> u64 {
        u64::from(self.mv.unwrap_or(0))
            | u64::from(self.mv.is_some()) << 16
            | u64::from(self.score as i16 as u16) << 17
            | u64::from(self.depth) << 33
            | u64::from(self.bound) << 41
            | u64::from(self.generation) << 43
            | u64::from(self.pv) << 49
    }

    fn unpack(word: u64) -> Data {
        Data {
            mv: (word >> 16 & 1 == 1).then_some(word as u16),
            score: Score::from((word >> 17) as u16 as i16),
            depth: (word >> 33) as u8,
            bound: (word >> 41) as u8 & 3,
            generation: (word >> 43) as u8 & (GENERATIONS - 1),
            pv: word >> 49 & 1 == 1,
        }
    }
}

/// A fixed-size, lock-free transposition table.
pub struct TranspositionTable {
    buckets: Block<Bucket>,
    generation: AtomicU8,
}

impl TranspositionTable {
    /// Allocates a cleared table of exactly `mib` MiB.
    pub fn new(mib: usize) -> Result<Self, TtError> {
        Ok(TranspositionTable {
            buckets: allocate(mib)?,
            generation: AtomicU8::new(0),
        })
    }

    /// Replaces the table by a cleared one of `mib` MiB. On failure the old
    /// table is kept.
    pub fn resize(&mut self, mib: usize) -> Result<(), TtError> {
        // Free the old table first (for a stand-in of the least size), so
        // old and new never coexist in memory.
        let old_mib = self.size_bytes() / MIB;
        self.buckets = allocate(1)?;
        match allocate(mib) {
            Ok(buckets) => {
                self.buckets = buckets;
                Ok(())
            }
            Err(err) => {
                self.buckets = allocate(old_mib)?;
                Err(err)
            }
        }
    }

    /// Forgets every entry (a new game).
    pub fn clear(&mut self) {
        for entry in self.buckets.iter_mut().flat_map(|b| b.entries.iter_mut()) {
            *entry.check.get_mut() = 0;
            *entry.data.get_mut() = 0;
        }
        *self.generation.get_mut() = 0;
    }

    /// Memory held by the entries, in bytes; fixed between resizes.
    pub fn size_bytes(&self) -> usize {
        self.buckets.len() * BUCKET_BYTES
    }

    /// Number of entries the table can hold.
    pub fn capacity(&self) -> usize {
        self.buckets.len() * ENTRIES_PER_BUCKET
    }

    /// Starts a new search: older entries become preferred victims.
    pub fn new_search(&self) {
        let next = (self.generation.load(Ordering::Relaxed) + 1) % GENERATIONS;
        self.generation.store(next, Ordering::Relaxed);
    }

    /// Permille of sampled entries written during the current search, as
    /// UCI `hashfull` wants it.
    pub fn hashfull(&self) -> u32 {
        let generation = self.generation.load(Ordering::Relaxed);
        let sample = self
            .buckets
            .iter()
            .flat_map(|b| b.entries.iter())
            .take(1000);
        let (mut used, mut seen) = (0, 0);
        for entry in sample {
            let data = Data::unpack(entry.data.load(Ordering::Relaxed));
            used += u32::from(data.bound != 0 && data.generation == generation);
            seen += 1;
        }
        used * 1000 / seen.max(1)
    }

    /// Looks `key` up.
    pub fn probe(&self, key: u64) -> Option<TtHit> {
        self.bucket(key).entries.iter().find_map(|entry| {
            let data = entry.data.load(Ordering::Relaxed);
            let check = entry.check.load(Ordering::Relaxed);
            if check ^ data != key {
                return None;
            }
            let d = Data::unpack(data);
            let bound = match d.bound {
                1 => Bound::Upper,
                2 => Bound::Lower,
                3 => Bound::Exact,
                _ => return None,
            };
            Some(TtHit {
                mv: d.mv,
                score: d.score,
                depth: i32::from(d.depth),
                bound,
                pv: d.pv,
            })
        })
    }

    /// Stores a result for `key`. Its score must already be node-relative
    /// (mate distances counted from this node); its depth is clamped to
    /// 0..=255. Without a move, a move stored earlier for the same position
    /// is kept.
    pub fn store(&self, key: u64, result: TtHit) {
        let generation = self.generation.load(Ordering::Relaxed);
        let bucket = self.bucket(key);
        let mut victim = &bucket.entries[0];
        let mut victim_worth = i32::MAX;
        for entry in &bucket.entries {
            let data = entry.data.load(Ordering::Relaxed);
            let old = Data::unpack(data);
            if entry.check.load(Ordering::Relaxed) ^ data == key && old.bound != 0 {
                // Same position: always refresh, but keep its move if we
                // have none to offer.
                let mv = result.mv.or(old.mv);
                return write(entry, key, TtHit { mv, ..result }, generation);
            }
            // Empty entries cost nothing; then shallow and old ones.
            let worth = if old.bound == 0 {
                i32::MIN
            } else {
                let age = (generation + GENERATIONS - old.generation) % GENERATIONS;
                i32::from(old.depth) - 8 * i32::from(age)
            };
            if worth < victim_worth {
                victim_worth = worth;
                victim = entry;
            }
        }
        write(victim, key, result, generation);
    }

    /// Starts loading `key`'s bucket into the cache, so that a probe a
    /// little later (once the move is made and the child's checks are
    /// done) does not wait for memory.
    #[inline]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
            let bucket: *const Bucket = self.bucket(key);
            // SAFETY: SSE is part of every x86-64 target, and a prefetch
            // only hints (any address is allowed; this one is ours).
            unsafe { _mm_prefetch::<_MM_HINT_T0>(bucket.cast()) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    fn bucket(&self, key: u64) -> &Bucket {
        // Multiply-shift maps the key onto any bucket count, so sizes need
        // not be powers of two; the low bits stay free for verification.
        let index = (u128::from(key) * self.buckets.len() as u128) >> 64;
        &self.buckets[index as usize]
    }
}

fn write(entry: &Entry, key: u64, result: TtHit, generation: u8) {
    let data = Data {
        mv: result.mv,
        score: result.score,
        depth: result.depth.clamp(0, 255) as u8,
        bound: result.bound as u8,
        generation,
        pv: result.pv,
    }
    .pack();
    entry.data.store(data, Ordering::Relaxed);
    entry.check.store(key ^ data, Ordering::Relaxed);
}

fn allocate(mib: usize) -> Result<Block<Bucket>, TtError> {
    if mib == 0 {
        return Err(TtError::ZeroSize);
    }
    let count = mib
        .checked_mul(MIB / BUCKET_BYTES)
        .ok_or(TtError::OutOfMemory { mib })?;
    Block::zeroed(count).ok_or(TtError::OutOfMemory { mib })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn result(mv: Option<u16>, score: Score, depth: i32, bound: Bound) -> TtHit {
        TtHit {
            mv,
            score,
            depth,
            bound,
            pv: false,
        }
    }

    #[test]
    fn bucket_is_one_cache_line() {
        assert_eq!(std::mem::size_of::<Bucket>(), BUCKET_BYTES);
    }

    #[test]
    fn stores_and_finds() {
        let tt = TranspositionTable::new(1).unwrap();
        assert_eq!(tt.size_bytes(), MIB);
        assert_eq!(tt.probe(42), None);
        tt.store(42, result(Some(0xbeef), -1234, 7, Bound::Lower));
        let hit = tt.probe(42).unwrap();
        assert_eq!(hit.mv, Some(0xbeef));
        assert_eq!((hit.score, hit.depth, hit.bound), (-1234, 7, Bound::Lower));
        assert_eq!(tt.probe(43), None);
        // A move-less store keeps the move.
        tt.store(42, result(None, 5, 8, Bound::Upper));
        assert_eq!(tt.probe(42).unwrap().mv, Some(0xbeef));
        assert!(!tt.probe(42).unwrap().pv);
        let pv = TtHit {
            pv: true,
            ..result(None, -5, 9, Bound::Exact)
        };
        tt.store(42, pv);
        assert_eq!(
            tt.probe(42),
            Some(TtHit {
                mv: Some(0xbeef),
                ..pv
            })
        );
    }

    #[test]
    fn mate_scores_fit() {
        let tt = TranspositionTable::new(1).unwrap();
        for score in [super::super::score::MATE, -super::super::score::INFINITE] {
            tt.store(9, result(Some(0), score, 0, Bound::Exact));
            assert_eq!(tt.probe(9).unwrap().score, score);
        }
    }

    #[test]
    fn never_grows_and_prefers_deep_entries() {
        let mut tt = TranspositionTable::new(1).unwrap();
        let capacity = tt.capacity();
        // Flood one bucket: keys with equal high bits share a bucket.
        let base = 0x1234_5678_0000_0000u64;
        tt.store(base, result(Some(1), 0, 30, Bound::Exact));
        for i in 1..100u64 {
            tt.store(base + i, result(Some(2), 0, 1, Bound::Exact));
        }
        assert_eq!(tt.capacity(), capacity);
        assert_eq!(tt.probe(base).unwrap().depth, 30);
        tt.clear();
        assert_eq!(tt.probe(base), None);
        tt.resize(2).unwrap();
        assert_eq!(tt.size_bytes(), 2 * MIB);
        assert_eq!(TranspositionTable::new(0).err(), Some(TtError::ZeroSize));
    }
}
