"""The search's levers combined, at equal CPU, on book readings enclose left unsettled.

    python -m bench.combination_reach [--readings FILE.jsonl...] [--areas 17-23] [--sample 40]
                                      [--seed 0] [--seconds 10] [--max-nodes N] [--ways dfs,dfpn,...]
                                      [--workers 2] [--out RESULTS.jsonl] [--tables-from RESULTS.jsonl]
                                      [--peer SECONDS] [--lines proof|dfs]

Each reading (the format of ``bench/draws``) is framed again as its run framed it and
solved with its side to play first, the attacker as ko master, once each *way*: a
search and the knowledge it runs with (``WAYS``).  Every solve is stopped at
``--seconds`` of its thread's CPU time (:mod:`solver.time_limit`), the guide's
evaluations included, and at ``--max-nodes`` if given (to compare the CPU of ways that
take the same nodes); a fresh solver (empty tables) each time.

Prints, by search area, the readings each way settled; and against the first way, over
the readings both settled, the geometric mean and quartiles of the node and CPU
ratios.  Where two ways settle a reading their winners must agree (exit code 1 if not).
``--out`` keeps a line per solve, so that a table can be made again without solving.
``--peer S`` then puts every reading a way settled to tsumego.js (:mod:`bench.peer`), S
seconds at most each; a disagreement also exits 1.  ``--lines`` reads the main line of each
settled reading as ``tsumego solve`` does (until the solve's time ends, or
``LINE_GRACE_SECONDS`` after it), on df-pn's proof (``proof``) or by DFS alone (``dfs``, as
before :mod:`solver.proof_copy`), and prints how the lines ended.
"""
from __future__ import annotations

import bench.single_thread_blas   # noqa: F401  (before numpy loads its BLAS)

import argparse   # noqa: E402
import json   # noqa: E402
import math   # noqa: E402
import multiprocessing   # noqa: E402
import random   # noqa: E402
import sys   # noqa: E402
import time   # noqa: E402
from pathlib import Path   # noqa: E402

import numpy as np   # noqa: E402

from bench.common import BUCKETS   # noqa: E402
from bench.reach_bench import DEFAULT_READINGS, REPOSITORY, read_readings   # noqa: E402
from pipeline.enclose.question import TIME_ALGO, TIME_OPTIONS   # noqa: E402
from pipeline.enclose.reframe import framed_reading   # noqa: E402
from pipeline.group_answer import solve   # noqa: E402
from pipeline.markdown import markdown_table   # noqa: E402
from pipeline.solve_command import LINE_GRACE_SECONDS   # noqa: E402
from pipeline.time_search import TIME_SEARCH, time_search_options   # noqa: E402
from pipeline.warm_up import warm_up_solver   # noqa: E402
from solver import Solver, load_problem   # noqa: E402
from solver.dfpn import EYE_SPACE_COST, LIBERTY_COST, RACE_LEAD_COST, RANK_COST, SIMULATION_NODES   # noqa: E402

# way: (search, the Solver's options, guide: None, "shipped" or "other" (--other-guide));
# the race count and sibling hints are on in all
WAYS = {
    "dfs": ("dfs", {}, None),
    "dfpn": ("dfpn", {}, None),
    "dfpn-lead": ("dfpn", {"race_lead_cost": RACE_LEAD_COST}, None),
    "dfs-guide": ("dfs", {}, "shipped"),
    "dfpn-guide": ("dfpn", {}, "shipped"),
    "dfpn-guide-lead": ("dfpn", {"race_lead_cost": RACE_LEAD_COST}, "shipped"),
    "dfpn-sim": ("dfpn", {"simulation_nodes": SIMULATION_NODES}, None),
    "dfpn-sim-no-eye-room": ("dfpn", {"simulation_nodes": SIMULATION_NODES, "eye_room": ()}, None),
    "dfpn-sim-64": ("dfpn", {"simulation_nodes": SIMULATION_NODES // 4}, None),
    "dfpn-sim-1k": ("dfpn", {"simulation_nodes": SIMULATION_NODES * 4}, None),
    "dfpn-sim-4k": ("dfpn", {"simulation_nodes": SIMULATION_NODES * 16}, None),
    "dfpn-sim-rank256": ("dfpn", {"simulation_nodes": SIMULATION_NODES, "first_numbers": (256, LIBERTY_COST)}, None),
    "dfpn-sim-rank4k": ("dfpn", {"simulation_nodes": SIMULATION_NODES, "first_numbers": (4096, LIBERTY_COST)}, None),
    "dfpn-sim-lib16": ("dfpn", {"simulation_nodes": SIMULATION_NODES, "first_numbers": (RANK_COST, 16)}, None),
    "dfpn-sim-lib256": ("dfpn", {"simulation_nodes": SIMULATION_NODES, "first_numbers": (RANK_COST, 256)}, None),
    "dfpn-sim-eye": ("dfpn", {"simulation_nodes": SIMULATION_NODES, "eye_space_cost": EYE_SPACE_COST}, None),
    "dfpn-sim-eye256": ("dfpn", {"simulation_nodes": SIMULATION_NODES, "eye_space_cost": EYE_SPACE_COST * 4}, None),
    "dfpn-sim-eye1k": ("dfpn", {"simulation_nodes": SIMULATION_NODES, "eye_space_cost": EYE_SPACE_COST * 16},
                       None),
    "dfpn-sim-eye-zone-prune": ("dfpn", {"simulation_nodes": SIMULATION_NODES, "eye_space_cost": EYE_SPACE_COST,
                                         "zone_pruning": True}, None),
    "dfpn-sim-eye-zone-table-prune": ("dfpn", {"simulation_nodes": SIMULATION_NODES,
                                               "eye_space_cost": EYE_SPACE_COST, "zone_table": True,
                                               "zone_pruning": True}, None),
    "dfpn-sim-uncached": ("dfpn", {"simulation_nodes": SIMULATION_NODES, "generation_cache_mb": 0}, None),
    "dfs-uncached": ("dfs", {"generation_cache_mb": 0}, None),
    "dfpn-guide-sim": ("dfpn", {"simulation_nodes": SIMULATION_NODES}, "shipped"),
    "dfs-guide-other": ("dfs", {}, "other"),
    "dfpn-guide-other": ("dfpn", {}, "other"),
    "dfs-zones": ("dfs", {"relevance_zones": True}, None),
    "dfs-zone-table": ("dfs", {"zone_table": True}, None),
    "dfs-zone-prune": ("dfs", {"zone_pruning": True}, None),
    "dfs-zone-table-prune": ("dfs", {"zone_table": True, "zone_pruning": True}, None),
    "dfpn-zone-table-prune": ("dfpn", {"zone_table": True, "zone_pruning": True}, None),
    "dfpn-sim-zone-prune": ("dfpn", {"simulation_nodes": SIMULATION_NODES, "zone_pruning": True}, None),
    "dfpn-sim-zone-table": ("dfpn", {"simulation_nodes": SIMULATION_NODES, "zone_table": True}, None),
    "dfpn-sim-zone-table-prune": ("dfpn", {"simulation_nodes": SIMULATION_NODES, "zone_table": True,
                                           "zone_pruning": True}, None),
    # the search enclose --seconds spends its time with, whatever its settings become
    "time-pass": (TIME_ALGO, dict(TIME_OPTIONS), None),
    # solve --seconds's: DFS for a share of the time, then the time pass's search
    "time-search": (TIME_SEARCH, time_search_options(), None),
}

_guides: dict = {}   # each worker's networks, loaded once


def _load_guide(solver: Solver, which: str, other: str | None):
    """The shipped network's guide or the ``other`` packed file's, loaded and run once on
    ``solver``'s position (its first evaluation loads the feature planes' machine code:
    seconds, not counted)."""
    if which not in _guides:
        from model.guide import Guide
        from model.shipped import shipped_packed_file
        if which == "other" and not other:
            raise SystemExit("combination_reach: a way guided by another network needs --other-guide FILE")
        _guides[which] = Guide.load(other if which == "other" else shipped_packed_file())
        _guides[which].fill(solver, np.zeros_like(solver.prior))
    _guides[which].cache.clear()
    return _guides[which]


# a small own problem, solved every way before the workers fork
WARM_UP_PROBLEM = REPOSITORY / "sgf-problems/approach/stop-the-cutting-stone-live.sgf"


def warm_up(ways: list[str]) -> None:
    """Load each way's compiled search before the workers fork, so that no timed solve pays
    for it (a worker's first df-pn solve once took 3.9 CPU s for nodes that take 1.1)."""
    problem = load_problem(WARM_UP_PROBLEM)
    for way in ways:
        algo, options, _ = WAYS[way]
        for search in (("dfs", TIME_ALGO) if algo == TIME_SEARCH else (algo,)):
            Solver(problem, **options).solve(problem.to_play, algo=search, max_nodes=10_000)
    warm_up_solver()   # df-pn's proof copied for the lines too (solver.proof_copy)


def solve_ways(job: tuple) -> list[dict]:
    """Solve one reading every way; a line per solve."""
    row, ways, seconds, max_nodes, other, lines_on = job
    found = framed_reading(REPOSITORY / row["file"], row)
    if isinstance(found, str):
        return [{"file": row["file"], "target": row["target"], "left_out": found}]
    problem, area = found
    lines = []
    for way in ways:
        algo, options, guided = WAYS[way]
        solver = Solver(problem, **options)
        guide = _load_guide(solver, guided, other) if guided else None
        started = time.thread_time()
        verdict = solve(solver, problem.to_play, "attacker", algo=algo, guide=guide, cpu_until=started + seconds,
                        max_nodes=max_nodes)
        lines.append({"file": row["file"], "target": row["target"], "area": area, "way": way,
                      "winner": verdict.winner, "nodes": verdict.nodes,
                      "cpu": round(time.thread_time() - started, 3)})
        if lines_on and verdict.winner is not None:
            line_started = time.thread_time()
            line = solver.principal_variation(problem.to_play, "attacker", dfpn_proof=lines_on == "proof",
                                              cpu_until=max(started + seconds, line_started + LINE_GRACE_SECONDS))
            lines[-1].update(line_ended=line.ended, line_moves=len(line.moves),
                             line_cpu=round(time.thread_time() - line_started, 3))
    return lines


def quartiles(values: list[float]) -> str:
    values = sorted(values)
    at = [values[min(len(values) - 1, int(q * len(values)))] for q in (0.25, 0.5, 0.75)]
    return " / ".join(f"{v:.3g}" for v in at)


def tables(lines: list[dict], ways: list[str]) -> list[str]:
    """The settled counts by area and the ratios against the first way, as markdown lines."""
    by_reading: dict[tuple, dict] = {}
    for line in lines:
        if "way" in line:
            by_reading.setdefault((line["file"], line["target"]), {})[line["way"]] = line
    out = []
    rows = []
    for label, lo, hi in BUCKETS + (("all", 0, 10**6),):
        inside = [r for r in by_reading.values() if lo <= next(iter(r.values()))["area"] <= hi]
        if inside:
            rows.append([label, len(inside)] + [sum(r[w]["winner"] is not None for r in inside if w in r)
                                                 for w in ways])
    out += markdown_table(["empty points", "readings"] + ways, rows, align="lr" + "r" * len(ways))
    base = ways[0]
    rows = []
    for way in ways[1:]:
        both = [r for r in by_reading.values() if base in r and way in r
                and r[base]["winner"] is not None and r[way]["winner"] is not None]
        if not both:
            rows.append([way, 0, "-", "-", "-", "-"])
            continue
        nodes = [r[way]["nodes"] / r[base]["nodes"] for r in both]
        cpu = [max(r[way]["cpu"], 1e-3) / max(r[base]["cpu"], 1e-3) for r in both]
        rows.append([way, len(both), f"{math.exp(sum(map(math.log, nodes)) / len(nodes)):.3f}", quartiles(nodes),
                     f"{math.exp(sum(map(math.log, cpu)) / len(cpu)):.3f}", quartiles(cpu)])
    out += ["", f"against {base}, on the readings both settled:", ""]
    out += markdown_table(["way", "both settled", "nodes (geometric mean)", "nodes (quartiles)",
                           "CPU (geometric mean)", "CPU (quartiles)"], rows, align="lrrrrr")
    return out


def peer_check(lines: list[dict], readings: list[str], seconds: float) -> tuple[list[str], int]:
    """Each reading some way settled, put to tsumego.js (the attacker ko master, the same side
    first, at most ``seconds`` a reading): a line per disagreement and the tally, and the
    number of disagreements."""
    import tempfile

    from bench.peer import tsumego_js
    from bench.peer.cut import cut_sgf

    settled: dict[tuple, int] = {}
    for line in lines:
        if line.get("winner") is not None:
            settled[line["file"], line["target"]] = line["winner"]
    rows = {(r["file"], r["target"]): r for r in read_readings(readings)}
    asked, not_asked, out = [], [], []
    with tempfile.TemporaryDirectory() as folder:
        for i, ((file, target), winner) in enumerate(sorted(settled.items())):
            found = framed_reading(REPOSITORY / file, rows[file, target])
            if isinstance(found, str):   # the book file unreadable now
                not_asked.append(f"{file} {target}: not asked: {found}")
                continue
            problem = found[0]
            sgf, why = cut_sgf(problem.stones, problem.to_play, problem.target)
            if sgf is None:
                not_asked.append(f"{file} {target}: not asked: {why}")
                continue
            path = Path(folder) / f"reading{i}.sgf"
            path.write_text(sgf)
            asked.append((file, target, path, "safe" if winner == problem.defender else "unsafe"))
        answers = tsumego_js.solve_files([a[2] for a in asked], ko_master="attacker", file_timeout=seconds)
    agreed = unfinished = disagreed = 0
    for (file, target, _, ours), row in zip(asked, answers):
        if "status" not in row:
            unfinished += 1
        elif row["status"] == ours:
            agreed += 1
        else:
            disagreed += 1
            out.append(f"{file} {target}: tsumego.js {row['status']}, the solver {ours}")
    out.append(f"tsumego.js on the {len(settled)} readings settled: agreed {agreed} + disagreed {disagreed} "
               f"+ over {seconds:g} s or failed {unfinished} + not asked {len(not_asked)}")
    return not_asked + out, disagreed


def line_table(lines: list[dict], ways: list[str]) -> list[str]:
    """Each way's settled readings by how their main lines ended, and the lines' CPU seconds."""
    endings = sorted({line["line_ended"] for line in lines if "line_ended" in line})
    rows = []
    for way in ways:
        read = [line for line in lines if line.get("way") == way and "line_ended" in line]
        cpu = sorted(line["line_cpu"] for line in read)
        rows.append([way, len(read)] + [sum(line["line_ended"] == e for line in read) for e in endings]
                    + [f"{cpu[len(cpu) // 2]:.2f}" if cpu else "-"])
    return ["", "main lines of the settled readings, by how they ended:",
            *markdown_table(["way", "settled"] + endings + ["median line CPU s"], rows)]


def disagreements(lines: list[dict]) -> list[str]:
    winners: dict[tuple, set] = {}
    for line in lines:
        if line.get("winner") is not None:
            winners.setdefault((line["file"], line["target"]), set()).add(line["winner"])
    return [f"{file} {target}: winners differ" for (file, target), w in winners.items() if len(w) > 1]


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--readings", nargs="+", default=[str(DEFAULT_READINGS)], metavar="FILE.jsonl")
    parser.add_argument("--areas", default="17-23", metavar="LOW-HIGH")
    parser.add_argument("--sample", type=int, default=40, help="this many readings drawn (0: all)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--seconds", type=float, default=10.0, help="CPU seconds a solve may take")
    parser.add_argument("--max-nodes", type=int, default=0, help="nodes a solve may take (0: no bound)")
    parser.add_argument("--ways", help="comma-separated, of " + ", ".join(WAYS)
                        + " (default: all; with --tables-from, those the file holds)")
    parser.add_argument("--other-guide", metavar="FILE.tsq",
                        help="the packed network the ways named *-guide-other are guided by (say an earlier one)")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--out", help="a line per solve (JSON)")
    parser.add_argument("--tables-from", metavar="RESULTS.jsonl", help="print the tables of an earlier --out")
    parser.add_argument("--peer", type=float, metavar="SECONDS",
                        help="then put each settled reading to tsumego.js, at most SECONDS each")
    parser.add_argument("--lines", choices=("proof", "dfs"),
                        help="read each settled reading's main line, on df-pn's proof or by DFS alone")
    args = parser.parse_args(argv)
    lines = []
    if args.tables_from:
        with open(args.tables_from) as f:
            lines = [json.loads(line) for line in f]
    held = {line.get("way") for line in lines}
    ways = [w for w in args.ways.split(",") if w] if args.ways else [w for w in WAYS if w in held or not lines]
    if not ways or any(w not in WAYS for w in ways):
        parser.error(f"--ways: a comma-separated list of {', '.join(WAYS)}")
    if not args.tables_from:
        low, _, high = args.areas.partition("-")
        readings = [r for r in read_readings(args.readings) if int(low) <= r["area"] <= int(high)]
        if args.sample:
            readings = random.Random(args.seed).sample(readings, min(args.sample, len(readings)))
        print(f"{len(readings)} readings of {args.areas} empty points, {', '.join(ways)}, "
              f"{args.seconds:g} CPU s" + (f", {args.max_nodes:,} nodes" if args.max_nodes else "") + " a solve",
              flush=True)
        lines = []
        out = open(args.out, "w") if args.out else None
        warm_up(ways)
        with multiprocessing.get_context("fork").Pool(args.workers) as pool:
            jobs = [(r, ways, args.seconds, args.max_nodes, args.other_guide, args.lines) for r in readings]
            for done in pool.imap_unordered(solve_ways, jobs):
                lines += done
                for line in done:
                    print(json.dumps(line), flush=True)
                    if out:
                        print(json.dumps(line), file=out, flush=True)
        if out:
            out.close()
    print(*tables(lines, ways), sep="\n")
    if any("line_ended" in line for line in lines):
        print(*line_table(lines, ways), sep="\n")
    differ = disagreements(lines)
    print(f"readings whose winners differ: {len(differ)}", *differ, sep="\n  ")
    peer_differ = 0
    if args.peer:
        report, peer_differ = peer_check(lines, args.readings, args.peer)
        print(*report, sep="\n")
    return 1 if differ or peer_differ else 0


if __name__ == "__main__":
    sys.exit(main())
