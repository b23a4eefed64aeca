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

from pipeline.formats.sgf_writer import (Property, collection, escape_text, game_tree, node, properties_text,
                                         stone_points)
from solver.board import BLACK, EMPTY, WHITE, color_letter
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
    """
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
