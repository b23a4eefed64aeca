"""The Beam pipeline of ``tsumego enclose``: its steps, the folder it fills, and running it.

Imported only when the command runs (Beam at the top).  Before the pipeline, the records
made by an earlier reading version are checked on a sample, in this process, and kept
(re-stamped) when its answers are the same (:mod:`pipeline.enclose.reading_check`).  The steps:

1. *Plan* (:class:`Plan`), per input file: if ``records/<id>.json`` holds the
   outcome of these very bytes under these settings, that record goes
   straight to the reports; otherwise the file is a work item.
2. *Enclose* (:class:`Enclose`), per work item after a reshuffle that spreads
   them over the workers: the problem is framed and solved
   (:mod:`pipeline.enclose.outcome`); an enclosed problem's SGF is written to
   ``<id>.sgf`` (or a stale one removed), then its record, the "done"
   marker, last.  An interrupted run keeps every problem it finished.
3. *Reports* (:func:`write_reports`): ``enclose.jsonl`` (one line per input,
   sorted by id) and ``summary.md``, written whole.

Every file is written atomically (:mod:`pipeline.beam.storage`).
"""
from __future__ import annotations

import json
import os
import time

import apache_beam as beam
from apache_beam.metrics import Metrics
from apache_beam.pvalue import TaggedOutput

from pipeline.beam import running, storage
from pipeline.enclose.outcome import enclose_file
from pipeline.enclose.keys import (BOOKKEEPING, final_at_any_effort, fingerprint,  # noqa: F401 (the stage's keys)
                                   first_pass_settings, stands)
from pipeline.enclose.question import GUIDE_AFTER
from pipeline.enclose.reading_check import check_reading
from pipeline.errors import CommandError
from pipeline.enclose.summary import summary_markdown
from pipeline.progress import PolledBar
from solver.problem import reason_of

NAMESPACE = "enclose"


def counter(name: str):
    return Metrics.counter(NAMESPACE, name)


class Layout:
    """Where everything goes under ``--out``: ``<id>.sgf``, ``records/<id>.json``, the reports."""

    def __init__(self, out: str):
        self.out = out if storage.is_remote(out) else os.path.abspath(out)

    def problem(self, problem_id: str) -> str:
        return storage.join(self.out, problem_id + ".sgf")

    def record(self, problem_id: str) -> str:
        return storage.join(self.out, "records", problem_id + ".json")

    def file(self, name: str) -> str:
        return storage.join(self.out, name)


def input_files(inputs: list[str]) -> list[tuple[str, str]]:
    """(problem id, path) of every input, sorted by id.

    A folder's ``*.sgf`` are named by their path below it without ``.sgf``
    (``IN/<collection>/<number>.sgf`` is ``<collection>/<number>``), under the
    folder's own name when several inputs are given; a file given by itself is
    named by its file name.  Two inputs with one id are refused.
    """
    pairs: dict[str, str] = {}
    for given in inputs:
        root = given.rstrip("/")
        if not storage.is_remote(root):
            root = os.path.abspath(root)
        if storage.is_remote(root) or os.path.isdir(root):
            prefix = root.rsplit("/", 1)[-1] + "/" if len(inputs) > 1 else ""
            found = [(prefix + path[len(root):].lstrip("/").removesuffix(".sgf"), path)
                     for path in storage.list_files(root, ".sgf")]
        else:
            found = [(root.rsplit("/", 1)[-1].removesuffix(".sgf"), root)]
        for problem_id, path in found:
            if pairs.setdefault(problem_id, path) != path:
                raise CommandError(f"{pairs[problem_id]} and {path} would both be written as "
                                   f"{problem_id}.sgf", code=2)
    return sorted(pairs.items())


class Plan(beam.DoFn):
    """(problem id, path) in; out: work items (id, path, bytes), or tagged ``done`` records."""

    def __init__(self, layout: Layout, settings: dict):
        self.layout = layout
        self.settings = settings
        self.read = counter("problems_read")
        self.done_before = counter("problems_done_before")

    def process(self, item):
        problem_id, path = item
        self.read.inc()
        try:
            data = storage.read_bytes(path)
        except Exception as exc:   # an unreadable file is a bad input, never the end of the run
            yield TaggedOutput("done", {"problem": problem_id, "file": path, "outcome": "bad-input",
                                        "reason": reason_of(exc)})
            return
        record_path = self.layout.record(problem_id)
        if storage.exists(record_path):
            record = json.loads(storage.read_bytes(record_path))
            if stands(record, data, self.settings):
                for name in BOOKKEEPING:
                    record.pop(name, None)
                self.done_before.inc()
                yield TaggedOutput("done", record)
                return
        yield problem_id, path, data


class Enclose(beam.DoFn):
    """A work item in; the enclosed problem and its record written; the record out."""

    def __init__(self, layout: Layout, settings: dict, guide_loader=None, move_patterns=True):
        self.layout = layout
        self.settings = settings
        self.guide_loader = guide_loader
        self.move_patterns = move_patterns
        self.guide = None
        self.search_nodes = counter("search_nodes")

    def setup(self):
        # each worker loads the network once (a loaded one does not travel: its cache grows)
        self.guide = self.guide_loader() if self.guide_loader is not None else None

    def process(self, item):
        result = enclose_problem(item, self.layout, self.settings, self.guide, self.move_patterns)
        counter(result.record["outcome"]).inc()
        self.search_nodes.inc(result.record.get("nodes", 0))
        yield result.record


def enclose_problem(item, layout: Layout, settings: dict, guide=None, move_patterns=True):
    """Enclose one work item (id, path, bytes) under ``settings``; its enclosed problem written
    (or a stale one removed), then its record.  Returns the :class:`Enclosed`."""
    problem_id, path, data = item
    result = enclose_file(data, path, problem_id, settings["max_nodes"], settings["max_area"],
                          guide=guide, move_patterns=move_patterns, algo=settings.get("algo", "dfs"),
                          guide_after=settings.get("guide_after", GUIDE_AFTER), seconds=settings.get("seconds"),
                          zones=settings.get("zones", False))
    target = layout.problem(problem_id)
    if result.sgf is not None:
        storage.write_atomic(target, result.sgf.encode())
    else:
        storage.delete_if_present([target])
    record = dict(result.record, fingerprint=fingerprint(data, settings),
                  first_pass=fingerprint(data, first_pass_settings(settings)))
    if "reading" in settings:
        record["reading"] = settings["reading"]   # the version a later run's check compares against
    storage.write_atomic(layout.record(problem_id), (json.dumps(record, sort_keys=True) + "\n").encode())
    return result


def write_reports(records: list[dict], layout: Layout, settings: dict) -> None:
    records = sorted(records, key=lambda r: r["problem"])
    lines = "".join(json.dumps(r, sort_keys=True) + "\n" for r in records)
    storage.write_atomic(layout.file("enclose.jsonl"), lines.encode())
    storage.write_atomic(layout.file("summary.md"), summary_markdown(records, settings).encode())


def build_pipeline(pipeline, problems: list[tuple[str, str]], layout: Layout, settings: dict,
                   guide_loader=None, move_patterns=True) -> None:
    planned = (pipeline
               | "Problems" >> beam.Create(problems)
               | "Plan" >> beam.ParDo(Plan(layout, settings)).with_outputs("done", main="work"))
    enclosed = (planned.work
                | "Spread" >> beam.Reshuffle()
                | "Enclose" >> beam.ParDo(Enclose(layout, settings, guide_loader, move_patterns)))
    ((planned.done, enclosed)
     | "Records" >> beam.Flatten()
     | "AllRecords" >> beam.combiners.ToList()
     | "WriteReports" >> beam.Map(write_reports, layout, settings))


def records_bar(layout: Layout, problems: list[tuple[str, str]]) -> PolledBar:
    """A bar of problems done, from the records a local run writes."""
    folder = layout.file("records")
    start = len(storage.list_files(folder, ".json"))
    todo = sum(not storage.exists(layout.record(pid)) for pid, _ in problems)
    return PolledBar(lambda: len(storage.list_files(folder, ".json")) - start, todo,
                     desc="enclose", unit="problem")


def run_enclose(inputs: list[str], out: str, settings: dict, beam_options=(), progress: bool = True,
                guide_loader=None, move_patterns=True, say=None) -> dict:
    """Run the pipeline; returns the records (sorted by id), the Beam counters, the seconds and
    the reading check's :class:`ReadingCheck` (None without one).
    ``guide_loader``: a picklable function returning the guide each worker orders its
    searches by (:func:`cli.guide.stage_guide`), or None; ``move_patterns``: the move
    order's learned patterns, as ``Solver`` takes them (True: the shipped ones).  Both
    belong in ``settings`` too, so that a record made with others is redone.  Records
    made by an earlier reading version are first checked on a sample
    (:mod:`pipeline.enclose.reading_check`), in this process; ``say`` is given its line."""
    layout = Layout(out)
    problems = input_files(inputs)
    started = time.perf_counter()
    check = reading_check(problems, layout, settings, guide_loader, move_patterns)
    if check is not None and say is not None:
        say(check.line(settings["reading"]))
    pipeline = running.new_pipeline(beam_options, preload="pipeline.beam.preload.enclose")
    build_pipeline(pipeline, problems, layout, settings, guide_loader, move_patterns)
    bar = records_bar(layout, problems) if progress and running.runs_locally(pipeline, out) else None
    result = running.run_to_end(pipeline, bar)
    seconds = time.perf_counter() - started
    lines = storage.read_bytes(layout.file("enclose.jsonl")).decode().splitlines()
    records = [json.loads(line) for line in lines]
    return {"records": records, "problems": len(problems), "seconds": seconds, "reading_check": check,
            "counters": running.counters(result, NAMESPACE, runner=running.runner_name(pipeline))}


def reading_check(problems: list[tuple[str, str]], layout: Layout, settings: dict, guide_loader=None,
                  move_patterns=True):
    """:func:`check_reading` over the run's problems, its sample enclosed here as a worker
    would (the guide loaded only when there is a sample to read)."""
    guide = []

    def enclose_one(item):
        if not guide:
            guide.append(guide_loader() if guide_loader is not None else None)
        return enclose_problem(item, layout, settings, guide[0], move_patterns)

    return check_reading(problems, layout, settings, enclose_one)
