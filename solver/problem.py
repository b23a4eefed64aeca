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
from sgfmill import sgf, sgf_grammar

from .board import BLACK, EMPTY, MAX_SIZE, WHITE, Board, color_of_letter


class ProblemError(ValueError):
    """A problem file that cannot be solved, with the file and the reason."""

    def __init__(self, source: str, reason: str):
        super().__init__(f"{source}: {reason}")
        self.source = source
        self.reason = reason


def reason_of(exc: Exception) -> str:
    """Why a file could not be used, on one line, for a batch that names the file and goes on.

    The readers raise ProblemError for every fault of a file they know of; the
    other branches keep a batch going past a failure nobody foresaw (an
    unreadable file, a fault of the program), naming the exception.
    """
    if isinstance(exc, ProblemError):
        return exc.reason
    if isinstance(exc, OSError) and exc.strerror:
        return f"cannot read the file ({exc.strerror})"
    lines = str(exc).splitlines()
    return f"unforeseen failure ({type(exc).__name__}{': ' + lines[0] if lines else ''})"


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


def parse_problem(data: bytes, source: str = "<sgf>", require_to_play: bool = True) -> Problem:
    """Parse and validate one problem; raises ProblemError naming ``source``."""
    return problem_from_game(read_sgf(data, source), source, require_to_play)


def read_sgf(data: bytes, source: str) -> sgf.Sgf_game:
    """The first game of an SGF file, its ``SZ`` and ``CA`` checked (sgfmill reads both to build it)."""
    try:
        coarse = sgf_grammar.parse_sgf_game(data)
    except ValueError as exc:
        raise ProblemError(source, f"not a valid SGF file ({exc})") from None
    root = coarse.sequence[0]
    if "SZ" in root:
        raw = single_value(root["SZ"], "SZ", source)
        if not raw.isdigit() or len(raw) > 2 or int(raw) < 1:
            raise ProblemError(source, f"SZ[{shown(raw)}] is not a board size")
        if int(raw) > MAX_SIZE:
            raise ProblemError(source, f"board size {int(raw)} is larger than {MAX_SIZE}")
    try:
        return sgf.Sgf_game.from_coarse_game_tree(coarse)
    except (ValueError, LookupError):   # SZ is checked: the encoding CA names is unknown
        raise ProblemError(source, f"CA[{shown(root.get('CA', [b''])[0])}] is not a known text encoding") from None


def shown(raw: bytes, limit: int = 24) -> str:
    """A raw value as a message quotes it: printable ASCII on one line, cut at ``limit`` bytes."""
    text = raw[:limit].decode("ascii", "backslashreplace")
    text = "".join(c if c.isprintable() else c.encode("unicode_escape").decode() for c in text)
    return text + ("..." if len(raw) > limit else "")


def single_value(values: list[bytes], prop: str, source: str) -> bytes:
    """The value of a property that takes one (``GN[a][b]``, or ``GN[a]GN[b]`` which sgfmill merges, is refused)."""
    if len(values) != 1:
        raise ProblemError(source, f"{prop}{''.join(f'[{shown(v)}]' for v in values[:3])} "
                                   "has more than one value")
    return values[0]


def point_of(raw: bytes, prop: str, size: int, source: str) -> tuple[int, int]:
    """(x, y) of an SGF point, two letters from ``a`` for the column and the row, on the board."""
    if len(raw) != 2 or not all(ord("a") <= c <= ord("z") for c in raw):
        raise ProblemError(source, f"{prop}[{shown(raw)}] is not a point")
    x, y = parse_sgf_point(raw.decode())
    if not (x < size and y < size):
        raise ProblemError(source, f"{prop}[{shown(raw)}] is off the board")
    return x, y


def point_list(root, prop: str, size: int, source: str) -> set[tuple[int, int]]:
    """Every point of a point-list property (``AB AW MA SQ``), compressed ``aa:cc`` rectangles included."""
    points = set()
    # Each distinct value once, in the file's order: a huge list of repeats reads as fast as one.
    for raw in dict.fromkeys(root.get_raw_list(prop) if root.has_property(prop) else []):
        first, colon, last = raw.partition(b":")
        x0, y0 = point_of(first, prop, size, source)
        x1, y1 = point_of(last, prop, size, source) if colon else (x0, y0)
        points.update((x, y) for x in range(min(x0, x1), max(x0, x1) + 1)
                      for y in range(min(y0, y1), max(y0, y1) + 1))
    return points


def _root_variation_move(child, size: int, source: str) -> tuple[int, int] | None:
    """The point of a root variation's move; None for a pass or a node without a move."""
    colours = [c for c in ("B", "W") if child.has_property(c)]
    if len(colours) > 1:
        raise ProblemError(source, "a root variation holds both B[] and W[]")
    if not colours:
        return None
    prop = f"root variation {colours[0]}"
    raw = single_value(child.get_raw_list(colours[0]), prop, source)
    if raw == b"" or (raw == b"tt" and size <= 19):    # a pass (``tt`` in FF[3])
        return None
    return point_of(raw, prop, size, source)


def _text(game: sgf.Sgf_game, prop: str, source: str) -> str | None:
    """A one-valued text property decoded by the file's encoding (``CA``), or None when absent."""
    root = game.get_root()
    if not root.has_property(prop):
        return None
    raw = single_value(root.get_raw_list(prop), prop, source)
    try:
        return root.get(prop)
    except ValueError:   # bytes the encoding cannot decode
        raise ProblemError(source, f"{prop}[{shown(raw)}] is not text in the file's encoding "
                                   f"({game.get_charset()})") from None


def _row_major(point: tuple[int, int]) -> tuple[int, int]:
    """Point-list properties are sets: this orders them, bottom row first, then left to right
    (the order of ``Problem.stubs``, and which of two doubled points a message names)."""
    x, y = point
    return -y, x


def problem_from_game(game: sgf.Sgf_game, source: str, require_to_play: bool = True) -> Problem:
    """Validate a parsed SGF game as a problem (for callers that read more properties).

    Every property read is checked here (``SZ`` and ``CA`` by :func:`read_sgf`):
    each way a file can be wrong is a ProblemError naming the property.
    """
    root = game.get_root()
    size = game.get_size()
    black = point_list(root, "AB", size, source)
    white = point_list(root, "AW", size, source)
    marks = point_list(root, "MA", size, source)
    stubs = point_list(root, "SQ", size, source)
    to_play = None
    # An empty PL[] says no more than a missing one: who moves first is not given.
    if root.has_property("PL"):
        raw = single_value(root.get_raw_list("PL"), "PL", source).strip()
        if raw and raw.lower() not in (b"b", b"w"):
            raise ProblemError(source, f"PL[{shown(raw)}] must be B or W")
        to_play = raw.upper().decode() or None
    name = _text(game, "GN", source)

    both = black & white
    if both:
        raise ProblemError(source, f"point {sgf_point(*min(both, key=_row_major))} is both in AB and AW")
    stones = np.zeros((size, size), dtype=np.int8)
    for points, color in ((black, BLACK), (white, WHITE)):
        for x, y in points:
            stones[y, x] = color

    if not marks:
        raise ProblemError(source, "no MA[] property: the target group is not marked")
    if len(marks) > 1:
        raise ProblemError(source, f"MA[] marks {len(marks)} points; the target must be one stone")
    target = next(iter(marks))
    defender = int(stones[target[1], target[0]])
    if defender == EMPTY:
        raise ProblemError(source, f"MA[{sgf_point(*target)}] is on an empty point, not on a stone")
    if to_play is None and require_to_play:
        raise ProblemError(source, "no PL[] property (or an empty one): who moves first is not given")

    stub_points = []
    for x, y in sorted(stubs, key=_row_major):
        if stones[y, x] != EMPTY:
            raise ProblemError(source, f"SQ[{sgf_point(x, y)}] stub is on an occupied point")
        stones[y, x] = 3 - defender
        stub_points.append((x, y))

    first_moves = [move for move in (_root_variation_move(child, size, source) for child in root)
                   if move is not None]

    problem = Problem(
        source=source,
        size=size,
        stones=stones,
        target=target,
        to_play=color_of_letter(to_play) if to_play else None,
        first_moves=tuple(first_moves),
        stubs=tuple(stub_points),
        properties={} if name is None else {"GN": name},
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
