"""The games of the PGN files `antichess match --pgn` writes, and the Elo
of a score, for the scripts that read matches back (clock_use.py,
pgn_score.py, research/score_marks.py, research/stuck_endings.py)."""

import math
import re

TAG = re.compile(r'^\[(\w+) "(.*)"\]$', re.M)
WHITE_POINTS = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}


def games(paths):
    """(tags, movetext) of every game in the files, in order."""
    for path in paths:
        with open(path, encoding="utf-8") as f:
            text = f.read()
        for chunk in text.split("\n\n[Event "):
            tags = dict(TAG.findall(chunk))
            if "Result" in tags:
                movetext = chunk.split("\n\n", 1)[1] if "\n\n" in chunk else ""
                yield tags, movetext


def is_ours(name):
    """Our engine, by default: the player that is not Stockfish."""
    return "stockfish" not in name.lower()


def points(tags, player):
    """The points of the side whose name `player` accepts (1, ½ or 0), or
    None when neither side is it or the game has no result."""
    white = WHITE_POINTS.get(tags.get("Result", "*"))
    if white is None:
        return None
    if player(tags.get("White", "")):
        return white
    if player(tags.get("Black", "")):
        return 1.0 - white
    return None


# The referee's words for a game lost on time, in the result's comment.
ON_TIME = "lost on time"


def long_flag(tags, movetext, plies=300):
    """Whether the game was won on time after more than `plies` plies: a
    stalled ending the goal counts as drawn rather than won."""
    try:
        length = int(tags.get("PlyCount", "0"))
    except ValueError:
        return False
    return length > plies and ON_TIME in movetext


def elo(score):
    """The Elo difference of a score share, clamped off 0 and 1."""
    score = min(max(score, 1e-6), 1 - 1e-6)
    return -400 * math.log10(1 / score - 1)
