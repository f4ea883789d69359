"""A UCI engine process driven one command at a time, for the scripts that
ask engines about positions (endgame_peer_check.py, research/judgement.py,
research/score_marks.py)."""

import subprocess
import sys


class Uci:
    """A UCI engine process, one command at a time."""

    def __init__(self, command, options):
        self.proc = subprocess.Popen(
            command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL, text=True, bufsize=1
        )
        self.send("uci")
        self.wait("uciok")
        for name, value in options:
            self.send(f"setoption name {name} value {value}")
        self.send("isready")
        self.wait("readyok")

    def send(self, line):
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def wait(self, word):
        lines = []
        while True:
            line = self.proc.stdout.readline()
            if not line:
                sys.exit(f"engine ended early; it said: {lines[-5:]}")
            lines.append(line.strip())
            if "error" in line:
                sys.exit(f"engine error: {line.strip()}")
            if line.startswith(word):
                return lines

    def score(self, fen, go, new_game=True):
        """The last score of the search `go ...` asks for (`depth 3`,
        `nodes 20000`): ('mate', n) or ('cp', n), or None if none came."""
        if new_game:
            self.send("ucinewgame")
        self.send(f"position fen {fen}")
        self.send(f"go {go}")
        score = None
        for line in self.wait("bestmove"):
            words = line.split()
            if "score" in words:
                i = words.index("score")
                score = (words[i + 1], int(words[i + 2]))
        return score

    def close(self):
        self.send("quit")
        self.proc.wait(timeout=10)
