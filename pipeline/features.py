"""``tsumego features``: subproblem SGFs to sharded ZLIB TFRecords, as a Beam pipeline.

``tsumego features --subproblems DIR --out DIR [--split problem|random]
[--test-fraction 0.1] [--seed 0] [--train-shards 8] [--test-shards 1]
[--no-progress] [BEAM_OPTION...]`` reads every ``*.sgf`` of ``--subproblems``, computes
each one's 11×11 windows (``pipeline.planes.windows``) and writes to ``--out``:

- ``train-SSSSS-of-NNNNN.tfrecord.gz`` and ``test-...``: one
  ``tf.train.Example`` per subproblem (schema in ``pipeline.formats.records``);
- ``features.json``: plane names, N, F, schema version, the split settings
  and the counts (read = train + test + rejected);
- ``dead-letter.jsonl``: one ``{"file", "reason"}`` per rejected file.

The split is by a hash of the source problem id (``GN``) by default, so no
test position shares a solve-all tree with a training position; ``--split
random`` hashes each subproblem's own name instead, the seed's setup.

The same input gives byte-identical output: each record's shard and, within
it, its bucket are hashes of its name; a bucket's records are grouped, sorted
by name and written to a part file; a shard is its parts joined in bucket
order, and all shards exist even when empty.  (Beam's ``WriteToTFRecord``
deals records to shards round-robin from a random start and keeps no order
inside a shard, so it cannot promise that.)  Buckets keep every group small:
grouping a whole shard at once (hundreds of MB a key) lost records in Beam's
multi-processing runner.  The shards are counted as they are joined and the
run fails, saying so, if they hold other than the records made.  Shards are
written through TensorFlow's ZLIB ``TFRecordWriter``, which is what
``TFRecordDataset(..., compression_type="ZLIB")`` reads.

Options the stage does not know go to Beam, with or without a ``--`` before
them (``--runner DataflowRunner --project P --temp_location gs://...``); the
DirectRunner is the default.

``tsumego features --show FILE.sgf`` prints the planes of one subproblem.
"""
from __future__ import annotations

import hashlib
import json
import os
import struct
import sys
import zlib
from dataclasses import dataclass
from pathlib import PurePath

from pipeline.beam.options import pass_unknown_options_to_beam
from pipeline.formats.records import SPLITS

DEAD_LETTER_FILE = "dead-letter.jsonl"
COUNTER_NAMESPACE = "features"
# Records of a shard are grouped in this many buckets (a few MB each at a million records).
BUCKETS = 64
PART_MARK = ".part-"


@dataclass(frozen=True)
class SplitSettings:
    by: str = "problem"            # "problem" or "random"
    test_fraction: float = 0.1
    seed: int = 0
    train_shards: int = 8
    test_shards: int = 1

    def shards(self, split: str) -> int:
        return self.train_shards if split == "train" else self.test_shards


def _unit_hash(text: str) -> float:
    """A stable number in [0, 1) for a string (the same on every machine and run)."""
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big") / 2.0 ** 64


def split_of(problem: str, name: str, settings: SplitSettings) -> str:
    key = problem if settings.by == "problem" else name
    return "test" if _unit_hash(f"{settings.seed}/{key}") < settings.test_fraction else "train"


def shard_of(name: str, shards: int) -> int:
    return int(_unit_hash(f"shard/{name}") * shards)


def bucket_of(name: str) -> int:
    return int(_unit_hash(f"bucket/{name}") * BUCKETS)


def shard_path(out: str, split: str, shard: int, shards: int) -> str:
    return os.path.join(out, f"{split}-{shard:05d}-of-{shards:05d}.tfrecord.gz")


def part_path(out: str, split: str, shard: int, shards: int, bucket: int) -> str:
    """A bucket's records before they join their shard: zlib-compressed examples, each after its uint32 length."""
    return f"{shard_path(out, split, shard, shards)}{PART_MARK}{bucket:05d}"


class RejectedSubproblem(ValueError):
    """A subproblem file that cannot become a record, with the reason."""


def record_of(path: str, data: bytes, settings: SplitSettings) -> tuple[str, int, str, bytes]:
    """``(split, shard, name, serialised example)`` for one subproblem file.

    Raises :class:`RejectedSubproblem` (or ``ProblemError``) naming the reason.
    """
    from pipeline.formats.records import example_bytes
    from pipeline.formats.subproblem import parse_subproblem
    from pipeline.planes.windows import subproblem_windows

    sub = parse_subproblem(data, path)
    if sub.safe is None:
        raise RejectedSubproblem("no TS[] label: whether the target is safe is not given")
    if sub.available_moves is None:
        raise RejectedSubproblem("no AS[] label: the number of available moves is not given")
    windows, moves = subproblem_windows(sub)
    name = PurePath(path).name
    problem = sub.source or name
    split = split_of(problem, name, settings)
    shard = shard_of(name, settings.shards(split))
    return split, shard, name, example_bytes(
        windows, safe=int(sub.safe), moves=moves, available_moves=sub.available_moves,
        defender_first=int(sub.defender_first), problem=problem, subproblem=name)


def _reason(exc: Exception) -> str:
    return getattr(exc, "reason", None) or str(exc)


def build_pipeline(pipeline, subproblems: str, out: str, settings: SplitSettings,
                   tally_folder: str | None = None) -> None:
    """Add the stage to a Beam pipeline: SGF files in, shards and dead letters out.

    With ``tally_folder`` (a local folder) each worker keeps there the count of
    files it has read, for a progress bar (``pipeline.progress.WorkerTally``).
    """
    import apache_beam as beam
    from apache_beam.io import fileio
    from apache_beam.metrics import Metrics

    class ToRecord(beam.DoFn):
        def __init__(self):
            self.read = Metrics.counter(COUNTER_NAMESPACE, "read")
            self.rejected = Metrics.counter(COUNTER_NAMESPACE, "rejected")
            self.written = {split: Metrics.counter(COUNTER_NAMESPACE, f"written_{split}") for split in SPLITS}
            self.tally = None

        def setup(self):
            if tally_folder is not None:
                from pipeline.progress import WorkerTally

                self.tally = WorkerTally(tally_folder)

        def finish_bundle(self):
            if self.tally is not None:
                self.tally.flush()

        def process(self, readable):
            path = readable.metadata.path
            self.read.inc()
            if self.tally is not None:
                self.tally.add()
            try:
                split, shard, name, example = record_of(path, readable.read(), settings)
            except (ValueError, OSError) as exc:   # ProblemError and RejectedSubproblem are ValueErrors
                self.rejected.inc()
                yield beam.pvalue.TaggedOutput("dead", json.dumps({"file": path, "reason": _reason(exc)},
                                                                  sort_keys=True))
                return
            self.written[split].inc()
            # Windows are mostly zeros: compressed, a record is ~35 times
            # smaller while the shuffle into shards holds it.
            yield (split, shard, bucket_of(name)), (name, zlib.compress(example, 1))

    def write_part(keyed):
        """One bucket's records, sorted by name, into its part file; returns (shard key, (bucket, count))."""
        from apache_beam.io.filesystems import FileSystems

        (split, shard, bucket), records = keyed
        records = sorted(records)
        with FileSystems.create(part_path(out, split, shard, settings.shards(split), bucket)) as f:
            for _, compressed in records:
                f.write(struct.pack("<I", len(compressed)) + compressed)
        return (split, shard), (bucket, len(records))

    class JoinParts(beam.DoFn):
        """A shard from its parts in bucket order; counts what it writes."""

        def __init__(self):
            self.in_shards = {split: Metrics.counter(COUNTER_NAMESPACE, f"in_shards_{split}")
                              for split in SPLITS}

        def process(self, keyed):
            import tensorflow as tf
            from apache_beam.io.filesystems import FileSystems

            (split, shard), parts = keyed
            shards = settings.shards(split)
            options = tf.io.TFRecordOptions(compression_type="ZLIB")
            with tf.io.TFRecordWriter(shard_path(out, split, shard, shards), options) as writer:
                for bucket, count in sorted(part for part in parts if part is not None):
                    with FileSystems.open(part_path(out, split, shard, shards, bucket)) as f:
                        data = f.read()
                    offset = 0
                    for _ in range(count):
                        (length,) = struct.unpack_from("<I", data, offset)
                        writer.write(zlib.decompress(data[offset + 4:offset + 4 + length]))
                        offset += 4 + length
                    if offset != len(data):
                        raise RuntimeError(f"part file of {split} shard {shard}, bucket {bucket}: "
                                           f"{len(data) - offset} bytes after its {count} records")
                    self.in_shards[split].inc(count)

    def write_dead_letters(lines):
        from apache_beam.io.filesystems import FileSystems

        with FileSystems.create(os.path.join(out, DEAD_LETTER_FILE)) as f:
            f.write("".join(line + "\n" for line in sorted(lines)).encode())

    results = (pipeline
               | "Match" >> fileio.MatchFiles(os.path.join(subproblems, "*.sgf"))
               # The matches come out of one glob in one bundle: spread them over the workers.
               | "Spread" >> beam.Reshuffle()
               | "Read" >> fileio.ReadMatches()
               | "Windows" >> beam.ParDo(ToRecord()).with_outputs("dead", main="records"))
    every_shard = [((split, shard), None) for split in SPLITS for shard in range(settings.shards(split))]
    parts = (results.records
             | "ByBucket" >> beam.GroupByKey()
             | "WriteParts" >> beam.Map(write_part))
    ((parts, pipeline | "EveryShard" >> beam.Create(every_shard))
     | "Flatten" >> beam.Flatten()
     | "ByShard" >> beam.GroupByKey()
     | "JoinParts" >> beam.ParDo(JoinParts()))
    (results.dead
     | "AllDead" >> beam.combiners.ToList()
     | "WriteDeadLetters" >> beam.Map(write_dead_letters))


def _counts(result) -> dict:
    from apache_beam.metrics.metric import MetricsFilter

    counts = {"read": 0, "written_train": 0, "written_test": 0, "rejected": 0,
              "in_shards_train": 0, "in_shards_test": 0}
    query = result.metrics().query(MetricsFilter().with_namespace(COUNTER_NAMESPACE))
    for counter in query["counters"]:
        counts[counter.key.metric.name] += counter.committed
    return counts


class LostRecords(RuntimeError):
    """The shards do not hold the records the stage made."""


def _delete_matching(out: str, pattern: str) -> None:
    from apache_beam.io.filesystems import FileSystems

    matched = FileSystems.match([os.path.join(out, pattern)])[0].metadata_list
    if matched:
        FileSystems.delete([m.path for m in matched])


def _clear_old_shards(out: str) -> None:
    """Shards and parts of an earlier run (maybe with other shard counts) would mix with this one's."""
    from pipeline.formats.records import SPEC_FILE

    _delete_matching(out, SPEC_FILE)
    for split in SPLITS:
        _delete_matching(out, f"{split}-*.tfrecord.gz")
        _delete_matching(out, f"{split}-*.tfrecord.gz{PART_MARK}*")


def _count_sgf_files(folder: str) -> int:
    return sum(1 for entry in os.scandir(folder) if entry.name.endswith(".sgf") and entry.is_file())


def run_features(subproblems: str, out: str, settings: SplitSettings, beam_options=(),
                 progress: bool = False) -> dict:
    """Run the stage and write ``features.json``; returns the counts.

    ``progress`` draws a bar of the files read when the run is local (a
    Direct runner, local folders); the shards are written after the last.
    """
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
    import contextlib
    import shutil
    import tempfile

    import apache_beam as beam
    from apache_beam.options.pipeline_options import PipelineOptions, StandardOptions

    from pipeline.planes import plane_names
    from pipeline.formats.records import write_spec

    if "://" not in out:
        os.makedirs(out, exist_ok=True)
    _clear_old_shards(out)
    options = PipelineOptions(list(beam_options))
    local = (options.view_as(StandardOptions).runner in (None, "DirectRunner", "direct")
             and "://" not in subproblems)
    tally_folder = tempfile.mkdtemp(prefix="features-tally-") if progress and local else None
    pipeline = beam.Pipeline(options=options)
    build_pipeline(pipeline, subproblems, out, settings, tally_folder)
    bar = contextlib.nullcontext()
    if tally_folder is not None:
        from pipeline.progress import PolledBar, tally_of

        bar = PolledBar(lambda: tally_of(tally_folder), _count_sgf_files(subproblems),
                        desc="features: files read", unit="file")
    try:
        with bar:
            result = pipeline.run()
            result.wait_until_finish()
    finally:
        if tally_folder is not None:
            shutil.rmtree(tally_folder, ignore_errors=True)
    for split in SPLITS:
        _delete_matching(out, f"{split}-*.tfrecord.gz{PART_MARK}*")
    counts = _counts(result)
    for split in SPLITS:
        made, kept = counts[f"written_{split}"], counts.pop(f"in_shards_{split}")
        if made != kept:
            raise LostRecords(f"{out}: {made} {split} records were made but the shards hold {kept}")
    write_spec(out, plane_names(), counts, split=settings.by, test_fraction=settings.test_fraction,
               seed=settings.seed, shards={"train": settings.train_shards, "test": settings.test_shards},
               source=os.path.basename(os.path.normpath(subproblems)))
    return counts


def read_dead_letters(out: str) -> list[dict]:
    from apache_beam.io.filesystems import FileSystems

    with FileSystems.open(os.path.join(out, DEAD_LETTER_FILE)) as f:
        return [json.loads(line) for line in f.read().decode().splitlines()]


def _show(path: str) -> int:
    from pipeline.planes.text import planes_text
    from pipeline.formats.subproblem import ProblemError, load_subproblem

    try:
        sub = load_subproblem(path)
    except ProblemError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    print(f"{path}: " + planes_text(sub))
    return 0


def cmd_features(args) -> int:
    if args.show:
        return _show(args.show)
    if not args.subproblems or not args.out:
        print("error: features needs --subproblems DIR and --out DIR (or --show FILE.sgf)", file=sys.stderr)
        return 2
    if "://" not in args.subproblems and not os.path.isdir(args.subproblems):
        print(f"error: {args.subproblems}: not a folder of subproblem SGF files", file=sys.stderr)
        return 1
    if not 0 <= args.test_fraction <= 1 or args.train_shards < 1 or args.test_shards < 1:
        print("error: need 0 <= --test-fraction <= 1 and at least one shard per split", file=sys.stderr)
        return 2
    settings = SplitSettings(by=args.split, test_fraction=args.test_fraction, seed=args.seed,
                             train_shards=args.train_shards, test_shards=args.test_shards)
    try:
        counts = run_features(args.subproblems, args.out, settings, args.beam_options,
                              progress=not args.no_progress)
    except LostRecords as exc:
        print(f"error: {exc}; the run wrote no features.json", file=sys.stderr)
        return 1
    for dead in read_dead_letters(args.out):
        print(f"error: {dead['file']}: {dead['reason']}", file=sys.stderr)
    print(f"features: read {counts['read']}, written {counts['written_train']} train + "
          f"{counts['written_test']} test, rejected {counts['rejected']} -> {args.out}")
    if counts["read"] == 0:
        print(f"error: {args.subproblems}: no *.sgf files", file=sys.stderr)
        return 1
    if counts["rejected"] == counts["read"]:
        print(f"error: {args.subproblems}: every file was rejected", file=sys.stderr)
        return 1
    return 0


def register(commands) -> None:
    parser = commands.add_parser(
        "features", help="subproblem SGFs to 11x11xF feature windows in sharded ZLIB TFRecords (Beam)",
        description="Options it does not know, and words after '--', go to Beam "
                    "(e.g. --direct_num_workers 2 --direct_running_mode multi_processing).")
    pass_unknown_options_to_beam(parser)
    parser.add_argument("--subproblems", metavar="DIR", help="folder of subproblem SGF files")
    parser.add_argument("--out", metavar="DIR",
                        help="folder for the shards, features.json and dead-letter.jsonl "
                             "(earlier shards there are replaced)")
    parser.add_argument("--split", choices=("problem", "random"), default="problem",
                        help="hash the source problem id (default) or each subproblem (the seed's split)")
    parser.add_argument("--test-fraction", type=float, default=0.1)
    parser.add_argument("--seed", type=int, default=0, help="varies which problems or subproblems are test")
    parser.add_argument("--train-shards", type=int, default=8)
    parser.add_argument("--test-shards", type=int, default=1)
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")
    parser.add_argument("--show", metavar="FILE.sgf", help="print every plane of one subproblem and exit")
    parser.set_defaults(run=cmd_features)
