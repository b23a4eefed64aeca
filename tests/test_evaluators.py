"""The numpy evaluator against Keras, the window symmetries, the options a network uses."""
import os

import numpy as np
import pytest

from model.network import NetworkOptions, layer_names, options_in_use
from model.numpy_net import NumpyNet
from model.packed import FLOAT_BITS, unpack
from model.quantize import model_tensors, pack
from pipeline.formats.records import WINDOW
from tests.toy_network import PLANES, eight_images, meta_for, small_model


def test_the_window_symmetries_are_the_8_of_the_square():
    from pipeline.symmetries import INVERSE_SYMMETRIES, SYMMETRIES, turn

    assert np.array_equal(SYMMETRIES[0], np.arange(121))
    assert len({row.tobytes() for row in SYMMETRIES}) == 8
    assert all(np.array_equal(np.sort(row), np.arange(121)) for row in SYMMETRIES)
    assert all(np.array_equal(row[inverse], np.arange(121))
               for row, inverse in zip(SYMMETRIES, INVERSE_SYMMETRIES))
    windows = np.random.default_rng(3).integers(0, 2, (2, 11, 11, 3), dtype=np.uint8)
    images = {turn(windows, s).tobytes() for s in range(8)}
    assert images == {np.ascontiguousarray(w).tobytes() for w in eight_images(windows)}


@pytest.mark.parametrize("architecture, blocks, dropout",
                         [("dense", 1, 0.0), ("dense", 2, 0.0), ("dense", 2, 0.5),
                          ("conv", 1, 0.0), ("conv", 2, 0.5)])
def test_numpy_evaluator_equals_keras(architecture, blocks, dropout):
    # Dropout acts in training only: a network trained with it is evaluated as one without.
    keras_model = small_model(blocks=blocks, dropout=dropout, architecture=architecture)
    boards = (np.random.default_rng(0).random((64, WINDOW, WINDOW, len(PLANES))) < 0.4).astype(np.float32)
    tensors = model_tensors(keras_model)
    assert [name for name, _ in tensors] == [f"{layer}/{part}" for layer in layer_names(blocks, architecture)
                                             for part in ("kernel", "bias")]

    expected = keras_model(boards)
    safe, move = NumpyNet(*unpack(pack(tensors, FLOAT_BITS, meta_for(blocks, architecture)))).evaluate(boards)
    np.testing.assert_allclose(safe, expected["safe"].numpy()[:, 0], atol=1e-5)
    np.testing.assert_allclose(move, expected["move"].numpy(), atol=1e-5)

    # The 5-bit file against Keras running the same dequantized weights.
    header, dequantized = unpack(pack(tensors, 5, meta_for(blocks, architecture)))
    for name in layer_names(blocks, architecture):
        keras_model.get_layer(name).set_weights([dequantized[f"{name}/kernel"], dequantized[f"{name}/bias"]])
    expected = keras_model(boards)
    safe, move = NumpyNet(header, dequantized).evaluate(boards)
    np.testing.assert_allclose(safe, expected["safe"].numpy()[:, 0], atol=1e-5)
    np.testing.assert_allclose(move, expected["move"].numpy(), atol=1e-5)


@pytest.mark.parametrize("architecture", ["dense", "conv"])
def test_keras_scoring_equals_the_numpy_evaluator(architecture, monkeypatch):
    from model import keras_net

    monkeypatch.setattr(keras_net, "BATCH", 24)   # 64 boards: three calls, the last one short
    keras_model = small_model(blocks=2, architecture=architecture)
    boards = (np.random.default_rng(1).random((64, WINDOW, WINDOW, len(PLANES))) < 0.4).astype(np.float32)
    numpy_net = NumpyNet(*unpack(pack(model_tensors(keras_model), FLOAT_BITS, meta_for(2, architecture))))
    scorer = keras_net.KerasNet(keras_model, numpy_net.planes)

    safe, move = scorer.evaluate(boards)
    expected_safe, expected_move = numpy_net.evaluate(boards)
    assert safe.shape == (64,) and move.shape == (64, WINDOW * WINDOW)
    np.testing.assert_allclose(safe, expected_safe, atol=1e-5)
    np.testing.assert_allclose(move, expected_move, atol=1e-5)
    np.testing.assert_allclose(scorer.safe_over_symmetries(boards, safe),
                               numpy_net.safe_over_symmetries(boards, expected_safe), atol=1e-5)


def test_the_numpy_evaluator_does_not_import_tensorflow():
    import subprocess
    import sys

    code = ("import sys, model.numpy_net; "
            "print(sorted(m for m in ('tensorflow', 'keras') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         cwd=os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    assert out.stdout.strip() == "[]"


def test_the_options_in_use_leave_out_the_shape_option_the_architecture_ignores():
    conv = NetworkOptions(architecture="conv", channels=16, blocks=3).to_dict()
    assert options_in_use(conv) == {key: value for key, value in conv.items() if key != "width"}
    dense = NetworkOptions(width=64).to_dict()
    assert options_in_use(dense) == {key: value for key, value in dense.items() if key != "channels"}
    # runs from before the conv architecture have neither option and were dense
    old = {key: value for key, value in dense.items() if key not in ("architecture", "channels")}
    assert options_in_use(old) == old
