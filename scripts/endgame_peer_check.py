#!/usr/bin/env python3
"""Checks our antichess endgame tables against Fairy-Stockfish's search.

Fairy-Stockfish knows nothing of our tables; on random positions of a few
tables its search must agree with them: where a table says the side to
move wins or loses within a few moves, Fairy-Stockfish must find that
mate (or a slower one: it may miss the fastest), and any other mate it finds must be the table's result (the
same winner); where a table says draw, it must find no mate at all. The tables are generated for the 1994 rules (the ones
Debian's Fairy-Stockfish 11.1 plays exactly), read back through our
engine's UCI `TablePath` (a search of one ply gives a position's table
result), and the positions are drawn by python-chess.

    scripts/endgame_peer_check.py --binary target/release/antichess
"""

import argparse
import os
import random
import subprocess
import sys
import tempfile

import chess
from uci_client import Uci

HERE = os.path.dirname(os.path.abspath(__file__))
MATERIALS = ["KNvKB", "KPvKN"]


def random_fen(material, rng):
    """A legal position of `material` (side to move first) with White to
    move, or None."""
    mover, other = material[1], material[4]
    board = chess.Board(None)
    squares = rng.sample(range(64), 4)
    pieces = [("K", True), (mover, True), ("K", False), (other, False)]
    for sq, (letter, white) in zip(squares, pieces):
        board.set_piece_at(sq, chess.Piece.from_symbol(letter if white else letter.lower()))
    board.turn = chess.WHITE
    board.castling_rights = 0
    return board.fen() if board.is_valid() else None


def agree(table, peer, near):
    """Whether Fairy-Stockfish's score `peer` agrees with the table's
    `table` (both UCI scores: a draw is `cp 0`, a result `mate n`)."""
    if table[0] == "mate" and abs(table[1]) <= near:
        # Found, for the same side, and no sooner than best play allows
        # (a search may find the winner a slower win than the fastest).
        return peer[0] == "mate" and peer[1] * table[1] > 0 and abs(peer[1]) >= abs(table[1])
    if peer[0] != "mate":
        return True
    # Further results only by their sign: a search that prunes may find
    # the winner a slower win than the fastest, or the loser a worse
    # defence than the best.
    return table[0] == "mate" and (peer[1] > 0) == (table[1] > 0)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--binary", default="target/release/antichess")
    parser.add_argument("--fsf", default="/usr/games/fairy-stockfish")
    parser.add_argument("--positions", type=int, default=150, help="per table")
    parser.add_argument("--depth", type=int, default=12, help="Fairy-Stockfish's depth")
    parser.add_argument("--near", type=int, default=3,
                        help="results this many moves away must be found exactly")
    args = parser.parse_args()
    rng = random.Random(2026)
    with tempfile.TemporaryDirectory() as tables:
        subprocess.run(
            [args.binary, "tables", tables, "--rules", "antichess1994", "--only", ",".join(MATERIALS)],
            check=True, stdout=subprocess.DEVNULL,
        )
        ours = Uci([args.binary], [("UCI_Variant", "antichess1994"), ("TablePath", tables)])
        peer = Uci([args.fsf], [("VariantPath", os.path.join(HERE, "antichess_variants.ini")),
                                ("UCI_Variant", "antichess1994")])
        checked = found = 0
        for material in MATERIALS:
            done = 0
            while done < args.positions:
                fen = random_fen(material, rng)
                if fen is None:
                    continue
                done += 1
                table = ours.score(fen, "depth 1")
                peer_score = peer.score(fen, f"depth {args.depth}")
                checked += 1
                found += table[0] == "mate" and peer_score == table
                ok = agree(table, peer_score, args.near)
                if not ok:
                    sys.exit(f"{material} {fen}: our table says {table}, Fairy-Stockfish {peer_score}")
        ours.close()
        peer.close()
    print(f"endgame tables: {checked} positions agree with Fairy-Stockfish ({found} results found by both)")


if __name__ == "__main__":
    main()
