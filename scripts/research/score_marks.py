#!/usr/bin/env python3
"""Our search's score at chosen moves of a match's games: where did the
games we lost turn?

    python3 scripts/research/score_marks.py GAMES.pgn [--result 0] [--plies 80-150]
        [--marks 10,20,28,36] [--nodes 300000] [--engine target/release/antichess]

For each game of `antichess match --pgn` that our engine (the player whose
name does not contain "stockfish") finished with `--result` (1 won, 0
lost, 0.5 drawn) and whose length in plies is within `--plies`, replays
the moves and has the engine search the position at the start of each of
our moves whose full-move numbers are in `--marks`, printing the round, the length and the
scores (centipawns for us; ±100000 for a forced result). Needs
python-chess (scripts/requirements.txt) to replay the moves: the 6.170
rules' moves are all legal chess moves from a position without castling
rights.
"""

import argparse
import re

import chess

import os  # noqa: E402
import sys  # noqa: E402

# The shared readers live one folder up, in scripts/.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from match_pgn import games, is_ours, points
from uci_client import Uci

MOVE_NUMBER = re.compile(r"^\d+\.+$")


def sans(movetext):
    """The moves of a game's movetext, comments and numbers left out."""
    words = re.sub(r"\{[^}]*\}", "", movetext).split()
    return [w for w in words if not MOVE_NUMBER.match(w) and w not in ("1-0", "0-1", "1/2-1/2", "*")]


def centipawns(score):
    """A UCI score for us: centipawns, or ±100000 for a forced result."""
    if score is None:
        return None
    kind, value = score
    return value if kind == "cp" else (100000 if value > 0 else -100000)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("pgn")
    parser.add_argument("--result", type=float, default=0.0)
    parser.add_argument("--plies", default="0-100000")
    parser.add_argument("--marks", default="10,20,28,36")
    parser.add_argument("--nodes", type=int, default=300000)
    parser.add_argument("--engine", default="target/release/antichess")
    parser.add_argument("--rules", default="antichess")
    args = parser.parse_args()
    low, high = (int(x) for x in args.plies.split("-"))
    marks = [int(x) for x in args.marks.split(",")]
    engine = Uci([args.engine], [("UCI_Variant", args.rules)])
    for tags, movetext in games([args.pgn]):
        moves = sans(movetext)
        plies = int(tags.get("PlyCount", len(moves)))
        if points(tags, is_ours) != args.result or not low <= plies < high:
            continue
        board = chess.Board(tags.get("FEN", chess.STARTING_FEN))
        us = chess.WHITE if is_ours(tags.get("White", "")) else chess.BLACK
        scores = []
        for san in moves:
            board.push(board.parse_san(san))
            if board.turn == us and board.fullmove_number in marks and len(scores) < len(marks):
                scores.append(centipawns(engine.score(board.fen(), f"nodes {args.nodes}")))
        print(tags.get("Round", "?"), plies, scores, flush=True)
    engine.close()


if __name__ == "__main__":
    main()
