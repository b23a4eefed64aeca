"""Snapbacks, found atari-first: only blocks a throw-in puts in atari are candidates.

A throw-in at ``t`` is a snapback when the stone (block) played there can be
captured, and capturing it leaves the capturing block in atari, so the
thrower recaptures the whole block at once.  The capture happens at the
throw-in block's last liberty ``c``; for the capturing block to end in atari,
every block it joins must already be in atari at ``c`` once the throw-in is
played.  So the only candidates are the opponent's blocks that the throw-in
puts in atari: blocks with exactly two liberties now, ``t`` and ``c``.  Each
is checked by playing the three moves; no other move is ever tried.

False friends fail one of the checks: the recapture fails when the capturing
block keeps a second liberty; a throw-in of two or more stones usually gives
the capturing block a liberty per captured stone, and it gets out.
"""
from __future__ import annotations

import numpy as np

from .jit import kernel
from .board import BLACK, WHITE, Board
from .ladder import play_on, undo_on
from .reading import R_CELLS, R_LIBS, R_SEEN, R_STACK, flood, next_seen_stamp, reading_for


@kernel
def _append_new(out, m, p):
    for i in range(m):
        if out[i] == p:
            return m
    out[m] = p
    return m + 1


@kernel
def throw_in_snapbacks(ctx, group, color, out, m):
    """Append to out[m:] the liberties of ``group`` where ``color`` throws in for a snapback.

    ``group`` is an opponent block; it is a candidate only with exactly two
    liberties.  Returns the new count.
    """
    libs = ctx[R_LIBS]
    _, k = flood(ctx, group)
    if k != 2:
        return m
    first, second = libs[0], libs[1]
    opponent = 3 - color
    for throw, capture in ((first, second), (second, first)):
        if play_on(ctx, throw, color) != 0:
            # Illegal, or a capture (then it is no throw-in).
            if ctx[R_CELLS][throw] == color:
                undo_on(ctx)
            continue
        _, k = flood(ctx, throw)
        if k == 1 and libs[0] == capture and play_on(ctx, capture, opponent) > 0:
            _, k = flood(ctx, capture)
            if k == 1:
                m = _append_new(out, m, throw)
            undo_on(ctx)
        undo_on(ctx)
    return m


@kernel
def snapback_moves(ctx, color, out):
    """Every snapback throw-in of ``color`` into out[:m]; returns m."""
    cells = ctx[R_CELLS]
    seen = ctx[R_SEEN]
    stack = ctx[R_STACK]
    opponent = 3 - color
    stamp = next_seen_stamp(ctx)
    m = np.int64(0)  # not a literal 0, which numba would compile a callee for again
    for p in range(cells.size):
        if cells[p] != opponent or seen[p] == stamp:
            continue
        n, _ = flood(ctx, p)
        for i in range(n):
            seen[stack[i]] = stamp
        m = throw_in_snapbacks(ctx, p, color, out, m)
    return m


def snapback_points(board: Board, color: int) -> list[tuple[int, int]]:
    """The points where ``color`` throws in for a snapback, sorted by (y, x)."""
    if color not in (BLACK, WHITE):
        raise ValueError(f"color must be BLACK or WHITE, not {color}")
    ctx = reading_for(board).context
    out = np.zeros(board.cells.size, dtype=np.int64)
    m = snapback_moves(ctx, color, out)
    return sorted((board.xy(int(p)) for p in out[:m]), key=lambda xy: (xy[1], xy[0]))
