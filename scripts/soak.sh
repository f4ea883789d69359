#!/usr/bin/env bash
# Long-run check (not part of scripts/test.sh): our engine at level 0 plays
# many refereed games on short clocks, against Fairy-Stockfish and against
# itself in each rule set, with `antichess match --keep-engines` (one engine
# process per player for as long as it commits no fault). Then it reports
# our engine's faults by kind (illegal move, malformed answer, crash, hang,
# flag) and the resident memory of one engine process over a long session.
# Exit status 1 if our engine committed any fault.
#
#   scripts/soak.sh                                         the full soak
#   GAMES=120 FAST_GAMES=120 SESSION_GAMES=20 scripts/soak.sh  a quick check
#
# Settings (environment, defaults in brackets):
#   GAMES [1000] at TIME [1] s per side, sudden death, shared out over the
#     six pairings (Fairy-Stockfish and self-play; antichess, antichess1994,
#     chess), rounded up to an even number per pairing;
#   FAST_GAMES [200] at FAST_TIME [0.2] s, shared out the same way;
#   SESSION_GAMES [500] at SESSION_TIME [1] s against Fairy-Stockfish with
#     SESSION_RULES [antichess]: one engine process throughout, its VmRSS
#     sampled from /proc every SAMPLE [1] s;
#   FSF [the recent build of scripts/lib.sh, built with
#     ../shared/tools/build-fairy-stockfish.sh when missing and that script
#     exists], FSF_VARIANTS [scripts/antichess_variants.ini]; chess is played against Debian's
#     /usr/games/stockfish when installed, else Fairy-Stockfish;
#   MAX_PLIES [400] and REPETITIONS [3]: draw adjudication (antichess has
#     no fifty-move or repetition rule, and self-play must end);
#   CONCURRENCY [1] games at once; SEED [2026]; OUT [target/soak]: each
#     match's summary (.txt), progress (.log) and games (.pgn).
set -euo pipefail
cd "$(dirname "$0")/.."

games=${GAMES:-1000}
time=${TIME:-1}
fast_games=${FAST_GAMES:-200}
fast_time=${FAST_TIME:-0.2}
session_games=${SESSION_GAMES:-500}
session_time=${SESSION_TIME:-1}
session_rules=${SESSION_RULES:-antichess}
sample=${SAMPLE:-1}
max_plies=${MAX_PLIES:-400}
repetitions=${REPETITIONS:-3}
concurrency=${CONCURRENCY:-1}
seed=${SEED:-2026}
out=${OUT:-target/soak}
# say, die, the Fairy-Stockfish locations
. scripts/lib.sh
fsf=${FSF:-$RECENT_FSF}
variants=$(fsf_variants)
need_recent_fsf "$fsf"
fsf_spec="uci:$fsf;VariantPath=$variants"
chess_spec=$fsf_spec
[ -x /usr/games/stockfish ] && chess_spec="uci:/usr/games/stockfish"

cargo build --release --quiet
bin=target/release/antichess
engine=$(realpath "$bin")
mkdir -p "$out"
rm -f "$out"/*.txt "$out"/*.log "$out"/*.pgn "$out"/*.rss

ours="antichess level 0"
kinds="illegal malformed crash hang flag"
declare -A total=([games]=0 [illegal]=0 [malformed]=0 [crash]=0 [hang]=0 [flag]=0)
rows=()

# per_pairing TOTAL: games for each of the six pairings, rounded up to
# an even number (0 skips them).
per_pairing() {
    echo $(((($1 + 5) / 6 + 1) / 2 * 2))
}

# our_faults SUMMARY: our engine's faults (both rows in self-play), in the
# order of the faults table: illegal malformed crash hang flag.
our_faults() {
    awk -v ours="$ours" '
        /^Faults:/ { on = 1; next }
        on && index($0, "  " ours) == 1 {
            for (i = 0; i < 5; i++) sum[i] += $(NF - 4 + i)
        }
        END { print sum[0] + 0, sum[1] + 0, sum[2] + 0, sum[3] + 0, sum[4] + 0 }
    ' "$1"
}

# play NAME RULES OPPONENT GAMES SECONDS [EXTRA...]: one match, summed up.
play() {
    local name=$1 rules=$2 opponent=$3 n=$4 secs=$5
    shift 5
    [ "$n" -gt 0 ] || return 0
    say "$name: $n games, $rules, $secs s per side"
    seed=$((seed + 1))
    "$bin" match --engine1 level:0 --engine2 "$opponent" --rules "$rules" \
        --games "$n" --time "$secs" --random-plies 4 --seed "$seed" \
        --max-plies "$max_plies" --repetitions "$repetitions" \
        --concurrency "$concurrency" --keep-engines --pgn "$out/$name.pgn" "$@" \
        >"$out/$name.txt" 2>"$out/$name.log" || say "$name: the match failed (see $out/$name.log)"
    record "$name" "$n" "$secs"
}

# record NAME GAMES SECONDS: adds a match's row to the report.
record() {
    local name=$1 n=$2 secs=$3 faults score
    faults=$(our_faults "$out/$name.txt")
    score=$(grep -m1 '^Score of' "$out/$name.txt" | sed 's/^Score of //')
    rows+=("$(printf '%-32s %5s %5s  %-9s %-9s %-5s %-5s %-5s  %s' "$name" "$n" "$secs" $faults "$score")")
    total[games]=$((total[games] + n))
    local i=0 k
    read -ra counts <<<"$faults"
    for k in $kinds; do
        total[$k]=$((total[$k] + counts[i]))
        i=$((i + 1))
    done
}

# session: one engine process for SESSION_GAMES games, its memory sampled.
session() {
    local name="session-$session_rules-fsf" rss=$out/session.rss
    say "$name: $session_games games with one engine process, $session_time s per side"
    seed=$((seed + 1))
    "$bin" match --engine1 level:0 --engine2 "$fsf_spec" --rules "$session_rules" \
        --games "$session_games" --time "$session_time" --random-plies 4 --seed "$seed" \
        --max-plies "$max_plies" --repetitions "$repetitions" --keep-engines \
        --pgn "$out/$name.pgn" >"$out/$name.txt" 2>"$out/$name.log" &
    local match=$!
    while kill -0 "$match" 2>/dev/null; do
        local played pid
        played=$(grep -c '^game ' "$out/$name.log" || true)
        for pid in $(pgrep -P "$match" || true); do
            [ "$(readlink "/proc/$pid/exe" 2>/dev/null)" = "$engine" ] || continue
            awk -v g="$played" -v p="$pid" '/^VmRSS/ { r = $2 } /^VmHWM/ { h = $2 }
                END { if (r) print g, p, r, h }' "/proc/$pid/status" 2>/dev/null >>"$rss" || true
        done
        sleep "$sample"
    done
    wait "$match" || say "$name: the match failed (see $out/$name.log)"
    record "$name" "$session_games" "$session_time"
    if [ ! -s "$rss" ]; then
        memory="memory: no samples (the session ended too quickly)"
        return
    fi
    # The longest-lived process (one, unless a fault restarted it): its
    # first sample after a finished game and its last sample.
    memory=$(awk '
        !($2 in first) || ($1 >= 1 && first_games[$2] < 1) { first[$2] = $3; first_games[$2] = $1 }
        { last[$2] = $3; last_games[$2] = $1; peak[$2] = $4 }
        END {
            n = 0; best = ""
            for (p in last) {
                n++
                if (best == "" || last_games[p] - first_games[p] > last_games[best] - first_games[best]) best = p
            }
            printf "memory of our engine (VmRSS, kB): %s after game %s, %s after game %s (peak %s), one process; %d process%s in the session\n", \
                first[best], first_games[best], last[best], last_games[best], peak[best], n, (n == 1 ? "" : "es (restarted after a fault)")
        }' "$rss")
}

# The 1 s games, then the fast ones: per pace, each rule set against
# Fairy-Stockfish (Stockfish for chess when installed) and itself.
for pace in "$time $(per_pairing "$games")" "$fast_time $(per_pairing "$fast_games")"; do
    read -r secs per <<<"$pace"
    for rules in antichess antichess1994 chess; do
        opponent=$fsf_spec
        [ "$rules" = chess ] && opponent=$chess_spec
        play "$rules-fsf-${secs}s" "$rules" "$opponent" "$per" "$secs"
        play "$rules-self-${secs}s" "$rules" level:0 "$per" "$secs"
    done
done
memory="memory: no session"
[ "$session_games" -gt 0 ] && session

{
    echo "soak: faults of our engine (level 0; both sides in self-play) by kind"
    printf '%-32s %5s %5s  %-9s %-9s %-5s %-5s %-5s  %s\n' match games secs illegal malformed crash hang flag "score (W - L - D of the first named)"
    printf '%s\n' "${rows[@]}"
    printf '%-32s %5s %5s  %-9s %-9s %-5s %-5s %-5s\n' total "${total[games]}" "" \
        "${total[illegal]}" "${total[malformed]}" "${total[crash]}" "${total[hang]}" "${total[flag]}"
    echo "$memory"
    echo "opponents: $fsf_spec; chess: $chess_spec"
    echo "made by: GAMES=$games TIME=$time FAST_GAMES=$fast_games FAST_TIME=$fast_time SESSION_GAMES=$session_games SESSION_TIME=$session_time scripts/soak.sh"
} | tee "$out/summary.txt"

faults=$((total[illegal] + total[malformed] + total[crash] + total[hang] + total[flag]))
if [ "$faults" -gt 0 ]; then
    say "games lost to a fault (by either side; the first 20):"
    grep -h -E "(white|black): (illegal move|malformed answer|crash|hang)|lost on time" "$out"/*.log |
        head -20 >&2 || true
    exit 1
fi
