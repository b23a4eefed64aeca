"""The living wall (pipeline.enclose.living_wall): the defender's strong outside stones framed alive.

The position is ``tests/open-problems/inner-group-inside-own-wall.sgf``: two black
stones cut off between two white groups, inside Black's long wall.  The plain
frames read it as another question (the whole wall's life); the living wall reads
the book's.
"""
from __future__ import annotations

import numpy as np
import pytest

from pipeline.enclose import question
from pipeline.enclose.frame import EIGHT, block_of, blocks, enclose, liberties, on_board
from pipeline.enclose.living_wall import STRONG_LIBERTIES, living_frame, strong_blocks
from pipeline.enclose.reader import read_open_problem
from pipeline.symmetries import transform, transform_point
from solver import Problem, Solver, search_area
from solver.problem import parse_sgf_point

from test_enclose import OPEN

NAME = "inner-group-inside-own-wall"
TARGET = parse_sgf_point("ca")
WALL_STONE = parse_sgf_point("dc")     # a stone of Black's wall, diagonal to the target's block
WINNING = {parse_sgf_point(m) for m in ("aa", "ba", "ea", "fb")}


@pytest.fixture(scope="module")
def problem():
    return read_open_problem((OPEN / f"{NAME}.sgf").read_bytes(), NAME)


@pytest.fixture(scope="module")
def frame(problem):
    found = living_frame(problem.stones, TARGET, keep=frozenset(problem.book))
    assert found is not None
    return found


def test_the_wall_is_strong_and_the_target_is_not(problem):
    strong = strong_blocks(problem.stones, TARGET)
    assert len(strong) == 1 and WALL_STONE in strong[0]
    assert len(liberties(problem.stones, block_of(problem.stones, TARGET))) < STRONG_LIBERTIES


def test_without_a_strong_block_there_is_no_living_wall():
    stones = np.zeros((19, 19), dtype=np.int8)
    for x, y in ((1, 0), (1, 1), (0, 1)):
        stones[y, x] = 1
    for x, y in ((2, 0), (2, 1), (2, 2), (1, 2), (0, 2)):
        stones[y, x] = 2
    assert living_frame(stones, (1, 0)) is None


def test_the_frame_keeps_every_printed_stone_and_the_region_empty(problem, frame):
    printed = problem.stones != 0
    assert (frame.stones[printed] == problem.stones[printed]).all()
    assert all(frame.stones[y, x] == problem.stones[y, x] for x, y in frame.region)
    assert set(problem.book) <= frame.region
    assert WALL_STONE not in frame.region
    assert np.count_nonzero(frame.stones) - np.count_nonzero(problem.stones) == len(frame.wall)


def test_the_wall_has_two_eyes_and_the_solver_cannot_capture_it(frame):
    """Static life proves the wall alive at once: White, moving first against it, loses."""
    wall = block_of(frame.stones, WALL_STONE)
    size = frame.stones.shape[0]
    eyes = [(x, y) for x, y in liberties(frame.stones, wall)
            if all(not on_board(size, x + dx, y + dy) or (x + dx, y + dy) in wall
                   for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)))]
    assert len(eyes) >= 2
    solver = Solver(Problem(source="wall", size=size, stones=frame.stones, target=WALL_STONE, to_play=2))
    verdict = solver.solve(2)
    assert verdict.winner == 1 and verdict.nodes <= 2


def test_the_search_area_is_the_region_the_wall_and_its_eyes(frame):
    """The target's search area is closed by stones, and its empty points and black stones are
    the region's, the living wall's and its two eyes (its white stones are the fight's)."""
    size = frame.stones.shape[0]
    area = search_area(Problem(source="x", size=size, stones=frame.stones, target=TARGET, to_play=1), 40)
    points = set(area.points)
    wall = block_of(frame.stones, WALL_STONE)
    eyes = {p for p in liberties(frame.stones, wall) if p not in frame.region}
    assert {p for p in points if frame.stones[p[1], p[0]] != 2} - frame.region <= wall | eyes
    assert len(eyes) == 2 and eyes <= points
    for x, y in points:
        for dx, dy in EIGHT:
            u, v = x + dx, y + dy
            if on_board(size, u, v) and (u, v) not in points and (u, v) not in block_of(frame.stones, TARGET):
                assert frame.stones[v, u] != 0


def test_the_plain_frames_read_another_question_and_the_living_wall_the_book_s(problem):
    plain = enclose(problem.stones, TARGET, keep=frozenset(problem.book))
    assert WALL_STONE in plain.region        # the plain frame takes the wall into the fight
    reading = question.solve_reading(problem.stones, TARGET,
                                     living_frame(problem.stones, TARGET, keep=frozenset(problem.book)),
                                     problem.to_play, problem.book, NAME, 200_000, 40)
    assert reading.verdict == question.FITS and set(reading.winning) == WINNING


@pytest.mark.parametrize("symmetry", range(8))
@pytest.mark.parametrize("swap", [False, True])
def test_the_living_wall_reads_the_same_under_the_symmetries_and_a_colour_swap(problem, symmetry, swap):
    """Turned, mirrored or with the colours swapped, the living-wall reading fits with the
    same winning moves, turned and mirrored alike."""
    size = problem.stones.shape[0]
    stones = transform(problem.stones, symmetry)
    if swap:
        stones = np.where(stones == 0, 0, 3 - stones).astype(problem.stones.dtype)
    to_play = 3 - problem.to_play if swap else problem.to_play
    moved = lambda p: transform_point(p[0], p[1], symmetry, size)
    target, book = moved(TARGET), tuple(moved(m) for m in problem.book)
    frame = living_frame(stones, target, keep=frozenset(book))
    assert frame is not None
    assert all(liberties(frame.stones, block) for color in (1, 2) for block in blocks(frame.stones, color))
    reading = question.solve_reading(stones, target, frame, to_play, book, NAME, 200_000, 40)
    assert reading.verdict == question.FITS
    assert set(reading.winning) == {moved(m) for m in WINNING}


def test_a_living_wall_that_fits_or_is_a_ko_replaces_an_unsettled_reading(monkeypatch, problem):
    """read_living's first reading that fits (or is a ko) replaces its region's, and every
    reading's nodes are counted; read() calls it only where no reading fits or is a ko."""
    groups = question.candidates(problem.stones, frozenset(problem.book))

    def readings(verdict):
        return [question.Reading(target=group[0][0], goal="live", frame=group[0][1], verdict=verdict, nodes=10)
                for group in groups]

    def living(verdict):
        def solve_reading(stones, target, frame, to_play, book, source, budget, max_area, order):
            calls.append(frame)
            return question.Reading(target=target, goal="live", frame=frame, verdict=verdict, nodes=5)
        monkeypatch.setattr(question, "solve_reading", solve_reading)

    calls = []
    for verdict in (question.FITS, question.KO):
        living(verdict)
        found = readings(question.UNSETTLED)
        index = question.read_living(problem.stones, groups, found, 1, problem.book, NAME, 1000, 40)
        assert index is not None and found[index].verdict == verdict and found[index].nodes == 15
    living(question.SETTLED)
    found = readings(question.UNSETTLED)
    assert question.read_living(problem.stones, groups, found, 1, problem.book, NAME, 1000, 40) is None
    assert all(reading.verdict == question.UNSETTLED for reading in found)
    assert sum(reading.nodes for reading in found) > 10 * len(found)    # the living readings counted

    def plain(verdict):
        def read_region(stones, group, to_play, book, source, budget, max_area, order, escalated=False):
            return question.Reading(target=group[0][0], goal="live", frame=group[0][1], verdict=verdict)
        monkeypatch.setattr(question, "read_region", read_region)

    living(question.FITS)
    for verdict, living_read in ((question.KO, False), (question.FITS, False), (question.SETTLED, True)):
        plain(verdict)
        calls.clear()
        question.read(problem.stones, problem.to_play, problem.book, NAME, 0, 40)
        assert bool(calls) == living_read

    # the escalation comes first: a ko it finds stands
    def escalate(stones, groups, readings, *args):
        readings[0].verdict = question.KO
    monkeypatch.setattr(question, "escalate", escalate)
    plain(question.UNSETTLED)
    calls.clear()
    question.read(problem.stones, problem.to_play, problem.book, NAME, 1000, 40)
    assert not calls
