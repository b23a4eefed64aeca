"""tsumego validate: a random sample of subproblems re-solved from scratch with the other search."""
from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from cli.main import main
from pipeline.expand import expand_tree
from pipeline.formats.solution_tree import subproblems_of, tree_text
from pipeline.validate import default_algorithm, subproblem_files
from solver import Solver, parse_problem

# White's corner group; its status depends on who moves first, so both trees grow.
CORNER_NINE = "(;FF[4]GM[1]SZ[9]AB[fa][fb][fc][ad][bd][cd][dd][ed][fd]AW[ea][eb][bc][cc][dc][ec]MA[bc])"


@pytest.fixture(scope="module")
def labelled():
    """Every node of both trees of CORNER_NINE, as solve-all labels them (with DFS)."""
    problem = parse_problem(CORNER_NINE.encode(), "nine", require_to_play=False)
    text = "".join(tree_text(expand_tree(problem, side, max_depth=20, min_area=7), "corner/nine")
                   for side in (problem.attacker, problem.defender))
    return list(subproblems_of(text.encode()))


def _write(folder: Path, subs) -> dict[str, Path]:
    (folder / "subproblems").mkdir(parents=True)
    (folder / "settings.json").write_text(json.dumps({"algo": "dfs"}))
    paths = {}
    for sub in subs:
        path = folder / "subproblems" / sub.name()
        path.write_text(sub.to_sgf())
        paths[sub.name()] = path
    return paths


def _validate(folder: Path, *extra: str, capsys) -> tuple[int, str, str]:
    code = main(["validate", str(folder), "--no-progress", *extra])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_the_other_search_is_the_default(tmp_path):
    (tmp_path / "settings.json").write_text(json.dumps({"algo": "dfs"}))
    assert default_algorithm(tmp_path) == "dfpn"
    (tmp_path / "settings.json").write_text(json.dumps({"algo": "dfpn"}))
    assert default_algorithm(tmp_path) == "dfs"
    # DIR may be the subproblems folder itself: the settings are one level up.
    (tmp_path / "subproblems").mkdir()
    assert default_algorithm(tmp_path / "subproblems") == "dfs"


def test_a_recorded_move_that_captures_the_target_wins(tmp_path, capsys):
    # White's two corner stones in atari, Black to play: TR captures them at once.
    atari = "(;FF[4]GM[1]SZ[9]GN[atari]PL[B]AB[ca][bb][ac][bc][cb]AW[aa][ba]MA[aa]TS[0]DS[0]AS[1]TR[ab])\n"
    folder = tmp_path / "subproblems"
    folder.mkdir()
    (folder / "atari.sgf").write_text(atari)
    # TR in the far corner, among White stones with liberties: suicide for Black.
    suicide = atari.replace("TR[ab]", "TR[ia]").replace("AW[aa][ba]", "AW[aa][ba][ha][hb][ib]")
    (folder / "illegal.sgf").write_text(suicide)
    code, out, _ = _validate(tmp_path, "--algo", "dfs", capsys=capsys)
    assert code == 1
    assert out.splitlines() == [f"disagree: {folder / 'illegal.sgf'}: the TR move is illegal",
                                "validate: sampled 2 of 2 with dfs (seed 0) = agreed 1 + disagreed 1 "
                                "+ unknown 0 + rejected 0"]


def test_labels_of_solve_all_agree_with_df_pn(labelled, tmp_path, capsys):
    _write(tmp_path, labelled)
    code, out, _ = _validate(tmp_path, "--sample", "60", capsys=capsys)
    assert code == 0
    assert f"sampled 60 of {len(labelled)} with dfpn (seed 0) = agreed 60 + disagreed 0" in out


def test_wrong_labels_and_moves_are_reported_by_file(labelled, tmp_path, capsys):
    flipped = [replace(sub, safe=not sub.safe, best_move=None) for sub in labelled[:4]]
    moved = []   # TR moved to a point where PL's move loses
    for sub in labelled[4:]:
        if sub.best_move is None or len(moved) == 3:
            continue
        solver = Solver(parse_problem(sub.to_sgf().encode(), sub.name()))
        for x, y in solver.moves():
            if solver.play(x, y, sub.to_play):
                loses = solver.solve(3 - sub.to_play).winner != sub.to_play
                solver.take_back()
                if loses:
                    moved.append(replace(sub, best_move=(x, y)))
                    break
    assert len(moved) == 3
    paths = _write(tmp_path, flipped + labelled[4:30])
    for sub in moved:
        paths[sub.name()].write_text(sub.to_sgf())
    code, out, _ = _validate(tmp_path, "--sample", "1000", "--algo", "dfs", capsys=capsys)
    assert code == 1
    reported = {line.split(": ")[1] for line in out.splitlines() if line.startswith("disagree:")}
    assert reported == {str(paths[sub.name()]) for sub in flipped + moved}
    assert f"disagreed {len(reported)}" in out


def test_the_sample_depends_only_on_the_seed(labelled, tmp_path):
    from pipeline.validate import validate

    _write(tmp_path, labelled)
    files = subproblem_files(tmp_path)
    first = [c.file for c in validate(files, 7, seed=3, algo="dfs", max_nodes=0, progress=False)]
    again = [c.file for c in validate(files, 7, seed=3, algo="dfs", max_nodes=0, progress=False)]
    other = [c.file for c in validate(files, 7, seed=4, algo="dfs", max_nodes=0, progress=False)]
    assert first == again and len(first) == 7 and first != other


def test_unreadable_files_are_counted_and_named(labelled, tmp_path, capsys):
    _write(tmp_path, labelled[:3])
    broken = tmp_path / "subproblems" / "broken.sgf"
    broken.write_text("(;FF[4]SZ[9]AB[aa]PL[B])")
    code, out, err = _validate(tmp_path, "--sample", "10", "--algo", "dfs", capsys=capsys)
    assert code == 0
    assert f"error: {broken}: no MA[] property" in err
    assert "agreed 3 + disagreed 0 + unknown 0 + rejected 1" in out
