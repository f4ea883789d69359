#!/usr/bin/env bash
# Builds every fuzz target with libFuzzer's coverage instrumentation on the
# toolchain at hand (stable will do: the flags cargo-fuzz passes are stable
# codegen options, and no sanitizer is asked for) and runs each for a few
# seconds from its text seeds: a check that every target builds and that
# the seeds and their first mutations find nothing. CI runs it
# (scripts/test.sh); fuzz/run.sh is the long run, with cargo-fuzz.
#
#   fuzz/smoke.sh                      every target, SECONDS_PER_TARGET (3) each
#   SECONDS_PER_TARGET=0 fuzz/smoke.sh   build only
#
# The build goes to target/fuzz; new inputs to target/fuzz/corpus/<target>
# (never into fuzz/seeds), a crash to target/fuzz/artifacts/<target>.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${SECONDS_PER_TARGET:-3}
host=$(rustc -vV | sed -n 's/^host: //p')
out=target/fuzz
# As cargo-fuzz: coverage counters, comparisons traced, `cfg(fuzzing)`,
# and debug assertions and overflow checks on in an optimised build.
export RUSTFLAGS="-Cpasses=sancov-module -Cllvm-args=-sanitizer-coverage-level=4 \
-Cllvm-args=-sanitizer-coverage-inline-8bit-counters -Cllvm-args=-sanitizer-coverage-pc-table \
-Cllvm-args=-sanitizer-coverage-trace-compares --cfg fuzzing -Cdebug-assertions -Coverflow-checks"
# Line tables are enough for a crash's backtrace, and link much faster.
export CARGO_PROFILE_DEV_DEBUG=line-tables-only
# --target keeps RUSTFLAGS off the build scripts.
cargo build --quiet --manifest-path fuzz/Cargo.toml --target-dir "$out" --target "$host" --bins
[ "$seconds" -gt 0 ] || exit 0
targets=$(sed -n 's/^name = "\(.*\)"$/\1/p' fuzz/Cargo.toml | grep -v '^antichess-fuzz$')
for target in $targets; do
    mkdir -p "$out/corpus/$target" "$out/artifacts/$target"
    seeds=()
    [ -d "fuzz/seeds/$target" ] && seeds=("fuzz/seeds/$target")
    echo "fuzz: $target (${seconds}s)" >&2
    if ! "$out/$host/debug/$target" "$out/corpus/$target" "${seeds[@]}" \
        -max_total_time="$seconds" -artifact_prefix="$out/artifacts/$target/" \
        >"$out/$target.log" 2>&1; then
        tail -30 "$out/$target.log" >&2
        echo "fuzz: $target failed (all its output: $out/$target.log; the input: $out/artifacts/$target/)" >&2
        exit 1
    fi
done
