//! The evaluation's weights for chess. Each term is described where it
//! is declared; what it looks at is in `eval_chess.rs`. The antichess
//! weights are in `antichess_weights.rs`.

use crate::search::Score;

/// A middlegame and an endgame value; the evaluation blends the two by
/// the material left on the board.
pub type Phased = (Score, Score);

/// A piece-square table drawn as the board is seen from White's side:
/// the first row is rank 8, the last rank 1, files a to h left to right.
/// Black reads it mirrored.
pub type Table = [Score; 64];

/// Weights of the chess evaluation, in centipawns, (middlegame, endgame)
/// where a term has two. What each term looks at is in `eval_chess.rs`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ChessWeights {
    /// Material by kind (king: 0).
    pub material: [Phased; 6],
    /// Game-phase weight by kind; 24 is a full middlegame.
    pub phase: [i32; 6],
    /// Placement by kind: middlegame tables.
    pub pst_mg: [Table; 6],
    /// Placement by kind: endgame tables.
    pub pst_eg: [Table; 6],
    /// Per safe square a piece attacks, by kind (squares neither held by
    /// its own side nor attacked by an enemy pawn), counted from
    /// `mobility_par` so that an average piece scores nothing.
    pub mobility: [Phased; 6],
    /// The number of safe squares an average piece of each kind attacks.
    pub mobility_par: [Score; 6],
    /// For two bishops or more.
    pub bishop_pair: Phased,
    /// Per pawn with another of its side ahead on its file.
    pub doubled: Phased,
    /// Per pawn with no pawn of its side on the neighbouring files.
    pub isolated: Phased,
    /// Per pawn whose neighbours have all passed it and whose stop square
    /// an enemy pawn guards.
    pub backward: Phased,
    /// Per pawn defended by a pawn or beside one, by relative rank.
    pub connected: [Phased; 8],
    /// Per passed pawn, by relative rank.
    pub passed: [Phased; 8],
    /// Endgame, per passed pawn and rank past the fourth: for each square
    /// the enemy king is from the pawn's stop square, and against each
    /// square its own king is.
    pub passed_king_distance: (Score, Score),
    /// Endgame, per passed pawn and rank past the fourth, when nothing
    /// stands on its path to the last rank.
    pub passed_free: Score,
    /// Per rook on a file without pawns, and on a file without pawns of
    /// its side.
    pub rook_open: Phased,
    /// See [`ChessWeights::rook_open`].
    pub rook_half_open: Phased,
    /// Per knight (index 0) or bishop (1) on ranks 4 to 6 that a pawn
    /// defends and no enemy pawn can ever attack.
    pub outpost: [Phased; 2],
    /// Per enemy knight, bishop, rook or queen a pawn attacks.
    pub threat_by_pawn: Phased,
    /// Per enemy rook or queen a knight or bishop attacks.
    pub threat_by_minor: Phased,
    /// Per enemy queen a rook attacks.
    pub threat_by_rook: Phased,
    /// Middlegame, per pawn of its side directly in front of the king (on
    /// its file or the neighbouring ones), one rank (index 0) or two (1)
    /// ahead.
    pub shield: [Score; 2],
    /// Middlegame, per file next to the king (its own included) without a
    /// pawn of the king's side.
    pub king_open_file: Score,
    /// Attack units per square of the enemy king's zone a piece of each
    /// kind attacks.
    pub king_attack: [Score; 6],
    /// Middlegame penalty for `units` attack units on a king, when two
    /// pieces or more attack its zone: `units * units * num / 16`, at most
    /// `king_danger_cap`.
    pub king_danger_num: Score,
    /// See [`ChessWeights::king_danger_num`].
    pub king_danger_cap: Score,
    /// For having the move.
    pub tempo: Score,
}

#[rustfmt::skip]
const PAWN_MG: Table = [
      0,   0,   0,   0,   0,   0,   0,   0,
     50,  55,  60,  65,  65,  60,  55,  50,
     15,  20,  25,  35,  35,  25,  20,  15,
      2,   5,  10,  24,  24,  10,   5,   2,
     -4,   0,   6,  20,  20,   4,   0,  -4,
     -4,   0,   2,   6,   6,  -2,   2,  -2,
     -6,   0,  -2, -12, -12,   8,   8,  -6,
      0,   0,   0,   0,   0,   0,   0,   0,
];

#[rustfmt::skip]
const PAWN_EG: Table = [
      0,   0,   0,   0,   0,   0,   0,   0,
     80,  80,  75,  70,  70,  75,  80,  80,
     45,  45,  40,  35,  35,  40,  45,  45,
     22,  20,  15,  12,  12,  15,  20,  22,
      8,   6,   4,   2,   2,   4,   6,   8,
      0,   0,  -2,  -2,  -2,  -2,   0,   0,
      0,   0,   0,   0,   0,   0,   0,   0,
      0,   0,   0,   0,   0,   0,   0,   0,
];

#[rustfmt::skip]
const KNIGHT_MG: Table = [
    -60, -35, -25, -20, -20, -25, -35, -60,
    -30, -15,   0,  10,  10,   0, -15, -30,
    -20,   5,  15,  22,  22,  15,   5, -20,
    -15,   5,  18,  25,  25,  18,   5, -15,
    -15,   0,  14,  18,  18,  14,   0, -15,
    -20,   0,  12,   8,   8,  12,   0, -20,
    -30, -15,  -5,   2,   2,  -5, -15, -30,
    -55, -28, -22, -20, -20, -22, -28, -55,
];

#[rustfmt::skip]
const KNIGHT_EG: Table = [
    -45, -30, -20, -15, -15, -20, -30, -45,
    -30, -15,  -5,   0,   0,  -5, -15, -30,
    -20,  -5,   8,  12,  12,   8,  -5, -20,
    -15,   0,  12,  18,  18,  12,   0, -15,
    -15,   0,  12,  18,  18,  12,   0, -15,
    -20,  -5,   8,  12,  12,   8,  -5, -20,
    -30, -15,  -5,   0,   0,  -5, -15, -30,
    -45, -30, -20, -15, -15, -20, -30, -45,
];

#[rustfmt::skip]
const BISHOP_MG: Table = [
    -20, -10, -10, -10, -10, -10, -10, -20,
    -10,   0,   0,   0,   0,   0,   0, -10,
    -10,   2,   6,  10,  10,   6,   2, -10,
     -8,   6,   6,  12,  12,   6,   6,  -8,
     -8,   4,  12,  12,  12,  12,   4,  -8,
     -8,  10,   8,   8,   8,   8,  10,  -8,
     -8,  12,   4,   4,   4,   4,  12,  -8,
    -20,  -8, -14,  -8,  -8, -14,  -8, -20,
];

#[rustfmt::skip]
const BISHOP_EG: Table = [
    -15, -10,  -8,  -5,  -5,  -8, -10, -15,
    -10,  -4,   0,   2,   2,   0,  -4, -10,
     -8,   0,   4,   6,   6,   4,   0,  -8,
     -5,   2,   6,  10,  10,   6,   2,  -5,
     -5,   2,   6,  10,  10,   6,   2,  -5,
     -8,   0,   4,   6,   6,   4,   0,  -8,
    -10,  -4,   0,   2,   2,   0,  -4, -10,
    -15, -10,  -8,  -5,  -5,  -8, -10, -15,
];

#[rustfmt::skip]
const ROOK_MG: Table = [
      8,   8,  10,  12,  12,  10,   8,   8,
     20,  25,  25,  25,  25,  25,  25,  20,
      0,   2,   4,   6,   6,   4,   2,   0,
     -6,   0,   0,   2,   2,   0,   0,  -6,
     -8,  -2,   0,   0,   0,   0,  -2,  -8,
    -10,  -4,   0,   0,   0,   0,  -4, -10,
    -14,  -6,  -2,   0,   0,  -2,  -6, -14,
     -6,  -2,   4,  10,  10,   6,  -2,  -6,
];

#[rustfmt::skip]
const ROOK_EG: Table = [
     10,  10,  10,  10,  10,  10,  10,  10,
     16,  18,  18,  18,  18,  18,  18,  16,
      6,   6,   6,   6,   6,   6,   6,   6,
      2,   2,   2,   2,   2,   2,   2,   2,
      0,   0,   0,   0,   0,   0,   0,   0,
     -2,  -2,  -2,  -2,  -2,  -2,  -2,  -2,
     -4,  -4,  -4,  -4,  -4,  -4,  -4,  -4,
     -6,  -4,  -2,   0,   0,  -2,  -4,  -6,
];

#[rustfmt::skip]
const QUEEN_MG: Table = [
    -20, -12, -10,  -8,  -8, -10, -12, -20,
    -12, -12,  -6,  -4,  -4,  -6, -12, -12,
    -10,  -4,   0,   0,   0,   0,  -4, -10,
     -8,  -2,   2,   2,   2,   2,  -2,  -8,
     -6,  -2,   2,   4,   4,   2,  -2,  -6,
     -8,   0,   4,   2,   2,   4,   0,  -8,
    -10,  -2,   4,   4,   4,   0,  -2, -10,
    -20, -12,  -6,   2,  -4, -10, -12, -20,
];

#[rustfmt::skip]
const QUEEN_EG: Table = [
    -20, -12,  -8,  -6,  -6,  -8, -12, -20,
    -12,  -4,   0,   2,   2,   0,  -4, -12,
     -8,   0,   6,   8,   8,   6,   0,  -8,
     -6,   2,   8,  12,  12,   8,   2,  -6,
     -6,   2,   8,  12,  12,   8,   2,  -6,
     -8,   0,   6,   8,   8,   6,   0,  -8,
    -12,  -4,   0,   2,   2,   0,  -4, -12,
    -20, -12,  -8,  -6,  -6,  -8, -12, -20,
];

#[rustfmt::skip]
const KING_MG: Table = [
    -70, -70, -70, -70, -70, -70, -70, -70,
    -60, -60, -60, -60, -60, -60, -60, -60,
    -50, -50, -55, -60, -60, -55, -50, -50,
    -45, -50, -55, -60, -60, -55, -50, -45,
    -35, -40, -45, -50, -50, -45, -40, -35,
    -20, -25, -30, -35, -35, -30, -25, -20,
      5,   5, -10, -20, -20, -10,   5,   5,
     18,  30,  10, -10,   0, -10,  30,  20,
];

#[rustfmt::skip]
const KING_EG: Table = [
    -55, -35, -25, -20, -20, -25, -35, -55,
    -30, -10,   0,   5,   5,   0, -10, -30,
    -20,   0,  15,  20,  20,  15,   0, -20,
    -15,   5,  20,  28,  28,  20,   5, -15,
    -15,   5,  20,  28,  28,  20,   5, -15,
    -20,   0,  12,  16,  16,  12,   0, -20,
    -30, -12,   0,   2,   2,   0, -12, -30,
    -55, -35, -25, -20, -20, -25, -35, -55,
];

/// Standard chess. The tables are drawn by hand: pieces towards the
/// centre, pawns forward (the centre ones first), rooks on the seventh,
/// the king behind its pawns while queens are about and in the centre
/// once they are gone.
pub const CHESS: ChessWeights = ChessWeights {
    material: [
        (82, 100),
        (330, 300),
        (345, 315),
        (480, 530),
        (1000, 960),
        (0, 0),
    ],
    phase: [0, 1, 1, 2, 4, 0],
    pst_mg: [PAWN_MG, KNIGHT_MG, BISHOP_MG, ROOK_MG, QUEEN_MG, KING_MG],
    pst_eg: [PAWN_EG, KNIGHT_EG, BISHOP_EG, ROOK_EG, QUEEN_EG, KING_EG],
    mobility: [(0, 0), (4, 4), (5, 5), (2, 4), (1, 2), (0, 0)],
    mobility_par: [0, 4, 6, 7, 13, 0],
    bishop_pair: (30, 50),
    doubled: (-10, -20),
    isolated: (-10, -14),
    backward: (-8, -10),
    connected: [
        (0, 0),
        (4, 2),
        (6, 4),
        (8, 6),
        (14, 12),
        (24, 24),
        (36, 40),
        (0, 0),
    ],
    passed: [
        (0, 0),
        (2, 10),
        (4, 14),
        (8, 24),
        (20, 42),
        (40, 75),
        (65, 120),
        (0, 0),
    ],
    passed_king_distance: (5, 2),
    passed_free: 6,
    rook_open: (28, 10),
    rook_half_open: (12, 6),
    outpost: [(24, 12), (12, 6)],
    threat_by_pawn: (45, 35),
    threat_by_minor: (30, 25),
    threat_by_rook: (30, 20),
    shield: [12, 6],
    king_open_file: -12,
    king_attack: [0, 2, 2, 3, 5, 0],
    king_danger_num: 6,
    king_danger_cap: 400,
    tempo: 10,
};
