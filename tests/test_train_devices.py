"""Training through tf.distribute and in mixed precision, as on a machine with GPUs.

This machine has no GPU, so the mirrored strategy is given its one CPU: the
path a GPU run takes (the model built in the strategy's scope, each batch
split between the replicas), with one replica.  The records are the toy set
of ``test_model``.
"""
import json
import warnings

import pytest

from model import train
from cli.main import main
from toy_network import TOY_OPTIONS, write_toy_records


@pytest.fixture(scope="module")
def records(tmp_path_factory):
    folder = tmp_path_factory.mktemp("records")
    write_toy_records(str(folder), counts={"train": 300, "test": 100})
    return folder


def test_the_mirrored_strategy_trains_with_one_replica_on_the_cpu(records, tmp_path, capsys, monkeypatch):
    import tensorflow as tf

    chosen, strategy_over = [], train.distribution_strategy

    def mirrored_on_the_cpu():
        chosen.append(strategy_over(["/cpu:0"]))
        return chosen[-1]

    monkeypatch.setattr(train, "distribution_strategy", mirrored_on_the_cpu)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert main(["train", "--data", str(records), "--out", str(tmp_path), "--epochs", "4",
                     *TOY_OPTIONS]) == 0
    assert isinstance(chosen[0], tf.distribute.MirroredStrategy)
    assert "training on /job:localhost/replica:0/task:0/device:CPU:0" in capsys.readouterr().out
    spec = json.loads((tmp_path / "model.json").read_text())
    assert spec["replicas"] == 1 and spec["test_accuracy"] >= 0.8, spec["test_accuracy"]
    # Told how many batches an epoch holds, Keras no longer runs into the end of the records.
    assert not [w for w in caught if "ran out of data" in str(w.message)]


def test_mixed_precision_computes_in_float16_keeps_float32_weights_and_restores_the_policy(records, tmp_path):
    import keras

    assert main(["train", "--data", str(records), "--out", str(tmp_path), "--epochs", "1", "--mixed-precision",
                 *TOY_OPTIONS]) == 0
    assert keras.mixed_precision.global_policy().name == "float32"
    model = keras.saving.load_model(tmp_path / "model.keras", compile=False)
    assert {layer.compute_dtype for layer in model.layers if layer.weights} == {"float16"}
    assert {weight.dtype for weight in model.weights} == {"float32"}
    assert json.loads((tmp_path / "model.json").read_text())["mixed_precision"] is True
