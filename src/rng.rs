//! Seeded pseudo-random numbers: every random choice in the crate (magic
//! search and Zobrist keys at build time, random openings, the random
//! levels, the puzzle's tiles) comes from here, so that a seed reproduces
//! a game on every platform, whatever other crates do.
//!
//! `build.rs` includes this file too, so it has no dependencies.

/// The SplitMix64 finaliser: a strong 64-bit mixing function, usable in
/// constants.
pub const fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// SplitMix64: one word of state, good enough to pick moves and keys.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SplitMix(pub u64);

impl SplitMix {
    /// The generator for `seed`.
    pub const fn new(seed: u64) -> SplitMix {
        SplitMix(seed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        mix(self.0)
    }

    /// A number in `0..n` (0 when `n` is 0), by multiply-shift: its bias is
    /// below n / 2^64.
    pub fn below(&mut self, n: usize) -> usize {
        ((self.next_u64() as u128 * n as u128) >> 64) as usize
    }
}

/// xoshiro256++, seeded through SplitMix64: four words of state, fast, for
/// the many draws of Monte-Carlo playouts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Xoshiro {
    state: [u64; 4],
}

impl Xoshiro {
    /// The generator for `seed`; nearby seeds give unrelated streams.
    pub fn new(seed: u64) -> Xoshiro {
        let mut s = SplitMix(seed);
        Xoshiro {
            state: [s.next_u64(), s.next_u64(), s.next_u64(), s.next_u64()],
        }
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        let s = &mut self.state;
        let result = s[0].wrapping_add(s[3]).rotate_left(23).wrapping_add(s[0]);
        let t = s[1] << 17;
        s[2] ^= s[0];
        s[3] ^= s[1];
        s[1] ^= s[2];
        s[0] ^= s[3];
        s[2] ^= t;
        s[3] = s[3].rotate_left(45);
        result
    }

    /// A number in `0..n` (0 when `n` is 0), by multiply-shift.
    pub fn below(&mut self, n: usize) -> usize {
        ((self.next_u64() as u128 * n as u128) >> 64) as usize
    }

    /// A uniformly chosen element of `items`, or `None` if it is empty.
    pub fn pick<T: Copy>(&mut self, items: &[T]) -> Option<T> {
        items.get(self.below(items.len())).copied()
    }

    /// Puts `items` in a uniformly random order (Fisher-Yates).
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            items.swap(i, self.below(i + 1));
        }
    }

    /// A generator for a separate purpose, derived from this one, so that
    /// e.g. a policy's coin flips never disturb a game's own draws.
    pub fn fork(&mut self) -> Xoshiro {
        Xoshiro::new(self.next_u64())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_shuffle_is_a_seeded_permutation() {
        let shuffled = |seed| {
            let mut items: Vec<usize> = (0..50).collect();
            Xoshiro::new(seed).shuffle(&mut items);
            items
        };
        let mut sorted = shuffled(1);
        assert_ne!(sorted, (0..50).collect::<Vec<_>>());
        assert_eq!(shuffled(1), sorted);
        sorted.sort_unstable();
        assert_eq!(sorted, (0..50).collect::<Vec<_>>());
    }

    #[test]
    fn same_seed_same_stream() {
        let (mut a, mut b) = (SplitMix::new(7), SplitMix::new(7));
        let (mut x, mut y) = (Xoshiro::new(7), Xoshiro::new(7));
        for _ in 0..10 {
            assert_eq!(a.next_u64(), b.next_u64());
            assert_eq!(x.next_u64(), y.next_u64());
        }
        assert_ne!(SplitMix::new(7).next_u64(), SplitMix::new(8).next_u64());
        assert!((0..1000).all(|_| a.below(6) < 6 && x.below(6) < 6));
        assert_eq!(x.pick::<u8>(&[]), None);
    }
}
