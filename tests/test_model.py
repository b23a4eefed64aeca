"""Training and the report, run once on the toy set of records (tests/toy_network.py)."""
import csv
import json
import os

import numpy as np
import pytest

from model.numpy_net import NumpyNet
from model.packed import FLOAT_BITS, read_packed
from model.quantize import DEFAULT_SCHEME, SCHEMES
from cli.main import main
from tests.toy_network import PLANES, TOY_OPTIONS, eight_images, write_toy_records


@pytest.fixture(scope="module")
def trained(tmp_path_factory):
    """Records, a model trained on them, its packed files and the report."""
    root = tmp_path_factory.mktemp("toy")
    data, model_dir, reports = root / "records", root / "model", root / "reports"
    data.mkdir()
    write_toy_records(str(data))
    assert main(["train", "--data", str(data), "--out", str(model_dir), "--epochs", "12",
                 *TOY_OPTIONS]) == 0
    assert main(["quantize", "--model", str(model_dir)]) == 0
    assert main(["report", "--model", str(model_dir), "--out", str(reports)]) == 0
    return data, model_dir, reports


def test_training_learns_a_separable_toy_set(trained):
    data, model_dir, _ = trained
    spec = json.loads((model_dir / "model.json").read_text())
    assert spec["planes"] == PLANES and spec["F"] == len(PLANES)
    assert spec["test_accuracy"] >= 0.97
    history = json.loads((model_dir / "history.json").read_text())["history"]
    assert history["val_move_accuracy"][0] < 0.6 and max(history["val_move_accuracy"]) >= 0.95
    assert (model_dir / "model.keras").exists() and (model_dir / "checkpoints" / "best.weights.h5").exists()
    assert any((model_dir / "logs").rglob("events.out.tfevents.*"))


def test_the_epoch_is_chosen_on_train_problems_held_back_and_the_test_split_scored_once(trained):
    import keras

    from model.dataset import make_dataset
    from model.validation import validation_problems
    from pipeline.formats.records import count_problems

    data, model_dir, reports = trained
    spec = json.loads((model_dir / "model.json").read_text())
    counts = count_problems(str(data), ("train",))
    held = spec["validation"]["problems"]
    assert spec["validation"]["fraction"] == 0.1 and held == validation_problems(counts, 0.1) and held
    assert spec["records"] == {"train": 600 - sum(counts[problem] for problem in held),
                               "validation": sum(counts[problem] for problem in held), "test": 200}
    history = json.loads((model_dir / "history.json").read_text())["history"]
    assert spec["validation_loss"] == min(history["val_loss"])
    # the test figures: the kept weights on the test split, scored once
    model = keras.saving.load_model(model_dir / "model.keras")
    scored = model.evaluate(make_dataset(str(data), "test", 32, augment=False, shuffle=False),
                            return_dict=True, verbose=0)
    assert spec["test_accuracy"] == pytest.approx(scored["safe_accuracy"], abs=1e-6)
    assert spec["test_loss"] == pytest.approx(scored["loss"], rel=1e-5)
    summary = (reports / "summary.md").read_text()
    assert f"best epoch {spec['best_epoch']} (chosen on the loss of {len(held)} train problems held back)" \
        in summary


def test_training_reads_the_held_back_problems_only_to_watch_them(trained, tmp_path, monkeypatch):
    from model import dataset
    from model.validation import validation_problems
    from pipeline.formats.records import count_problems

    data, _, _ = trained
    made = []

    def recording(data_dir, split, *args, **kwargs):
        made.append((split, kwargs.get("problems"), kwargs.get("augment", True)))
        return make_dataset(data_dir, split, *args, **kwargs)

    make_dataset = dataset.make_dataset
    monkeypatch.setattr(dataset, "make_dataset", recording)
    assert main(["train", "--data", str(data), "--out", str(tmp_path / "half"), "--epochs", "1",
                 "--validation-fraction", "0.5", *TOY_OPTIONS]) == 0
    counts = count_problems(str(data), ("train",))
    problems, held = set(counts), set(validation_problems(counts, 0.5))
    assert 0.5 <= sum(counts[problem] for problem in held) / 600 < 0.6
    by_role = {("trained" if augment else "watched" if chosen else "scored"): (split, chosen)
               for split, chosen, augment in made}
    assert by_role["trained"] == ("train", dict.fromkeys(sorted(problems - held), 1.0))
    assert by_role["watched"] == ("train", dict.fromkeys(sorted(held), 1.0))
    assert by_role["scored"] == ("test", None) and len(made) == 3


def test_a_fraction_of_0_watches_the_test_split_and_says_its_figure_took_part(trained, tmp_path):
    data, _, _ = trained
    out = tmp_path / "watching-test"
    assert main(["train", "--data", str(data), "--out", str(out), "--epochs", "2",
                 "--validation-fraction", "0", *TOY_OPTIONS]) == 0
    spec = json.loads((out / "model.json").read_text())
    history = json.loads((out / "history.json").read_text())["history"]
    assert spec["validation"] == {"fraction": 0, "problems": []}
    assert spec["records"] == {"train": 600, "validation": 0, "test": 200}
    assert spec["test_loss"] == spec["validation_loss"] == min(history["val_loss"])
    assert main(["quantize", "--model", str(out), "--no-table"]) == 0
    assert main(["report", "--model", str(out), "--out", str(tmp_path / "reports")]) == 0
    assert "(chosen on the test split's loss: the figures above took part in the choice)" in \
        (tmp_path / "reports" / "summary.md").read_text()


def test_keep_last_trains_on_every_problem_and_keeps_the_last_epoch_whatever_its_loss(tmp_path, capsys):
    import keras

    from model.dataset import make_dataset
    from model.report_markdown import epoch_choice

    data = tmp_path / "records"
    data.mkdir()
    # The test split's labels turned over: the more the network learns, the higher its test
    # loss, so the epoch of least test loss is an early one and the last is not it.
    write_toy_records(str(data), inverted=("test",))
    common = ["--data", str(data), "--epochs", "4", "--schedule", "cosine", *TOY_OPTIONS]
    assert main(["train", "--out", str(tmp_path / "last"), "--keep", "last", *common]) == 0
    assert "kept the last epoch 4" in capsys.readouterr().out
    assert main(["train", "--out", str(tmp_path / "best"), "--validation-fraction", "0", "--patience", "9",
                 *common]) == 0
    last, best = (json.loads((tmp_path / run / "model.json").read_text()) for run in ("last", "best"))
    history = json.loads((tmp_path / "last" / "history.json").read_text())["history"]
    assert last["keep"] == "last" and best["keep"] == "best"
    assert last["validation"] == {"fraction": 0.0, "problems": []}
    assert last["records"] == {"train": 600, "validation": 0, "test": 200}
    assert last["epochs_run"] == last["best_epoch"] == 4 and last["stopped_by"] == "epochs"
    assert last["test_loss"] == history["val_loss"][-1] > min(history["val_loss"])
    assert best["best_epoch"] < 4 and best["test_loss"] == min(history["val_loss"])
    # model.keras holds the last epoch's weights
    model = keras.saving.load_model(tmp_path / "last" / "model.keras")
    scored = model.evaluate(make_dataset(str(data), "test", 32, augment=False, shuffle=False),
                            return_dict=True, verbose=0)
    assert scored["loss"] == pytest.approx(history["val_loss"][-1], rel=1e-5)
    assert main(["quantize", "--model", str(tmp_path / "last"), "--no-table"]) == 0
    assert main(["report", "--model", str(tmp_path / "last"), "--out", str(tmp_path / "reports")]) == 0
    assert "the last epoch (4) kept: a cosine schedule run to its end, no epoch chosen on any records" in \
        (tmp_path / "reports" / "summary.md").read_text()
    # a run the budget stopped did not reach the schedule's end, and the words say so
    assert "kept: a cosine schedule cut short by the budget" in \
        epoch_choice({**last, "stopped_by": "budget"}, str(data), "test")


@pytest.mark.parametrize("keep, expected", [("best", 1), ("last", 3)])
def test_the_epoch_kept_is_the_first_of_least_loss_or_the_last(keep, expected):
    from model.checkpoints import kept_epoch, replaces_kept

    assert kept_epoch([0.5, 0.3, 0.3, 0.4], keep) == expected
    # the checkpoints' comparison, epoch by epoch: an equal loss leaves the earlier epoch kept
    assert replaces_kept(0.5, None, keep)
    assert replaces_kept(0.3, 0.3, keep) == (keep == "last")
    assert replaces_kept(0.4, 0.3, keep) == (keep == "last")


def test_keep_last_refuses_a_validation_fraction_and_the_plateau_schedule(trained, tmp_path, capsys):
    data, _, _ = trained
    common = ["train", "--data", str(data), "--out", str(tmp_path / "m"), "--epochs", "2", "--keep", "last",
              *TOY_OPTIONS]
    assert main([*common, "--schedule", "cosine", "--validation-fraction", "0.1"]) == 2
    assert "--keep last trains on every train problem and chooses no epoch" in capsys.readouterr().err
    assert main(common) == 2
    assert "--keep last takes --schedule cosine" in capsys.readouterr().err
    assert not (tmp_path / "m").exists()


def test_a_conv_network_learns_the_toy_set_and_packs_at_5_bits(tmp_path):
    data, model_dir = tmp_path / "records", tmp_path / "model"
    data.mkdir()
    write_toy_records(str(data))
    assert main(["train", "--data", str(data), "--out", str(model_dir), "--epochs", "10",
                 "--architecture", "conv", "--channels", "8", *TOY_OPTIONS]) == 0
    spec = json.loads((model_dir / "model.json").read_text())
    assert spec["options"]["architecture"] == "conv" and spec["options"]["channels"] == 8
    assert spec["options"]["blocks"] == 2   # the conv depth when --blocks is not given
    assert spec["test_accuracy"] >= 0.97
    with pytest.raises(SystemExit) as exited:
        main(["quantize", "--model", str(model_dir), "--table-schemes", "clip,round"])
    assert exited.value.code == 2
    assert main(["quantize", "--model", str(model_dir), "--scheme", "clip", "--table-schemes", "clip"]) == 0
    header, _ = read_packed(str(model_dir / "model-5bit.tsq"))
    assert header["architecture"] == "conv" and header["channels"] == 8 and header["format"] == 3
    assert header["scheme"] == "clip"
    assert [entry["shape"] for entry in header["tensors"]][0] == [3, 3, len(PLANES), 8]
    table = json.loads((model_dir / "bits.json").read_text())["rows"]
    error = {(row["bits"], row["scheme"]): row["error"] for row in table}
    assert set(error) == {(bits, "clip") for bits in range(2, 9)} | {(FLOAT_BITS, "float")}
    assert error[5, "clip"] <= error[FLOAT_BITS, "float"] + 0.02 <= 0.05


def test_the_packed_files_keep_the_accuracy(trained):
    _, model_dir, _ = trained
    table = json.loads((model_dir / "bits.json").read_text())["rows"]
    error = {(row["bits"], row["scheme"]): row["error"] for row in table}
    assert set(error) == {(b, s) for b in range(2, 9) for s in SCHEMES} | {(FLOAT_BITS, "float")}
    assert error[FLOAT_BITS, "float"] <= 0.03
    assert error[5, DEFAULT_SCHEME] <= error[FLOAT_BITS, "float"] + 0.02
    sizes = {row["bits"]: row["bytes"] for row in table if row["scheme"] == DEFAULT_SCHEME}
    assert sizes[2] < sizes[5] < sizes[8] < os.path.getsize(model_dir / "model-float.tsq")
    assert os.path.getsize(model_dir / "model-5bit.tsq") == sizes[5]
    header, _ = read_packed(str(model_dir / "model-5bit.tsq"))
    assert header["scheme"] == DEFAULT_SCHEME


def test_report_tables_count_every_test_record(trained):
    from model.report_stats import wilson_interval

    _, _, reports = trained
    for name in ("summary.md", "summary.json", "accuracy_by_size.md", "accuracy_by_size.csv",
                 "accuracy_by_size.png", "reliability.png", "bits.md", "bits.csv", "bits.png", "training.png"):
        assert (reports / name).stat().st_size > 0, name
    rows = (reports / "accuracy_by_size.csv").read_text().splitlines()
    header = rows[0].split(",")
    by_size = {line.split(",")[0]: dict(zip(header, line.split(","))) for line in rows[1:]}
    assert sorted(by_size) == ["3", "4", "5", "6", "all"]
    assert sum(int(by_size[s]["count"]) for s in "3456") == int(by_size["all"]["count"]) == 200
    # Two records in three have a TR move, as toy_record writes them.
    assert int(by_size["all"]["with move"]) == sum(1 for i in range(200) if i % 3)
    assert int(by_size["all"]["wrong moves float"]) <= 0.05 * int(by_size["all"]["with move"])
    summary = (reports / "summary.md").read_text()
    assert "| 5-bit (`model-5bit.tsq`, channel ranges) |" in summary
    # the report scored the 8 symmetries too: each size has their error, the total matches the summary's
    turned = 1 - float(by_size["all"]["error 5-bit (8 symmetries)"])
    assert f"{turned:.4f} |" in summary.split("| 5-bit (`model-5bit.tsq`")[1].splitlines()[0]
    # each problem's row: its records add up to the split, and their mean is the summary's
    by_problem = list(csv.DictReader((reports / "accuracy_by_problem.csv").open()))
    assert len(by_problem) == 40 and sum(int(row["records"]) for row in by_problem) == 200
    mean = sum(float(row["accuracy 5-bit"]) for row in by_problem) / len(by_problem)
    assert f"5-bit {mean:.4f}" in summary
    # every size's error has its 95% Wilson interval; the toy sizes have 50 records each, enough
    for size in "3456":
        row = by_size[size]
        wrong = round(float(row["error 5-bit"]) * int(row["count"]))
        assert (float(row["error 5-bit low"]), float(row["error 5-bit high"])) == \
            tuple(round(bound, 4) for bound in wilson_interval(wrong, int(row["count"])))
        assert row["note"] == ""
    # summary.json holds the summary's figures: the accuracy, the mean over problems, the ECE
    figures = json.loads((reports / "summary.json").read_text())
    packed = figures["networks"]["packed"]
    assert figures["records"] == 200 and figures["problems"] == 40 and figures["roots"] is None
    assert f"| {packed['accuracy']:.4f} |" in summary and f"5-bit {packed['mean_over_problems']:.4f}" in summary
    assert packed["accuracy_interval"][0] <= packed["accuracy"] <= packed["accuracy_interval"][1]
    assert sum(row["count"] for row in packed["calibration"]) == 200
    assert f"| 5-bit | {packed['expected_calibration_error']:.4f} |" in summary
    assert "No root accuracy: the records do not say" in summary


def test_report_leaves_out_the_listed_problems(trained, tmp_path, capsys):
    _, model_dir, _ = trained
    listed = tmp_path / "seen-elsewhere.txt"
    listed.write_text("# copies found by same-positions\ntoy/3\n\ntoy/7  # a comment\ntoy/999\n")
    reports = tmp_path / "reports"
    assert main(["report", "--model", str(model_dir), "--out", str(reports), "--no-symmetries",
                 "--exclude-problems", str(listed)]) == 0
    by_problem = list(csv.DictReader((reports / "accuracy_by_problem.csv").open()))
    assert {row["problem"] for row in by_problem} == {f"toy/{i}" for i in range(40)} - {"toy/3", "toy/7"}
    total = list(csv.DictReader((reports / "accuracy_by_size.csv").open()))[-1]
    assert total["size"] == "all" and int(total["count"]) == 190
    assert f"leaving out the 10 records of 2 problems listed in `{listed}` (3 listed)" in \
        (reports / "summary.md").read_text()
    assert main(["report", "--model", str(model_dir), "--out", str(tmp_path / "none"),
                 "--exclude-problems", str(tmp_path / "missing.txt")]) == 2
    assert "missing.txt: cannot read the problem list" in capsys.readouterr().err


def test_report_finds_the_roots_in_the_trees_beside_the_records(trained, tmp_path):
    from pipeline.formats.sgf_writer import collection, game_tree
    from pipeline.formats.subproblem import Subproblem
    from solver.board import BLACK, WHITE

    _, model_dir, _ = trained
    run = tmp_path / "run"
    data, trees = run / "tfrecords", run / "solve-all" / "trees" / "other"
    data.mkdir(parents=True)
    trees.mkdir(parents=True)
    roots = {}   # problem index -> its roots' file names, attacker first then defender first
    for k in range(40):
        stones = np.zeros((9, 9), np.int8)
        stones[k // 9, k % 9] = BLACK
        sides = [Subproblem(size=9, stones=stones, target=(k % 9, k // 9), to_play=to_play, source=f"other/{k}")
                 for to_play in (WHITE, BLACK)]
        (trees / f"{k}.sgf").write_text(collection([game_tree([side.root_node()]) for side in sides]))
        roots[k] = [side.name() for side in sides]
    # records 0..19 are roots (of problems 0..19, the side their DS says), the other 40 below them
    write_toy_records(str(data), counts={"test": 60}, seed=7, problems="other",
                      names=lambda split, i: roots[i][i % 2] if i < 20 else f"{split}{i}.sgf")
    reports = tmp_path / "reports"
    assert main(["report", "--model", str(model_dir), "--data", str(data), "--out", str(reports),
                 "--no-symmetries"]) == 0
    figures = json.loads((reports / "summary.json").read_text())
    assert figures["trees"] == str(run / "solve-all" / "trees")
    assert figures["roots"] == {"records": 20, "problems": 20, "both_sides": 0}
    found = figures["networks"]["packed"]["roots"]
    assert found["attacker_first"]["records"] == found["defender_first"]["records"] == 10
    assert found["right"] >= 19   # the toy rule is learnt
    summary = (reports / "summary.md").read_text()
    assert "Roots: 20 of the records are a problem as given" in summary
    assert f"| 5-bit | {found['accuracy']:.4f} ({found['right']} of 20) |" in summary
    # --trees names the folder; one that is not there is refused
    assert main(["report", "--model", str(model_dir), "--data", str(data), "--out", str(reports),
                 "--no-symmetries", "--trees", str(tmp_path / "missing")]) == 2


def test_report_split_all_scores_every_record_of_a_folder_the_network_never_saw(trained, tmp_path, capsys):
    data, model_dir, _ = trained
    unseen = tmp_path / "unseen"
    unseen.mkdir()
    write_toy_records(str(unseen), counts={"train": 150, "test": 50}, seed=5, problems="other")
    reports = tmp_path / "reports"
    assert main(["report", "--model", str(model_dir), "--data", str(unseen), "--split", "all",
                 "--out", str(reports), "--no-symmetries"]) == 0
    rows = (reports / "accuracy_by_size.csv").read_text().splitlines()
    total = dict(zip(rows[0].split(","), rows[-1].split(",")))
    assert total["size"] == "all" and int(total["count"]) == 200
    # the toy rule is learnt, so the unseen records are scored as well as the test split
    assert float(total["error float"]) <= 0.05
    assert "Every record of" in (reports / "summary.md").read_text()
    # the records it was trained on are refused
    assert main(["report", "--model", str(model_dir), "--data", str(data), "--split", "all",
                 "--out", str(reports)]) == 2
    assert "the network was trained on its records" in capsys.readouterr().err


def test_a_record_is_scored_on_the_mean_over_its_windows(trained):
    from model.dataset import whole_records
    from model.predictions import predict_split

    data, model_dir, _ = trained
    net = NumpyNet.load(str(model_dir / "model-float.tsq"))
    predictions = predict_split(str(data), "test", {"float": net}, batch_windows=50)
    records = list(whole_records(str(data), "test"))
    assert any(len(r["planes"]) > 1 for r in records)
    expected = [net.evaluate(r["planes"])[0].mean() for r in records]
    assert np.allclose(predictions.probability["float"], expected, atol=1e-6)
    assert predictions.safe.tolist() == [int(r["safe"]) for r in records]
    assert predictions.best_move["float"].tolist() == [int(net.evaluate(r["planes"][:1])[1].argmax())
                                                       for r in records]


def test_a_record_can_be_scored_over_the_8_symmetries_of_its_windows(trained):
    from model.dataset import whole_records
    from model.predictions import predict_split

    data, model_dir, _ = trained
    net = NumpyNet.load(str(model_dir / "model-float.tsq"))
    predictions = predict_split(str(data), "test", {"float": net}, batch_windows=50, symmetries=True)
    records = list(whole_records(str(data), "test"))
    expected = [np.mean([net.evaluate(np.ascontiguousarray(w))[0].mean()
                         for w in eight_images(r["planes"])]) for r in records]
    assert np.allclose(predictions.symmetric["float"], expected, atol=1e-6)
    plain = [net.evaluate(r["planes"])[0].mean() for r in records]
    assert np.allclose(predictions.probability["float"], plain, atol=1e-6)
    assert not np.allclose(expected, plain, atol=1e-4)   # the toy net is not symmetric by itself


def test_an_empty_test_split_is_an_error_not_a_crash(trained, tmp_path, capsys):
    _, model_dir, _ = trained
    empty = tmp_path / "records"
    empty.mkdir()
    write_toy_records(str(empty), counts={"train": 20, "test": 0})
    assert main(["quantize", "--model", str(model_dir), "--data", str(empty), "--out",
                 str(tmp_path / "net.tsq")]) == 1
    assert f"error: {empty}: the test split is empty" in capsys.readouterr().err
    assert main(["report", "--model", str(model_dir), "--data", str(empty), "--out",
                 str(tmp_path / "reports")]) == 1
    assert f"error: {empty}: the test split is empty" in capsys.readouterr().err
    assert main(["train", "--data", str(empty), "--out", str(tmp_path / "model")]) == 1
    assert f"error: {empty}: the test split is empty" in capsys.readouterr().err


def test_the_cosine_schedule_lowers_the_rate_epoch_by_epoch_to_near_zero(trained, tmp_path):
    data, _, _ = trained
    out = tmp_path / "cosine"
    assert main(["train", "--data", str(data), "--out", str(out), "--epochs", "4", "--patience", "9",
                 "--schedule", "cosine", *TOY_OPTIONS]) == 0
    rates = json.loads((out / "history.json").read_text())["history"]["learning_rate"]
    expected = [0.003 * (1 + np.cos(np.pi * (epoch + 0.5) / 4)) / 2 for epoch in range(4)]
    assert np.allclose(rates, expected, rtol=1e-5)
    assert json.loads((out / "model.json").read_text())["schedule"] == "cosine"


def test_the_same_seed_trains_the_same_weights(trained, tmp_path):
    data, _, _ = trained
    packed = []
    for run in ("first", "second"):
        out = tmp_path / run
        assert main(["train", "--data", str(data), "--out", str(out), "--epochs", "2", *TOY_OPTIONS]) == 0
        assert main(["quantize", "--model", str(out), "--no-table"]) == 0
        packed.append((out / "model-5bit.tsq").read_bytes())
    assert packed[0] == packed[1]


def test_training_resumes_from_a_trained_folder(trained, tmp_path, capsys):
    data, model_dir, _ = trained
    out = tmp_path / "resumed"
    # With a vanishing learning rate one epoch leaves the resumed weights as they were.
    options = [*TOY_OPTIONS, "--learning-rate", "1e-12", "--width", "16"]
    assert main(["train", "--data", str(data), "--out", str(out), "--epochs", "1",
                 "--resume", str(model_dir), *options]) == 0
    spec = json.loads((out / "model.json").read_text())
    before = json.loads((model_dir / "model.json").read_text())
    assert spec["options"]["width"] == 48   # the resumed network's shape, not --width
    # the earlier run as the lineage tells it: its weights, how long, and on what
    assert spec["resumed_from"] == [{"model": str(model_dir), "epochs_run": before["epochs_run"],
                                     "seconds": before["seconds"], "seed": before["seed"], "run": before["run"],
                                     "config": before["config"], "data": before["data"],
                                     "extra_train": before["extra_train"], "records": before["records"]}]
    assert spec["test_accuracy"] == pytest.approx(before["test_accuracy"], abs=0.01)
    capsys.readouterr()
    assert main(["quantize", "--model", str(out), "--no-table"]) == 0
    assert main(["report", "--model", str(out), "--out", str(tmp_path / "reports")]) == 0
    summary = (tmp_path / "reports" / "summary.md").read_text()
    assert f"resumed from `{model_dir}`: seed 3, {before['epochs_run']} epochs" in summary
    # quantize --no-table wrote no bits table, so the report has none either and says so
    assert not (tmp_path / "reports" / "bits.md").exists()
    assert "no bits table (no bits.json: quantize ran with --no-table)" in capsys.readouterr().out
    assert main(["train", "--data", str(data), "--out", str(tmp_path / "bad"), "--epochs", "1",
                 "--resume", str(model_dir), "--without", "noise"]) == 2
    assert "reads other planes" in capsys.readouterr().err


def test_training_resumes_from_a_folder_holding_only_a_packed_network(trained, tmp_path, capsys):
    """A shipped network's folder (model.json and the 5-bit file, no Keras model) lends
    the dequantized 5-bit weights."""
    import keras

    data, model_dir, _ = trained
    shipped = tmp_path / "shipped"
    shipped.mkdir()
    for name in ("model.json", "model-5bit.tsq"):
        (shipped / name).write_bytes((model_dir / name).read_bytes())
    out = tmp_path / "from-packed"
    assert main(["train", "--data", str(data), "--out", str(out), "--epochs", "1",
                 "--resume", str(shipped), *TOY_OPTIONS, "--learning-rate", "1e-12"]) == 0
    assert f"resuming from {shipped / 'model-5bit.tsq'}" in capsys.readouterr().out
    spec = json.loads((out / "model.json").read_text())
    assert spec["resumed_from"][-1]["weights"] == "model-5bit.tsq"
    _, tensors = read_packed(str(shipped / "model-5bit.tsq"))
    resumed = keras.saving.load_model(str(out / "model.keras"), compile=False)
    kernel, bias = resumed.get_layer("align").get_weights()
    assert np.allclose(kernel, tensors["align/kernel"], atol=1e-6)
    assert np.allclose(bias, tensors["align/bias"], atol=1e-6)
    # and differ from the float weights the 5-bit file was packed from
    assert not np.allclose(kernel, keras.saving.load_model(str(model_dir / "model.keras"), compile=False)
                           .get_layer("align").get_weights()[0], atol=1e-6)
    (shipped / "model-5bit.tsq").unlink()
    assert main(["train", "--data", str(data), "--out", str(tmp_path / "bad"), "--epochs", "1",
                 "--resume", str(shipped)]) == 2
    assert "neither model.keras nor a packed network file" in capsys.readouterr().err


def test_planes_left_out_are_left_out_of_training_packing_and_reports(trained, tmp_path, capsys):
    data, _, _ = trained
    out = tmp_path / "without-noise"
    assert main(["train", "--data", str(data), "--out", str(out), "--epochs", "1", "--without", "noise",
                 *TOY_OPTIONS]) == 0
    spec = json.loads((out / "model.json").read_text())
    assert spec["planes"] == ["ones", "move_marker", "eye_block"] and spec["F"] == 3
    assert spec["left_out"] == ["noise"]
    assert main(["quantize", "--model", str(out)]) == 0
    assert NumpyNet.load(str(out / "model-5bit.tsq")).planes == spec["planes"]
    assert main(["report", "--model", str(out), "--out", str(tmp_path / "reports")]) == 0
    assert "| network | accuracy | with the 8 symmetries | file bytes |" in (
        tmp_path / "reports" / "summary.md").read_text()
    # Without the symmetries the tables lose that column and say why.
    assert main(["report", "--model", str(out), "--out", str(tmp_path / "quick"), "--no-symmetries"]) == 0
    quick = (tmp_path / "quick" / "summary.md").read_text()
    assert "8 symmetries |" not in quick and "`--no-symmetries`" in quick
    assert "| network | accuracy | file bytes |" in quick
    capsys.readouterr()
    assert main(["train", "--data", str(data), "--out", str(tmp_path / "bad"), "--without", "ladders"]) == 2
    assert "--without: 'ladders' is neither a plane of the records nor a plane group" in capsys.readouterr().err


def test_training_in_a_log_says_where_it_is_within_an_epoch():
    import io

    from model.fit import progress_lines

    now = [0.0]
    out = io.StringIO()
    callback = progress_lines(60, clock=lambda: now[0], out=out)
    callback.on_epoch_begin(2)
    for batch in range(300):
        now[0] += 0.5           # a batch every half second: a line every 120 batches
        callback.on_train_batch_end(batch, {"loss": 0.25})
    assert out.getvalue().splitlines() == ["epoch 3: 120 batches in 60 s, loss 0.2500",
                                           "epoch 3: 240 batches in 120 s, loss 0.2500"]
