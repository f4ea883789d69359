#!/usr/bin/env bash
# The project's test command: the Rust test suite in release mode, then
# the cross-checks against independent implementations (pyffish for the
# chess-family rules, python-chess as a UCI client). Needs the pip packages in scripts/requirements.txt.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo test --release
cargo build --release
python3 scripts/oracle_check.py --positions "${ORACLE_POSITIONS:-10000}"
python3 scripts/checkers_oracle.py
python3 scripts/uci_smoke.py --binary target/release/antichess
