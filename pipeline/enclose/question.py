"""The question a book leaves unsaid: which group, and whether the side to play kills or lives.

Every block on the board is a candidate target (blocks of one colour whose
regions coincide are one candidate, the largest block standing for them).
Each candidate is framed (:mod:`pipeline.enclose.frame`) and solved with
each side moving first.  A candidate *fits* when the side to play wins moving
first, loses moving second (the status turns on who moves first: that is
what makes it a problem) and the book's first move wins.  The goal follows:
``kill`` when the side to play is the candidate's attacker, ``live`` when it
is its defender.
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field

import numpy as np

from pipeline.enclose.frame import Frame, Point, blocks, enclose
from solver import Problem, ProblemError, Solver
from solver.area import search_area

# What a reading found, from the side to play's point of view.
FITS = "fits"                  # wins first, loses second, the book's move wins
BOOK_FAILS = "book-move-fails"  # wins first, loses second, the book's move loses
SETTLED = "settled"            # the same winner whoever moves first
UNSETTLED = "unsettled"        # a solve ran out of nodes
TOO_LARGE = "too-large"        # the search area is larger than the limit
OUT_OF_AREA = "out-of-area"    # the book's move is not in this candidate's area
KO = "ko"                      # to live, the defender needs a ko, which the attacker wins here
NO_WALL = "no-wall"            # no attacker block around the region can be a wall (the candidate is
                               # itself inside the other side's eye space)


@dataclass
class Reading:
    """One candidate target, framed and solved."""

    target: Point
    goal: str
    frame: Frame
    verdict: str = ""
    area: int = 0
    book: dict[Point, bool] = field(default_factory=dict)   # each book move: does it win?
    winning: list[Point] = field(default_factory=list)      # every winning first move
    refutation: dict[Point, Point | str | None] = field(default_factory=dict)  # the answer to a failing book move
    nodes: int = 0
    seconds: float = 0.0


def candidates(stones: np.ndarray, keep: frozenset[Point]) -> list[tuple[Point, Frame]]:
    """(target, frame) per distinct region of each colour's blocks, largest block first within a region."""
    found: dict[tuple[int, frozenset], tuple[Point, Frame]] = {}
    for color in (1, 2):
        for block in sorted(blocks(stones, color), key=len, reverse=True):
            target = min(block, key=lambda p: (p[1], p[0]))
            frame = enclose(stones, target, keep=keep)
            key = (color, frame.region)
            if key not in found:
                found[key] = (target, frame)
    return list(found.values())


def read(stones: np.ndarray, to_play: int, book: tuple[Point, ...], source: str,
         max_nodes: int, max_area: int) -> list[Reading]:
    """Every candidate target's reading, the smallest regions first.

    Once a candidate fits (or fits but for a ko), the others are solved only to
    see whether a second one fits too, with a tenth of the budget: a large region around the
    attacker's own surrounding stones rarely settles, and would take most of
    the time.
    """
    readings = []
    budget = max_nodes
    for target, frame in sorted(candidates(stones, frozenset(book)), key=lambda c: len(c[1].region)):
        defender = int(stones[target[1], target[0]])
        goal = "live" if to_play == defender else "kill"
        reading = Reading(target=target, goal=goal, frame=frame)
        started = time.perf_counter()
        solve_candidate(reading, to_play, book, source, budget, max_area)
        reading.seconds = time.perf_counter() - started
        readings.append(reading)
        if reading.verdict in (FITS, KO) and max_nodes:
            budget = max(1, max_nodes // 10)
    return readings


def solve_candidate(reading: Reading, to_play: int, book: tuple[Point, ...], source: str,
                    max_nodes: int, max_area: int) -> None:
    frame = reading.frame
    problem = Problem(source=source, size=frame.stones.shape[0], stones=frame.stones,
                      target=reading.target, to_play=to_play)
    try:
        area = search_area(problem, problem.size ** 2)
    except ProblemError:
        reading.verdict = NO_WALL
        return
    reading.area = sum(1 for x, y in area.points if frame.stones[y, x] == 0)
    if reading.area > max_area:
        reading.verdict = TOO_LARGE
        return
    if not set(book) <= set(area.points):
        reading.verdict = OUT_OF_AREA
        return
    solver = Solver(problem, max_area=max_area)
    reading.verdict = settle(solver, reading, to_play, book, max_nodes, "attacker")
    if reading.verdict == SETTLED and reading.goal == "live":
        # A live problem whose answer is a ko: the defender lives only as ko master.
        probe = Reading(target=reading.target, goal=reading.goal, frame=frame)
        if settle(Solver(problem, max_area=max_area), probe, to_play, book, max_nodes, "defender") == FITS:
            reading.verdict = KO
        reading.nodes += probe.nodes


def settle(solver: Solver, reading: Reading, to_play: int, book: tuple[Point, ...], max_nodes: int,
           ko_master: str) -> str:
    """The reading's verdict; fills in the book moves' results and every winning first move."""
    other = 3 - to_play

    def wins_after(move: Point) -> bool | None:
        """Whether to_play still wins after playing ``move`` (None: out of nodes); False if illegal."""
        x, y = move
        if not solver.play(x, y, to_play):
            return False
        try:
            if solver.target_captured():
                return True
            verdict = solver.solve(other, ko_master=ko_master, max_nodes=max_nodes)
            reading.nodes += verdict.nodes
            if verdict.winner is None:
                return None
            if verdict.winner != to_play and move in book:
                reading.refutation[move] = verdict.move
            return verdict.winner == to_play
        finally:
            solver.take_back()

    for side in (to_play, other):
        verdict = solver.solve(side, ko_master=ko_master, max_nodes=max_nodes)
        reading.nodes += verdict.nodes
        if verdict.winner is None:
            return UNSETTLED
        if (verdict.winner == to_play) != (side == to_play):
            return SETTLED
    for move in book:
        wins = wins_after(move)
        if wins is None:
            return UNSETTLED
        reading.book[move] = wins
    if not all(reading.book.values()):
        return BOOK_FAILS
    for move in solver.moves():
        wins = move in reading.book or wins_after(move)
        if wins is None:
            return UNSETTLED
        if wins:
            reading.winning.append(move)
    return FITS
