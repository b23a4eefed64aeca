"""The fit's two guards of the safe head: the learning rate's warm-up, and the stop of a run whose
safe head has died (every ReLU on its path dark, so it answers the same for every position)."""
import keras
import numpy as np
import pytest

import model.network
from model import fit
from cli.main import main
from tests.toy_network import TOY_OPTIONS, write_toy_records


@pytest.fixture(scope="module")
def data(tmp_path_factory):
    folder = tmp_path_factory.mktemp("records")
    write_toy_records(str(folder), counts={"train": 160, "test": 60})
    return folder


class RatesSeen(keras.callbacks.Callback):
    """The learning rate each batch trains with (after every callback before it has set it)."""

    def __init__(self):
        super().__init__()
        self.rates = []

    def on_train_batch_begin(self, batch, logs=None):
        self.rates.append(float(self.model.optimizer.learning_rate.numpy()))


def rates_of(batches_a_epoch: int, epochs: int, warm_up_batches: int) -> np.ndarray:
    keras.utils.set_random_seed(0)
    net = keras.Sequential([keras.Input((3,)), keras.layers.Dense(1)])
    net.compile(optimizer=keras.optimizers.Adam(0.01), loss="mse")
    seen = RatesSeen()
    x = np.ones((batches_a_epoch * 4, 3), np.float32)
    net.fit(x, x[:, :1], batch_size=4, epochs=epochs, verbose=0, shuffle=False,
            callbacks=[fit.warm_up(warm_up_batches), seen])
    return np.array(seen.rates)


def test_the_warm_up_climbs_linearly_to_the_rate_and_then_keeps_it():
    rates = rates_of(batches_a_epoch=8, epochs=2, warm_up_batches=4)
    assert np.allclose(rates[:4], [0.0025, 0.005, 0.0075, 0.01])
    assert np.allclose(rates[4:], 0.01) and len(rates) == 16


def test_a_warm_up_longer_than_the_first_epoch_ends_with_it():
    # a plateau schedule reads the rate at the epoch's end: it must be the scheduled one
    rates = rates_of(batches_a_epoch=5, epochs=2, warm_up_batches=100)
    assert np.allclose(rates[:5], [0.002, 0.004, 0.006, 0.008, 0.01])
    assert np.allclose(rates[5:], 0.01)


def killing_the_value_head(build):
    """``build_model`` whose conv value planes start with a bias no input can overcome."""
    def build_dead(num_planes, options):
        net = build(num_planes, options)
        kernel, bias = net.get_layer("value_conv").get_weights()
        net.get_layer("value_conv").set_weights([kernel, bias - 1e4])
        return net
    return build_dead


def test_a_run_whose_safe_head_died_stops_after_the_epoch_and_keeps_nothing(data, tmp_path, capsys, monkeypatch):
    out = tmp_path / "model"
    command = ["train", "--data", str(data), "--out", str(out), "--architecture", "conv",
               "--channels", "6", "--blocks", "1", "--epochs", "3", "--schedule", "cosine", *TOY_OPTIONS]
    monkeypatch.setattr(model.network, "build_model", killing_the_value_head(model.network.build_model))
    assert main(command) == 1
    err = capsys.readouterr().err
    assert "after epoch 1 the safe head answers P(safe) = " in err
    assert "train afresh with another --seed or a --warm-up" in err
    # no checkpoint of the dead weights for a --resume to go on from
    assert not out.exists()


def test_a_living_safe_head_trains_to_the_end(data, tmp_path, capsys):
    out = tmp_path / "model"
    command = ["train", "--data", str(data), "--out", str(out), "--architecture", "conv",
               "--channels", "6", "--blocks", "1", "--epochs", "2", "--schedule", "cosine",
               "--warm-up", "3", *TOY_OPTIONS]
    assert main(command) == 0, capsys.readouterr().err
    assert (out / "model.keras").exists()
