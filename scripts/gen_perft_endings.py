#!/usr/bin/env python3
"""Write tests/fixtures/perft_endings.txt: perft counts near the end of games, from pyffish.

Perft below a finished game is 0: once a side has only its king in the
antichess rule sets, the game is over and there are no legal moves, as
Fairy-Stockfish (and so pyffish) counts it. The start-position suites never
get there, so this one takes positions a few plies before the end of seeded
random games (captures preferred, so that games end quickly) and keeps, for
the antichess rule sets, those whose move tree crosses a bare-king ending
within the counted depth. Chess positions from the same kind of games check
that checkmate and stalemate end the tree and that the draw rules (fifty
moves, insufficient material) do not, as in every chess perft.

The counts are pyffish's own: a recursive perft over `sf.legal_moves`.
tests/perft_endings.rs reads the file. Regenerate with

    python3 scripts/gen_perft_endings.py [--seed S] [--per-rules N]

(needs pyffish, pinned in scripts/requirements.txt).
"""

import argparse
import os
import random
import sys

import pyffish as sf

from oracle_check import HERE, VARIANTS, drawn_by_rule, occupied

OUT = os.path.join(HERE, "..", "tests", "fixtures", "perft_endings.txt")
# pyffish takes milliseconds a call: a position gets at most this many
# calls, one per node above the last ply. The suite then runs in a second.
CALLS = 800
MAX_DEPTH = 6

# The positions of issue 10, first: a lone move that leaves White bare, and
# a capture that leaves White bare after the king's move.
FIXED = [
    ("antichess", "b2k4/8/4p1p1/8/2n5/4P3/7K/8 b - - 0 1"),
    ("antichess", "k7/p7/8/8/8/8/8/r3K2N w - - 0 1"),
    ("antichess", "k7/p7/8/8/8/8/4K3/r6N b - - 1 1"),
    ("antichess1994", "b2k4/8/4p1p1/8/2n5/4P3/7K/8 b - - 0 1"),
]


def is_over(variant, fen):
    return sf.is_immediate_game_end(variant, fen, [])[0]


def counts(variant, fen):
    """pyffish's perft counts for depths 1, 2, ... (a breadth-first walk,
    each level from the one above, while the next level stays within
    CALLS calls), and whether the tree crosses a bare-king ending: a node
    above the last level where the game is over, so that a generator that
    ignored the ending would count more below it."""
    level, found, crosses, calls = [[]], [], False, 0
    while len(found) < MAX_DEPTH and level and calls + len(level) <= CALLS:
        below = []
        for prefix in level:
            moves = sf.legal_moves(variant, fen, prefix)
            calls += 1
            if not moves and prefix and sf.is_immediate_game_end(variant, fen, prefix)[0]:
                crosses = True
            below += [prefix + [m] for m in moves]
        found.append(len(below))
        level = below
    return found, crosses


def game_end_positions(variant, rng):
    """The positions of one random game (captures preferred, so that
    the pieces come off), from its end backwards."""
    fen = sf.start_fen(variant)
    seen = [fen]
    for _ply in range(600):
        moves = sf.legal_moves(variant, fen, [])
        # pyffish lists no moves once the game is over.
        if not moves or drawn_by_rule(variant, fen):
            break
        taken = occupied(fen)
        captures = [m for m in moves if m[2:4] in taken]
        pool = captures if captures and rng.random() < 0.7 else moves
        fen = sf.get_fen(variant, fen, [rng.choice(pool)])
        seen.append(fen)
    return list(reversed(seen))


def collect(rules, want, rng):
    variant = VARIANTS[rules]
    rows, fens = [], set()
    games = 0
    while len(rows) < want and games < 20 * want:
        games += 1
        # One position a few plies before the end of each game: far enough
        # for a tree of a few plies to end inside the count.
        late = game_end_positions(variant, rng)[2:12]
        if not late:
            continue
        fen = rng.choice(late)
        if fen in fens or is_over(variant, fen):
            continue
        found, crosses = counts(variant, fen)
        if len(found) < 2 or (rules != "chess" and not crosses):
            continue
        fens.add(fen)
        rows.append((rules, fen, found))
    return rows


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=6170)
    parser.add_argument("--per-rules", type=int, default=80)
    parser.add_argument("--out", default=OUT)
    args = parser.parse_args()
    with open(os.path.join(HERE, "antichess_variants.ini")) as f:
        sf.load_variant_config(f.read())
    rows = [(rules, fen, counts(VARIANTS[rules], fen)[0]) for rules, fen in FIXED]
    for rules in VARIANTS:
        want = args.per_rules if rules != "chess" else args.per_rules // 2
        print(f"{rules}: {want} positions ...", file=sys.stderr)
        rows += collect(rules, want, random.Random(f"{args.seed}-{rules}"))
    tmp = args.out + ".tmp"
    with open(tmp, "w") as f:
        f.write("# Perft near the end of games: <rules>;<FEN>;<count at depth 1>,<depth 2>,...\n")
        f.write(f"# From pyffish {'.'.join(map(str, sf.version()))} with scripts/antichess_variants.ini, written by\n")
        f.write(f"# scripts/gen_perft_endings.py --seed {args.seed} --per-rules {args.per_rules}.\n")
        for rules, fen, found in rows:
            f.write(f"{rules};{fen};{','.join(map(str, found))}\n")
    os.replace(tmp, args.out)
    by_rules = {}
    for rules, _, _ in rows:
        by_rules[rules] = by_rules.get(rules, 0) + 1
    leaves = sum(sum(found) for _, _, found in rows)
    print(f"{len(rows)} positions {by_rules}, {leaves} leaves in all -> {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
