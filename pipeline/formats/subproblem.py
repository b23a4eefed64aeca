"""Subproblem SGF files: the labelled positions ``solve-all`` writes.

One root node per file, with the annotations of the original pipeline's
subproblem files (``TS DS AS TR``) so the files stay interoperable with its
tools::

    (;FF[4]GM[1]SZ[9]GN[source]PL[B]AB[..]AW[..]MA[xy]TS[1]DS[0]AS[7]TR[xy])

``TS`` is 1 when the target is safe with ``PL`` moving first, ``DS`` is 1 when
``PL`` is the defender, ``AS`` counts the available moves (empty points of the
search area, the "size" of the reports) and ``TR`` is PL's winning move when PL
wins with a move on the board.  ``EB`` and ``EW``, when given, are the end
state: the points Black and White hold once the solver's principal variation
has been played out (every other point empty); tools that do not know them
ignore them.  The text is written by
:mod:`pipeline.formats.sgf_writer` in a fixed property order, so the same
position always gives the same bytes; the file name is a hash of the position
alone (not of ``GN``), so a position reached from two problems is one file.
"""
from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from numba import njit

from pipeline.formats.sgf_writer import (Property, collection, escape_text, game_tree, node, properties_text,
                                         stone_points)
from solver.board import BLACK, EMPTY, MAX_SIZE, WHITE, color_letter
from solver.problem import (Problem, ProblemError, point_of, problem_from_game, read_sgf, sgf_point, shown,
                            single_value)


@dataclass(frozen=True)
class Subproblem:
    """A labelled position; ``stones`` is size×size int8 indexed [y, x]."""

    size: int
    stones: np.ndarray
    target: tuple[int, int]
    to_play: int
    safe: bool | None = None
    available_moves: int | None = None
    best_move: tuple[int, int] | None = None
    source: str = ""
    # The board at the end of the principal variation (size×size int8 [y, x] of
    # EMPTY/BLACK/WHITE), or None when the file gives none.
    end_state: np.ndarray | None = None

    @property
    def defender(self) -> int:
        return int(self.stones[self.target[1], self.target[0]])

    @property
    def defender_first(self) -> bool:
        return self.to_play == self.defender

    def _setup(self) -> list[Property]:
        """Who moves first, the stones and the target: the position after ``SZ``."""
        return [("PL", [color_letter(self.to_play)]), ("AB", stone_points(self.stones, BLACK)),
                ("AW", stone_points(self.stones, WHITE)), ("MA", [sgf_point(*self.target)])]

    def position_text(self) -> str:
        """The position and who moves first: what the file name hashes."""
        return properties_text([("SZ", [str(self.size)])] + self._setup())

    def name(self) -> str:
        """Content-hash file name (16 hex digits of SHA-256 of the position)."""
        return hashlib.sha256(self.position_text().encode()).hexdigest()[:16] + ".sgf"

    def root_node(self) -> str:
        """The file's one node, also the root of a solution tree (``pipeline.formats.solution_tree``)."""
        labels = [("TS", [] if self.safe is None else [str(int(self.safe))]),
                  ("DS", [str(int(self.defender_first))]),
                  ("AS", [] if self.available_moves is None else [str(self.available_moves)]),
                  ("TR", [] if self.best_move is None else [sgf_point(*self.best_move)])]
        if self.end_state is not None:
            labels += [("EB", stone_points(self.end_state, BLACK) or [""]),
                       ("EW", stone_points(self.end_state, WHITE) or [""])]
        head = [("FF", ["4"]), ("GM", ["1"]), ("SZ", [str(self.size)]), ("GN", [escape_text(self.source)])]
        return node(head + self._setup() + labels)

    def to_sgf(self) -> str:
        return collection([game_tree([self.root_node()])])

    def problem(self, source: str) -> Problem:
        """The position as the solver's problem, for its checks (:func:`solver.search_area`)."""
        return Problem(source=source, size=self.size, stones=self.stones, target=self.target,
                       to_play=self.to_play)


def parse_subproblem(data: bytes, source: str = "<sgf>") -> Subproblem:
    """Read a subproblem; raises ProblemError naming ``source`` and the label.

    The labels are optional (a problem file reads as an unlabelled
    subproblem), but each one given must hold one well-formed value that agrees
    with the position and the other labels.

    A file exactly as :meth:`Subproblem.to_sgf` writes it, and sound, is read
    by :func:`read_written_subproblem` (a tenth of sgfmill's time, which was
    the features stage's largest cost); any other file, and every file with a
    fault, by :func:`parse_with_sgfmill`, which names the fault.  Both give the
    same subproblem (``tests/test_subproblem.py`` holds them to it).
    """
    return read_written_subproblem(data) or parse_with_sgfmill(data, source)


# A subproblem file byte for byte as Subproblem.to_sgf writes it: the properties in its
# order, each value as it writes it (SZ and AS without leading zeros, GN printable ASCII
# that needs no escape).  The groups: SZ GN PL AB AW MA TS DS AS TR EB EW.
_WRITTEN = re.compile(
    rb"\(;FF\[4\]GM\[1\]SZ\[([1-9][0-9]?)\]GN\[([\x20-\x5b\x5e-\x7e]*)\]PL\[([BW])\]"
    rb"(?:AB((?:\[[a-z]{2}\])+))?(?:AW((?:\[[a-z]{2}\])+))?MA\[([a-z]{2})\]"
    rb"(?:TS\[([01])\])?DS\[([01])\](?:AS\[(0|[1-9][0-9]{0,2})\])?(?:TR\[([a-z]{2})\])?"
    rb"(?:EB(\[\]|(?:\[[a-z]{2}\])+)EW(\[\]|(?:\[[a-z]{2}\])+))?\)\n")
_A = ord("a")


def _written_points(values: bytes | None, size: int) -> list[int] | None:
    """Row-major indices ``y * size + x`` of ``[xy][xy]...`` (``[]``: none), or None unless every
    point is on the board and they come in the order ``stone_points`` writes (so none twice)."""
    if values is None or values == b"[]":
        return []
    xs, ys = values[1::4], values[2::4]
    if max(xs) - _A >= size or max(ys) - _A >= size:
        return None
    points = [(y - _A) * size + x - _A for x, y in zip(xs, ys)]
    return points if points == sorted(set(points)) else None


@njit(cache=True)
def _every_block_breathes(stones):
    """Whether every block (4-connected stones of one colour) of ``stones`` [y, x] has a liberty."""
    rows, cols = stones.shape
    flat = stones.ravel()
    seen = np.zeros(rows * cols, dtype=np.uint8)
    queue = np.empty(rows * cols, dtype=np.int64)
    for start in range(rows * cols):
        color = flat[start]
        if color == EMPTY or seen[start]:
            continue
        seen[start] = 1
        queue[0] = start
        head, tail, breathes = 0, 1, False
        while head < tail:
            p = queue[head]
            head += 1
            y, x = p // cols, p % cols
            for q, inside in ((p - cols, y > 0), (p + cols, y < rows - 1), (p - 1, x > 0), (p + 1, x < cols - 1)):
                if inside:
                    if flat[q] == EMPTY:
                        breathes = True
                    elif flat[q] == color and not seen[q]:
                        seen[q] = 1
                        queue[tail] = q
                        tail += 1
        if not breathes:
            return False
    return True


def read_written_subproblem(data: bytes) -> Subproblem | None:
    """The subproblem of a file exactly as :meth:`Subproblem.to_sgf` writes it, without sgfmill;
    None for any other file and for one that :func:`parse_with_sgfmill` would refuse.

    It never raises: a file it does not take is read by :func:`parse_with_sgfmill`,
    which gives the reason.  A file it takes is the one ``to_sgf`` writes for the
    subproblem returned, so sgfmill reads it the same: every value is in the form
    the writer gives (which sgfmill reads as given: ASCII without escapes or
    whitespace other than spaces), and each check of the general reader is made
    here too (board size, points on the board, no point twice, the target on a
    stone, no block without liberties, the labels agreeing with each other).
    """
    found = _WRITTEN.fullmatch(data)
    if found is None:
        return None
    size_text, name, to_play_letter, black, white, mark, safe_text, ds_text, moves_text, best, \
        end_black, end_white = found.groups()
    size = int(size_text)
    if size > MAX_SIZE:
        return None
    black_points, white_points = _written_points(black, size), _written_points(white, size)
    target = _written_points(b"[" + mark + b"]", size)
    if black_points is None or white_points is None or target is None:
        return None
    stones = np.zeros((size, size), dtype=np.int8)
    flat = stones.reshape(-1)
    flat[black_points] = BLACK
    flat[white_points] = WHITE
    if np.count_nonzero(stones) != len(black_points) + len(white_points):
        return None   # a point in both AB and AW
    defender = int(flat[target[0]])
    if defender == EMPTY:
        return None
    if not _every_block_breathes(stones):
        return None   # an illegal position
    to_play = BLACK if to_play_letter == b"B" else WHITE
    if (ds_text == b"1") != (to_play == defender):
        return None
    safe = None if safe_text is None else safe_text == b"1"
    available_moves = None
    if moves_text is not None:
        available_moves = int(moves_text)
        if available_moves > size * size - len(black_points) - len(white_points):
            return None
    best_move = None
    if best is not None:
        point = _written_points(b"[" + best + b"]", size)
        if point is None or flat[point[0]] != EMPTY or (safe is not None and safe != (to_play == defender)):
            return None
        best_move = (point[0] % size, point[0] // size)
    end_state = None
    if end_black is not None:
        end_black_points, end_white_points = _written_points(end_black, size), _written_points(end_white, size)
        if end_black_points is None or end_white_points is None:
            return None
        end_state = np.zeros_like(stones)
        end_flat = end_state.reshape(-1)
        end_flat[end_black_points] = BLACK
        end_flat[end_white_points] = WHITE
        if np.count_nonzero(end_state) != len(end_black_points) + len(end_white_points):
            return None   # a point in both EB and EW
    return Subproblem(size=size, stones=stones, target=(target[0] % size, target[0] // size), to_play=to_play,
                      safe=safe, available_moves=available_moves, best_move=best_move,
                      source=name.decode("ascii"), end_state=end_state)


def parse_with_sgfmill(data: bytes, source: str = "<sgf>") -> Subproblem:
    """Read any subproblem or problem file through sgfmill; raises ProblemError naming
    ``source`` and the fault (see :func:`parse_subproblem`)."""
    game = read_sgf(data, source)
    problem = problem_from_game(game, source)
    root = game.get_root()

    def label(prop: str) -> bytes | None:
        return single_value(root.get_raw_list(prop), prop, source) if root.has_property(prop) else None

    def flag(prop: str) -> bool | None:
        raw = label(prop)
        if raw not in (None, b"0", b"1"):
            raise ProblemError(source, f"{prop}[{shown(raw)}] must be 0 or 1")
        return None if raw is None else raw == b"1"

    safe = flag("TS")
    defender = problem.defender
    defender_first = flag("DS")
    if defender_first is not None and defender_first != (problem.to_play == defender):
        raise ProblemError(source, f"DS[{int(defender_first)}] disagrees with PL[{color_letter(problem.to_play)}] "
                                   f"and MA[{sgf_point(*problem.target)}] (PL is the "
                                   f"{'defender' if problem.to_play == defender else 'attacker'})")

    available_moves = None
    raw = label("AS")
    if raw is not None:
        if not re.fullmatch(rb"-?[0-9]+", raw):
            raise ProblemError(source, f"AS[{shown(raw)}] is not an integer")
        empty = int(np.count_nonzero(problem.stones == EMPTY))
        # (the length first: Python refuses to convert thousands of digits)
        if len(raw) > 3 or not 0 <= int(raw) <= empty:
            raise ProblemError(source, f"AS[{shown(raw)}] is not a count of available moves "
                                       f"(0 to the {empty} empty points)")
        available_moves = int(raw)

    best_move = None
    raw = label("TR")
    if raw is not None:
        best_move = point_of(raw, "TR", problem.size, source)
        if problem.stones[best_move[1], best_move[0]] != EMPTY:
            raise ProblemError(source, f"TR[{shown(raw)}] is on an occupied point")
        # TR is PL's winning move: a position PL loses has none.  (A position
        # PL wins may have none either: a pass wins it.)
        if safe is not None and safe != (problem.to_play == defender):
            raise ProblemError(source, f"TR[{shown(raw)}] is a winning move, but TS[{int(safe)}] says "
                                       f"PL[{color_letter(problem.to_play)}] loses")
    end_state = None
    if root.has_property("EB") or root.has_property("EW"):
        end_state = np.zeros_like(problem.stones)
        for prop, color in (("EB", BLACK), ("EW", WHITE)):
            values = root.get_raw_list(prop) if root.has_property(prop) else []
            for raw in values:
                if raw == b"":
                    if len(values) > 1:
                        raise ProblemError(source, f"{prop}[] is an empty list among points")
                    continue
                x, y = point_of(raw, prop, problem.size, source)
                if end_state[y, x] != EMPTY:
                    raise ProblemError(source, f"{prop}[{shown(raw)}] is listed twice in the end state")
                end_state[y, x] = color
    return Subproblem(
        size=problem.size,
        stones=problem.stones,
        target=problem.target,
        to_play=problem.to_play,
        safe=safe,
        available_moves=available_moves,
        best_move=best_move,
        source=problem.properties.get("GN") or "",
        end_state=end_state,
    )


def load_subproblem(path: str | Path) -> Subproblem:
    path = Path(path)
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise ProblemError(str(path), f"cannot read the file ({exc.strerror})") from None
    return parse_subproblem(data, str(path))
