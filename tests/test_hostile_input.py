"""Hostile files (tests/hostile_files.py) through solve, solve-all and features.

Every file read is answered or rejected on one line naming it, with the
reason of its kind where the kind has one; no exception escapes, no
failure the readers did not foresee (:func:`solver.problem.reason_of`)
stands for a reason, and the batch goes on to the end.
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from hostile_files import (PROBLEM_REASONS, RANDOM_KINDS, SUBPROBLEM_REASONS, kind_of, problem_files,
                           subproblem_files, write)
from cli.main import main


@pytest.fixture(scope="module")
def problems(tmp_path_factory):
    files = problem_files(seed=0)
    return write(files, tmp_path_factory.mktemp("hostile") / "problems"), files


@pytest.fixture(scope="module")
def subproblems(tmp_path_factory):
    files = subproblem_files(seed=0)
    return write(files, tmp_path_factory.mktemp("hostile") / "subproblems"), files


def check_reasons(reasons: dict[str, str | None], expected: dict[str, str | None]) -> None:
    """``reasons``: file name -> rejection reason (None: answered)."""
    for name, reason in reasons.items():
        assert reason is None or "unforeseen" not in reason, (name, reason)
        if kind_of(name) in expected:
            fragment = expected[kind_of(name)]
            assert (reason is None) if fragment is None else (fragment in (reason or "")), (name, reason)


def test_the_generator_is_reproducible_and_makes_every_kind():
    files = problem_files(seed=0)
    assert files == problem_files(seed=0) and files != problem_files(seed=1)
    assert {kind_of(name) for name in files} == set(PROBLEM_REASONS) | set(RANDOM_KINDS) | {"huge-junk"}
    assert max(len(data) for data in files.values()) > 2_000_000 and min(map(len, files.values())) == 0


def test_solve_answers_or_names_every_file(problems, capsys):
    folder, files = problems
    paths = sorted(str(folder / name) for name in files)
    code = main(["solve", "--json", "--max-nodes", "2000", *paths])
    out, err = capsys.readouterr()
    answered = [json.loads(line)["file"] for line in out.splitlines()]
    rejected = {}
    *lines, totals = err.splitlines()
    for line in lines:
        assert line.startswith("error: "), line
        path, reason = line.removeprefix("error: ").split(": ", 1)
        rejected[path] = reason
    assert "Traceback" not in err and code == 1
    assert len(answered) + len(rejected) == len(paths)
    assert sorted(answered + list(rejected)) == paths
    assert totals == f"solve: read {len(paths)} = answered {len(answered)} + rejected {len(rejected)}"
    reasons = {Path(path).name: rejected.get(path) for path in paths}
    check_reasons(reasons, PROBLEM_REASONS)
    # The mutations leave some files readable: the check above saw both outcomes.
    assert len(answered) > 20 and len(rejected) > 100, (len(answered), len(rejected))


def test_solve_all_turns_every_bad_file_into_a_dead_letter(problems, tmp_path, capsys):
    folder, files = problems
    out = tmp_path / "out"
    code = main(["solve-all", "--problems", str(folder), "--out", str(out), "--max-depth", "1",
                 "--max-nodes", "2000", "--no-progress"])
    # every bad file rejected and named, the others expanded: exit code 1, as every command's
    assert code == 1 and "Traceback" not in capsys.readouterr().err
    counts = json.loads((out / "stats.json").read_text())["problems"]
    dead = [json.loads(line) for line in (out / "dead-letter.jsonl").read_text().splitlines()]
    rejected = {row["problem"] for row in dead}
    assert counts["read"] == len(files) and counts["read"] == counts["expanded"] + counts["rejected"]
    assert counts["rejected"] == len(rejected)
    for row in dead:
        assert row["file"] == str(folder / (row["problem"] + ".sgf"))
    reasons = {name: None for name in files}
    for row in dead:
        reasons[row["problem"] + ".sgf"] = row["reason"]
    # solve-all grows both sides: it needs no PL.
    check_reasons(reasons, {**PROBLEM_REASONS, "PL-missing": None})


def test_features_sends_every_bad_subproblem_to_the_dead_letters(subproblems, tmp_path, capsys):
    folder, files = subproblems
    out = tmp_path / "records"
    assert main(["features", "--subproblems", str(folder), "--out", str(out), "--no-progress"]) == 1
    assert "Traceback" not in capsys.readouterr().err
    counts = json.loads((out / "features.json").read_text())["counts"]
    dead = [json.loads(line) for line in (out / "dead-letter.jsonl").read_text().splitlines()]
    assert counts["read"] == len(files) == counts["written_train"] + counts["written_test"] + counts["rejected"]
    assert counts["rejected"] == len(dead) and counts["rejected"] > len(SUBPROBLEM_REASONS)
    reasons = {name: None for name in files}
    for row in dead:
        assert Path(row["file"]).parent == folder
        reasons[Path(row["file"]).name] = row["reason"]
    check_reasons(reasons, SUBPROBLEM_REASONS)
