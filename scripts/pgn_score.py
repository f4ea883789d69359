#!/usr/bin/env python3
"""Scores matches from their PGNs (`antichess match --pgn`): a run's
figures, or two matches on the same openings compared game by game.

    python3 scripts/pgn_score.py run A.pgn B.pgn ...
    python3 scripts/pgn_score.py paired BASELINE.pgn VARIANT.pgn [--player NAME] [--long-flags-as-draws]
    python3 scripts/pgn_score.py paired BASE1.pgn,BASE2.pgn VAR1.pgn,VAR2.pgn

`run` prints, for the player whose name does not contain "stockfish":
the games, the distinct openings they started from, W-D-L, the score and
its Elo, once as played and once with each win on time past 300 plies
counted as a draw ("long flags as draws"), and the games lost on time by
each side. Each Elo has two 95% intervals. The first treats the games as
independent, as the referee's report does. The second resamples the
openings (a seeded bootstrap over start positions, so the figure
repeats): a run's openings are a sample too, and a result measured on
few openings, each played many times, says less about the next opening
than its game count suggests.

`paired` takes two matches played with the same `--seed`,
`--random-plies` and seats, so that round N is the same opening with the
same colours in both; several pairs (several sets of openings) are
comma-separated lists in the same order, pooled. It prints each match's
W-D-L, the points the variant gained over the rounds both played, and
that difference as Elo with a 95% interval over openings (each opening's
two games, both colours, one sample): pairing takes out the part of the
result the opening decides. Runs of one engine on different days have
read 22.5 points apart in 600 games (649193e, 2026-11-28), so a note on
stderr says when a pair was not played on the same dates: a variant's
control is best played beside it.
"""

import argparse
import math
import random
import statistics
import sys
from collections import defaultdict

from match_pgn import ON_TIME, elo, games, is_ours, long_flag, points

BOOTSTRAP_ROUNDS = 4000


def games_interval(results):
    """95% interval of the mean, the games independent (normal)."""
    n = len(results)
    mean = sum(results) / n
    var = sum((r - mean) ** 2 for r in results) / n
    half = 1.96 * math.sqrt(var / n)
    return mean - half, mean + half


def openings_interval(by_opening, rng):
    """95% interval of the mean, the openings resampled with their games."""
    groups = list(by_opening.values())
    means = []
    for _ in range(BOOTSTRAP_ROUNDS):
        total = count = 0
        for _ in groups:
            group = rng.choice(groups)
            total += sum(group)
            count += len(group)
        means.append(total / count)
    means.sort()
    return means[int(0.025 * len(means))], means[int(0.975 * len(means)) - 1]


def line(name, by_opening):
    results = [r for group in by_opening.values() for r in group]
    n = len(results)
    wins, draws = results.count(1.0), results.count(0.5)
    mean = sum(results) / n
    lo, hi = games_interval(results)
    blo, bhi = openings_interval(by_opening, random.Random(12))
    return (
        f"{name}: {wins}-{draws}-{n - wins - draws}, {100 * mean:.1f}%, "
        f"{elo(mean):+.0f} (games: {elo(lo):+.0f} to {elo(hi):+.0f}; "
        f"openings resampled: {elo(blo):+.0f} to {elo(bhi):+.0f})"
    )


def run(paths):
    scores = defaultdict(list)
    second = defaultdict(list)
    lost_on_time = {"ours": 0, "theirs": 0}
    for tags, movetext in games(paths):
        points_ours = points(tags, is_ours)
        if points_ours is None:
            continue
        opening = tags.get("FEN", "start")
        scores[opening].append(points_ours)
        second[opening].append(0.5 if long_flag(tags, movetext) else points_ours)
        if ON_TIME in movetext and points_ours != 0.5:
            lost_on_time["theirs" if points_ours == 1.0 else "ours"] += 1
    n = sum(len(g) for g in scores.values())
    if n == 0:
        sys.exit("no finished games of ours in " + ", ".join(paths))
    print(f"{n} games from {len(scores)} openings")
    print(line("score", scores))
    print(line("long flags as draws", second))
    print(f"lost on time: ours {lost_on_time['ours']}, theirs {lost_on_time['theirs']}")


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


def paired(args):
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


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    r = sub.add_parser("run", help="a run's figures, pooled over its PGN files")
    r.add_argument("pgn", nargs="+", help="PGN files (or comma-separated lists)")
    pa = sub.add_parser("paired", help="two matches on the same openings, game by game")
    pa.add_argument("baseline")
    pa.add_argument("variant")
    pa.add_argument("--player", help="a part of the player's name (default: not stockfish)")
    pa.add_argument(
        "--long-flags-as-draws",
        action="store_true",
        help="count a game won on time after more than 300 plies as a draw",
    )
    args = parser.parse_args()
    if args.command == "run":
        run([p for arg in args.pgn for p in arg.split(",")])
    else:
        paired(args)


if __name__ == "__main__":
    main()
