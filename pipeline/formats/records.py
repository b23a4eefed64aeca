"""The TFRecord contract between the features stage and the model.

One ``tf.train.Example`` per subproblem, in ZLIB-compressed shards named
``train-*.tfrecord.gz`` and ``test-*.tfrecord.gz``:

==================  =======  ===================================================
key                 type     meaning
==================  =======  ===================================================
``planes``          bytes    uint8 array ``[S, 11, 11, F]``, C order: one 11×11
                             window per stone of the target block (S windows),
                             each centred on its stone, zero past the board edge
``windows``         int64    S
``planes_count``    int64    F (checked against ``features.json``)
``safe``            int64    ``TS``: 1 if the target is safe when PL moves first
``move``            int64[S] ``TR`` as an index ``row * 11 + col`` inside each
                             window, -1 where there is no ``TR`` or it falls
                             outside that window
``available_moves`` int64    ``AS``, the size used by the reports
``defender_first``  int64    ``DS``
``problem``         bytes    the source problem id (``GN``)
``subproblem``      bytes    the subproblem's file name (its content hash)
``end_state``       bytes    uint8 array ``[S, 11, 11]``, C order: who holds each
                             point of each window once the principal variation
                             is played out, relative to the target's colour
                             (``END_*`` below; 3 past the board edge); left out
                             when the subproblem gives no end state (``EB``/``EW``)
==================  =======  ===================================================

Beside the shards, ``features.json`` holds ``schema_version``, ``window`` (N),
``planes`` (names in order), ``F`` and the counts of the run: the model reads F
and the plane names from there, never from a constant.

Schema 2 added ``end_state``.  Records of schema 1 have none, which is how a
schema-2 record without an end state reads too, so :func:`read_spec` accepts
both and a value-only network trains on either.
"""
from __future__ import annotations

import functools
import json
import os

import numpy as np

SCHEMA_VERSION = 2
# Schema 1 lacks only the end state, which a record may leave out anyway.
READABLE_SCHEMA_VERSIONS = (1, 2)
WINDOW = 11
MOVES = WINDOW * WINDOW   # a move is row * WINDOW + col inside a window
SPEC_FILE = "features.json"
SPLITS = ("train", "test")
# The end state of a window point, relative to the target's owner as the planes are, so a
# colour swap leaves it unchanged.  Points past the board edge are neither empty nor held:
# they get a class of their own, which the end-state loss and accuracy leave out.
END_EMPTY = 0
END_ALLY = 1        # the target's colour
END_ENEMY = 2       # the other colour
END_OFF_BOARD = 3
END_STATE_CLASSES = 3   # what the network predicts: empty, ally, enemy


def shard_pattern(data_dir: str, split: str) -> str:
    """Glob of the shards of one split."""
    if split not in SPLITS:
        raise ValueError(f"unknown split {split!r}; expected one of {SPLITS}")
    return os.path.join(data_dir, f"{split}-*.tfrecord.gz")


def example_bytes(planes: np.ndarray, safe: int, moves, available_moves: int,
                  defender_first: int, problem: str, subproblem: str,
                  end_states: np.ndarray | None = None) -> bytes:
    """Serialise one subproblem; ``planes`` is uint8 ``[S, 11, 11, F]``, ``end_states``
    uint8 ``[S, 11, 11]`` of ``END_*`` classes or None (the key is then left out).

    The bytes are those of ``tf.train.Example(...).SerializeToString(deterministic=True)``
    (its features a protobuf map, whose order is per process unless deterministic),
    written here without TensorFlow: loading it took a features worker seconds, and
    building the message took longer than writing it (``tests/test_records.py`` holds
    the two to the same bytes).
    """
    planes = np.ascontiguousarray(planes, dtype=np.uint8)
    if planes.ndim != 4 or planes.shape[1:3] != (WINDOW, WINDOW):
        raise ValueError(f"planes must be [S, {WINDOW}, {WINDOW}, F], got {planes.shape}")
    moves = [int(m) for m in moves]
    if len(moves) != planes.shape[0]:
        raise ValueError(f"{len(moves)} move indices for {planes.shape[0]} windows")
    if end_states is not None:
        end_states = np.ascontiguousarray(end_states, dtype=np.uint8)
        if end_states.shape != planes.shape[:3]:
            raise ValueError(f"end states must be {list(planes.shape[:3])}, got {list(end_states.shape)}")
        if int(end_states.max(initial=0)) > END_OFF_BOARD:
            raise ValueError(f"end-state classes must be {END_EMPTY}..{END_OFF_BOARD}")
    feature = {
        "planes": _bytes_feature(planes.tobytes()),
        "windows": _ints_feature([planes.shape[0]]),
        "planes_count": _ints_feature([planes.shape[3]]),
        "safe": _ints_feature([int(safe)]),
        "move": _ints_feature(moves),
        "available_moves": _ints_feature([int(available_moves)]),
        "defender_first": _ints_feature([int(defender_first)]),
        "problem": _bytes_feature(problem.encode()),
        "subproblem": _bytes_feature(subproblem.encode()),
    }
    if end_states is not None:
        feature["end_state"] = _bytes_feature(end_states.tobytes())
    # Example{features = 1: Features{feature = 1: map<string, Feature>}}: each map entry is a
    # message {key = 1, value = 2}.  Each value is a list of byte strings, joined once at
    # the end: the planes are copied once.
    pieces = []
    for key in sorted(feature, key=_map_order):
        name = key.encode()
        value = feature[key]
        length = sum(map(len, value))
        head = b"\x0a" + _varint(len(name)) + name + b"\x12" + _varint(length)
        pieces += [b"\x0a", _varint(len(head) + length), head, *value]
    return b"".join([b"\x0a", _varint(sum(map(len, pieces)))] + pieces)


def _map_order(key: str) -> list[int]:
    """Where deterministic serialisation puts a map key, as protobuf's Python runtime (upb) does:
    bytewise, but a key after the keys it is a prefix of (``planes_count`` before ``planes``)."""
    return [*key.encode(), 256]


@functools.lru_cache(maxsize=1 << 12)   # the same few values (-1 moves, lengths) over and over
def _varint(value: int) -> bytes:
    """Protobuf's base-128 varint; a negative int64 as its 64-bit two's complement (ten bytes)."""
    value &= (1 << 64) - 1
    out = bytearray()
    while value >= 0x80:
        out.append(value & 0x7F | 0x80)
        value >>= 7
    out.append(value)
    return bytes(out)


def _bytes_feature(value: bytes) -> list[bytes]:
    """A Feature holding a BytesList (its field 1) of one value (the list's field 1)."""
    listed = len(value) + 1 + len(_varint(len(value)))
    return [b"\x0a" + _varint(listed) + b"\x0a" + _varint(len(value)), value]


def _ints_feature(values: list[int]) -> list[bytes]:
    """A Feature holding an Int64List (its field 3) of packed values (the list's field 1)."""
    packed = b"".join(map(_varint, values))
    listed = b"\x0a" + _varint(len(packed)) + packed if values else b""
    return [b"\x1a" + _varint(len(listed)) + listed]


def spec_text(planes: list[str], counts: dict, **extra) -> str:
    """The text of ``features.json``."""
    spec = {"schema_version": SCHEMA_VERSION, "window": WINDOW, "planes": list(planes),
            "F": len(planes), "counts": counts, **extra}
    return json.dumps(spec, indent=2, sort_keys=True) + "\n"


def write_spec(data_dir: str, planes: list[str], counts: dict, **extra) -> str:
    """Write ``features.json``; returns its path."""
    import tensorflow as tf  # its file API reads and writes buckets as well as local folders

    path = os.path.join(data_dir, SPEC_FILE)
    with tf.io.gfile.GFile(path, "w") as f:
        f.write(spec_text(planes, counts, **extra))
    return path


def plane_indices(available: list[str], wanted: list[str]) -> list[int]:
    """Where each of the ``wanted`` planes sits among the ``available`` ones, in wanted order.

    A network may be trained on a subset of the records' planes (to measure
    what a group of planes is worth); it names its planes, and every reader
    picks them out of the full windows by name with these indices.
    """
    missing = [name for name in wanted if name not in available]
    if missing:
        raise ValueError(f"planes {missing} are missing from the {len(available)} planes at hand: "
                         f"{', '.join(available)}")
    return [available.index(name) for name in wanted]


def record_description() -> dict:
    """How to parse a record written by :func:`example_bytes` (``tf.io.parse_example``)."""
    import tensorflow as tf

    return {
        "planes": tf.io.FixedLenFeature([], tf.string),
        "windows": tf.io.FixedLenFeature([], tf.int64),
        "planes_count": tf.io.FixedLenFeature([], tf.int64),
        "safe": tf.io.FixedLenFeature([], tf.int64),
        "move": tf.io.VarLenFeature(tf.int64),
        "available_moves": tf.io.FixedLenFeature([], tf.int64),
        "defender_first": tf.io.FixedLenFeature([], tf.int64),
        "problem": tf.io.FixedLenFeature([], tf.string),
        "subproblem": tf.io.FixedLenFeature([], tf.string),
        # left out of records without an end state (and of every record of schema 1)
        "end_state": tf.io.FixedLenFeature([], tf.string, default_value=""),
    }


def count_problems(data_dir: str, splits: tuple[str, ...] | None = None) -> dict[str, int]:
    """Records per problem id, over every shard of ``data_dir`` (of ``splits``; default train and test)."""
    import tensorflow as tf

    files = sorted(f for split in splits or SPLITS for f in tf.io.gfile.glob(shard_pattern(data_dir, split)))
    if not files:
        raise FileNotFoundError(f"no shards in {data_dir}")
    field = {"problem": record_description()["problem"]}
    ds = tf.data.TFRecordDataset(files, compression_type="ZLIB").batch(4096).map(
        lambda s: tf.io.parse_example(s, field)["problem"], num_parallel_calls=tf.data.AUTOTUNE)
    counts: dict[str, int] = {}
    for batch in ds.as_numpy_iterator():
        ids, times = np.unique(batch, return_counts=True)
        for problem, count in zip(ids, times):
            key = problem.decode()
            counts[key] = counts.get(key, 0) + int(count)
    return dict(sorted(counts.items()))


def read_spec(data_dir: str) -> dict:
    """Read ``features.json`` and check its schema version (any of ``READABLE_SCHEMA_VERSIONS``)."""
    import tensorflow as tf

    path = os.path.join(data_dir, SPEC_FILE)
    if not tf.io.gfile.exists(path):
        raise FileNotFoundError(f"{path}: no such file (run tsumego features first)")
    with tf.io.gfile.GFile(path) as f:
        spec = json.loads(f.read())
    if spec.get("schema_version") not in READABLE_SCHEMA_VERSIONS:
        raise ValueError(f"{path}: schema version {spec.get('schema_version')}, "
                         f"this code reads {', '.join(map(str, READABLE_SCHEMA_VERSIONS))}")
    if spec["F"] != len(spec["planes"]):
        raise ValueError(f"{path}: F={spec['F']} but {len(spec['planes'])} plane names")
    return spec
