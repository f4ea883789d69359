#!/usr/bin/env python3
"""Records a whole game as a protocol transcript for tests/transcripts/.

Two engine processes play each other over the line protocol at
search-free levels with fixed seeds, so every answer is reproducible; the
session of the first one (the recorded side) is written as a transcript
that tests/transcripts.rs replays against the binary.

    scripts/record_game.py --rules chess --color black --level 3 \
        --opponent-level 2 > tests/transcripts/game_chess.txt
"""

import argparse
import subprocess
import sys


class Engine:
    def __init__(self, binary, log=None):
        self.proc = subprocess.Popen(
            [binary], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
        )
        self.log = log

    def ask(self, line):
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()
        answer = self.proc.stdout.readline().rstrip("\n")
        if self.log is not None:
            self.log.append("> " + line)
            self.log.append("< " + answer)
        return answer

    def close(self):
        self.proc.stdin.close()
        self.proc.wait()


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--binary", default="target/release/antichess")
    parser.add_argument("--rules", default="antichess")
    parser.add_argument("--color", default="white", choices=["white", "black"])
    parser.add_argument("--level", type=int, default=1)
    parser.add_argument("--opponent-level", type=int, default=1)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--board", default="", help="a one-line game file")
    parser.add_argument("--max-plies", type=int, default=1000)
    args = parser.parse_args()

    log = []
    me = Engine(args.binary, log)
    them = Engine(args.binary)
    other = "black" if args.color == "white" else "white"
    for engine, color, level, seed in [
        (me, args.color, args.level, args.seed),
        (them, other, args.opponent_level, args.seed + 1),
    ]:
        for line in [f"set rules {args.rules}", f"set seed {seed}"]:
            assert engine.ask(line) == "ok", line
        assert engine.ask(f"new {color} {level} {args.board}".strip()) == "ok"
    board = me.ask("board").split()
    to_move = {"white": "white", "W": "white", "black": "black", "B": "black"}[board[1]]

    clock = 300000
    mover, waiter = (me, them) if to_move == args.color else (them, me)
    last = "-"
    for _ in range(args.max_plies):
        answer = mover.ask(f"move {last} {clock} {clock}")
        if answer.startswith("result"):
            break
        assert answer.startswith("move "), answer
        last = answer.split()[1]
        mover, waiter = waiter, mover
    else:
        sys.exit("the game did not end")
    if mover is them:
        # The recorded engine made the last move: it is asked again.
        me.ask(f"move - {clock} {clock}")
    me.ask("board")
    me.ask("moves")
    me.close()
    them.close()
    print(
        f"# A whole {args.rules} game recorded by scripts/record_game.py: the engine"
        f" plays {args.color} at level {args.level} (seed {args.seed}) against level"
        f" {args.opponent_level}."
    )
    print("\n".join(log))


if __name__ == "__main__":
    main()
