"""A damaged record shard is named in one line by every command that reads records, before any
work; a train run that fails or is interrupted takes back what it wrote, and only that."""
import json
import shutil

import keras
import pytest

from model import fit
from model.shards import UnreadableShard, check_shards
from cli.main import main
from pipeline.formats.records import SPLITS, read_spec
from tests.toy_network import TOY_OPTIONS, write_toy_records

COUNTS = {"train": 200, "test": 60}
SHARD = {split: f"{split}-00000-of-00001.tfrecord.gz" for split in SPLITS}
AGAIN = "write the records again with tsumego features"


@pytest.fixture(scope="module")
def toy(tmp_path_factory):
    """Sound records, and a network trained one epoch on them and packed."""
    root = tmp_path_factory.mktemp("damaged")
    data, model_dir = root / "records", root / "model"
    data.mkdir()
    write_toy_records(str(data), counts=COUNTS)
    assert main(["train", "--data", str(data), "--out", str(model_dir), "--epochs", "1", *TOY_OPTIONS]) == 0
    assert main(["quantize", "--model", str(model_dir), "--no-table"]) == 0
    return data, model_dir


def truncate(path):
    data = path.read_bytes()
    path.write_bytes(data[:len(data) // 2])


def flip_a_bit(path):
    data = bytearray(path.read_bytes())
    data[len(data) // 2] ^= 0x10
    path.write_bytes(bytes(data))


DAMAGES = {"truncated": (truncate, "unreadable (truncated record at"),
           "one bit flipped": (flip_a_bit, "unreadable (")}


def damaged_copy(toy, tmp_path, split, damage):
    data = tmp_path / "records"
    shutil.copytree(toy[0], data)
    DAMAGES[damage][0](data / SHARD[split])
    return data, data / SHARD[split]


def error_lines(err: str) -> list[str]:
    assert "Traceback" not in err
    return [line for line in err.splitlines() if line.startswith("error:")]


def test_sound_shards_are_read_whole_and_counted(toy):
    data = str(toy[0])
    assert check_shards(data, SPLITS, read_spec(data)) == COUNTS


@pytest.mark.parametrize("damage", DAMAGES)
@pytest.mark.parametrize("split", SPLITS)
def test_train_names_a_damaged_shard_and_writes_nothing(toy, tmp_path, capsys, split, damage):
    data, shard = damaged_copy(toy, tmp_path, split, damage)
    out = tmp_path / "model"
    assert main(["train", "--data", str(data), "--out", str(out), "--epochs", "1", *TOY_OPTIONS]) == 1
    (line,) = error_lines(capsys.readouterr().err)
    assert line.startswith(f"error: {shard}: {DAMAGES[damage][1]}") and line.endswith(AGAIN)
    assert not out.exists()


@pytest.mark.parametrize("damage", DAMAGES)
def test_quantize_report_and_crossval_name_a_damaged_shard(toy, tmp_path, capsys, damage):
    data, shard = damaged_copy(toy, tmp_path, "test", damage)
    model_dir = str(toy[1])
    commands = [["quantize", "--model", model_dir, "--data", str(data), "--out", str(tmp_path / "net.tsq")],
                ["report", "--model", model_dir, "--data", str(data), "--out", str(tmp_path / "reports")],
                ["crossval", "--data", str(data), "--out", str(tmp_path / "crossval"), "--folds", "2"]]
    for command in commands:
        assert main(command) == 1, command[0]
        (line,) = error_lines(capsys.readouterr().err)
        assert line.startswith(f"error: {shard}: {DAMAGES[damage][1]}"), command[0]
    assert sorted(path.name for path in tmp_path.iterdir()) == ["records"]


def test_a_shard_missing_from_its_set_or_a_count_short_of_features_json_is_named(toy, tmp_path):
    data = tmp_path / "records"
    shutil.copytree(toy[0], data)
    (data / SHARD["train"]).rename(data / "train-00000-of-00002.tfrecord.gz")
    with pytest.raises(UnreadableShard, match=f"^{data}/train-00001-of-00002.tfrecord.gz: missing "
                                              "from its set of train shards"):
        check_shards(str(data), SPLITS, read_spec(str(data)))
    (data / "train-00000-of-00002.tfrecord.gz").rename(data / SHARD["train"])
    spec = json.loads((data / "features.json").read_text())
    spec["counts"]["written_test"] += 1
    (data / "features.json").write_text(json.dumps(spec))
    with pytest.raises(UnreadableShard, match=f"^{data}: its test shards hold 60 records where "
                                              "features.json counts 61"):
        check_shards(str(data), SPLITS, read_spec(str(data)))


def interrupt_after_batches(monkeypatch, batches: int):
    """Ctrl-C pressed after ``batches`` training batches of the next train run."""
    class CtrlC(keras.callbacks.Callback):
        def on_train_batch_end(self, batch, logs=None):
            if batch + 1 == batches:
                raise KeyboardInterrupt

    monkeypatch.setattr(fit, "wall_clock_budget", lambda seconds: CtrlC())


def test_an_interrupted_train_takes_back_what_it_wrote_and_only_that(toy, tmp_path, capsys, monkeypatch):
    data, model_dir = toy
    interrupt_after_batches(monkeypatch, 2)
    fresh = tmp_path / "fresh"
    assert main(["train", "--data", str(data), "--out", str(fresh), *TOY_OPTIONS]) == 130
    err = capsys.readouterr().err
    assert "Traceback" not in err
    assert err.splitlines()[-1] == "interrupted; what this run wrote into --out was removed; rerun to train"
    assert not fresh.exists()

    kept = tmp_path / "kept"
    kept.mkdir()
    (kept / "notes.txt").write_text("mine")
    assert main(["train", "--data", str(data), "--out", str(kept), *TOY_OPTIONS]) == 130
    assert [path.name for path in kept.iterdir()] == ["notes.txt"]

    # Trained on in place: the earlier run's files, checkpoint and logs included, stay as they were.
    resumed = tmp_path / "resumed"
    shutil.copytree(model_dir, resumed)
    before = {path: path.read_bytes() for path in resumed.rglob("*") if path.is_file()}
    assert main(["train", "--data", str(data), "--out", str(resumed), "--resume", str(resumed),
                 *TOY_OPTIONS]) == 130
    after = {path: path.read_bytes() for path in resumed.rglob("*") if path.is_file()}
    assert {path: after.get(path) for path in before} == before
