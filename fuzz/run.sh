#!/usr/bin/env bash
# Runs every fuzz target (or those named) in turn for SECONDS each (60 by
# default), one job at a time, starting from the text seeds in seeds/.
# New inputs go to corpus/<target>, crashes to artifacts/<target>.
# Needs a nightly toolchain and cargo-fuzz (cargo install cargo-fuzz).
set -euo pipefail
cd "$(dirname "$0")"
seconds=${SECONDS_PER_TARGET:-60}
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
    mapfile -t targets < <(cargo +nightly fuzz list)
fi
for target in "${targets[@]}"; do
    mkdir -p "corpus/$target"
    seeds=()
    [ -d "seeds/$target" ] && seeds=("seeds/$target")
    echo "== $target (${seconds}s)"
    cargo +nightly fuzz run "$target" "corpus/$target" "${seeds[@]}" -- \
        -max_total_time="$seconds" -print_final_stats=1
done
