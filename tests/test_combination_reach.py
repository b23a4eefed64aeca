"""bench.combination_reach: the settled counts and ratios it prints, and the winners it checks."""
from __future__ import annotations

import json

from bench.combination_reach import disagreements, main, tables


def line(file, area, way, winner, nodes, cpu):
    return {"file": file, "target": "aa", "area": area, "way": way, "winner": winner, "nodes": nodes, "cpu": cpu}


LINES = [
    line("a", 17, "dfs", 1, 1000, 1.0), line("a", 17, "dfpn", 1, 250, 0.5),
    line("b", 18, "dfs", 2, 400, 2.0), line("b", 18, "dfpn", 2, 400, 0.5),
    line("c", 22, "dfs", None, 9000, 10.0), line("c", 22, "dfpn", 1, 500, 3.0),
]


def test_the_tables_count_what_each_way_settled_and_the_ratios_where_both_did():
    text = "\n".join(tables(LINES, ["dfs", "dfpn"]))
    assert "| 17-18 | 2 | 2 | 2 |" in text and "| 21-25 | 1 | 0 | 1 |" in text and "| all | 3 | 2 | 3 |" in text
    # nodes 0.25 and 1.0: geometric mean 0.5; CPU 0.5 and 0.25: 0.354
    assert "| dfpn | 2 | 0.500 |" in text and "| 0.354 |" in text


def test_winners_that_differ_are_named_and_fail_the_run(tmp_path, capsys):
    assert disagreements(LINES) == []
    results = tmp_path / "results.jsonl"
    results.write_text("".join(json.dumps(x) + "\n" for x in LINES + [line("a", 17, "dfpn-lead", 2, 9, 0.1)]))
    assert main(["--tables-from", str(results)]) == 1
    out = capsys.readouterr().out
    assert "a aa: winners differ" in out and "dfpn-lead" in out


def test_a_way_guided_by_another_network_needs_its_file():
    import pytest
    from bench.combination_reach import WAYS, _load_guide
    assert WAYS["dfpn-guide-other"][2] == "other" and WAYS["dfpn-guide"][2] == "shipped"
    with pytest.raises(SystemExit, match="--other-guide"):
        _load_guide(None, "other", None)
