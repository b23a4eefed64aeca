"""``tsumego card`` and the unsure band ``tsumego eval`` reads from a network's ``model.json``.

The band is read off hand-made reliability bins; the calibration off a summary
that ``summary_figures`` computes from synthetic answers (one group of records
per P(safe), with a chosen share safe); the card is written into a copy of the
shipped network's folder.  ``eval`` answers with a stub network whose P(safe)
is set by who moves first, in a folder whose ``model.json`` holds a band.
"""
import json
import shutil

import numpy as np
import pytest

from cli.main import main
from model.evaluate import UNSURE_ABOVE, UNSURE_BELOW, EvalOptions, unsure_band_of
from model.network_card import (END_MARKER, MIN_BIN_RECORDS, START_MARKER, TRUSTED_ACCURACY, bin_accuracy,
                                calibration_of, card_block, unsure_band, update_card)
from model.numpy_net import NumpyNet
from model.predictions import SplitPredictions
from model.report_stats import summary_figures
from model.shipped import SHIPPED_NETWORK
from tests.test_eval_command import FirstMoverNet
from tests.toy_network import PROBLEM_FILES

KILL = PROBLEM_FILES[0]   # White, the attacker, to play: P(safe) is the stub's attacker_first


def reliability_bin(low: float, count: int, right: float, width: float = 0.1) -> dict:
    """A bin as the report writes it, whose answers at 0.5 are right on ``right`` of ``count``."""
    safe_share = right if low >= 0.5 else 1 - right
    return {"low": low, "high": round(low + width, 4), "count": count, "predicted": low + width / 2,
            "observed": safe_share, "observed_low": 0.0, "observed_high": 1.0}


def test_a_bins_accuracy_is_the_share_right_on_its_side_of_one_half():
    assert bin_accuracy(reliability_bin(0.3, 100, 0.7)) == pytest.approx(0.7)
    assert bin_accuracy({"low": 0.3, "high": 0.4, "predicted": 0.35, "observed": 0.2}) == pytest.approx(0.8)
    assert bin_accuracy({"low": 0.6, "high": 0.7, "predicted": 0.65, "observed": 0.2}) == pytest.approx(0.2)
    # a bin across 0.5 is read by its mean P(safe)
    assert bin_accuracy({"low": 0.4, "high": 0.6, "predicted": 0.45, "observed": 0.1}) == pytest.approx(0.9)


def test_the_band_takes_the_untrusted_bins_around_one_half():
    bins = [reliability_bin(0.0, 500, 0.99), reliability_bin(0.2, 100, 0.9), reliability_bin(0.3, 100, 0.7),
            reliability_bin(0.4, 100, 0.55), reliability_bin(0.5, 100, 0.6), reliability_bin(0.6, 100, 0.79),
            reliability_bin(0.7, 100, 0.85), reliability_bin(0.8, 100, 0.5), reliability_bin(0.9, 500, 0.99)]
    # 0.8..0.9 is untrusted too, but past the trusted 0.7..0.8: not around one half
    assert unsure_band(bins) == (0.3, 0.7)
    # exactly at the level is trusted
    bins[5] = reliability_bin(0.6, 100, TRUSTED_ACCURACY)
    assert unsure_band(bins) == (0.3, 0.6)
    # every bin trusted: only a printed 0.50 is a coin toss
    assert unsure_band([reliability_bin(low / 10, 100, 0.95) for low in range(10)]) == (0.5, 0.5)
    # five bins of 0.2: the one across 0.5 gives both edges
    wide = [reliability_bin(0.2, 100, 0.95, 0.2), reliability_bin(0.4, 100, 0.5, 0.2),
            reliability_bin(0.6, 100, 0.7, 0.2), reliability_bin(0.8, 100, 0.95, 0.2)]
    assert unsure_band(wide) == (0.4, 0.8)


def test_bins_of_few_records_neither_stop_nor_widen_the_band():
    few = MIN_BIN_RECORDS - 1
    bins = [reliability_bin(0.1, 100, 0.95), reliability_bin(0.2, 100, 0.6),
            reliability_bin(0.3, few, 1.0),          # right on all, but too few to stop the band
            reliability_bin(0.4, 100, 0.5), reliability_bin(0.5, 100, 0.5),
            reliability_bin(0.6, few, 0.0),          # wrong on all, but too few to widen it
            reliability_bin(0.7, 100, 0.9)]
    assert unsure_band(bins) == (0.2, 0.6)
    # a missing bin (no record in it) is passed over alike
    assert unsure_band([bins[0], bins[1], bins[3], bins[4], bins[6]]) == (0.2, 0.6)


def test_without_bins_the_band_is_evals_fixed_one():
    assert unsure_band([]) == (UNSURE_BELOW, UNSURE_ABOVE) == (0.35, 0.65)


def synthetic_predictions() -> SplitPredictions:
    """Six groups of 40 records, one P(safe) each (and another over the symmetries for the
    second group), with 0, 15, 20, 20, 34, 40 of them safe."""
    plain = [0.05, 0.35, 0.45, 0.55, 0.65, 0.95]
    turned = [0.05, 0.25, 0.45, 0.55, 0.65, 0.95]
    safe_counts = [0, 15, 20, 20, 34, 40]
    safe = np.concatenate([[1] * n + [0] * (40 - n) for n in safe_counts]).astype(np.int64)
    size = len(safe)
    return SplitPredictions(
        safe=safe, available_moves=np.full(size, 5), move=np.zeros(size, np.int64),
        has_move=np.zeros(size, bool), problem=np.array([f"p{i % 8}" for i in range(size)]),
        probability={"packed": np.repeat(plain, 40).astype(np.float32)},
        best_move={"packed": np.zeros(size, np.int64)},
        symmetric={"packed": np.repeat(turned, 40).astype(np.float32)})


@pytest.fixture
def summary() -> dict:
    """A report's summary.json as ``tsumego report`` writes it, of the synthetic answers."""
    figures = summary_figures(synthetic_predictions(), 5)
    return json.loads(json.dumps({"data": "/cache/reference/tfrecords", "split": "test", "trees": None,
                                  "excluded": None, **figures}))


def test_the_calibration_is_the_packed_networks_over_the_symmetries(summary):
    packed = summary["networks"]["packed"]
    calibration = calibration_of(summary)
    assert calibration == {
        "split": "test", "records": 240, "problems": 8, "bits": 5, "symmetries": True,
        "accuracy": packed["accuracy_symmetries"], "mean_over_problems": packed["mean_over_problems_symmetries"],
        "ece": packed["expected_calibration_error_symmetries"], "bins": packed["calibration_symmetries"],
        "unsure_band": [0.2, 0.6]}
    # right: 40 + 25 + 20 + 20 + 34 + 40 of 240
    assert calibration["accuracy"] == pytest.approx(179 / 240)
    # over the symmetries 0.25 falls in 0.2..0.3, which is untrusted (25 of 40 right); without
    # them, 0.35 falls in 0.3..0.4 and the band ends there
    del packed["calibration_symmetries"]
    plain = calibration_of(summary)
    assert plain["symmetries"] is False and plain["unsure_band"] == [0.3, 0.6]
    assert plain["bins"] == packed["calibration"] and plain["ece"] == packed["expected_calibration_error"]


SPEC = {"data": "NETWORK_CACHE/tfrecords", "extra_train": ["NETWORK_CACHE/reference"] * 2,
        "extra_split": "train", "records": {"train": 1234, "test": 100}, "epochs_run": 3, "seconds": 600,
        "resumed_from": [{"model": "NETWORK_CACHE/first", "epochs_run": 11, "seconds": 5678.3, "seed": 0},
                         {"model": "NETWORK_CACHE/second", "epochs_run": 2, "seconds": 120, "seed": 0,
                          "weights": "model-float.tsq"}]}


def test_the_block_tells_the_lineage_oldest_first_and_the_calibration(summary):
    block = card_block(SPEC)
    rows = [line for line in block.splitlines() if line.startswith("| ") and "started from" not in line]
    assert rows == [
        "| `NETWORK_CACHE/first` | random initialisation | not recorded | not recorded | 11 | 95 |",
        "| `NETWORK_CACHE/second` | `NETWORK_CACHE/first` | not recorded | not recorded | 2 | 2 |",
        "| this network | `NETWORK_CACHE/second` (`model-float.tsq`) | `NETWORK_CACHE/tfrecords` + "
        "`NETWORK_CACHE/reference` (2 times), train split of the extra | 1,234 | 3 | 10 |"]
    assert "Held-out figures" not in block
    block = card_block({**SPEC, "calibration": calibration_of(summary)})
    assert "## Held-out figures and calibration" in block
    assert "| 240 | 8 | 0.7458 |" in block and "| 0.2..0.6 |" in block
    assert "lies within 0.2..0.6" in block and "over the 8 symmetries" in block
    assert "| 0.2..0.3 | 40 | 0.250 | 0.375 | 0.625 |" in block


def test_the_card_replaces_only_its_block_and_again_the_same(tmp_path, summary):
    readme = tmp_path / "README.md"
    before, after = "# net\n\nWritten by hand.\n\n", "\n## Limits\n\nBy hand too.\n"
    readme.write_text(f"{before}{START_MARKER}\nold figures\n{END_MARKER}\n{after}")
    spec = {**SPEC, "calibration": calibration_of(summary)}
    update_card(readme, spec)
    text = readme.read_text()
    assert text == f"{before}{START_MARKER}\n{card_block(spec)}{END_MARKER}\n{after}"
    assert "old figures" not in text
    update_card(readme, spec)
    assert readme.read_text() == text
    # no markers: the block goes at the end; no README: one with a title
    readme.write_text("# net\n\nBy hand.\n")
    update_card(readme, SPEC)
    assert readme.read_text() == f"# net\n\nBy hand.\n\n{START_MARKER}\n{card_block(SPEC)}{END_MARKER}\n"
    fresh = tmp_path / "fresh" / "README.md"
    fresh.parent.mkdir()
    update_card(fresh, SPEC)
    assert fresh.read_text().startswith(f"# fresh\n\n{START_MARKER}\n## Lineage\n")


def test_the_card_command_writes_the_calibration_and_the_card(tmp_path, summary, capsys):
    network, report = tmp_path / "conv-books", tmp_path / "report"
    shutil.copytree(SHIPPED_NETWORK, network)
    report.mkdir()
    (report / "summary.json").write_text(json.dumps(summary, indent=1) + "\n")
    spec_before = json.loads((network / "model.json").read_text())
    readme_before = (network / "README.md").read_text()
    assert main(["card", "--network", str(network), "--report", str(report)]) == 0
    assert "eval's unsure band 0.2..0.6" in capsys.readouterr().out
    text = (network / "model.json").read_text()
    spec = json.loads(text)
    assert text == json.dumps(spec, indent=2, sort_keys=True) + "\n"
    assert spec == {**spec_before, "calibration": calibration_of(summary)}
    card = (network / "README.md").read_text()
    hand_written = readme_before.split(START_MARKER)[0]
    assert card.startswith(hand_written) and card.endswith(f"{card_block(spec)}{END_MARKER}\n")
    # the last row is the network's own run, started from the run before it
    started_from = spec_before["resumed_from"][-1]["model"]
    assert f"| this network | `{started_from}`" in card
    # again, without the report: the card is the same, from the calibration model.json keeps
    assert main(["card", "--network", str(network)]) == 0
    assert (network / "README.md").read_text() == card and (network / "model.json").read_text() == text
    # and eval reads the band
    assert unsure_band_of(spec) == (0.2, 0.6)


def test_the_card_command_names_the_file_at_fault(tmp_path, summary, capsys):
    assert main(["card", "--network", str(tmp_path / "missing")]) == 2
    assert capsys.readouterr().err == f"error: --network {tmp_path / 'missing'}: not a folder\n"
    network, report = tmp_path / "net", tmp_path / "report"
    network.mkdir()
    report.mkdir()
    assert main(["card", "--network", str(network)]) == 2
    assert f"error: {network / 'model.json'}: cannot read the network's spec" in capsys.readouterr().err
    (network / "model.json").write_text(json.dumps(SPEC))
    assert main(["card", "--network", str(network), "--report", str(report)]) == 2
    assert f"error: {report / 'summary.json'}: cannot read the report's summary" in capsys.readouterr().err
    del summary["networks"]["packed"]
    (report / "summary.json").write_text(json.dumps(summary))
    assert main(["card", "--network", str(network), "--report", str(report)]) == 1
    assert capsys.readouterr().err == (f"error: {report / 'summary.json'}: not the summary of tsumego report "
                                       "(no 'packed')\n")
    assert json.loads((network / "model.json").read_text()) == SPEC   # left as it was


def network_folder(tmp_path, monkeypatch, attacker_first: float, band=None):
    """A network folder whose packed file loads a :class:`FirstMoverNet` (defender first: 0.9)
    and whose model.json holds ``band`` as its unsure band (None: no calibration)."""
    net = FirstMoverNet(0.9, attacker_first)
    monkeypatch.setattr(NumpyNet, "load", staticmethod(lambda path: net))
    folder = tmp_path / "net"
    folder.mkdir(exist_ok=True)
    (folder / "model-5bit.tsq").write_bytes(b"")
    (folder / "model.json").write_text(json.dumps({} if band is None else {"calibration": {"unsure_band": band}}))
    return str(folder)


def eval_row(capsys, folder: str) -> tuple[str, dict]:
    assert main(["eval", "--model", folder, KILL]) == 0
    line = capsys.readouterr().out.strip()
    assert main(["eval", "--model", folder, "--json", KILL]) == 0
    return line, json.loads(capsys.readouterr().out)


def test_eval_reads_the_unsure_band_from_the_networks_model_json(tmp_path, monkeypatch, capsys):
    # 0.40: unsure in the fixed band, sure in a narrow one
    line, row = eval_row(capsys, network_folder(tmp_path, monkeypatch, 0.4))
    assert "P(safe) = 0.40, maybe dies (unsure: P(safe) within 0.35..0.65)" in line and row["unsure"]
    line, row = eval_row(capsys, network_folder(tmp_path, monkeypatch, 0.4, [0.45, 0.55]))
    assert "P(safe) = 0.40, probably dies; moves: " in line
    assert row["unsure"] is False and row["unsure_why"] is None
    # 0.32: sure in the fixed band, unsure in a wide one, which the words and the JSON give
    line, row = eval_row(capsys, network_folder(tmp_path, monkeypatch, 0.32))
    assert "P(safe) = 0.32, probably dies; moves: " in line
    line, row = eval_row(capsys, network_folder(tmp_path, monkeypatch, 0.32, [0.3, 0.7]))
    assert "P(safe) = 0.32, maybe dies (unsure: P(safe) within 0.3..0.7)" in line
    assert row["unsure"] is True and row["unsure_why"] == "P(safe) within 0.3..0.7"


@pytest.mark.parametrize("band", [[0.6, 0.7], [0.4], "wide", [-0.1, 0.5]])
def test_eval_refuses_a_band_it_cannot_read_naming_the_file(tmp_path, monkeypatch, capsys, band):
    folder = network_folder(tmp_path, monkeypatch, 0.4, band)
    assert main(["eval", "--model", folder, KILL]) == 2
    assert capsys.readouterr().err.startswith(f"error: {folder}/model.json: cannot read the network's unsure band")


def test_the_server_words_the_answer_with_the_networks_band(monkeypatch):
    from model.serve.boards import network_words
    from pipeline.formats.subproblem import load_subproblem

    problem = load_subproblem(KILL).problem(KILL)
    net = FirstMoverNet(0.9, 0.4)
    assert "maybe dies (unsure: P(safe) within 0.35..0.65)" in network_words(net, problem)["network"]
    assert network_words(net, problem, [0.45, 0.55])["network"] == "P(safe) = 0.40, probably dies"
    assert EvalOptions().unsure_band == unsure_band_of({"calibration": {}}) == (0.35, 0.65)
