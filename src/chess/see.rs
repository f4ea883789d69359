//! Static exchange evaluation for chess: whether a capture comes out at
//! least even once every piece bearing on the square has joined in, each
//! side taking with its cheapest piece and free to stop when continuing
//! would lose. X-rays through the pieces that have left are followed; pins
//! are not, which errs on the capturer's side.

use super::attacks;
use super::moves::Move;
use super::position::Position;
use super::types::PieceKind;

/// Exchange values by kind; the king's outweighs everything, so it takes
/// last and only when nothing can take it back.
const VALUE: [i32; 6] = [100, 320, 330, 500, 950, 20_000];

impl Position {
    /// Whether `mv` wins at least `threshold` centipawns of material in
    /// the exchange it starts on its target square. A promotion's gain is
    /// not counted.
    pub fn see_ge(&self, mv: Move, threshold: i32) -> bool {
        let (from, to) = (mv.from(), mv.to());
        let Some(mover) = self.kind_at(from) else {
            return false;
        };
        let en_passant = mover == PieceKind::Pawn && Some(to) == self.ep_square();
        let victim = if en_passant {
            VALUE[0]
        } else {
            self.kind_at(to).map_or(0, |k| VALUE[k.index()])
        };
        // `balance` is what the side that just captured stands to keep if
        // the exchange stopped here, less the threshold.
        let mut balance = victim - threshold;
        if balance < 0 {
            return false;
        }
        balance = VALUE[mover.index()] - balance;
        if balance <= 0 {
            return true;
        }
        let mut occupied = self.occupied() ^ from.bb() ^ to.bb();
        if en_passant && let Some(captured) = to.bb().forward(self.side_to_move().flip()).first() {
            occupied ^= captured.bb();
        }
        let diagonal = self.kind_bb(PieceKind::Bishop) | self.kind_bb(PieceKind::Queen);
        let straight = self.kind_bb(PieceKind::Rook) | self.kind_bb(PieceKind::Queen);
        let mut attackers = self.attackers(to, occupied);
        let mut side = self.side_to_move();
        // Whether the side that made the last capture comes out ahead.
        let mut mover_wins = true;
        loop {
            side = side.flip();
            attackers &= occupied;
            let ours = attackers & self.color_bb(side);
            if ours.is_empty() {
                break;
            }
            let Some((kind, piece)) = PieceKind::ALL
                .iter()
                .find_map(|&k| (ours & self.kind_bb(k)).first().map(|sq| (k, sq)))
            else {
                break;
            };
            mover_wins = !mover_wins;
            if kind == PieceKind::King {
                // The king may take only if nothing can take it back.
                let theirs = attackers & self.color_bb(side.flip());
                return if theirs.any() {
                    !mover_wins
                } else {
                    mover_wins
                };
            }
            balance = VALUE[kind.index()] - balance;
            if balance < i32::from(mover_wins) {
                break;
            }
            occupied ^= piece.bb();
            // Sliders behind the piece that just took now see the square.
            if matches!(kind, PieceKind::Pawn | PieceKind::Bishop | PieceKind::Queen) {
                attackers |= attacks::bishop(to, occupied) & diagonal;
            }
            if matches!(kind, PieceKind::Rook | PieceKind::Queen) {
                attackers |= attacks::rook(to, occupied) & straight;
            }
        }
        mover_wins
    }

    /// Whether a capture by the side to move gives away more than it
    /// takes: with the capture's victim worth at least its attacker it
    /// cannot, so only the others pay for an exchange evaluation.
    pub fn is_losing_capture(&self, mv: Move) -> bool {
        let (Some(mover), victim) = (self.kind_at(mv.from()), self.kind_at(mv.to())) else {
            return false;
        };
        let victim = victim.map_or(VALUE[0], |k| VALUE[k.index()]);
        victim < VALUE[mover.index()] && !self.see_ge(mv, 0)
    }
}

#[cfg(test)]
mod tests {
    use super::super::rules::Rules;
    use super::*;
    use crate::chess::Square;

    fn see(fen: &str, from: &str, to: &str, threshold: i32) -> bool {
        let pos = Position::from_fen(fen, Rules::Chess).expect("valid FEN");
        let sq = |s: &str| Square::parse(s).expect("square");
        pos.see_ge(Move::new(sq(from), sq(to), None), threshold)
    }

    #[test]
    fn exchanges() {
        // A pawn defended by a pawn: the rook loses 400.
        let fen = "4k3/8/2p5/3p4/8/8/8/3RK3 w - - 0 1";
        assert!(!see(fen, "d1", "d5", 0));
        assert!(see(fen, "d1", "d5", -400));
        assert!(!see(fen, "d1", "d5", -399));
        // Undefended: a clean pawn.
        let fen = "4k3/8/8/3p4/8/8/8/3RK3 w - - 0 1";
        assert!(see(fen, "d1", "d5", 100) && !see(fen, "d1", "d5", 101));
        // Doubled rooks against one defender: the x-ray counts.
        let fen = "3rk3/8/8/3p4/8/8/3R4/3RK3 w - - 0 1";
        assert!(see(fen, "d2", "d5", 0));
        let fen = "3rk3/3r4/8/3p4/8/8/3R4/3RK3 w - - 0 1";
        assert!(!see(fen, "d2", "d5", 0));
        // The king takes back what nothing defends, but not what the
        // rook behind defends.
        let fen = "4k3/8/8/8/8/8/3r4/3RK3 b - - 0 1";
        assert!(see(fen, "d2", "d1", 0) && !see(fen, "d2", "d1", 1));
        let fen = "3rk3/8/8/8/8/8/3r4/3RK3 b - - 0 1";
        assert!(see(fen, "d2", "d1", 500));
        // A knight takes a pawn that a bishop defends: -220.
        let fen = "4k3/8/1b6/8/3p4/8/4N3/4K3 w - - 0 1";
        assert!(!see(fen, "e2", "d4", 0) && see(fen, "e2", "d4", -220));
    }
}
