//! A small learned correction to the antichess evaluation: a one-hidden-layer
//! network over where each man stands, added to the hand-made terms.
//!
//! The hand-made evaluation is a dozen linear terms and knows nothing of
//! placement; what a search of ours finds beyond it in a position is what
//! the network is fitted to (`antichess fit-net`, `src/tune/net_fit.rs`).
//! It reads the board from the side to move's seat (the board turned for
//! Black), so one set of weights serves both colours. The 2002 rules play
//! with the built-in weights (`antichess2002.net`), which won by a match;
//! `ANTICHESS_NET` names other weights for tuning runs, or `none`.

use super::position::Position;
use super::rules::Rules;
use super::types::{Color, PieceKind};
use crate::search::Score;
use arrayvec::ArrayVec;
use once_cell::sync::Lazy;
use std::fmt;

/// Inputs: a man of each kind and side (own, then the opponent's) on
/// each square.
pub const INPUTS: usize = 2 * 6 * 64;
/// Hidden units.
pub const HIDDEN: usize = 32;
/// The output unit's scale: weights near 1 give centipawns near this.
pub const OUTPUT_SCALE: f32 = 100.0;
/// The file's first line.
const MAGIC: &str = "antichess-net 1";

/// The network's weights.
#[derive(Clone, Debug, PartialEq)]
pub struct Net {
    /// `INPUTS × HIDDEN`, an input's weights together.
    pub hidden_weights: Vec<f32>,
    pub hidden_bias: [f32; HIDDEN],
    pub output_weights: [f32; HIDDEN],
    pub output_bias: f32,
}

/// Why a weights file was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NetError {
    /// The first line is not this format's.
    NotANet,
    /// A number that does not parse.
    BadNumber(String),
    /// Too few or too many numbers.
    Count { expected: usize, found: usize },
}

impl fmt::Display for NetError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            NetError::NotANet => write!(f, "not a weights file (its first line is not '{MAGIC}')"),
            NetError::BadNumber(text) => write!(f, "'{text}' is not a number"),
            NetError::Count { expected, found } => {
                write!(f, "{found} numbers where the network has {expected}")
            }
        }
    }
}

impl std::error::Error for NetError {}

/// The input of a man of `color` and `kind` on square index `square`, seen
/// by the side `us`: Black's board is turned so that both sides see their
/// men start on the low ranks.
#[inline]
pub fn input(us: Color, color: Color, kind: PieceKind, square: usize) -> usize {
    let seat = if us == Color::White {
        square
    } else {
        square ^ 56
    };
    let side = usize::from(color != us);
    (side * 6 + kind.index()) * 64 + seat
}

/// The inputs that are on in `pos`: one a man (at most one a square).
#[inline]
pub fn inputs(pos: &Position) -> Inputs {
    let us = pos.side_to_move();
    let mut on = Inputs::new();
    for color in Color::ALL {
        for kind in PieceKind::ALL {
            for sq in pos.pieces(color, kind) {
                // A square holds one man, so 64 inputs cannot overflow.
                let _ = on.try_push(input(us, color, kind, sq.index()) as u16);
            }
        }
    }
    on
}

/// The inputs of one position.
pub type Inputs = ArrayVec<u16, 64>;

/// The hidden units' activation: clipped to [0, 1].
#[inline]
pub fn activation(x: f32) -> f32 {
    x.clamp(0.0, 1.0)
}

impl Net {
    /// A network that adds nothing (all weights 0).
    pub fn zero() -> Net {
        Net {
            hidden_weights: vec![0.0; INPUTS * HIDDEN],
            hidden_bias: [0.0; HIDDEN],
            output_weights: [0.0; HIDDEN],
            output_bias: 0.0,
        }
    }

    /// The hidden units' sums for the inputs `on`.
    #[inline]
    pub fn hidden(&self, on: &[u16]) -> [f32; HIDDEN] {
        let mut sums = self.hidden_bias;
        for &i in on {
            let i = usize::from(i);
            let row = &self.hidden_weights[i * HIDDEN..(i + 1) * HIDDEN];
            for (s, w) in sums.iter_mut().zip(row) {
                *s += w;
            }
        }
        sums
    }

    /// The output for the hidden sums `sums`, in the output's units
    /// (centipawns over [`OUTPUT_SCALE`]).
    #[inline]
    pub fn output(&self, sums: &[f32; HIDDEN]) -> f32 {
        let dot: f32 = sums
            .iter()
            .zip(&self.output_weights)
            .map(|(&s, w)| activation(s) * w)
            .sum();
        self.output_bias + dot
    }

    /// The correction for `pos`, for its side to move, in centipawns.
    pub fn eval(&self, pos: &Position) -> Score {
        let sums = self.hidden(&inputs(pos));
        (self.output(&sums) * OUTPUT_SCALE).round() as Score
    }

    /// The weights as the file holds them: the first line, then the hidden
    /// weights input by input, the hidden biases, the output weights and
    /// the output bias, one line each group.
    pub fn to_text(&self) -> String {
        let line = |values: &[f32]| {
            let words: Vec<String> = values.iter().map(|v| format!("{v}")).collect();
            words.join(" ") + "\n"
        };
        let mut text = format!("{MAGIC}\n");
        for row in self.hidden_weights.chunks(HIDDEN) {
            text += &line(row);
        }
        text += &line(&self.hidden_bias);
        text += &line(&self.output_weights);
        text += &line(&[self.output_bias]);
        text
    }

    /// Reads what [`Net::to_text`] writes.
    pub fn parse(text: &str) -> Result<Net, NetError> {
        let mut lines = text.lines();
        if lines.next().map(str::trim) != Some(MAGIC) {
            return Err(NetError::NotANet);
        }
        let numbers: Vec<f32> = lines
            .flat_map(str::split_whitespace)
            .map(|w| match w.parse::<f32>() {
                Ok(v) if v.is_finite() => Ok(v),
                _ => Err(NetError::BadNumber(w.chars().take(40).collect())),
            })
            .collect::<Result<_, _>>()?;
        let expected = INPUTS * HIDDEN + 2 * HIDDEN + 1;
        if numbers.len() != expected {
            return Err(NetError::Count {
                expected,
                found: numbers.len(),
            });
        }
        let (hidden, rest) = numbers.split_at(INPUTS * HIDDEN);
        let mut net = Net::zero();
        net.hidden_weights.copy_from_slice(hidden);
        net.hidden_bias.copy_from_slice(&rest[..HIDDEN]);
        net.output_weights
            .copy_from_slice(&rest[HIDDEN..2 * HIDDEN]);
        net.output_bias = rest[2 * HIDDEN];
        Ok(net)
    }
}

/// The built-in weights of the 2002 rules: 32 units fitted to 693,000
/// quiet positions labelled by 20,000-node searches of ours, from
/// self-play games and from our games against Fairy-Stockfish (docs/strength-log.md,
/// 2026-11-30, 6b636c7). The 1994 rules have none: nothing was
/// fitted or measured there.
const BUILT_IN_2002: &str = include_str!("antichess2002.net");

/// The network in force and the rule sets it serves.
struct InForce {
    net: Option<QuantNet>,
    /// Whether the 1994 rules use it too (a file named by `ANTICHESS_NET`
    /// serves both, as it did before there was a built-in one).
    also_1994: bool,
}

/// The network in force for `rules`, in the form the search evaluates:
/// the built-in one for the 2002 rules; or the file `ANTICHESS_NET`
/// names, read once, for both antichess rule sets; or none when it says
/// `none`. A file that cannot be read or parsed is logged and the
/// built-in network stays in force.
pub fn net(rules: Rules) -> Option<&'static QuantNet> {
    static IN_FORCE: Lazy<InForce> = Lazy::new(in_force);
    let in_force = &*IN_FORCE;
    match rules {
        Rules::Antichess => in_force.net.as_ref(),
        Rules::Antichess1994 if in_force.also_1994 => in_force.net.as_ref(),
        _ => None,
    }
}

/// What `ANTICHESS_NET` asks for.
fn in_force() -> InForce {
    let built_in = || InForce {
        net: built_in_2002().map(|net| QuantNet::new(&net)),
        also_1994: false,
    };
    let Some(path) = std::env::var_os("ANTICHESS_NET") else {
        return built_in();
    };
    if path == "none" {
        log::info!("ANTICHESS_NET=none: no network");
        return InForce {
            net: None,
            also_1994: false,
        };
    }
    let read = std::fs::read_to_string(&path)
        .map_err(|e| e.to_string())
        .and_then(|text| Net::parse(&text).map_err(|e| e.to_string()));
    match read {
        Ok(net) => {
            log::info!("antichess network read from {}", path.to_string_lossy());
            InForce {
                net: Some(QuantNet::new(&net)),
                also_1994: true,
            }
        }
        Err(why) => {
            log::error!(
                "ANTICHESS_NET ignored: {}: {why}; the built-in network stays in force",
                path.to_string_lossy()
            );
            built_in()
        }
    }
}

/// The built-in weights of the 2002 rules, parsed (a unit test holds
/// that they parse; were they ever not to, the evaluation goes without).
pub fn built_in_2002() -> Option<Net> {
    Net::parse(BUILT_IN_2002)
        .map_err(|why| log::error!("the built-in network is unreadable: {why}"))
        .ok()
}

/// A hidden unit's sum of 1 in the quantised network (its clip's top).
const QA: i32 = 1024;
/// An output weight of 1 in the quantised network.
const QB: i32 = 512;

/// The network in integers, as the search evaluates it at every node:
/// sums of 16-bit weights go eight to a vector instruction. It costs an
/// antichess search about 8% of its speed (a zero network against none,
/// the same tree; docs/strength-log.md, 2026-11-30, 7f6a74b).
/// [`Net::eval`] is its reference; they differ by a centipawn or two.
#[derive(Clone, Debug)]
pub struct QuantNet {
    /// An input's weights together, in 1/[`QA`]ths.
    hidden_weights: Vec<[i16; HIDDEN]>,
    hidden_bias: [i16; HIDDEN],
    /// In 1/[`QB`]ths.
    output_weights: [i16; HIDDEN],
    /// In 1/([`QA`]·[`QB`])ths.
    output_bias: i64,
}

/// `x` in 1/`scale`ths, rounded, within what 16 bits hold.
fn quantise(x: f32, scale: i32) -> i16 {
    (x * scale as f32)
        .round()
        .clamp(f32::from(i16::MIN), f32::from(i16::MAX)) as i16
}

impl QuantNet {
    /// The integer form of `net`.
    pub fn new(net: &Net) -> QuantNet {
        let row = |values: &[f32], scale: i32| -> [i16; HIDDEN] {
            std::array::from_fn(|j| quantise(values[j], scale))
        };
        QuantNet {
            hidden_weights: net
                .hidden_weights
                .chunks(HIDDEN)
                .map(|w| row(w, QA))
                .collect(),
            hidden_bias: row(&net.hidden_bias, QA),
            output_weights: row(&net.output_weights, QB),
            output_bias: (f64::from(net.output_bias) * f64::from(QA * QB)).round() as i64,
        }
    }

    /// The correction for `pos`, for its side to move, in centipawns.
    #[inline]
    pub fn eval(&self, pos: &Position) -> Score {
        let us = pos.side_to_move();
        let mut sums = self.hidden_bias;
        for color in Color::ALL {
            for kind in PieceKind::ALL {
                for sq in pos.pieces(color, kind) {
                    // Every input the board can name has its row.
                    let Some(row) = self.hidden_weights.get(input(us, color, kind, sq.index()))
                    else {
                        continue;
                    };
                    for (s, &w) in sums.iter_mut().zip(row) {
                        *s = s.saturating_add(w);
                    }
                }
            }
        }
        let dot: i32 = sums
            .iter()
            .zip(&self.output_weights)
            .map(|(&s, &w)| i32::from(s).clamp(0, QA) * i32::from(w))
            .sum();
        let centipawns = (i64::from(dot) + self.output_bias) * OUTPUT_SCALE as i64;
        let unit = i64::from(QA * QB);
        // Rounded to the nearest, as the reference rounds.
        (centipawns + unit / 2).div_euclid(unit) as Score
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::Rules;

    #[test]
    fn both_sides_see_the_start_alike() {
        let start = Position::startpos(Rules::Antichess);
        let black = Position::from_fen(
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b - - 0 1",
            Rules::Antichess,
        )
        .unwrap();
        let collect = |pos: &Position| {
            let mut v: Vec<usize> = inputs(pos).iter().map(|&i| usize::from(i)).collect();
            v.sort_unstable();
            v
        };
        // The start is symmetric but for the queen and king files, which
        // turning the board (not mirroring it) keeps.
        assert_eq!(collect(&start), collect(&black));
        assert_eq!(collect(&start).len(), 32);
        // White's pawn on e2 from White's seat; Black's on e7 from Black's.
        let e2 = input(Color::White, Color::White, PieceKind::Pawn, 12);
        assert_eq!(e2, input(Color::Black, Color::Black, PieceKind::Pawn, 52));
        assert!(collect(&start).iter().all(|&i| i < INPUTS));
    }

    #[test]
    fn weights_survive_the_file_and_bad_files_are_refused() {
        let mut net = Net::zero();
        net.hidden_weights[5] = 0.25;
        net.hidden_bias[3] = -1.5;
        net.output_weights[0] = 2.0;
        net.output_bias = 0.125;
        assert_eq!(Net::parse(&net.to_text()), Ok(net.clone()));
        assert_eq!(Net::parse("hello\n1 2"), Err(NetError::NotANet));
        let short = format!("{MAGIC}\n1 2 3\n");
        assert!(matches!(Net::parse(&short), Err(NetError::Count { .. })));
        let bad = net.to_text().replace("0.125", "x");
        assert_eq!(Net::parse(&bad), Err(NetError::BadNumber("x".into())));
        let nan = net.to_text().replace("0.125", "NaN");
        assert!(Net::parse(&nan).is_err());
    }

    /// The integer network agrees with the floating-point one within two
    /// centipawns, on random weights and positions of random games.
    #[test]
    fn the_quantised_network_is_the_network() {
        let mut rng = crate::rng::Xoshiro::new(11);
        let mut uniform = |scale: f32| (rng.below(20_001) as f32 / 10_000.0 - 1.0) * scale;
        let mut net = Net::zero();
        net.hidden_weights
            .iter_mut()
            .for_each(|w| *w = uniform(0.2));
        net.hidden_bias
            .iter_mut()
            .for_each(|b| *b = uniform(0.5) + 0.3);
        net.output_weights
            .iter_mut()
            .for_each(|w| *w = uniform(3.0));
        net.output_bias = uniform(1.0);
        let quant = QuantNet::new(&net);
        let worst = random_positions(5, 40, 60)
            .iter()
            .map(|pos| (quant.eval(pos) - net.eval(pos)).abs())
            .max();
        assert!(worst <= Some(2), "{worst:?} centipawns apart");
    }

    /// The positions of `games` random antichess games of up to `plies`
    /// plies each, seeded.
    fn random_positions(seed: u64, games: usize, plies: usize) -> Vec<Position> {
        let mut rng = crate::rng::Xoshiro::new(seed);
        let mut out = Vec::new();
        for _ in 0..games {
            let mut pos = Position::startpos(Rules::Antichess);
            for _ in 0..plies {
                let mut moves = crate::search::MoveList::new();
                pos.legal_moves(&mut moves);
                let Some(mv) = rng.pick(&moves) else { break };
                pos = pos.play(mv);
                out.push(pos);
            }
        }
        out
    }

    /// The weights compiled in parse, correct something, and lose nothing
    /// to 16-bit integers: along random games the search's form agrees
    /// with the reference. A truncated or mangled file, or weights too
    /// large for the quantisation, fail here.
    #[test]
    fn the_built_in_weights_parse_and_quantise() {
        let net = built_in_2002().expect("the built-in network parses");
        let quant = QuantNet::new(&net);
        let (mut worst, mut any) = (0, false);
        for pos in random_positions(9, 20, 40) {
            any |= quant.eval(&pos) != 0;
            worst = worst.max((quant.eval(&pos) - net.eval(&pos)).abs());
        }
        assert!(any, "the built-in network corrects nothing");
        // Rounding moves a correction by a few centipawns; a weight
        // clipped to 16 bits would move it by pawns.
        assert!(worst <= 5, "{worst} centipawns apart");
    }

    #[test]
    fn the_output_follows_the_weights() {
        let pos = Position::startpos(Rules::Antichess);
        let mut net = Net::zero();
        assert_eq!(net.eval(&pos), 0);
        // One hidden unit on for White's pawn on e2 (the side to move's).
        let e2 = input(Color::White, Color::White, PieceKind::Pawn, 12);
        net.hidden_weights[e2 * HIDDEN] = 0.5;
        net.output_weights[0] = 1.0;
        assert_eq!(net.eval(&pos), 50);
        // Past 1 the unit is clipped.
        net.hidden_weights[e2 * HIDDEN] = 3.0;
        assert_eq!(net.eval(&pos), 100);
    }
}
