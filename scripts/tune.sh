#!/usr/bin/env bash
# The antichess evaluation's tuning loop (a benchmark, not a test):
#   1. games: level 0 against a recent Fairy-Stockfish and against itself,
#      kept as PGN (or bring your own: PGN="a.pgn b.pgn");
#   2. fit: `antichess tune` fits the weights to the games' results (Texel
#      tuning) and prints them in the form ANTICHESS_EVAL reads;
#   3. check: a self-play match of the fitted weights against the weights
#      in force. Only a won match is a reason to copy them into
#      src/chess/antichess_weights.rs.
#
#   scripts/tune.sh                          all three steps, defaults
#   PGN="target/soak/antichess-*.pgn" scripts/tune.sh   fit and check only
#
# Settings (environment, defaults in brackets): RULES [antichess];
# GAMES [400] per opponent at TIME [1] s per side for step 1; FIXED [none]:
# weights the fit keeps (comma-separated names, e.g. tempo,legal_moves);
# EPOCHS [3000]; CHECK_GAMES [200] at CHECK_TIME [2] s for step 3;
# FSF [the recent build of scripts/lib.sh]; OUT [target/tune].
set -euo pipefail
cd "$(dirname "$0")/.."
rules=${RULES:-antichess}
games=${GAMES:-400}
time=${TIME:-1}
fixed=${FIXED:-}
epochs=${EPOCHS:-3000}
check_games=${CHECK_GAMES:-200}
check_time=${CHECK_TIME:-2}
# say, die, the Fairy-Stockfish locations
. scripts/lib.sh
fsf=${FSF:-$RECENT_FSF}
out=${OUT:-target/tune}
variants=$(fsf_variants)

cargo build --release --quiet
bin=$(realpath target/release/antichess)
mkdir -p "$out"
common=(--rules "$rules" --random-plies 4 --max-plies 400 --repetitions 3)

if [ -z "${PGN:-}" ]; then
    [ -x "$fsf" ] || die "no Fairy-Stockfish at $fsf ($SHARED_TOOLS/build-fairy-stockfish.sh, or set FSF or PGN)"
    echo "tune: $games games against Fairy-Stockfish, $games in self-play, $time s" >&2
    "$bin" match --engine1 level:0 --engine2 "uci:$fsf;VariantPath=$variants" "${common[@]}" \
        --games "$games" --time "$time" --seed 31 --pgn "$out/fsf.pgn" >"$out/fsf.txt" 2>/dev/null
    "$bin" match --engine1 level:0 --engine2 level:0 "${common[@]}" \
        --games "$games" --time "$time" --seed 32 --pgn "$out/self.pgn" >"$out/self.txt" 2>/dev/null
    PGN="$out/fsf.pgn $out/self.pgn"
fi

# shellcheck disable=SC2086 # PGN is a list of files (and globs)
spec=$("$bin" tune --rules "$rules" --epochs "$epochs" ${fixed:+--fixed "$fixed"} $PGN)
echo "tune: fitted ANTICHESS_EVAL=$spec" >&2
echo "$spec" >"$out/fitted.txt"

echo "tune: checking, $check_games games at $check_time s: fitted against the weights in force" >&2
"$bin" match --engine1 "proto:env ANTICHESS_EVAL=$spec $bin" --engine2 "proto:$bin" "${common[@]}" \
    --games "$check_games" --time "$check_time" --seed 33 >"$out/check.txt" 2>/dev/null
grep -E '^(Score of|Elo difference)' "$out/check.txt"
