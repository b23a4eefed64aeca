"""Go coordinates, as players, GTP and every Go program write them: ``C17``.

The column is a letter from ``A`` leaving out ``I`` (so that it is never read
as a ``J`` or a ``1``), the row a number counted from the bottom of the board:
on 19×19 the top-left corner is ``A19``, the bottom-right ``T1``.  The
project's arrays are indexed ``[y, x]`` with row 0 at the top, as SGF is, so
the row printed is ``size - y``.  SGF's letters (``bc``) stay in files and in
``--json`` beside these.
"""
from __future__ import annotations

import re

#: the column letters, A to Z without I: 25 columns, the largest board SGF allows
GO_COLUMNS = "ABCDEFGHJKLMNOPQRSTUVWXYZ"

_GO_POINT = re.compile(r"([A-HJ-Za-hj-z])(\d{1,2})")


def go_point(x: int, y: int, size: int) -> str:
    """The Go coordinate of column ``x``, row ``y`` (row 0 at the top) on a ``size`` board."""
    if not (0 <= x < size and 0 <= y < size and size <= len(GO_COLUMNS)):
        raise ValueError(f"point ({x}, {y}) is off a {size}×{size} board")
    return f"{GO_COLUMNS[x]}{size - y}"


def go_move(move, size: int) -> str:
    """A move as (x, y), ``"pass"`` or None, in words for the text a player reads."""
    if move is None:
        return "-"
    if move == "pass":
        return "pass"
    return go_point(*move, size)


def parse_go_point(text: str, size: int) -> tuple[int, int]:
    """``(x, y)`` of a Go coordinate such as ``D4`` or ``q16`` (case ignored); ValueError,
    naming the text, for anything else or a point off the board."""
    match = _GO_POINT.fullmatch(text.strip())
    if not match:
        raise ValueError(f"{text!r} is not a Go coordinate (a column letter A-T without I, then "
                         f"a row number from the bottom: D4, Q16)")
    x = GO_COLUMNS.index(match.group(1).upper())
    row = int(match.group(2))
    if x >= size or not 1 <= row <= size:
        raise ValueError(f"{text} is off a {size}×{size} board")
    return x, size - row
