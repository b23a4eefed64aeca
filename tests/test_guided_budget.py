"""research.guided_budget: variants at rising node budgets, resumed from their log, every reading counted."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from research import guided_budget
from model.guide import WEIGHTS
from pipeline.enclose.command import DEFAULT_MAX_NODES
from pipeline.enclose.outcome import enclose_file

OPEN = Path(__file__).resolve().parent / "open-problems"
NAMES = ("corner-kill-bent-three", "side-live-straight-three")
MODEL = Path(__file__).resolve().parents[1] / "model" / "networks" / "conv-books"
# the shipped network is a conv one: its prior's weight is WEIGHTS["conv"]
GUIDED = f"guided, weight {WEIGHTS['conv']:g}"
FADED = f"fade 300,000, weight {WEIGHTS['conv']:g}"
VARIANTS = ["unguided", GUIDED, FADED]


def _draws(tmp_path: Path, extra: str = "") -> Path:
    lines = []
    for draw, name in enumerate(NAMES):
        path = OPEN / f"{name}.sgf"
        record = enclose_file(path.read_bytes(), str(path), name, DEFAULT_MAX_NODES, 40).record
        lines.append(json.dumps(dict(record, file=str(path), draw=draw)) + "\n")
    draws = tmp_path / "draws.jsonl"
    draws.write_text("".join(lines) + extra)
    return draws


def test_a_larger_budget_goes_only_to_the_variants_that_ran_out_where_another_settled():
    budgets = [100, 1000]
    case = ("f.sgf", 1, "dfs")

    def solve(variant, budget, winner):
        return {case + (variant, budget): dict(winner=winner)}

    done = {**solve("unguided", 100, None), **solve(GUIDED, 100, 1), **solve(FADED, 100, None)}
    assert not guided_budget.due(done, case + (GUIDED,), VARIANTS, budgets, 1)      # settled already
    assert guided_budget.due(done, case + ("unguided",), VARIANTS, budgets, 1)        # another settled it
    done.update(solve("unguided", 1000, 1))
    assert not guided_budget.due(done, case + ("unguided",), VARIANTS, budgets, 1)    # run already
    nobody = {**solve("unguided", 100, None), **solve(GUIDED, 100, None), **solve(FADED, 100, None)}
    assert not guided_budget.due(nobody, case + ("unguided",), VARIANTS, budgets, 1)  # nobody settled it
    assert guided_budget.due({}, case + ("unguided",), VARIANTS, budgets, 0)          # the first budget: all
    # a reused log's solve that settled the case only at the larger budget
    reused = {**nobody, **solve("unguided", 1000, 2)}
    assert guided_budget.due(reused, case + (GUIDED,), VARIANTS, budgets, 1)
    assert not guided_budget.due(reused, case + ("unguided",), VARIANTS, budgets, 1)  # run already


def test_the_command_runs_every_variant_agrees_and_resumes_from_its_log(tmp_path, capsys):
    draws = _draws(tmp_path, extra=json.dumps(dict(file=str(tmp_path / "gone.sgf"), target="aa", area=9)) + "\n")
    log = tmp_path / "log"
    argv = ["--draws", str(draws), "--guide", str(MODEL), "--fade", "0,300000", "--budgets", "2000000,3000000",
            "--workers", "2", "--log", str(log)]
    assert guided_budget.main(argv) == 0
    out = capsys.readouterr().out
    assert f"{tmp_path / 'gone.sgf'}: left out: no such file" in out
    assert "3 readings in" in out and "2 framed again (4 cases), 1 left out" in out
    rows = [json.loads(line) for path in log.glob("solves-*.jsonl") for line in path.read_text().splitlines()]
    # every case and variant at the first budget, where all settle: none again at the second
    assert sorted((r["variant"], r["budget"]) for r in rows) == sorted(
        (v, 2_000_000) for v in VARIANTS for _ in range(4))
    assert all(r["winner"] is not None for r in rows)
    assert "| all | 4 | 4 | 4 | 4 |" in out
    assert "| draw 0 | 2 | 2 | 2 | 2 |" in out and "| draw 1 | 2 | 2 | 2 | 2 |" in out
    assert "winners that differ where two variants settled a case: 0" in out

    assert guided_budget.main(argv) == 0   # resumed: nothing left to solve, the same report
    again = capsys.readouterr().out
    assert "budget 2,000,000:" not in again and "| all | 4 | 4 | 4 | 4 |" in again
    assert sum(len(path.read_text().splitlines()) for path in log.glob("solves-*.jsonl")) == len(rows)


def test_several_draws_files_make_one_set_of_cases(tmp_path, capsys):
    both = _draws(tmp_path)
    first = tmp_path / "first.jsonl"
    first.write_text(both.read_text().splitlines(keepends=True)[0])
    argv = ["--draws", str(first), str(both), "--guide", str(MODEL), "--fade", "300000", "--budgets", "2000000",
            "--workers", "2", "--log", str(tmp_path / "log")]
    assert guided_budget.main(argv) == 0
    out = capsys.readouterr().out
    # the problem of both files is solved and counted once, and the line says where it was dropped
    assert f"{OPEN / (NAMES[0] + '.sgf')}: left out of {both}: listed in an earlier draw" in out
    assert "2 framed again (4 cases), 1 left out" in out
    assert "| all | 4 | 4 | 4 |" in out
    rows = [line for path in (tmp_path / "log").glob("solves-*.jsonl") for line in path.read_text().splitlines()]
    assert len(rows) == 4 * 2


def test_each_weight_is_a_variant_named_by_it(tmp_path, capsys):
    draws = _draws(tmp_path)
    argv = ["--draws", str(draws), "--guide", str(MODEL), "--fade", "300000", "--weights", "2,0.5",
            "--budgets", "2000000", "--workers", "1", "--log", str(tmp_path / "log")]
    assert guided_budget.main(argv) == 0
    rows = [json.loads(line) for path in (tmp_path / "log").glob("solves-*.jsonl")
            for line in path.read_text().splitlines()]
    assert sorted({r["variant"] for r in rows}) == ["fade 300,000, weight 0.5", "fade 300,000, weight 2", "unguided"]
    assert len(rows) == 4 * 3
    capsys.readouterr()
    for bad in ("0", "2,2", "99", "x"):
        with pytest.raises(SystemExit):
            guided_budget.main(argv[:7] + [bad] + argv[8:])
        assert "--weights" in capsys.readouterr().err
