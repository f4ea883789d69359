use antichess::chess::{Position, Rules};
use antichess::search::proof::{ProofSearch, Verdict};
use antichess::search::{Game, Limits, MATE_BOUND, Searcher};
use std::io::BufRead;
use std::sync::atomic::AtomicBool;
use std::time::Duration;
fn main() {
    let mut ps = ProofSearch::new(1_000_000);
    let mut s: Searcher<Position> = Searcher::new(16).unwrap();
    let stop = AtomicBool::new(false);
    let (mut agree, mut unsure, mut contra) = (0, 0, 0);
    for line in std::io::stdin().lock().lines().take(30) {
        let line = line.unwrap();
        let mut parts = line.split('|');
        let fen = parts.next().unwrap();
        let moves: Vec<&str> = parts.next().unwrap().split_whitespace().collect();
        let mut pos = Position::from_fen(fen, Rules::Antichess).unwrap();
        let mut hist = vec![pos.key()];
        for m in moves {
            let mv = pos.parse_move(m).unwrap();
            pos = pos.play(mv);
            hist.push(pos.key());
        }
        ps.refute(&pos, &hist, |n| n < 30_000);
        let lost: Vec<_> = ps
            .root_moves()
            .filter(|(_, v)| *v == Verdict::Proven)
            .map(|(m, _)| m)
            .collect();
        for mv in lost {
            let child = pos.play(mv);
            let mut h = hist.clone();
            h.push(child.key());
            s.clear();
            let lim = Limits {
                movetime: Some(Duration::from_millis(300)),
                ..Limits::default()
            };
            let r = s.search(&child, &h, &lim, &stop, |_| {});
            if r.score >= MATE_BOUND {
                agree += 1
            } else if r.score <= -MATE_BOUND {
                contra += 1;
                println!("CONTRA {fen} {mv} {}", r.score)
            } else {
                unsure += 1
            }
        }
    }
    println!("agree {agree} unsure {unsure} contra {contra}");
}
