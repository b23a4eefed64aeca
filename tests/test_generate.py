"""``tsumego generate``: deterministic, verified, non-trivial problems, honest counts."""
import json

import numpy as np
import pytest

from cli.main import main
from pipeline.generate import Settings, canonical_key, generate
from pipeline.symmetries import transform
from solver import BLACK, EMPTY, Solver, load_problem

COUNT = 6
SEED = 5
SETTINGS = Settings(min_area=4, max_area=8)
CLI_ARGS = ["--count", str(COUNT), "--seed", str(SEED), "--min-area", "4", "--max-area", "8"]


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    out = tmp_path_factory.mktemp("generated")
    summary = generate(COUNT, SEED, out, SETTINGS, progress=False)
    return out, summary


def _files(folder):
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())}


def test_same_seed_same_bytes(run, tmp_path, capsys):
    out, _ = run
    again = tmp_path / "again"
    again.mkdir()
    (again / "seed9-00099.sgf").write_text("a file of an earlier run")
    assert main(["generate", *CLI_ARGS, "--out", str(again)]) == 0
    written = capsys.readouterr()
    assert "candidates tried" in written.out
    # the bar in a log (captured stderr): its opening and closing states, not a redraw per problem
    assert written.err.count("generate:") == 2 and f"{COUNT}/{COUNT}" in written.err
    assert _files(again) == _files(out)
    other = tmp_path / "other-seed"
    generate(COUNT, SEED + 1, other, SETTINGS, progress=False)
    assert _files(other) != _files(out)


def test_every_problem_is_verified_non_trivial(run):
    out, _ = run
    paths = sorted(out.glob("*.sgf"))
    assert len(paths) == COUNT
    for path in paths:
        problem = assert_verified(path, SETTINGS)
        assert f"seed {SEED} problem" in problem.properties["GN"]


def assert_verified(path, settings):
    """The problem at ``path`` is in the area range, won by whoever moves first, and lists every
    winning first move of PL; returns it."""
    problem = load_problem(path)
    pl = problem.to_play
    solver = Solver(problem)
    assert settings.min_area <= solver.area_size <= settings.max_area
    assert solver.solve(pl).winner == pl, path.name
    assert Solver(problem).solve(3 - pl).winner == 3 - pl, path.name
    wins = set()
    for x, y in solver.moves():
        if solver.play(x, y, pl):
            if solver.target_captured() or solver.solve(3 - pl).winner == pl:
                wins.add((x, y))
            solver.take_back()
    assert set(problem.first_moves) == wins, path.name
    return problem


def test_the_counts_add_up(run):
    out, summary = run
    assert summary == json.loads((out / "summary.json").read_text())
    assert summary["written"] == COUNT == summary["distinct_positions"]
    assert summary["candidates"] == summary["written"] + sum(summary["rejected"].values())
    assert sum(summary["area_histogram"].values()) == COUNT
    assert all(4 <= int(area) <= 8 for area in summary["area_histogram"])
    assert sum(summary["by_kind"].values()) == sum(summary["by_task"].values()) == COUNT
    areas = [Solver(load_problem(p)).area_size for p in out.glob("*.sgf")]
    assert {str(a): areas.count(a) for a in set(areas)} == summary["area_histogram"]


def test_to_play_option(tmp_path):
    generate(2, SEED, tmp_path, Settings(min_area=4, max_area=6, to_play="B"), progress=False)
    assert {load_problem(p).to_play for p in tmp_path.glob("*.sgf")} == {BLACK}


def test_canonical_key_identifies_symmetric_and_colour_swapped_copies():
    stones = np.zeros((13, 13), dtype=np.int8)
    stones[0, 1], stones[1, 0], stones[1, 1], stones[2, 2] = 1, 1, 2, 2
    block = stones == 2
    block[2, 2] = False
    key = canonical_key(stones, block, BLACK)
    for symmetry in range(8):
        turned = transform(stones, symmetry)
        swapped = np.where(turned == EMPTY, EMPTY, 3 - turned).astype(np.int8)
        assert canonical_key(swapped, transform(block, symmetry), 3 - BLACK) == key
    assert canonical_key(stones, block, 3 - BLACK) != key
    moved = stones.copy()
    moved[2, 2], moved[3, 3] = EMPTY, 2
    assert canonical_key(moved, block, BLACK) != key


def test_bad_area_range_is_one_clear_error(tmp_path, capsys):
    with pytest.raises(SystemExit) as exited:
        main(["generate", "--count", "1", "--seed", "1", "--out", str(tmp_path),
              "--min-area", "9", "--max-area", "5"])
    assert exited.value.code == 2
    assert "tsumego generate: error: need 1 <= --min-area (9) <= --max-area (5)" in capsys.readouterr().err
    assert not list(tmp_path.iterdir())


def test_a_negative_seed_is_one_clear_error(tmp_path, capsys):
    with pytest.raises(SystemExit) as exited:
        main(["generate", "--count", "1", "--seed", "-3", "--out", str(tmp_path)])
    assert exited.value.code == 2
    assert "error: --seed and --count must not be negative" in capsys.readouterr().err


def test_too_few_problems_is_an_error_after_the_summary(tmp_path, capsys):
    assert main(["generate", "--count", "1", "--seed", "1", "--out", str(tmp_path),
                 "--min-area", "1", "--max-area", "1"]) == 1
    out, err = capsys.readouterr()
    assert "summary ->" in out
    assert err.strip().splitlines()[-1].startswith("error: only 0 of 1 problems after ")


OPEN_SETTINGS = Settings(min_area=5, max_area=12, style="open")


@pytest.fixture(scope="module")
def open_run(tmp_path_factory):
    out = tmp_path_factory.mktemp("generated-open")
    summary = generate(4, SEED, out, OPEN_SETTINGS, progress=False)
    return out, summary


def test_open_style_same_seed_same_bytes_and_not_the_walled_problems(open_run, run, tmp_path):
    out, summary = open_run
    assert summary["settings"]["style"] == "open" and summary["written"] == 4
    generate(4, SEED, tmp_path, OPEN_SETTINGS, progress=False)
    assert _files(tmp_path) == _files(out)
    walled, _ = run
    assert not set(_files(out).values()) & set(_files(walled).values())


def test_open_style_problems_are_verified_non_trivial(open_run):
    """Framed by enclose, each problem is still checked like the walled style's: non-trivial,
    in the area range, every winning first move listed."""
    out, _ = open_run
    paths = sorted(out.glob("*.sgf"))
    assert len(paths) == 4
    for path in paths:
        assert_verified(path, OPEN_SETTINGS)
