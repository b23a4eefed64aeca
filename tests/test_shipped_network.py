"""The network shipped in the repository (``model/networks/conv-books``) and the commands that use it.

The shipped folder holds the packed network, its float weights (what the next
short ``make network`` starts from), ``model.json`` and the card: no Keras
model, training history or bits table.  A tiny network trained on the toy
records of ``tests/test_model.py`` and copied the same way stands in for it:
``report`` must score it from the packed file alone, ``eval`` must take a model
folder and fall back on the shipped network without ``--model``.
"""
import json
import os
import shutil

import numpy as np
import pytest

from model import shipped
from model.numpy_net import NumpyNet
from model.packed import FLOAT_BITS, packed_path, read_packed
from cli.main import main
from tests.toy_network import PROBLEM_FILES, REPOSITORY, TOY_OPTIONS, packed_for_current_planes, write_toy_records

SHIPPED_FILES = {"model-5bit.tsq", "model.json", "README.md", os.path.basename(packed_path("", FLOAT_BITS))}


@pytest.fixture(scope="module")
def copied(tmp_path_factory):
    """Records the network never saw, and a folder holding only a trained network's model.json and
    5-bit file, as the shipped folder does; a second one also holding the float file."""
    root = tmp_path_factory.mktemp("shipped")
    data, unseen, model_dir = root / "records", root / "unseen", root / "model"
    data.mkdir()
    unseen.mkdir()
    write_toy_records(str(data), counts={"train": 300, "test": 100})
    write_toy_records(str(unseen), counts={"train": 100, "test": 50}, seed=5, problems="other")
    assert main(["train", "--data", str(data), "--out", str(model_dir), "--epochs", "6", *TOY_OPTIONS]) == 0
    assert main(["quantize", "--model", str(model_dir), "--no-table"]) == 0
    alone, with_float = root / "alone", root / "with-float"
    for folder, names in ((alone, ["model.json", "model-5bit.tsq"]),
                          (with_float, ["model.json", "model-5bit.tsq", "model-float.tsq"])):
        folder.mkdir()
        for name in names:
            shutil.copy(model_dir / name, folder / name)
    return unseen, alone, with_float


def test_report_scores_the_5_bit_network_alone_from_its_folder(copied, tmp_path, capsys):
    from model.predictions import predict_split

    unseen, alone, _ = copied
    reports = tmp_path / "reports"
    assert main(["report", "--model", str(alone), "--data", str(unseen), "--split", "all",
                 "--out", str(reports), "--no-symmetries"]) == 0
    out = capsys.readouterr().out
    assert "no bits table (no bits.json)" in out and "no training.png (no history.json)" in out
    assert sorted(path.name for path in reports.iterdir()) == [
        "accuracy_by_problem.csv", "accuracy_by_problem.md",
        "accuracy_by_size.csv", "accuracy_by_size.md", "accuracy_by_size.png", "reliability.png",
        "summary.json", "summary.md"]
    rows = (reports / "accuracy_by_size.csv").read_text().splitlines()
    # the 5-bit columns alone: no float network was there to score
    assert rows[0].split(",") == ["size", "count", "error 5-bit", "error 5-bit low", "error 5-bit high",
                                  "with move", "wrong moves 5-bit", "note"]
    total = dict(zip(rows[0].split(","), rows[-1].split(",")))
    assert total["size"] == "all" and int(total["count"]) == 150
    net = NumpyNet.load(str(alone / "model-5bit.tsq"))
    predictions = predict_split(str(unseen), ("train", "test"), {"packed": net})
    accuracy = 1 - predictions.errors("packed").mean()
    assert float(total["error 5-bit"]) == pytest.approx(1 - accuracy, abs=1e-4)
    summary = (reports / "summary.md").read_text()
    assert "Every record of" in summary
    assert (f"| 5-bit (`model-5bit.tsq`, channel ranges) | {accuracy:.4f} | "
            f"{os.path.getsize(alone / 'model-5bit.tsq')} |") in summary
    assert "float32" not in summary and "minus float" not in summary
    assert "The 5-bit network alone" in summary and "Move head (5-bit)" in summary
    # the mean over problems, computed here from the same answers
    errors, problems = predictions.errors("packed"), predictions.problem
    by_problem = [1 - errors[problems == name].mean() for name in np.unique(problems)]
    assert len(by_problem) > 1
    assert (f"Mean over the {len(by_problem)} source problems" in summary
            and f"5-bit {np.mean(by_problem):.4f}." in summary)


def test_report_adds_the_float_network_when_its_file_is_there(copied, tmp_path):
    unseen, _, with_float = copied
    reports = tmp_path / "reports"
    assert main(["report", "--model", str(with_float), "--data", str(unseen), "--split", "all",
                 "--out", str(reports), "--no-symmetries"]) == 0
    header = (reports / "accuracy_by_size.csv").read_text().splitlines()[0].split(",")
    assert header == ["size", "count", "error float", "error float low", "error float high", "error 5-bit",
                      "error 5-bit low", "error 5-bit high", "with move", "wrong moves float",
                      "wrong moves 5-bit", "note"]
    summary = (reports / "summary.md").read_text()
    assert "| float32 |" in summary and "5-bit minus float" in summary
    assert not (reports / "training.png").exists()


def test_the_shipped_network_path_does_not_depend_on_the_working_directory():
    assert os.path.isabs(shipped.SHIPPED_NETWORK)
    assert shipped.SHIPPED_NETWORK == os.path.join(REPOSITORY, "model", "networks", "conv-books")


def test_eval_takes_a_model_folder_and_falls_back_on_the_shipped_network(tmp_path, capsys, monkeypatch):
    folder = tmp_path / "network"
    folder.mkdir()
    packed_for_current_planes(folder / "model-5bit.tsq")
    assert main(["eval", "--model", str(folder / "model-5bit.tsq"), "--json", PROBLEM_FILES[0]]) == 0
    from_file = capsys.readouterr().out
    assert json.loads(from_file)["file"] == PROBLEM_FILES[0]
    assert main(["eval", "--model", str(folder), "--json", PROBLEM_FILES[0]]) == 0
    assert capsys.readouterr().out == from_file
    monkeypatch.setattr(shipped, "SHIPPED_NETWORK", str(folder))
    assert main(["eval", "--json", PROBLEM_FILES[0]]) == 0
    assert capsys.readouterr().out == from_file


def test_a_missing_network_is_one_line_naming_the_path(tmp_path, capsys, monkeypatch):
    nowhere = tmp_path / "nowhere"
    monkeypatch.setattr(shipped, "SHIPPED_NETWORK", str(nowhere))
    assert main(["eval", PROBLEM_FILES[0]]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.splitlines() == [f"error: {nowhere / 'model-5bit.tsq'}: no shipped network here; pass --model "
                                "(a packed .tsq file or a folder tsumego quantize wrote)"]
    # a model folder without the packed file is named the same way
    (tmp_path / "empty").mkdir()
    assert main(["eval", "--model", str(tmp_path / "empty"), PROBLEM_FILES[0]]) == 2
    assert capsys.readouterr().err.splitlines() == [
        f"error: {tmp_path / 'empty'}: no model-5bit.tsq in this folder (run tsumego quantize first)"]


def test_the_shipped_network_loads_and_is_small():
    folder = shipped.SHIPPED_NETWORK
    path = os.path.join(folder, "model-5bit.tsq")
    if not os.path.exists(path):
        pytest.skip(f"{path} is not in the repository yet (make network)")
    assert set(os.listdir(folder)) <= SHIPPED_FILES, "unexpected files in the shipped folder"
    assert os.path.getsize(path) <= 256 * 1024
    header, _ = read_packed(path)
    with open(os.path.join(folder, "model.json")) as f:
        spec = json.load(f)
    assert header["bits"] == 5 and header["planes"] == spec["planes"]
    net = NumpyNet.load(path)
    assert list(net.planes) == spec["planes"]
