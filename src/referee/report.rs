//! How match statistics are shown: the SPRT's line for scripts, its
//! status for people, and the crosstable of a match of many players.

use super::sprt::{Pentanomial, Sprt, Verdict};
use super::stats::PairElo;

/// The SPRT as one line of `key=value` pairs for scripts: the LLR and its
/// bounds to full precision (Rust's shortest exact form), then the
/// pentanomial Elo and nElo with their 95% intervals, the LOS, the counts
/// and the verdict. Estimates not yet defined (no pair, or every pair
/// alike) read `nan`.
pub fn sprt_line(sprt: &Sprt, penta: &Pentanomial) -> String {
    let llr = sprt.llr(penta);
    let est = PairElo::from_counts(&penta.counts);
    let nan = (f64::NAN, f64::NAN, f64::NAN);
    let (elo, nelo) = est.map_or((nan, nan), |e| (e.elo, e.nelo));
    let los = est.map_or(f64::NAN, |e| e.los);
    let c = &penta.counts;
    format!(
        "llr={llr} lower={} upper={} elo={:.6} elo_low={:.6} elo_high={:.6} \
         nelo={:.6} nelo_low={:.6} nelo_high={:.6} los={:.6} pairs={} \
         penta={},{},{},{},{} elo0={} elo1={} alpha={} beta={} model={} verdict={}",
        sprt.lower(),
        sprt.upper(),
        elo.0,
        elo.1,
        elo.2,
        nelo.0,
        nelo.1,
        nelo.2,
        los,
        penta.pairs(),
        c[0],
        c[1],
        c[2],
        c[3],
        c[4],
        sprt.elo0,
        sprt.elo1,
        sprt.alpha,
        sprt.beta,
        sprt.model,
        sprt.verdict(llr)
    )
}

/// The SPRT's state for people, in fastchess's words: LLR and bounds,
/// the hypotheses, the pentanomial counts, Elo and nElo, and LOS.
pub fn sprt_status(sprt: &Sprt, penta: &Pentanomial) -> String {
    let llr = sprt.llr(penta);
    let mut out = format!(
        "SPRT [{}, {}] {} alpha {} beta {}: LLR {llr:.3} ({:.3}, {:.3}) after {} pairs, Ptnml(0-2) {penta}",
        sprt.elo0,
        sprt.elo1,
        sprt.model,
        sprt.alpha,
        sprt.beta,
        sprt.lower(),
        sprt.upper(),
        penta.pairs()
    );
    if let Some(e) = PairElo::from_counts(&penta.counts) {
        out.push_str(&format!(
            "\n  Elo {} , nElo {} , LOS {:.1}%",
            interval(e.elo),
            interval(e.nelo),
            e.los * 100.0
        ));
    }
    out
}

/// `+12.3 [+1.2, +23.4]`.
pub fn interval((mid, low, high): (f64, f64, f64)) -> String {
    format!("{mid:+.1} [{low:+.1}, {high:+.1}]")
}

use super::player::FaultKind;
use super::series::{MatchReport, PairingReport};
use super::stats::LONG_GAME_PLIES;
use std::fmt;

impl<R> fmt::Display for MatchReport<R> {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        if self.names.len() == 2 {
            self.write_pairing(f, &self.pairings[0])?;
        } else {
            self.write_crosstable(f)?;
        }
        if let Some((sprt, verdict)) = &self.sprt {
            let penta = &self.pairings[0].penta;
            writeln!(f, "{}", sprt_status(sprt, penta))?;
            let said = match verdict {
                Verdict::H0 => "H0 accepted: the LLR reached its lower bound",
                Verdict::H1 => "H1 accepted: the LLR reached its upper bound",
                Verdict::Continue => "no verdict: the games ran out first",
            };
            writeln!(f, "SPRT: {said}")?;
            if self.uncounted > 0 {
                writeln!(
                    f,
                    "{} games finished after the SPRT decided: in the PGN, not counted",
                    self.uncounted
                )?;
            }
        }
        self.write_adjudication(f)?;
        self.write_faults(f)
    }
}

impl<R> MatchReport<R> {
    fn write_pairing(&self, f: &mut fmt::Formatter, pairing: &PairingReport) -> fmt::Result {
        let t = &pairing.tally;
        let (a, b) = (
            &self.names[pairing.players.0],
            &self.names[pairing.players.1],
        );
        writeln!(
            f,
            "Score of {a} vs {b}: {} - {} - {}  [{:.3}]  {} games",
            t.wins,
            t.losses,
            t.draws,
            t.fraction().unwrap_or(0.0),
            t.games()
        )?;
        writeln!(
            f,
            "{a}: {} wins, {} draws, {} losses, {} points of {}",
            t.wins,
            t.draws,
            t.losses,
            t.points(),
            t.games()
        )?;
        if let Some(elo) = t.elo() {
            writeln!(f, "Elo difference: {elo}")?;
        }
        let penta = &pairing.penta;
        if penta.pairs() > 0 {
            write!(f, "Pairs (Ptnml 0-2): {penta}")?;
            if let Some(e) = PairElo::from_counts(&penta.counts) {
                write!(
                    f,
                    "  Elo {}, nElo {}, LOS {:.1}%",
                    interval(e.elo),
                    interval(e.nelo),
                    e.los * 100.0
                )?;
            }
            writeln!(f)?;
        }
        let flags = &pairing.flags;
        let d = &flags.long_drawn;
        writeln!(
            f,
            "Wins on time: {a} {} ({} over {LONG_GAME_PLIES} plies), {b} {} ({} over {LONG_GAME_PLIES} plies)",
            flags.wins[0], flags.long_wins[0], flags.wins[1], flags.long_wins[1]
        )?;
        if let Some(elo) = d.elo() {
            writeln!(
                f,
                "With wins on time over {LONG_GAME_PLIES} plies as draws: {} - {} - {}  [{:.3}]  Elo {elo}",
                d.wins,
                d.losses,
                d.draws,
                d.fraction().unwrap_or(0.0)
            )?;
        }
        Ok(())
    }

    /// Each player's points against each other player, its total, and
    /// then each pairing's score and Elo.
    fn write_crosstable(&self, f: &mut fmt::Formatter) -> fmt::Result {
        let n = self.names.len();
        let mut points = vec![vec![None; n]; n];
        let mut totals = vec![(0.0, 0u32); n];
        for p in &self.pairings {
            let (i, j) = p.players;
            let t = &p.tally;
            let games = t.games();
            points[i][j] = Some((t.points(), games));
            points[j][i] = Some((f64::from(games) - t.points(), games));
            totals[i].0 += t.points();
            totals[i].1 += games;
            totals[j].0 += f64::from(games) - t.points();
            totals[j].1 += games;
        }
        let width = self.names.iter().map(|s| s.len()).max().unwrap_or(6).max(6);
        writeln!(f, "Crosstable (the row's points against the column):")?;
        write!(f, "  {:>2}  {:width$}", "#", "player")?;
        for j in 0..n {
            write!(f, "  {:>9}", j + 1)?;
        }
        writeln!(f, "  {:>11}", "total")?;
        for i in 0..n {
            write!(f, "  {:>2}  {:width$}", i + 1, self.names[i])?;
            for cell in &points[i] {
                match cell {
                    Some((p, g)) => write!(f, "  {:>9}", format!("{p}/{g}"))?,
                    None => write!(f, "  {:>9}", "-")?,
                }
            }
            writeln!(f, "  {:>11}", format!("{}/{}", totals[i].0, totals[i].1))?;
        }
        writeln!(f, "Pairings:")?;
        for p in &self.pairings {
            let t = &p.tally;
            let (a, b) = (&self.names[p.players.0], &self.names[p.players.1]);
            write!(
                f,
                "  {a} vs {b}: {} - {} - {}  [{:.3}]  {} games",
                t.wins,
                t.losses,
                t.draws,
                t.fraction().unwrap_or(0.0),
                t.games()
            )?;
            match t.elo() {
                Some(elo) => writeln!(f, ", Elo {elo}")?,
                None => writeln!(f)?,
            }
        }
        Ok(())
    }

    fn write_adjudication(&self, f: &mut fmt::Formatter) -> fmt::Result {
        let adj = &self.adjudication;
        let mut rules = Vec::new();
        if let Some(n) = adj.max_plies {
            rules.push(format!("draw after {n} plies"));
        }
        if let Some(n) = adj.repetitions {
            rules.push(format!("draw at {n}-fold repetition"));
        }
        if adj.tables {
            rules.push("endgame tables".to_string());
        }
        if !rules.is_empty() {
            writeln!(
                f,
                "Adjudication ON ({}): {} games adjudicated",
                rules.join(", "),
                self.adjudicated
            )?;
        }
        Ok(())
    }

    fn write_faults(&self, f: &mut fmt::Formatter) -> fmt::Result {
        writeln!(f, "Faults:")?;
        let width = self.names.iter().map(|n| n.len()).max().unwrap_or(0).max(6);
        write!(f, "  {:width$}", "player")?;
        for kind in FaultKind::ALL {
            write!(f, "  {kind}")?;
        }
        writeln!(f)?;
        for (i, name) in self.names.iter().enumerate() {
            write!(f, "  {name:width$}")?;
            for kind in FaultKind::ALL {
                let n = self.faults.get(&(i, kind)).copied().unwrap_or(0);
                write!(f, "  {n:>w$}", w = kind.name().len())?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}
