#!/usr/bin/env bash
# Strength benchmarks (not tests): our engine against Fairy-Stockfish and
# Stockfish, and the level ladder against itself, all refereed by
# `antichess match` with sudden-death clocks and both colours per opening.
#
#   scripts/strength.sh fsf        [GAMES] [SECONDS]   antichess (2002 rules) vs $FSF
#   scripts/strength.sh fsf1994    [GAMES] [SECONDS]   antichess1994 vs $FSF
#   scripts/strength.sh fsf-debian [GAMES] [SECONDS]   antichess1994 vs Debian's 11.1
#   scripts/strength.sh sf         [GAMES] [SECONDS]   chess vs stockfish (UCI_Elo limited)
#   scripts/strength.sh ladder     [GAMES] [SECONDS]   each level against the next
#
# FSF is the Fairy-Stockfish to play: by default the recent build of
# scripts/lib.sh (made by the shared tools/build-fairy-stockfish.sh; never
# committed here) when present, else Debian's 11.1, which plays only the
# 1994 rules exactly (it cannot switch off en passant) and is much weaker:
# keep it as the second yardstick (fsf-debian). Installs Debian's stockfish
# / fairy-stockfish when missing (as root or with sudo). SEED (default
# 2026) seeds the random openings; CONCURRENCY (default 1) plays games in
# parallel; use 1 for the fairest clocks. PGN=FILE keeps the games. The
# summary reports wins on time apart, and the score with wins on time in
# games over 300 plies counted as draws. Level 0 reads the antichess
# endgame tables in TABLES (default target/tables, generated there first
# when missing, a few minutes; TABLES= plays without them).
set -euo pipefail
cd "$(dirname "$0")/.."
# say, die, need_deb, the Fairy-Stockfish locations
. scripts/lib.sh
what=${1:-fsf}
games=${2:-200}
secs=${3:-10}
conc=${CONCURRENCY:-1}
seed=${SEED:-2026}
cargo build --release --quiet
bin=target/release/antichess
need() { need_deb "$1" "/usr/games/$1"; }
pgn=()
[ -n "${PGN:-}" ] && pgn=(--pgn "$PGN")
match() { "$bin" match --games "$games" --time "$secs" --concurrency "$conc" "${pgn[@]}" "$@" 2>/dev/null; }
debian_fsf=$DEBIAN_FSF
fsf=$(fsf_path)
variants=$(fsf_variants)
tables=${TABLES-target/tables}
# tables_for RULES: makes sure the endgame tables of RULES are in $tables.
tables_for() {
    [ -n "$tables" ] || return 0
    [ -f "$tables/$1-KPvKP.egtb" ] || "$bin" tables "$tables" --rules "$1" >/dev/null
    export ANTICHESS_TABLES=$tables
}
uci_fsf() { echo "uci:$1;VariantPath=$variants"; }

case $what in
fsf | fsf1994)
    # The referee sets UCI_Variant from --rules: antichess6170 (2002) or
    # antichess1994, both defined in the variants file.
    rules=antichess
    [ "$what" = fsf1994 ] && rules=antichess1994
    tables_for "$rules"
    [ "$fsf" = "$debian_fsf" ] && need fairy-stockfish
    [ "$fsf" = "$debian_fsf" ] && [ "$rules" = antichess ] &&
        echo "warning: Debian's fairy-stockfish 11.1 plays the 2002 rules with en passant" >&2
    echo "== level 0 vs $fsf, $rules, $games games, $secs s"
    match --rules "$rules" --random-plies 4 --seed "$seed" --engine1 level:0 \
        --engine2 "$(uci_fsf "$fsf")"
    ;;
fsf-debian)
    # Debian's fairy-stockfish 11.1 cannot switch off en passant, so it
    # plays the 6.170 rules exactly only without double steps: antichess1994.
    need fairy-stockfish
    tables_for antichess1994
    match --rules antichess1994 --random-plies 4 --seed "$seed" --engine1 level:0 \
        --engine2 "$(uci_fsf "$debian_fsf")"
    ;;
sf)
    need stockfish
    match --rules chess --random-plies 4 --seed "$seed" --engine1 level:0 \
        --engine2 "uci:/usr/games/stockfish;UCI_LimitStrength=true;UCI_Elo=${SF_ELO:-1500}"
    ;;
ladder)
    case ${RULES:-antichess} in antichess*) tables_for "${RULES:-antichess}" ;; esac
    for pair in "1 2" "2 3" "3 4" "4 5" "5 6" "6 7" "7 8" "8 0"; do
        set -- $pair
        echo "== level $2 vs level $1"
        match --rules "${RULES:-antichess}" --random-plies 4 --seed 7 --max-plies 400 \
            --engine1 "level:$2" --engine2 "level:$1" | grep -E "^Score|^Elo"
    done
    ;;
*)
    echo "usage: $0 fsf|fsf1994|fsf-debian|sf|ladder [GAMES] [SECONDS]" >&2
    exit 2
    ;;
esac
