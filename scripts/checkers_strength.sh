#!/usr/bin/env bash
# Strength ladder of the checkers machine player: every pair of levels plays
# GAMES games (colours alternating, seeds 1..GAMES) through the `checkers`
# binary's hidden --level2 option; prints a Markdown table of the first
# level's points (win 1, draw 1/2) out of GAMES. Level 0 is timed: it thinks
# MOVE_MS milliseconds a move (default 100), as do the others at most.
#
#   scripts/checkers_strength.sh [GAMES] [LEVELS...]   # default: 10  2 4 6 8 0
set -euo pipefail
cd "$(dirname "$0")/.."
games=${1:-10}
shift || true
levels=("${@:-}")
[ -z "${levels[0]}" ] && levels=(2 4 6 8 0)
move_ms=${MOVE_MS:-100}
bin=target/release/checkers
[ -x "$bin" ] || cargo build --release --bin checkers >&2

# The score line of one game: levels $1 (Black) and $2, seed $3.
game() {
    local out
    out=$("$bin" --player1=auto --level="$1" --level2="$2" --seed="$3" --move-time="$move_ms") || exit 1
    tail -1 <<<"$out"
}

# Half-points of level $1 against level $2 over $games games.
half_points() {
    local a=$1 b=$2 half=0 seed score
    for seed in $(seq 1 "$games"); do
        if (( seed % 2 )); then
            score=$(game "$a" "$b" "$seed")
            case $score in 1-0) half=$((half + 2));; 1/2-1/2) half=$((half + 1));; esac
        else
            score=$(game "$b" "$a" "$seed")
            case $score in 0-1) half=$((half + 2));; 1/2-1/2) half=$((half + 1));; esac
        fi
    done
    echo "$half"
}

show() { if (( $1 % 2 )); then echo "$(($1 / 2)).5"; else echo "$(($1 / 2))"; fi; }

# Each pair plays once; the row of the other level is the complement.
declare -A half
for i in "${!levels[@]}"; do
    for j in "${!levels[@]}"; do
        if (( i < j )); then
            h=$(half_points "${levels[i]}" "${levels[j]}")
            half[$i,$j]=$h
            half[$j,$i]=$((2 * games - h))
        fi
    done
done

printf '| level |'; for b in "${levels[@]}"; do printf ' vs %s |' "$b"; done; echo
printf '|---|'; for _ in "${levels[@]}"; do printf -- '---|'; done; echo
for i in "${!levels[@]}"; do
    printf '| %s |' "${levels[i]}"
    for j in "${!levels[@]}"; do
        if (( i == j )); then printf ' – |'; else printf ' %s |' "$(show "${half[$i,$j]}")"; fi
    done
    echo
done
