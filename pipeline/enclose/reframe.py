"""A reading an ``enclose`` run reported, framed again: the benchmarks' way back to its position.

A line of ``enclose.jsonl`` names the reading its outcome rests on (the
target, the size of the search area) but not the frame; :func:`framed_reading`
tries the frames ``enclose`` tries for a target, in its order (the default,
the tighter, then the wider ones of :mod:`pipeline.enclose.question`), and
returns the position in the frame whose search area has the reported size.
``bench.reach_bench`` and the research scripts solve the readings a run left
unsettled this way.
"""
from __future__ import annotations

from pathlib import Path

from pipeline.enclose import question
from pipeline.enclose.frame import DEFAULT_REACH, enclose
from pipeline.enclose.reader import read_open_problem
from solver import Problem, ProblemError, search_area
from solver.problem import parse_sgf_point

# the frames enclose tries for a target, in its order (pipeline.enclose.question)
FRAMES = ((DEFAULT_REACH, 0), question.TIGHTER) + question.WIDER


def framed_reading(path: Path, record: dict) -> tuple[Problem, int] | str:
    """The position ``record`` (a line of enclose.jsonl) reported, framed again, and its search
    area's size; or why it could not be."""
    if "target" not in record:
        return "no reading reported"
    try:
        open_problem = read_open_problem(path.read_bytes(), str(path))
    except Exception as exc:   # the earlier run read it; a file changed since is reported, not fatal
        return f"unreadable now ({exc})"
    target = parse_sgf_point(record["target"])
    keep = frozenset(open_problem.book)
    for reach, margin in FRAMES:
        frame = enclose(open_problem.stones, target, reach=reach, keep=keep, margin=margin)
        problem = Problem(source=str(path), size=frame.stones.shape[0], stones=frame.stones, target=target,
                          to_play=open_problem.to_play)
        try:
            area = search_area(problem, problem.size ** 2)
        except ProblemError:   # no wall closes this frame (enclose's no-wall verdict)
            continue
        if question.empty_points(frame, area) == record["area"]:
            return problem, record["area"]
    return f"no frame with the reported area of {record['area']} points"
