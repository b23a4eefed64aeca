"""Effort in CPU seconds (``--seconds``): what ``solve`` and ``enclose`` do with a problem's time.

``enclose`` spends it only on problems its node budget leaves without a fit, in rounds of
growing node budgets (:func:`pipeline.enclose.question.spend_time`); a rerun with more time
over an earlier run's folder reads only the problems still without one.  The positions are
the composed ones of ``tests/open-problems`` and ``tests/test_time_limit.py``.
"""
from __future__ import annotations

import json
import shutil
from types import SimpleNamespace

import pytest

from cli.main import main
from pipeline.enclose import question
from pipeline.enclose.outcome import enclose_file
from pipeline.enclose.reader import read_open_problem
from solver.dfpn import SIMULATION_NODES

from test_enclose import EXPECTED, OPEN
from test_time_limit import EASY, HARD

# Too few nodes a solve for these problems to fit in the first pass, which more time mends.
STARVED = 30
NEED_TIME = ("loose-corner-kill", "loose-side-live", "corner-kill-by-ko")
FIT_STARVED = ("corner-kill-bent-three", "corner-live-bulky-five")


def enclosed(name: str, max_nodes: int, seconds: float | None = None, zones: bool = False) -> dict:
    path = OPEN / f"{name}.sgf"
    return enclose_file(path.read_bytes(), str(path), name, max_nodes, 40, seconds=seconds, zones=zones).record


@pytest.mark.parametrize("name", NEED_TIME)
def test_time_settles_what_the_node_budget_left_with_the_answer_of_a_full_budget(name):
    assert enclosed(name, STARVED)["outcome"] == "unsettled"
    record = enclosed(name, STARVED, seconds=20)
    outcome, target, goal, winning = EXPECTED[name]
    assert (record["outcome"], record["target"], record["goal"]) == (outcome, target, goal)
    assert tuple(record["winning"]) == winning


@pytest.mark.parametrize("name", NEED_TIME)
def test_the_time_pass_with_relevance_zones_gives_the_same_answer(name):
    plain = enclosed(name, STARVED, seconds=20)
    zoned = enclosed(name, STARVED, seconds=20, zones=True)

    def answer(record):
        return (record["outcome"], record.get("target"), record.get("goal"), record.get("winning"),
                [(b["move"], b["wins"]) for b in record["book"]],
                [(r["target"], r["goal"], r["verdict"], r["area"]) for r in record["readings"]])

    assert answer(zoned) == answer(plain)
    assert zoned["outcome"] == EXPECTED[name][0]


def test_zones_need_seconds_and_leave_the_first_pass_records_standing(tmp_path, capsys):
    source = tmp_path / "open"
    source.mkdir()
    for name in NEED_TIME[:1] + FIT_STARVED[:1]:
        shutil.copy(OPEN / f"{name}.sgf", source)
    out = tmp_path / "enclosed"
    with pytest.raises(SystemExit):
        main(["enclose", str(source), "--out", str(out), "--zones"])
    assert "give --seconds too" in capsys.readouterr().err
    assert main(["enclose", str(source), "--out", str(out), "--max-nodes", str(STARVED), "--no-progress"]) == 0
    assert "enclosed 1 " in capsys.readouterr().out
    assert main(["enclose", str(source), "--out", str(out), "--max-nodes", str(STARVED), "--seconds", "20",
                 "--zones", "--no-progress"]) == 0
    said = capsys.readouterr().out
    assert "enclosed 2 " in said and "(1 done in earlier runs)" in said


@pytest.mark.parametrize("name", FIT_STARVED)
def test_a_problem_that_fits_in_the_first_pass_is_read_the_same_with_time(name):
    plain = enclosed(name, STARVED)
    timed = enclosed(name, STARVED, seconds=20)
    for record in (plain, timed):
        record.pop("seconds")
    assert timed == plain


class FakeClock:
    """The CPU clock ``question`` reads, advanced by each solve."""

    def __init__(self):
        self.now = 0.0

    def thread_time(self):
        return self.now

    def perf_counter(self):
        return self.now


def read_with_time(monkeypatch, problem, clock, read_region, cpu_until: float) -> list:
    """``question.read`` of ``problem`` on ``clock``, every region read by ``read_region`` and
    every reading of the living wall unsettled."""
    monkeypatch.setattr(question, "time", clock)
    monkeypatch.setattr(question, "read_region", read_region)
    monkeypatch.setattr(question, "solve_reading", lambda stones, target, frame, *rest: question.Reading(
        target=target, goal="live", frame=frame, verdict=question.UNSETTLED, area=len(frame.region)))
    return question.read(problem.stones, problem.to_play, problem.book, "loose-side-live", 1000, 40,
                         cpu_until=cpu_until)


def smallest_region(problem) -> int:
    return min(len(group[0][1].region) for group in question.candidates(problem.stones, frozenset(problem.book)))


def test_time_is_spent_in_rounds_of_growing_budgets_the_smallest_region_first(monkeypatch):
    problem = read_open_problem((OPEN / "loose-side-live.sgf").read_bytes(), "loose-side-live")
    clock = FakeClock()
    solves = []

    def unsettled(stones, target, frame, *rest, area=None):
        return question.Reading(target=target, goal="live", frame=frame, verdict=question.UNSETTLED,
                                area=area or len(frame.region))

    def read_region(stones, group, to_play, book, source, budget, max_area, order, escalated=False):
        clock.now += 1.0
        target, frame = group[0]
        solves.append((budget, order.algo, len(frame.region), order.cpu_until))
        assert order.simulation_nodes == (SIMULATION_NODES if order.cpu_until is not None else 0)
        return unsettled(stones, target, frame)

    read_with_time(monkeypatch, problem, clock, read_region, 40.0)
    timed = [s for s in solves if s[3] is not None]
    assert timed and all(algo == question.TIME_ALGO and cpu_until == 40.0 for _, algo, _, cpu_until in timed)
    assert len(solves) - len(timed) <= len(question.candidates(problem.stones, frozenset(problem.book))) + 1
    budgets = [budget for budget, *_ in timed]
    assert budgets == sorted(budgets) and budgets[0] == 1000 * question.ESCALATION
    assert 1000 * question.ESCALATION ** 3 in budgets
    assert 40.0 <= clock.now <= 40.0 + 1.0   # a solve started before the time was up may end past it
    for budget in set(budgets):
        areas = [area for b, _, area, _ in timed if b == budget]
        assert areas == sorted(areas)
    # the regions stay unsettled: only the smallest and those near it get the time
    first_pass = sorted({area for _, _, area, cpu_until in solves if cpu_until is None})
    assert first_pass[-1] > first_pass[0] + question.SPEND_AREA_SLACK
    near = {area for area in first_pass if area <= first_pass[0] + question.SPEND_AREA_SLACK}
    assert {area for _, _, area, _ in timed} == near


def test_no_time_is_spent_once_a_region_fits(monkeypatch):
    problem = read_open_problem((OPEN / "loose-side-live.sgf").read_bytes(), "loose-side-live")
    calls = []
    monkeypatch.setattr(question, "spend_time", lambda *args: calls.append(args))
    monkeypatch.setattr(question, "solve_reading", lambda stones, target, frame, *rest: question.Reading(
        target=target, goal="live", frame=frame, verdict=question.FITS, area=5))
    question.read(problem.stones, problem.to_play, problem.book, "loose-side-live", 1000, 40, cpu_until=1e9)
    assert calls == []


def test_a_rerun_with_time_reads_only_the_problems_still_without_a_fit(tmp_path, capsys):
    source = tmp_path / "open"
    source.mkdir()
    for name in NEED_TIME[:1] + FIT_STARVED:
        shutil.copy(OPEN / f"{name}.sgf", source)
    out = tmp_path / "enclosed"
    assert main(["enclose", str(source), "--out", str(out), "--max-nodes", str(STARVED), "--no-progress"]) == 0
    assert "enclosed 2 " in capsys.readouterr().out
    assert main(["enclose", str(source), "--out", str(out), "--max-nodes", str(STARVED), "--seconds", "20",
                 "--no-progress"]) == 0
    said = capsys.readouterr().out
    assert "enclosed 3 " in said and "(2 done in earlier runs)" in said
    records = [json.loads(line) for line in (out / "enclose.jsonl").read_text().splitlines()]
    assert all("first_pass" not in r and "fingerprint" not in r for r in records)
    assert "read again until the problem has had 20 CPU seconds" in (out / "summary.md").read_text()
    # the same folder at its own settings again: nothing read
    assert main(["enclose", str(source), "--out", str(out), "--max-nodes", str(STARVED), "--seconds", "20",
                 "--no-progress"]) == 0
    assert "(3 done in earlier runs)" in capsys.readouterr().out


def test_solve_stops_at_its_seconds_and_says_so(tmp_path, capsys):
    hard, easy = tmp_path / "hard.sgf", tmp_path / "easy.sgf"
    hard.write_bytes(HARD)
    easy.write_bytes(EASY)
    # unguided: a process's first evaluation of the network may load machine code, which the
    # problem's 0.2 s would count
    assert main(["solve", "--no-guide", "--seconds", "0.2", str(hard), str(easy)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert "is not settled within 0.2 s" in lines[0]
    assert "the white group at B12 is dead as it stands" in lines[1] and "proved" in lines[1]
    assert main(["solve", "--no-guide", "--seconds", "0.2", "--max-nodes", "1000", str(hard)]) == 0
    assert "is not settled within 1,000 nodes or 0.2 s" in capsys.readouterr().out


@pytest.mark.parametrize("command", ["solve", "enclose"])
def test_seconds_must_be_positive(tmp_path, capsys, command):
    extra = ["--out", str(tmp_path / "out")] if command == "enclose" else []
    with pytest.raises(SystemExit):
        main([command, str(OPEN / "loose-corner-kill.sgf"), "--seconds", "0", *extra])
    assert "--seconds must be positive" in capsys.readouterr().err


def test_several_readings_that_fit_keep_the_problem_enclosed_on_the_first():
    """Each reading that fits has the book's move winning: more effort settling a second one
    must not take the problem off the list, and the record names both."""
    from pipeline.enclose.outcome import choose

    def fits(target, winning):
        return question.Reading(target=target, goal="kill", frame=None, verdict=question.FITS, area=9,
                                winning=winning)

    first, second = fits((0, 0), [(1, 0)]), fits((5, 5), [(1, 0), (2, 0)])
    outcome, reading, why = choose([first, question.Reading(target=(3, 3), goal="live", frame=None,
                                                            verdict=question.SETTLED), second])
    assert (outcome, reading) == ("enclosed", first)
    assert "2 readings fit" in why and "A19 wins at B19;" in why and "F14 wins at B19, C19" in why
    assert choose([first, fits((5, 5), [(1, 0)])]) == ("enclosed", first, "")


def test_a_region_the_time_pass_leaves_open_is_reported_by_its_latest_reading(monkeypatch):
    """Read again to no verdict (say in a wider frame, its tight one settled without a fit), a
    region's record names that reading, its area and where it stalled, not the first pass's."""
    problem = read_open_problem((OPEN / "loose-side-live.sgf").read_bytes(), "loose-side-live")
    clock = FakeClock()

    def read_region(stones, group, to_play, book, source, budget, max_area, order, escalated=False):
        target, frame = group[0]
        timed = order.cpu_until is not None
        clock.now += 1.0 if timed else 0.0
        return question.Reading(target=target, goal="live", frame=frame, verdict=question.UNSETTLED,
                                area=len(frame.region) + (4 if timed else 0),
                                stalled="other-first" if timed else "to-play-first")

    smallest = smallest_region(problem)
    readings = read_with_time(monkeypatch, problem, clock, read_region, 5.0)
    assert any(r.area == smallest + 4 and r.stalled == "other-first" for r in readings)
    assert not any(r.area == smallest for r in readings)


def test_an_order_with_solvers_keeps_one_solver_a_frame_and_ko_master():
    problem = read_open_problem((OPEN / "loose-corner-kill.sgf").read_bytes(), "loose-corner-kill")
    framed = question.Problem(source="t", size=19, stones=question.enclose(
        problem.stones, (3, 0), keep=frozenset(problem.book)).stones, target=(3, 0), to_play=problem.to_play)
    kept = question.Order(solvers={})
    assert kept.solver(framed, 40) is kept.solver(framed, 40)
    assert kept.solver(framed, 40, "defender") is not kept.solver(framed, 40)
    assert question.Order().solver(framed, 40) is not question.Order().solver(framed, 40)


def test_a_region_settled_by_the_time_pass_leaves_the_rounds(monkeypatch):
    """Settled without a fit, a region is not read again (read again on a kept solver, it
    would settle at once, round after round, while the budget grew without end)."""
    problem = read_open_problem((OPEN / "loose-side-live.sgf").read_bytes(), "loose-side-live")
    clock = FakeClock()
    reads = []

    def read_region(stones, group, to_play, book, source, budget, max_area, order, escalated=False):
        target, frame = group[0]
        area = len(frame.region)
        timed = order.cpu_until is not None
        reads.append((area, timed))
        clock.now += 1.0 if timed and area != smallest else 0.0
        verdict = question.SETTLED if timed and area == smallest else question.UNSETTLED
        return question.Reading(target=target, goal="live", frame=frame, verdict=verdict, area=area)

    smallest = smallest_region(problem)
    readings = read_with_time(monkeypatch, problem, clock, read_region, 20.0)
    assert reads.count((smallest, True)) == 1
    assert any(r.verdict == question.SETTLED and r.area == smallest for r in readings)
    assert clock.now >= 20.0   # the others had the time
