# Shared by the shell scripts here (sourced: `. scripts/lib.sh` from the
# repository's root): messages, Debian packages installed with the sudo
# handling CI needs, and where the strength anchor, Fairy-Stockfish, lives.

say() { echo "$(basename "$0"): $*" >&2; }
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

# Fairy-Stockfish, the strength anchor (never committed here): a recent
# build made by the shared build script, and Debian's 11.1, which plays only
# the 1994 rules exactly (it cannot switch off en passant).
SHARED_TOOLS=${SHARED_TOOLS:-../shared/tools}
RECENT_FSF=/tmp/fairy-stockfish/stockfish
DEBIAN_FSF=/usr/games/fairy-stockfish

# fsf_path: $FSF when set, else the recent build when present, else Debian's.
fsf_path() {
    if [ -n "${FSF:-}" ]; then
        echo "$FSF"
    elif [ -x "$RECENT_FSF" ]; then
        echo "$RECENT_FSF"
    else
        echo "$DEBIAN_FSF"
    fi
}

# need_recent_fsf PATH: makes sure the recent build is at PATH, building it
# with the shared build script when that exists; stops otherwise.
need_recent_fsf() {
    local fsf=$1
    [ -x "$fsf" ] && return 0
    [ -x "$SHARED_TOOLS/build-fairy-stockfish.sh" ] ||
        die "no Fairy-Stockfish at $fsf; build it ($SHARED_TOOLS/build-fairy-stockfish.sh) or set FSF"
    say "building Fairy-Stockfish into $fsf"
    "$SHARED_TOOLS/build-fairy-stockfish.sh" "$fsf" >/dev/null
}

# The variants file that defines our rules for it (antichess6170 and
# antichess1994), as an absolute path: $FSF_VARIANTS, else ours.
fsf_variants() {
    realpath "${FSF_VARIANTS:-scripts/antichess_variants.ini}"
}
