"""One open-board problem in, its outcome out: the enclosed problem's SGF text and its record.

The outcome is decided from the readings (:mod:`pipeline.enclose.question`):

- ``enclosed``: a reading fits (the book's move wins in it); where several
  fit, the smallest region's is kept and, if their winning moves differ, the
  record's ``reason`` names them all (a capturing race reads the same as
  killing one side or saving the other);
- ``ambiguous``: no reading turns on who moves first with the book's move in
  its area;
- ``ko``: no reading fits, and the side to play lives only by winning a ko,
  which the project's problems give to the attacker (docs/enclose.md);
- ``unsettled``: no reading fits and one ran out of nodes;
- ``book-move-fails``: no reading fits, none is unsettled, and one turns on
  who moves first but the book's move loses; its refutation is kept for a Go
  player to check;
- ``too-large``: every reading's search area is over ``--max-area``;
- ``bad-input``: the file cannot be read as an open-board problem.
"""
from __future__ import annotations

import time
from dataclasses import dataclass

from pipeline.enclose import question
from pipeline.enclose.crop import Crop, crop
from pipeline.enclose.reader import SIZE, OpenProblem, read_open_problem
from pipeline.formats.sgf_writer import escape_text, game_tree, node, stone_points
from solver import BLACK, WHITE, sgf_point
from solver.board import color_letter
from solver.coordinates import go_point
from solver.problem import reason_of

OUTCOMES = ("enclosed", "ambiguous", "book-move-fails", "unsettled", "ko", "too-large", "bad-input")


@dataclass
class Enclosed:
    record: dict            # the problem's line of enclose.jsonl
    sgf: str | None         # the enclosed problem's file, when the outcome is ``enclosed``


def choose(readings: list[question.Reading]) -> tuple[str, question.Reading | None, str]:
    """(outcome, the reading it rests on, why) from every candidate's reading."""
    verdicts = [r.verdict for r in readings]
    fits = [r for r in readings if r.verdict == question.FITS]
    if fits:
        # The book's move wins in every reading that fits, so each is a sound problem with the
        # book's answer: the smallest region's is kept and the others are named.  (Counted as
        # ambiguous, a problem would be lost by settling a second region with more effort.)
        if len({frozenset(r.winning) for r in fits}) == 1:
            return "enclosed", fits[0], ""
        return "enclosed", fits[0], (f"{len(fits)} readings fit, each with the book's move, the first kept: "
                                     + "; ".join(describe(r) for r in fits))
    for verdict, outcome in ((question.KO, "ko"), (question.UNSETTLED, "unsettled"),
                             (question.BOOK_FAILS, "book-move-fails")):
        if verdict in verdicts:
            return outcome, readings[verdicts.index(verdict)], ""
    if readings and all(v == question.TOO_LARGE for v in verdicts):
        return "too-large", min(readings, key=lambda r: r.area), ""
    return "ambiguous", None, "no reading turns on who moves first with the book's move in its area"


def describe(reading: question.Reading) -> str:
    """A reading in Go coordinates of the book's board: ``kill the group at B18 wins at A18, C19``."""
    return (f"{reading.goal} the group at {go_point(*reading.target, SIZE)} wins at "
            + ", ".join(go_point(*m, SIZE) for m in sorted(reading.winning, key=lambda p: (p[1], p[0]))))


def written_point(point, size: int) -> str | None:
    """The Go coordinate of ``point`` on a ``size`` board, or None when it is off that board."""
    return go_point(*point, size) if 0 <= point[0] < size and 0 <= point[1] < size else None


def problem_name(problem_id: str) -> str:
    """``GN`` of an enclosed problem: its collection and number, as its id names them."""
    return problem_id.replace("/", " ")


def enclosed_sgf(problem: OpenProblem, reading: question.Reading, problem_id: str,
                 cropped: Crop | None) -> str:
    """The problem file: ``MA`` on the target, ``PL``, every winning first move a root variation;
    on the cropped board when there is one."""
    letter = color_letter(problem.to_play)
    stones = reading.frame.stones if cropped is None else cropped.stones
    place = (lambda p: p) if cropped is None else cropped.point
    size = stones.shape[0]
    # in Go coordinates of the board written, as an SGF editor labels it (a book move off the
    # cropped board, which no enclosed reading lists, by its place on the book's board)
    book = ", ".join(f"{letter} {written_point(place(m), size) or go_point(*m, SIZE) + ' of 19×19'}"
                     for m in problem.book)
    comment = (f"{letter} to {reading.goal}. The book's first move: {book}. "
               f"Enclosed from an open-board problem ({problem.name or problem_id}).")
    root = node([("FF", ["4"]), ("GM", ["1"]), ("SZ", [str(stones.shape[0])]),
                 ("GN", [escape_text(problem_name(problem_id))]), ("C", [escape_text(comment)]),
                 ("PL", [letter]), ("AB", stone_points(stones, BLACK)), ("AW", stone_points(stones, WHITE)),
                 ("MA", [sgf_point(*place(reading.target))])])
    moves = sorted(reading.winning, key=lambda p: (p[1], p[0]))
    return game_tree([root], [game_tree([node([(letter, [sgf_point(*place(m))])])]) for m in moves]) + "\n"


def enclose_file(data: bytes, source: str, problem_id: str, max_nodes: int, max_area: int,
                 guide=None, move_patterns=True, algo: str = "dfs",
                 guide_after: int = question.GUIDE_AFTER, seconds: float | None = None,
                 zones: bool = False) -> Enclosed:
    """The outcome for one file; never raises for a fault of the file.  ``guide`` and
    ``move_patterns`` order the solver's moves, ``algo`` is its search, ``guide_after`` the
    unguided nodes a guided solve starts with
    (:class:`pipeline.enclose.question.Order`); ``seconds``: the CPU time the problem may
    take, spent on what the node budget leaves unsettled (:func:`question.spend_time`), with
    relevance zones there where ``zones``."""
    started = time.perf_counter()
    cpu_until = None if seconds is None else time.thread_time() + seconds
    record = {"problem": problem_id, "file": source}
    try:
        problem = read_open_problem(data, source)
    except Exception as exc:    # whatever the file holds, it is an outcome, never the end of the run
        record.update(outcome="bad-input", reason=reason_of(exc),
                      seconds=round(time.perf_counter() - started, 3))
        return Enclosed(record, None)
    readings = question.read(problem.stones, problem.to_play, problem.book, source, max_nodes, max_area,
                             question.Order(guide, move_patterns, algo, guide_after), cpu_until, zones)
    outcome, reading, why = choose(readings)
    letter = color_letter(problem.to_play)
    record.update(outcome=outcome, to_play=letter)
    if why:
        record["reason"] = why
    if reading is not None:
        record.update(
            area=reading.area, target=sgf_point(*reading.target), goal=reading.goal,
            book=[{"move": sgf_point(*m), "wins": reading.book.get(m),
                   **({"refutation": refutation_text(reading.refutation[m], problem.to_play)}
                      if m in reading.refutation else {})} for m in problem.book],
            winning=[sgf_point(*m) for m in sorted(reading.winning, key=lambda p: (p[1], p[0]))])
    else:
        record["book"] = [{"move": sgf_point(*m), "wins": None} for m in problem.book]
    record.update(
        nodes=sum(r.nodes for r in readings), seconds=round(time.perf_counter() - started, 3),
        readings=[{"target": sgf_point(*r.target), "goal": r.goal, "verdict": r.verdict, "area": r.area,
                   "nodes": r.nodes, **({"stalled": r.stalled} if r.stalled else {})} for r in readings])
    text = None
    if outcome == "enclosed":
        cropped = crop(reading.frame, max_area)
        record["board"] = {"size": SIZE if cropped is None else int(cropped.stones.shape[0]),
                           "offset": [0, 0] if cropped is None else list(cropped.offset)}
        text = enclosed_sgf(problem, reading, problem_id, cropped)
    return Enclosed(record, text)


def refutation_text(move, to_play: int) -> str | None:
    """The opponent's answer to a failing book move, as SGF (``W[]`` for a pass)."""
    if move is None:
        return None
    letter = color_letter(3 - to_play)
    return f"{letter}[]" if move == "pass" else f"{letter}[{sgf_point(*move)}]"
