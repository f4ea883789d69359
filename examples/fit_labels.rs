use antichess::chess::{Position, Rules, antichess_weights as w, eval::antichess_terms};
use antichess::search::MoveList;
use antichess::tune::texel::{self, N, Sample};
use std::hash::{Hash, Hasher};
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let lambda: f64 = args[2].parse().unwrap();
    let epochs: u32 = args[3].parse().unwrap();
    let fixed_names: Vec<String> = args
        .get(4)
        .map(|s| {
            s.split(',')
                .filter(|x| !x.is_empty())
                .map(String::from)
                .collect()
        })
        .unwrap_or_default();
    let base = *w::antichess(Rules::Antichess);
    let text = std::fs::read_to_string(&args[1]).unwrap();
    let mut rows = Vec::new();
    for line in text.lines() {
        let f: Vec<&str> = line.split('\t').collect();
        let pos = Position::from_fen(f[0], Rules::Antichess).unwrap();
        let result: f64 = f[1].parse().unwrap();
        let cp: f64 = f[2].parse().unwrap();
        let mut h = std::collections::hash_map::DefaultHasher::new();
        f[3].hash(&mut h);
        rows.push((pos, result, cp, h.finish() % 5 == 0));
    }
    // FSF's curve: its scores against the games' results.
    let err_s = |k: f64| -> f64 {
        let v: Vec<f64> = rows
            .iter()
            .filter(|r| r.2.abs() < 20000.0)
            .map(|r| (r.1 - texel::sigmoid(k, r.2)).powi(2))
            .collect();
        v.iter().sum::<f64>() / v.len() as f64
    };
    let (mut lo, mut hi) = (0.001f64, 5.0f64);
    for _ in 0..60 {
        let a = hi - 0.618 * (hi - lo);
        let b = lo + 0.618 * (hi - lo);
        if err_s(a) < err_s(b) { hi = b } else { lo = a }
    }
    let kf = (lo + hi) / 2.0;
    eprintln!(
        "fsf curve k {kf:.4}, mse of fsf vs results {:.5}",
        err_s(kf)
    );
    let mk = |r: &(Position, f64, f64, bool), lab: f64| -> Sample {
        let mut moves = MoveList::new();
        r.0.legal_moves(&mut moves);
        let t = antichess_terms(&r.0, || moves.len());
        Sample {
            features: texel::features(&t, &base),
            result: lab,
            position: r.0,
        }
    };
    let fsf = |cp: f64| {
        if cp >= 20000.0 {
            1.0
        } else if cp <= -20000.0 {
            0.0
        } else {
            texel::sigmoid(kf, cp)
        }
    };
    let (mut train, mut hold, mut hold_res) = (Vec::new(), Vec::new(), Vec::new());
    for r in &rows {
        let lab = lambda * fsf(r.2) + (1.0 - lambda) * r.1;
        if r.3 {
            hold.push(mk(r, lab));
            hold_res.push(mk(r, r.1));
        } else {
            train.push(mk(r, lab));
        }
    }
    if let Ok(path) = std::env::var("DUMP") {
        let mut out = String::new();
        for r in &rows {
            let smp = mk(r, 0.0);
            let feats: Vec<String> = smp.features.iter().map(|x| format!("{x:.4}")).collect();
            out += &format!(
                "{}\t{}\t{}\t{}\t{}\n",
                r.0.fen(),
                r.1,
                fsf(r.2),
                u8::from(r.3),
                feats.join(",")
            );
        }
        std::fs::write(path, out).unwrap();
        return;
    }
    let start = texel::to_vector(&base);
    let k = texel::fit_k(&train, &start);
    let mut fixed = [false; N];
    for name in &fixed_names {
        for full in w::qualified(name) {
            if let Some(i) = (0..N).find(|&i| texel::name(i) == full) {
                fixed[i] = true
            }
        }
    }
    eprintln!(
        "train {} hold {} k {k:.3}; before: train {:.5} hold {:.5} hold-vs-results {:.5}",
        train.len(),
        hold.len(),
        texel::error(&train, &start, k),
        texel::error(&hold, &start, k),
        texel::error(&hold_res, &start, texel::fit_k(&hold_res, &start))
    );
    let fitted = texel::fit(&train, &start, k, epochs, &fixed);
    let tuned = texel::from_vector(&fitted, &base);
    let r = texel::to_vector(&tuned);
    eprintln!(
        "after: train {:.5} hold {:.5} hold-vs-results {:.5} (k refit {:.3})",
        texel::error(&train, &r, k),
        texel::error(&hold, &r, k),
        texel::error(&hold_res, &r, texel::fit_k(&hold_res, &r)),
        texel::fit_k(&hold_res, &r)
    );
    for i in 0..N {
        eprintln!("  {:<28} {:>6} -> {:>6}", texel::name(i), start[i], r[i]);
    }
    let spec: Vec<String> = (0..N)
        .map(|i| format!("{}={}", texel::name(i), r[i]))
        .collect();
    println!("{}", spec.join(","));
}
