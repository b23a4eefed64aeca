"""Records made by an earlier way of reading, checked on a sample before a run redoes them.

A record is kept under its settings' fingerprint (:func:`pipeline.enclose.keys.fingerprint`),
and the settings name the reading's version (``question.READING_VERSION``), raised with
every change to the reading code.  A record whose fingerprint differs from today's only by
that version (its own version in ``reading``; a record from before that field is matched
against every earlier version) is *stale by reading*.  Before the Beam run,
:func:`check_reading` reads again, with today's code, a sample of them:
``READING_CHECK_SAMPLE`` problems (all of them when fewer), the first by a hash of their
ids, so a rerun picks the same ones.  Each sampled problem's record and enclosed file are
written anew, and its answer (:func:`answer`: the outcome, target, goal, book moves,
winning moves, every reading's verdict, the enclosed SGF's bytes; not the nodes or the
seconds) compared with the stored one.  All the same: every other stale record is
re-stamped with today's fingerprint in place (``read_by`` keeps the version that read
it) and the run keeps it.  One differs: nothing is re-stamped, and the run redoes them all.

The sample is a check, not a proof: a change that alters answers only outside the sample
goes unseen, and those records keep the earlier answers (to read everything again, run
into an empty ``--out``).  A sample of 24 finds a change that alters one answer in 20 with
a chance of 1 - 0.95**24, about 71%; one in 100, about 21%.
"""
from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field

from pipeline.beam import storage
from pipeline.enclose.keys import first_pass_settings, fingerprint, stands

# Problems read again to check a new reading version, one after the other in the command's
# process: on the book collections a problem takes about 2 CPU seconds on average (95 minutes
# for 5,430 on 2 cores), so 24 take about a minute.
READING_CHECK_SAMPLE = 24
# The fields of a record that are no answer: how long it took, and what it was made under.
NOT_ANSWERS = ("nodes", "seconds", "file", "fingerprint", "first_pass", "reading", "read_by")
NOT_READING_ANSWERS = ("nodes",)


@dataclass
class Stale:
    """A record stale only by its reading version."""

    problem_id: str
    path: str
    data: bytes
    record: dict
    version: object      # the reading version it was made under


@dataclass
class ReadingCheck:
    versions: list = field(default_factory=list)   # the earlier versions found
    stale: int = 0
    sampled: int = 0
    differs: str | None = None                     # the first sampled problem that reads otherwise, and how

    def line(self, today) -> str:
        earlier = ", ".join(str(v) for v in self.versions)
        head = f"enclose: reading {earlier} -> {today}: "
        if self.differs is not None:
            return (head + f"{self.differs}; all {self.stale:,} records of reading {earlier} "
                    "are read again")
        kept = self.stale - self.sampled
        return (head + f"{self.sampled:,} of {self.stale:,} records re-read, all the same: "
                + (f"the other {kept:,} kept" if kept else "none other to keep"))


def earlier_version(record: dict, data: bytes, settings: dict):
    """The earlier reading version under which ``record`` stands for ``data`` and today's other
    settings, or None."""
    today = settings["reading"]
    if "reading" in record:
        candidates = [record["reading"]] if record["reading"] != today else []
    elif isinstance(today, int):   # a record from before ``reading`` was kept: any earlier version
        candidates = range(today - 1, -1, -1)
    else:
        candidates = []
    for version in candidates:
        if stands(record, data, dict(settings, reading=version)):
            return version
    return None


def stale_by_reading(problems: list[tuple[str, str]], layout, settings: dict) -> list[Stale]:
    """The problems whose record stands under today's settings but for the reading version."""
    found = []
    for problem_id, path in problems:
        record_path = layout.record(problem_id)
        if not storage.exists(record_path):
            continue
        try:
            data = storage.read_bytes(path)
            record = json.loads(storage.read_bytes(record_path))
        except Exception:   # an unreadable file or record: the run itself deals with it
            continue
        if not isinstance(record, dict) or stands(record, data, settings):
            continue
        version = earlier_version(record, data, settings)
        if version is not None:
            found.append(Stale(problem_id, path, data, record, version))
    return found


def sample_order(problem_id: str) -> str:
    return hashlib.sha256(problem_id.encode()).hexdigest()


def answer(record: dict, sgf: bytes | None) -> dict:
    """What a user or ``solve-all`` reads of a problem's outcome: its record but for the
    nodes, the seconds and the bookkeeping, and its enclosed file's bytes."""
    kept = {name: value for name, value in record.items() if name not in NOT_ANSWERS}
    if "readings" in kept:
        kept["readings"] = [{k: v for k, v in reading.items() if k not in NOT_READING_ANSWERS}
                            for reading in kept["readings"]]
    return dict(kept, sgf=sgf)


def difference(before: dict, after: dict) -> str:
    """The fields in which two answers differ, as ``name: old -> new`` (the SGF by name only)."""
    names = sorted(set(before) | set(after))
    parts = []
    for name in names:
        if before.get(name) != after.get(name):
            parts.append("the enclosed file" if name == "sgf"
                         else f"{name}: {json.dumps(before.get(name))} -> {json.dumps(after.get(name))}")
    return "; ".join(parts)


def stored_sgf(layout, problem_id: str) -> bytes | None:
    target = layout.problem(problem_id)
    return storage.read_bytes(target) if storage.exists(target) else None


def check_reading(problems: list[tuple[str, str]], layout, settings: dict, enclose_one,
                  sample_size: int | None = None) -> ReadingCheck | None:
    """Check the records stale by reading on a sample, and re-stamp the others when every
    sampled answer is the same (module docstring).  ``enclose_one((id, path, bytes))``
    encloses a problem with today's code and writes its outputs (returning its
    :class:`pipeline.enclose.outcome.Enclosed`).  None when no record is stale by reading."""
    if "reading" not in settings:
        return None
    stale = stale_by_reading(problems, layout, settings)
    if not stale:
        return None
    check = ReadingCheck(versions=sorted({s.version for s in stale}, key=str), stale=len(stale))
    size = READING_CHECK_SAMPLE if sample_size is None else sample_size
    sample = sorted(stale, key=lambda s: sample_order(s.problem_id))[:size]
    for item in sample:
        before = answer(item.record, stored_sgf(layout, item.problem_id))
        result = enclose_one((item.problem_id, item.path, item.data))
        check.sampled += 1
        after = answer(result.record, None if result.sgf is None else result.sgf.encode())
        if after != before:
            check.differs = f"{item.problem_id} reads otherwise ({difference(before, after)})"
            return check
    chosen = {s.problem_id for s in sample}
    for item in stale:
        if item.problem_id not in chosen:
            restamp(item, layout, settings)
    return check


def restamp(item: Stale, layout, settings: dict) -> None:
    """Write ``item``'s record again under today's fingerprint, its answer untouched."""
    record = dict(item.record)
    earlier = dict(settings, reading=item.version)
    if record.get("fingerprint") == fingerprint(item.data, earlier):
        record["fingerprint"] = fingerprint(item.data, settings)
    if record.get("first_pass") == fingerprint(item.data, first_pass_settings(earlier)):
        record["first_pass"] = fingerprint(item.data, first_pass_settings(settings))
    record["read_by"] = record.get("read_by", item.version)
    record["reading"] = settings["reading"]
    storage.write_atomic(layout.record(item.problem_id), (json.dumps(record, sort_keys=True) + "\n").encode())
