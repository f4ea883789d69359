//! The strength ladder: one level number that satisfies every handout.
//!
//! Level 0 is full strength on the clock (the 6.170 tournament level);
//! 1 to 3 are the CS 246 computer players (random, forcing, careful),
//! chosen without a search; 4 and up search to a depth that grows with
//! the level, so a higher level plays more skilfully (the 1994 handout).
//!
//! The quick levels follow the rule set, through the [`Quick`] trait: in
//! antichess a capture is compulsory and losing material is the goal, so
//! "forcing" is left with checks, and "careful" looks at the moves that
//! give a man away and counts material, sign reversed, among them; in
//! checkers "forcing" means captures and crowning
//! moves, and "careful" counts men and kings.

use crate::checkers;
use crate::chess::{Move, PieceKind, Position, Rules};
use crate::rng::SplitMix;
use crate::search::{Game, MoveList, Outcome};
use std::fmt;

/// Highest level accepted.
pub const MAX_LEVEL: u32 = 40;

/// A strength level, `0..=MAX_LEVEL`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
pub struct Level(pub u32);

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        self.0.fmt(f)
    }
}

/// How a level chooses its move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Style {
    /// Search as well as the clock allows.
    Full,
    /// Any legal move.
    Random,
    /// Prefer forcing moves (chess: captures, promotions and checks;
    /// antichess: checks).
    Forcing,
    /// The best material balance after the opponent's reply, forcing
    /// moves first among equals (antichess: only among the moves that
    /// give a man away, when there are such).
    Careful,
    /// Search this many plies (and never beyond the clock).
    Depth(u32),
}

impl Level {
    /// How this level plays.
    pub fn style(self) -> Style {
        match self.0 {
            0 => Style::Full,
            1 => Style::Random,
            2 => Style::Forcing,
            3 => Style::Careful,
            n => Style::Depth(n - 2),
        }
    }
}

/// What the quick levels need of a game beyond the search's contract.
pub trait Quick: Game {
    /// Sorts `moves` into an order that does not depend on the move
    /// generator, so that a seeded draw stays reproducible if it changes.
    fn sort_for_draw(moves: &mut [Self::Move]);

    /// Material the mover wins with `mv`, in the mover's favour: positive
    /// is good.
    fn gain(&self, mv: Self::Move) -> i32;

    /// Whether `mv` forces the opponent's hand.
    fn is_forcing(&self, mv: Self::Move) -> bool;

    /// How the game stands for the side to move, if it is over.
    fn verdict(&self) -> Option<Outcome>;

    /// Moves the careful level weighs first: all of them, except in
    /// antichess, where it looks at the moves that offer a man (the
    /// antichess reading of "avoid being captured") and counts material
    /// only among those.
    fn careful_first(&self, _mv: Self::Move) -> bool {
        true
    }
}

/// Picks a move for one of the search-free levels; `None` when there is
/// no legal move. Reproducible: the same seed and position give the same
/// move, and different positions of one game draw different numbers.
pub fn quick_move<P: Quick>(pos: &P, style: Style, seed: u64) -> Option<P::Move> {
    let mut moves = MoveList::new();
    pos.generate(&mut moves);
    P::sort_for_draw(&mut moves);
    let mut rng = SplitMix(seed ^ pos.key());
    let candidates: Vec<P::Move> = match style {
        Style::Forcing => preferred(&moves, |&m| pos.is_forcing(m)),
        Style::Careful => {
            let pool = preferred(&moves, |&m| pos.careful_first(m));
            let scores: Vec<(P::Move, i32)> = pool.iter().map(|&m| (m, careful(pos, m))).collect();
            let best = scores.iter().map(|&(_, s)| s).max()?;
            let safest: Vec<P::Move> = scores
                .iter()
                .filter(|&&(_, s)| s == best)
                .map(|&(m, _)| m)
                .collect();
            preferred(&safest, |&m| pos.is_forcing(m))
        }
        Style::Random | Style::Full | Style::Depth(_) => moves.to_vec(),
    };
    if candidates.is_empty() {
        return None;
    }
    candidates.get(rng.below(candidates.len())).copied()
}

/// The moves satisfying `wanted`, or all of them if none does.
fn preferred<M: Copy>(moves: &[M], wanted: impl Fn(&M) -> bool) -> Vec<M> {
    let some: Vec<M> = moves.iter().copied().filter(&wanted).collect();
    if some.is_empty() {
        moves.to_vec()
    } else {
        some
    }
}

/// Beyond any material count: the game is decided.
const DECIDED: i32 = 1000;

/// The score of a finished game for the side to move.
fn decided(outcome: Outcome) -> i32 {
    match outcome {
        Outcome::Win => DECIDED,
        Outcome::Loss => -DECIDED,
        Outcome::Draw => 0,
    }
}

/// Level 3's look-ahead: the material balance after `mv` and the
/// opponent's best reply (two plies of material minimax), which is what
/// "does not lose material at once" means in every rule set.
fn careful<P: Quick>(pos: &P, mv: P::Move) -> i32 {
    let after = pos.play(mv);
    // The opponent moves in `after`: its verdict is the mover's negated.
    if let Some(outcome) = after.verdict() {
        return -decided(outcome);
    }
    let ours = pos.gain(mv);
    let mut replies = MoveList::new();
    after.generate(&mut replies);
    replies
        .iter()
        .map(|&reply| {
            after
                .play(reply)
                .verdict()
                .map_or(ours - after.gain(reply), decided)
        })
        .min()
        .unwrap_or(ours)
}

/// Material in pawns; a king is never captured under these rules.
fn material(kind: PieceKind) -> i32 {
    match kind {
        PieceKind::Pawn => 1,
        PieceKind::Knight | PieceKind::Bishop => 3,
        PieceKind::Rook => 5,
        PieceKind::Queen => 9,
        PieceKind::King => 0,
    }
}

impl Quick for Position {
    fn sort_for_draw(moves: &mut [Move]) {
        moves.sort_unstable_by_key(|m| m.bits());
    }

    /// Antichess reverses the sign, since there losing material wins.
    fn gain(&self, mv: Move) -> i32 {
        let captured = self.kind_at(mv.to()).map_or(0, material);
        let promoted = mv
            .promotion()
            .map_or(0, |kind| material(kind) - material(PieceKind::Pawn));
        let raw = captured + promoted;
        if self.rules().is_antichess() {
            -raw
        } else {
            raw
        }
    }

    /// A capture, a promotion or a check: the CS 246 level 2. In antichess
    /// captures are compulsory, so what is left to prefer is the check.
    fn is_forcing(&self, mv: Move) -> bool {
        let after = self.play(mv);
        match self.rules() {
            Rules::Chess => {
                self.kind_at(mv.to()).is_some() || mv.promotion().is_some() || after.in_check()
            }
            Rules::Antichess | Rules::Antichess1994 => after.in_check(),
        }
    }

    /// In antichess, a move after which the opponent must capture: a man
    /// given away. Measured against level 2, this made level 3 stronger
    /// where "material first" (4-8-8 in 20 games) and a one-ply search
    /// (11-78-31 in 120) had made it weaker.
    fn careful_first(&self, mv: Move) -> bool {
        if !self.rules().is_antichess() {
            return true;
        }
        let after = self.play(mv);
        let mut replies = MoveList::new();
        after.legal_moves(&mut replies);
        let ours = after.color_bb(self.side_to_move());
        replies.iter().any(|r| ours.has(r.to()))
    }

    fn verdict(&self) -> Option<Outcome> {
        self.status().outcome_for(self.side_to_move())
    }
}

/// Checkers material, in half men: a king is worth a man and a half.
fn checkers_material(piece: checkers::Piece) -> i32 {
    if piece.king { 3 } else { 2 }
}

impl Quick for checkers::Position {
    fn sort_for_draw(moves: &mut [checkers::Move]) {
        moves.sort_unstable_by_key(|m| m.squares());
    }

    /// The pieces taken, and a crowning.
    fn gain(&self, mv: checkers::Move) -> i32 {
        let taken: i32 = mv
            .taken()
            .filter_map(|sq| self.piece_at(sq))
            .map(checkers_material)
            .sum();
        taken + i32::from(crowns(self, mv))
    }

    /// Captures (compulsory anyway, so when there is one every move is
    /// one) and crowning moves.
    fn is_forcing(&self, mv: checkers::Move) -> bool {
        mv.is_capture() || crowns(self, mv)
    }

    fn verdict(&self) -> Option<Outcome> {
        // The side with no legal move loses; there is no draw rule.
        (!self.has_moves()).then_some(Outcome::Loss)
    }
}

/// Whether `mv` makes a man a king.
fn crowns(pos: &checkers::Position, mv: checkers::Move) -> bool {
    let man = pos.piece_at(mv.from()).is_some_and(|p| !p.king);
    man && pos.play(mv).piece_at(mv.to()).is_some_and(|p| p.king)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn position(fen: &str, rules: Rules) -> Position {
        Position::from_fen(fen, rules).expect("test FEN is valid")
    }

    fn handout(mv: Option<Move>) -> String {
        mv.map_or("none".into(), |m| m.handout().to_string())
    }

    #[test]
    fn the_ladder() {
        assert_eq!(Level(0).style(), Style::Full);
        assert_eq!(Level(1).style(), Style::Random);
        assert_eq!(Level(3).style(), Style::Careful);
        assert_eq!(Level(4).style(), Style::Depth(2));
        assert_eq!(Level(MAX_LEVEL).style(), Style::Depth(MAX_LEVEL - 2));
    }

    #[test]
    fn random_is_reproducible_and_varies_with_the_seed() {
        let pos = Position::startpos(Rules::Antichess);
        let first = quick_move(&pos, Style::Random, 7);
        assert_eq!(first, quick_move(&pos, Style::Random, 7));
        let seen: std::collections::HashSet<String> = (0..50)
            .map(|seed| handout(quick_move(&pos, Style::Random, seed)))
            .collect();
        assert!(seen.len() > 5, "{seen:?}");
    }

    #[test]
    fn no_move_when_the_game_is_over() {
        // Black is checkmated in chess.
        let pos = position("R5k1/5ppp/8/8/8/8/8/6K1 b - - 0 1", Rules::Chess);
        for style in [Style::Random, Style::Forcing, Style::Careful] {
            assert_eq!(quick_move(&pos, style, 1), None);
        }
    }

    #[test]
    fn chess_forcing_prefers_captures_and_checks() {
        // The rook can take the knight or check; every choice is one of those.
        let pos = position("4k3/8/8/8/8/8/3n4/R3K3 w - - 0 1", Rules::Chess);
        for seed in 0..20 {
            let m = handout(quick_move(&pos, Style::Forcing, seed));
            assert!(["a1-a8", "e1-d2"].contains(&m.as_str()), "{m}");
        }
    }

    #[test]
    fn chess_careful_does_not_hang_the_queen() {
        // Qxd5 would win a pawn and lose the queen to exd5; the queen stays safe.
        let pos = position("4k3/8/4p3/3p4/8/8/8/3QK3 w - - 0 1", Rules::Chess);
        for seed in 0..20 {
            let m = handout(quick_move(&pos, Style::Careful, seed));
            assert_ne!(m, "d1-d5", "seed {seed}");
        }
        // A free pawn is taken.
        let pos = position("4k3/8/8/3p4/8/8/8/3QK3 w - - 0 1", Rules::Chess);
        assert_eq!(handout(quick_move(&pos, Style::Careful, 3)), "d1-d5");
    }

    #[test]
    fn antichess_careful_gives_the_queen_away() {
        // Any queen move onto the pawn's diagonals leaves White bare: a win.
        let pos = position("4k3/8/8/2p5/8/8/8/Q3K3 w - - 0 1", Rules::Antichess);
        let m = quick_move(&pos, Style::Careful, 5).expect("a move");
        let after = pos.play(m);
        let mut replies = MoveList::new();
        after.legal_moves(&mut replies);
        assert!(replies.iter().all(|r| r.to() == m.to()), "{m:?}");
    }

    fn checkers(pdn: &str) -> checkers::Position {
        checkers::Position::from_pdn(pdn).expect("test PDN is valid")
    }

    #[test]
    fn checkers_levels_are_reproducible_and_end_with_the_game() {
        let start = checkers::Position::initial();
        for style in [Style::Random, Style::Forcing, Style::Careful] {
            let first = quick_move(&start, style, 9);
            assert!(first.is_some());
            assert_eq!(first, quick_move(&start, style, 9));
        }
        // White has no piece left to move: no move, whatever the level.
        let over = checkers("W:W:B1,2");
        assert_eq!(quick_move(&over, Style::Careful, 1), None);
    }

    #[test]
    fn checkers_forcing_crowns_and_careful_keeps_its_men() {
        // Black's man on 27 can crown on 31 or 32; forcing always crowns.
        let pos = checkers("B:W5:B9,27");
        for seed in 0..10 {
            let m = quick_move(&pos, Style::Forcing, seed).expect("a move");
            assert!(crowns(&pos, m), "{m}");
        }
        // 15-18 would hand White's man on 22 a jump; 15-19 is safe.
        let pos = checkers("B:W21,22:B15");
        for seed in 0..10 {
            let m = quick_move(&pos, Style::Careful, seed).expect("a move");
            let after = pos.play(m);
            assert!(!after.must_capture(), "{m} hands a piece over");
        }
    }

    #[test]
    fn antichess_careful_offers_a_piece() {
        // After 1... e5 some White moves put a piece where the e-pawn or
        // another black man must take it; only those are chosen.
        let pos = position(
            "rnbqkbnr/pppp1ppp/8/4p3/8/8/PPPPPPPP/RNBQKBNR w - - 0 1",
            Rules::Antichess,
        );
        for seed in 0..20 {
            let m = quick_move(&pos, Style::Careful, seed).expect("a move");
            assert!(pos.careful_first(m), "{m:?}");
        }
    }
}
