#!/usr/bin/env python3
"""The figures issue 12's goal asks of a run of matches, from their PGNs.

    python3 scripts/goal_run.py A.pgn B.pgn ...

Prints, for the player whose name does not contain "stockfish": the
games, the distinct openings they started from, W-D-L, the score and its
Elo, once as played and once with each win on time past 300 plies
counted as a draw (the goal's second score), and the games lost on time
by each side.

Each Elo has two 95% intervals. The first treats the games as
independent draws, as the referee's report does. The second resamples
the openings (a bootstrap over start positions, seeded, so the figure
repeats): a run's openings are a sample too, and a result measured on
few openings, each played many times, says less about the next opening
than its game count suggests. Before 2026-11-29 `--seed S` and `--seed
S+1` gave the same openings moved along by one, so runs on "new" seeds
replayed about a hundred openings; this interval is the honest one for
such runs.
"""

import math
import random
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


def main(paths):
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


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    main([p for arg in sys.argv[1:] for p in arg.split(",")])
