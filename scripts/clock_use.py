#!/usr/bin/env python3
"""How each engine of a match spent its clock, from the `%clk` comments
that `antichess match --pgn` writes after every move.

    python3 scripts/clock_use.py games.pgn [more.pgn ...]

For each player: the median share of its starting clock left after its
5th, 10th, 20th and 30th move (over the games that got that far), left at
the game's end (decisive games and all games), and the mean time its
moves took in each stretch (forced moves, played at once, included). The starting clock is taken as the first
move's reading plus that move's time, rounded up to a whole second.
"""

import re
import statistics
import sys
from collections import defaultdict

from match_pgn import games

CLOCK = re.compile(r"%clk (\d+):(\d+):(\d+(?:\.\d+)?)")
MARKS = (5, 10, 20, 30)
STRETCHES = ("moves 1-10", "moves 11-20", "moves 21-40", "moves 41-")


def clocked_games(paths):
    """(tags, [seconds left after each ply]) of every game with clocks."""
    for tags, movetext in games(paths):
        clocks = [int(h) * 3600 + int(m) * 60 + float(s) for h, m, s in CLOCK.findall(movetext)]
        if clocks:
            yield tags, clocks


def starting_clock(clocks):
    # Both sides start alike; the first reading is a move's time below it.
    return float(int(max(clocks[:2])) + 1)


def median(values):
    return f"{statistics.median(values):.2f}" if values else "-"


def mean(values):
    return f"{statistics.fmean(values):.3f}" if values else "-"


def main(paths):
    left = defaultdict(lambda: defaultdict(list))  # player -> mark -> shares
    spent = defaultdict(lambda: defaultdict(list))  # player -> stretch -> seconds a move
    count = 0
    for tags, clocks in clocked_games(paths):
        count += 1
        start = starting_clock(clocks)
        result = tags.get("Result", "*")
        # The first ply's mover is White unless the start position says otherwise.
        fen = tags.get("FEN", "")
        first = 1 if " b " in fen else 0
        for side, name in enumerate((tags.get("White", "?"), tags.get("Black", "?"))):
            own = clocks[(side - first) % 2 :: 2]
            for mark in MARKS:
                if len(own) >= mark:
                    left[name][f"after move {mark}"].append(own[mark - 1] / start)
            left[name]["at the end"].append(own[-1] / start if own else 1.0)
            if result in ("1-0", "0-1"):
                left[name]["at the end, decisive"].append(own[-1] / start if own else 1.0)
            before = start
            for number, now in enumerate(own, 1):
                stretch = STRETCHES[(number > 10) + (number > 20) + (number > 40)]
                spent[name][stretch].append(before - now)
                before = now
    order = [f"after move {m}" for m in MARKS] + ["at the end", "at the end, decisive"]
    print(f"{count} games; share of the starting clock left, median (games):")
    for name, marks in sorted(left.items()):
        row = ", ".join(f"{m} {median(marks[m])} ({len(marks[m])})" for m in order if marks[m])
        print(f"  {name}: {row}")
    print("seconds a move, mean:")
    for name, stretches in sorted(spent.items()):
        row = ", ".join(f"{s} {mean(stretches[s])}" for s in STRETCHES if stretches[s])
        print(f"  {name}: {row}")


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    main(sys.argv[1:])
