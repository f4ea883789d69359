#!/usr/bin/env python3
"""Our search's score at chosen moves of a match's games: where did the
games we lost turn?

    python3 scripts/score_marks.py GAMES.pgn [--result 0] [--plies 80-150]
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
import subprocess

import chess

TAG = re.compile(r'^\[(\w+) "(.*)"\]$', re.M)
MOVE_NUMBER = re.compile(r"^\d+\.+$")


def games(path):
    with open(path, encoding="utf-8") as f:
        text = f.read()
    for chunk in text.split("\n\n[Event "):
        tags = dict(TAG.findall(chunk))
        if "Result" not in tags or "\n\n" not in chunk:
            continue
        body = re.sub(r"\{[^}]*\}", "", chunk.split("\n\n", 1)[1])
        sans = [w for w in body.split() if not MOVE_NUMBER.match(w) and w not in ("1-0", "0-1", "1/2-1/2", "*")]
        yield tags, sans


class Engine:
    """Our engine over UCI, one search at a time."""

    def __init__(self, command, rules):
        self.proc = subprocess.Popen([command], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
        self.send("uci")
        self.read_until("uciok")
        self.send(f"setoption name UCI_Variant value {rules}")

    def send(self, line):
        self.proc.stdin.write(line + "\n")

    def read_until(self, word):
        while True:
            line = self.proc.stdout.readline()
            if not line:
                raise SystemExit("the engine stopped")
            if line.startswith(word):
                return line

    def score(self, fen, nodes):
        self.send("ucinewgame")
        self.send(f"position fen {fen}")
        self.send(f"go nodes {nodes}")
        last = ""
        while True:
            line = self.read_until("")
            if line.startswith("info depth"):
                last = line
            elif line.startswith("bestmove"):
                break
        found = re.search(r"score (cp|mate) (-?\d+)", last)
        if not found:
            return None
        value = int(found.group(2))
        return value if found.group(1) == "cp" else (100000 if value > 0 else -100000)


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
    engine = Engine(args.engine, args.rules)
    for tags, sans in games(args.pgn):
        plies = int(tags.get("PlyCount", len(sans)))
        ours_white = "stockfish" not in tags.get("White", "").lower()
        points = {"1-0": 1.0, "0-1": 0.0}.get(tags["Result"], 0.5)
        if not ours_white:
            points = 1.0 - points
        if points != args.result or not low <= plies < high:
            continue
        board = chess.Board(tags.get("FEN", chess.STARTING_FEN))
        us = chess.WHITE if ours_white else chess.BLACK
        scores = []
        for san in sans:
            board.push(board.parse_san(san))
            if board.turn == us and board.fullmove_number in marks and len(scores) < len(marks):
                scores.append(engine.score(board.fen(), args.nodes))
        print(tags.get("Round", "?"), plies, scores, flush=True)


if __name__ == "__main__":
    main()
