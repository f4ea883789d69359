#!/bin/bash
# Whether two matches at a time slow either engine: each engine's nodes per
# second alone, and beside a search of either engine on the other core (the
# load two concurrent matches put on a 2-core machine), in rounds.
#
#   scripts/research/contention.sh [ROUNDS]
#
# OURS (default target/release/antichess) and FSF (default the recent
# build of scripts/lib.sh) name the engines.
# Each measurement is a 3 s search after 1.e3 b5 2.Bxb5 c6 3.Bxc6 Nxc6 at
# antichess (the 2002 rules), the load a 4.5 s search started just before.
set -euo pipefail
cd "$(dirname "$0")/../.."
. scripts/lib.sh
ROUNDS=${1:-3}
OURS=${OURS:-target/release/antichess}
FSF=${FSF:-$RECENT_FSF}
VARIANTS=$(fsf_variants)
MOVES="e2e3 b7b5 f1b5 c7c6 b5c6 b8c6"

# search ENGINE MILLISECONDS: the nodes per second of its last report.
search() {
    local bin=$OURS setup="setoption name UCI_Variant value antichess"
    if [ "$1" = fsf ]; then
        bin=$FSF
        setup="setoption name VariantPath value $VARIANTS
setoption name UCI_Variant value antichess6170"
    fi
    { printf 'uci\n%s\nisready\nposition startpos moves %s\ngo movetime %s\n' \
        "$setup" "$MOVES" "$2"
      sleep $(( $2 / 1000 + 1 ))
      echo quit; } | "$bin" 2>/dev/null | grep '^info depth' | tail -n 1 \
        | grep -o 'nps [0-9]*' | cut -d' ' -f2
}

# beside LOAD ENGINE: ENGINE's speed while LOAD searches on the other core.
beside() {
    search "$1" 4500 > /dev/null &
    sleep 0.3
    search "$2" 3000
    wait
}

for round in $(seq "$ROUNDS"); do
    echo "round $round"
    for engine in ours fsf; do
        echo "  $engine alone:       $(search $engine 3000)"
        echo "  $engine beside ours: $(beside ours $engine)"
        echo "  $engine beside fsf:  $(beside fsf $engine)"
    done
done
