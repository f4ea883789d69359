#!/usr/bin/env bash
# Perft speed next to Stockfish's, measured in the same run.
# Prints leaves/second for our standard-chess and antichess perft 6 from
# the start position and Stockfish's `go perft 6`, best of $RUNS runs each.
# A benchmark, not a test: run it on an otherwise idle machine.
set -euo pipefail
cd "$(dirname "$0")/.."
# say, die, need_deb
. scripts/lib.sh
RUNS=${RUNS:-3}
SF=$(command -v stockfish || echo /usr/games/stockfish)
if [ ! -x "$SF" ]; then
    need_deb stockfish /usr/games/stockfish
    SF=/usr/games/stockfish
fi
cargo build --release --quiet
BIN=target/release/antichess

best() { sort -g | tail -1; }
now() { date +%s.%N; }

ours() { # rules -> best leaves/s
    for _ in $(seq "$RUNS"); do
        "$BIN" perft 6 --rules "$1" | awk '{print $3}'
    done | best
}

# Stockfish's perft prints no time, so time the process and take off the
# start-up cost (network loading, hash allocation): the time of `go perft 1`.
stockfish_rate() {
    for _ in $(seq "$RUNS"); do
        s0=$(now); printf 'isready\ngo perft 1\nquit\n' | "$SF" >/dev/null; s1=$(now)
        nodes=$(printf 'isready\ngo perft 6\nquit\n' | "$SF" | awk '/Nodes searched/ {print $3}')
        s2=$(now)
        echo "$nodes $s0 $s1 $s2" | awk '{printf "%.0f\n", $1 / (($4 - $3) - ($3 - $2))}'
    done | best
}

chess=$(ours chess)
anti=$(ours antichess)
sf=$(stockfish_rate)
echo "stockfish perft 6 (chess):   $sf leaves/s (start-up subtracted)"
echo "our perft 6 (chess):         $chess leaves/s   ratio $(echo "$chess $sf" | awk '{printf "%.2f", $1/$2}')"
echo "our perft 6 (antichess):     $anti leaves/s"
