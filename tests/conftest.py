"""Shared fixtures: the reference corpus beside the repository, and position builders."""
from __future__ import annotations

from pathlib import Path

import pytest

from solver import ProblemError, load_problem

SHARED_PROBLEMS = Path(__file__).resolve().parents[1] / ".." / "shared" / "sgf-problems"


def shared_problem_files() -> list[Path]:
    return sorted(SHARED_PROBLEMS.resolve().glob("*/*.sgf")) if SHARED_PROBLEMS.exists() else []


def solvable_shared_problems():
    """The reference problems that have PL and MA and load cleanly."""
    problems = []
    for path in shared_problem_files():
        try:
            problems.append(load_problem(path))
        except ProblemError:
            continue
    return problems


@pytest.fixture(scope="session")
def shared_problems():
    problems = solvable_shared_problems()
    if not problems:
        pytest.skip("../shared/sgf-problems is not beside the repository")
    return problems
