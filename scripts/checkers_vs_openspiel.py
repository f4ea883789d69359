#!/usr/bin/env python3
"""Match: our checkers machine player against open_spiel's MCTS bot.

open_spiel's `checkers` has the same rules as the handout (compulsory and
complete captures, crowning ends a move, no flying kings) plus one more:
the game is drawn after 40 plies without a capture, which our player does
not know about, so some of its won endgames end drawn. open_spiel's first
player ('o') starts at the bottom; the board is the handout's turned round,
so our square (row r, column c) is open_spiel's (7-r, 7-c).

Our side is the hidden `checkers --best-move` command (PDN FEN in, move
out), kept running for the whole match. Colours alternate.

    pip install -r scripts/openspiel-requirements.txt   # not part of scripts/test.sh
    cargo build --release --bin checkers
    python3 scripts/checkers_vs_openspiel.py --games 10 --level 0 --move-ms 100 --simulations 1000
"""

import argparse
import os
import subprocess
import sys

import numpy as np
import pyspiel
from open_spiel.python.algorithms import mcts


def our_square(row, col):
    """Our square number (1-32) of open_spiel's (row, col)."""
    r, c = 7 - row, 7 - col
    return 4 * r + c // 2 + 1


def spiel_cell(square):
    """open_spiel's (row, col) of our square number."""
    s = square - 1
    r = s // 4
    c = 2 * (s % 4) + (1 if r % 2 == 0 else 0)
    return 7 - r, 7 - c


def to_fen(state):
    """Our PDN FEN of an open_spiel state (player 0, 'o', is our Black)."""
    rows = str(state).splitlines()[:8]
    black, white = [], []
    for row, line in enumerate(rows):
        for col, ch in enumerate(line[1:9]):
            if ch in "o8":
                black.append((our_square(row, col), ch == "8"))
            elif ch in "+*":
                white.append((our_square(row, col), ch == "*"))

    def items(pieces):
        return ",".join(("K" if king else "") + str(sq) for sq, king in sorted(pieces))

    side = "B" if state.current_player() == 0 else "W"
    return f"{side}:W{items(white)}:B{items(black)}"


def step_string(a, b):
    (r1, c1), (r2, c2) = spiel_cell(a), spiel_cell(b)
    return f"{chr(97 + c1)}{8 - r1}{chr(97 + c2)}{8 - r2}"


def play_ours(engine, state):
    engine.stdin.write(to_fen(state) + "\n")
    engine.stdin.flush()
    move = engine.stdout.readline().strip()
    squares = [int(x) for x in move.split("-")]
    player = state.current_player()
    for a, b in zip(squares, squares[1:]):
        want = step_string(a, b)
        actions = {state.action_to_string(player, x): x for x in state.legal_actions()}
        if want not in actions:
            raise RuntimeError(f"our move {move} step {want} not legal in\n{state}\n{sorted(actions)}")
        state.apply_action(actions[want])


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bin", default=os.path.join("target", "release", "checkers"))
    ap.add_argument("--games", type=int, default=10)
    ap.add_argument("--level", type=int, default=0)
    ap.add_argument("--move-ms", type=int, default=100)
    ap.add_argument("--simulations", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()

    game = pyspiel.load_game("checkers")
    engine = subprocess.Popen(
        [args.bin, "--best-move", f"--level={args.level}", f"--move-time={args.move_ms}",
         f"--seed={args.seed}"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    wins = draws = losses = 0
    for g in range(args.games):
        rng = np.random.RandomState(args.seed + g)
        evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
        bot = mcts.MCTSBot(game, uct_c=2, max_simulations=args.simulations,
                           evaluator=evaluator, random_state=rng)
        ours = g % 2  # open_spiel player index we play: 0 = Black, moves first
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.current_player() == ours:
                play_ours(engine, state)
            else:
                state.apply_action(bot.step(state))
        result = state.returns()[ours]
        wins += result > 0
        draws += result == 0
        losses += result < 0
        colour = "Black" if ours == 0 else "White"
        print(f"game {g + 1}: we play {colour}: {'win' if result > 0 else 'draw' if result == 0 else 'loss'}",
              flush=True)
    engine.stdin.close()
    engine.wait()
    print(f"level {args.level} ({args.move_ms} ms/move) vs MCTS ({args.simulations} simulations): "
          f"+{wins} ={draws} -{losses}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
