//! A small seeded random source, so that a game is reproducible from its
//! seed on every platform and across releases of other crates.
//!
//! xoshiro256++ seeded through SplitMix64: fast, tiny state, and good
//! enough statistically for drawing symbols and sampling rollouts.

/// Seeded pseudo-random generator (xoshiro256++).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rng {
    state: [u64; 4],
}

/// One SplitMix64 step: spreads a seed so that nearby seeds give unrelated
/// xoshiro states (and never the all-zero state).
fn splitmix(x: &mut u64) -> u64 {
    *x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *x;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

impl Rng {
    /// The generator for `seed`; equal seeds give equal streams.
    pub fn new(seed: u64) -> Rng {
        let mut x = seed;
        Rng {
            state: [
                splitmix(&mut x),
                splitmix(&mut x),
                splitmix(&mut x),
                splitmix(&mut x),
            ],
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

    /// A number below `n` (0 when `n` is 0). Multiply-shift; its bias is
    /// below n / 2^64, far under anything a game of 108 strikes can show.
    pub fn below(&mut self, n: usize) -> usize {
        ((self.next_u64() as u128 * n as u128) >> 64) as usize
    }

    /// A uniformly chosen element of `items`, or `None` if it is empty.
    pub fn pick<T: Copy>(&mut self, items: &[T]) -> Option<T> {
        if items.is_empty() {
            None
        } else {
            items.get(self.below(items.len())).copied()
        }
    }

    /// A generator for a separate purpose derived from this one's seed
    /// stream, so that e.g. a policy's coin flips never disturb the
    /// game's own draws.
    pub fn fork(&mut self) -> Rng {
        Rng::new(self.next_u64())
    }
}
