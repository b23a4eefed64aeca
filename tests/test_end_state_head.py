"""The end-state head: its labels in the records, its reader, its training, packing and scoring.

A subproblem's end state (who holds each point once the principal variation
is played out) becomes, for each window, a class a point relative to the
target's colour; the network learns it as a third readout.  The records here
are written through the real schema: subproblems made by hand for the
features, and the toy set of ``tests/test_model.py`` with an end state added
for the model.
"""
import json
import os

import numpy as np
import pytest

from model.network import ARCHITECTURES, NetworkOptions, build_model, layer_names
from model.numpy_net import NumpyNet
from model.packed import FLOAT_BITS, unpack
from model.quantize import model_tensors, pack
from cli.main import main
from pipeline.formats.records import (END_ALLY, END_EMPTY, END_ENEMY, END_OFF_BOARD, WINDOW, example_bytes,
                                      write_spec)
from pipeline.formats.subproblem import Subproblem, parse_subproblem
from pipeline.planes.windows import labelled_windows
from pipeline.symmetries import transform, transform_point
from solver.board import BLACK, EMPTY, WHITE
from tests.toy_network import PLANES, PROBLEM_FILES, toy_record

GLYPH = {".": EMPTY, "X": BLACK, "O": WHITE, "x": BLACK, "o": WHITE}
# A white corner group (the target, o) walled in by black, and the board once the
# principal variation is played out: white made its second eye at ca, black filled gd.
NOW = """
    .O..X..
    OOOOX..
    XXoOX..
    ..XXX..
    .......
    .......
    .......
"""
END = """
    .O.OX..
    OOOOX..
    XXOOX..
    ..XXX..
    ......X
    .......
    .......
"""
FAST = ["--epochs", "1", "--width", "16", "--channels", "4", "--batch-size", "64", "--seed", "3"]


def board(rows: str) -> np.ndarray:
    return np.array([[GLYPH[c] for c in line] for line in rows.split()], dtype=np.int8)


def corner_group(end_state=True) -> Subproblem:
    return Subproblem(size=7, stones=board(NOW), target=(2, 2), to_play=WHITE, safe=True, available_moves=9,
                      best_move=(3, 0), source="hand/corner", end_state=board(END) if end_state else None)


def turned(sub: Subproblem, symmetry: int) -> Subproblem:
    def point(p):
        return None if p is None else transform_point(*p, symmetry, sub.size)

    return Subproblem(size=sub.size, stones=transform(sub.stones, symmetry), target=point(sub.target),
                      to_play=sub.to_play, best_move=point(sub.best_move), source=sub.source,
                      end_state=transform(sub.end_state, symmetry))


def swapped(sub: Subproblem) -> Subproblem:
    def swap(stones):
        return np.where(stones == EMPTY, EMPTY, 3 - stones).astype(np.int8)

    return Subproblem(size=sub.size, stones=swap(sub.stones), target=sub.target, to_play=3 - sub.to_play,
                      best_move=sub.best_move, source=sub.source, end_state=swap(sub.end_state))


# -- the features ----------------------------------------------------------------

def test_a_window_point_holds_its_owner_at_the_end_relative_to_the_target():
    sub = corner_group()
    windows, moves, end_states = labelled_windows(sub)
    # one window per stone of the white block, row-major; every white stone is in it
    stones = list(zip(*np.nonzero(sub.stones == WHITE)))
    assert end_states.shape == windows.shape[:3] == (len(stones), WINDOW, WINDOW)
    assert end_states.dtype == np.uint8
    # the window of the target stone cc: board point (x, y) is window cell (y - 2 + 5, x - 2 + 5)
    window = end_states[stones.index((2, 2))]

    def cell(x, y):
        return int(window[y - 2 + 5, x - 2 + 5])

    assert cell(2, 2) == END_ALLY and cell(3, 0) == END_ALLY       # white, the target's colour
    assert cell(4, 0) == END_ENEMY and cell(6, 4) == END_ENEMY     # black, gd played by the end
    assert cell(0, 0) == END_EMPTY and cell(2, 0) == END_EMPTY     # the eyes stay empty
    assert window[:3].tolist() == [[END_OFF_BOARD] * WINDOW] * 3   # above the board's top edge
    assert window[3:, :3].tolist() == [[END_OFF_BOARD] * 3] * 8    # left of its left edge
    assert (window[3:10, 3:10] != END_OFF_BOARD).all() and (window[10] == END_OFF_BOARD).all()
    # no end state, no labels; the planes and moves are the same either way
    plain = labelled_windows(corner_group(end_state=False))
    assert plain[2] is None and np.array_equal(plain[0], windows) and plain[1] == moves


def test_end_states_follow_the_8_symmetries_and_not_a_colour_swap():
    sub = corner_group()
    windows, _, end_states = labelled_windows(sub)
    for symmetry in range(8):
        other_windows, _, other_end_states = labelled_windows(turned(sub, symmetry))
        # Stones come in row-major order, which a symmetry permutes: match by the planes.
        for window, end_state in zip(windows, end_states):
            (match,) = [k for k, w in enumerate(other_windows) if np.array_equal(w, transform(window, symmetry))]
            assert np.array_equal(other_end_states[match], transform(end_state, symmetry)), symmetry
    twin_windows, _, twin_end_states = labelled_windows(swapped(sub))
    assert np.array_equal(twin_windows, windows) and np.array_equal(twin_end_states, end_states)


def test_records_carry_the_end_state_and_leave_it_out_when_there_is_none():
    from model.dataset import parse_example
    from pipeline.features_pipeline import SplitSettings, record_of
    from pipeline.planes import plane_names

    for sub in (corner_group(), corner_group(end_state=False)):
        data = sub.to_sgf().encode()
        assert (parse_subproblem(data).end_state is None) == (sub.end_state is None)
        _, _, _, _, example = record_of("hand.sgf", data, SplitSettings())
        record = {key: value.numpy() for key, value in parse_example(example, len(plane_names())).items()}
        expected = labelled_windows(sub)[2]
        if expected is None:
            assert b"end_state" not in example and record["end_state"].shape == (0, WINDOW, WINDOW)
        else:
            assert np.array_equal(record["end_state"], expected)
    with pytest.raises(ValueError, match="end states must be"):
        example_bytes(np.zeros((2, WINDOW, WINDOW, 1), np.uint8), 1, [-1, -1], 3, 0, "p", "s",
                      end_states=np.zeros((1, WINDOW, WINDOW), np.uint8))


# -- records for the model -------------------------------------------------------

def toy_end_state(planes: np.ndarray, index: int) -> np.ndarray | None:
    """A learnable end state for a toy record: the eye block's points the target's colour, the
    noise plane's the other colour, the rest empty; the right two columns off the board in every
    other record, and no end state at all in one record in four."""
    if index % 4 == 3:
        return None
    classes = np.full(planes.shape[:3], END_EMPTY, np.uint8)
    classes[planes[..., 3] == 1] = END_ENEMY
    classes[planes[..., 2] == 1] = END_ALLY
    if index % 2:
        classes[:, :, WINDOW - 2:] = END_OFF_BOARD
    return classes


def write_end_state_records(folder, counts={"train": 192, "test": 64}, seed=0, schema=None):
    """The toy records of ``tests/test_model.py`` with ``toy_end_state``; ``schema`` 1 writes
    none and says so in features.json, as the features stage did before the end state."""
    import tensorflow as tf

    rng = np.random.default_rng(seed)
    stored = {}
    for split, count in counts.items():
        path = os.path.join(folder, f"{split}-00000-of-00001.tfrecord.gz")
        with tf.io.TFRecordWriter(path, options="ZLIB") as writer:
            for i in range(count):
                planes, safe, moves = toy_record(rng, i)
                end_states = None if schema == 1 else toy_end_state(planes, i)
                if end_states is not None:
                    planes[:, :, WINDOW - 2:, 0] = planes[:, :, WINDOW - 2:, 0] * (i % 2 == 0)
                stored[f"{split}{i}"] = (planes, end_states)
                writer.write(example_bytes(planes, safe, moves, available_moves=3 + i % 4, defender_first=i % 2,
                                           problem=f"toy/{i % 8}", subproblem=f"{split}{i}",
                                           end_states=end_states))
    write_spec(folder, PLANES, {"read": sum(counts.values()), "rejected": 0,
                                **{f"written_{split}": count for split, count in counts.items()}})
    if schema is not None:
        spec_path = os.path.join(folder, "features.json")
        spec = json.loads(open(spec_path).read())
        spec["schema_version"] = schema
        with open(spec_path, "w") as f:
            json.dump(spec, f)
    return stored


@pytest.fixture(scope="module")
def end_state_records(tmp_path_factory):
    folder = tmp_path_factory.mktemp("end-state-records")
    return folder, write_end_state_records(str(folder))


def test_the_training_reader_turns_the_end_state_with_the_planes(end_state_records):
    from model.dataset import end_state_records as count_end_states
    from model.dataset import make_dataset
    from pipeline.symmetries import turn

    folder, stored = end_state_records
    assert count_end_states(str(folder), ("train", "test")) == sum(e is not None for _, e in stored.values())
    # The toy planes hold random noise: a window and its symmetry are known by their planes.
    images = {}
    for planes, end_states in stored.values():
        for k in range(len(planes)):
            for s in range(8):
                images[turn(planes[k:k + 1], s).tobytes()] = (end_states, k, s)
    assert len(images) == 8 * sum(len(planes) for planes, _ in stored.values())
    dataset = make_dataset(str(folder), "train", 32, augment=True, shuffle=False, seed=4, end_state=True)
    symmetries = set()
    for x, targets, weights in dataset.take(3).as_numpy_iterator():
        for i in range(len(x)):
            end_states, k, s = images[x[i].astype(np.uint8).tobytes()]
            symmetries.add(s)
            if end_states is None:
                assert not weights["end_state"][i].any()
                continue
            expected = turn(end_states[k:k + 1, :, :, None], s).reshape(-1)
            assert np.array_equal(weights["end_state"][i], (expected != END_OFF_BOARD).astype(np.float32))
            on_board = expected != END_OFF_BOARD
            assert np.array_equal(targets["end_state"][i][on_board], expected[on_board])
    assert len(symmetries) > 4
    plain = make_dataset(str(folder), "test", 16, augment=False, shuffle=False)
    assert "end_state" not in next(iter(plain))[1]   # a value-only network is given no such target


# -- the network, packed and evaluated -------------------------------------------

def small_model(architecture: str, end_state: bool = True, num_planes: int = len(PLANES)):
    import keras

    keras.utils.set_random_seed(7)
    return build_model(num_planes, NetworkOptions(architecture=architecture, width=40, channels=6, blocks=2,
                                                  end_state_weight=0.5 if end_state else 0.0))


def meta_for(architecture: str, end_state: bool = True, planes=PLANES) -> dict:
    shape = {"channels": 6} if architecture == "conv" else {"width": 40}
    return {"planes": planes, "window": WINDOW, "architecture": architecture, "blocks": 2, **shape,
            **({"end_state": True} if end_state else {})}


@pytest.mark.parametrize("architecture", ARCHITECTURES)
def test_numpy_evaluator_equals_keras_on_the_end_state(architecture):
    from model.keras_net import KerasNet

    keras_model = small_model(architecture)
    boards = (np.random.default_rng(0).random((48, WINDOW, WINDOW, len(PLANES))) < 0.4).astype(np.float32)
    tensors = model_tensors(keras_model)
    assert [name for name, _ in tensors][-2:] == [f"{layer_names(2, architecture, True)[-1]}/{part}"
                                                  for part in ("kernel", "bias")]
    expected = keras_model(boards)
    net = NumpyNet(*unpack(pack(tensors, FLOAT_BITS, meta_for(architecture))))
    safe, move, end_state = net.evaluate_all(boards)
    assert end_state.shape == (48, WINDOW * WINDOW, 3)
    np.testing.assert_allclose(end_state, expected["end_state"].numpy(), atol=1e-5)
    np.testing.assert_allclose(safe, expected["safe"].numpy()[:, 0], atol=1e-5)
    np.testing.assert_allclose(KerasNet(keras_model, PLANES).evaluate_all(boards)[2], end_state, atol=1e-5)

    # The 5-bit file, its biases corrected, against Keras running the same weights.
    header, dequantized = unpack(pack(tensors, 5, meta_for(architecture), "channel", boards[:32].astype(np.uint8)))
    assert header["end_state"] is True and header["bias_correction_windows"] == 32
    for name in layer_names(2, architecture, end_state=True):
        keras_model.get_layer(name).set_weights([dequantized[f"{name}/kernel"], dequantized[f"{name}/bias"]])
    np.testing.assert_allclose(NumpyNet(header, dequantized).evaluate_all(boards)[2],
                               keras_model(boards)["end_state"].numpy(), atol=1e-5)


def test_a_network_packed_without_the_head_still_loads():
    keras_model = small_model("dense", end_state=False)
    assert "end_state" not in keras_model.output_names
    header, tensors = unpack(pack(model_tensors(keras_model), 5, meta_for("dense", end_state=False)))
    assert "end_state" not in header
    net = NumpyNet(header, tensors)
    boards = np.ones((3, WINDOW, WINDOW, len(PLANES)), np.float32)
    assert not net.end_state and net.evaluate_all(boards)[2] is None
    assert len(net.evaluate(boards)) == 2


# -- training, scoring, eval -----------------------------------------------------

def test_a_tiny_run_trains_packs_and_reports_the_head(end_state_records, tmp_path, capsys):
    from model.dataset import whole_records
    from model.predictions import predict_split

    folder, _ = end_state_records
    model_dir = tmp_path / "model"
    assert main(["train", "--data", str(folder), "--out", str(model_dir), *FAST, "--end-state-weight", "0.5"]) == 0
    spec = json.loads((model_dir / "model.json").read_text())
    assert spec["options"]["end_state_weight"] == 0.5 and 0 <= spec["test_end_state_accuracy"] <= 1
    assert "end-state accuracy" in capsys.readouterr().out
    assert main(["quantize", "--model", str(model_dir), "--no-table"]) == 0
    net = NumpyNet.load(str(model_dir / "model-5bit.tsq"))
    assert net.end_state
    assert main(["report", "--model", str(model_dir), "--out", str(tmp_path / "reports"), "--no-symmetries"]) == 0
    summary = (tmp_path / "reports" / "summary.md").read_text()
    assert "| network | accuracy | end-state accuracy | file bytes |" in summary
    assert "end-state loss weight 0.5" in summary
    # the report's figure: points inside the board whose class the head's top answer gets right
    predictions = predict_split(str(folder), "test", {"packed": net})
    right = points = 0
    for record in whole_records(str(folder), "test"):
        if len(record["end_state"]):
            labels = record["end_state"].reshape(len(record["planes"]), -1)
            guesses = net.evaluate_all(record["planes"])[2].argmax(axis=-1)
            right += int(((guesses == labels) & (labels != END_OFF_BOARD)).sum())
            points += int((labels != END_OFF_BOARD).sum())
    assert int(predictions.end_state_points.sum()) == points > 0
    assert predictions.end_state_accuracy("packed") == pytest.approx(right / points)
    assert f"{right / points:.4f} |" in summary


def test_weight_0_and_records_without_end_states_build_no_head(end_state_records, tmp_path, capsys):
    import keras

    folder, _ = end_state_records
    assert main(["train", "--data", str(folder), "--out", str(tmp_path / "off"), *FAST,
                 "--end-state-weight", "0"]) == 0
    assert "test_end_state_accuracy" not in json.loads((tmp_path / "off" / "model.json").read_text())
    # Resumed with the head, the network keeps its other weights and learns the head afresh.
    assert main(["train", "--data", str(folder), "--out", str(tmp_path / "on"), *FAST, "--learning-rate", "1e-12",
                 "--resume", str(tmp_path / "off")]) == 0
    off, on = (keras.saving.load_model(tmp_path / name / "model.keras", compile=False) for name in ("off", "on"))
    assert "end_state" in on.output_names and "end_state" not in off.output_names
    np.testing.assert_allclose(on.get_layer("align").get_weights()[0], off.get_layer("align").get_weights()[0],
                               atol=1e-6)
    # Records of schema 1 load, and a network trains on them without the head.
    old = tmp_path / "old"
    old.mkdir()
    write_end_state_records(str(old), counts={"train": 96, "test": 32}, schema=1)
    capsys.readouterr()
    assert main(["train", "--data", str(old), "--out", str(tmp_path / "value-only"), *FAST,
                 "--architecture", "conv"]) == 0
    assert "built without the end-state head" in capsys.readouterr().out
    spec = json.loads((tmp_path / "value-only" / "model.json").read_text())
    assert spec["options"]["end_state_weight"] == 0.0
    assert main(["quantize", "--model", str(tmp_path / "value-only"), "--no-table"]) == 0
    assert not NumpyNet.load(str(tmp_path / "value-only" / "model-5bit.tsq")).end_state


def test_crossval_scores_the_head_of_each_fold(end_state_records, tmp_path):
    folder, _ = end_state_records
    out = tmp_path / "cv"
    assert main(["crossval", "--data", str(folder), "--out", str(out), "--folds", "4", "--fold", "0",
                 *FAST]) == 0
    result = json.loads((out / "fold-0" / "result.json").read_text())
    assert result["end_state_points"] > 0 and 0 <= result["end_state_accuracy"] <= 1
    assert json.loads((out / "crossval.json").read_text())["pooled"]["end_state_accuracy"] == pytest.approx(
        result["end_state_accuracy"])
    assert "end-state accuracy |" in (out / "crossval.md").read_text()


def test_eval_prints_and_draws_the_end_state(tmp_path, capsys):
    from model.evaluate import end_state_owners
    from pipeline.formats.subproblem import load_subproblem
    from pipeline.planes import plane_names

    names = plane_names()
    path = tmp_path / "net.tsq"
    path.write_bytes(pack(model_tensors(small_model("conv", num_planes=len(names))), 5,
                          meta_for("conv", planes=names)))
    picture = tmp_path / "end.svg"
    assert main(["eval", "--model", str(path), "--end-state", "--picture", str(picture), PROBLEM_FILES[0]]) == 0
    out = capsys.readouterr().out.splitlines()
    sub = load_subproblem(PROBLEM_FILES[0])
    size = sub.size
    # Go coordinates on the edges: the columns A..N without I, the rows counted from the bottom
    columns = "ABCDEFGHJKLMN"[:size]
    at = out.index("   " + columns + "  " + columns)
    rows = out[at + 1:at + 1 + size]
    assert [row[:3] for row in rows] == [f"{size - y:>2} " for y in range(size)]
    assert all(set(row[3 + size + 2:]) <= set("XO.?") and len(row) == 2 * size + 5 for row in rows)
    target_row = rows[sub.target[1]]
    assert target_row[3 + sub.target[0]] == "x"   # the black target, lower case
    assert picture.read_text().lstrip().startswith("<?xml")
    assert main(["eval", "--model", str(path), "--end-state", "--json", PROBLEM_FILES[0]]) == 0
    json_rows = json.loads(capsys.readouterr().out)["end_state"]
    assert json_rows == [row[3 + size + 2:] for row in rows]
    windows = labelled_windows(sub)[0]
    owners = end_state_owners(sub, NumpyNet.load(str(path)).evaluate_all(windows)[2])
    assert json_rows == ["".join({-1: "?", EMPTY: ".", BLACK: "X", WHITE: "O"}[int(v)] for v in row)
                         for row in owners]
    # a network without the head is refused before any file is read
    path.write_bytes(pack(model_tensors(small_model("dense", end_state=False, num_planes=len(names))), 5,
                          meta_for("dense", end_state=False, planes=names)))
    assert main(["eval", "--model", str(path), "--end-state", PROBLEM_FILES[0]]) == 1
    assert "the network has no end-state head" in capsys.readouterr().err
