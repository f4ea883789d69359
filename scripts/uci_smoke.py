#!/usr/bin/env python3
"""Checks that python-chess can drive the engine in UCI mode.

python-chess is a strict UCI client: it reads `id`/`option` lines, sets
options, sends positions with move lists, parses `info` lines and checks
that every `bestmove` is legal. This plays a short chess game against
itself on a clock, analyses with depth and node limits, stops an infinite
analysis, and plays a few antichess moves through `UCI_Variant` (python's
antichess rules differ from 6.170's in the king, so the game is short and
only moves legal under both are kept).

    pip install chess && scripts/uci_smoke.py [--binary target/release/antichess]
"""

import argparse
import sys

import chess
import chess.engine
import chess.variant


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--binary", default="target/release/antichess")
    parser.add_argument("--plies", type=int, default=40)
    args = parser.parse_args()

    engine = chess.engine.SimpleEngine.popen_uci(args.binary, timeout=30)
    try:
        assert engine.id["name"].startswith("antichess"), engine.id
        variants = engine.options["UCI_Variant"].var
        assert {"antichess", "antichess1994", "chess"} <= set(variants), variants
        engine.configure({"Hash": 16, "Threads": 1})

        # A game on the clock: every bestmove must be legal for python-chess.
        board = chess.Board()
        clock = chess.engine.Limit(white_clock=5.0, black_clock=5.0, white_inc=0.05, black_inc=0.05)
        while not board.is_game_over() and board.ply() < args.plies:
            result = engine.play(board, clock, info=chess.engine.INFO_ALL)
            assert result.move in board.legal_moves, result.move
            board.push(result.move)
        print(f"chess: {board.ply()} plies, {board.result(claim_draw=True)}: {board.fen()}")

        # Analysis with depth and node limits; info lines are parsed.
        info = engine.analyse(chess.Board(), chess.engine.Limit(depth=6))
        assert info["depth"] >= 6 and "score" in info and info["pv"], info
        info = engine.analyse(chess.Board(), chess.engine.Limit(nodes=5000))
        assert "pv" in info, info
        print(f"analysis: depth {info['depth']} score {info['score']} pv {info['pv'][:3]}")

        # A mate is reported as such.
        mate = chess.Board("6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1")
        info = engine.analyse(mate, chess.engine.Limit(depth=4))
        assert info["score"].white() == chess.engine.Mate(1), info["score"]

        # An infinite analysis ends on stop.
        with engine.analysis(chess.Board()) as analysis:
            for info in analysis:
                if info.get("depth", 0) >= 3:
                    break
        print("infinite analysis stopped at depth", info.get("depth"))

        # Antichess through UCI_Variant.
        anti = chess.variant.AntichessBoard()
        anti.castling_rights = 0
        for _ in range(6):
            if anti.is_game_over():
                break
            result = engine.play(anti, chess.engine.Limit(time=0.05))
            assert result.move in anti.legal_moves, result.move
            anti.push(result.move)
        print(f"antichess: {anti.ply()} plies: {anti.fen()}")
    finally:
        engine.quit()
    print("ok")


if __name__ == "__main__":
    sys.exit(main())
