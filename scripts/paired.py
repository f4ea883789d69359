#!/usr/bin/env python3
"""Compares two matches played on the same openings, game by game.

    python3 scripts/paired.py BASELINE.pgn VARIANT.pgn [--player NAME]

Both files come from `antichess match --pgn` with the same `--seed`,
`--random-plies` and engines' seats, so that round N is the same opening
with the same colours in both. The openings decide much of each result;
pairing takes that part out, so the difference between two engines shows
with a narrower interval than two separate scores would give.

Prints each match's W-D-L for the player (by default the one whose name
does not contain "stockfish"), the points gained over the rounds both
played, and that difference as Elo with a 95% interval (normal
approximation over the per-opening differences: each opening's two games,
with both colours, form one sample).
"""

import argparse
import math
import statistics
import sys

from match_pgn import games, is_ours, points


def rounds(path, player):
    """Round number -> points of `player`, for every game in `path`."""
    out = {}
    for tags, _ in games([path]):
        got = points(tags, player)
        if got is not None and "Round" in tags:
            out[int(tags["Round"])] = got
    return out


def elo(score):
    score = min(max(score, 1e-6), 1 - 1e-6)
    return -400 * math.log10(1 / score - 1)


def summary(name, by_round):
    got = list(by_round.values())
    w = sum(p == 1.0 for p in got)
    d = sum(p == 0.5 for p in got)
    l_ = sum(p == 0.0 for p in got)
    share = sum(got) / len(got) if got else 0.0
    print(f"{name}: {w}-{d}-{l_} in {len(got)} games, {100 * share:.1f}%, Elo {elo(share):+.0f}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("baseline")
    parser.add_argument("variant")
    parser.add_argument("--player", help="a part of the player's name (default: not stockfish)")
    args = parser.parse_args()
    if args.player:
        player = lambda name: args.player in name  # noqa: E731
    else:
        player = is_ours
    base, var = rounds(args.baseline, player), rounds(args.variant, player)
    summary("baseline", base)
    summary("variant ", var)
    # Rounds 2k-1 and 2k are one opening with both colours.
    pairs = sorted({(r + 1) // 2 for r in base} & {(r + 1) // 2 for r in var})
    diffs = []
    for p in pairs:
        a, b = 2 * p - 1, 2 * p
        if all(r in base and r in var for r in (a, b)):
            diffs.append(var[a] + var[b] - base[a] - base[b])
    if len(diffs) < 2:
        sys.exit("fewer than two openings played in both")
    n = len(diffs)
    gained = sum(diffs)
    half = 1.96 * statistics.stdev(diffs) / math.sqrt(n)
    mean_base = sum(base[r] for p in pairs for r in (2 * p - 1, 2 * p) if r in base) / (2 * n)
    per_game = gained / (2 * n)
    e = elo(mean_base + per_game) - elo(mean_base)
    lo = elo(mean_base + per_game - half / 2) - elo(mean_base)
    hi = elo(mean_base + per_game + half / 2) - elo(mean_base)
    print(
        f"paired over {n} openings ({2 * n} games): {gained:+.1f} points, "
        f"Elo {e:+.0f} (95%: {lo:+.0f} to {hi:+.0f})"
    )


if __name__ == "__main__":
    main()
