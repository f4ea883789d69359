//! The position: bitboards per colour and kind, side to move, the rule
//! state each rule set needs, an incrementally updated Zobrist key, and the
//! checkers and pinned pieces of the side to move (kept so that move
//! generation and `in_check` cost nothing extra).
//!
//! Positions are small (under 120 bytes) and `Copy`; moves are played by
//! copy-make, so there is no undo information to keep and no unmake to get
//! wrong, and the search can hold a position per ply on its stack.

use super::attacks;
use super::attacks::{ZOBRIST_CASTLING, ZOBRIST_EP, ZOBRIST_PIECES, ZOBRIST_SIDE};
use super::moves::Move;
use super::rules::{Reason, Rules, Status};
use super::types::{Bitboard, Color, Piece, PieceKind, Square};

/// Castling rights as four bits: white short, white long, black short,
/// black long.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Castling(pub u8);

impl Castling {
    /// White may castle king-side.
    pub const WHITE_SHORT: u8 = 1;
    /// White may castle queen-side.
    pub const WHITE_LONG: u8 = 2;
    /// Black may castle king-side.
    pub const BLACK_SHORT: u8 = 4;
    /// Black may castle queen-side.
    pub const BLACK_LONG: u8 = 8;

    /// Whether `right` (one of the constants) is held.
    #[inline]
    pub const fn has(self, right: u8) -> bool {
        self.0 & right != 0
    }
}

/// Rights lost when a piece leaves or lands on each square (rook and king
/// start squares).
const fn castling_mask(sq: usize) -> u8 {
    match sq {
        0 => Castling::WHITE_LONG,
        4 => Castling::WHITE_SHORT | Castling::WHITE_LONG,
        7 => Castling::WHITE_SHORT,
        56 => Castling::BLACK_LONG,
        60 => Castling::BLACK_SHORT | Castling::BLACK_LONG,
        63 => Castling::BLACK_SHORT,
        _ => 0,
    }
}

/// A position of one of the chess-board rule sets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Position {
    colors: [Bitboard; 2],
    kinds: [Bitboard; 6],
    side: Color,
    castling: Castling,
    ep: Option<Square>,
    halfmove: u16,
    fullmove: u16,
    key: u64,
    checkers: Bitboard,
    pinned: Bitboard,
    rules: Rules,
}

#[inline]
fn piece_key(color: Color, kind: PieceKind, sq: Square) -> u64 {
    ZOBRIST_PIECES[(color.index() * 6 + kind.index()) * 64 + sq.index()]
}

/// The parts a position is built from, checked by [`Position::from_setup`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Setup {
    /// What stands where.
    pub board: [Option<Piece>; 64],
    /// Who moves next.
    pub side: Color,
    /// Castling rights (ignored by the antichess rules).
    pub castling: Castling,
    /// En-passant square (ignored by the antichess rules).
    pub ep: Option<Square>,
    /// Plies since the last capture or pawn move.
    pub halfmove: u16,
    /// The move number, from 1.
    pub fullmove: u16,
}

impl Setup {
    /// A layout at the start of a game: move 1, no en passant, and every
    /// castling right the kings and rooks still allow (the game files carry
    /// no castling rights; the antichess rules ignore them).
    pub fn new(board: [Option<Piece>; 64], side: Color) -> Setup {
        Setup {
            board,
            side,
            castling: Castling(15),
            ep: None,
            halfmove: 0,
            fullmove: 1,
        }
    }
}

/// Why a set of pieces is not a playable position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SetupError {
    /// A side has no king or more than one.
    KingCount {
        /// Whose kings.
        color: Color,
        /// How many there are.
        count: u32,
    },
    /// A pawn stands on the first or last rank.
    PawnOnBackRank(Square),
    /// The side that has just moved is in check: the position cannot arise.
    OpponentInCheck,
}

impl std::fmt::Display for SetupError {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        match self {
            SetupError::KingCount { color, count } => {
                write!(f, "{color} must have exactly one king, not {count}")
            }
            SetupError::PawnOnBackRank(sq) => {
                write!(f, "a pawn cannot stand on {sq}, a first or last rank")
            }
            SetupError::OpponentInCheck => {
                write!(
                    f,
                    "the side not to move is in check, which cannot happen in a game"
                )
            }
        }
    }
}

impl std::error::Error for SetupError {}

impl Position {
    /// The usual starting position under `rules`.
    pub fn startpos(rules: Rules) -> Position {
        let mut board = [None; 64];
        let back = [
            PieceKind::Rook,
            PieceKind::Knight,
            PieceKind::Bishop,
            PieceKind::Queen,
            PieceKind::King,
            PieceKind::Bishop,
            PieceKind::Knight,
            PieceKind::Rook,
        ];
        for (file, &kind) in back.iter().enumerate() {
            board[file] = Some(Piece {
                color: Color::White,
                kind,
            });
            board[8 + file] = Some(Piece {
                color: Color::White,
                kind: PieceKind::Pawn,
            });
            board[48 + file] = Some(Piece {
                color: Color::Black,
                kind: PieceKind::Pawn,
            });
            board[56 + file] = Some(Piece {
                color: Color::Black,
                kind,
            });
        }
        let setup = Setup {
            board,
            side: Color::White,
            castling: Castling(15),
            ep: None,
            halfmove: 0,
            fullmove: 1,
        };
        // The start position is valid by construction.
        match Position::from_setup(&setup, rules) {
            Ok(pos) => pos,
            Err(e) => unreachable!("start position rejected: {e}"),
        }
    }

    /// Builds and validates a position. Castling rights without king and
    /// rook on their squares, and an en-passant square no pawn could use,
    /// are dropped rather than refused, as FEN readers usually do.
    pub fn from_setup(setup: &Setup, rules: Rules) -> Result<Position, SetupError> {
        let mut pos = Position {
            colors: [Bitboard::EMPTY; 2],
            kinds: [Bitboard::EMPTY; 6],
            side: setup.side,
            castling: Castling(0),
            ep: None,
            halfmove: setup.halfmove,
            fullmove: setup.fullmove.max(1),
            key: 0,
            checkers: Bitboard::EMPTY,
            pinned: Bitboard::EMPTY,
            rules,
        };
        for sq in Square::all() {
            if let Some(piece) = setup.board[sq.index()] {
                pos.put(piece.color, piece.kind, sq);
            }
        }
        for color in Color::ALL {
            let count = pos.pieces(color, PieceKind::King).count();
            if count != 1 {
                return Err(SetupError::KingCount { color, count });
            }
        }
        if let Some(sq) = (pos.kinds[PieceKind::Pawn.index()] & Bitboard::BACK_RANKS).first() {
            return Err(SetupError::PawnOnBackRank(sq));
        }
        let them = pos.side.flip();
        if pos.attackers(pos.king(them), pos.occupied()) & pos.colors[pos.side.index()]
            != Bitboard::EMPTY
        {
            return Err(SetupError::OpponentInCheck);
        }
        if rules.castling_and_en_passant() {
            pos.castling = Castling(setup.castling.0 & pos.possible_castling());
            pos.key ^= ZOBRIST_CASTLING[pos.castling.0 as usize];
            if let Some(ep) = setup.ep {
                pos.set_ep_if_capturable(ep);
            }
        }
        if pos.side == Color::Black {
            pos.key ^= ZOBRIST_SIDE;
        }
        pos.update_check_info();
        Ok(pos)
    }

    /// Rights that the placement of kings and rooks still allows.
    fn possible_castling(&self) -> u8 {
        // A right needs its king and its rook on their home squares.
        let home = |color, kind, sq: usize| self.pieces(color, kind).0 >> sq & 1 == 1;
        [
            (Castling::WHITE_SHORT, Color::White, 4, 7),
            (Castling::WHITE_LONG, Color::White, 4, 0),
            (Castling::BLACK_SHORT, Color::Black, 60, 63),
            (Castling::BLACK_LONG, Color::Black, 60, 56),
        ]
        .into_iter()
        .filter(|&(_, color, king, rook)| {
            home(color, PieceKind::King, king) && home(color, PieceKind::Rook, rook)
        })
        .fold(0, |rights, (right, ..)| rights | right)
    }

    /// The piece layout as a mailbox (for formats and display).
    pub fn board(&self) -> [Option<Piece>; 64] {
        let mut board = [None; 64];
        for sq in Square::all() {
            board[sq.index()] = self.piece_at(sq);
        }
        board
    }

    /// The setup this position was built from, as far as it is kept.
    pub fn setup(&self) -> Setup {
        Setup {
            board: self.board(),
            side: self.side,
            castling: self.castling,
            ep: self.ep,
            halfmove: self.halfmove,
            fullmove: self.fullmove,
        }
    }

    #[inline]
    fn put(&mut self, color: Color, kind: PieceKind, sq: Square) {
        self.colors[color.index()] |= sq.bb();
        self.kinds[kind.index()] |= sq.bb();
        self.key ^= piece_key(color, kind, sq);
    }

    #[inline]
    fn remove(&mut self, color: Color, kind: PieceKind, sq: Square) {
        self.colors[color.index()] ^= sq.bb();
        self.kinds[kind.index()] ^= sq.bb();
        self.key ^= piece_key(color, kind, sq);
    }

    /// The rule set this position is played under.
    #[inline]
    pub fn rules(&self) -> Rules {
        self.rules
    }

    /// Who moves next.
    #[inline]
    pub fn side_to_move(&self) -> Color {
        self.side
    }

    /// The Zobrist key.
    #[inline]
    pub fn key(&self) -> u64 {
        self.key
    }

    /// Castling rights.
    #[inline]
    pub fn castling(&self) -> Castling {
        self.castling
    }

    /// The en-passant square, set only when a capture there is possible.
    #[inline]
    pub fn ep_square(&self) -> Option<Square> {
        self.ep
    }

    /// Plies since the last capture or pawn move.
    #[inline]
    pub fn halfmove_clock(&self) -> u16 {
        self.halfmove
    }

    /// The move number, from 1, incremented after black moves.
    #[inline]
    pub fn fullmove_number(&self) -> u16 {
        self.fullmove
    }

    /// Pieces of one colour.
    #[inline]
    pub fn color_bb(&self, color: Color) -> Bitboard {
        self.colors[color.index()]
    }

    /// Pieces of one kind, both colours.
    #[inline]
    pub fn kind_bb(&self, kind: PieceKind) -> Bitboard {
        self.kinds[kind.index()]
    }

    /// Pieces of one colour and kind.
    #[inline]
    pub fn pieces(&self, color: Color, kind: PieceKind) -> Bitboard {
        self.colors[color.index()] & self.kinds[kind.index()]
    }

    /// The men of `color` other than its king: what antichess wants gone.
    #[inline]
    pub fn men(&self, color: Color) -> Bitboard {
        self.colors[color.index()] & !self.kinds[PieceKind::King.index()]
    }

    /// Every occupied square.
    #[inline]
    pub fn occupied(&self) -> Bitboard {
        self.colors[0] | self.colors[1]
    }

    /// The king of `color` (positions always have exactly one).
    #[inline]
    pub fn king(&self, color: Color) -> Square {
        match self.pieces(color, PieceKind::King).first() {
            Some(sq) => sq,
            None => unreachable!("a position always has both kings"),
        }
    }

    /// Pieces giving check to the side to move.
    #[inline]
    pub fn checkers(&self) -> Bitboard {
        self.checkers
    }

    /// Pieces of the side to move pinned to their king.
    #[inline]
    pub fn pinned(&self) -> Bitboard {
        self.pinned
    }

    /// Whether the side to move is in check.
    #[inline]
    pub fn in_check(&self) -> bool {
        self.checkers.any()
    }

    /// The kind of piece on `sq`, if any.
    #[inline]
    pub fn kind_at(&self, sq: Square) -> Option<PieceKind> {
        if !self.occupied().has(sq) {
            return None;
        }
        PieceKind::ALL
            .into_iter()
            .find(|k| self.kinds[k.index()].has(sq))
    }

    /// The piece on `sq`, if any.
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        let kind = self.kind_at(sq)?;
        let color = if self.colors[0].has(sq) {
            Color::White
        } else {
            Color::Black
        };
        Some(Piece { color, kind })
    }

    /// Pieces of both colours attacking `sq`, with `occupied` as blockers.
    #[inline]
    pub fn attackers(&self, sq: Square, occupied: Bitboard) -> Bitboard {
        let rooks = self.kinds[PieceKind::Rook.index()] | self.kinds[PieceKind::Queen.index()];
        let bishops = self.kinds[PieceKind::Bishop.index()] | self.kinds[PieceKind::Queen.index()];
        (attacks::pawn(Color::White, sq) & self.pieces(Color::Black, PieceKind::Pawn))
            | (attacks::pawn(Color::Black, sq) & self.pieces(Color::White, PieceKind::Pawn))
            | (attacks::knight(sq) & self.kinds[PieceKind::Knight.index()])
            | (attacks::king(sq) & self.kinds[PieceKind::King.index()])
            | (attacks::rook(sq, occupied) & rooks)
            | (attacks::bishop(sq, occupied) & bishops)
    }

    /// Whether `by` attacks `sq` with `occupied` as blockers.
    #[inline]
    pub fn is_attacked(&self, sq: Square, by: Color, occupied: Bitboard) -> bool {
        (self.attackers(sq, occupied) & self.colors[by.index()]).any()
    }

    fn update_check_info(&mut self) {
        let us = self.side;
        let them = us.flip();
        let ksq = self.king(us);
        let occ = self.occupied();
        self.checkers = self.attackers(ksq, occ) & self.colors[them.index()];
        let rooks = self.pieces(them, PieceKind::Rook) | self.pieces(them, PieceKind::Queen);
        let bishops = self.pieces(them, PieceKind::Bishop) | self.pieces(them, PieceKind::Queen);
        let snipers = (attacks::rook(ksq, Bitboard::EMPTY) & rooks)
            | (attacks::bishop(ksq, Bitboard::EMPTY) & bishops);
        let mut pinned = Bitboard::EMPTY;
        for sniper in snipers {
            let blockers = attacks::between(ksq, sniper) & occ;
            if !blockers.several() {
                pinned |= blockers & self.colors[us.index()];
            }
        }
        self.pinned = pinned;
    }

    /// Sets the en-passant square if a pawn of the side to move could
    /// capture there, so that equal positions get equal keys.
    fn set_ep_if_capturable(&mut self, ep: Square) {
        let us = self.side;
        if (attacks::pawn(us.flip(), ep) & self.pieces(us, PieceKind::Pawn)).any() {
            self.ep = Some(ep);
            self.key ^= ZOBRIST_EP[ep.file() as usize];
        }
    }

    /// The position after `mv`, which must be legal in this position.
    pub fn play(&self, mv: Move) -> Position {
        let mut pos = *self;
        let us = self.side;
        let them = us.flip();
        let (from, to) = (mv.from(), mv.to());
        let Some(kind) = self.kind_at(from) else {
            debug_assert!(false, "no piece on {from} for {mv}");
            return pos;
        };
        if let Some(ep) = pos.ep.take() {
            pos.key ^= ZOBRIST_EP[ep.file() as usize];
        }
        // Saturating: a clocked antichess game with an increment can pass
        // 65,535 plies without a capture or a pawn move.
        pos.halfmove = pos.halfmove.saturating_add(1);
        if let Some(captured) = self.kind_at(to) {
            pos.remove(them, captured, to);
            pos.halfmove = 0;
        }
        pos.remove(us, kind, from);
        pos.put(us, mv.promotion().unwrap_or(kind), to);
        if kind == PieceKind::Pawn {
            pos.halfmove = 0;
            if Some(to) == self.ep {
                // En passant: the captured pawn stands behind the target.
                if let Some(victim) = to.shifted(if us == Color::White { -8 } else { 8 }) {
                    pos.remove(them, PieceKind::Pawn, victim);
                }
            } else if from.index().abs_diff(to.index()) == 16
                && self.rules.castling_and_en_passant()
                && let Some(skipped) = Square::new(((from.index() + to.index()) / 2) as u8)
            {
                pos.side = them;
                pos.set_ep_if_capturable(skipped);
            }
        } else if kind == PieceKind::King && from.file().abs_diff(to.file()) == 2 {
            // Castling: the rook jumps over the king.
            let rank = from.rank();
            let (rook_from, rook_to) = if to.file() == 6 { (7, 5) } else { (0, 3) };
            if let (Some(rf), Some(rt)) = (
                Square::from_coords(rook_from, rank),
                Square::from_coords(rook_to, rank),
            ) {
                pos.remove(us, PieceKind::Rook, rf);
                pos.put(us, PieceKind::Rook, rt);
            }
        }
        let lost = castling_mask(from.index()) | castling_mask(to.index());
        if pos.castling.0 & lost != 0 {
            pos.key ^= ZOBRIST_CASTLING[pos.castling.0 as usize];
            pos.castling.0 &= !lost;
            pos.key ^= ZOBRIST_CASTLING[pos.castling.0 as usize];
        }
        if us == Color::Black {
            pos.fullmove = pos.fullmove.saturating_add(1);
        }
        pos.side = them;
        pos.key ^= ZOBRIST_SIDE;
        pos.update_check_info();
        pos
    }

    /// The key after `mv`, as [`Position::play`] will have it, but for
    /// en passant and castling rights (which antichess does not have): for
    /// fetching the hash table's entry before the move is made.
    #[inline]
    pub fn key_after(&self, mv: Move) -> u64 {
        let (from, to) = (mv.from(), mv.to());
        let Some(kind) = self.kind_at(from) else {
            return self.key;
        };
        let mut key = self.key
            ^ ZOBRIST_SIDE
            ^ piece_key(self.side, kind, from)
            ^ piece_key(self.side, mv.promotion().unwrap_or(kind), to);
        if let Some(captured) = self.kind_at(to) {
            key ^= piece_key(self.side.flip(), captured, to);
        }
        if let Some(ep) = self.ep {
            key ^= ZOBRIST_EP[ep.file() as usize];
        }
        key
    }

    /// The position with the move passed to the opponent, for null-move
    /// pruning; `None` when in check (passing would leave the king en prise).
    /// The halfmove clock restarts, so no repetition is counted across it.
    pub fn play_null(&self) -> Option<Position> {
        if self.in_check() {
            return None;
        }
        let mut pos = *self;
        if let Some(ep) = pos.ep.take() {
            pos.key ^= ZOBRIST_EP[ep.file() as usize];
        }
        pos.halfmove = 0;
        pos.side = self.side.flip();
        pos.key ^= ZOBRIST_SIDE;
        pos.update_check_info();
        Some(pos)
    }

    /// Every square `color` attacks.
    pub fn attack_map(&self, color: Color) -> Bitboard {
        self.attack_map_through(color, self.occupied())
    }

    /// [`Position::attack_map`] with `occ` as the blockers.
    #[inline]
    pub fn attack_map_through(&self, color: Color, occ: Bitboard) -> Bitboard {
        let pawns = self.pieces(color, PieceKind::Pawn);
        let ahead = pawns.forward(color);
        let mut map = ahead.west() | ahead.east();
        for sq in self.pieces(color, PieceKind::Knight) {
            map |= attacks::knight(sq);
        }
        let queens = self.pieces(color, PieceKind::Queen);
        for sq in self.pieces(color, PieceKind::Bishop) | queens {
            map |= attacks::bishop(sq, occ);
        }
        for sq in self.pieces(color, PieceKind::Rook) | queens {
            map |= attacks::rook(sq, occ);
        }
        map | attacks::king(self.king(color))
    }

    /// Whether `color` has nothing but its king.
    #[inline]
    pub fn is_bare(&self, color: Color) -> bool {
        !self.colors[color.index()].several()
    }

    /// Whether the antichess rules have ended the game on material: a side
    /// has nothing left but its king. Such a position has no legal moves,
    /// like a checkmate or a stalemate, so the move generator asks this
    /// first and every caller (perft, the search, the protocols) agrees.
    #[inline]
    pub fn bare_king_ends(&self) -> bool {
        self.rules.is_antichess() && !(self.colors[0].several() && self.colors[1].several())
    }

    /// How the game stands, from this position alone (repetition needs the
    /// game's history: see [`super::GameRecord`]).
    pub fn status(&self) -> Status {
        self.status_with(|| self.has_legal_move())
    }

    /// [`Position::status`], with `has_move` telling whether the side to
    /// move has a legal move; it is asked only when the answer matters, so
    /// a caller that has already generated the moves (the search) need not
    /// generate them again.
    pub fn status_with(&self, has_move: impl FnOnce() -> bool) -> Status {
        let us = self.side;
        if self.rules.is_antichess() {
            // A side left with its king alone has won at once; the side that
            // has just moved is looked at first, as Fairy-Stockfish does.
            for color in [us.flip(), us] {
                if self.is_bare(color) {
                    return Status::Won {
                        winner: color,
                        reason: Reason::BareKing,
                    };
                }
            }
        }
        if !has_move() {
            return if !self.in_check() {
                Status::Drawn(Reason::Stalemate)
            } else if self.rules.is_antichess() {
                Status::Won {
                    winner: us,
                    reason: Reason::Checkmate,
                }
            } else {
                Status::Won {
                    winner: us.flip(),
                    reason: Reason::Checkmate,
                }
            };
        }
        if self.rules == Rules::Chess {
            if self.halfmove >= 100 {
                return Status::Drawn(Reason::FiftyMoves);
            }
            if self.insufficient_material() {
                return Status::Drawn(Reason::InsufficientMaterial);
            }
        }
        Status::Ongoing
    }

    /// Chess: no sequence of legal moves can mate (bare kings, a single
    /// minor piece, or only bishops all on one colour of square).
    pub fn insufficient_material(&self) -> bool {
        let kings = self.kinds[PieceKind::King.index()];
        let bishops = self.kinds[PieceKind::Bishop.index()];
        let knights = self.kinds[PieceKind::Knight.index()];
        let others = self.occupied() & !kings;
        if others == (bishops | knights) && !others.several() {
            return true;
        }
        const DARK: Bitboard = Bitboard(0xAA55_AA55_AA55_AA55);
        others == bishops && ((others & DARK).is_empty() || (others & !DARK).is_empty())
    }
}
