"""Folds of whole problems: how they are dealt, weighted, read, and the crossval command."""
import json

import numpy as np
import pytest

from model.folds import assign_folds, problem_weights
from cli.main import main
from tests.toy_network import PLANES, TOY_OPTIONS, write_toy_records

UNEVEN = {"a": 500, "b": 400, "c": 90, "d": 80, "e": 70, "f": 60, "g": 5, "h": 1}


def test_every_problem_is_dealt_to_one_fold_and_the_folds_are_even():
    fold_of = assign_folds(UNEVEN, 3)
    assert sorted(fold_of) == sorted(UNEVEN)
    totals = [sum(n for p, n in UNEVEN.items() if fold_of[p] == k) for k in range(3)]
    assert sorted(totals) == [306, 400, 500]   # the two largest alone, the rest together
    assert fold_of == assign_folds(dict(reversed(list(UNEVEN.items()))), 3)


def test_folds_need_two_folds_and_a_problem_each():
    with pytest.raises(ValueError, match="at least 2"):
        assign_folds(UNEVEN, 1)
    with pytest.raises(ValueError, match="cannot fill"):
        assign_folds({"a": 1, "b": 2}, 3)


def test_sqrt_balance_weighs_a_problem_as_the_root_of_its_size_and_keeps_the_total():
    weights = problem_weights(UNEVEN, "sqrt")
    assert sum(weights[p] * n for p, n in UNEVEN.items()) == pytest.approx(sum(UNEVEN.values()))
    assert weights["a"] * UNEVEN["a"] / (weights["h"] * UNEVEN["h"]) == pytest.approx(np.sqrt(500))
    assert set(problem_weights(UNEVEN, "none").values()) == {1.0}
    with pytest.raises(ValueError):
        problem_weights(UNEVEN, "equal")


@pytest.fixture(scope="module")
def toy_records(tmp_path_factory):
    folder = tmp_path_factory.mktemp("toy-folds")
    write_toy_records(str(folder))
    return folder


def test_a_dataset_of_chosen_problems_reads_only_them_with_their_weights(toy_records):
    from model.dataset import make_dataset

    chosen = {"toy/3": 2.0, "toy/17": 0.5}
    batches = list(make_dataset(str(toy_records), ("train", "test"), 7, augment=False, shuffle=False,
                                problems=chosen).as_numpy_iterator())
    weights = np.concatenate([w["safe"] for _, _, w in batches])
    # toy_record numbers problems i % 40 within each split: 600 / 40 and 200 / 40 records each.
    assert len(weights) == 2 * (15 + 5)
    assert sorted(set(weights.tolist())) == [0.5, 2.0] and (weights == 2.0).sum() == 20
    meta = list(make_dataset(str(toy_records), "train", 64, augment=True, shuffle=True, meta=True,
                             problems=chosen).as_numpy_iterator())
    assert {p.decode() for _, _, m in meta for p in m["problem"]} == set(chosen)


@pytest.fixture(scope="module")
def more_records(tmp_path_factory):
    """Another feature folder of other problems (``more/0`` .. ``more/39``), 300 + 100 records."""
    folder = tmp_path_factory.mktemp("more")
    write_toy_records(str(folder), counts={"train": 300, "test": 100}, seed=1, problems="more")
    return folder


def test_extra_records_are_mixed_through_the_epoch_and_weigh_one(toy_records, more_records):
    from model.dataset import make_dataset

    epoch = list(make_dataset(str(toy_records), "train", 50, augment=True, shuffle=False, meta=True,
                              extra=(str(more_records),)).as_numpy_iterator())
    problems = [p.decode() for _, _, m in epoch for p in m["problem"]]
    extra = np.array([p.startswith("more/") for p in problems])
    assert len(problems) == 600 + 400 and extra.sum() == 400
    # drawn in proportion, not read after the others: 40% of each half, give or take
    assert 140 <= extra[:500].sum() <= 260
    chosen = {"toy/3": 0.5, "toy/17": 0.5}
    weights = np.concatenate([w["safe"] for _, _, w in make_dataset(
        str(toy_records), "train", 64, augment=True, shuffle=True, problems=chosen,
        extra=(str(more_records),), own_records=30).as_numpy_iterator()])
    assert len(weights) == 30 + 400 and (weights == 0.5).sum() == 30 and (weights == 1.0).sum() == 400
    with pytest.raises(ValueError, match="own_records"):
        make_dataset(str(toy_records), "train", problems=chosen, extra=(str(more_records),))


def test_extra_records_must_hold_the_same_planes(toy_records, tmp_path):
    from model.dataset import make_dataset
    from pipeline.formats.records import write_spec

    other = tmp_path / "other"
    other.mkdir()
    write_toy_records(str(other), counts={"train": 10, "test": 0}, problems="other")
    write_spec(str(other), ["ones", "noise", "eye_block", "move_marker"], {"written_train": 10, "written_test": 0})
    with pytest.raises(ValueError, match=f"--extra-train {other}: its records hold other planes"):
        make_dataset(str(toy_records), "train", extra=(str(other),))
    with pytest.raises(ValueError, match=f"--extra-train {tmp_path / 'none'}"):
        make_dataset(str(toy_records), "train", extra=(str(tmp_path / "none"),))


def test_train_and_crossval_take_extra_records_of_other_problems_only(toy_records, more_records,
                                                                       tmp_path, capsys):
    options = [*TOY_OPTIONS, "--epochs", "1"]
    assert main(["train", "--data", str(toy_records), "--out", str(tmp_path / "model"),
                 "--extra-train", str(more_records), *options]) == 0
    assert "400 more training records from" in capsys.readouterr().out
    spec = json.loads((tmp_path / "model" / "model.json").read_text())
    assert spec["extra_train"] == [str(more_records)]
    assert main(["quantize", "--model", str(tmp_path / "model"), "--no-table"]) == 0
    assert main(["report", "--model", str(tmp_path / "model"), "--out", str(tmp_path / "reports"),
                 "--no-symmetries"]) == 0
    assert f"also on every record of `{more_records}`" in (tmp_path / "reports" / "summary.md").read_text()
    # The toy set's test problems are in its training split too; a copy of it is refused.
    assert main(["train", "--data", str(toy_records), "--out", str(tmp_path / "bad"),
                 "--extra-train", str(toy_records), *options]) == 2
    assert "holds 40 of the evaluated problems (toy/0, toy/1, toy/10, ...)" in capsys.readouterr().err
    out = tmp_path / "cv"
    assert main(["crossval", "--data", str(toy_records), "--out", str(out), "--folds", "4",
                 "--fold", "0", "--extra-train", str(more_records), *options]) == 0
    assert f"every fold also trains on the 400 records of {more_records}" in capsys.readouterr().out
    result = json.loads((out / "fold-0" / "result.json").read_text())
    assert result["extra_train"] == [str(more_records)] and result["problems"] == 10
    assert set(result["per_problem"]) <= {f"toy/{i}" for i in range(40)}
    assert f"also trained on every record of {more_records}" in (out / "crossval.md").read_text()
    assert main(["crossval", "--data", str(toy_records), "--out", str(out), "--folds", "4",
                 "--fold", "0", "--extra-train", str(toy_records), *options]) == 2
    assert "--extra-train" in capsys.readouterr().err
    assert main(["crossval", "--data", str(toy_records), "--out", str(out), "--folds", "4",
                 "--fold", "0", "--extra-train", str(tmp_path / "none"), *options]) == 1
    assert f"--extra-train {tmp_path / 'none'}: {tmp_path / 'none'}/features.json: no such file" in capsys.readouterr().err


def test_crossval_takes_only_the_train_split_of_an_extra_folder_when_told(toy_records, tmp_path, capsys):
    from pipeline.formats.records import write_spec

    # train split: other problems; test split: problems of the data folder itself
    extra = tmp_path / "extra"
    extra.mkdir()
    write_toy_records(str(extra), counts={"train": 120}, seed=2, problems="more")
    write_toy_records(str(extra), counts={"test": 40}, seed=3, problems="toy")
    write_spec(str(extra), PLANES, {"read": 160, "rejected": 0, "written_train": 120, "written_test": 40})
    options = [*TOY_OPTIONS, "--epochs", "1", "--folds", "4", "--fold", "0", "--extra-train", str(extra)]
    assert main(["crossval", "--data", str(toy_records), "--out", str(tmp_path / "both"), *options]) == 2
    assert "holds 40 of the evaluated problems" in capsys.readouterr().err
    out = tmp_path / "cv"
    assert main(["crossval", "--data", str(toy_records), "--out", str(out), *options,
                 "--extra-split", "train"]) == 0
    assert f"every fold also trains on the 120 records of {extra} (its train split)" in capsys.readouterr().out
    result = json.loads((out / "fold-0" / "result.json").read_text())
    assert result["extra_split"] == "train" and result["extra_train"] == [str(extra)]
    assert f"also trained on the train split of {extra}" in (out / "crossval.md").read_text()


def test_crossval_tests_every_problem_once_on_a_network_that_never_saw_it(toy_records, tmp_path,
                                                                           capsys):
    out = tmp_path / "cv"
    assert main(["crossval", "--data", str(toy_records), "--out", str(out), "--folds", "3",
                 "--epochs", "6", "--balance", "sqrt", *TOY_OPTIONS]) == 0
    first = json.loads((out / "crossval.json").read_text())
    assert "accuracy_symmetries" not in first["pooled"]
    # Scoring the same networks again, now over the 8 symmetries too, trains nothing.
    assert main(["crossval", "--data", str(toy_records), "--out", str(out), "--folds", "3",
                 "--rescore", "--symmetries"]) == 0
    again = json.loads((out / "crossval.json").read_text())
    assert again["pooled"]["accuracy"] == first["pooled"]["accuracy"]
    assert [f["training"] for f in again["folds"]] == [f["training"] for f in first["folds"]]
    assert {f["balance"] for f in again["folds"]} == {"sqrt"}
    counts = json.loads((out / "problems.json").read_text())["counts"]
    assert len(counts) == 40 and sum(counts.values()) == 800
    fold_of = assign_folds(counts, 3)
    tested = {}
    for fold in range(3):
        result = json.loads((out / f"fold-{fold}" / "result.json").read_text())
        assert set(result["per_problem"]) == {p for p, k in fold_of.items() if k == fold}
        assert result["validation_fold"] == (fold + 1) % 3
        assert result["training"]["epochs_run"] <= 6
        for problem, entry in result["per_problem"].items():
            assert entry["records"] == counts[problem]
            tested[problem] = tested.get(problem, 0) + 1
    assert tested == {problem: 1 for problem in counts}
    summary = json.loads((out / "crossval.json").read_text())["pooled"]
    assert summary["folds"] == 3 and summary["records"] == 800 and summary["problems"] == 40
    assert summary["accuracy"] >= 0.95   # the toy set's rule does not depend on the problem
    assert summary["accuracy_symmetries"] >= 0.95
    assert "| all | 40 | 800 |" in (out / "crossval.md").read_text()
    assert "3 of 3 folds done" in capsys.readouterr().out
    assert "weighted by the problems' training weights" in (out / "crossval.md").read_text()
    # A fold trained again with other options is named beside the others in the summary.
    assert main(["crossval", "--data", str(toy_records), "--out", str(out), "--folds", "3",
                 "--fold", "2", "--epochs", "1", *TOY_OPTIONS]) == 0
    summary = (out / "crossval.md").read_text()
    assert "Folds trained with different settings: balance none" in summary
    assert "; balance sqrt" in summary
    # A dense network's settings name its width, not the conv option it ignores.
    assert "'width': 48" in summary and "'channels'" not in summary
    assert main(["crossval", "--data", str(toy_records), "--out", str(tmp_path / "none"),
                 "--folds", "3", "--rescore"]) == 1
    assert "cannot rescore" in capsys.readouterr().err
    assert main(["crossval", "--data", str(toy_records), "--out", str(out), "--folds", "4",
                 "--rescore"]) == 1
    assert "trained with 3 folds, not 4" in capsys.readouterr().err


def test_crossval_names_a_folder_without_records_or_with_too_few_problems(tmp_path, capsys):
    from pipeline.formats.records import write_spec

    empty = tmp_path / "empty"
    empty.mkdir()
    write_spec(str(empty), ["ones"], {"written_train": 0, "written_test": 0})
    assert main(["crossval", "--data", str(empty), "--out", str(tmp_path / "cv")]) == 1
    assert f"error: {empty}: no shards in {empty}" in capsys.readouterr().err
    few = tmp_path / "few"
    few.mkdir()
    write_toy_records(str(few), counts={"train": 3, "test": 0})
    assert main(["crossval", "--data", str(few), "--out", str(tmp_path / "cv-few")]) == 1
    assert "3 problems cannot fill 5 folds" in capsys.readouterr().err


def test_a_fold_out_of_range_is_an_argument_error_before_any_reading(tmp_path, capsys):
    with pytest.raises(SystemExit) as exited:
        main(["crossval", "--data", str(tmp_path / "none"), "--out", str(tmp_path / "cv"),
              "--folds", "4", "--fold", "4"])
    assert exited.value.code == 2
    assert "tsumego crossval: error: --fold must be in 0..3" in capsys.readouterr().err
    assert not (tmp_path / "cv").exists()


def test_extra_train_takes_several_folders_after_one_flag_or_repeated():
    import argparse

    from cli.training import add_training_arguments

    parser = argparse.ArgumentParser()
    add_training_arguments(parser)
    one_flag = parser.parse_args(["--extra-train", "gen1", "gen2", "--epochs", "2"])
    repeated = parser.parse_args(["--extra-train", "gen1", "--epochs", "2", "--extra-train", "gen2"])
    assert one_flag.extra_train == repeated.extra_train == ["gen1", "gen2"]
    assert parser.parse_args([]).extra_train == []


def test_extra_split_train_lends_a_folder_s_train_problems_only(toy_records, tmp_path, capsys):
    from pipeline.formats.records import write_spec

    # a folder split by problem: its train split holds problems of its own, its test split
    # the toy set's (which the toy set evaluates on, so training must not see them)
    lent, held = tmp_path / "lent", tmp_path / "held"
    lent.mkdir()
    held.mkdir()
    write_toy_records(str(lent), counts={"train": 120}, seed=2, problems="lent")
    write_toy_records(str(held), counts={"test": 80}, seed=3, problems="toy")
    (held / "test-00000-of-00001.tfrecord.gz").rename(lent / "test-00000-of-00001.tfrecord.gz")
    write_spec(str(lent), PLANES, {"read": 200, "rejected": 0, "written_train": 120, "written_test": 80})
    options = [*TOY_OPTIONS, "--epochs", "1"]
    assert main(["train", "--data", str(toy_records), "--out", str(tmp_path / "both"),
                 "--extra-train", str(lent), *options]) == 2
    assert "holds 40 of the evaluated problems" in capsys.readouterr().err
    model = tmp_path / "model"
    assert main(["train", "--data", str(toy_records), "--out", str(model), "--extra-train", str(lent), str(lent),
                 "--extra-split", "train", *options]) == 0
    printed = capsys.readouterr().out
    assert printed.count(f"120 more training records from {lent} (its train split)") == 2
    spec = json.loads((model / "model.json").read_text())
    assert spec["extra_split"] == "train" and spec["extra_train"] == [str(lent)] * 2
    assert main(["quantize", "--model", str(model), "--no-table"]) == 0
    assert main(["report", "--model", str(model), "--out", str(tmp_path / "reports"), "--no-symmetries"]) == 0
    summary = (tmp_path / "reports" / "summary.md").read_text()
    assert f"also on the train split of `{lent}` (2 times an epoch)" in summary
