//! Moves: their representation, legal move generation, making them, and
//! perft.
//!
//! A move is a whole turn: a simple step, or a complete multi-jump with every
//! landing square. Captures are compulsory and a capturing piece must go on
//! while it can, so the generator only ever emits finished jump sequences; two
//! routes over the same pieces are two moves (the published perft figures
//! count them so). A man that reaches its crowning row stops there.

use std::fmt;

use arrayvec::ArrayVec;

use super::board::{Bits, Color, Piece, Position, Square, compress, shift, spread, zobrist};
use crate::search::MoveList;

/// The four diagonal steps in the ghost layout: down-left, down-right
/// (Black's forward moves), up-right, up-left (White's).
const DIRS: [i32; 4] = [4, 5, -4, -5];

/// Direction indices a piece may use.
const BLACK_MAN_DIRS: &[u8] = &[0, 1];
const WHITE_MAN_DIRS: &[u8] = &[2, 3];
const KING_DIRS: &[u8] = &[0, 1, 2, 3];

/// The most squares a move can name: twelve captures (all the opponent
/// has) and the starting square.
pub const MAX_PATH: usize = 13;

/// One complete move. Jumps record the direction of each hop (2 bits each),
/// which names the route even when two routes take the same pieces.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Move {
    from: Square,
    to: Square,
    /// Number of pieces taken; 0 for a simple move.
    jumps: u8,
    /// Direction index of hop `i` in bits `2i..2i+2`.
    hops: u32,
    /// Squares of the taken pieces, bit `s` for square `s+1`.
    taken: u32,
}

impl Move {
    /// Starting square.
    pub fn from(self) -> Square {
        self.from
    }

    /// Final square.
    pub fn to(self) -> Square {
        self.to
    }

    /// Whether this move captures.
    pub fn is_capture(self) -> bool {
        self.jumps > 0
    }

    /// How many pieces it takes.
    pub fn captures(self) -> u32 {
        u32::from(self.jumps)
    }

    /// The squares of the taken pieces.
    pub fn taken(self) -> impl Iterator<Item = Square> {
        Square::all().filter(move |s| self.taken & (1 << s.index()) != 0)
    }

    /// Every square the moving piece stands on, from start to finish; this
    /// is the handout's notation (`18-11-4`).
    pub fn squares(self) -> ArrayVec<Square, MAX_PATH> {
        let mut out = ArrayVec::new();
        out.push(self.from);
        if self.jumps == 0 {
            out.push(self.to);
            return out;
        }
        let mut at = self.from.bit();
        for i in 0..u32::from(self.jumps) {
            let d = DIRS[((self.hops >> (2 * i)) & 3) as usize];
            at = shift(shift(at, d), d);
            out.push(Square::from_bit_index(at.trailing_zeros()));
        }
        out
    }

    /// The taken squares as a mask, bit `s` for square `s+1`.
    pub(crate) fn taken_mask(self) -> u32 {
        self.taken
    }

    /// A small hash of the route, to tell apart moves with the same ends.
    pub(crate) fn route_hash(self) -> u32 {
        self.hops ^ (self.hops >> 7) ^ (self.hops >> 14) ^ u32::from(self.jumps) << 3
    }

    fn from_bits(from: u64, to: u64, taken: u64, hops: u32, jumps: u8) -> Move {
        Move {
            from: Square::from_bit_index(from.trailing_zeros()),
            to: Square::from_bit_index(to.trailing_zeros()),
            jumps,
            hops,
            taken: compress(taken),
        }
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, s) in self.squares().iter().enumerate() {
            if i > 0 {
                f.write_str("-")?;
            }
            write!(f, "{s}")?;
        }
        Ok(())
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// Receives finished jump sequences: a move list collects them, a counter
/// just counts (perft's bulk counting).
trait JumpSink {
    fn jump(&mut self, from: u64, to: u64, taken: u64, hops: u32, jumps: u8);
}

impl JumpSink for MoveList<Move> {
    #[inline(always)]
    fn jump(&mut self, from: u64, to: u64, taken: u64, hops: u32, jumps: u8) {
        // At most 12 opposing pieces bound the sequences per position far
        // below the list's capacity, but stay panic-free regardless.
        let _ = self.try_push(Move::from_bits(from, to, taken, hops, jumps));
    }
}

impl JumpSink for u64 {
    #[inline(always)]
    fn jump(&mut self, _: u64, _: u64, _: u64, _: u32, _: u8) {
        *self += 1;
    }
}

/// What stays fixed while one piece's jump sequences are explored.
struct JumpContext {
    origin: u64,
    /// Empty squares, the origin included (a king may come back to it).
    /// Taken pieces stay put until the move ends, so their squares are
    /// never empty; no landing square could be one anyway.
    empty: u64,
    king: bool,
    crown_row: u64,
    dirs: &'static [u8],
}

impl JumpContext {
    /// Explores every continuation from `at`, reporting finished sequences.
    fn extend<S: JumpSink>(&self, at: u64, opp: u64, taken: u64, hops: u32, n: u8, sink: &mut S) {
        let mut extended = false;
        for &dir in self.dirs {
            let d = DIRS[usize::from(dir)];
            let over = shift(at, d) & opp;
            let land = shift(over, d) & self.empty;
            if land == 0 {
                continue;
            }
            extended = true;
            let hops = hops | u32::from(dir) << (2 * u32::from(n));
            if !self.king && land & self.crown_row != 0 {
                // Crowning ends the move.
                sink.jump(self.origin, land, taken | over, hops, n + 1);
            } else {
                self.extend(land, opp & !over, taken | over, hops, n + 1, sink);
            }
        }
        if !extended && n > 0 {
            sink.jump(self.origin, at, taken, hops, n);
        }
    }
}

impl Position {
    /// The side to move's pieces that may step in direction `dir`.
    #[inline(always)]
    fn movers(&self, dir: usize) -> u64 {
        let own = self.pieces[self.side.index()];
        let forward = match self.side {
            Color::Black => dir < 2,
            Color::White => dir >= 2,
        };
        if forward { own } else { own & self.kings }
    }

    /// Pieces of the side to move that can capture something.
    #[inline(always)]
    fn jumpers(&self) -> u64 {
        let opp = self.pieces[self.side.opponent().index()];
        let empty = self.empty_squares();
        let mut jumpers = 0;
        for (dir, &d) in DIRS.iter().enumerate() {
            jumpers |= self.movers(dir) & shift(opp & shift(empty, -d), -d);
        }
        jumpers
    }

    fn generate_jumps<S: JumpSink>(&self, jumpers: u64, sink: &mut S) {
        let opp = self.pieces[self.side.opponent().index()];
        let empty = self.empty_squares();
        for b in Bits(jumpers) {
            let king = self.kings & b != 0;
            let ctx = JumpContext {
                origin: b,
                empty: empty | b,
                king,
                crown_row: self.side.crown_row(),
                dirs: match (king, self.side) {
                    (true, _) => KING_DIRS,
                    (false, Color::Black) => BLACK_MAN_DIRS,
                    (false, Color::White) => WHITE_MAN_DIRS,
                },
            };
            ctx.extend(b, opp, 0, 0, 0, sink);
        }
    }

    /// Appends the legal moves of the side to move to `out`: the jumps if
    /// there are any, else the simple moves.
    pub fn generate(&self, out: &mut MoveList<Move>) {
        let jumpers = self.jumpers();
        if jumpers != 0 {
            self.generate_jumps(jumpers, out);
            return;
        }
        let empty = self.empty_squares();
        for (dir, &d) in DIRS.iter().enumerate() {
            for to in Bits(shift(self.movers(dir), d) & empty) {
                let _ = out.try_push(Move::from_bits(shift(to, -d), to, 0, 0, 0));
            }
        }
    }

    /// The legal moves of the side to move.
    pub fn legal_moves(&self) -> MoveList<Move> {
        let mut moves = MoveList::new();
        self.generate(&mut moves);
        moves
    }

    /// The number of legal moves, without listing them.
    pub fn count_moves(&self) -> u64 {
        let jumpers = self.jumpers();
        if jumpers != 0 {
            let mut n = 0u64;
            self.generate_jumps(jumpers, &mut n);
            return n;
        }
        let empty = self.empty_squares();
        DIRS.iter()
            .enumerate()
            .map(|(dir, &d)| u64::from((shift(self.movers(dir), d) & empty).count_ones()))
            .sum()
    }

    /// Whether the side to move has a legal move (if not, it has lost).
    pub fn has_moves(&self) -> bool {
        self.count_moves() > 0
    }

    /// Whether the side to move must capture.
    pub fn must_capture(&self) -> bool {
        self.jumpers() != 0
    }

    /// The position after `mv`, which must be one of this position's legal
    /// moves (playing anything else gives a meaningless position).
    pub fn play(&self, mv: Move) -> Position {
        let mut p = *self;
        let us = self.side;
        let (from, to) = (mv.from.bit(), mv.to.bit());
        let was_king = self.kings & from != 0;
        let crowned = !was_king && to & us.crown_row() != 0;
        // A king may finish where it started, so clear before setting.
        p.pieces[us.index()] = (p.pieces[us.index()] & !from) | to;
        p.kings &= !from;
        if was_king || crowned {
            p.kings |= to;
        }
        p.key ^= zobrist(
            Piece {
                color: us,
                king: was_king,
            },
            from,
        ) ^ zobrist(
            Piece {
                color: us,
                king: was_king || crowned,
            },
            to,
        );
        if mv.taken != 0 {
            let them = us.opponent();
            let taken = spread(mv.taken);
            for b in Bits(taken) {
                p.key ^= zobrist(
                    Piece {
                        color: them,
                        king: self.kings & b != 0,
                    },
                    b,
                );
            }
            p.pieces[them.index()] &= !taken;
            p.kings &= !taken;
        }
        p.quiet = if was_king && mv.taken == 0 {
            self.quiet.saturating_add(1)
        } else {
            0
        };
        p.flip_side();
        p
    }
}

/// Number of move sequences of `depth` plies from `pos` (leaf positions),
/// counting the last ply in bulk.
pub fn perft(pos: &Position, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => pos.count_moves(),
        _ => pos
            .legal_moves()
            .iter()
            .map(|&m| perft(&pos.play(m), depth - 1))
            .sum(),
    }
}

/// Perft split by first move, for finding where two generators disagree.
pub fn divide(pos: &Position, depth: u32) -> Vec<(Move, u64)> {
    let depth = depth.max(1);
    pos.legal_moves()
        .iter()
        .map(|&m| (m, perft(&pos.play(m), depth - 1)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn strings(p: &Position) -> Vec<String> {
        let mut v: Vec<String> = p.legal_moves().iter().map(|m| m.to_string()).collect();
        v.sort();
        v
    }

    #[test]
    fn opening_moves() {
        let p = Position::initial();
        assert_eq!(
            strings(&p),
            ["10-14", "10-15", "11-15", "11-16", "12-16", "9-13", "9-14"]
        );
        assert_eq!(p.count_moves(), 7);
    }

    #[test]
    fn handout_figure_two_captures() {
        // White man on 18 takes 15 and then 7 or 8; white king on 30 takes
        // 26 and 27 turning round, or 25 alone.
        let p = Position::from_pdn("W:W18,K30:B15,K7,8,6,25,26,27").unwrap();
        assert_eq!(strings(&p), ["18-11-2", "18-11-4", "30-21", "30-23-32"]);
        for m in p.legal_moves() {
            let q = p.play(m);
            assert!(q.key_is_consistent());
        }
    }

    #[test]
    fn king_may_end_where_it_started() {
        // A white king on 15 circling round 9, 10, 17 and 18 comes back to
        // 15 by two routes, one each way round.
        let p = Position::from_pdn("W:WK15:B9,10,17,18").unwrap();
        let moves = p.legal_moves();
        let round: Vec<_> = moves.iter().filter(|m| m.from() == m.to()).collect();
        assert_eq!(round.len(), 2, "{moves:?}");
        assert_ne!(round[0], round[1]);
        let q = p.play(*round[0]);
        assert_eq!(q.to_pdn(), "B:WK15:B");
        assert!(q.key_is_consistent());
    }
}
