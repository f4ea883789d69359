#!/usr/bin/env python3
"""Checks what OpenBench needs of the engine, the way its client and
cutechess use it:

- `BINARY bench`, run twice: OpenBench reads the bench and the speed from
  the last line that has them, so the last line must be `N nodes M nps`,
  and N must be the same both times;
- UCI: `Hash` and `Threads` offered as spin options and accepted. With
  `UCI_Variant=chess` (the option an OpenBench preset sets), the engine
  must play a legal game of standard chess against itself at
  Threads=2 Hash=32, checked move by move by python-chess.

    target/venv/bin/python scripts/openbench_check.py --binary target/release/antichess
"""

import argparse
import re
import subprocess
import sys

import chess

failures = []
checks = []


def check(condition, message):
    print(f"{'ok' if condition else 'FAILED'}: {message}")
    checks.append(message)
    if not condition:
        failures.append(message)


def bench(binary):
    run = subprocess.run([binary, "bench"], capture_output=True, text=True, timeout=300)
    lines = [line for line in run.stdout.splitlines() if line.strip()]
    last = lines[-1] if lines else ""
    m = re.fullmatch(r"(\d+) nodes (\d+) nps", last)
    return run.returncode, last, (int(m.group(1)) if m else None)


class Uci:
    """A bare UCI connection, as a match runner has it."""

    def __init__(self, binary):
        self.process = subprocess.Popen(
            [binary], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1
        )

    def send(self, line):
        self.process.stdin.write(line + "\n")
        self.process.stdin.flush()

    def ask(self, line, until):
        """Sends `line`; the answer's lines up to the one starting `until`."""
        self.send(line)
        lines = []
        while True:
            answer = self.process.stdout.readline()
            if not answer:
                raise SystemExit(f"openbench_check: the engine closed its output after {line!r}")
            lines.append(answer.rstrip("\n"))
            if answer.startswith(until):
                return lines

    def close(self):
        try:
            self.send("quit")
        except OSError:
            pass
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--binary", default="target/release/antichess")
    args = parser.parse_args()

    first = bench(args.binary)
    second = bench(args.binary)
    check(first[0] == 0 and first[2] is not None, f"bench's last line is `N nodes M nps` ({first[1]!r})")
    check(first[2] == second[2], f"bench is deterministic ({first[2]} and {second[2]} nodes)")

    uci = Uci(args.binary)
    try:
        hello = uci.ask("uci", "uciok")
        for name in ("Hash", "Threads"):
            offered = any(re.match(rf"option name {name} type spin ", line) for line in hello)
            check(offered, f"UCI offers {name} as a spin option")
        check(any(line.startswith("option name UCI_Variant") and " var chess" in line for line in hello),
              "UCI_Variant offers chess")
        # What cutechess sends for `option.Threads=2 option.Hash=32
        # option.UCI_Variant=chess`, then a game with a clock.
        for name, value in (("Hash", 32), ("Threads", 2), ("UCI_Variant", "chess")):
            uci.send(f"setoption name {name} value {value}")
        errors = [line for line in uci.ask("isready", "readyok") if "error" in line]
        check(not errors, f"the options are accepted {errors if errors else ''}")
        uci.send("ucinewgame")
        board, moves, legal = chess.Board(), [], True
        clock = {"w": 1000, "b": 1000}
        while not board.is_game_over(claim_draw=True) and len(moves) < 80:
            uci.send("position startpos" + (" moves " + " ".join(moves) if moves else ""))
            reply = uci.ask(f"go wtime {clock['w']} btime {clock['b']} winc 10 binc 10", "bestmove")
            text = reply[-1].split()[1]
            try:
                move = chess.Move.from_uci(text)
            except ValueError:
                move = None
            if move is None or move not in board.legal_moves:
                legal = False
                print(f"illegal move {text} in {board.fen()}")
                break
            board.push(move)
            moves.append(text)
        check(legal and moves, f"a game of standard chess at Threads=2 Hash=32: {len(moves)} legal plies")
    finally:
        uci.close()
    print(f"{len(checks) - len(failures)} passed, {len(failures)} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
