"""A position put to tsumego.js: cut to the board it reads, written as a problem SGF.

tsumego.js 1.1.0 reads boards up to 16×16.  A position whose stones lie in a
corner at the origin (GoTools' corners and sides, the book problems as
``enclose`` frames them) is cut to the smallest board that holds its stones and
``MARGIN`` empty lines more, so that the wall keeps liberties outside the
search area as on the full board.
"""
from __future__ import annotations

import numpy as np

from pipeline.formats.sgf_writer import stone_points
from solver.board import BLACK, WHITE
from solver.problem import sgf_point

MAX_SIZE = 16
MARGIN = 2


def cut_sgf(stones: np.ndarray, to_play: int, target: tuple[int, int]) -> tuple[str | None, str]:
    """(the SGF, "") for ``stones`` ([y, x]) with ``to_play`` first and ``target`` marked,
    or (None, why not: the board it would need)."""
    ys, xs = np.nonzero(stones)
    size = int(max(xs.max(), ys.max())) + 1 + MARGIN
    if size > MAX_SIZE:
        return None, f"{size} lines, over its {MAX_SIZE}"
    cut = stones[:size, :size]
    sgf = (f"(;FF[4]SZ[{size}]PL[{'B' if to_play == BLACK else 'W'}]"
           f"AB{''.join(f'[{p}]' for p in stone_points(cut, BLACK))}"
           f"AW{''.join(f'[{p}]' for p in stone_points(cut, WHITE))}MA[{sgf_point(*target)}])")
    return sgf, ""
