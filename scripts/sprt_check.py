#!/usr/bin/env python3
"""Checks `antichess sprt` against scripts/sprt.py, an independent Python
implementation of the same pentanomial GSPRT: for a fixed set of counts
and bounds, both must give the same LLR to 1e-6 (and, where no cell is
empty, the same Elo, nElo and LOS to 1e-6).

First, sprt.py itself is checked against LLRs published with fastchess's
tests (two decimals), so that the reference is not only compared with
itself. When the binary has no `sprt` subcommand yet, the engine part is
skipped with a message and the script exits 0.

    scripts/sprt_check.py --binary target/release/antichess
"""

import argparse
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import sprt  # noqa: E402

# (LL, LD, D, WD, WW), elo0, elo1, model, LLR to two decimals: the
# non-degenerate pentanomial and trinomial cases of fastchess's SPRT tests
# (its pentanomial D cell is WL + DD).
PUBLISHED = [
    ((365, 16618, 36029 + 200, 16974, 390), 0.0, 2.0, "normalized", 2.25),
    ((127, 4883, 10311 + 401, 5150, 104), -1.75, 0.25, "normalized", 3.01),
    ((223, 9863, 20279 + 1000, 10037, 246), 0.5, 2.5, "logistic", -3.07),
    ((871, 26175, 55003 + 980, 26678, 821), 0.0, 2.0, "logistic", -4.98),
    ((36027, 68692, 36433), 0.0, 2.0, "normalized", 0.92),
    ((10650, 20431, 10871), -1.75, 0.25, "normalized", 2.30),
    ((21184, 40708, 21404), 0.5, 2.5, "logistic", -1.57),
    ((57030, 106593, 57433), 0.0, 2.0, "logistic", -2.59),
]

# Counts the engine is compared on: small and large, lopsided, with empty
# cells, both models, and other alpha and beta.
CASES = [
    ((10, 90, 200, 95, 15), 0.0, 5.0, 0.05, 0.05),
    ((10, 90, 200, 95, 15), 0.0, 2.0, 0.05, 0.05),
    ((1, 3, 10, 4, 2), 0.0, 10.0, 0.05, 0.05),
    ((0, 5, 20, 8, 1), -5.0, 5.0, 0.05, 0.05),
    ((3, 0, 12, 0, 9), 0.0, 20.0, 0.1, 0.1),
    ((0, 0, 7, 0, 0), 0.0, 5.0, 0.05, 0.05),
    ((40, 120, 300, 160, 60), 10.0, 30.0, 0.05, 0.1),
    ((39, 2226, 31451, 2412, 40), 0.764, 3.439, 0.05, 0.05),
    ((10789, 19328, 33806, 19402, 10543), -3.0, 1.0, 0.05, 0.05),
    ((365, 16618, 36229, 16974, 390), 0.0, 2.0, 0.05, 0.05),
    ((12, 30, 41, 25, 9), -10.0, 0.0, 0.02, 0.2),
]

TOLERANCE = 1e-6


def check_published():
    failures = 0
    for counts, elo0, elo1, model, want in PUBLISHED:
        got = sprt.llr(list(counts), elo0, elo1, model)
        if abs(got - want) > 0.005 + 1e-9:
            print(f"sprt.py: {counts} {model} [{elo0}, {elo1}]: LLR {got:.4f}, published {want}")
            failures += 1
    print(f"sprt.py against published LLRs: {len(PUBLISHED) - failures} of {len(PUBLISHED)} agree to 0.01")
    return failures


def engine_line(binary, counts, elo0, elo1, alpha, beta, model):
    args = [
        binary, "sprt", "--penta", ",".join(map(str, counts)),
        "--elo0", str(elo0), "--elo1", str(elo1),
        "--alpha", str(alpha), "--beta", str(beta), "--model", model,
    ]
    run = subprocess.run(args, capture_output=True, text=True, timeout=60)
    if run.returncode != 0:
        raise RuntimeError(f"{' '.join(args)} failed ({run.returncode}): {run.stderr.strip()}")
    lines = [line for line in run.stdout.splitlines() if line.strip()]
    if not lines:
        raise RuntimeError(f"{' '.join(args)} printed nothing")
    fields = {}
    for part in lines[-1].split():
        key, sep, value = part.partition("=")
        if sep:
            fields[key] = value
    if "llr" not in fields:
        raise RuntimeError(f"no llr= in {lines[-1]!r}")
    return fields


def has_sprt(binary):
    run = subprocess.run([binary, "sprt", "--help"], capture_output=True, text=True, timeout=60)
    return run.returncode == 0


def check_engine(binary):
    failures = compared = 0
    for counts, elo0, elo1, alpha, beta in CASES:
        for model in sprt.MODELS:
            ours = sprt.test(list(counts), elo0, elo1, alpha, beta, model)
            try:
                theirs = engine_line(binary, counts, elo0, elo1, alpha, beta, model)
            except (RuntimeError, subprocess.TimeoutExpired) as e:
                print(f"engine: {e}")
                failures += 1
                continue
            keys = ["llr", "lower", "upper"]
            if 0 not in counts:
                keys += ["elo", "nelo", "los"]
            for key in keys:
                compared += 1
                try:
                    value = float(theirs[key])
                except (KeyError, ValueError):
                    print(f"engine: {counts} {model}: no number for {key} in its line")
                    failures += 1
                    continue
                if abs(value - ours[key]) > TOLERANCE:
                    print(
                        f"engine: {counts} {model} [{elo0}, {elo1}] {key}: "
                        f"antichess {value} against sprt.py {ours[key]:.9f}"
                    )
                    failures += 1
    print(f"antichess sprt against sprt.py: {compared - failures} of {compared} values agree to {TOLERANCE}")
    return failures


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--binary", default="target/release/antichess")
    args = parser.parse_args()
    failures = check_published()
    if not os.path.exists(args.binary):
        print(f"sprt_check: {args.binary} does not exist; build it first", file=sys.stderr)
        return 1
    if has_sprt(args.binary):
        failures += check_engine(args.binary)
    else:
        print(f"sprt_check: SKIPPED the engine comparison: {args.binary} has no `sprt` subcommand yet")
    if failures:
        print(f"sprt_check: {failures} disagreements")
        return 1
    print("sprt_check: passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
