//! Fully legal move generation.
//!
//! Moves come out grouped by piece ([`PieceMoves`]): one from-square and a
//! bitboard of destinations, already legal, so counting leaves is a
//! popcount. Legality comes from the check mask (a checked king's blocking
//! and capturing squares), the pin lines kept in the position, and an
//! attack test only for king moves and en passant.
//!
//! In antichess the king-safe captures are generated first; the quiet
//! moves only when there are none, since a capture is compulsory. A
//! position where a side is down to its bare king has no moves at all:
//! the game is over, as Fairy-Stockfish's legal move list says too.

use super::attacks;
use super::moves::{Move, PieceMoves};
use super::position::{Castling, Position};
use super::types::{Bitboard, Color, PieceKind, Square};
use crate::search::MoveList;
use arrayvec::ArrayVec;

impl Position {
    /// Calls `f` with every non-empty group of legal moves. Stops as soon
    /// as `f` returns `true`, and then returns `true`.
    #[inline]
    pub fn for_each_legal(&self, mut f: impl FnMut(PieceMoves) -> bool) -> bool {
        if self.bare_king_ends() {
            return false;
        }
        let us = self.color_bb(self.side_to_move());
        let them = self.color_bb(self.side_to_move().flip());
        if self.rules().is_antichess() {
            let mut any_capture = false;
            let stopped = self.generate(them, &mut |pm| {
                any_capture = true;
                f(pm)
            });
            if stopped || any_capture {
                return stopped;
            }
            self.generate(!self.occupied(), &mut f)
        } else {
            self.generate(!us, &mut f)
        }
    }

    /// Like [`Position::for_each_legal`] but ignoring the compulsory
    /// capture and the end of the game: every move that keeps the king
    /// safe (what the evaluation and the error messages weigh).
    pub(crate) fn for_each_king_safe(&self, mut f: impl FnMut(PieceMoves) -> bool) -> bool {
        self.generate(!self.color_bb(self.side_to_move()), &mut f)
    }

    /// Appends every legal move to `list`.
    ///
    /// ```
    /// use antichess::chess::{Position, Rules};
    /// use antichess::search::MoveList;
    /// let mut moves = MoveList::new();
    /// Position::startpos(Rules::Antichess1994).legal_moves(&mut moves);
    /// assert_eq!(moves.len(), 12); // no double steps under the 1994 rules
    /// ```
    pub fn legal_moves(&self, list: &mut MoveList<Move>) {
        if self.bare_king_ends() {
            return;
        }
        let side = self.side_to_move();
        let start = list.len();
        let mut sink = ListSink {
            list,
            promotions: self.rules().promotions(),
            them: self.color_bb(side.flip()),
            antichess: self.rules().is_antichess(),
            quiets_end: None,
        };
        // In antichess one pass over the king-safe moves (cheaper than a
        // pass for captures and another for quiet moves): quiet moves until
        // the first capture, only captures after it; then the quiet moves
        // before it go, if there was one. (No en passant there.)
        self.generate(!self.color_bb(side), &mut sink);
        if let Some(end) = sink.quiets_end {
            sink.list.drain(start..end);
        }
    }

    /// The number of legal moves, by popcount.
    #[inline]
    pub fn count_legal(&self) -> usize {
        if self.bare_king_ends() {
            return 0;
        }
        let mut counter = Counter {
            them: self.color_bb(self.side_to_move().flip()),
            promotions: self.rules().promotions().len(),
            captures: 0,
            quiets: 0,
        };
        // In antichess one pass over the king-safe moves, captures counted
        // apart, is cheaper than generating captures and then quiet moves.
        self.generate(!self.color_bb(self.side_to_move()), &mut counter);
        if self.rules().is_antichess() && counter.captures > 0 {
            counter.captures
        } else {
            counter.captures + counter.quiets
        }
    }

    /// Whether the side to move has any legal move.
    #[inline]
    pub fn has_legal_move(&self) -> bool {
        self.for_each_legal(|_| true)
    }

    /// Whether `mv` is a legal move here.
    pub fn is_legal(&self, mv: Move) -> bool {
        let promotions = self.rules().promotions();
        self.for_each_legal(|pm| {
            if pm.from != mv.from() || !pm.to.has(mv.to()) {
                return false;
            }
            let mut found = false;
            pm.for_each(promotions, |m| found |= m == mv);
            found
        })
    }

    /// Legal moves whose destination lies in `targets` (plus en passant
    /// when `targets` holds enemy pieces, plus castling when it holds
    /// empty squares).
    fn generate<S: Sink>(&self, targets: Bitboard, sink: &mut S) -> bool {
        let side = self.side_to_move();
        let us = self.color_bb(side);
        let them = self.color_bb(side.flip());
        let occ = self.occupied();
        let ksq = self.king(side);
        let checkers = self.checkers();

        // King moves: tested with the king lifted off the board, so that
        // it cannot hide behind itself from a slider.
        let lifted = occ ^ ksq.bb();
        let candidates = attacks::king(ksq) & !us & targets;
        let mut king_to = if candidates.count() >= KING_MAP_FROM {
            candidates & !self.attack_map_through(side.flip(), lifted)
        } else {
            let mut safe = Bitboard::EMPTY;
            for to in candidates {
                if !self.is_attacked(to, side.flip(), lifted) {
                    safe |= to.bb();
                }
            }
            safe
        };
        if checkers.is_empty() && self.rules().castling_and_en_passant() && (targets & !occ).any() {
            king_to |= self.castling_moves(side, occ);
        }
        if king_to.any()
            && sink.piece(PieceMoves {
                kind: PieceKind::King,
                from: ksq,
                to: king_to,
            })
        {
            return true;
        }
        if checkers.several() {
            return false;
        }
        let check_mask = match checkers.first() {
            Some(checker) => attacks::between(ksq, checker) | checkers,
            None => Bitboard::FULL,
        };
        let mask = targets & check_mask & !us;
        let pinned = self.pinned();

        for (kind, movable) in [
            (
                PieceKind::Knight,
                self.pieces(side, PieceKind::Knight) & !pinned,
            ),
            (PieceKind::Bishop, self.pieces(side, PieceKind::Bishop)),
            (PieceKind::Rook, self.pieces(side, PieceKind::Rook)),
            (PieceKind::Queen, self.pieces(side, PieceKind::Queen)),
        ] {
            for from in movable {
                let to = attacks::piece(kind, from, occ) & mask & self.pin_ray(from);
                if to.any() && sink.piece(PieceMoves { kind, from, to }) {
                    return true;
                }
            }
        }

        let ep_target = self.ep_square().filter(|_| (targets & them).any());
        self.generate_pawns(mask, ep_target, sink)
    }

    /// The pawns' part of [`Position::generate`]: their legal moves whose
    /// destination lies in `mask` (the targets, the check mask, not our
    /// own men), and en passant onto `ep_target`. Unpinned pawns go as
    /// sets where the sink takes them so; pinned ones and en passant, rare,
    /// pawn by pawn beside the sets.
    #[inline(always)]
    fn generate_pawns<S: Sink>(
        &self,
        mask: Bitboard,
        ep_target: Option<Square>,
        sink: &mut S,
    ) -> bool {
        let side = self.side_to_move();
        let pawns = self.pieces(side, PieceKind::Pawn);
        if !S::BULK_PAWNS {
            for from in pawns {
                let to = self.pawn_targets(from, mask, ep_target);
                if to.any()
                    && sink.piece(PieceMoves {
                        kind: PieceKind::Pawn,
                        from,
                        to,
                    })
                {
                    return true;
                }
            }
            return false;
        }
        let them = self.color_bb(side.flip());
        let occ = self.occupied();
        let pinned = self.pinned();
        let loose = pawns & !pinned;
        let single = loose.forward(side) & !occ;
        let double = if self.rules().double_step() {
            single.forward(side) & !occ & double_step_rank(side)
        } else {
            Bitboard::EMPTY
        };
        let ahead = loose.forward(side);
        // At most one group per pawn: en passant is for loose pawns only.
        let mut apart = ArrayVec::<PieceMoves, 8>::new();
        if let Some(ep) = ep_target {
            for from in attacks::pawn(side.flip(), ep) & loose {
                if self.ep_is_legal(from, ep) {
                    let _ = apart.try_push(PieceMoves {
                        kind: PieceKind::Pawn,
                        from,
                        to: ep.bb(),
                    });
                }
            }
        }
        for from in pawns & pinned {
            let to = self.pawn_targets(from, mask, ep_target);
            if to.any() {
                let _ = apart.try_push(PieceMoves {
                    kind: PieceKind::Pawn,
                    from,
                    to,
                });
            }
        }
        let sets = PawnSets {
            west: ahead.west() & them & mask,
            single: single & mask,
            east: ahead.east() & them & mask,
            double: double & mask,
        };
        sink.pawn_sets(side, sets, &apart);
        false
    }

    /// The legal destinations of the pawn on `from` within `mask`, and en
    /// passant onto `ep_target`.
    #[inline(always)]
    fn pawn_targets(&self, from: Square, mask: Bitboard, ep_target: Option<Square>) -> Bitboard {
        let side = self.side_to_move();
        let occ = self.occupied();
        let mut to = attacks::pawn(side, from) & self.color_bb(side.flip());
        let single = from.bb().forward(side) & !occ;
        to |= single;
        if self.rules().double_step() {
            to |= single.forward(side) & !occ & double_step_rank(side);
        }
        to &= mask;
        if let Some(ep) = ep_target
            && attacks::pawn(side, from).has(ep)
            && self.ep_is_legal(from, ep)
        {
            to |= ep.bb();
        }
        to & self.pin_ray(from)
    }

    /// Where the man on `from` may move without exposing its king: the
    /// line through the king if it is pinned, anywhere otherwise.
    #[inline(always)]
    fn pin_ray(&self, from: Square) -> Bitboard {
        if self.pinned().has(from) {
            attacks::line(self.king(self.side_to_move()), from)
        } else {
            Bitboard::FULL
        }
    }

    /// En passant is checked by playing it out on the bitboards: it removes
    /// two pieces from one rank, which pin lines do not capture.
    fn ep_is_legal(&self, from: Square, ep: Square) -> bool {
        let side = self.side_to_move();
        let Some(victim) = ep.shifted(if side == Color::White { -8 } else { 8 }) else {
            return false;
        };
        let occ = (self.occupied() ^ from.bb() ^ victim.bb()) | ep.bb();
        let ksq = self.king(side);
        let them = side.flip();
        let rooks = self.pieces(them, PieceKind::Rook) | self.pieces(them, PieceKind::Queen);
        let bishops = self.pieces(them, PieceKind::Bishop) | self.pieces(them, PieceKind::Queen);
        // A knight or pawn giving check (other than the captured pawn) still
        // does; sliders are settled by the new occupancy, since the capturing
        // pawn may also block.
        let leapers = self.checkers() & !victim.bb() & !(rooks | bishops);
        leapers.is_empty()
            && (attacks::rook(ksq, occ) & rooks).is_empty()
            && (attacks::bishop(ksq, occ) & bishops).is_empty()
    }

    /// Castling destinations of the king (not in check): the squares
    /// between king and rook empty, the king's path not attacked.
    fn castling_moves(&self, side: Color, occ: Bitboard) -> Bitboard {
        // (right, squares that must be empty, squares the king crosses,
        // king destination) for each colour, as bit masks on rank 1 / 8.
        const WHITE: [(u8, u64, u64, u64); 2] = [
            (Castling::WHITE_SHORT, 0x60, 0x60, 0x40),
            (Castling::WHITE_LONG, 0x0E, 0x0C, 0x04),
        ];
        let shift = if side == Color::White { 0 } else { 56 };
        let rights = self.castling().0 >> (2 * side.index());
        let mut to = Bitboard::EMPTY;
        for (right, empty, path, dest) in WHITE {
            if rights & right != 0
                && (occ.0 & empty << shift) == 0
                && Bitboard(path << shift).all(|sq| !self.is_attacked(sq, side.flip(), occ))
            {
                to |= Bitboard(dest << shift);
            }
        }
        to
    }
}

/// A king with this many candidate squares or more has them tested
/// against the opponent's whole attack map (one lookup per man) rather
/// than square by square (five lookups each): 2.6% fewer instructions on
/// docs/speed.md's antichess search, where an open king is the rule; from
/// one square on, perft (kings hemmed in) paid 4% more.
const KING_MAP_FROM: u32 = 2;

/// Where `side`'s pawns land after a double step (the fourth rank from
/// its side).
pub(super) fn double_step_rank(side: Color) -> Bitboard {
    match side {
        Color::White => Bitboard::rank(3),
        Color::Black => Bitboard::rank(4),
    }
}

/// Where the generator hands its moves.
trait Sink {
    /// Whether unpinned pawns' moves may come as sets through
    /// [`Sink::pawn_sets`] rather than one group per pawn.
    const BULK_PAWNS: bool = false;

    /// One piece's legal moves; `true` stops the generator.
    fn piece(&mut self, moves: PieceMoves) -> bool;

    /// The unpinned pawns' moves as destination sets, and the rest of the
    /// pawns' moves (pinned pawns, en passant) as groups.
    fn pawn_sets(&mut self, _side: Color, _sets: PawnSets, _apart: &[PieceMoves]) {}
}

/// Destinations of unpinned pawns' moves, by the step that reaches them
/// (White's view: 7, 8, 9 and 16 squares forward; Black's are mirrored).
#[derive(Clone, Copy)]
struct PawnSets {
    /// Captures towards the a-file.
    west: Bitboard,
    single: Bitboard,
    /// Captures towards the h-file.
    east: Bitboard,
    double: Bitboard,
}

impl PawnSets {
    /// The pawns with a move in a set.
    #[inline(always)]
    fn origins(&self, side: Color) -> Bitboard {
        let [w, s, e, d] = [self.west.0, self.single.0, self.east.0, self.double.0];
        Bitboard(match side {
            Color::White => w >> 7 | s >> 8 | e >> 9 | d >> 16,
            Color::Black => w << 9 | s << 8 | e << 7 | d << 16,
        })
    }

    /// The destinations of the pawn on `from`.
    #[inline(always)]
    fn from(&self, side: Color, from: Square) -> Bitboard {
        let b = from.bb().0;
        let [w, s, e, d] = [self.west.0, self.single.0, self.east.0, self.double.0];
        Bitboard(match side {
            Color::White => (b << 7 & w) | (b << 8 & s) | (b << 9 & e) | (b << 16 & d),
            Color::Black => (b >> 9 & w) | (b >> 8 & s) | (b >> 7 & e) | (b >> 16 & d),
        })
    }
}

impl<F: FnMut(PieceMoves) -> bool> Sink for F {
    #[inline]
    fn piece(&mut self, moves: PieceMoves) -> bool {
        self(moves)
    }
}

/// Appends the moves to a list; in antichess only captures once there is
/// one (the quiet moves before it are dropped by the caller).
struct ListSink<'a> {
    list: &'a mut MoveList<Move>,
    promotions: &'a [PieceKind],
    them: Bitboard,
    antichess: bool,
    /// Antichess: where the first capture went, once there was one.
    quiets_end: Option<usize>,
}

impl ListSink<'_> {
    /// Keeps only the captures of `to` once a capture is due.
    #[inline(always)]
    fn filter(&mut self, to: Bitboard) -> Bitboard {
        if !self.antichess {
            return to;
        }
        if (to & self.them).any() && self.quiets_end.is_none() {
            self.quiets_end = Some(self.list.len());
        }
        if self.quiets_end.is_some() {
            to & self.them
        } else {
            to
        }
    }

    /// One move per promotion piece onto the back ranks, one otherwise.
    #[inline(always)]
    fn push(&mut self, from: Square, to: Square, pawn: bool) {
        // A position never has more than 218 legal moves.
        if pawn && Bitboard::BACK_RANKS.has(to) {
            for &p in self.promotions {
                let _ = self.list.try_push(Move::new(from, to, Some(p)));
            }
        } else {
            let _ = self.list.try_push(Move::new(from, to, None));
        }
    }
}

impl Sink for ListSink<'_> {
    const BULK_PAWNS: bool = true;

    #[inline]
    fn piece(&mut self, moves: PieceMoves) -> bool {
        let to = self.filter(moves.to);
        let pawn = moves.kind == PieceKind::Pawn;
        for sq in to {
            self.push(moves.from, sq, pawn);
        }
        false
    }

    /// Pawn by pawn from a1 on, each pawn's destinations in square order:
    /// the order of the pawns' groups one by one, which move ordering's
    /// ties keep (late-move pruning at shallow depths follows it). Not
    /// through [`Sink::piece`] pawn by pawn: that costs back most of what
    /// the sets save (callgrind).
    #[inline]
    fn pawn_sets(&mut self, side: Color, mut sets: PawnSets, apart: &[PieceMoves]) {
        let extra = apart.iter().fold(Bitboard::EMPTY, |b, pm| b | pm.to);
        // A capture due: no pawn steps at all (the list keeps only the
        // captures from the first one on).
        self.filter(sets.west | sets.east | extra);
        if self.quiets_end.is_some() {
            sets.single = Bitboard::EMPTY;
            sets.double = Bitboard::EMPTY;
        }
        let odd = apart.iter().fold(Bitboard::EMPTY, |b, pm| b | pm.from.bb());
        for from in sets.origins(side) | odd {
            let mut to = sets.from(side, from);
            if odd.has(from) {
                to = apart
                    .iter()
                    .filter(|pm| pm.from == from)
                    .fold(to, |to, pm| to | pm.to);
            }
            if self.quiets_end.is_some() {
                to &= self.them;
            }
            for sq in to {
                self.push(from, sq, true);
            }
        }
    }
}

/// Counts moves by popcount, captures apart from the rest.
struct Counter {
    them: Bitboard,
    promotions: usize,
    captures: usize,
    quiets: usize,
}

impl Counter {
    #[inline]
    fn count(&self, to: Bitboard) -> usize {
        to.count() as usize + (to & Bitboard::BACK_RANKS).count() as usize * (self.promotions - 1)
    }
}

impl Sink for Counter {
    const BULK_PAWNS: bool = true;

    #[inline]
    fn piece(&mut self, moves: PieceMoves) -> bool {
        // En passant counts as quiet here; only chess has it, and chess
        // adds both counts.
        let (captures, quiets) = (moves.to & self.them, moves.to & !self.them);
        if moves.kind == PieceKind::Pawn {
            self.captures += self.count(captures);
            self.quiets += self.count(quiets);
        } else {
            self.captures += captures.count() as usize;
            self.quiets += quiets.count() as usize;
        }
        false
    }

    #[inline]
    fn pawn_sets(&mut self, _side: Color, sets: PawnSets, apart: &[PieceMoves]) {
        self.quiets += self.count(sets.single) + self.count(sets.double);
        self.captures += self.count(sets.west) + self.count(sets.east);
        for &moves in apart {
            self.piece(moves);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The list, filled with pawns taken as sets, keeps the order of the
    /// generator's groups taken one by one (pieces, then pawns from a1 on,
    /// each group's squares in order; in antichess only captures when one
    /// is due): the search's move ordering keeps that order among ties,
    /// and late-move pruning follows it. Random games of all three rule
    /// sets, with pinned pawns and en passant among them.
    #[test]
    fn list_keeps_the_one_group_per_pawn_order() {
        let (mut compared, mut pinned_pawns, mut en_passant) = (0, 0, 0);
        crate::chess::random_walks(11, 300, 90, |pos| {
            let mut list = MoveList::new();
            pos.legal_moves(&mut list);
            let mut by_groups = MoveList::new();
            let promotions = pos.rules().promotions();
            let mut captures = false;
            let them = pos.color_bb(pos.side_to_move().flip());
            pos.for_each_king_safe(|pm| {
                pm.for_each(promotions, |m| {
                    let _ = by_groups.try_push(m);
                });
                captures |= (pm.to & them).any();
                false
            });
            if pos.rules().is_antichess() && captures {
                by_groups.retain(|m| them.has(m.to()));
            }
            if pos.bare_king_ends() {
                by_groups.clear();
            }
            assert_eq!(list, by_groups, "{}", pos.fen());
            compared += 1;
            let pawns = pos.pieces(pos.side_to_move(), PieceKind::Pawn);
            pinned_pawns += usize::from((pos.pinned() & pawns).any());
            en_passant += usize::from(pos.ep_square().is_some());
        });
        assert!(compared > 20_000, "{compared} positions");
        assert!(
            pinned_pawns > 50 && en_passant > 50,
            "{pinned_pawns} {en_passant}"
        );
    }
}
