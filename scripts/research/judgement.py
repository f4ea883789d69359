#!/usr/bin/env python3
"""How well engines judge antichess positions: each engine searches the
same quiet positions from played games for a fixed number of nodes, and
its scores are compared with the games' results, by phase (men on the
board). A benchmark aid, not a test: it asks which positions an engine
misjudges, which a match cannot say.

    antichess tune GAMES.pgn... --positions POS.tsv
    scripts/research/judgement.py POS.tsv --nodes 20000 --sample 4000 \\
        --engine "ours=target/release/antichess;UCI_Variant=antichess" \\
        --engine "fsf=$FSF;VariantPath=scripts/antichess_variants.ini;UCI_Variant=antichess6170"

For each engine and phase it prints the positions, how often the sign of
the score agrees with the result (decided games only; a score of 0 counts
half), and the mean
squared error of the results predicted through the logistic curve that
fits that engine's scores best (0.25 is no better than a coin). Positions
are drawn at random (--seed) from the distinct ones in the file.
"""
import argparse
import math
import random
import threading

import os  # noqa: E402
import sys  # noqa: E402

# The shared readers live one folder up, in scripts/.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from uci_client import Uci

PHASES = [(26, 32), (20, 25), (14, 19), (8, 13), (2, 7)]
MATE = 30000


def men(fen):
    return sum(c.isalpha() for c in fen.split()[0])


def numeric(score):
    """A UCI score as centipawns, a mate as +-MATE."""
    if score is None:
        return None
    kind, value = score
    return value if kind == "cp" else math.copysign(MATE, value)


def predicted(score, k):
    if abs(score) >= MATE:
        return 1.0 if score > 0 else 0.0
    return 1.0 / (1.0 + math.exp(-k * score * math.log(10) / 400))


def best_fit(pairs):
    """The least mean squared error over curve scales, and the scale."""
    return min((sum((r - predicted(s, k)) ** 2 for r, s in pairs) / len(pairs), k)
               for k in (i / 200 for i in range(401)))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("positions")
    ap.add_argument("--engine", action="append", required=True,
                    help="NAME=COMMAND[;OPTION=VALUE...]; the option nodes=N is this "
                         "engine's own node count")
    ap.add_argument("--nodes", type=int, default=20000)
    ap.add_argument("--sample", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--min-men", type=int, default=2)
    args = ap.parse_args()

    seen, rows = set(), []
    for line in open(args.positions):
        fields = line.rstrip("\n").split("\t")
        if len(fields) < 2 or fields[0] in seen or men(fields[0]) < args.min_men:
            continue
        seen.add(fields[0])
        rows.append((fields[0], float(fields[1])))
    random.Random(args.seed).shuffle(rows)
    rows = rows[:args.sample]

    scores = {}

    def run(name, spec):
        command, *settings = spec.split(";")
        options = [tuple(s.split("=", 1)) for s in settings]
        nodes = dict(options).pop("nodes", args.nodes)
        engine = Uci(command.split(), [(k, v) for k, v in options if k != "nodes"])
        scores[name] = [numeric(engine.score(fen, f"nodes {nodes}", new_game=False))
                        for fen, _ in rows]
        engine.close()

    threads = []
    for spec in args.engine:
        name, _, command = spec.partition("=")
        threads.append(threading.Thread(target=run, args=(name, command)))
        threads[-1].start()
    for t in threads:
        t.join()

    print(f"{len(rows)} positions, {args.nodes} nodes a search unless an engine says")
    print(f"{'men':>6} {'engine':>10} {'n':>6} {'sign right':>10} {'mse':>7} {'k':>6}")
    for lo, hi in PHASES + [(2, 32)]:
        for name in scores:
            pairs = [(r, s) for (fen, r), s in zip(rows, scores[name])
                     if s is not None and lo <= men(fen) <= hi]
            if not pairs:
                continue
            decided = [(r, s) for r, s in pairs if r != 0.5]
            # A score of 0 calls neither side: half right.
            right = sum(0.5 if s == 0 else float((s > 0) == (r > 0.5))
                        for r, s in decided) / max(1, len(decided))
            mse, k = best_fit(pairs)
            label = f"{lo}-{hi}" if (lo, hi) != (2, 32) else "all"
            print(f"{label:>6} {name:>10} {len(pairs):>6} {right:>10.3f} {mse:>7.4f} {k:>6.3f}")


if __name__ == "__main__":
    main()
