"""The Beam pipeline of ``tsumego features``: subproblem SGF files in, sharded ZLIB TFRecords out.

This module imports Beam at the top; the command (:mod:`pipeline.features`)
imports it only when the stage runs, so that the ``tsumego`` command line
starts without Beam.  Its steps are classes and functions at module level,
where a test can build one and call it on real input.

The same input gives byte-identical output: a record's shard and bucket are
hashes of its name, and a shard holds its records in (bucket, name) order,
whichever worker made them (Beam's ``WriteToTFRecord`` promises neither).
Each record is deflated where it is made, as a piece of its shard's zlib
stream; the worker writes a chunk's records to a part file a shard
(:func:`write_chunk_parts`), and only the parts' names and counts travel, to
the worker that joins a shard (:class:`JoinParts`).  With
``--max-per-problem`` the records go through Beam's groupings (``ByProblem``,
``ByBucket``, :func:`write_part`).  The shards' writers' counts are gathered
into :data:`SHARD_COUNTS_FILE` (as the dead letters are), and the run fails,
saying so, unless shards, dead letters and records left out account for
every file read.  Why each choice, and what it cost before: docs/features.md,
"The stage".
"""
from __future__ import annotations

import hashlib
import json
import os
import shutil
import struct
import tempfile
from dataclasses import dataclass
from pathlib import PurePath

import apache_beam as beam
from apache_beam.io.filesystem import CompressionTypes
from apache_beam.io.filesystems import FileSystems
from apache_beam.metrics import Metrics

from pipeline.beam import running, storage
from pipeline.beam.collector import set_aside_imports
from pipeline.formats.records import SPEC_FILE, SPLITS, example_bytes, spec_text
from pipeline.formats.subproblem import parse_subproblem
from pipeline.formats.tfrecord import ZlibPieceWriter, deflated_piece
from pipeline.planes import plane_names
from pipeline.planes.windows import labelled_windows
from pipeline.progress import PolledBar, WorkerTally, tally_of
from solver.problem import reason_of

DEAD_LETTER_FILE = "dead-letter.jsonl"
LEFT_OUT_FILE = "left-out.jsonl"     # records a --max-per-problem cap or --exclude-problems left out
# Each shard's records and bytes, as its writer counted them; removed at the end of a run.
SHARD_COUNTS_FILE = "shard-counts.jsonl"
# The stage's Beam counters, for a runner's monitoring while a run goes; the
# counts of features.json are taken from the files written (counts_on_disk).
COUNTER_NAMESPACE = "features"
# Records of a shard are grouped in this many buckets (a few MB each at a million records).
BUCKETS = 64
PART_MARK = ".part-"
# Subproblem files one Beam element names: a file each cost more in Beam's bookkeeping
# than reading it; a few hundred still spread over the workers.
CHUNK = 256


@dataclass(frozen=True)
class SplitSettings:
    """Which split and shard each record goes to; recorded in ``features.json``."""

    by: str = "problem"            # "problem" or "random"
    test_fraction: float = 0.1
    seed: int = 0
    train_shards: int = 8
    test_shards: int = 1
    # At most this many records of one source problem (0: all): a few problems' trees
    # hold most of the positions, many of them near-duplicates.
    max_per_problem: int = 0
    # Source problems whose records are left out (``--exclude-problems``): copies of
    # problems held out elsewhere, which must not be trained on.
    excluded: frozenset = frozenset()

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


def part_path(out: str, split: str, shard: int, shards: int, part: str) -> str:
    """Records of a shard before they join it (:func:`write_part_file`): a bucket's (``part``, its
    number, :func:`bucket_part`) or a chunk's (:func:`chunk_part`)."""
    return f"{shard_path(out, split, shard, shards)}{PART_MARK}{part}"


def bucket_part(bucket: int) -> str:
    return f"{bucket:05d}"


def chunk_part(paths: list[str]) -> str:
    """A chunk's part name: a hash of its first file's path, the same on every try of the chunk."""
    return "c" + hashlib.sha256(paths[0].encode()).hexdigest()[:16]


# A record in a part file: its bucket, the length of its name and of its piece; then the name and the piece.
_PART_RECORD = struct.Struct("<HHI")


def write_part_file(path: str, records) -> int:
    """``(bucket, name, piece)`` records, in the order given, into a part file; returns their count."""
    count = 0
    chunks = []
    for bucket, name, piece in records:
        encoded = name.encode()
        chunks += (_PART_RECORD.pack(bucket, len(encoded), len(piece)), encoded, piece)
        count += 1
    with FileSystems.create(path, compression_type=CompressionTypes.UNCOMPRESSED) as f:
        f.write(b"".join(chunks))
    return count


def read_part_file(path: str, count: int) -> list[tuple[int, str, memoryview]]:
    """The ``count`` records of a part file as :func:`write_part_file` wrote them, ``(bucket, name,
    piece)``; raises ``RuntimeError`` when the file holds more or fewer."""
    data = memoryview(storage.read_bytes(path))
    records = []
    offset = 0
    try:
        for _ in range(count):
            bucket, name_length, length = _PART_RECORD.unpack_from(data, offset)
            offset += _PART_RECORD.size
            name = bytes(data[offset:offset + name_length]).decode()
            offset += name_length
            records.append((bucket, name, data[offset:offset + length]))
            offset += length
    except struct.error:
        offset = len(data) + 1
    if offset != len(data):
        raise RuntimeError(f"{path}: the part file does not hold the {count} records its writer counted")
    return records


class RejectedSubproblem(ValueError):
    """A subproblem file that cannot become a record, with the reason."""


class ExcludedProblem(ValueError):
    """A subproblem of a problem the run was told to leave out."""


class LostRecords(RuntimeError):
    """The shards do not hold the records the stage made."""


def record_of(path: str, data: bytes, settings: SplitSettings) -> tuple[str, int, str, str, bytes]:
    """``(split, shard, name, problem, serialised example)`` for one subproblem file.

    Raises :class:`RejectedSubproblem` (or ``ProblemError``) naming the reason, and
    :class:`ExcludedProblem` for a subproblem of a problem in ``settings.excluded``.
    """
    sub = parse_subproblem(data, path)
    if sub.safe is None:
        raise RejectedSubproblem("no TS[] label: whether the target is safe is not given")
    if sub.available_moves is None:
        raise RejectedSubproblem("no AS[] label: the number of available moves is not given")
    if not sub.source:
        raise RejectedSubproblem("no GN[] label: the source problem (the split and the folds group by it) is not given")
    problem = sub.source
    if problem in settings.excluded:
        raise ExcludedProblem(problem)
    windows, moves, end_states = labelled_windows(sub)
    name = PurePath(path).name
    split = split_of(problem, name, settings)
    shard = shard_of(name, settings.shards(split))
    return split, shard, name, problem, example_bytes(
        windows, safe=int(sub.safe), moves=moves, available_moves=sub.available_moves,
        defender_first=int(sub.defender_first), problem=problem, subproblem=name, end_states=end_states)


def _reason(exc: Exception) -> str:
    return str(exc) if isinstance(exc, RejectedSubproblem) else reason_of(exc)


def file_chunks(folder: str, size: int = CHUNK):
    """The paths of the folder's ``.sgf`` files, sorted, in lists of ``size``."""
    paths = storage.files_in(folder, ".sgf")
    for start in range(0, len(paths), size):
        yield paths[start:start + size]


class ToRecords(beam.DoFn):
    """A chunk of subproblem files' paths in; out, for each file, keyed by (split, shard,
    bucket), its (name, example as a piece of its shard's zlib stream), or a tagged
    ``dead`` letter (a JSON line) when it cannot become a record, or a tagged
    ``left_out`` line when its problem is excluded.

    With ``parts_in`` (the output folder) the records are not sent on: the chunk's
    records of each shard are written there, sorted by (bucket, name), as a part file
    (:func:`write_chunk_parts`), and what goes out is, for each such part, keyed by
    (split, shard), its name and count.

    With ``tally_folder`` (a local folder) each worker keeps there the count of
    files it has read, for a progress bar (:class:`pipeline.progress.WorkerTally`).
    """

    def __init__(self, settings: SplitSettings, tally_folder: str | None = None, parts_in: str | None = None):
        self.settings = settings
        self.tally_folder = tally_folder
        self.parts_in = parts_in
        self.read = Metrics.counter(COUNTER_NAMESPACE, "read")
        self.rejected = Metrics.counter(COUNTER_NAMESPACE, "rejected")
        self.written = {split: Metrics.counter(COUNTER_NAMESPACE, f"written_{split}") for split in SPLITS}
        self.tally = None

    def setup(self):
        set_aside_imports()   # the collector's passes would walk every imported object again and again
        if self.tally_folder is not None:
            self.tally = WorkerTally(self.tally_folder)

    def finish_bundle(self):
        if self.tally is not None:
            self.tally.flush()

    def process(self, paths):
        written = dict.fromkeys(SPLITS, 0)
        rejected = 0
        filesystem = FileSystems.get_filesystem(paths[0]) if paths else None   # one folder's: one filesystem
        kept = []
        for path in paths:
            if self.tally is not None:
                self.tally.add()
            try:
                split, shard, name, problem, example = record_of(path, storage.read_bytes(path, filesystem), self.settings)
            except ExcludedProblem as exc:
                yield beam.pvalue.TaggedOutput("left_out", json.dumps(
                    {"file": path, "problem": str(exc), "reason": "its problem is excluded (--exclude-problems)"},
                    sort_keys=True))
                continue
            except Exception as exc:   # whatever the file holds, it is a dead letter, never the end of the run
                rejected += 1
                yield beam.pvalue.TaggedOutput("dead", json.dumps({"file": path, "reason": _reason(exc)},
                                                                  sort_keys=True))
                continue
            written[split] += 1
            # Windows are mostly zeros: deflated, a record is ~20 times smaller
            # while the shuffle into shards holds it.
            record = (split, shard, bucket_of(name)), (name, deflated_piece(example))
            if self.settings.max_per_problem:
                yield beam.pvalue.TaggedOutput("capped",
                                               (problem, (sample_rank(name, self.settings.seed), path, record)))
            elif self.parts_in is not None:
                kept.append(record)
            else:
                yield record
        if kept:
            yield from write_chunk_parts(kept, chunk_part(paths), self.parts_in, self.settings)
        self.read.inc(len(paths))
        self.rejected.inc(rejected)
        for split, count in written.items():
            self.written[split].inc(count)


def sample_rank(name: str, seed: int) -> str:
    """Where a record stands in its problem's sample: a hash of its name, so the sample is
    the same whatever the order the files are read in, and changes with ``--seed``."""
    return hashlib.sha256(f"{seed}:{name}".encode()).hexdigest()


def keep_sample(grouped, max_per_problem: int):
    """A problem's records in, the ``max_per_problem`` of lowest rank out; the others tagged
    ``left_out`` (a JSON line each, so the run can account for every file)."""
    problem, ranked = grouped
    for index, (_, path, record) in enumerate(sorted(ranked, key=lambda item: item[:2])):
        if index < max_per_problem:
            yield record
        else:
            yield beam.pvalue.TaggedOutput("left_out", json.dumps(
                {"file": path, "problem": problem, "reason": f"over the cap of {max_per_problem} records a problem"},
                sort_keys=True))


def write_chunk_parts(records, part: str, out: str, settings: SplitSettings):
    """A chunk's records (keyed as :class:`ToRecords` keys them) into a part file for each
    shard, sorted by (bucket, name); yields, for each, (shard key, (part, count))."""
    by_shard = {}
    for (split, shard, bucket), (name, piece) in records:
        by_shard.setdefault((split, shard), []).append((bucket, name, piece))
    for (split, shard), shard_records in sorted(by_shard.items()):
        shard_records.sort(key=lambda record: record[:2])
        count = write_part_file(part_path(out, split, shard, settings.shards(split), part), shard_records)
        yield (split, shard), (part, count)


def write_part(keyed, out: str, settings: SplitSettings):
    """One bucket's records, sorted by name, into its part file; returns (shard key, (part, count))."""
    (split, shard, bucket), records = keyed
    part = bucket_part(bucket)
    count = write_part_file(part_path(out, split, shard, settings.shards(split), part),
                          ((bucket, name, piece) for name, piece in sorted(records)))
    return (split, shard), (part, count)


class JoinParts(beam.DoFn):
    """A shard from its parts, its records in (bucket, name) order, the order of the records
    whatever part each is in; out, a JSON line of what it wrote (its file's name, records
    and bytes).  The shard's records are in memory while it is written (a shard of 100,000
    records, about 110 MB)."""

    def __init__(self, out: str, settings: SplitSettings):
        self.out = out
        self.settings = settings
        self.in_shards = {split: Metrics.counter(COUNTER_NAMESPACE, f"in_shards_{split}")
                          for split in SPLITS}

    def process(self, keyed):
        (split, shard), parts = keyed
        shards = self.settings.shards(split)
        path = shard_path(self.out, split, shard, shards)
        records = []
        for part, count in sorted(part for part in parts if part is not None):
            records += read_part_file(part_path(self.out, split, shard, shards, part), count)
        records.sort(key=lambda record: record[:2])   # (a part's records are in order: a merge)
        # (uncompressed: the name ends in .gz, but the stream is zlib's, which the writer makes)
        with FileSystems.create(path,
                                compression_type=CompressionTypes.UNCOMPRESSED) as f, ZlibPieceWriter(f) as writer:
            for _, _, piece in records:
                writer.write(piece)
        self.in_shards[split].inc(len(records))
        yield json.dumps({"shard": os.path.basename(path), "records": writer.records, "bytes": writer.size},
                         sort_keys=True)


def write_lines(lines: list[str], path: str) -> None:
    with FileSystems.create(path) as f:
        f.write("".join(line + "\n" for line in sorted(lines)).encode())


def write_dead_letters(lines: list[str], out: str) -> None:
    write_lines(lines, os.path.join(out, DEAD_LETTER_FILE))


def leaves_out(settings: SplitSettings) -> bool:
    """Whether a run with these settings may leave records out (and so writes ``left-out.jsonl``)."""
    return bool(settings.max_per_problem or settings.excluded)


def records_grouped(settings: SplitSettings) -> bool:
    """Whether the records go to their shards through Beam's groupings (a cap, which samples
    each problem's records, needs them all together) rather than as the chunks' part files."""
    return bool(settings.max_per_problem)


def build_pipeline(pipeline, subproblems: str, out: str, settings: SplitSettings,
                   tally_folder: str | None = None) -> None:
    """Add the stage to a Beam pipeline: SGF files in, shards and dead letters out.

    ``tally_folder``: where the workers count the files they read (see :class:`ToRecords`).
    """
    grouped = records_grouped(settings)
    results = (pipeline
               | "Folder" >> beam.Create([subproblems])
               | "Match" >> beam.FlatMap(file_chunks)
               # The chunks come out of one listing in one bundle: spread them over the workers.
               | "Spread" >> beam.Reshuffle()
               | "Windows" >> beam.ParDo(ToRecords(settings, tally_folder, None if grouped else out)).with_outputs(
                   "dead", "capped", "left_out", main="records"))
    records = results.records
    left_out = [results.left_out]
    if settings.max_per_problem:
        sampled = (results.capped
                   | "ByProblem" >> beam.GroupByKey()
                   | "Sample" >> beam.FlatMap(keep_sample, settings.max_per_problem).with_outputs(
                       "left_out", main="kept"))
        records = sampled.kept
        left_out.append(sampled.left_out)
    if leaves_out(settings):
        (left_out
         | "LeftOutTogether" >> beam.Flatten()
         | "AllLeftOut" >> beam.combiners.ToList()
         | "WriteLeftOut" >> beam.Map(write_lines, os.path.join(out, LEFT_OUT_FILE)))
    every_shard = [((split, shard), None) for split in SPLITS for shard in range(settings.shards(split))]
    if grouped:
        parts = (records
                 | "ByBucket" >> beam.GroupByKey()
                 | "WriteParts" >> beam.Map(write_part, out, settings))
    else:
        parts = records   # (the chunks' parts, written where the records were made)
    ((parts, pipeline | "EveryShard" >> beam.Create(every_shard))
     | "Flatten" >> beam.Flatten()
     | "ByShard" >> beam.GroupByKey()
     | "JoinParts" >> beam.ParDo(JoinParts(out, settings))
     | "AllShardCounts" >> beam.combiners.ToList()
     | "WriteShardCounts" >> beam.Map(write_lines, os.path.join(out, SHARD_COUNTS_FILE)))
    (results.dead
     | "AllDead" >> beam.combiners.ToList()
     | "WriteDeadLetters" >> beam.Map(write_dead_letters, out))


def shard_counts(out: str, settings: SplitSettings) -> dict[str, int]:
    """The records each shard's writer wrote (:data:`SHARD_COUNTS_FILE`), by split, once every
    shard is found on disk with the size its writer gave; raises :class:`LostRecords` otherwise."""
    path = os.path.join(out, SHARD_COUNTS_FILE)
    if not storage.exists(path):
        raise LostRecords(f"{path}: missing: the shards' writers did not all report")
    reports = [json.loads(line) for line in storage.read_bytes(path).decode().splitlines()]
    written = {report["shard"]: report for report in reports}
    on_disk = {os.path.basename(m.path): m.size_in_bytes
               for m in FileSystems.match([os.path.join(out, "*.tfrecord.gz")])[0].metadata_list}
    counts = {}
    for split in SPLITS:
        shards = settings.shards(split)
        counts[f"written_{split}"] = 0
        for shard in range(shards):
            name = os.path.basename(shard_path(out, split, shard, shards))
            if name not in written:
                raise LostRecords(f"{os.path.join(out, name)}: its writer did not report it")
            if on_disk.get(name) != written[name]["bytes"]:
                raise LostRecords(f"{os.path.join(out, name)}: {on_disk.get(name, 'no')} bytes on disk, "
                                  f"where its writer wrote {written[name]['bytes']}")
            counts[f"written_{split}"] += written[name]["records"]
    return counts


def counts_on_disk(subproblems: str, out: str, settings: SplitSettings) -> dict[str, int]:
    """What the run did, from the files alone: the subproblem files, the records in the
    shards as their writers counted them and the dead letters (whatever the runner, with or
    without metrics)."""
    counts = {"read": len(storage.files_in(subproblems, ".sgf"))}
    counts.update(shard_counts(out, settings))
    counts["rejected"] = len(read_dead_letters(out))
    if leaves_out(settings):
        counts["left_out"] = len(read_left_out(out))
    return counts


def _delete_matching(out: str, pattern: str) -> None:
    matched = FileSystems.match([os.path.join(out, pattern)])[0].metadata_list
    if matched:
        FileSystems.delete([m.path for m in matched])


def _clear_old_shards(out: str) -> None:
    """Shards and parts of an earlier run (maybe with other shard counts) would mix with this one's."""
    _delete_matching(out, SPEC_FILE)
    _delete_matching(out, LEFT_OUT_FILE)
    _delete_matching(out, SHARD_COUNTS_FILE)
    for split in SPLITS:
        _delete_matching(out, f"{split}-*.tfrecord.gz")
        _delete_matching(out, f"{split}-*.tfrecord.gz{PART_MARK}*")


def run_features(subproblems: str, out: str, settings: SplitSettings, beam_options=(),
                 progress: bool = False) -> dict:
    """Run the stage and write ``features.json``; returns the counts.

    ``progress`` draws a bar of the files read when the run is local (a
    Direct runner, local folders); the shards are written after the last.
    Raises :class:`LostRecords` when the shards and the dead letters do not
    account for every file read.
    """
    if not storage.is_remote(out):
        os.makedirs(out, exist_ok=True)
    _clear_old_shards(out)
    pipeline = running.new_pipeline(beam_options, preload="pipeline.beam.preload.features")
    local = running.runs_locally(pipeline, subproblems)
    tally_folder = tempfile.mkdtemp(prefix="features-tally-") if progress and local else None
    build_pipeline(pipeline, subproblems, out, settings, tally_folder)
    bar = None
    if tally_folder is not None:
        bar = PolledBar(lambda: tally_of(tally_folder), len(storage.files_in(subproblems, ".sgf")),
                        desc="features: files read", unit="file")
    try:
        running.run_to_end(pipeline, bar)
    finally:
        if tally_folder is not None:
            shutil.rmtree(tally_folder, ignore_errors=True)
    for split in SPLITS:
        _delete_matching(out, f"{split}-*.tfrecord.gz{PART_MARK}*")
    counts = counts_on_disk(subproblems, out, settings)
    _delete_matching(out, SHARD_COUNTS_FILE)
    kept = sum(counts[f"written_{split}"] for split in SPLITS)
    left_out = counts.get("left_out", 0)
    if counts["read"] != kept + counts["rejected"] + left_out:
        raise LostRecords(f"{out}: {counts['read']} subproblem files were read but the shards hold "
                          f"{kept} records, {counts['rejected']} files were rejected and "
                          f"{left_out} left out")
    spec = spec_text(plane_names(), counts, split=settings.by, test_fraction=settings.test_fraction,
                     seed=settings.seed, shards={"train": settings.train_shards, "test": settings.test_shards},
                     max_per_problem=settings.max_per_problem,
                     **({"excluded_problems": sorted(settings.excluded)} if settings.excluded else {}),
                     source=os.path.basename(os.path.normpath(subproblems)))
    storage.write_atomic(os.path.join(out, SPEC_FILE), spec.encode())
    return counts


def read_left_out(out: str) -> list[dict]:
    """The files a ``max_per_problem`` cap or the excluded problems left out, one dict each
    (``file``, ``problem``, ``reason``)."""
    with FileSystems.open(os.path.join(out, LEFT_OUT_FILE)) as f:
        return [json.loads(line) for line in f.read().decode().splitlines()]


def read_dead_letters(out: str) -> list[dict]:
    with FileSystems.open(os.path.join(out, DEAD_LETTER_FILE)) as f:
        return [json.loads(line) for line in f.read().decode().splitlines()]
