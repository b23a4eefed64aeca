"""An enclose reading framed again as reported (pipeline.enclose.reframe), solves stopped at a wall
time (bench.common), and research.guided_reach, which reads both."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from bench import common
from pipeline.enclose.reframe import framed_reading
from research import guided_reach
from pipeline.enclose.command import DEFAULT_MAX_NODES
from pipeline.enclose.outcome import enclose_file
from solver import Solver
from solver.problem import parse_sgf_point

OPEN = Path(__file__).resolve().parent / "open-problems"
# two tight frames and the two loosely surrounded positions (read in a wider frame or not)
NAMES = ("corner-kill-bent-three", "side-live-straight-three", "loose-corner-kill", "loose-side-live")
MODEL = Path(__file__).resolve().parents[1] / "model" / "networks" / "conv-books"


def _record(name: str) -> dict:
    path = OPEN / f"{name}.sgf"
    return enclose_file(path.read_bytes(), str(path), name, DEFAULT_MAX_NODES, 40).record


def test_the_reported_reading_is_framed_again_with_its_area_and_answer():
    for name in NAMES:
        record = _record(name)
        problem, area = framed_reading(OPEN / f"{name}.sgf", record)
        assert area == record["area"], name
        assert problem.target == parse_sgf_point(record["target"])
        # the enclosed answer holds in the frame rebuilt: the side to play wins first, loses second
        to_play = problem.to_play
        assert Solver(problem).solve(to_play).winner == to_play, name
        assert Solver(problem).solve(3 - to_play).winner == 3 - to_play, name


def test_a_record_without_a_reading_or_with_another_area_is_left_out_with_its_reason():
    path = OPEN / "corner-kill-bent-three.sgf"
    assert framed_reading(path, {"outcome": "bad-input"}) == "no reading reported"
    record = dict(_record("corner-kill-bent-three"), area=99)
    assert framed_reading(path, record) == "no frame with the reported area of 99 points"


def test_a_solve_counts_only_within_its_time():
    problem, _ = framed_reading(OPEN / "corner-kill-bent-three.sgf", _record("corner-kill-bent-three"))
    winner, nodes, seconds = common.timed_solve(problem, problem.to_play, "dfs", None, 30.0)
    assert winner == problem.to_play and nodes > 0 and 0 < seconds <= 30
    assert common.timed_solve(problem, problem.to_play, "dfs", None, 0.0) is None


def test_a_solve_that_fails_is_an_error_not_a_solve_over_time(monkeypatch):
    problem, _ = framed_reading(OPEN / "corner-kill-bent-three.sgf", _record("corner-kill-bent-three"))

    class Failing:
        def __init__(self, problem, race=True):
            pass

        def solve(self, *args, **kwargs):
            raise ValueError("the target has been captured")

    monkeypatch.setattr(common, "Solver", Failing)
    with pytest.raises(RuntimeError, match="dfs: the solve failed: ValueError: the target has been captured"):
        common.timed_solve(problem, problem.to_play, "dfs", None, 30.0)


def test_the_command_counts_every_case_and_guided_and_unguided_agree(tmp_path, capsys):
    earlier = tmp_path / "enclose.jsonl"
    earlier.write_text("".join(json.dumps(dict(_record(name), file=str(OPEN / f"{name}.sgf"))) + "\n"
                               for name in NAMES[:2]))
    code = guided_reach.main([str(OPEN), "--earlier", str(earlier), "--outcome", "enclosed", "--guide",
                              str(MODEL), "--seconds", "30", "--algo", "dfs,dfpn"])
    out = capsys.readouterr().out
    assert code == 0
    assert "2 sampled of 2 with outcome enclosed" in out and "2 framed again, 0 left out" in out
    for algo in ("dfs", "dfpn"):
        assert f"{algo}: cases (a problem, a side first) solved within 30 s" in out
    assert out.count("| all | 4 | 4 | 4 | 0 | 0 |") == 2
    assert "guided: 2 of 2 problems solved both sides first" in out
    assert "winners that differ where both ways solved: 0" in out
