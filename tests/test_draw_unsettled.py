"""research.draw_unsettled: a seeded draw of an earlier run's unsettled readings, earlier draws left out."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from research import draw_unsettled

OPEN = Path(__file__).resolve().parent / "open-problems"


def _earlier(tmp_path: Path) -> Path:
    """An enclose.jsonl reporting every test problem: unsettled with areas 10 to 19, or enclosed."""
    lines = []
    for number, path in enumerate(sorted(OPEN.glob("*.sgf"))):
        outcome = "enclosed" if number % 5 == 0 else "unsettled"
        lines.append(json.dumps(dict(file=str(path), outcome=outcome, target="aa", area=10 + number % 10)))
    earlier = tmp_path / "enclose.jsonl"
    earlier.write_text("\n".join(lines) + "\n")
    return earlier


def _rows(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def test_a_draw_is_seeded_filtered_and_leaves_out_earlier_draws(tmp_path, capsys):
    earlier = _earlier(tmp_path)
    reported = {row["file"]: row for row in _rows(earlier)}
    first, second, again = tmp_path / "first.jsonl", tmp_path / "second.jsonl", tmp_path / "again.jsonl"
    common = [str(OPEN), "--earlier", str(earlier), "--areas", "12-16", "--sample", "4"]
    assert draw_unsettled.main(common + ["--seed", "3", "--out", str(first)]) == 0
    drawn = _rows(first)
    assert len(drawn) == 4 and all(row["draw"] == 3 for row in drawn)
    for row in drawn:   # the earlier run's reading, unsettled, inside the areas
        assert row["outcome"] == "unsettled" and 12 <= row["area"] <= 16
        assert (row["target"], row["area"]) == (reported[row["file"]]["target"], reported[row["file"]]["area"])
    eligible = [f for f, row in reported.items() if row["outcome"] == "unsettled" and 12 <= row["area"] <= 16]
    assert "4 drawn (seed 3) of %d" % len(eligible) in capsys.readouterr().out

    assert draw_unsettled.main(common + ["--seed", "3", "--out", str(again)]) == 0
    assert _rows(again) == drawn   # the seed decides the draw

    assert draw_unsettled.main(common + ["--seed", "3", "--exclude", str(first), "--out", str(second)]) == 0
    assert not {row["file"] for row in _rows(second)} & {row["file"] for row in drawn}
    assert "4 earlier draws' problems excluded" in capsys.readouterr().out

    with pytest.raises(SystemExit):   # a draw is written once
        draw_unsettled.main(common + ["--seed", "4", "--out", str(first)])
    assert _rows(first) == drawn
