"""Every shard of a feature folder read once before a run relies on it.

A ZLIB shard damaged on disk (cut short by a full disk or a copy stopped
halfway, a flipped bit) cannot be read past the damage, and TensorFlow's
``DataLossError`` names no file; met by ``tf.data`` it comes out wherever
the reading happens to be, in the middle of an epoch.  tf.data's
``ignore_errors`` would go on without the rest of that shard and without
saying how many records were lost.  The records are derived data that
``tsumego features`` writes again byte for byte, so a command that reads them
(train, crossval, quantize, report) first reads each shard it will use, in
a few threads, and stops with one line naming the first one that fails: a
shard that cannot be read to its end, one missing from its set (the names
say ``-of-N``), or a split holding another number of records than
``features.json`` counts.  It costs one pass over the records (measured:
RESULTS.md, "Corrupted record shards").
"""
from __future__ import annotations

import os
import re
from concurrent.futures import ThreadPoolExecutor

from pipeline.formats.records import SPEC_FILE, shard_pattern

SHARD_NAME = re.compile(r"(?P<split>[a-z]+)-(?P<index>\d+)-of-(?P<total>\d+)\.tfrecord\.gz$")


class UnreadableShard(ValueError):
    """A shard, or a split's set of shards, that cannot be read whole; the message names it."""


def _reason(exc) -> str:
    """TensorFlow's error message without its graph function's name and op."""
    text = re.sub(r"\{\{function_node [^}]*\}\}\s*", "", exc.message)
    return re.sub(r"\s*\[Op:[^\]]*\].*$", "", text, flags=re.S).strip()


def count_records(path: str) -> int:
    """The records of one ZLIB shard, read to its end; UnreadableShard naming it when it cannot be."""
    import numpy as np
    import tensorflow as tf

    try:
        records = tf.data.TFRecordDataset(path, compression_type="ZLIB", buffer_size=1 << 20)
        return int(records.reduce(np.int64(0), lambda count, _: count + 1))
    except tf.errors.OpError as exc:
        raise UnreadableShard(f"{path}: unreadable ({_reason(exc)}); write the records again "
                              "with tsumego features") from None


def _missing_shard(files: list[str]) -> str | None:
    """The first name absent from the ``-of-N`` set the shard names announce, or None."""
    names = [SHARD_NAME.search(os.path.basename(path)) for path in files]
    if not names or not all(names):
        return None
    first = names[0]
    present = {int(name["index"]) for name in names}
    for index in range(int(first["total"])):
        if index not in present:
            return os.path.join(os.path.dirname(files[0]),
                                f"{first['split']}-{index:05d}-of-{first['total']}.tfrecord.gz")
    return None


def check_shards(data_dir: str, splits: tuple[str, ...], spec: dict) -> dict[str, int]:
    """Read every shard of ``splits`` of ``data_dir`` once; the records of each split.

    ``spec`` is the folder's ``features.json``, whose counts the splits must
    hold.  UnreadableShard naming the shard (or the folder) at fault.
    """
    import tensorflow as tf

    from pipeline.progress import progress_bar

    files = {split: sorted(tf.io.gfile.glob(shard_pattern(data_dir, split))) for split in splits}
    for split, paths in files.items():
        missing = _missing_shard(paths)
        if missing:
            raise UnreadableShard(f"{missing}: missing from its set of {split} shards; write the "
                                  "records again with tsumego features")
    ordered = [path for split in splits for path in files[split]]

    def counted(path):
        try:
            return count_records(path)
        except UnreadableShard as exc:
            return exc

    with ThreadPoolExecutor(max(1, min(len(ordered), os.cpu_count() or 1))) as pool:
        results = dict(zip(ordered, progress_bar(pool.map(counted, ordered), total=len(ordered),
                                                 desc=f"checking {data_dir}", unit="shard", leave=False)))
    for path in ordered:   # the first failure in file order, whichever thread met it first
        if isinstance(results[path], UnreadableShard):
            raise results[path]
    counts = {}
    for split in splits:
        counts[split] = sum(results[path] for path in files[split])
        written = spec.get("counts", {}).get(f"written_{split}")
        if written is not None and int(written) != counts[split]:
            raise UnreadableShard(f"{data_dir}: its {split} shards hold {counts[split]} records where "
                                  f"{SPEC_FILE} counts {written}; write the records again with tsumego features")
    return counts
