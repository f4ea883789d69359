//! The search's tunable parameters: pruning margins and move counts, in one
//! table, so that tuning (by hand or by SPSA in self-play) changes numbers
//! here and nowhere else.
//!
//! For tuning runs only, the environment variable `ANTICHESS_SEARCH` can
//! override them by name (`rfp_depth=0,lmp_base=5`), read once at start-up:
//! two engines in a match can then differ by one parameter without a
//! rebuild. Unset, [`DEFAULT`] is used as it is.

use super::game::Score;
use once_cell::sync::Lazy;

/// Pruning and reduction parameters of the tree search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SearchParams {
    /// Reverse futility pruning (a non-PV node whose static evaluation
    /// beats beta by a margin is cut) up to this remaining depth; 0: off.
    pub rfp_depth: i32,
    /// The margin per ply of remaining depth.
    pub rfp_margin: Score,
    /// Late-move pruning (quiet moves past a count are skipped at non-PV
    /// nodes) up to this remaining depth; 0: off.
    pub lmp_depth: i32,
    /// Quiet moves searched before pruning starts: `lmp_base + depth²`.
    pub lmp_base: i32,
    /// Late-move reductions are `lmr_base + ln(depth)·ln(index) / lmr_div`,
    /// both in hundredths.
    pub lmr_base: i32,
    pub lmr_div: i32,
    /// Late quiet moves are reduced one ply less per this much history
    /// (and one more per this much bad history); 0: history left out.
    pub lmr_history: i32,
    /// Late tactical moves where every move is tactical are reduced by
    /// this share (in percent) of a late quiet move's reduction; 0: not.
    pub lmr_forced: i32,
    /// Late moves of a node on a principal variation, now or when the
    /// table last saw it, are reduced this many plies less.
    pub lmr_tt_pv: i32,
    /// Late-move reductions start at this move of the node's order.
    pub lmr_index: i32,
    /// Extra plies off a late quiet move at an expected cut node (a
    /// null-window node whose parent expects it to fail high).
    pub lmr_cut: i32,
    /// Futility pruning of late quiet moves: at a non-PV node whose
    /// reduced depth for the move is below `fp_depth`, a quiet move is
    /// skipped when the static evaluation plus `fp_base + fp_margin` per
    /// ply of that depth cannot reach alpha; 0: off.
    pub fp_depth: i32,
    pub fp_base: Score,
    pub fp_margin: Score,
    /// History pruning (Stockfish's): at a non-PV node, a late quiet move
    /// whose reduced depth is below 4 is skipped when its history is below
    /// minus this much per ply of the node's depth (history's bound is
    /// 2¹⁴); 0: off.
    pub hist_prune: i32,
    /// Null-move pruning in antichess, where the side to move has no
    /// capture and at least this many men besides king and pawns; 0: off.
    pub null_antichess: i32,
    /// The null move's search is a ply shallower per this much of the
    /// static evaluation above beta, up to three (Stockfish's); 0: its
    /// reduction goes by depth alone.
    pub null_eval_div: Score,
    /// 1: quiet moves that compel the reply ([`Game::compels_reply`]) are
    /// spared late-move pruning and reductions, as checks are; 0: not.
    ///
    /// [`Game::compels_reply`]: super::Game::compels_reply
    pub spare_offers: i32,
    /// Internal iterative reduction: a node this deep or deeper with no
    /// transposition-table move is searched a ply shallower; 0: off.
    pub iir_depth: i32,
    /// A node with this many legal moves or fewer is searched a ply
    /// deeper: a single move costs the side to move nothing (0: only
    /// checks are extended). Two, to reach further into chains of
    /// compulsory captures, scored 18 points less in 210 games against
    /// Fairy-Stockfish, paired with one (docs/strength-log.md).
    pub extend_single: i32,
    /// A node in check is searched a ply deeper only with this much depth
    /// left or more (0: always). Fairy-Stockfish extends a check only
    /// from a node deeper than 6 plies; here 6 scored 5.0 points less in
    /// 200 antichess games against it, paired with 0
    /// (docs/strength-log.md, 2026-11-30, 2ca9902).
    pub check_ext_depth: i32,
    /// 1: where the table holds a score whose bound says the node is
    /// better (or worse) than its static evaluation, pruning and
    /// quiescence's stand-pat go by that score instead (Stockfish's);
    /// 0: by the static evaluation alone. In antichess against
    /// Fairy-Stockfish 1 scored 13.5 points less in 200 paired games
    /// (2026-11-27, 5132745) and 7.0 less in 400 (2026-11-30, 2ca9902).
    pub tt_refine: i32,
    /// Singular extensions: a node this deep or deeper whose table move
    /// alone holds the table's score less this margin per ply (the others
    /// searched at half depth) searches that move a ply deeper; 0: off.
    pub se_depth: i32,
    pub se_margin: Score,
    /// Negative extensions (Stockfish's): where a singular-extension
    /// search finds the table's move is not alone but the table's score
    /// beats beta anyway, that move is searched this many plies
    /// shallower: its alternatives hold too, so it matters less; 0: off.
    pub se_negative: i32,
    /// The improving flag: a node is improving when its static evaluation
    /// beats the one two plies up (the same side to move). Reverse
    /// futility's margin counts this many plies fewer at an improving node
    /// (0: off) ...
    pub rfp_improving: i32,
    /// ... late-move pruning keeps this share (percent) of its quiet moves
    /// at a node that is not improving (100: all) ...
    pub lmp_worsening: i32,
    /// ... and late quiet moves of a node that is not improving are
    /// reduced this many plies more, where the table reduces them at all.
    pub lmr_worsening: i32,
    /// Quiescence plies after which standing pat is allowed even where
    /// every move is tactical. Chains of compulsory captures branch; past
    /// 8 plies the evaluation's legal-move count judges them well enough,
    /// and the nodes saved buy depth: 8 against 16 scored +70 ± 50 Elo in
    /// 200 antichess self-play games at 2 s.
    pub q_forced_plies: i32,
    /// Quiescence plies in which a side with no capture also searches its
    /// quiet moves that compel the reply ([`Game::compels_reply`]): in
    /// antichess an offer forces a capture as a check forces an answer,
    /// so a sacrifice at the horizon is a tactic; 0: off.
    ///
    /// [`Game::compels_reply`]: super::Game::compels_reply
    pub q_offers: i32,
    /// Sudden death: the moves a search plans the clock for while 2 s or
    /// more is left (see `limits.rs`).
    pub time_horizon: i32,
    /// ... and while 0.2 s to 2 s is left (`limits.rs`, [`Horizons`]).
    ///
    /// [`Horizons`]: super::Horizons
    pub tm_short: i32,
    /// Where the root's last iteration spent at least this share (percent)
    /// of its nodes on the move it chose, the next iteration is started
    /// only within three quarters of the usual time (Stockfish's nodes
    /// effort: a choice that drew nearly all the work is seldom
    /// overturned); 0: off.
    pub tm_effort: i32,
    /// The time target, in percent, once the root's best move has held
    /// for five iterations in a row (100: no cut).
    pub tm_settled: i32,
    /// Half-width of an iteration's first window around the previous
    /// score, in evaluation units (doubled on each failure).
    pub aspiration: Score,
    /// Tactical moves are ordered by their own history as well as by the
    /// game's victim/attacker key, the history counting this many 256ths
    /// (its bound is 2¹⁴; the key's steps are 8 a pawn of victim); 0: the
    /// key alone, and no capture history kept.
    pub capture_history: i32,
    /// Pawn history: quiet moves are ordered by their history in
    /// positions with the same pawns as well as by their history at large,
    /// the former counting this many percent; 0: not kept. (Stockfish's
    /// `pawnHistory`: which quiet move refutes depends on the structure.)
    pub pawn_history: i32,
    /// Correction history (`correction.rs`): the static evaluation is
    /// moved by the average error the search has found in positions with
    /// the same pawns, weighed in percent; 0: not kept.
    pub corr_pawns: i32,
    /// ... and with the same material.
    pub corr_material: i32,
    /// ... and reached by the same move, and by the same two moves.
    pub corr_moves: i32,
    /// What correction history keeps from one game to the next: 0
    /// nothing, 1 the averages by material, 2 by material and by pawns.
    /// Material recurs across games where pawns seldom do, and a new
    /// game's first moves, where antichess games turn, have nothing
    /// learnt yet.
    pub corr_keep: i32,
    /// How fast the averages move towards what a result teaches, in
    /// percent of `correction.rs`'s `depth + 1` 256ths.
    pub corr_rate: i32,
    /// The static evaluation fades towards a draw past 20 reversible
    /// plies in a row, by half over this many more (`score.rs`, `faded`):
    /// games without a fifty-move rule, antichess's, can otherwise stall
    /// for hundreds of plies with one side far ahead; 0: off.
    pub fade_plies: i32,
    /// ProbCut: at a non-PV node this deep or deeper (0: off), up to
    /// `pc_moves` tactical moves are searched 4 plies shallower against
    /// beta plus `pc_margin`; one that holds it cuts the node.
    pub pc_depth: i32,
    pub pc_margin: Score,
    pub pc_moves: i32,
}

/// The parameters measured best so far for chess, the base the other
/// games start from (docs/strength.md).
pub const DEFAULT: SearchParams = SearchParams {
    rfp_depth: 3,
    rfp_margin: 200,
    lmp_depth: 3,
    lmp_base: 4,
    lmr_base: 50,
    lmr_div: 225,
    lmr_history: 0,
    lmr_forced: 0,
    lmr_tt_pv: 0,
    lmr_index: 3,
    lmr_cut: 0,
    fp_depth: 0,
    fp_base: 200,
    fp_margin: 150,
    hist_prune: 0,
    null_antichess: 2,
    null_eval_div: 0,
    spare_offers: 1,
    iir_depth: 4,
    extend_single: 1,
    check_ext_depth: 0,
    tt_refine: 0,
    se_depth: 0,
    se_margin: 2,
    se_negative: 0,
    rfp_improving: 0,
    lmp_worsening: 100,
    lmr_worsening: 0,
    q_forced_plies: 8,
    q_offers: 0,
    time_horizon: 22,
    tm_short: 80,
    tm_effort: 0,
    tm_settled: 70,
    aspiration: 25,
    capture_history: 0,
    pawn_history: 0,
    corr_pawns: 0,
    corr_material: 0,
    corr_moves: 0,
    corr_keep: 0,
    corr_rate: 100,
    fade_plies: 0,
    pc_depth: 0,
    pc_margin: 200,
    pc_moves: 3,
};

/// Antichess (both rule sets): where it differs from [`DEFAULT`], it was
/// measured against Fairy-Stockfish at antichess, 10 s sudden death.
pub const ANTICHESS: SearchParams = SearchParams {
    // Antichess games are decided early (our score turns, median, by our
    // seventh move), so the clock is spent faster than chess's 22-move
    // plan: 15 scored more on every set of openings tried (600 games
    // paired with the 22-move plan; docs/strength-log.md).
    time_horizon: 15,
    // Most antichess nodes offer nothing but compulsory captures, where
    // the victim/attacker key says little: their own history ordered
    // them better in 600 games paired with a control in the same hours
    // against Fairy-Stockfish (docs/strength-log.md, 2026-11-27,
    // e714217). Chess keeps the key alone, unmeasured there.
    capture_history: 8,
    // A node the table remembers on a principal variation is likely one
    // again: its late moves reduced a ply less gained 22.5 points in 500
    // games paired with the search before against Fairy-Stockfish (three
    // sets of openings up, one down; docs/strength-log.md,
    // 2026-11-27, 358d732). Chess keeps the reductions as they were,
    // unmeasured there.
    lmr_tt_pv: 1,
    // The evaluation's errors are learnt as the game goes, by pawns and
    // by material (Stockfish's correction histories): +40.5 points in 600
    // games paired with the search before against Fairy-Stockfish, up on
    // all three sets of openings (docs/strength-log.md, 2026-11-27,
    // 02470e3). Chess keeps its evaluation as it is, unmeasured there.
    corr_pawns: 100,
    corr_material: 100,
    corr_moves: 0,
    // Correction history starts each game empty (`corr_keep` 0, as in
    // DEFAULT). Kept from game to game (`corr_keep=2`) it read -5.5
    // points in 400 games paired in the same hours with it off, both in
    // one engine process per match (`--keep-engines`): nothing to trade
    // replayable games for (docs/strength-log.md,
    // 2026-11-28, cf35c8b, which also says why the +22.5 of 649193e measured nothing).
    ..DEFAULT
};

// The reduction table is built once per searcher from the chess table
// (`selectivity.rs`), so antichess cannot have reductions of its own.
const _: () =
    assert!(ANTICHESS.lmr_base == DEFAULT.lmr_base && ANTICHESS.lmr_div == DEFAULT.lmr_div);

impl SearchParams {
    /// Whether any decision goes by the improving flag, so that the
    /// static evaluation is wanted at every node.
    pub fn uses_improving(&self) -> bool {
        self.rfp_improving != 0 || self.lmp_worsening != 100 || self.lmr_worsening != 0
    }

    /// The clock plan (`limits.rs`).
    pub fn horizons(&self) -> super::Horizons {
        // Both are checked to be 1 to 200.
        super::Horizons {
            full: self.time_horizon.clamp(1, 200) as u32,
            short: self.tm_short.clamp(1, 200) as u32,
        }
    }
}

/// The parameters in force for chess: `DEFAULT`, or the tuning override.
pub fn params() -> &'static SearchParams {
    static TUNED: Lazy<SearchParams> = Lazy::new(|| tuned(DEFAULT));
    &TUNED
}

/// The parameters in force for antichess: `ANTICHESS`, or the tuning
/// override (the same `ANTICHESS_SEARCH` applies to both tables).
pub fn antichess_params() -> &'static SearchParams {
    static TUNED: Lazy<SearchParams> = Lazy::new(|| tuned(ANTICHESS));
    &TUNED
}

/// `table` with the overrides of `ANTICHESS_SEARCH`, if it is set and
/// valid.
fn tuned(table: SearchParams) -> SearchParams {
    let mut params = table;
    if let Ok(spec) = std::env::var("ANTICHESS_SEARCH") {
        // A refused spec leaves `params` the table.
        match apply(&mut params, &spec) {
            Ok(()) => log::info!("search parameters overridden: {params:?}"),
            Err(why) => log::error!("ANTICHESS_SEARCH ignored: {why}"),
        }
    }
    params
}

/// The `(name, value)` pairs of a tuning override, `name=value,...` with
/// whole-number values (the form `ANTICHESS_SEARCH` and `ANTICHESS_EVAL`
/// share).
pub fn overrides(spec: &str) -> Result<Vec<(&str, i32)>, String> {
    spec.split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(|item| {
            let (name, value) = item
                .split_once('=')
                .ok_or_else(|| format!("'{item}' is not NAME=VALUE"))?;
            let value = value
                .trim()
                .parse()
                .map_err(|_| format!("'{value}' is not a whole number"))?;
            Ok((name.trim(), value))
        })
        .collect()
}

/// Applies `name=value,...` overrides to `params`; on an error `params`
/// is left as it was.
pub fn apply(params: &mut SearchParams, spec: &str) -> Result<(), String> {
    let mut changed = *params;
    check(&mut changed, spec)?;
    *params = changed;
    Ok(())
}

/// [`apply`] on a scratch copy, which an error leaves half changed.
fn check(params: &mut SearchParams, spec: &str) -> Result<(), String> {
    for (name, value) in overrides(spec)? {
        let slot = match name {
            "rfp_depth" => &mut params.rfp_depth,
            "rfp_margin" => &mut params.rfp_margin,
            "lmp_depth" => &mut params.lmp_depth,
            "lmp_base" => &mut params.lmp_base,
            "lmr_base" => &mut params.lmr_base,
            "lmr_div" => &mut params.lmr_div,
            "lmr_history" => &mut params.lmr_history,
            "lmr_forced" => &mut params.lmr_forced,
            "lmr_index" => &mut params.lmr_index,
            "lmr_tt_pv" => &mut params.lmr_tt_pv,
            "lmr_cut" => &mut params.lmr_cut,
            "fp_depth" => &mut params.fp_depth,
            "fp_base" => &mut params.fp_base,
            "fp_margin" => &mut params.fp_margin,
            "hist_prune" => &mut params.hist_prune,
            "null_antichess" => &mut params.null_antichess,
            "null_eval_div" => &mut params.null_eval_div,
            "spare_offers" => &mut params.spare_offers,
            "iir_depth" => &mut params.iir_depth,
            "extend_single" => &mut params.extend_single,
            "check_ext_depth" => &mut params.check_ext_depth,
            "tt_refine" => &mut params.tt_refine,
            "se_depth" => &mut params.se_depth,
            "se_margin" => &mut params.se_margin,
            "se_negative" => &mut params.se_negative,
            "rfp_improving" => &mut params.rfp_improving,
            "lmp_worsening" => &mut params.lmp_worsening,
            "lmr_worsening" => &mut params.lmr_worsening,
            "q_forced_plies" => &mut params.q_forced_plies,
            "q_offers" => &mut params.q_offers,
            "time_horizon" => &mut params.time_horizon,
            "tm_short" => &mut params.tm_short,
            "tm_effort" => &mut params.tm_effort,
            "tm_settled" => &mut params.tm_settled,
            "aspiration" => &mut params.aspiration,
            "capture_history" => &mut params.capture_history,
            "pawn_history" => &mut params.pawn_history,
            "corr_pawns" => &mut params.corr_pawns,
            "corr_material" => &mut params.corr_material,
            "corr_moves" => &mut params.corr_moves,
            "corr_keep" => &mut params.corr_keep,
            "corr_rate" => &mut params.corr_rate,
            "fade_plies" => &mut params.fade_plies,
            "pc_depth" => &mut params.pc_depth,
            "pc_margin" => &mut params.pc_margin,
            "pc_moves" => &mut params.pc_moves,
            other => return Err(format!("unknown search parameter '{other}'")),
        };
        *slot = value;
    }
    if !(0..=2).contains(&params.corr_keep) {
        return Err("corr_keep must be 0 to 2".into());
    }
    if !(1..=1600).contains(&params.corr_rate) {
        return Err("corr_rate must be 1 to 1600".into());
    }
    if !(0..=64).contains(&params.check_ext_depth) {
        return Err("check_ext_depth must be 0 to 64".into());
    }
    if !(0..=1).contains(&params.tt_refine) {
        return Err("tt_refine must be 0 or 1".into());
    }
    if params.lmr_div <= 0 {
        return Err("lmr_div must be positive".into());
    }
    if !(1..=200).contains(&params.time_horizon) {
        return Err("time_horizon must be 1 to 200".into());
    }
    if !(1..=200).contains(&params.tm_short) {
        return Err("tm_short must be 1 to 200".into());
    }
    if params.aspiration <= 0 {
        return Err("aspiration must be positive".into());
    }
    if !(0..=64).contains(&params.q_forced_plies) {
        return Err("q_forced_plies must be 0 to 64".into());
    }
    if !(0..=8).contains(&params.q_offers) {
        return Err("q_offers must be 0 to 8".into());
    }
    if !(0..=100).contains(&params.lmp_worsening) {
        return Err("lmp_worsening must be 0 to 100".into());
    }
    if params.pc_depth != 0 && (params.pc_depth < 5 || params.pc_margin <= 0 || params.pc_moves < 1)
    {
        return Err("ProbCut wants pc_depth 5 or more, a positive pc_margin and pc_moves".into());
    }
    if params.null_eval_div < 0 {
        return Err("null_eval_div must not be negative".into());
    }
    if params.lmr_history < 0 {
        return Err("lmr_history must not be negative".into());
    }
    if !(0..=10_000).contains(&params.fade_plies) {
        return Err("fade_plies must be 0 to 10000".into());
    }
    if !(0..=4096).contains(&params.capture_history) {
        return Err("capture_history must be 0 to 4096".into());
    }
    if !(0..=400).contains(&params.pawn_history) {
        return Err("pawn_history must be 0 to 400".into());
    }
    if !params.corrections().iter().all(|w| (0..=400).contains(w)) {
        return Err("the corr_ weights must be 0 to 400".into());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn overrides_by_name_and_refuses_junk() {
        let mut params = DEFAULT;
        apply(&mut params, "rfp_depth=3, lmp_base=7").unwrap();
        assert_eq!((params.rfp_depth, params.lmp_base), (3, 7));
        assert_eq!(params.rfp_margin, DEFAULT.rfp_margin);
        // Each refused alone, from the table, which it leaves as it was.
        for junk in [
            "rfp_depth",
            "nonsense=1",
            "lmr_div=x",
            "lmr_div=0",
            "q_forced_plies=65",
            "time_horizon=0",
            "tm_short=201",
            "check_ext_depth=65",
            "tt_refine=2",
            "capture_history=-1",
            "pawn_history=401",
            "q_offers=9",
            "corr_material=-5",
            "pc_depth=3",
            "pc_depth=5,pc_moves=0",
            "null_eval_div=-1",
            "rfp_depth=1,lmr_div=0",
        ] {
            let mut params = DEFAULT;
            assert!(apply(&mut params, junk).is_err(), "{junk}");
            assert_eq!(params, DEFAULT, "{junk}");
        }
        let mut params = ANTICHESS;
        apply(
            &mut params,
            "lmr_cut=2,fp_depth=6,q_forced_plies=2,q_offers=1",
        )
        .unwrap();
        assert_eq!((params.lmr_cut, params.fp_depth), (2, 6));
        assert_eq!(
            (params.q_offers, params.lmr_tt_pv),
            (1, ANTICHESS.lmr_tt_pv)
        );
        assert_eq!(params.q_forced_plies, 2);
    }
}
