"""tf.data input: records of ``pipeline.records`` to training batches.

Each record holds one 11×11×F window per stone of the target block.  For
training, every time a record is read one window is picked at random and one
of the 8 symmetries of the square applied to it (and to its move target), as
the seed's trainer did; for evaluation the first window is taken as it is.
Randomness comes from ``tf.data.Dataset.random(seed)`` and stateless ops, so a
seed gives the same batches on every run.
"""
from __future__ import annotations

import tensorflow as tf

from pipeline.records import MOVES, WINDOW, plane_indices, read_spec, shard_pattern


def record_description() -> dict:
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
    }


def parse_example(serialized, num_planes: int, keep=None) -> dict:
    """One serialised example to tensors; ``planes`` is uint8 ``[S, 11, 11, F]``.

    ``keep``, when given, lists the indices of the planes to keep, in order.
    """
    record = tf.io.parse_single_example(serialized, record_description())
    # A record written with other planes could reshape without error into wrong windows.
    check = tf.debugging.assert_equal(record["planes_count"], tf.constant(num_planes, tf.int64),
                                      message="a record's planes_count differs from features.json's F")
    with tf.control_dependencies([check]):
        raw = tf.io.decode_raw(record["planes"], tf.uint8)
    planes = tf.reshape(raw, [-1, WINDOW, WINDOW, num_planes])
    record["planes"] = planes if keep is None else tf.gather(planes, keep, axis=-1)
    record["move"] = tf.sparse.to_dense(record["move"], default_value=-1)
    return record


def symmetry(window, move, k, flip):
    """Apply rotation by ``k`` quarter turns, then an optional transpose.

    ``move`` is an index in the window or -1; it is carried through as a
    one-hot plane so it follows exactly the same transform as the features.
    """
    has_move = move >= 0
    target = tf.reshape(tf.one_hot(tf.maximum(move, 0), MOVES) * tf.cast(has_move, tf.float32),
                        [WINDOW, WINDOW, 1])
    stack = tf.concat([tf.cast(window, tf.float32), target], axis=-1)
    stack = tf.image.rot90(stack, k)
    stack = tf.cond(flip, lambda: tf.transpose(stack, [1, 0, 2]), lambda: stack)
    new_move = tf.where(has_move, tf.cast(tf.argmax(tf.reshape(stack[..., -1], [-1])), tf.int64),
                        tf.constant(-1, tf.int64))
    return stack[..., :-1], new_move


def _training_view(record, seed):
    """Pick a window and a symmetry at random (stateless, from ``seed``)."""
    windows = tf.cast(record["windows"], tf.int32)
    pick = tf.random.stateless_uniform([], seed, maxval=windows, dtype=tf.int32)
    k = tf.random.stateless_uniform([], seed + 1, maxval=4, dtype=tf.int32)
    flip = tf.random.stateless_uniform([], seed + 2, maxval=2, dtype=tf.int32) > 0
    return symmetry(record["planes"][pick], record["move"][pick], k, flip)


def _evaluation_view(record):
    return tf.cast(record["planes"][0], tf.float32), record["move"][0]


def _outputs(window, move, record):
    x = window
    targets = {"safe": tf.cast(tf.reshape(record["safe"], [1]), tf.float32),
               "move": tf.cast(tf.maximum(move, 0), tf.int32)}
    weights = {"safe": tf.constant(1.0), "move": tf.cast(move >= 0, tf.float32)}
    return x, targets, weights


def _records(data_dir: str, split: str, planes: list[str] | None, shuffle_seed: int | None = None):
    """The parsed records of one split (``parse_example``), in file order unless shuffled."""
    spec = read_spec(data_dir)
    files = tf.io.gfile.glob(shard_pattern(data_dir, split))
    if not files:
        raise FileNotFoundError(f"no {split} shards in {data_dir}")
    num_planes = spec["F"]
    keep = None if planes is None or planes == spec["planes"] else plane_indices(spec["planes"], planes)
    ds = tf.data.TFRecordDataset(sorted(files), compression_type="ZLIB")
    if shuffle_seed is not None:
        ds = ds.shuffle(50_000, seed=shuffle_seed, reshuffle_each_iteration=True)
    return ds.map(lambda s: parse_example(s, num_planes, keep), num_parallel_calls=tf.data.AUTOTUNE,
                  deterministic=True)


def whole_records(data_dir: str, split: str, planes: list[str] | None = None):
    """Every record of ``split`` with all its windows, as numpy dicts, in file order (for reports)."""
    return _records(data_dir, split, planes).prefetch(tf.data.AUTOTUNE).as_numpy_iterator()


def make_dataset(data_dir: str, split: str, batch_size: int = 256, *, augment: bool = True,
                 shuffle: bool = True, seed: int = 0, meta: bool = False,
                 planes: list[str] | None = None) -> tf.data.Dataset:
    """Batches ``(x, targets, weights)`` for Keras, or ``(x, targets, meta)``.

    ``x`` is float32 ``[B, 11, 11, F]``, F being every plane of the records
    or, when ``planes`` names some of them, those in that order; ``targets`` has ``safe`` (float32
    ``[B, 1]``) and ``move`` (int32 ``[B]``, a window index); ``weights``
    masks the move loss where the subproblem has no ``TR`` inside the window.
    With ``meta=True`` the third element instead holds ``available_moves``,
    ``defender_first``, ``problem``, ``subproblem`` and ``has_move``, for
    reports.
    """
    ds = _records(data_dir, split, planes, shuffle_seed=seed if shuffle else None)
    if augment:
        seeds = tf.data.Dataset.random(seed=seed).batch(2)
        ds = tf.data.Dataset.zip((ds, seeds)).map(
            lambda r, s: (*_training_view(r, tf.cast(s, tf.int32)), r),
            num_parallel_calls=tf.data.AUTOTUNE, deterministic=True)
    else:
        ds = ds.map(lambda r: (*_evaluation_view(r), r))
    if meta:
        ds = ds.map(lambda w, m, r: (w, _outputs(w, m, r)[1], {
            "available_moves": r["available_moves"], "defender_first": r["defender_first"],
            "problem": r["problem"], "subproblem": r["subproblem"],
            "has_move": m >= 0}))
    else:
        ds = ds.map(_outputs)
    return ds.batch(batch_size).prefetch(tf.data.AUTOTUNE)
