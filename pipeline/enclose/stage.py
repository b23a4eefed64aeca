"""The Beam pipeline of ``tsumego enclose``: its steps, the folder it fills, and running it.

Imported only when the command runs (Beam at the top).  The steps:

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

import hashlib
import json
import os
import time

import apache_beam as beam
from apache_beam.metrics import Metrics
from apache_beam.pvalue import TaggedOutput

from pipeline.beam import running, storage
from pipeline.enclose.outcome import enclose_file
from pipeline.enclose.question import FITS, GUIDE_AFTER, KO
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


def fingerprint(data: bytes, settings: dict) -> str:
    """What a record was computed from: the file's bytes and the settings."""
    text = json.dumps(settings, sort_keys=True).encode()
    return hashlib.sha256(text + b"\0" + data).hexdigest()


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
            if (record.pop("fingerprint", None) == fingerprint(data, self.settings)
                    or final_at_any_effort(record, data, self.settings)):
                record.pop("first_pass", None)
                self.done_before.inc()
                yield TaggedOutput("done", record)
                return
        yield problem_id, path, data


def first_pass_settings(settings: dict) -> dict:
    """The settings of a run's node-budget pass: all but ``seconds``, the time spent after it."""
    return {name: value for name, value in settings.items() if name != "seconds"}


def final_at_any_effort(record: dict, data: bytes, settings: dict) -> bool:
    """Whether a record made at another effort (``seconds``, or none) stands at this one: its
    node-budget pass ran under these settings and a reading fits or is a ko, which more time
    never reads again (:func:`pipeline.enclose.question.read`).  So a run with more time over
    an earlier run's folder reads only the problems still open."""
    return (record.get("first_pass") == fingerprint(data, first_pass_settings(settings))
            and any(r["verdict"] in (FITS, KO) for r in record.get("readings", [])))


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
        problem_id, path, data = item
        result = enclose_file(data, path, problem_id, self.settings["max_nodes"], self.settings["max_area"],
                              guide=self.guide, move_patterns=self.move_patterns,
                              algo=self.settings.get("algo", "dfs"),
                              guide_after=self.settings.get("guide_after", GUIDE_AFTER),
                              seconds=self.settings.get("seconds"))
        target = self.layout.problem(problem_id)
        if result.sgf is not None:
            storage.write_atomic(target, result.sgf.encode())
        else:
            storage.delete_if_present([target])
        record = dict(result.record, fingerprint=fingerprint(data, self.settings),
                      first_pass=fingerprint(data, first_pass_settings(self.settings)))
        storage.write_atomic(self.layout.record(problem_id),
                             (json.dumps(record, sort_keys=True) + "\n").encode())
        counter(result.record["outcome"]).inc()
        self.search_nodes.inc(result.record.get("nodes", 0))
        yield result.record


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
                guide_loader=None, move_patterns=True) -> dict:
    """Run the pipeline; returns the records (sorted by id), the Beam counters and the seconds.
    ``guide_loader``: a picklable function returning the guide each worker orders its
    searches by (:func:`cli.guide.stage_guide`), or None; ``move_patterns``: the move
    order's learned patterns, as ``Solver`` takes them (True: the shipped ones).  Both
    belong in ``settings`` too, so that a record made with others is redone."""
    layout = Layout(out)
    problems = input_files(inputs)
    pipeline = running.new_pipeline(beam_options, preload="pipeline.beam.preload.enclose")
    build_pipeline(pipeline, problems, layout, settings, guide_loader, move_patterns)
    started = time.perf_counter()
    bar = records_bar(layout, problems) if progress and running.runs_locally(pipeline, out) else None
    result = running.run_to_end(pipeline, bar)
    seconds = time.perf_counter() - started
    lines = storage.read_bytes(layout.file("enclose.jsonl")).decode().splitlines()
    records = [json.loads(line) for line in lines]
    return {"records": records, "problems": len(problems), "seconds": seconds,
            "counters": running.counters(result, NAMESPACE, runner=running.runner_name(pipeline))}
