"""bench.combination_reach: the settled counts and ratios it prints, and the winners it checks."""
from __future__ import annotations

import json

from bench.combination_reach import disagreements, line_table, main, tables


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


def test_the_lines_table_counts_each_way_s_lines_by_how_they_ended():
    read = [dict(LINES[0], line_ended="capture", line_cpu=0.2), dict(LINES[1], line_ended="time limit", line_cpu=7.0),
            dict(LINES[3], line_ended="passes", line_cpu=0.1), dict(LINES[5], line_ended="capture", line_cpu=0.4)]
    text = "\n".join(line_table(read + [LINES[2]], ["dfs", "dfpn"]))
    assert "| way | settled | capture | passes | time limit | median line CPU s |" in text
    assert "| dfs | 1 | 1 | 0 | 0 | 0.20 |" in text and "| dfpn | 3 | 1 | 1 | 1 | 0.40 |" in text


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


def test_the_time_pass_way_is_the_search_enclose_seconds_spends_its_time_with():
    from bench.combination_reach import WAYS
    from pipeline.enclose.question import TIME_ALGO, TIME_OPTIONS
    algo, options, guide = WAYS["time-pass"]
    assert (algo, options, guide) == (TIME_ALGO, TIME_OPTIONS, None)
    # a copy: a bench that edits its options leaves enclose's alone
    assert options is not TIME_OPTIONS
    # today that search is df-pn with the simulation and the eye space
    assert (algo, options) == WAYS["dfpn-sim-eye"][:2]


def test_settled_readings_go_to_tsumego_js_and_a_disagreement_fails_the_run(tmp_path, monkeypatch, capsys):
    """--peer: each reading a way settled is framed, cut to tsumego.js's board and asked once;
    the tally is agreed + disagreed + unfinished + not asked, and a disagreement exits 1.
    tsumego.js itself is stood in for here (its answers given), so that the tally is what is
    tested; the real one answers in bench/peer's own tests."""
    import pytest
    from bench.peer import tsumego_js
    from bench.reach_bench import DEFAULT_READINGS, REPOSITORY, read_readings
    from pipeline.enclose.reframe import framed_reading

    rows = [r for r in read_readings([str(DEFAULT_READINGS)]) if (REPOSITORY / r["file"]).is_file()][:3]
    if len(rows) < 3:
        pytest.skip("../shared/sgf-open (the book problems) is not beside the repository")
    problems = [framed_reading(REPOSITORY / r["file"], r)[0] for r in rows]
    # the first two settled (the first the defender's, the second the attacker's), the third not
    lines = [{"file": r["file"], "target": r["target"], "area": r["area"], "way": "dfpn", "winner": w, "nodes": 9,
              "cpu": 1.0} for r, w in zip(rows, (problems[0].defender, problems[1].attacker, None))]
    asked = []

    def answers(files, ko_master, file_timeout):
        asked.extend(files)
        assert ko_master == "attacker" and file_timeout == 5
        sgfs = [open(f).read() for f in files]
        assert all(s.startswith("(;FF[4]SZ[") and "MA[" in s for s in sgfs)
        return [{"status": "safe"}, {"status": "safe"}]   # the first agrees, the second does not

    monkeypatch.setattr(tsumego_js, "solve_files", answers)
    results = tmp_path / "results.jsonl"
    results.write_text("".join(json.dumps(x) + "\n" for x in lines))
    assert main(["--tables-from", str(results), "--peer", "5"]) == 1
    out = capsys.readouterr().out
    assert len(asked) == 2
    assert f"{rows[1]['file']} {rows[1]['target']}: tsumego.js safe, the solver unsafe" in out
    assert "agreed 1 + disagreed 1 + over 5 s or failed 0 + not asked 0" in out


def test_a_position_is_cut_to_the_board_tsumego_js_reads():
    import numpy as np
    from bench.peer.cut import MARGIN, MAX_SIZE, cut_sgf

    stones = np.zeros((19, 19), dtype=np.int8)
    stones[0, 0], stones[1, 3] = 1, 2
    sgf, why = cut_sgf(stones, 2, (0, 0))
    assert why == "" and sgf.startswith(f"(;FF[4]SZ[{3 + 1 + MARGIN}]PL[W]AB[aa]AW[db]MA[aa])")
    stones[MAX_SIZE - MARGIN, 0] = 1
    sgf, why = cut_sgf(stones, 1, (0, 0))
    assert sgf is None and why == f"{MAX_SIZE + 1} lines, over its {MAX_SIZE}"
