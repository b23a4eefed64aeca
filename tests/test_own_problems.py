"""The project's own corpus: every problem is sound and its answers are complete.

For each file of ``sgf-problems/``: it loads; the side in ``PL`` wins moving
first while the other side would win moving first (the first move matters);
every root variation wins (after it, the opponent to move loses); and no
winning first move is missing from the root variations.  The attacker is ko
master throughout.  The README's counts must match the files.
"""
from pathlib import Path

import pytest

from pipeline.corpus_stats import BEGIN, END, markdown, read_entries
from solver import Solver, load_problem
from solver.problem import sgf_point

PROBLEMS = Path(__file__).resolve().parents[1] / "sgf-problems"
FILES = sorted(PROBLEMS.rglob("*.sgf"))


def winning_first_moves(solver, color):
    wins = set()
    for x, y in solver.moves():
        if not solver.play(x, y, color):
            continue
        if solver.target_captured() or solver.solve(3 - color).winner == color:
            wins.add((x, y))
        solver.take_back()
    return wins


def test_the_corpus_is_large_and_varied():
    assert len(FILES) >= 60
    problems = [load_problem(path) for path in FILES]
    assert {p.to_play for p in problems} == {1, 2}
    assert any(p.to_play == p.defender for p in problems)
    assert any(p.to_play == p.attacker for p in problems)


@pytest.mark.parametrize("path", FILES, ids=[p.relative_to(PROBLEMS).as_posix() for p in FILES])
def test_problem_is_sound_and_complete(path):
    problem = load_problem(path)
    solver = Solver(problem)
    pl = problem.to_play
    verdict = solver.solve(pl)
    assert verdict.winner == pl, "the side to play does not win"
    assert Solver(problem).solve(3 - pl).winner == 3 - pl, "the first move does not matter"
    listed = set(problem.first_moves)
    assert listed, "no root variation"
    wins = winning_first_moves(solver, pl)
    assert listed <= wins, f"listed moves that lose: {[sgf_point(*m) for m in sorted(listed - wins)]}"
    assert wins <= listed, f"winning moves not listed: {[sgf_point(*m) for m in sorted(wins - listed)]}"


def test_readme_counts_match_the_files():
    entries, errors = read_entries(PROBLEMS)
    assert not errors
    readme = (PROBLEMS / "README.md").read_text()
    assert BEGIN in readme and END in readme
    section = readme.split(BEGIN, 1)[1].split(END, 1)[0]
    assert section.strip() == markdown(entries).strip(), "run: tsumego corpus-stats --readme sgf-problems/README.md"
