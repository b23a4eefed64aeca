"""Problem SGF files: reading and validating.

A problem is one root node: ``SZ AB AW MA[target] PL[B|W]``, optional ``SQ[]``
stubs (points where the attacker's stones close holes in the wall) and optional
root variations listing correct first moves.  Every way a file can be unusable
raises :class:`ProblemError`, whose message names the file and the reason, so a
batch run can report it on one line and go on with the rest.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
from sgfmill import sgf

from .board import BLACK, EMPTY, MAX_SIZE, WHITE, Board, color_of_letter


class ProblemError(ValueError):
    """A problem file that cannot be solved, with the file and the reason."""

    def __init__(self, source: str, reason: str):
        super().__init__(f"{source}: {reason}")
        self.source = source
        self.reason = reason


def sgf_point(x: int, y: int) -> str:
    """SGF coordinates of column x, row y (row 0 at the top)."""
    return chr(ord("a") + x) + chr(ord("a") + y)


def parse_sgf_point(text: str) -> tuple[int, int]:
    return ord(text[0]) - ord("a"), ord(text[1]) - ord("a")


@dataclass(frozen=True)
class Problem:
    """An enclosed life-and-death problem as read from SGF.

    ``stones`` is a size×size int8 array indexed [y, x] (EMPTY/BLACK/WHITE)
    with the ``SQ`` stubs already placed as attacker stones.
    """

    source: str
    size: int
    stones: np.ndarray
    target: tuple[int, int]
    to_play: int | None
    first_moves: tuple[tuple[int, int], ...] = ()
    stubs: tuple[tuple[int, int], ...] = ()
    properties: dict = field(default_factory=dict)

    @property
    def defender(self) -> int:
        return int(self.stones[self.target[1], self.target[0]])

    @property
    def attacker(self) -> int:
        return 3 - self.defender

    def board(self) -> Board:
        board = Board(self.size)
        for y, x in zip(*np.nonzero(self.stones)):
            board.place(int(x), int(y), int(self.stones[y, x]))
        return board


def _from_sgfmill(row: int, col: int, size: int) -> tuple[int, int]:
    return col, size - 1 - row


def parse_problem(data: bytes, source: str = "<sgf>", require_to_play: bool = True) -> Problem:
    """Parse and validate one problem; raises ProblemError naming ``source``."""
    return problem_from_game(read_sgf(data, source), source, require_to_play)


def read_sgf(data: bytes, source: str) -> sgf.Sgf_game:
    try:
        return sgf.Sgf_game.from_bytes(data)
    except ValueError as exc:
        raise ProblemError(source, f"not a valid SGF file ({exc})") from None


def problem_from_game(game: sgf.Sgf_game, source: str, require_to_play: bool = True) -> Problem:
    """Validate a parsed SGF game as a problem (for callers that read more properties)."""
    root = game.get_root()
    try:
        size = game.get_size()
    except ValueError as exc:
        raise ProblemError(source, f"bad SZ ({exc})") from None
    if size > MAX_SIZE:
        raise ProblemError(source, f"board size {size} is larger than {MAX_SIZE}")

    try:
        black, white, _ = root.get_setup_stones()
        marks = root.get("MA") if root.has_property("MA") else set()
        stubs = root.get("SQ") if root.has_property("SQ") else set()
        to_play = None
        # An empty PL[] says no more than a missing one: who moves first is not given.
        if root.has_property("PL") and root.get_raw("PL").strip():
            raw = root.get_raw("PL").strip()
            if raw.lower() not in (b"b", b"w"):
                raise ProblemError(source, f"PL[{raw.decode(errors='replace')}] must be B or W")
            to_play = raw.upper().decode()
    except ValueError as exc:
        if isinstance(exc, ProblemError):
            raise
        raise ProblemError(source, f"unreadable property ({exc})") from None

    both = black & white
    if both:
        x, y = _from_sgfmill(*min(both), size)
        raise ProblemError(source, f"point {sgf_point(x, y)} is both in AB and AW")
    stones = np.zeros((size, size), dtype=np.int8)
    for points, color in ((black, BLACK), (white, WHITE)):
        for row, col in points:
            x, y = _from_sgfmill(row, col, size)
            stones[y, x] = color

    if not marks:
        raise ProblemError(source, "no MA[] property: the target group is not marked")
    if len(marks) > 1:
        raise ProblemError(source, f"MA[] marks {len(marks)} points; the target must be one stone")
    target = _from_sgfmill(*next(iter(marks)), size)
    defender = int(stones[target[1], target[0]])
    if defender == EMPTY:
        raise ProblemError(source, f"MA[{sgf_point(*target)}] is on an empty point, not on a stone")
    if to_play is None and require_to_play:
        raise ProblemError(source, "no PL[] property (or an empty one): who moves first is not given")

    stub_points = []
    for row, col in sorted(stubs):
        x, y = _from_sgfmill(row, col, size)
        if stones[y, x] != EMPTY:
            raise ProblemError(source, f"SQ[{sgf_point(x, y)}] stub is on an occupied point")
        stones[y, x] = 3 - defender
        stub_points.append((x, y))

    first_moves = []
    for child in root:
        colour, point = child.get_move()
        if colour is not None and point is not None:
            first_moves.append(_from_sgfmill(*point, size))

    problem = Problem(
        source=source,
        size=size,
        stones=stones,
        target=target,
        to_play=color_of_letter(to_play) if to_play else None,
        first_moves=tuple(first_moves),
        stubs=tuple(stub_points),
        properties={"GN": root.get("GN")} if root.has_property("GN") else {},
    )
    _check_legal(problem)
    return problem


def _check_legal(problem: Problem) -> None:
    board = problem.board()
    checked = set()
    for y, x in zip(*np.nonzero(problem.stones)):
        point = (int(x), int(y))
        if point in checked:
            continue
        if board.liberties(*point, cap=1) == 0:
            raise ProblemError(problem.source,
                               f"illegal position: the block at {sgf_point(*point)} has no liberties")
        checked.update(board.block(*point))


def load_problem(path: str | Path, require_to_play: bool = True) -> Problem:
    path = Path(path)
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise ProblemError(str(path), f"cannot read the file ({exc.strerror})") from None
    return parse_problem(data, str(path), require_to_play)
