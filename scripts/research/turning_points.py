#!/usr/bin/env python3
"""When does each engine see a game's result coming?

Reads the log of an `antichess match` whose referee logged the engines'
lines (RUST_LOG=antichess::referee::process=debug) with our engine logging
one line per search (RUST_LOG=info in its environment), and a UCI opponent:

  RUST_LOG=antichess::referee::process=debug antichess match ... \\
      --engine1 "proto:env RUST_LOG=info target/release/antichess" \\
      --engine2 "uci:$FSF;VariantPath=scripts/antichess_variants.ini" 2>match.log
  scripts/research/turning_points.py match.log

For every decided game it finds, for each engine, the first of its own
moves from which its score stays on the final result's side by at least
--margin centipawns to the end, and prints the medians over the games we
won and the games we lost: which engine saw the result first, and how
many moves into the game. Moves our engine played without a search (a
single legal move) are not counted.
"""

import argparse
import re
import statistics

GAME = re.compile(r"game (\d+)/\d+: (.+?) - (.+?) (1-0|0-1|1/2-1/2)")
OURS = re.compile(r"searched depth (\d+) score (-?\d+)")
UCI_INFO = re.compile(r"info depth (\d+) .*score (cp|mate) (-?\d+)")
MATE_CP = 30000


def games(path, ours_prefix, theirs):
    """(our points, [(who, score)...]) per game, scores from each engine's
    own side."""
    result, events, last = [], [], None
    with open(path, errors="replace") as log:
        for line in log:
            m = GAME.match(line)
            if m:
                points = {"1-0": 1.0, "0-1": 0.0}.get(m.group(4), 0.5)
                if not m.group(2).startswith(ours_prefix):
                    points = 1 - points
                result.append((points, events))
                events = []
                continue
            m = OURS.search(line)
            if m:
                if int(m.group(1)) > 0:
                    events.append(("us", int(m.group(2))))
                continue
            if f"from {theirs}: " not in line:
                continue
            m = UCI_INFO.search(line)
            if m:
                value = int(m.group(3))
                if m.group(2) == "mate":
                    value = MATE_CP if value > 0 else -MATE_CP
                last = value
            elif "bestmove" in line and last is not None:
                events.append(("them", last))
                last = None
    return result


def sure_from(scores, sign, margin):
    """The 1-based index from which every score is past `margin` in the
    direction `sign`, or None."""
    for i in range(len(scores)):
        if all(sign * v >= margin for v in scores[i:]):
            return i + 1
    return None


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("log")
    parser.add_argument("--ours", default="env", help="our engine's name prefix in the match")
    parser.add_argument("--theirs", default="stockfish", help="the opponent's name in the log")
    parser.add_argument("--margin", type=int, default=300)
    args = parser.parse_args()
    played = games(args.log, args.ours, args.theirs)
    print(f"{len(played)} games")
    for label, points, our_sign in (("won", 1.0, 1), ("lost", 0.0, -1)):
        ours, theirs, first = [], [], 0
        for p, events in played:
            if p != points:
                continue
            a = sure_from([v for who, v in events if who == "us"], our_sign, args.margin)
            b = sure_from([v for who, v in events if who == "them"], -our_sign, args.margin)
            if a and b:
                ours.append(a)
                theirs.append(b)
                first += b < a
        if ours:
            print(
                f"{label} {len(ours)}: our score holds from our move {statistics.median(ours)}, "
                f"theirs from their move {statistics.median(theirs)} (medians); "
                f"they saw it first in {first}, we in {sum(a < b for a, b in zip(ours, theirs))}"
            )


if __name__ == "__main__":
    main()
