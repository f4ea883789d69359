#!/usr/bin/env python3
"""Cross-check our move generator and game status against pyffish.

pyffish is the Python binding of Fairy-Stockfish, an independent
implementation. For each rule set we play seeded random games with
pyffish to their end (captures preferred half the time, so that games do
end), collect the positions along the way and every position one move
away from the last few (so that finished games, a bare king above all,
are compared often), and ask our binary (`antichess legal`) for the legal
moves and status of every one of them. Any difference in the set of legal
moves or in the status fails the run; a finished game has no legal moves.

Usage: scripts/oracle_check.py [--positions N] [--seed S] [--binary PATH]
"""

import argparse
import os
import random
import subprocess
import sys
from concurrent.futures import ProcessPoolExecutor

import pyffish as sf

HERE = os.path.dirname(os.path.abspath(__file__))
VARIANTS = {
    "antichess": "antichess6170",
    "antichess1994": "antichess1994",
    "chess": "chess",
}


def fsf_status(variant, fen, moves, rules):
    """(score, reason) from pyffish's view, in our vocabulary."""
    white_to_move = fen.split()[1] == "w"

    def score(value_for_mover):
        if value_for_mover == 0:
            return "1/2-1/2"
        return "1-0" if (value_for_mover > 0) == white_to_move else "0-1"

    ended, value = sf.is_immediate_game_end(variant, fen, [])
    if ended:
        # In our rule sets the only immediate end is a bare king.
        return score(value), "bare-king"
    if not moves:
        in_check = sf.gives_check(variant, fen, [])
        value = sf.game_result(variant, fen, [])
        return score(value), "checkmate" if in_check else "stalemate"
    if rules == "chess":
        halfmove = int(fen.split()[4])
        if halfmove >= 100:
            return "1/2-1/2", "fifty-move"
        white_short, black_short = sf.has_insufficient_material(variant, fen, [])
        if white_short and black_short:
            return "1/2-1/2", "insufficient-material"
    return "*", "-"


def occupied(fen):
    """The occupied squares of a FEN's board, as UCI square names."""
    squares = set()
    for rank, row in zip("87654321", fen.split()[0].split("/")):
        file = 0
        for c in row:
            if c.isdigit():
                file += int(c)
            else:
                squares.add("abcdefgh"[file] + rank)
                file += 1
    return squares


def drawn_by_rule(variant, fen):
    """Chess: fifty moves or insufficient material, where pyffish still
    lists moves (a draw by rule ends a game but not the move list)."""
    return variant == "chess" and (
        sf.is_optional_game_end(variant, fen, [])[0]
        or all(sf.has_insufficient_material(variant, fen, []))
    )


def random_positions(variant, rng, count):
    """FENs from seeded random games played to their end (or a ply cap):
    a quarter of the positions along the way, every one of the last eight,
    and those one move after each of the last four."""
    start = sf.start_fen(variant)
    fens = {}
    while len(fens) < count:
        fen = start
        game = [fen]
        for _ply in range(400):
            # pyffish lists no moves once the game is over.
            moves = sf.legal_moves(variant, fen, [])
            if not moves or drawn_by_rule(variant, fen):
                break
            taken = occupied(fen)
            captures = [m for m in moves if m[2:4] in taken]
            pool = captures if captures and rng.random() < 0.5 else moves
            fen = sf.get_fen(variant, fen, [rng.choice(pool)])
            game.append(fen)
        early = [f for f in game[:-8] if rng.random() < 0.25]
        late = [sf.get_fen(variant, f, [m]) for f in game[-5:-1] for m in sf.legal_moves(variant, f, [])]
        fens.update(dict.fromkeys(early + game[-8:] + late))
    return list(fens)[:count]


def ours(binary, rules, fens):
    """Our answers for each FEN, as (score, reason, sorted moves)."""
    proc = subprocess.run(
        [binary, "legal", "--rules", rules],
        input="\n".join(fens) + "\n",
        capture_output=True,
        text=True,
        check=True,
    )
    answers = []
    for line in proc.stdout.splitlines():
        fields = line.split()
        answers.append((fields[0], fields[1] if len(fields) > 1 else "", sorted(fields[2:])))
    return answers


def check(binary, rules, count, seed):
    """Compares one rule set's positions; returns the number of
    differences and what to print (stdout, stderr), so that rule sets can
    run in processes of their own and still report in order."""
    out, err = [], []

    def say(line, to=out):
        to.append(line)

    variant = VARIANTS[rules]
    rng = random.Random(f"{seed}-{rules}")
    fens = random_positions(variant, rng, count)
    answers = ours(binary, rules, fens)
    if len(answers) != len(fens):
        say(f"{rules}: got {len(answers)} answers for {len(fens)} positions", err)
        return 1, out, err
    failures = 0
    statuses = {}
    for fen, (score, reason, moves) in zip(fens, answers):
        if score == "error":
            say(f"{rules}: we refused {fen}: {reason} ...", err)
            failures += 1
            continue
        theirs = sorted(sf.legal_moves(variant, fen, []))
        status = fsf_status(variant, fen, theirs, rules)
        statuses[status[1]] = statuses.get(status[1], 0) + 1
        if moves != theirs or (score, reason) != status:
            failures += 1
            if failures <= 10:
                say(f"{rules}: {fen}", err)
                say(f"  ours:    {score} {reason} {' '.join(moves)}", err)
                say(f"  pyffish: {status[0]} {status[1]} {' '.join(theirs)}", err)
                extra = set(moves) - set(theirs)
                missing = set(theirs) - set(moves)
                say(f"  only ours: {sorted(extra)}  only pyffish: {sorted(missing)}", err)
    say(f"{rules}: {len(fens)} positions, {failures} differences, endings {statuses}")
    return failures, out, err


def load_rules():
    with open(os.path.join(HERE, "antichess_variants.ini")) as f:
        sf.load_variant_config(f.read())


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=10000, help="positions per rule set")
    parser.add_argument("--seed", type=int, default=6170)
    parser.add_argument("--binary", default=os.path.join(HERE, "..", "target", "release", "antichess"))
    parser.add_argument("--rules", nargs="*", default=list(VARIANTS))
    args = parser.parse_args()
    # One process a rule set: pyffish's random games are most of the time.
    with ProcessPoolExecutor(max_workers=min(len(args.rules), os.cpu_count() or 1), initializer=load_rules) as pool:
        runs = [pool.submit(check, args.binary, r, args.positions, args.seed) for r in args.rules]
        failures = 0
        for run in runs:
            count, out, err = run.result()
            failures += count
            for line in err:
                print(line, file=sys.stderr)
            for line in out:
                print(line)
    if failures:
        print(f"FAILED: {failures} differences from pyffish", file=sys.stderr)
        return 1
    print("ok: identical to pyffish")
    return 0


if __name__ == "__main__":
    sys.exit(main())
