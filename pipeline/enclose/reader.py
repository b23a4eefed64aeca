"""Open-board problem files: a 19×19 corner or side as a book prints it.

``SZ[19] PL[B|W] AB AW``, the book's first moves as root variations
(``(;B[ba])``), ``GN`` and ``C`` optional; no ``MA``, no wall.  Every way a
file can be unusable raises :class:`solver.ProblemError` with a one-line
reason, so a batch names the file and goes on.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from pipeline.enclose.frame import Point, blocks, liberties
from solver import BLACK, WHITE, ProblemError
from solver.problem import point_list, point_of, read_sgf, shown, single_value

SIZE = 19
# Stones spread wider than this both ways make a whole-board position, not a corner or a
# side problem (the published problems span at most 10 lines in their narrower direction).
MAX_SPREAD = 12


@dataclass(frozen=True)
class OpenProblem:
    stones: np.ndarray            # [y, x]: EMPTY, BLACK or WHITE
    to_play: int
    book: tuple[Point, ...]       # the book's first moves, in the file's order
    name: str
    caption: str


def _text(root, prop: str) -> str:
    try:
        return root.get(prop) if root.has_property(prop) else ""
    except ValueError:     # undecodable bytes: a caption is not worth rejecting the problem for
        return ""


def read_open_problem(data: bytes, source: str) -> OpenProblem:
    game = read_sgf(data, source)
    root = game.get_root()
    if game.get_size() != SIZE:
        raise ProblemError(source, f"board size {game.get_size()}: open-board problems are {SIZE}×{SIZE}")
    if not root.has_property("PL"):
        raise ProblemError(source, "no PL[] property: the side to play is not given")
    raw = single_value(root.get_raw_list("PL"), "PL", source).strip().upper()
    if raw not in (b"B", b"W"):
        raise ProblemError(source, f"PL[{shown(raw)}] must be B or W")
    to_play = BLACK if raw == b"B" else WHITE
    black, white = point_list(root, "AB", SIZE, source), point_list(root, "AW", SIZE, source)
    if black & white:
        raise ProblemError(source, "a point is both in AB and AW")
    if not black or not white:
        raise ProblemError(source, "no stones of " + ("either colour" if not black and not white else
                                                       "Black" if not black else "White") + " on the board")
    stones = np.zeros((SIZE, SIZE), dtype=np.int8)
    for points, color in ((black, BLACK), (white, WHITE)):
        for x, y in points:
            stones[y, x] = color
    ys, xs = np.nonzero(stones)
    width, height = int(xs.max() - xs.min()) + 1, int(ys.max() - ys.min()) + 1
    if min(width, height) > MAX_SPREAD:
        raise ProblemError(source, f"the stones spread over {width}×{height} lines: "
                                   "not a corner or side problem")
    for color in (BLACK, WHITE):
        for block in blocks(stones, color):
            if not liberties(stones, block):
                x, y = min(block, key=lambda p: (p[1], p[0]))
                raise ProblemError(source, f"illegal position: the block at {chr(97 + x)}{chr(97 + y)} "
                                           "has no liberties")
    book = []
    for child in root:
        for prop in ("B", "W"):
            if child.has_property(prop):
                move = single_value(child.get_raw_list(prop), f"root variation {prop}", source)
                if move == b"":
                    raise ProblemError(source, f"root variation {prop}[] is a pass: the book gives no move")
                x, y = point_of(move, f"root variation {prop}", SIZE, source)
                if prop != raw.decode():
                    raise ProblemError(source, f"root variation {prop}[{shown(move)}] is not a move "
                                               f"of the side to play")
                if stones[y, x]:
                    raise ProblemError(source, f"root variation {prop}[{shown(move)}] "
                                               "is on an occupied point")
                book.append((x, y))
    if not book:
        raise ProblemError(source, "no root variation: the book's first move is not given")
    return OpenProblem(stones=stones, to_play=to_play, book=tuple(dict.fromkeys(book)),
                       name=_text(root, "GN"), caption=_text(root, "C"))
