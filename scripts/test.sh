#!/usr/bin/env bash
# The project's test command, set-up included: on a fresh machine it first
# installs what the checks need (Debian packages with apt-get, only when
# missing and only as root or with sudo; the pinned Python packages of
# scripts/requirements*.txt into target/venv, rebuilt only when those files
# or the Python change), then runs the Rust suite in release mode and the
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

say() { echo "test.sh: $*" >&2; }
die() {
    say "$*"
    exit 1
}

# install_deb PACKAGE: installs a Debian package with apt-get, as root or
# through sudo; says why not and fails when it cannot.
install_deb() {
    local package=$1 sudo=()
    if [ "$(id -u)" -ne 0 ]; then
        if command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
            sudo=(sudo -n)
        else
            say "cannot install the Debian package $package: not root and no sudo (as root: apt-get install $package)"
            return 1
        fi
    fi
    if ! command -v apt-get >/dev/null 2>&1; then
        say "cannot install $package: there is no apt-get; use the system's package manager"
        return 1
    fi
    say "installing $package (apt-get)"
    local log=target/apt.log
    mkdir -p target
    if [ -z "${apt_updated:-}" ]; then
        "${sudo[@]}" apt-get update -qq >"$log" 2>&1 || say "apt-get update failed; trying the install anyway"
        apt_updated=1
    fi
    if ! DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq --no-install-recommends "$package" >>"$log" 2>&1; then
        tail -5 "$log" >&2
        say "apt-get install $package failed (all its output is in $log)"
        return 1
    fi
}

# need_deb PACKAGE [COMMAND]: makes sure COMMAND (default PACKAGE) exists,
# installing the Debian PACKAGE when it does not; stops the tests when
# that cannot be done.
need_deb() {
    local package=$1 command=${2:-$1}
    command -v "$command" >/dev/null 2>&1 && return 0
    install_deb "$package" || die "$command is missing; install $package, then run this again"
    command -v "$command" >/dev/null 2>&1 || die "$package is installed but $command is still not found"
}

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

# step COMMAND...: runs one check, naming it.
step() {
    say "== $*"
    "$@"
}

command -v cargo >/dev/null 2>&1 || die "cargo is missing: install Rust (https://rustup.rs), then run this again"
need_deb tmux # tests/play_terminal.rs drives `antichess play` in a tmux terminal
need_deb fairy-stockfish /usr/games/fairy-stockfish # scripts/endgame_peer_check.py: the endgame tables against its search
need_deb chromium # scripts/web_test.py: Playwright drives Debian's Chromium (its own download cannot work offline)
python_env

step cargo test --release
step cargo build --release
step "$PY" scripts/oracle_check.py --positions "${ORACLE_POSITIONS:-10000}"
step "$PY" scripts/checkers_oracle.py
step "$PY" scripts/uci_smoke.py --binary target/release/antichess
step "$PY" scripts/endgame_peer_check.py --binary target/release/antichess
step "$PY" scripts/web_test.py --binary target/release/antichess
step "$PY" scripts/web_test_games.py
step "$PY" scripts/web_load.py --smoke --binary target/release/antichess
say "all checks passed"
