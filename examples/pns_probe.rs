use antichess::chess::{Position, Rules};
use antichess::search::Game;
use antichess::search::proof::{ProofSearch, Verdict};
#[allow(unused_imports)]
use std::io::BufRead;
use std::time::Instant;
fn main() {
    let budget: u64 = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(200_000);
    let mut ps = ProofSearch::new(4_000_000);
    for line in std::io::stdin().lock().lines() {
        let line = line.unwrap();
        let mut parts = line.split('|');
        let fen = parts.next().unwrap();
        let moves: Vec<&str> = parts.next().unwrap().split_whitespace().collect();
        let ours = parts.next().unwrap().trim();
        let mut pos = Position::from_fen(fen, Rules::Antichess).unwrap();
        let mut hist = vec![pos.key()];
        for m in moves {
            let mv = pos.parse_move(m).unwrap();
            pos = pos.play(mv);
            hist.push(pos.key());
        }
        let ourmv = pos.parse_move(ours).unwrap();
        let after = pos.play(ourmv);
        let mut h2 = hist.clone();
        h2.push(after.key());
        let t0 = Instant::now();
        let pv = ps.prove(&after, &h2, |n| n < budget);
        println!(
            "after ours {ours}: {pv:?} nodes {} in {:?}",
            ps.size(),
            t0.elapsed()
        );
        let t = Instant::now();
        let v = ps.refute(&pos, &hist, |n| n < budget);
        let lost: Vec<String> = ps
            .root_moves()
            .filter(|(_, v)| *v == Verdict::Proven)
            .map(|(m, _)| m.to_string())
            .collect();
        let total = ps.root_moves().count();
        let ours_lost = lost.iter().any(|m| m == ours);
        println!(
            "{v:?} nodes {} in {:?}: {}/{} root moves proven lost; ours {} lost={}",
            ps.size(),
            t.elapsed(),
            lost.len(),
            total,
            ours,
            ours_lost
        );
    }
}
