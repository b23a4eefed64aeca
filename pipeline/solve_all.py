"""``tsumego solve-all``: every problem into labelled subproblem SGFs, as a Beam pipeline.

``tsumego solve-all --problems DIR --out DIR [--max-depth 20] [--min-area 7]
[--max-nodes N] [--algo dfs|dfpn] [BEAM_OPTION...]`` expands each problem of
``--problems`` (every ``*.sgf`` below it; its id is the path relative to the
folder, without ``.sgf``) into two trees of status-changing moves, one per side
moving first (:mod:`pipeline.expand`), and writes under ``--out``:

- ``subproblems/<hash>.sgf``: one file per distinct position of all the trees
  (:mod:`pipeline.formats.subproblem`; ``GN`` is the problem id);
- ``trees/<problem-id>.sgf``: the problem's two trees (:mod:`pipeline.formats.solution_tree`);
- ``stats.md`` and ``stats.json``: safe and unsafe positions by area size
  (:mod:`pipeline.dataset_stats`), problems read = expanded + rejected;
- ``dead-letter.jsonl``: one ``{"problem", "file", "side", "reason"}`` per
  rejected problem (an unreadable file, an open wall, a solve over the node budget);
- ``settings.json``: the settings the trees were grown with.

Any option it does not know (``--runner``, ``--direct_num_workers 2``,
``--direct_running_mode multi_processing``, ``--project``, ...) goes to Beam
unchanged, as do the words after ``--``; the DirectRunner is the default.

The stages, and why they are cut this way:

1. *Plan*, per problem: the problem is read and checked; if its tree file
   exists and was grown from this very position, it is finished (its tree goes
   straight to stage 4); otherwise one work item is made per side whose tree
   is not already in ``partial/``.  An edited problem is thus grown again.
2. *Expand*, per (problem, side), after a reshuffle so the items spread over
   the workers: grow the tree and write it to
   ``partial/<problem-id>.<side>.sgf``.  This is where the time goes.
3. *Finish*, per problem: with both sides grown, write the tree file (the
   "done" marker, written last) and drop the partial files.  An interrupted
   run thus keeps every finished side; a rerun skips it.
4. *Positions*, per distinct position: every tree node is replayed from the
   tree files and grouped by its content-hash name; the node of the smallest
   (problem id, place in the tree) gives the file, so the files never depend
   on which worker finished first.  A file is written only when missing or
   different, so reruns rewrite nothing, and the files of positions no tree
   holds any more (a problem was edited or removed) are deleted: the folder
   always matches a fresh run on the current problems.
5. *Reports*: stats and dead letters, sorted, written whole.

Every file is written atomically (:mod:`pipeline.beam.storage`).
"""
from __future__ import annotations

import json
import os
import sys
import time
from typing import Any, Tuple

from pipeline.beam.options import pass_unknown_options_to_beam
from solver import ALGORITHMS, DEFAULT_MAX_AREA

SIDES = ("attacker", "defender")
NAMESPACE = "solve-all"
DEFAULT_MAX_NODES = 2_000_000


def settings_of(args) -> dict:
    from pipeline.expand import KO_MASTER, TREE_RULES

    return {"max_depth": args.max_depth, "min_area": args.min_area, "max_nodes": args.max_nodes,
            "max_area": args.max_area, "algo": args.algo, "ko_master": KO_MASTER,
            "tree_rules": TREE_RULES}


def problem_files(problems: str) -> list[tuple[str, str]]:
    """(problem id, path) of every ``*.sgf`` below ``problems``, sorted by id."""
    from pipeline.beam import storage

    root = problems.rstrip("/")
    if "://" not in root:
        root = os.path.abspath(root)
    pairs = []
    for path in storage.list_files(root, ".sgf"):
        problem_id = path[len(root):].lstrip("/").removesuffix(".sgf")
        pairs.append((problem_id, path))
    return sorted(pairs)


class Layout:
    """Where everything goes under ``--out``."""

    def __init__(self, out: str):
        from pipeline.beam import storage

        # Workers may not share the driver's working folder.
        self.out = out if "://" in out else os.path.abspath(out)
        self.join = storage.join

    def tree(self, problem_id: str) -> str:
        return self.join(self.out, "trees", problem_id + ".sgf")

    def partial(self, problem_id: str, side: str) -> str:
        return self.join(self.out, "partial", f"{problem_id}.{side}.sgf")

    def subproblem(self, name: str) -> str:
        return self.join(self.out, "subproblems", name)

    def file(self, name: str) -> str:
        return self.join(self.out, name)


def build_pipeline(pipeline, problems: list[tuple[str, str]], layout: Layout, settings: dict,
                   existing_names: list[str]):
    """Add the stages to ``pipeline``; ``existing_names`` are the subproblem files already there."""
    import apache_beam as beam
    from apache_beam.metrics import Metrics
    from apache_beam.pvalue import AsSingleton, TaggedOutput

    from pipeline import dataset_stats
    from pipeline.beam import storage
    from pipeline.expand import NodeBudgetExceeded, expand_tree
    from pipeline.formats.solution_tree import root_positions, subproblems_of, tree_text
    from pipeline.formats.subproblem import Subproblem
    from solver import ProblemError, parse_problem, search_area

    def counter(name):
        return Metrics.counter(NAMESPACE, name)

    def dead_letter(problem_id, path, side, reason):
        return TaggedOutput("dead", {"problem": problem_id, "file": path, "side": side, "reason": reason})

    # The main outputs' types, which Beam cannot infer beside tagged outputs.
    keyed = beam.typehints.with_output_types(Tuple[str, Any])

    def to_play(problem, side):
        return problem.attacker if side == "attacker" else problem.defender

    def grown_from(data, problem, sides, path):
        """Whether a tree file holds the trees of this very problem (it may have been edited)."""
        expected = [Subproblem(size=problem.size, stones=problem.stones, target=problem.target,
                               to_play=to_play(problem, side)).position_text() for side in sides]
        try:
            return root_positions(data, path) == expected
        except ProblemError:
            return False

    @beam.typehints.with_output_types(Tuple[str, str, str, bytes])
    class Plan(beam.DoFn):
        def __init__(self):
            self.read = counter("problems_read")
            self.finished_before = counter("problems_finished_before")
            self.sides_resumed = counter("sides_resumed")
            self.outdated = counter("trees_outdated")

        def process(self, item):
            problem_id, path = item
            self.read.inc()
            try:
                data = storage.read_bytes(path)
                problem = parse_problem(data, path, require_to_play=False)
                search_area(problem, settings["max_area"])
            except (ProblemError, OSError) as exc:
                yield dead_letter(problem_id, path, None, getattr(exc, "reason", str(exc)))
                return
            tree = layout.tree(problem_id)
            if storage.exists(tree):
                grown = storage.read_bytes(tree)
                if grown_from(grown, problem, SIDES, tree):
                    self.finished_before.inc()
                    yield TaggedOutput("finished", (problem_id, grown))
                    return
                self.outdated.inc()
            for side in SIDES:
                partial = layout.partial(problem_id, side)
                if storage.exists(partial):
                    grown = storage.read_bytes(partial)
                    if grown_from(grown, problem, [side], partial):
                        self.sides_resumed.inc()
                        yield TaggedOutput("grown", (problem_id, (side, grown)))
                        continue
                    self.outdated.inc()
                yield problem_id, path, side, data

    @keyed
    class Expand(beam.DoFn):
        def __init__(self):
            self.expanded = counter("sides_expanded")
            self.rejected = counter("sides_rejected")
            self.solves = counter("solves")
            self.search_nodes = counter("search_nodes")
            self.tree_nodes = counter("tree_nodes_grown")
            self.area_changed = counter("moves_dropped_area_changed")
            self.label_changed = counter("moves_dropped_label_changed")

        def process(self, item):
            problem_id, path, side, data = item
            problem = parse_problem(data, path, require_to_play=False)
            try:
                expansion = expand_tree(problem, to_play(problem, side), max_depth=settings["max_depth"],
                                        min_area=settings["min_area"], max_nodes=settings["max_nodes"],
                                        algo=settings["algo"], max_area=settings["max_area"])
            except NodeBudgetExceeded as exc:
                self.rejected.inc()
                self.solves.inc(exc.solves)
                self.search_nodes.inc(exc.search_nodes)
                yield dead_letter(problem_id, path, side, str(exc))
                return
            text = tree_text(expansion, problem_id).encode()
            storage.write_atomic(layout.partial(problem_id, side), text)
            self.expanded.inc()
            self.solves.inc(expansion.solves)
            self.search_nodes.inc(expansion.search_nodes)
            self.tree_nodes.inc(expansion.root.count())
            self.area_changed.inc(expansion.area_changed)
            self.label_changed.inc(expansion.label_changed)
            yield problem_id, (side, text)

    def finish(item):
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

        def process(self, item):
            problem_id, data = item
            path = layout.tree(problem_id)
            try:
                nodes = list(subproblems_of(data, path))
            except ProblemError as exc:
                yield dead_letter(problem_id, path, None, exc.reason)
                return
            yield TaggedOutput("expanded", problem_id)
            for index, sub in enumerate(nodes):
                yield sub.name(), ((problem_id, index), sub.to_sgf(), sub.available_moves, sub.safe)

    class WritePosition(beam.DoFn):
        """One file per position; files of positions no tree has any more are removed."""

        def __init__(self):
            self.written = counter("subproblems_written")
            self.unchanged = counter("subproblems_unchanged")
            self.removed = counter("subproblems_removed")
            self.duplicates = counter("duplicate_tree_nodes")

        def process(self, item):
            name, found = item
            nodes, on_disk = list(found["nodes"]), list(found["on_disk"])
            path = layout.subproblem(name)
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

    def write_reports(stats, read, expanded, dead):
        rejected = len({row["problem"] for row in dead})
        report = dataset_stats.summary(
            stats, {"read": read, "expanded": expanded, "rejected": rejected}, settings)
        storage.write_atomic(layout.file("stats.json"), dataset_stats.to_json(report).encode())
        storage.write_atomic(layout.file("stats.md"), dataset_stats.to_markdown(report).encode())
        lines = sorted(json.dumps(row, sort_keys=True) + "\n" for row in dead)
        storage.write_atomic(layout.file("dead-letter.jsonl"), "".join(lines).encode())

    planned = (pipeline
               | "Problems" >> beam.Create(problems)
               | "Plan" >> beam.ParDo(Plan()).with_outputs("finished", "grown", "dead", main="work"))
    expanded = (planned.work
                | "Spread" >> beam.Reshuffle()
                | "Expand" >> beam.ParDo(Expand()).with_outputs("dead", main="grown"))
    finished = ((planned.grown, expanded.grown)
                | "Sides" >> beam.Flatten()
                | "ByProblem" >> beam.GroupByKey()
                | "Finish" >> beam.FlatMap(finish))
    replayed = ((planned.finished, finished)
                | "Trees" >> beam.Flatten()
                | "Replay" >> beam.ParDo(Replay()).with_outputs("expanded", "dead", main="nodes"))
    on_disk = pipeline | "FilesOnDisk" >> beam.Create([(name, None) for name in existing_names])
    stats = ({"nodes": replayed.nodes, "on_disk": on_disk}
             | "ByPosition" >> beam.CoGroupByKey()
             | "WritePositions" >> beam.ParDo(WritePosition())
             | "Tally" >> beam.CombineGlobally(Tally()))
    read = pipeline | "CountProblems" >> beam.Create([len(problems)])
    expanded_count = replayed.expanded | "CountExpanded" >> beam.combiners.Count.Globally()
    dead = ((planned.dead, expanded.dead, replayed.dead)
            | "DeadLetters" >> beam.Flatten()
            | "AllDead" >> beam.combiners.ToList())
    (stats
     | "WriteReports" >> beam.Map(write_reports, read=AsSingleton(read),
                                  expanded=AsSingleton(expanded_count), dead=AsSingleton(dead)))


def _sides_bar(layout: Layout, problems: list[tuple[str, str]]):
    """A bar of sides grown, from the files a local run writes (any Direct mode)."""
    from pipeline.beam import storage
    from pipeline.progress import PolledBar

    def done() -> int:
        partial = storage.join(layout.out, "partial")
        trees = storage.join(layout.out, "trees")
        return (len(storage.list_files(partial, ".sgf"))
                + 2 * len(storage.list_files(trees, ".sgf")))

    start = done()
    total = sum(0 if storage.exists(layout.tree(pid)) else
                sum(not storage.exists(layout.partial(pid, side)) for side in SIDES)
                for pid, _ in problems)
    return PolledBar(lambda: done() - start, total, desc="solve-all sides", unit="side")


def _counters(result) -> dict:
    from apache_beam.metrics.metric import MetricsFilter

    query = result.metrics().query(MetricsFilter().with_namespace(NAMESPACE))
    counts: dict[str, int] = {}
    for found in query["counters"]:
        name = found.key.metric.name
        counts[name] = counts.get(name, 0) + found.committed
    return counts


def _check_settings(layout: Layout, settings: dict) -> str | None:
    """The reason ``--out`` cannot be resumed with ``settings``, or None (and record them)."""
    from pipeline.beam import storage

    path = layout.file("settings.json")
    text = json.dumps(settings, indent=2, sort_keys=True) + "\n"
    if storage.exists(path):
        if json.loads(storage.read_bytes(path)) != settings:
            return (f"{layout.out} holds trees grown with other settings ({path}); "
                    "use another --out folder or remove it")
        return None
    storage.write_atomic(path, text.encode())
    return None


def _forget_removed_problems(layout: Layout, problem_ids: set[str]) -> None:
    """Drop the trees of problems no longer in --problems (their positions go in stage 4)."""
    from pipeline.beam import storage

    stale = []
    for folder, suffixes in (("trees", (".sgf",)), ("partial", tuple(f".{side}.sgf" for side in SIDES))):
        root = layout.file(folder)
        for path in storage.list_files(root, ".sgf"):
            relative = path[len(root):].lstrip("/")
            if not any(relative.removesuffix(suffix) in problem_ids
                       for suffix in suffixes if relative.endswith(suffix)):
                stale.append(path)
    storage.delete_if_present(stale)


def _remove_empty_folders(folder: str) -> None:
    """Finished problems leave their partial/ folders empty: drop those."""
    for path, _, _ in sorted(os.walk(folder), reverse=True):
        if not os.listdir(path):
            os.rmdir(path)


def run_solve_all(problems_dir: str, out: str, settings: dict, beam_options=(),
                  progress: bool = True) -> dict:
    """Run the pipeline; returns the stats report and the Beam counters."""
    import apache_beam as beam
    from apache_beam.options.pipeline_options import PipelineOptions, StandardOptions

    from pipeline.beam import storage

    layout = Layout(out)
    problems = problem_files(problems_dir)
    _forget_removed_problems(layout, {problem_id for problem_id, _ in problems})
    existing_names = [path.rsplit("/", 1)[-1]
                      for path in storage.list_files(layout.file("subproblems"), ".sgf")]
    options = PipelineOptions(list(beam_options))
    local = (options.view_as(StandardOptions).runner in (None, "DirectRunner", "direct")
             and "://" not in out)
    pipeline = beam.Pipeline(options=options)
    build_pipeline(pipeline, problems, layout, settings, existing_names)
    started = time.perf_counter()
    if progress and local:
        with _sides_bar(layout, problems):
            result = pipeline.run()
            result.wait_until_finish()
    else:
        result = pipeline.run()
        result.wait_until_finish()
    seconds = time.perf_counter() - started
    if "://" not in out:
        _remove_empty_folders(layout.file("partial"))
    report = json.loads(storage.read_bytes(layout.file("stats.json")))
    return {"report": report, "counters": _counters(result), "seconds": seconds,
            "dead": [json.loads(line) for line in
                     storage.read_bytes(layout.file("dead-letter.jsonl")).decode().splitlines()]}


def cmd_solve_all(args) -> int:
    if args.max_depth < 0 or args.min_area < 0 or args.max_nodes < 0:
        print("error: --max-depth, --min-area and --max-nodes must not be negative", file=sys.stderr)
        return 2
    if "://" not in args.problems and not os.path.isdir(args.problems):
        print(f"error: {args.problems}: not a folder of problem SGF files", file=sys.stderr)
        return 1
    settings = settings_of(args)
    layout = Layout(args.out)
    if "://" not in args.out:
        os.makedirs(args.out, exist_ok=True)
    reason = _check_settings(layout, settings)
    if reason:
        print(f"error: {reason}", file=sys.stderr)
        return 1
    outcome = run_solve_all(args.problems, args.out, settings, args.beam_options,
                            progress=not args.no_progress)
    for row in outcome["dead"]:
        side = f" ({row['side']} first)" if row["side"] else ""
        print(f"error: {row['file']}{side}: {row['reason']}", file=sys.stderr)
    report, counters, seconds = outcome["report"], outcome["counters"], outcome["seconds"]
    problems, subs = report["problems"], report["subproblems"]
    print(f"solve-all: problems read {problems['read']} = expanded {problems['expanded']} "
          f"({counters.get('problems_finished_before', 0)} in earlier runs) + rejected {problems['rejected']}; "
          f"subproblems {subs['distinct']} distinct ({subs['safe']} safe, {subs['unsafe']} unsafe; "
          f"{counters.get('subproblems_written', 0)} written, {counters.get('subproblems_unchanged', 0)} "
          f"unchanged) from {subs['tree_nodes']} tree nodes ({subs['duplicates']} duplicates); "
          f"{counters.get('solves', 0)} solves, {counters.get('search_nodes', 0)} search nodes, "
          f"{counters.get('moves_dropped_area_changed', 0)} moves dropped as they change the area and "
          f"{counters.get('moves_dropped_label_changed', 0)} as the position read back has another label; "
          f"{seconds:.1f} s, {subs['distinct'] / max(seconds, 1e-9):.1f} subproblems/s -> {args.out}")
    if problems["read"] == 0:
        print(f"error: {args.problems}: no *.sgf files", file=sys.stderr)
        return 1
    return 0


def register(commands) -> None:
    parser = commands.add_parser(
        "solve-all", allow_abbrev=False,
        help="expand every problem into labelled subproblem SGFs (Beam)",
        description="Options it does not know, and words after '--', go to Beam "
                    "(e.g. --direct_num_workers 2 --direct_running_mode multi_processing).")
    pass_unknown_options_to_beam(parser)
    parser.add_argument("--problems", required=True, metavar="DIR", help="folder of problem SGF files")
    parser.add_argument("--out", required=True, metavar="DIR",
                        help="output folder (subproblems/, trees/, stats, dead letters)")
    parser.add_argument("--max-depth", type=int, default=20, help="moves from the problem (default 20)")
    parser.add_argument("--min-area", type=int, default=7,
                        help="expand only positions with at least this many empty area points (default 7)")
    parser.add_argument("--max-nodes", type=int, default=DEFAULT_MAX_NODES,
                        help="node budget per solve; a problem needing more is rejected (0: none)")
    parser.add_argument("--max-area", type=int, default=DEFAULT_MAX_AREA,
                        help="reject problems whose search area has more empty points")
    parser.add_argument("--algo", choices=ALGORITHMS, default="dfs", help="search that labels the nodes")
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")
    parser.set_defaults(run=cmd_solve_all)
