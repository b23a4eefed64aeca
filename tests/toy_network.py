"""The toy network the model tests share: records written through the real schema, small
networks, packed files over today's planes.

Whether a target is safe is told by a 3×3 block of ones at the window's centre
in one plane (a lone centre stone means unsafe), and the ``TR`` move is the one
point set in another plane, so a network that learns anything must learn both.
"""
import os

import numpy as np

from model.network import NetworkOptions, build_model
from model.numpy_net import NumpyNet
from model.quantize import model_tensors, pack
from pipeline.formats.records import WINDOW

PLANES = ["ones", "move_marker", "eye_block", "noise"]
NEIGHBOURS = [(-1, 0), (1, 0), (0, -1), (0, 1)]
TOY_OPTIONS = ["--width", "48", "--batch-size", "32", "--seed", "3", "--move-weight", "1",
               "--learning-rate", "0.003"]


def toy_record(rng, index: int) -> tuple[np.ndarray, int, list[int]]:
    """One record of the toy set: ``(planes [S, 11, 11, F], safe, moves)``."""
    windows = int(rng.integers(1, 4))
    safe = int(rng.random() < 0.5)
    planes = np.zeros((windows, WINDOW, WINDOW, len(PLANES)), np.uint8)
    planes[..., 0] = 1
    planes[..., 3] = rng.random((windows, WINDOW, WINDOW)) < 0.3
    centre = WINDOW // 2
    if safe:
        planes[:, centre - 1:centre + 2, centre - 1:centre + 2, 2] = 1
    else:
        planes[:, centre, centre, 2] = 1
    move = -1
    if index % 3:
        row, col = NEIGHBOURS[int(rng.integers(0, 4))]
        move = (centre + row) * WINDOW + centre + col
        planes[:, centre + row, centre + col, 1] = 1
    return planes, safe, [move] * windows


def write_toy_records(folder, counts={"train": 600, "test": 200}, seed=0, problems="toy", inverted=(),
                      names=None) -> None:
    """The toy set's records; the splits named in ``inverted`` have every label turned over;
    ``names(split, i)``, when given, names the subproblem file of each record (else ``{split}{i}.sgf``)."""
    import tensorflow as tf

    from pipeline.formats.records import example_bytes, write_spec

    rng = np.random.default_rng(seed)
    for split, count in counts.items():
        path = os.path.join(folder, f"{split}-00000-of-00001.tfrecord.gz")
        with tf.io.TFRecordWriter(path, options="ZLIB") as writer:
            for i in range(count):
                planes, safe, moves = toy_record(rng, i)
                safe = 1 - safe if split in inverted else safe
                writer.write(example_bytes(planes, safe, moves, available_moves=3 + i % 4,
                                           defender_first=i % 2, problem=f"{problems}/{i % 40}",
                                           subproblem=names(split, i) if names else f"{split}{i}.sgf"))
    # counted as tsumego features counts
    write_spec(folder, PLANES, {"read": sum(counts.values()), "rejected": 0,
                                **{f"written_{split}": count for split, count in counts.items()}})


def eight_images(windows: np.ndarray) -> list[np.ndarray]:
    """The windows ``[S, 11, 11, F]`` turned and mirrored with numpy, independently of the tables."""
    turned = [np.rot90(windows, k, axes=(1, 2)) for k in range(4)]
    return turned + [np.swapaxes(w, 1, 2) for w in turned]


def small_model(num_planes=len(PLANES), blocks=2, seed=5, dropout=0.0, architecture="dense"):
    import keras
    keras.utils.set_random_seed(seed)
    return build_model(num_planes, NetworkOptions(architecture=architecture, width=40, channels=6,
                                                  blocks=blocks, dropout=dropout))


def meta_for(blocks: int, architecture: str = "dense") -> dict:
    shape = {"channels": 6} if architecture == "conv" else {"width": 40}
    return {"planes": PLANES, "window": WINDOW, "architecture": architecture, "blocks": blocks, **shape}


REPOSITORY = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


PROBLEM_FILES = [os.path.join(REPOSITORY, "sgf-problems", "eye-shapes", name)
                 for name in ("bent-three-corner-kill.sgf", "bulky-five-corner-live.sgf")]


def packed_for_current_planes(path, bits=5):
    """A seeded random network over the planes this code computes, packed to ``path``."""
    from pipeline.planes import plane_names

    names = plane_names()
    keras_model = small_model(num_planes=len(names), blocks=1)
    path.write_bytes(pack(model_tensors(keras_model), bits,
                          {"planes": names, "window": WINDOW, "width": 40, "blocks": 1}))
    return NumpyNet.load(str(path))
