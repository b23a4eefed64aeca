"""tf.data input: records of ``pipeline.formats.records`` to training batches.

Each record holds one 11×11×F window per stone of the target block.  For
training, every time a record is read one window is picked at random and one
of the 8 symmetries of the square applied to it (and to its move target), as
the original dcnn-eval network's trainer did; for evaluation the first window is taken as it is.
Randomness comes from ``tf.data.Dataset.random(seed)`` and stateless ops, so a
seed gives the same batches on every run.

For a network with the end-state head (``end_state=True``) the window's
end-state grid is cut and turned with its planes; a point weighs 1 in the
end-state loss where the record has an end state and the point is on the
board, else 0 (records of schema 1, and of subproblems without ``EB``/``EW``,
have none).

Training may read the records of further feature folders beside its own
(``extra``: say those of generated problems, ``tsumego generate``), mixed in
at random in proportion to their counts so every part of an epoch sees both;
they weigh 1 each and never reach the evaluation.

Records are parsed a batch at a time and only the chosen window is cut out of
each record's plane bytes; the symmetry is a gather over a table of the 8
permutations of the window's points.  Reading record by record, the input
took most of a training step's time on two cores (measured: RESULTS.md,
"Dense network on the reference problems").
"""
from __future__ import annotations

import tensorflow as tf

from pipeline.formats.records import (END_EMPTY, END_OFF_BOARD, MOVES, SPLITS, WINDOW, plane_indices, read_spec,
                                      record_description, shard_pattern)
from pipeline.symmetries import INVERSE_SYMMETRIES, SYMMETRIES


def parse_example(serialized, num_planes: int, keep=None) -> dict:
    """One serialised example to tensors; ``planes`` is uint8 ``[S, 11, 11, F]``, ``end_state``
    uint8 ``[S, 11, 11]`` (``[0, 11, 11]`` when the record has none).

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
    record["end_state"] = tf.reshape(tf.io.decode_raw(record["end_state"], tf.uint8), [-1, WINDOW, WINDOW])
    return record


def _parse_batch(serialized, num_planes: int, keep, seed=None):
    """A batch of serialised records to ``(windows, moves, end_states, records)``.

    One window of each record is cut straight out of its plane bytes: the first
    one, or with ``seed`` one picked at random and turned by one of the 8
    symmetries (its move index and end-state grid follow), so no record is
    decoded whole.  ``end_states`` is uint8 ``[B, 121]``, ``END_OFF_BOARD``
    everywhere for a record without an end state.
    """
    records = tf.io.parse_example(serialized, record_description())
    check = tf.debugging.assert_equal(records["planes_count"], tf.constant(num_planes, tf.int64),
                                      message="a record's planes_count differs from features.json's F")
    window_bytes = MOVES * num_planes
    count = tf.shape(serialized)[0]
    moves = tf.sparse.to_dense(records["move"], default_value=-1)
    if seed is None:
        pick = tf.zeros([count], tf.int32)
    else:
        windows = tf.cast(records["windows"], tf.float32)
        pick = tf.cast(tf.random.stateless_uniform([count], seed) * windows, tf.int32)
    with tf.control_dependencies([check]):
        cut = tf.strings.substr(records["planes"], pick * window_bytes, tf.fill([count], window_bytes))
        raw = tf.io.decode_raw(cut, tf.uint8)
    planes = tf.reshape(raw, [count, MOVES, num_planes])
    if keep is not None:
        planes = tf.gather(planes, keep, axis=-1)
    move = tf.gather(moves, pick, batch_dims=1)
    end_state = _cut_end_states(records["end_state"], pick)
    if seed is not None:
        symmetry = tf.random.stateless_uniform([count], seed + 1, maxval=8, dtype=tf.int32)
        planes, move = apply_symmetries(planes, move, symmetry)
        end_state = turn_points(end_state, symmetry)
    windows = tf.reshape(tf.cast(planes, tf.float32), [count, WINDOW, WINDOW, -1])
    return windows, move, end_state, records


def _cut_end_states(end_states, pick):
    """uint8 ``[B, 121]``: the end-state grid of window ``pick[b]`` of each record; a record
    without one (empty bytes) gets a grid of ``END_OFF_BOARD``, which weighs nothing."""
    present = tf.strings.length(end_states) > 0
    nothing = tf.constant(bytes([END_OFF_BOARD]) * MOVES)
    source = tf.where(present, end_states, nothing)
    cut = tf.strings.substr(source, tf.where(present, pick * MOVES, 0), tf.fill(tf.shape(pick), MOVES))
    return tf.reshape(tf.io.decode_raw(cut, tf.uint8), [-1, MOVES])


def turn_points(grid, symmetry):
    """Turn each window ``grid[b]`` (``[B, 121, ...]``, points row-major) by ``symmetry[b]``."""
    return tf.gather(grid, tf.gather(SYMMETRIES, symmetry), batch_dims=1)


def apply_symmetries(planes, move, symmetry):
    """Turn each window ``planes[b]`` (``[B, 121, F]``) by ``symmetry[b]`` (0..7: quarter turns
    ``s // 2``, then a transpose if ``s`` is odd); its move index (or -1) follows."""
    planes = turn_points(planes, symmetry)
    moved = tf.gather(tf.gather(INVERSE_SYMMETRIES, symmetry), tf.maximum(move, 0), batch_dims=1)
    return planes, tf.where(move >= 0, tf.cast(moved, move.dtype), move)


def _outputs(window, move, end_state, records, with_end_state: bool = False):
    targets = {"safe": tf.cast(tf.reshape(records["safe"], [-1, 1]), tf.float32),
               "move": tf.cast(tf.maximum(move, 0), tf.int32)}
    weights = {"safe": tf.ones_like(targets["safe"][:, 0]), "move": tf.cast(move >= 0, tf.float32)}
    if with_end_state:
        on_board = end_state != END_OFF_BOARD
        targets["end_state"] = tf.cast(tf.where(on_board, end_state, END_EMPTY), tf.int32)
        weights["end_state"] = tf.cast(on_board, tf.float32)
    return window, targets, weights


def _shard_files(data_dir: str, split: str | tuple[str, ...]):
    """``(spec, files)`` of one split, or of several pooled; FileNotFoundError when one has no shard."""
    spec = read_spec(data_dir)
    files = []
    for name in (split,) if isinstance(split, str) else split:
        found = tf.io.gfile.glob(shard_pattern(data_dir, name))
        if not found:
            raise FileNotFoundError(f"no {name} shards in {data_dir}")
        files += sorted(found)
    return spec, files


def _problem_table(problems: dict[str, float]):
    """A lookup from problem id to its weight; -1 for a problem not in ``problems``."""
    return tf.lookup.StaticHashTable(
        tf.lookup.KeyValueTensorInitializer(tf.constant(list(problems), tf.string),
                                            tf.constant(list(problems.values()), tf.float32)),
        default_value=-1.0)


def _only_problems(ds: tf.data.Dataset, table) -> tf.data.Dataset:
    """Serialised records whose ``problem`` is in ``table``; only that field is parsed."""
    def chosen(serialized):
        problem = tf.io.parse_example(serialized, {"problem": record_description()["problem"]})["problem"]
        return tf.boolean_mask(serialized, table.lookup(problem) > 0)

    return ds.batch(1024).map(chosen, num_parallel_calls=tf.data.AUTOTUNE, deterministic=True).unbatch()


def _mixed_with(own: tf.data.Dataset, own_records: int, extra: list, seed: int) -> tf.data.Dataset:
    """Serialised records of ``own`` and of the ``extra`` folders, each drawn at random with the
    probability of its share of the records, so both run out near the end of the epoch."""
    sources = [own] + [tf.data.TFRecordDataset(files, compression_type="ZLIB") for _, files, _ in extra]
    counts = [own_records] + [count for _, _, count in extra]
    total = sum(counts)
    return tf.data.Dataset.sample_from_datasets(sources, weights=[count / total for count in counts],
                                                seed=seed, stop_on_empty_dataset=False)


def _kept_planes(spec: dict, planes: list[str] | None):
    return None if planes is None or planes == spec["planes"] else plane_indices(spec["planes"], planes)


def _records(data_dir: str, split, planes: list[str] | None, problems: dict[str, float] | None = None):
    """The parsed records of ``split`` (one or several; only ``problems``' when given), in file
    order (``parse_example``)."""
    spec, files = _shard_files(data_dir, split)
    num_planes, keep = spec["F"], _kept_planes(spec, planes)
    ds = tf.data.TFRecordDataset(files, compression_type="ZLIB")
    if problems is not None:
        ds = _only_problems(ds, _problem_table(problems))
    return ds.map(lambda s: parse_example(s, num_planes, keep), num_parallel_calls=tf.data.AUTOTUNE,
                  deterministic=True)


def whole_records(data_dir: str, split: str | tuple[str, ...], planes: list[str] | None = None,
                  problems: dict[str, float] | None = None):
    """Every record of ``split`` (or of those of ``problems``) with all its windows, as numpy
    dicts, in file order (for reports)."""
    return _records(data_dir, split, planes, problems).prefetch(tf.data.AUTOTUNE).as_numpy_iterator()


def end_state_records(data_dir: str, split: str | tuple[str, ...]) -> int:
    """How many records of ``split`` (one or several) carry an end state: one pass over them,
    parsing that key alone; none for a folder of schema 1, which is not read."""
    spec, files = _shard_files(data_dir, split)
    if spec.get("schema_version", 1) < 2:
        return 0
    description = {"end_state": record_description()["end_state"]}

    def present(serialized):
        found = tf.io.parse_example(serialized, description)["end_state"]
        return tf.reduce_sum(tf.cast(tf.strings.length(found) > 0, tf.int64))

    ds = tf.data.TFRecordDataset(files, compression_type="ZLIB", buffer_size=1 << 20).batch(1024)
    return int(ds.map(present, num_parallel_calls=tf.data.AUTOTUNE).reduce(tf.constant(0, tf.int64),
                                                                          lambda total, n: total + n))


def split_records(spec: dict, split: str | tuple[str, ...]) -> int:
    """How many records ``split`` (one or several) of a feature folder holds, from its features.json."""
    counts = spec.get("counts", {})
    try:
        return sum(int(counts[f"written_{name}"]) for name in ((split,) if isinstance(split, str) else split))
    except KeyError as exc:
        raise ValueError(f"features.json does not count the {exc.args[0][len('written_'):]} records") from None


def extra_records(data_dir: str, extra: tuple[str, ...],
                  splits: tuple[str, ...] = SPLITS) -> list[tuple[str, list[str], int]]:
    """``(folder, shard files, record count)`` of every folder of ``extra``, of ``splits``
    (default both; ``("train",)`` keeps a folder's test problems out of training).

    ValueError naming the folder when it cannot be read or its records hold
    other planes than ``data_dir``'s (their windows would be misread).
    """
    planes = read_spec(data_dir)["planes"]
    found = []
    for folder in extra:
        try:
            spec, files = _shard_files(folder, splits)
            count = split_records(spec, splits)
        except (OSError, ValueError, KeyError) as exc:
            raise ValueError(f"--extra-train {folder}: {exc}") from None
        if spec["planes"] != planes:
            raise ValueError(f"--extra-train {folder}: its records hold other planes than {data_dir}'s "
                             "(write both with the same tsumego features)")
        found.append((folder, files, count))
    return found


def make_dataset(data_dir: str, split: str | tuple[str, ...], batch_size: int = 256, *,
                 augment: bool = True, shuffle: bool = True, seed: int = 0, meta: bool = False,
                 planes: list[str] | None = None,
                 problems: dict[str, float] | None = None,
                 extra: tuple[str, ...] = (), own_records: int | None = None,
                 end_state: bool = False, extra_splits: tuple[str, ...] = SPLITS) -> tf.data.Dataset:
    """Batches ``(x, targets, weights)`` for Keras, or ``(x, targets, meta)``.

    ``x`` is float32 ``[B, 11, 11, F]``, F being every plane of the records
    or, when ``planes`` names some of them, those in that order; ``targets`` has ``safe`` (float32
    ``[B, 1]``) and ``move`` (int32 ``[B]``, a window index); ``weights``
    masks the move loss where the subproblem has no ``TR`` inside the window.
    With ``end_state``, ``targets`` also has ``end_state`` (int32 ``[B, 121]``,
    the window's end-state classes) and ``weights`` its per-point mask.
    With ``meta=True`` the third element instead holds ``available_moves``,
    ``defender_first``, ``problem``, ``subproblem``, ``has_move`` and
    ``has_end_state``, for reports.

    ``split`` may name several splits, whose records are pooled.  With
    ``problems`` (problem id → weight > 0), only the records of those
    problems are read, and both losses of a record are weighted by its
    problem's weight (``model.folds``).

    ``extra`` names further feature folders (same planes) whose records, of
    ``extra_splits`` (default both), join these with weight 1 (a folder named
    twice is drawn twice an epoch); mixing them in proportion needs
    ``own_records``, how many records ``split`` (of ``problems``) holds,
    which defaults to the count in features.json when ``problems`` is None.
    """
    spec, files = _shard_files(data_dir, split)
    num_planes, keep = spec["F"], _kept_planes(spec, planes)
    ds = tf.data.TFRecordDataset(files, compression_type="ZLIB")
    table = None if problems is None else _problem_table(problems)
    if table is not None:
        ds = _only_problems(ds, table)
    if extra:
        if own_records is None:
            if problems is not None:
                raise ValueError("extra records with chosen problems need own_records")
            own_records = split_records(spec, split)
        ds = _mixed_with(ds, own_records, extra_records(data_dir, tuple(extra), extra_splits), seed)
    if shuffle:
        ds = ds.shuffle(50_000, seed=seed, reshuffle_each_iteration=True)
    ds = ds.batch(batch_size)
    if augment:
        seeds = tf.data.Dataset.random(seed=seed).batch(2)
        ds = tf.data.Dataset.zip((ds, seeds)).map(
            lambda s, r: _parse_batch(s, num_planes, keep, tf.cast(r, tf.int32)),
            num_parallel_calls=tf.data.AUTOTUNE, deterministic=True)
    else:
        ds = ds.map(lambda s: _parse_batch(s, num_planes, keep),
                    num_parallel_calls=tf.data.AUTOTUNE, deterministic=True)
    if meta:
        ds = ds.map(lambda w, m, e, r: (w, _outputs(w, m, e, r, end_state)[1], {
            "available_moves": r["available_moves"], "defender_first": r["defender_first"],
            "problem": r["problem"], "subproblem": r["subproblem"],
            "has_move": m >= 0, "has_end_state": tf.strings.length(r["end_state"]) > 0}))
    elif table is None:
        ds = ds.map(lambda w, m, e, r: _outputs(w, m, e, r, end_state))
    else:
        def weighted_outputs(window, move, end_states, records):
            window, targets, weights = _outputs(window, move, end_states, records, end_state)
            weight = table.lookup(records["problem"])
            # Only the extra folders' records get this far without a weight in the table.
            weight = tf.where(weight > 0, weight, 1.0)
            # (the end state's weights are a row of points a record)
            return window, targets, {name: value * (weight[:, None] if name == "end_state" else weight)
                                     for name, value in weights.items()}

        ds = ds.map(weighted_outputs)
    return ds.prefetch(tf.data.AUTOTUNE)
