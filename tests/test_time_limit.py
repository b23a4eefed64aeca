"""A solve's CPU-time limit (solver.time_limit): it stops a long search near the limit, never
changes a verdict reached within it, and counts the solving thread's CPU time only."""
from __future__ import annotations

import threading
import time

import pytest

from solver import Solver, parse_problem
from solver.problem import sgf_point

# The watchdog's poll and the search's way back up from the node where it stopped.
OVERRUN = 0.25


def open_corner(width: int, height: int, whites: list[str]) -> bytes:
    """White stones in a corner inside a Black wall around ``width`` × ``height`` points: a
    search of many empty points, composed for these tests."""
    black = [sgf_point(x, height) for x in range(width + 1)] + [sgf_point(width, y) for y in range(height)]
    stones = "".join(f"[{p}]" for p in black)
    return (f"(;FF[4]GM[1]SZ[13]PL[B]AB{stones}AW{''.join(f'[{p}]' for p in whites)}"
            f"MA[{whites[0]}])").encode()


# 18 empty points: Black kills first in some 2,000,000 DFS nodes, several seconds
HARD = open_corner(5, 4, ["bb", "cb"])
# 8 empty points: settled in a few hundred nodes
EASY = open_corner(3, 3, ["bb"])


@pytest.mark.parametrize("algo", ["dfs", "dfpn"])
def test_a_long_search_stops_near_its_limit_unsettled(algo):
    solver = Solver(parse_problem(HARD))
    solver.solve(1, algo=algo, max_nodes=1000)   # compiled before the clock starts
    started = time.thread_time()
    verdict = solver.solve(1, algo=algo, cpu_until=started + 0.3)
    spent = time.thread_time() - started
    assert verdict.winner is None and verdict.move is None and verdict.status == "unknown"
    assert verdict.nodes > 1000
    assert 0.3 <= spent < 0.3 + OVERRUN


@pytest.mark.parametrize("algo", ["dfs", "dfpn"])
@pytest.mark.parametrize("side", [1, 2])
def test_a_solve_within_its_limit_gives_the_verdict_and_nodes_of_one_without(algo, side):
    plain = Solver(parse_problem(EASY)).solve(side, algo=algo)
    timed = Solver(parse_problem(EASY)).solve(side, algo=algo, cpu_until=time.thread_time() + 30)
    assert plain.winner is not None
    assert (timed.winner, timed.move, timed.nodes) == (plain.winner, plain.move, plain.nodes)


def test_a_limit_already_passed_searches_nothing_and_the_next_solve_is_whole():
    solver = Solver(parse_problem(EASY))
    assert solver.solve(1, cpu_until=time.thread_time() - 1).winner is None
    assert solver.solve(1).winner is not None   # the flag does not outlive its solve


def test_the_limit_counts_the_solving_thread_s_cpu_not_the_wall_clock():
    """Another thread busy beside the solve takes wall time, not the solve's CPU time."""
    stop = threading.Event()

    def busy():
        while not stop.is_set():
            sum(range(1000))

    solver = Solver(parse_problem(HARD))
    solver.solve(1, max_nodes=1000)
    other = threading.Thread(target=busy)
    other.start()
    try:
        started = time.thread_time()
        verdict = solver.solve(1, cpu_until=started + 0.3)
        spent = time.thread_time() - started
    finally:
        stop.set()
        other.join()
    assert verdict.winner is None
    assert 0.3 <= spent < 0.3 + OVERRUN
