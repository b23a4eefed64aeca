"""The Beam pipeline of ``tsumego solve-all``: its steps, the folder it fills, and running it.

This module imports Beam at the top; the command (:mod:`pipeline.solve_all`)
imports it only when the stage runs, so that the ``tsumego`` command line
starts without Beam.  Its steps are classes and functions at module level,
where a test can build one and call it on real input.

The steps, and why they are cut this way:

1. *Plan* (:class:`Plan`), per problem: the problem is read and checked; if
   its tree file exists and was grown from this very position, it is finished
   (its tree goes straight to step 4); otherwise one work item is made per
   side whose tree is not already in ``partial/`` and that no earlier run
   rejected with today's code (``rejected/``, :mod:`pipeline.rejected_sides`:
   its dead letter goes out again).  An edited problem is thus grown again.
2. *Expand* (:class:`Expand`), per (problem, side), after a reshuffle so the
   items spread over the workers: grow the tree and write it to
   ``partial/<problem-id>.<side>.sgf``, or, over the node budget, keep the
   rejection in ``rejected/<problem-id>.<side>.json``.  This is where the time goes.
3. *Finish* (:func:`finish`), per problem: with both sides grown, write the
   tree file (the "done" marker, written last) and drop the partial files.
   An interrupted run thus keeps every finished side; a rerun skips it.
4. *Positions* (:class:`Replay`, :class:`WritePosition`), per distinct
   position: every tree node is replayed from the tree files and grouped by
   its content-hash name; the node of the smallest (problem id, place in the
   tree) gives the file, so the files never depend on which worker finished
   first.  A file is written only when missing or different, so reruns
   rewrite nothing, and the files of positions no tree holds any more (a
   problem was edited or removed) are deleted: the folder always matches a
   fresh run on the current problems.
5. *Reports* (:func:`write_reports`): stats and dead letters, sorted, written whole.

Every file is written atomically (:mod:`pipeline.beam.storage`).
"""
from __future__ import annotations

import json
import os
import time
from typing import Any, Tuple

import apache_beam as beam
from apache_beam.metrics import Metrics
from apache_beam.pvalue import AsSingleton, TaggedOutput

from pipeline import dataset_stats, rejected_sides
from pipeline.beam import running, storage
from pipeline.errors import CommandError
from pipeline.expand import NodeBudgetExceeded, TreeSettings, UnfinishedLine, expand_tree
from pipeline.formats.solution_tree import root_positions, subproblems_of, tree_text
from pipeline.formats.subproblem import Subproblem
from pipeline.progress import PolledBar
from solver import Problem, ProblemError, parse_problem, search_area
from solver.problem import reason_of

SIDES = ("attacker", "defender")
NAMESPACE = "solve-all"


def problem_files(problems: str) -> list[tuple[str, str]]:
    """(problem id, path) of every ``*.sgf`` below ``problems``, sorted by id."""
    root = problems.rstrip("/")
    if not storage.is_remote(root):
        root = os.path.abspath(root)
    pairs = []
    for path in storage.list_files(root, ".sgf"):
        problem_id = path[len(root):].lstrip("/").removesuffix(".sgf")
        pairs.append((problem_id, path))
    return sorted(pairs)


class Layout:
    """Where everything goes under ``--out``."""

    def __init__(self, out: str):
        # Workers may not share the driver's working folder.
        self.out = out if storage.is_remote(out) else os.path.abspath(out)

    def tree(self, problem_id: str) -> str:
        return storage.join(self.out, "trees", problem_id + ".sgf")

    def partial(self, problem_id: str, side: str) -> str:
        return storage.join(self.out, "partial", f"{problem_id}.{side}.sgf")

    def rejected(self, problem_id: str, side: str) -> str:
        return storage.join(self.out, "rejected", f"{problem_id}.{side}.json")

    def subproblem(self, name: str) -> str:
        return storage.join(self.out, "subproblems", name)

    def file(self, name: str) -> str:
        return storage.join(self.out, name)


def counter(name: str):
    return Metrics.counter(NAMESPACE, name)


def dead_letter(problem_id: str, path: str, side: str | None, reason: str) -> TaggedOutput:
    return TaggedOutput("dead", {"problem": problem_id, "file": path, "side": side, "reason": reason})


def to_play(problem: Problem, side: str) -> int:
    return problem.attacker if side == "attacker" else problem.defender


def side_position(problem: Problem, side: str) -> str:
    """The root position of one side's tree, as its tree file writes it."""
    return Subproblem(size=problem.size, stones=problem.stones, target=problem.target,
                      to_play=to_play(problem, side)).position_text()


def grown_from(data: bytes, problem: Problem, sides, path: str) -> bool:
    """Whether a tree file holds the trees of this very problem (it may have been edited)."""
    expected = [side_position(problem, side) for side in sides]
    try:
        return root_positions(data, path) == expected
    except ProblemError:
        return False


# The main outputs' types, which Beam cannot infer beside tagged outputs.
keyed = beam.typehints.with_output_types(Tuple[str, Any])


@beam.typehints.with_output_types(Tuple[str, str, str, bytes])
class Plan(beam.DoFn):
    """(problem id, path) in; out: work items (problem id, path, side, SGF bytes) for the sides
    still to grow, and tagged ``finished`` trees, ``grown`` sides and ``dead`` letters."""

    def __init__(self, layout: Layout, settings: TreeSettings):
        self.layout = layout
        self.settings = settings
        self.read = counter("problems_read")
        self.finished_before = counter("problems_finished_before")
        self.sides_resumed = counter("sides_resumed")
        self.rejected_before = counter("sides_rejected_before")
        self.outdated = counter("trees_outdated")

    def process(self, item):
        problem_id, path = item
        self.read.inc()
        try:
            # Planned whole before anything goes out, so a failure part way sends the dead letter alone.
            planned = list(self.plan(problem_id, path))
        except Exception as exc:   # whatever the file holds, it is a dead letter, never the end of the run
            yield dead_letter(problem_id, path, None, reason_of(exc))
            return
        yield from planned

    def plan(self, problem_id: str, path: str):
        """The outputs for one problem; raises whatever reading or checking it raises."""
        data = storage.read_bytes(path)
        problem = parse_problem(data, path, require_to_play=False)
        search_area(problem, self.settings.max_area)
        tree = self.layout.tree(problem_id)
        if storage.exists(tree):
            grown = storage.read_bytes(tree)
            if grown_from(grown, problem, SIDES, tree):
                self.finished_before.inc()
                yield TaggedOutput("finished", (problem_id, grown))
                return
            self.outdated.inc()
        for side in SIDES:
            partial = self.layout.partial(problem_id, side)
            if storage.exists(partial):
                grown = storage.read_bytes(partial)
                if grown_from(grown, problem, [side], partial):
                    self.sides_resumed.inc()
                    yield TaggedOutput("grown", (problem_id, (side, grown)))
                    continue
                self.outdated.inc()
            rejected = self.layout.rejected(problem_id, side)
            reason = rejected_sides.recall(rejected, side_position(problem, side))
            if reason is not None:
                # rejected by a search that would run again as it ran then
                self.rejected_before.inc()
                yield dead_letter(problem_id, path, side, reason)
                continue
            storage.delete_if_present([rejected])   # outdated: the side is searched again
            yield problem_id, path, side, data


@keyed
class Expand(beam.DoFn):
    """A work item in; its side's tree written to ``partial/`` and out as (problem id, (side, SGF bytes)),
    or a dead letter when a solve exceeds the node budget."""

    def __init__(self, layout: Layout, settings: TreeSettings):
        self.layout = layout
        self.settings = settings
        self.expanded = counter("sides_expanded")
        self.rejected = counter("sides_rejected")
        self.solves = counter("solves")
        self.search_nodes = counter("search_nodes")
        self.tree_nodes = counter("tree_nodes_grown")
        self.area_changed = counter("moves_dropped_area_changed")
        self.label_changed = counter("moves_dropped_label_changed")
        self.capped = counter("sides_capped")

    def process(self, item):
        problem_id, path, side, data = item
        problem = parse_problem(data, path, require_to_play=False)
        settings = self.settings
        try:
            expansion = expand_tree(problem, to_play(problem, side), max_depth=settings.max_depth,
                                    min_area=settings.min_area, max_nodes=settings.max_nodes,
                                    algo=settings.algo, max_area=settings.max_area,
                                    end_states=settings.end_state,
                                    max_subproblems=settings.max_subproblems)
        except (NodeBudgetExceeded, UnfinishedLine) as exc:
            # over the node budget, or a line past the move cap: the tree is not kept, and the
            # rejection is remembered, as a rerun's search would reach it again
            self.rejected.inc()
            if isinstance(exc, NodeBudgetExceeded):
                self.solves.inc(exc.solves)
                self.search_nodes.inc(exc.search_nodes)
            rejected_sides.remember(self.layout.rejected(problem_id, side), side_position(problem, side), str(exc))
            yield dead_letter(problem_id, path, side, str(exc))
            return
        except Exception as exc:   # a fault in one problem's search must not end a long run
            self.rejected.inc()
            yield dead_letter(problem_id, path, side, reason_of(exc))
            return
        text = tree_text(expansion, problem_id).encode()
        storage.write_atomic(self.layout.partial(problem_id, side), text)
        storage.delete_if_present([self.layout.rejected(problem_id, side)])
        self.expanded.inc()
        self.solves.inc(expansion.solves)
        self.search_nodes.inc(expansion.search_nodes)
        self.tree_nodes.inc(expansion.root.count())
        self.area_changed.inc(expansion.area_changed)
        self.label_changed.inc(expansion.label_changed)
        self.capped.inc(int(expansion.capped))
        yield problem_id, (side, text)


def finish(item, layout: Layout) -> list[tuple[str, bytes]]:
    """A problem's grown sides in; its tree file written and out as (problem id, SGF bytes)."""
    problem_id, grown = item
    by_side = dict(grown)
    if set(by_side) != set(SIDES):
        return []  # a side was rejected: its dead letter says why
    data = b"".join(by_side[side] for side in SIDES)
    storage.write_atomic(layout.tree(problem_id), data)
    storage.delete_if_present([layout.partial(problem_id, side) for side in SIDES])
    return [(problem_id, data)]


@keyed
class Replay(beam.DoFn):
    """Every node of a finished problem's trees, keyed by its file name."""

    def __init__(self, layout: Layout):
        self.layout = layout

    def process(self, item):
        problem_id, data = item
        path = self.layout.tree(problem_id)
        try:
            nodes = list(subproblems_of(data, path))
        except ProblemError as exc:
            yield dead_letter(problem_id, path, None, exc.reason)
            return
        yield TaggedOutput("expanded", problem_id)
        for index, sub in enumerate(nodes):
            yield sub.name(), ((problem_id, index), sub.to_sgf(), sub.available_moves, sub.safe)


class WritePosition(beam.DoFn):
    """One file per position; files of positions no tree has any more are removed.

    Out: (area, safe, tree nodes holding the position) for the stats.
    """

    def __init__(self, layout: Layout):
        self.layout = layout
        self.written = counter("subproblems_written")
        self.unchanged = counter("subproblems_unchanged")
        self.removed = counter("subproblems_removed")
        self.duplicates = counter("duplicate_tree_nodes")

    def process(self, item):
        name, found = item
        nodes, on_disk = list(found["nodes"]), list(found["on_disk"])
        path = self.layout.subproblem(name)
        if not nodes:
            storage.delete_if_present([path])
            self.removed.inc()
            return
        _, text, area, safe = min(nodes)
        data = text.encode()
        if on_disk and storage.read_bytes(path) == data:
            self.unchanged.inc()
        else:
            storage.write_atomic(path, data)
            self.written.inc()
        self.duplicates.inc(len(nodes) - 1)
        yield area, safe, len(nodes)


class Tally(beam.CombineFn):
    """The positions' (area, safe, copies) into one :class:`dataset_stats.StatsAccumulator`."""

    def create_accumulator(self):
        return dataset_stats.StatsAccumulator()

    def add_input(self, accumulator, position):
        accumulator.add(*position)
        return accumulator

    def merge_accumulators(self, accumulators):
        merged = dataset_stats.StatsAccumulator()
        for accumulator in accumulators:
            merged.merge(accumulator)
        return merged

    def extract_output(self, accumulator):
        return accumulator


def write_reports(stats, layout: Layout, settings: TreeSettings, read: int, expanded: int,
                  dead: list[dict]) -> None:
    rejected = len({row["problem"] for row in dead})
    report = dataset_stats.summary(
        stats, {"read": read, "expanded": expanded, "rejected": rejected}, settings.to_dict())
    storage.write_atomic(layout.file("stats.json"), dataset_stats.to_json(report).encode())
    storage.write_atomic(layout.file("stats.md"), dataset_stats.to_markdown(report).encode())
    lines = sorted(json.dumps(row, sort_keys=True) + "\n" for row in dead)
    storage.write_atomic(layout.file("dead-letter.jsonl"), "".join(lines).encode())


def build_pipeline(pipeline, problems: list[tuple[str, str]], layout: Layout, settings: TreeSettings,
                   existing_names: list[str]) -> None:
    """Add the steps to ``pipeline``; ``existing_names`` are the subproblem files already there."""
    planned = (pipeline
               | "Problems" >> beam.Create(problems)
               | "Plan" >> beam.ParDo(Plan(layout, settings)).with_outputs(
                   "finished", "grown", "dead", main="work"))
    expanded = (planned.work
                | "Spread" >> beam.Reshuffle()
                | "Expand" >> beam.ParDo(Expand(layout, settings)).with_outputs("dead", main="grown"))
    finished = ((planned.grown, expanded.grown)
                | "Sides" >> beam.Flatten()
                | "ByProblem" >> beam.GroupByKey()
                | "Finish" >> beam.FlatMap(finish, layout))
    replayed = ((planned.finished, finished)
                | "Trees" >> beam.Flatten()
                | "Replay" >> beam.ParDo(Replay(layout)).with_outputs("expanded", "dead", main="nodes"))
    on_disk = pipeline | "FilesOnDisk" >> beam.Create([(name, None) for name in existing_names])
    stats = ({"nodes": replayed.nodes, "on_disk": on_disk}
             | "ByPosition" >> beam.CoGroupByKey()
             | "WritePositions" >> beam.ParDo(WritePosition(layout))
             | "Tally" >> beam.CombineGlobally(Tally()))
    read = pipeline | "CountProblems" >> beam.Create([len(problems)])
    expanded_count = replayed.expanded | "CountExpanded" >> beam.combiners.Count.Globally()
    dead = ((planned.dead, expanded.dead, replayed.dead)
            | "DeadLetters" >> beam.Flatten()
            | "AllDead" >> beam.combiners.ToList())
    (stats
     | "WriteReports" >> beam.Map(write_reports, layout, settings, read=AsSingleton(read),
                                  expanded=AsSingleton(expanded_count), dead=AsSingleton(dead)))


def sides_bar(layout: Layout, problems: list[tuple[str, str]]) -> PolledBar:
    """A bar of sides grown or rejected, from the files a local run writes (any Direct mode)."""
    def done() -> int:
        partial = storage.join(layout.out, "partial")
        trees = storage.join(layout.out, "trees")
        rejected = storage.join(layout.out, "rejected")
        return (len(storage.list_files(partial, ".sgf"))
                + 2 * len(storage.list_files(trees, ".sgf"))
                + sum(rejected_sides.recall(path) is not None for path in storage.list_files(rejected, ".json")))

    start = done()
    total = sum(0 if storage.exists(layout.tree(pid)) else
                sum(not storage.exists(layout.partial(pid, side))
                    and rejected_sides.recall(layout.rejected(pid, side)) is None for side in SIDES)
                for pid, _ in problems)
    return PolledBar(lambda: done() - start, total, desc="solve-all sides", unit="side")


def record_settings(layout: Layout, settings: TreeSettings) -> None:
    """Write ``settings.json``, or check that the one there holds ``settings``: a folder is
    resumed only with the settings it was grown with."""
    path = layout.file("settings.json")
    if storage.exists(path):
        if json.loads(storage.read_bytes(path)) != settings.to_dict():
            raise CommandError(f"{layout.out} holds trees grown with other settings ({path}); "
                               "use another --out folder or remove it")
        return
    storage.write_atomic(path, (json.dumps(settings.to_dict(), indent=2, sort_keys=True) + "\n").encode())


def forget_removed_problems(layout: Layout, problem_ids: set[str]) -> None:
    """Drop the trees and rejections of problems no longer in --problems (their positions go in step 4)."""
    stale = []
    for folder, extension, suffixes in (
            ("trees", ".sgf", (".sgf",)),
            ("partial", ".sgf", tuple(f".{side}.sgf" for side in SIDES)),
            ("rejected", ".json", tuple(f".{side}.json" for side in SIDES))):
        root = layout.file(folder)
        for path in storage.list_files(root, extension):
            relative = path[len(root):].lstrip("/")
            if not any(relative.removesuffix(suffix) in problem_ids
                       for suffix in suffixes if relative.endswith(suffix)):
                stale.append(path)
    storage.delete_if_present(stale)


def remove_empty_folders(folder: str) -> None:
    """Finished problems leave folders of partial/ empty, and expanded sides folders of rejected/: drop those."""
    for path, _, _ in sorted(os.walk(folder), reverse=True):
        if not os.listdir(path):
            os.rmdir(path)


def run_solve_all(problems_dir: str, out: str, settings: TreeSettings, beam_options=(),
                  progress: bool = True) -> dict:
    """Run the pipeline; returns the stats report, the Beam counters (None where the runner
    reports none), the seconds and the dead letters."""
    layout = Layout(out)
    problems = problem_files(problems_dir)
    forget_removed_problems(layout, {problem_id for problem_id, _ in problems})
    existing_names = [path.rsplit("/", 1)[-1]
                      for path in storage.list_files(layout.file("subproblems"), ".sgf")]
    pipeline = running.new_pipeline(beam_options, preload="pipeline.beam.preload.solve_all")
    build_pipeline(pipeline, problems, layout, settings, existing_names)
    started = time.perf_counter()
    bar = sides_bar(layout, problems) if progress and running.runs_locally(pipeline, out) else None
    result = running.run_to_end(pipeline, bar)
    seconds = time.perf_counter() - started
    if not storage.is_remote(out):
        remove_empty_folders(layout.file("partial"))
        remove_empty_folders(layout.file("rejected"))
    report = json.loads(storage.read_bytes(layout.file("stats.json")))
    counters = running.counters(result, NAMESPACE, runner=running.runner_name(pipeline))
    return {"report": report, "counters": counters, "seconds": seconds,
            "dead": [json.loads(line) for line in
                     storage.read_bytes(layout.file("dead-letter.jsonl")).decode().splitlines()]}
