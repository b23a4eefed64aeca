"""The figures, words and plots of ``tsumego report``, on hand-made answers (no network trained).

The report run end to end on a trained toy network is tested in ``tests/test_model.py``;
here each piece is checked against values worked out by hand: the Wilson interval, the
few-records mark, the expected calibration error, the accuracy on the root positions and
how the roots are found in solve-all's trees.
"""
import numpy as np
import pytest

from model.predictions import SplitPredictions
from model.report import default_trees, root_names
from model.report_markdown import few_records_note, summary_text, write_table
from model.report_plots import plot_by_size, plot_reliability
from model.report_stats import (FEW_RECORDS, MIN_RECORDS, calibration_bins, expected_calibration_error,
                                root_accuracy, root_counts, size_rows, summary_figures, wilson_interval)
from pipeline.formats.sgf_writer import collection, game_tree
from pipeline.formats.subproblem import Subproblem
from solver.board import BLACK, WHITE

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
SPEC = {"F": 4, "options": {"width": 48, "blocks": 1, "l2": 1e-5, "move_weight": 1.0}, "seed": 3,
        "epochs_run": 2, "seconds": 1.0, "stopped_by": "epochs", "best_epoch": 2, "data": "/nowhere"}


def answers(probability, safe, sizes=None, problems=None, names=None, defender_first=None,
            symmetric=False) -> SplitPredictions:
    """Hand-made predictions of one network (``packed``): P(safe) and labels per record."""
    probability = np.asarray(probability, np.float32)
    n = len(probability)
    return SplitPredictions(
        safe=np.asarray(safe, np.int64),
        available_moves=np.asarray(sizes if sizes is not None else [3] * n, np.int64),
        move=np.full(n, -1, np.int64), has_move=np.zeros(n, bool),
        problem=np.asarray(problems if problems is not None else [f"p/{i}" for i in range(n)], str),
        probability={"packed": probability}, best_move={"packed": np.zeros(n, np.int64)},
        symmetric={"packed": probability} if symmetric else {},
        end_state_points=np.zeros(n, np.int64),
        subproblem=np.asarray(names if names is not None else [f"{i}.sgf" for i in range(n)], str),
        defender_first=np.asarray(defender_first if defender_first is not None else [0] * n, np.int64))


def test_wilson_interval_matches_known_values():
    assert wilson_interval(8, 10) == pytest.approx((0.4902, 0.9433), abs=1e-4)
    assert wilson_interval(3, 30) == pytest.approx((0.0346, 0.2562), abs=1e-4)
    assert wilson_interval(2, 4) == pytest.approx((0.1500, 0.8500), abs=1e-4)
    # no record: nothing is known; none or all right: the bound at 0 or 1 is exact
    assert wilson_interval(0, 0) == (0.0, 1.0)
    assert wilson_interval(0, 10)[0] == 0.0 and wilson_interval(0, 10)[1] == pytest.approx(0.2775, abs=1e-4)
    assert wilson_interval(10, 10)[1] == 1.0 and wilson_interval(10, 10)[0] == pytest.approx(0.7225, abs=1e-4)
    # the interval of the failures is the mirror of the successes'
    low, high = wilson_interval(7, 23)
    assert wilson_interval(16, 23) == pytest.approx((1 - high, 1 - low))


def test_sizes_with_few_records_are_marked_and_drawn_apart(tmp_path):
    # size 3: 40 records, 4 wrong; size 9: 4 records, 2 wrong (a tall bar on nothing)
    safe = [1] * 40 + [1] * 4
    probability = [0.9] * 36 + [0.1] * 4 + [0.9, 0.9, 0.1, 0.1]
    rows = size_rows(answers(probability, safe, sizes=[3] * 40 + [9] * 4), bits=5)
    by_size = {row["size"]: row for row in rows}
    assert list(by_size) == ["3", "9", "all"]
    assert by_size["3"]["count"] == 40 and by_size["3"]["note"] == ""
    assert by_size["9"]["count"] == 4 < MIN_RECORDS and by_size["9"]["note"] == FEW_RECORDS
    assert by_size["all"]["note"] == ""
    # the error as before, its Wilson interval beside it
    assert by_size["3"]["error 5-bit"] == 0.1
    assert (by_size["3"]["error 5-bit low"], by_size["3"]["error 5-bit high"]) == \
        tuple(round(bound, 4) for bound in wilson_interval(4, 40))
    assert (by_size["9"]["error 5-bit low"], by_size["9"]["error 5-bit high"]) == (0.15, 0.85)
    assert by_size["all"]["error 5-bit low"] < 6 / 44 < by_size["all"]["error 5-bit high"]
    # the summary names the few-record sizes; the table says what the mark means
    assert few_records_note(rows) == [
        f"Sizes with fewer than {MIN_RECORDS} records, whose error is too uncertain to read "
        "(`few records` in `accuracy_by_size.md`, hollow in its plot): 9 (4 records).", ""]
    write_table(str(tmp_path), "by_size", rows, "Test error by size (AS)", notes=["a note"])
    table = (tmp_path / "by_size.md").read_text().splitlines()
    assert table[-1] == "a note" and table[-4].endswith("| few records |")
    plot_by_size(rows, 5, str(tmp_path / "by_size.png"))
    assert (tmp_path / "by_size.png").read_bytes()[:8] == PNG_SIGNATURE


def test_expected_calibration_error_of_a_hand_made_set():
    # bin 0.0-0.1: two records at 0.05, none safe (gap 0.05); bin 0.1-0.2: one at 0.15, safe (gap 0.85);
    # bin 0.9-1.0: 0.95 three times and 1.0 once (mean 0.9625), three of four safe (gap 0.2125)
    probability = [0.05, 0.05, 0.15, 0.95, 0.95, 0.95, 1.0]
    safe = [0, 0, 1, 1, 1, 1, 0]
    bins = calibration_bins(np.asarray(probability, np.float32), np.asarray(safe))
    assert [(row["low"], row["count"]) for row in bins] == [(0.0, 2), (0.1, 1), (0.9, 4)]
    assert [row["observed"] for row in bins] == [0.0, 1.0, 0.75]
    assert bins[2]["predicted"] == pytest.approx(0.9625, abs=1e-7)
    assert (bins[2]["observed_low"], bins[2]["observed_high"]) == pytest.approx(wilson_interval(3, 4))
    assert expected_calibration_error(bins) == pytest.approx((2 * 0.05 + 0.85 + 4 * 0.2125) / 7, abs=1e-7)
    # a network whose P(safe) is the share safe has none
    exact = calibration_bins(np.array([0.25] * 4 + [0.75] * 4), np.array([1, 0, 0, 0, 1, 1, 1, 0]))
    assert expected_calibration_error(exact) == 0.0


def test_root_accuracy_on_crafted_records():
    # problem a: both roots, right on the attacker's, wrong on the defender's; problem b: its
    # attacker-first root alone, right; every other record is below a root and does not count
    names = ["a-att.sgf", "a-def.sgf", "a-1.sgf", "b-att.sgf", "b-1.sgf", "b-2.sgf"]
    problems = ["a", "a", "a", "b", "b", "b"]
    defender_first = [0, 1, 0, 0, 1, 1]
    safe = [0, 1, 1, 1, 0, 0]
    probability = [0.2, 0.3, 0.1, 0.8, 0.9, 0.9]
    predictions = answers(probability, safe, problems=problems, names=names, defender_first=defender_first)
    roots = {"a-att.sgf", "a-def.sgf", "b-att.sgf", "c-att.sgf"}   # c has no record here
    found = root_accuracy(predictions, roots, "packed")
    assert (found["records"], found["right"]) == (3, 2) and found["accuracy"] == pytest.approx(2 / 3)
    assert found["attacker_first"] == {"records": 2, "right": 2, "accuracy": 1.0}
    assert found["defender_first"] == {"records": 1, "right": 0, "accuracy": 0.0}
    assert root_counts(predictions, roots) == {"records": 3, "problems": 2, "both_sides": 1}
    # none of them a root: counted as none, not as a share of nothing
    assert root_accuracy(predictions, {"x.sgf"}, "packed")["accuracy"] is None


def test_the_roots_are_read_from_the_trees_beside_the_records(tmp_path, capsys):
    run = tmp_path / "run"
    trees = run / "solve-all" / "trees"
    (trees / "set").mkdir(parents=True)
    (run / "tfrecords").mkdir()
    stones = np.zeros((9, 9), np.int8)
    stones[2, 2] = BLACK
    sides = [Subproblem(size=9, stones=stones, target=(2, 2), to_play=to_play, source="set/1")
             for to_play in (WHITE, BLACK)]
    # a tree's root node carries its labels and the moves below it: the name is the position's alone
    (trees / "set" / "1.sgf").write_text(collection([game_tree([side.root_node(), ";W[bb]TS[0]AS[7]"])
                                                     for side in sides]))
    (trees / "broken.sgf").write_text("(;FF[4]GM[1]SZ[9")
    assert default_trees(str(run / "tfrecords")) == str(trees)
    assert default_trees(str(tmp_path / "elsewhere")) is None
    assert root_names(str(trees)) == {side.name() for side in sides}
    assert "broken.sgf: " in capsys.readouterr().err


def test_the_summary_words_roots_and_calibration(tmp_path):
    predictions = answers([0.2, 0.8, 0.7, 0.4], [0, 1, 0, 1], problems=["a", "a", "b", "b"],
                          names=["a0.sgf", "a1.sgf", "b0.sgf", "b1.sgf"], defender_first=[0, 1, 0, 1],
                          symmetric=True)
    figures = summary_figures(predictions, 5, {"a0.sgf", "a1.sgf", "b0.sgf"})
    packed = figures["networks"]["packed"]
    assert packed["accuracy"] == 0.5 and packed["mean_over_problems"] == 0.5
    assert packed["roots"]["right"] == 2 and figures["roots"] == {"records": 3, "problems": 2, "both_sides": 1}
    # bins 0.2 (unsafe), 0.4 (safe), 0.7 (unsafe), 0.8 (safe): gaps 0.2, 0.6, 0.7, 0.2
    assert packed["expected_calibration_error"] == pytest.approx(0.425, abs=1e-6)
    text = summary_text(SPEC, "/nowhere", figures, {"packed": 1000}, "model-5bit.tsq", trees="run/trees")
    assert "Roots: 3 of the records are a problem as given" in text
    assert "from 2 of the 2 problems, 1 of them with both sides" in text
    assert ("| 5-bit | 0.6667 (2 of 3) | 0.5000 (1 of 2) | 1.0000 (1 of 1) | 0.4250 | 0.6667 (2 of 3) "
            "| 0.4250 |") in text
    without = summary_text(SPEC, "/nowhere", summary_figures(predictions, 5), {"packed": 1000},
                           "model-5bit.tsq")
    assert "No root accuracy: the records do not say which of them is a problem's root" in without
    assert "| 5-bit | 0.4250 | 0.4250 |" in without


def test_the_reliability_plot_is_written(tmp_path):
    rng = np.random.default_rng(0)
    probability = rng.random(200)
    safe = (rng.random(200) < probability).astype(np.int64)
    bins = calibration_bins(probability, safe)
    assert sum(row["count"] for row in bins) == 200
    plot_reliability({"float32": bins, "5-bit": bins}, str(tmp_path / "reliability.png"))
    assert (tmp_path / "reliability.png").read_bytes()[:8] == PNG_SIGNATURE
