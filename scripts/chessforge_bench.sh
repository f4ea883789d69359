#!/usr/bin/env bash
# Reproduces the ChessForge benchmark table in docs/chessforge.md: every policy on
# the same seeds (1..GAMES), the solver at BUDGET playouts per decision.
# Usage: scripts/chessforge_bench.sh [GAMES] [BUDGET] [THREADS]
set -euo pipefail
games="${1:-1000}"
budget="${2:-1000}"
threads="${3:-1}"
cd "$(dirname "$0")/.."
cargo build --release --quiet --bin chessforge
./target/release/chessforge solve --games "$games" --seed 1 \
    --policy random,greedy,heuristic,solver --budget "$budget" --threads "$threads"
