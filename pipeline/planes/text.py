"""Every plane of one subproblem as text, so a person can check a plane by eye.

``tsumego features --show FILE.sgf`` prints the position, then each plane as a
board of ``.`` (0) and ``#`` (1) with Go coordinates on the edges (columns
A-T without I, rows numbered from the bottom), in the order of ``pipeline.planes``.
"""
from __future__ import annotations

import numpy as np

from pipeline.planes import board_planes, plane_names
from solver.board import BLACK, EMPTY, WHITE, color_letter
from solver.coordinates import GO_COLUMNS, go_point
from solver.problem import sgf_point

COLUMNS_PER_ROW = 4   # planes printed side by side


def _grid(cells: np.ndarray, glyph) -> list[str]:
    size = cells.shape[0]
    rows = ["   " + GO_COLUMNS[:size]]
    for y in range(size):
        rows.append(f"{size - y:>2} " + "".join(glyph(int(v)) for v in cells[y]))
    return rows


def _plane_glyph(value: int) -> str:
    return "." if value == 0 else "#" if value == 1 else str(min(value, 9))


def planes_text(sub) -> str:
    """The position and its planes; ``sub`` is a :class:`pipeline.formats.subproblem.Subproblem`."""
    tx, ty = sub.target
    defender = int(sub.stones[ty, tx])
    first = "defender" if sub.to_play == defender else "attacker"
    labels = [f"{color_letter(sub.to_play)} to play ({first} first)",
              f"target {go_point(tx, ty, sub.size)} ({color_letter(defender)})"]
    if sub.safe is not None:
        labels.append(f"TS[{int(sub.safe)}]")
    if sub.available_moves is not None:
        labels.append(f"AS[{sub.available_moves}]")
    if sub.best_move is not None:
        labels.append(f"TR[{sgf_point(*sub.best_move)}] ({go_point(*sub.best_move, sub.size)})")
    stone = {EMPTY: ".", BLACK: "X", WHITE: "O"}
    board = _grid(sub.stones, stone.__getitem__)
    board[1 + ty] = board[1 + ty][:3 + tx] + stone[defender].lower() + board[1 + ty][4 + tx:]
    lines = [f"{sub.size}x{sub.size}, " + ", ".join(labels), ""] + board + [""]

    planes = board_planes(sub)
    names = plane_names()
    titles = [f"{k}:{name}" for k, name in enumerate(names)]
    width = max(sub.size + 3, *(len(t) for t in titles))
    for start in range(0, len(names), COLUMNS_PER_ROW):
        chunk = range(start, min(start + COLUMNS_PER_ROW, len(names)))
        grids = [_grid(planes[..., k], _plane_glyph) for k in chunk]
        lines.append("   ".join(titles[k].ljust(width) for k in chunk).rstrip())
        for row in zip(*grids):
            lines.append("   ".join(r.ljust(width) for r in row).rstrip())
        lines.append("")
    return "\n".join(lines)
