"""enclose's escalation: when no region fits, which unsettled reading is read again, by which
search, with what budget, and that either search gives a region the same exact answer.

The positions are the composed open-board problems of ``tests/open-problems/`` (see
``tests/test_enclose.py``).
"""
from __future__ import annotations


import pytest

from pipeline.enclose import question
from pipeline.enclose.reader import read_open_problem
from solver.problem import parse_sgf_point

from test_enclose import EXPECTED, MAX_NODES, OPEN


def unsettled(area: int, stalled: str = "to-play-first") -> question.Reading:
    return question.Reading(target=(0, 0), goal="kill", frame=None, verdict=question.UNSETTLED, area=area,
                            stalled=stalled)


def test_the_smallest_unsettled_reading_up_to_the_escalation_area_is_chosen():
    limit = question.ESCALATE_AREA
    settled = question.Reading(target=(0, 0), goal="kill", frame=None, verdict=question.SETTLED, area=3)
    readings = [unsettled(limit + 1), unsettled(limit), settled, unsettled(limit - 5), unsettled(limit - 2)]
    assert question.escalation_choice(readings) == 3
    assert question.escalation_choice([unsettled(limit + 1), settled]) is None


def test_a_reading_stalled_while_listing_comes_first_whatever_its_area():
    readings = [unsettled(question.ESCALATE_AREA - 5), unsettled(question.LARGE_AREA + 5, "other-move")]
    assert question.escalation_choice(readings) == 1


@pytest.mark.parametrize("stalled", ["to-play-first", "other-first", "book-move", "other-move"])
def test_the_escalation_reads_a_listing_stall_by_df_pn_and_the_others_by_the_order_s_search(monkeypatch, stalled):
    """The first pass solves by the order's search and budget; the region read again gets
    ESCALATION times the budget, and LISTING_ALGO's search when its reading stalled while
    listing the winning moves."""
    problem = read_open_problem((OPEN / "loose-side-live.sgf").read_bytes(), "loose-side-live")
    target = parse_sgf_point(EXPECTED["loose-side-live"][1])
    solves = []

    def solve_reading(stones, reading_target, frame, to_play, book, source, budget, max_area, order):
        solves.append((reading_target == target, budget, order.algo))
        return question.Reading(target=reading_target, goal="live", frame=frame, verdict=question.UNSETTLED,
                                area=question.ESCALATE_AREA if reading_target == target else 30,
                                stalled=stalled if reading_target == target else "to-play-first")

    monkeypatch.setattr(question, "solve_reading", solve_reading)
    question.read(problem.stones, problem.to_play, problem.book, "loose-side-live", 1000, 40)
    first = {algo for is_target, budget, algo in solves if budget == 1000}
    again = {(is_target, budget, algo) for is_target, budget, algo in solves if budget != 1000}
    algo = question.LISTING_ALGO if stalled == "other-move" else "dfs"
    assert first == {"dfs"} and again == {(True, 1000 * question.ESCALATION, algo)}


@pytest.mark.parametrize("name", ["corner-kill-by-ko", "side-live-inside-stone", "side-live-book-fails",
                                  "capturing-race-two-answers", "loose-side-live", "live-only-by-ko"])
def test_df_pn_and_dfs_read_a_region_alike(name):
    """Every region of the problem read as the escalation reads it, by either search: where
    both settle, the same verdict, book results and winning first moves."""
    problem = read_open_problem((OPEN / f"{name}.sgf").read_bytes(), name)
    compared = 0
    for group in question.candidates(problem.stones, frozenset(problem.book)):
        by = {algo: question.read_region(problem.stones, group, problem.to_play, problem.book, name, MAX_NODES,
                                         40, question.Order(algo=algo), escalated=True)
              for algo in ("dfs", "dfpn")}
        dfs, dfpn = by["dfs"], by["dfpn"]
        if question.UNSETTLED in (dfs.verdict, dfpn.verdict):
            continue
        assert (dfpn.verdict, dfpn.target, dfpn.area) == (dfs.verdict, dfs.target, dfs.area), name
        assert dfpn.book == dfs.book and sorted(dfpn.winning) == sorted(dfs.winning), name
        compared += 1
    assert compared
