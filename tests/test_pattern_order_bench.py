"""research.pattern_order: its cases come from the half the patterns were not fitted on, and its
table adds up what the solves gave."""
import json

from research.pattern_order import cases, solve_case, summary
from solver.pattern_training import training_half


def test_the_enclosed_cases_come_from_the_held_out_half_only(tmp_path):
    names = [f"book/{n:03d}" for n in range(100)]
    entries = [{"problem": n, "outcome": "enclosed", "area": 15} for n in names]
    (tmp_path / "enclose.jsonl").write_text("".join(json.dumps(e) + "\n" for e in entries))
    enclosed = [path for kind, path in cases(tmp_path, 1000, (14, 17)) if kind == "enclosed"]
    held_out = [n for n in names if not training_half(n)]
    assert sorted(enclosed) == sorted(str(tmp_path / f"{n}.sgf") for n in held_out)
    assert [p for k, p in cases(tmp_path, 1000, (16, 17)) if k == "enclosed"] == []


def test_one_case_is_solved_both_ways_and_summed(tmp_path):
    from pathlib import Path

    path = sorted((Path(__file__).resolve().parents[1] / "sgf-problems" / "eye-shapes").glob("*.sgf"))[0]
    rows = solve_case(("enclosed", str(path), "dfs", 100_000, None, None))
    assert len(rows) == 2
    for row in rows:
        assert row["baseline"]["winner"] == row["patterns"]["winner"] is not None
    table = summary(rows)
    nodes = [sum(r[k]["nodes"] for r in rows) for k in ("baseline", "patterns")]
    enclosed_row = [line for line in table if line.startswith("| dfs | enclosed |")][0]
    assert f"({nodes[1]:,} / {nodes[0]:,})" in enclosed_row and enclosed_row.endswith("| 0 |")
    assert "| 2 / 2 |" in enclosed_row


def test_two_weights_files_can_be_compared(tmp_path):
    from pathlib import Path

    from solver.patterns import DEFAULT_PATH

    path = sorted((Path(__file__).resolve().parents[1] / "sgf-problems" / "eye-shapes").glob("*.sgf"))[0]
    same = solve_case(("enclosed", str(path), "dfs", 100_000, str(DEFAULT_PATH), str(DEFAULT_PATH)))
    shipped = solve_case(("enclosed", str(path), "dfs", 100_000, None, None))
    for row, against_heuristic in zip(same, shipped):
        assert row["baseline"]["nodes"] == row["patterns"]["nodes"] == against_heuristic["patterns"]["nodes"]
