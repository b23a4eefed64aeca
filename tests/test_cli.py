"""The `tsumego solve` contract that other tools rely on."""
import json

import pytest

from cli.main import main

GOOD = (b"(;FF[4]SZ[9]PL[B]AB[da][db][dc][cc][bc][ac][ea][eb][ec][ed][dd][cd][bd][ad]"
        b"AW[ba][bb][cb]MA[ba])")


def test_json_lines_and_errors(tmp_path, capsys):
    good = tmp_path / "good.sgf"
    good.write_bytes(GOOD)
    bad = tmp_path / "bad.sgf"
    bad.write_bytes(GOOD.replace(b"MA[ba]", b""))
    assert main(["solve", "--json", str(bad), str(good)]) == 1
    out, err = capsys.readouterr()
    assert f"{bad}: no MA[]" in err
    (row,) = [json.loads(line) for line in out.splitlines()]
    assert row["file"] == str(good) and row["to_play"] == "B"
    assert row["status"] in ("safe", "unsafe") and row["nodes"] > 0
    # Three points in the corner with a black stone beside them: White moving first cannot
    # make two eyes either, so Black needs no move (an SGF pass, ""), in Go coordinates with
    # the SGF point beside them.
    assert row["status"] == "unsafe" and (row["move"], row["sgf"]) == ("pass", "")
    assert (row["target"], row["target_sgf"], row["defender"]) == ("B9", "ba", "W")
    assert row["verdict"] == "Black to play: the white group at B9 is dead as it stands; no move needed"
    assert (row["ko"], row["standing"], row["frame"]) == (None, "dead", None)   # a problem: no frame
    # nodes: the label's solve (Black first, the attacker ko master); nodes_total: every solve
    assert row["nodes"] == 2 and row["nodes_total"] > row["nodes"]
    assert err.splitlines()[-1] == "solve: read 2 = answered 1 + rejected 1"


def test_text_line_speaks_go_and_folders_are_read_with_totals(tmp_path, capsys):
    folder = tmp_path / "problems"
    (folder / "inner").mkdir(parents=True)
    (folder / "inner" / "good.sgf").write_bytes(GOOD)
    (folder / "bad.sgf").write_bytes(b"(;SZ[9]AB[zz])")
    (folder / "notes.txt").write_text("not a problem")
    empty = tmp_path / "empty"
    empty.mkdir()
    assert main(["solve", str(folder), str(empty)]) == 1
    out, err = capsys.readouterr()
    assert out == (f"{folder / 'inner' / 'good.sgf'}: Black to play: the white group at B9 is dead as it "
                   f"stands; no move needed (proved, 11 nodes, {out.split(', ')[-1]}")
    assert f"error: {folder / 'bad.sgf'}: " in err
    assert f"error: {empty}: a folder without *.sgf files" in err
    assert err.splitlines()[-1] == "solve: read 3 = answered 1 + rejected 2"
    assert main(["solve", str(folder / "inner")]) == 0   # every input answered: exit code 0


def test_both_algorithms_and_ko_masters_run(tmp_path, capsys):
    good = tmp_path / "good.sgf"
    good.write_bytes(GOOD)
    for algo in ("dfs", "dfpn"):
        for km in ("attacker", "defender", "none"):
            assert main(["solve", "--json", "--algo", algo, "--ko-master", km, str(good)]) == 0
    statuses = {json.loads(line)["status"] for line in capsys.readouterr().out.splitlines()}
    assert statuses == {"unsafe"}


def test_node_budget_gives_unknown(tmp_path, capsys):
    good = tmp_path / "good.sgf"
    good.write_bytes(GOOD)
    assert main(["solve", "--json", "--max-nodes", "1", str(good)]) == 0
    assert json.loads(capsys.readouterr().out)["status"] == "unknown"


def test_solve_has_a_default_node_budget_and_zero_lifts_it(tmp_path, capsys, monkeypatch):
    from pipeline import solve_command

    good = tmp_path / "good.sgf"
    good.write_bytes(GOOD)
    monkeypatch.setattr(solve_command, "DEFAULT_SOLVE_MAX_NODES", 1)   # the problem needs 2 (4 with --no-race)
    assert main(["solve", "--json", str(good)]) == 0
    row = json.loads(capsys.readouterr().out)
    assert (row["status"], row["move"], row["nodes"]) == ("unknown", None, 2)
    assert main(["solve", "--json", "--max-nodes", "0", str(good)]) == 0
    row = json.loads(capsys.readouterr().out)
    assert (row["status"], row["nodes"]) == ("unsafe", 2)
    assert main(["solve", "--json", "--max-nodes", "0", "--no-race", str(good)]) == 0
    row = json.loads(capsys.readouterr().out)
    assert (row["status"], row["nodes"]) == ("unsafe", 4)


def test_a_tiny_table_gives_the_same_answer(tmp_path, capsys):
    good = tmp_path / "good.sgf"
    good.write_bytes(GOOD)
    answers = []
    for table_mb in ("0", "0.0001", "1"):
        assert main(["solve", "--json", "--max-table-mb", table_mb, str(good)]) == 0
        answers.append(json.loads(capsys.readouterr().out)["status"])
    assert answers == ["unsafe"] * 3


@pytest.mark.parametrize("option", ["--max-nodes", "--max-table-mb"])
def test_a_negative_budget_or_bound_is_an_argument_error(tmp_path, capsys, option):
    good = tmp_path / "good.sgf"
    good.write_bytes(GOOD)
    with pytest.raises(SystemExit) as exit_:
        main(["solve", option, "-1", str(good)])
    assert exit_.value.code == 2
    assert "must not be negative" in capsys.readouterr().err


def test_a_progress_bar_written_to_a_log_is_redrawn_at_most_once_a_minute():
    import io

    from pipeline.progress import progress_bar

    log = io.StringIO()
    for _ in progress_bar(range(20_000), desc="work", file=log):
        pass
    # the opening and the closing state only, not thousands of redraws on one line
    assert log.getvalue().count("work:") == 2
    assert "20000/20000" in log.getvalue()


def test_worker_tallies_add_up_from_their_files(tmp_path):
    from pipeline.progress import WorkerTally, tally_of

    first, second = WorkerTally(str(tmp_path), every=10), WorkerTally(str(tmp_path), every=10)
    for _ in range(25):
        first.add()
    second.add(7)
    assert tally_of(str(tmp_path)) == 20        # written at 10 and 20; second not yet
    second.add(5)
    assert tally_of(str(tmp_path)) == 32        # second passed 10 with one step of 5
    first.flush()
    assert tally_of(str(tmp_path)) == 37
    assert len(list(tmp_path.iterdir())) == 2   # one file each, rewritten in place


def test_the_solve_all_bar_in_a_log_is_not_redrawn_at_every_poll(tmp_path, capsys, monkeypatch):
    import time

    from pipeline.progress import PolledBar
    from pipeline.solve_all_pipeline import Layout, sides_bar

    monkeypatch.setattr(PolledBar, "POLL_SECONDS", 0.01)
    layout = Layout(str(tmp_path))
    (tmp_path / "partial").mkdir()
    problems = [(f"p{i}", f"p{i}.sgf") for i in range(3)]
    with sides_bar(layout, problems) as progress:
        for i, _ in enumerate(problems):
            for side in ("defender", "attacker"):
                (tmp_path / "partial" / f"p{i}.{side}.sgf").write_text("(;)")
                time.sleep(0.05)
        deadline = time.monotonic() + 5
        while progress.bar.n < 6 and time.monotonic() < deadline:
            time.sleep(0.01)
    err = capsys.readouterr().err
    assert progress.bar.n == 6
    # the opening and the closing state (tens of polls happened in between)
    assert err.count("solve-all sides:") == 2
    assert "6/6" in err


def test_the_solve_all_bar_counts_a_side_rejected_now_and_leaves_out_one_rejected_before(tmp_path, monkeypatch):
    import time

    from pipeline import rejected_sides
    from pipeline.progress import PolledBar
    from pipeline.solve_all_pipeline import Layout, sides_bar

    monkeypatch.setattr(PolledBar, "POLL_SECONDS", 0.01)
    layout = Layout(str(tmp_path))
    problems = [("p0", "p0.sgf"), ("p1", "p1.sgf")]
    rejected_sides.remember(layout.rejected("p0", "attacker"), "position", "over the budget")
    with sides_bar(layout, problems) as progress:
        assert progress.bar.total == 3   # p0's attacker side will not be searched again
        rejected_sides.remember(layout.rejected("p1", "attacker"), "position", "over the budget")
        (tmp_path / "partial").mkdir()
        (tmp_path / "partial" / "p1.defender.sgf").write_text("(;)")
        deadline = time.monotonic() + 5
        while progress.bar.n < 2 and time.monotonic() < deadline:
            time.sleep(0.01)
    assert progress.bar.n == 2


def test_a_command_that_cannot_go_on_prints_one_error_line_and_exits_with_its_code(tmp_path, capsys):
    from pipeline.corpus_stats import BEGIN, END

    readme = tmp_path / "README.md"
    readme.write_text("no marker lines\n")
    assert main(["corpus-stats", str(tmp_path), "--readme", str(readme)]) == 1
    assert capsys.readouterr().err.splitlines() == [
        f"error: {readme}: the marker lines {BEGIN!r} and {END!r} are missing"]
    assert readme.read_text() == "no marker lines\n"


def test_every_command_carries_its_own_parser_for_option_errors(capsys):
    from cli.main import build_parser

    args = build_parser().parse_args(["solve", "x.sgf"])
    assert args.parser.prog.endswith(" solve")
    with pytest.raises(SystemExit) as exited:
        args.parser.error("a bad combination")
    assert exited.value.code == 2
    assert capsys.readouterr().err.splitlines()[-1].endswith(" solve: error: a bad combination")


def test_solve_orders_by_the_shipped_patterns_another_file_or_none(tmp_path, capsys):
    from pathlib import Path

    import numpy as np

    from solver.patterns import CAPTURED_LEVELS, OWN_LIBS_LEVELS, TARGET_LIBS_LEVELS, MovePatterns, pattern_classes

    files = [str(p) for p in sorted((Path(__file__).resolve().parents[1] / "sgf-problems" / "eye-shapes").glob("*.sgf"))]
    _, count = pattern_classes()
    rng = np.random.default_rng(0)
    other = tmp_path / "other.npz"
    MovePatterns(rng.normal(0, 2, (2, count)),
                 rng.normal(0, 2, (2, CAPTURED_LEVELS, TARGET_LIBS_LEVELS, OWN_LIBS_LEVELS))).save(other)
    runs = {}
    for name, options in (("shipped", []), ("none", ["--no-patterns"]), ("other", ["--move-patterns", str(other)])):
        assert main(["solve", "--json", *options, *files]) == 0
        runs[name] = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    statuses = {name: [row["status"] for row in rows] for name, rows in runs.items()}
    assert statuses["shipped"] == statuses["none"] == statuses["other"]
    nodes = {name: sum(row["nodes"] for row in rows) for name, rows in runs.items()}
    assert len(set(nodes.values())) == 3
    with pytest.raises(SystemExit):
        main(["solve", "--no-patterns", "--move-patterns", str(other), files[0]])
    # a file that holds no patterns stops the run with one line naming it
    bad = tmp_path / "bad.npz"
    bad.write_bytes(b"not an npz")
    assert main(["solve", "--move-patterns", str(bad), files[0]]) == 2
    assert f"{bad}: not a move patterns file" in capsys.readouterr().err


def test_every_help_gives_every_default():
    """Each option that takes a value and has a default says it in ``--help``."""
    import argparse

    from cli.main import build_parser

    commands = next(a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction))
    silent = [f"{name} {action.option_strings[0]}" for name, parser in commands.choices.items()
              for action in parser._actions
              if action.option_strings and action.nargs != 0 and action.default is not None
              and action.default != argparse.SUPPRESS and "default" not in (action.help or "")]
    assert not silent
    help_text = commands.choices["solve"].format_help()
    assert "(default: 10,000,000, or none with --seconds; 0: none)" in help_text and "(default: each)" in help_text


def test_sgf_out_says_a_missing_folder_after_the_answer_and_overwrites_only_with_force(tmp_path, capsys):
    good = tmp_path / "good.sgf"
    good.write_bytes(GOOD)
    missing = tmp_path / "nowhere" / "answer.sgf"
    assert main(["solve", "--no-guide", "--sgf-out", str(missing), str(good)]) == 1
    out, err = capsys.readouterr()
    assert out.startswith(f"{good}: Black to play: the white group at B9 is dead as it stands")
    assert err.splitlines() == [f"error: --sgf-out {missing}: the folder {missing.parent} does not exist; "
                                "the answer above is not written",
                                "solve: read 1 = answered 1 + rejected 0"]
    answer = tmp_path / "answer.sgf"
    assert main(["solve", "--no-guide", "--sgf-out", str(answer), str(good)]) == 0
    assert capsys.readouterr().out.endswith(f"\n  written: {answer}\n")
    written = answer.read_text()
    answer.write_text("kept")
    # an existing file is refused before any solve, as eval's --picture refuses one
    assert main(["solve", "--no-guide", "--sgf-out", str(answer), str(good)]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err == f"error: --sgf-out {answer}: the file exists (--force overwrites it)\n"
    assert answer.read_text() == "kept"
    assert main(["solve", "--no-guide", "--sgf-out", str(answer), "--force", str(good)]) == 0
    assert answer.read_text() == written
    with pytest.raises(SystemExit) as exited:
        main(["solve", "--force", str(good)])
    assert exited.value.code == 2
