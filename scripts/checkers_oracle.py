#!/usr/bin/env python3
"""Cross-check our checkers move generator against PyPI `clatsop`.

Positions come from seeded random games played with clatsop's rules, plus
random legal-looking setups full of kings (where long jump chains live).
For every position both generators must give the same multiset of
(move, successor) pairs: the move in the handout's full notation
(`18-11-4`), the successor as a PDN FEN. Our side is the hidden
`checkers --list-moves` command, fed all positions at once.

Exit status 0 when everything agrees, 1 on any difference (the first few
are printed), 2 when the tools are missing.

    pip install -r scripts/requirements-checkers.txt
    cargo build --release --bin checkers
    python3 scripts/checkers_oracle.py [--games N] [--setups N] [--seed S]
"""

import argparse
import os
import random
import subprocess
import sys

try:
    import clatsop
except ImportError:
    print("checkers_oracle: needs clatsop (pip install -r scripts/requirements-checkers.txt)",
          file=sys.stderr)
    sys.exit(2)

RULES = clatsop.Ruleset.american()
BLACK_CROWN = 0xF0000000
WHITE_CROWN = 0x0000000F


def fen(turn):
    """PDN FEN in our canonical form: side, White's list, Black's list,
    squares ascending, kings marked K."""
    b = turn.board

    def pieces(mask):
        return ",".join(("K" if b.kings >> s & 1 else "") + str(s + 1)
                        for s in range(32) if mask >> s & 1)

    side = "B" if turn.black_to_move else "W"
    return f"{side}:W{pieces(b.white)}:B{pieces(b.black)}"


def square(mask):
    return mask.bit_length()  # a one-bit mask's square number, 1-32


def clatsop_moves(turn):
    """Sorted (move, successor FEN) pairs according to clatsop."""
    out = []
    for tr in RULES.legal_transitions(turn):
        rules = [RULES[i] for i in tr.rule_indices]
        path = [square(rules[0].mover)] + [square(r.is_empty) for r in rules]
        out.append(("-".join(map(str, path)), fen(tr.turn)))
    return sorted(out)


def random_games(rng, games, max_plies):
    for _ in range(games):
        turn = clatsop.Turn.initial()
        for _ in range(max_plies):
            yield turn
            moves = RULES.legal_transitions(turn)
            if not moves:
                break
            turn = rng.choice(moves).turn


def random_setups(rng, count):
    """Random boards with up to 12 pieces a side, many of them kings; men
    never stand where they would already be crowned."""
    for _ in range(count):
        squares = list(range(32))
        rng.shuffle(squares)
        black = white = kings = 0
        for colour, n in (("b", rng.randint(1, 12)), ("w", rng.randint(1, 12))):
            for _ in range(n):
                s = squares.pop()
                bit = 1 << s
                crown = BLACK_CROWN if colour == "b" else WHITE_CROWN
                if bit & crown or rng.random() < 0.5:
                    kings |= bit
                if colour == "b":
                    black |= bit
                else:
                    white |= bit
        yield clatsop.Turn.from_masks(black, white, kings, rng.randint(0, 1))


def our_moves(binary, fens):
    proc = subprocess.run([binary, "--list-moves"], input="\n".join(fens) + "\n",
                          capture_output=True, text=True, check=True)
    lines = proc.stdout.split("\n")
    result = []
    for line in lines[:len(fens)]:
        if line.startswith("error:"):
            result.append(line)
            continue
        pairs = [tuple(item.split("=", 1)) for item in line.split()]
        result.append(sorted(pairs))
    return result


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bin", default=os.path.join("target", "release", "checkers"))
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--plies", type=int, default=150)
    ap.add_argument("--setups", type=int, default=3000)
    ap.add_argument("--seed", type=int, default=61)
    args = ap.parse_args()
    if not os.path.exists(args.bin):
        print(f"checkers_oracle: {args.bin} not found (cargo build --release --bin checkers)",
              file=sys.stderr)
        return 2

    rng = random.Random(args.seed)
    turns = list(random_games(rng, args.games, args.plies))
    turns += list(random_setups(rng, args.setups))
    # Random games revisit the opening; check each position once.
    unique = {fen(t): t for t in turns}
    fens = list(unique)
    ours = our_moves(args.bin, fens)

    failures = 0
    moves = 0
    for f, got in zip(fens, ours):
        want = clatsop_moves(unique[f])
        moves += len(want)
        if got != want:
            failures += 1
            if failures <= 5:
                print(f"DIFFERENCE at {f}\n  clatsop: {want}\n  ours:    {got}")
    print(f"checkers_oracle: {len(fens)} positions, {moves} moves, {failures} differing")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
