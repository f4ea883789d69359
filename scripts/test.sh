#!/usr/bin/env bash
# The project's test command, set-up included: on a fresh machine it first
# installs what the checks need (Debian packages with apt-get, only when
# missing and only as root or with sudo; the pinned Python packages of
# scripts/requirements*.txt into target/venv, rebuilt only when those files
# or the Python change), then checks the formatting, the lints, the API
# documentation and the fuzz targets, runs the Rust suite in release mode
# (the documentation's examples included) and the
# cross-checks against independent implementations (pyffish for the
# chess-family rules, clatsop for checkers, python-chess as a UCI client,
# Debian's Fairy-Stockfish for the endgame tables).
#
#   scripts/test.sh                      everything
#   ORACLE_POSITIONS=1000 scripts/test.sh   a shorter rules cross-check
#
# The steps are at the end, one line each.
set -euo pipefail
cd "$(dirname "$0")/.."

# say, die, install_deb, need_deb
. scripts/lib.sh

# python_env: sets PY to a Python with the pinned packages: target/venv,
# made again only when the requirements or the Python have changed (a
# hash of both is kept in the venv). Without a working venv module it
# falls back to the user's pip (pip install --user), saying so.
python_env() {
    local venv=target/venv requirements=(scripts/requirements*.txt)
    need_deb python3
    local want
    want=$( (cat "${requirements[@]}" && python3 -c 'import sys; print(sys.executable, sys.version)') | sha256sum | cut -d' ' -f1)
    if [ -x "$venv/bin/python" ] && [ "$(cat "$venv/.requirements.sha256" 2>/dev/null)" = "$want" ]; then
        PY=$venv/bin/python
        return
    fi
    rm -rf "$venv"
    local pip_args=(--quiet --disable-pip-version-check)
    local req
    for req in "${requirements[@]}"; do pip_args+=(-r "$req"); done
    # Debian's own python3 keeps venv's pip in a separate package.
    if python3 -m venv "$venv" >/dev/null 2>&1 ||
        { rm -rf "$venv" && install_deb python3-venv && python3 -m venv "$venv"; }; then
        say "installing the Python packages into $venv"
        "$venv/bin/python" -m pip install "${pip_args[@]}" ||
            die "pip could not install ${requirements[*]} into $venv (is PyPI reachable?)"
        echo "$want" >"$venv/.requirements.sha256"
        PY=$venv/bin/python
        return
    fi
    rm -rf "$venv"
    say "cannot make a virtual environment (python3 -m venv failed); installing into the user's site-packages instead"
    python3 -m pip --version >/dev/null 2>&1 || install_deb python3-pip || true
    python3 -m pip install --user "${pip_args[@]}" ||
        python3 -m pip install --user --break-system-packages "${pip_args[@]}" ||
        die "pip could not install ${requirements[*]}; install them by hand, then run this again"
    PY=python3
}

# step COMMAND...: runs one check, naming it, and says how long it took
# (CI has 45 minutes on 2 cores for all of them).
step() {
    say "== $*"
    local start=$SECONDS
    "$@"
    say "   $(($SECONDS - start)) s: $1${2:+ $2}"
}

command -v cargo >/dev/null 2>&1 || die "cargo is missing: install Rust (https://rustup.rs), then run this again"
{ cargo fmt --version && cargo clippy --version; } >/dev/null 2>&1 ||
    die "cargo fmt or cargo clippy is missing: rustup component add rustfmt clippy, then run this again"
need_deb g++ # fuzz/smoke.sh: libfuzzer-sys compiles libFuzzer
need_deb tmux # tests/play_terminal.rs drives `antichess play` in a tmux terminal
need_deb fairy-stockfish /usr/games/fairy-stockfish # scripts/endgame_peer_check.py: the endgame tables against its search
need_deb default-jdk-headless javac # scripts/java.sh: the Java MachinePlayer and its RefereeTest
need_deb chromium # scripts/web_test.py: Playwright drives Debian's Chromium (its own download cannot work offline)
python_env

step cargo fmt --check
step cargo clippy --all-targets --quiet -- -D warnings
step env RUSTDOCFLAGS=-Dwarnings cargo doc --no-deps --quiet
step fuzz/smoke.sh # every fuzz target built with coverage and run a few seconds from its seeds
step cargo test --release
step cargo build --release
step scripts/java.sh test target/release/antichess
step "$PY" scripts/oracle_check.py --positions "${ORACLE_POSITIONS:-10000}"
step "$PY" scripts/checkers_oracle.py
step "$PY" scripts/uci_smoke.py --binary target/release/antichess
step "$PY" scripts/endgame_peer_check.py --binary target/release/antichess
step "$PY" scripts/web_test.py --binary target/release/antichess
step "$PY" scripts/web_test_games.py
step "$PY" scripts/sprt_check.py --binary target/release/antichess
step "$PY" scripts/dask_shards_test.py --binary target/release/antichess
step "$PY" scripts/openbench_check.py --binary target/release/antichess
step "$PY" scripts/web_load.py --smoke --binary target/release/antichess
say "all checks passed"
