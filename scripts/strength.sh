#!/usr/bin/env bash
# Strength benchmarks (not tests): our engine against Fairy-Stockfish and
# Stockfish, and the level ladder against itself, all refereed by
# `antichess match` with sudden-death clocks and both colours per opening.
#
#   scripts/strength.sh fsf      [GAMES] [SECONDS]   antichess1994 vs fairy-stockfish
#   scripts/strength.sh sf       [GAMES] [SECONDS]   chess vs stockfish (UCI_Elo limited)
#   scripts/strength.sh ladder   [GAMES] [SECONDS]   each level against the next
#
# Installs Debian's stockfish / fairy-stockfish when missing. CONCURRENCY
# (default 1) plays games in parallel; use 1 for the fairest clocks.
set -euo pipefail
cd "$(dirname "$0")/.."
what=${1:-fsf}
games=${2:-200}
secs=${3:-10}
conc=${CONCURRENCY:-1}
cargo build --release --quiet
bin=target/release/antichess
need() { [ -x "/usr/games/$1" ] || apt-get install -y "$1" >/dev/null; }
match() { "$bin" match --games "$games" --time "$secs" --concurrency "$conc" "$@" 2>/dev/null; }

case $what in
fsf)
    # Debian's fairy-stockfish 11.1 cannot switch off en passant, so it
    # plays the 6.170 rules exactly only without double steps: antichess1994.
    need fairy-stockfish
    match --rules antichess1994 --random-plies 4 --seed 2026 --engine1 level:0 \
        --engine2 "uci:/usr/games/fairy-stockfish;VariantPath=$PWD/scripts/antichess_variants.ini"
    ;;
sf)
    need stockfish
    match --rules chess --random-plies 4 --seed 2026 --engine1 level:0 \
        --engine2 "uci:/usr/games/stockfish;UCI_LimitStrength=true;UCI_Elo=${SF_ELO:-1500}"
    ;;
ladder)
    for pair in "1 2" "2 3" "3 4" "4 5" "5 6" "6 7" "7 8" "8 0"; do
        set -- $pair
        echo "== level $2 vs level $1"
        match --rules "${RULES:-antichess}" --random-plies 4 --seed 7 --max-plies 400 \
            --engine1 "level:$2" --engine2 "level:$1" | grep -E "^Score|^Elo"
    done
    ;;
*)
    echo "usage: $0 fsf|sf|ladder [GAMES] [SECONDS]" >&2
    exit 2
    ;;
esac
