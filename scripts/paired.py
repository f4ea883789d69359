#!/usr/bin/env python3
"""Compares two matches played on the same openings, game by game.

    python3 scripts/paired.py BASELINE.pgn VARIANT.pgn [--player NAME]
    python3 scripts/paired.py BASE36.pgn,BASE37.pgn VAR36.pgn,VAR37.pgn
    python3 scripts/paired.py BASELINE.pgn VARIANT.pgn --long-flags-as-draws

Both files come from `antichess match --pgn` with the same `--seed`,
`--random-plies` and engines' seats, so that round N is the same opening
with the same colours in both. Several pairs of matches (on several sets
of openings) are given as comma-separated lists, in the same order, and
pooled. The openings decide much of each result;
pairing takes that part out, so the difference between two engines shows
with a narrower interval than two separate scores would give.

Prints each match's W-D-L for the player (by default the one whose name
does not contain "stockfish"), the points gained over the rounds both
played, and that difference as Elo with a 95% interval (normal
approximation over the per-opening differences: each opening's two games,
with both colours, form one sample). With `--long-flags-as-draws`, a game
won on time after more than 300 plies counts half a point, as the goal
of issue 12 counts it.

Two runs of one engine on the same openings on different days have read
22.5 points apart in 600 games (the thirtieth session's), so a note on
stderr says when a pair of matches was not played on the same dates:
a variant's control is best played beside it.
"""

import argparse
import math
import statistics
import sys

from match_pgn import elo, games, is_ours, long_flag, points


def rounds(paths, player, long_flags_as_draws=False):
    """(match, opening) -> {round: points of `player`}, for every game in
    the comma-separated `paths` (match being the file's place in them),
    and each match's set of `Date` tags."""
    out = {}
    days = []
    for match, path in enumerate(paths.split(",")):
        days.append(set())
        for tags, movetext in games([path]):
            days[match].add(tags.get("Date", "?"))
            got = points(tags, player)
            if got is not None and long_flags_as_draws and long_flag(tags, movetext):
                got = 0.5
            if got is not None and "Round" in tags:
                r = int(tags["Round"])
                # Rounds 2k-1 and 2k are one opening with both colours.
                out.setdefault((match, (r + 1) // 2), {})[r] = got
    return out, days


def summary(name, by_opening):
    got = [p for games_ in by_opening.values() for p in games_.values()]
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
    parser.add_argument(
        "--long-flags-as-draws",
        action="store_true",
        help="count a game won on time after more than 300 plies as a draw",
    )
    args = parser.parse_args()
    if args.player:
        player = lambda name: args.player in name  # noqa: E731
    else:
        player = is_ours
    flags = args.long_flags_as_draws
    (base, base_days), (var, var_days) = (
        rounds(args.baseline, player, flags),
        rounds(args.variant, player, flags),
    )
    for i, (b, v) in enumerate(zip(base_days, var_days)):
        if b != v:
            print(
                f"note: pair {i + 1} was played on {', '.join(sorted(b))} and "
                f"{', '.join(sorted(v))}: runs of other days differ by more than "
                "their interval says",
                file=sys.stderr,
            )
    summary("baseline", base)
    summary("variant ", var)
    # Openings whose two games both matches have finished.
    both = [k for k in sorted(base.keys() & var.keys()) if len(base[k]) == len(var[k]) == 2]
    diffs = [sum(var[k].values()) - sum(base[k].values()) for k in both]
    if len(diffs) < 2:
        sys.exit("fewer than two openings played in both")
    n = len(diffs)
    gained = sum(diffs)
    half = 1.96 * statistics.stdev(diffs) / math.sqrt(n)
    mean_base = sum(sum(base[k].values()) for k in both) / (2 * n)
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
