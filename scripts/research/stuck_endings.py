#!/usr/bin/env python3
"""Endings where a side is stuck (nothing but its king and immobile pawns),
for the conversion runs of docs/strength-log.md (2026-11-29, 98078ab).

  stuck_endings.py fens [--ply N] PGN...   the position at ply N (300) of
      every game won on time after more than N plies, one FEN a line:
      openings for `antichess match --openings FILE --max-plies 300`
  stuck_endings.py split PGN...            our results in such a match, by
      who was stuck at the start: we convert (the opponent stuck), they
      convert, both stuck, neither

A pawn is immobile when an enemy pawn stands on the square in front, or
one of its own immobile pawns does, and it has nothing to take (the rule
of src/chess/locked.rs). Replaying SAN needs pyffish (scripts/requirements.txt).
"""

import sys
from collections import Counter

import os  # noqa: E402
import sys  # noqa: E402

# The shared readers live one folder up, in scripts/.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from match_pgn import games, is_ours, long_flag, points

VARIANTS = {"antichess": "antichess6170", "antichess1994": "antichess1994"}


def squares(fen):
    """{(file, rank): letter} of a FEN's board."""
    board = {}
    for row, text in enumerate(fen.split()[0].split("/")):
        file = 0
        for c in text:
            if c.isdigit():
                file += int(c)
            else:
                board[(file, 7 - row)] = c
                file += 1
    return board


def stuck(fen, white):
    """Whether the side (White if `white`) has only its king and immobile pawns."""
    board = squares(fen)
    own = str.isupper if white else str.islower
    step = 1 if white else -1
    pawn = "P" if white else "p"
    men = {sq for sq, c in board.items() if own(c) and c.upper() != "K"}
    enemies = {sq for sq, c in board.items() if not own(c) and c.upper() != "K"}
    pawns = {sq for sq in men if board[sq] == pawn}
    free = {(f, r) for f, r in pawns if {(f - 1, r + step), (f + 1, r + step)} & enemies}
    fixed = {(f, r) for f, r in pawns - free if board.get((f, r + step)) == pawn.swapcase()}
    while True:
        grown = fixed | {(f, r) for f, r in pawns - free if (f, r + step) in fixed}
        if grown == fixed:
            return bool(men) and men == fixed
        fixed = grown


def replay(sf, variant, fen, movetext, plies):
    """The FEN after `plies` plies of the movetext's SAN, or None."""
    sans = [t for t in movetext.split() if t[0].isalpha()]
    for san in sans[:plies]:
        want = san.rstrip("+#")
        moves = [m for m in sf.legal_moves(variant, fen, []) if sf.get_san(variant, fen, m).rstrip("+#") == want]
        if len(moves) != 1:
            return None
        fen = sf.get_fen(variant, fen, moves)
    return fen if len(sans) >= plies else None


def fens(paths, plies):
    import re

    import pyffish as sf

    with open(sys.path[0] + "/antichess_variants.ini", encoding="utf-8") as f:
        sf.load_variant_config(f.read())
    for tags, movetext in games(paths):
        if not long_flag(tags, movetext, plies):
            continue
        variant = VARIANTS.get(tags.get("Variant", "antichess"), "antichess6170")
        start = tags.get("FEN") or sf.start_fen(variant)
        text = re.sub(r"\{[^}]*\}|\d+\.+", " ", movetext)
        fen = replay(sf, variant, start, text, plies)
        if fen:
            print(fen)


def split(paths):
    counts = Counter()
    for tags, _ in games(paths):
        ours_white = is_ours(tags.get("White", ""))
        fen = tags.get("FEN", "")
        us, them = stuck(fen, ours_white), stuck(fen, not ours_white)
        kind = {(False, True): "we convert", (True, False): "they convert", (True, True): "both stuck"}
        score = points(tags, is_ours)
        if score is not None:
            counts[(kind.get((us, them), "neither"), score)] += 1
    for kind in ["we convert", "they convert", "both stuck", "neither"]:
        w, d, l = (counts[(kind, s)] for s in (1.0, 0.5, 0.0))
        print(f"{kind:13} {w + d + l:4} games  {w}-{d}-{l}")


def main(args):
    if args[:1] == ["fens"]:
        plies = 300
        if args[1:2] == ["--ply"]:
            plies, args = int(args[2]), args[2:]
        fens(args[1:], plies)
    elif args[:1] == ["split"]:
        split(args[1:])
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main(sys.argv[1:])
