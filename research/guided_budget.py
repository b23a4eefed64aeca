"""Unguided, guided and fading guides on the same cases, at node budgets: what each costs.

    python -m research.guided_budget --draws FILE.jsonl... --guide PATH [--fade 0,300000] [--weights 2,5]
                                  [--budgets 6000000,60000000] [--algo dfs] [--workers 2] --log DIR

The cases are the readings of an earlier ``enclose`` run listed in the ``--draws``
files (lines of its enclose.jsonl: file, target, area, and optionally the ``draw``
that chose it, as in ``bench/draws/``), framed again as that run reported them
(:func:`pipeline.enclose.reframe.framed_reading`), each with either side moving first.
Each case is solved in-process by every variant: unguided, and guided by the
packed network ``--guide`` with each ``--fade`` value (0: the prior keeps its
weight; N: after n nodes it counts N / (N + n) of it) and each of the prior's
``--weights`` (by default the guide's own), the guide's cache emptied before
each solve.  A guided variant is named by its fade and weight, so a log reused
with other settings reuses its unguided solves only.  Every variant first gets
the first budget; at each later budget, the variants a case ran out on are run
again if some variant settled that case, at any budget in the log (so that a
case one way solved is completed the other way, without spending the large
budget on cases nobody settles; a log that reuses an earlier run's solves may
hold a settle at a larger budget only).

Prints, per draw and over all: the cases each variant settled, and on the
cases of 1 s or more unguided settled both unguided and by a guided variant
(then, with several guided variants, on those settled by every variant), the
guided variant's nodes and seconds against the unguided ones (totals and the
median case's ratio).  Winners must agree wherever two variants settle a case (exit code 1
otherwise).  Results go line by line to ``--log`` (one jsonl per worker), and a
rerun with the same log skips the solves already there, so a stopped run
resumes.  BLAS runs single-threaded, as in ``bench.guided_bench``; the workers
are forked after the searches are compiled, one set a budget, and take the
cases one at a time, the largest search areas first.
"""
from __future__ import annotations

import bench.single_thread_blas   # noqa: F401  (before numpy loads its BLAS)

import argparse   # noqa: E402
import json   # noqa: E402
import multiprocessing   # noqa: E402
import statistics   # noqa: E402
import sys   # noqa: E402
import time   # noqa: E402
from pathlib import Path   # noqa: E402

from pipeline.enclose.reframe import framed_reading   # noqa: E402
from pipeline.markdown import markdown_table   # noqa: E402
from solver import ALGORITHMS, Solver   # noqa: E402
from solver.board import color_letter   # noqa: E402
from solver.movegen import MAX_PRIOR_WEIGHT   # noqa: E402

UNGUIDED = "unguided"
# the cases the ratios are taken on: this many seconds or more unguided (issue 26's measure)
SLOW_SECONDS = 1.0


def variant_name(fade: int, weight: float) -> str:
    return ("guided" if fade == 0 else f"fade {fade:,}") + f", weight {weight:g}"


def read_cases(draws: Path) -> tuple[list[tuple], list[str]]:
    """The cases (draw, name, area, side, problem) of the readings listed in ``draws``, and a
    line for each reading that could not be framed again."""
    cases, left_out = [], []
    for number, line in enumerate(draws.read_text().splitlines(), 1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
            path = Path(row["file"])
        except (ValueError, KeyError, TypeError) as exc:
            left_out.append(f"{draws}:{number}: not a reading ({exc})")
            continue
        if not path.is_file():
            left_out.append(f"{path}: left out: no such file (paths are read from the current folder)")
            continue
        found = framed_reading(path, row)
        if isinstance(found, str):
            left_out.append(f"{path}: left out: {found}")
            continue
        problem, area = found
        for side in (problem.to_play, 3 - problem.to_play):
            cases.append((row.get("draw", 0), str(path), area, side, problem))
    return cases, left_out


def read_log(folder: Path) -> dict:
    done = {}
    for path in sorted(folder.glob("solves-*.jsonl")):
        for line in path.read_text().splitlines():
            if line.strip():
                row = json.loads(line)
                done[(row["file"], row["side"], row["algo"], row["variant"], row["budget"])] = row
    return done


def due(done: dict, key: tuple, variants: list[str], budgets: list[int], stage: int) -> bool:
    """Whether variant ``key[3]`` is to be run at ``budgets[stage]`` for the case ``key[:3]``."""
    if key + (budgets[stage],) in done:
        return False
    if stage == 0:
        return True
    before = budgets[stage - 1]
    mine = done.get(key + (before,))
    if mine is None or mine["winner"] is not None:
        return False
    # settled by another variant at any budget: a log holding solves of an earlier run (its
    # unguided ones reused, say) may have settled the case only at a larger budget
    case = key[:3]
    return any((done.get(case + (v, b)) or {}).get("winner") is not None for v in variants for b in budgets)


def run_worker(cases: list[tuple], queue, done: dict, guides: dict, algorithms: list[str], budgets: list[int],
               stage: int, log: Path) -> None:
    """Solves what is due at ``budgets[stage]`` for the cases whose indices it takes from ``queue``
    (None: no more), given the solves ``done`` before this stage, appending each solve to ``log``."""
    variants = list(guides)
    with log.open("a") as out:
        for index in iter(queue.get, None):
            draw, file, area, side, problem = cases[index]
            for algo in algorithms:
                for variant, guide in guides.items():
                    key = (file, side, algo, variant)
                    if not due(done, key, variants, budgets, stage):
                        continue
                    if guide is not None:
                        guide.cache.clear()
                    verdict = Solver(problem).solve(side, algo=algo, max_nodes=budgets[stage], guide=guide)
                    row = dict(draw=draw, file=file, area=area, side=side, algo=algo, variant=variant,
                               budget=budgets[stage], winner=verdict.winner, nodes=verdict.nodes,
                               seconds=round(verdict.seconds, 4))
                    done[key + (budgets[stage],)] = row
                    out.write(json.dumps(row) + "\n")
                    out.flush()
                    settled = "ran out" if verdict.winner is None else f"{color_letter(verdict.winner)} wins"
                    print(f"{file} {color_letter(side)} first, {algo}, {variant}, budget {budgets[stage]:,}: "
                          f"{settled}, {verdict.nodes:,} nodes, {verdict.seconds:.2f} s", flush=True)


def run_stage(cases: list[tuple], guides: dict, algorithms: list[str], budgets: list[int], stage: int,
              workers: int, log: Path) -> list[str]:
    """One budget for every case, ``workers`` forked processes taking the cases one at a time,
    the largest search areas first (so that the longest solves do not come last); a line for each
    worker that failed."""
    done = read_log(log)   # every worker's solves of the earlier stages, read once for all
    context = multiprocessing.get_context("fork")
    queue = context.Queue()
    for index in sorted(range(len(cases)), key=lambda i: -cases[i][2]):
        queue.put(index)
    for _ in range(workers):
        queue.put(None)
    processes = [context.Process(target=run_worker,
                                 args=(cases, queue, done, guides, algorithms, budgets, stage,
                                       log / f"solves-{k}.jsonl"))
                 for k in range(workers)]
    for process in processes:
        process.start()
    for process in processes:
        process.join()
    return [f"worker {k} at {budgets[stage]:,} nodes (exit code {process.exitcode})"
            for k, process in enumerate(processes) if process.exitcode != 0]


def final(done: dict, key: tuple, budgets: list[int]) -> dict | None:
    """The solve of the largest budget run for ``key``."""
    for budget in reversed(budgets):
        if key + (budget,) in done:
            return done[key + (budget,)]
    return None


def ratios(solves: list[dict], variant: str) -> list:
    """n, the unguided and the variant's nodes, their ratio, the median case's ratio, the same for
    seconds: the table's columns for ``solves`` (each {variant: solve})."""
    plain_nodes = sum(s[UNGUIDED]["nodes"] for s in solves)
    plain_seconds = sum(s[UNGUIDED]["seconds"] for s in solves)
    nodes = sum(s[variant]["nodes"] for s in solves)
    seconds = sum(s[variant]["seconds"] for s in solves)
    median = statistics.median(s[variant]["nodes"] / s[UNGUIDED]["nodes"] for s in solves)
    return [len(solves), f"{plain_nodes:,}", f"{nodes:,}", f"{nodes / plain_nodes:.3f}", f"{median:.3f}",
            f"{plain_seconds:.1f}", f"{seconds:.1f}", f"{seconds / plain_seconds:.3f}"]


def report(cases: list[tuple], done: dict, variants: list[str], algorithms: list[str],
           budgets: list[int]) -> list[str]:
    """Prints the tables; returns the winners that differ."""
    differ = []
    for algo in algorithms:
        results = []   # (draw, {variant: final solve})
        for draw, file, area, side, problem in cases:
            solves = {v: final(done, (file, side, algo, v), budgets) for v in variants}
            if any(s is None for s in solves.values()):
                continue   # not run yet: the run was stopped
            results.append((draw, solves))
            winners = {v: s["winner"] for v, s in solves.items() if s["winner"] is not None}
            if len(set(winners.values())) > 1:
                differ.append(f"{file} {color_letter(side)} first, {algo}: " + ", ".join(
                    f"{v} {color_letter(w)}" for v, w in winners.items()))
        draws = sorted({d for d, _ in results})
        groups = [(f"draw {d}", [r for r in results if r[0] == d]) for d in draws] + [("all", results)]
        rows = [[label, len(subset)] + [sum(s[v]["winner"] is not None for _, s in subset) for v in variants]
                for label, subset in groups]
        print(f"\n{algo}: cases (a problem, a side first) settled within {budgets[-1]:,} nodes "
              f"({len(results)} of {len(cases)} run)\n")
        print(*markdown_table(["cases", "run"] + variants, rows, align="l" + "r" * (len(variants) + 1)), sep="\n")
        for common in (False, True) if len(variants) > 2 else (False,):
            rows = []
            for label, subset in groups:
                for v in variants[1:]:
                    pair = list(variants) if common else [UNGUIDED, v]
                    slow = [s for _, s in subset if all(s[x]["winner"] is not None for x in pair)
                            and s[UNGUIDED]["seconds"] >= SLOW_SECONDS]
                    if slow:
                        rows.append([label, v] + ratios(slow, v))
            which = "every variant" if common else "unguided and the variant"
            print(f"\n{algo}: the cases of {SLOW_SECONDS:g} s or more unguided settled by {which}\n")
            if not rows:
                print("none")
                continue
            print(*markdown_table(["cases", "variant", "n", "nodes unguided", "nodes", "ratio", "median case",
                                   "seconds unguided", "seconds", "ratio"], rows, align="llrrrrrrrr"), sep="\n")
    return differ


def main(argv=None) -> int:
    from model.guide import Guide

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--draws", required=True, type=Path, nargs="+",
                        help="readings of an earlier enclose run (jsonl files, as in bench/draws)")
    parser.add_argument("--guide", required=True, help="packed network (.tsq) or model folder")
    parser.add_argument("--fade", default="0", help="comma-separated fade values, a guided variant each")
    parser.add_argument("--weights", default="",
                        help="comma-separated weights of the prior, a guided variant each with each fade "
                             f"(above 0, at most {MAX_PRIOR_WEIGHT:g}; default: the guide's own)")
    parser.add_argument("--budgets", default="6000000,60000000", help="comma-separated node budgets, rising")
    parser.add_argument("--algo", default="dfs", help="comma-separated, of " + ", ".join(ALGORITHMS))
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--log", type=Path, required=True,
                        help="folder of the solves' jsonl (the same folder again resumes)")
    args = parser.parse_args(argv)
    algorithms = [a for a in args.algo.split(",") if a]
    if not algorithms or any(a not in ALGORITHMS for a in algorithms):
        parser.error(f"--algo: a comma-separated list of {', '.join(ALGORITHMS)}")
    try:
        fades = [int(x) for x in args.fade.split(",") if x]
        budgets = [int(x) for x in args.budgets.split(",") if x]
    except ValueError:
        parser.error("--fade and --budgets: comma-separated whole numbers")
    if not fades or min(fades) < 0 or len(set(fades)) < len(fades):
        parser.error("--fade: distinct values, 0 or more")
    if not budgets or budgets != sorted(set(budgets)) or budgets[0] <= 0:
        parser.error("--budgets: rising positive numbers")
    if args.workers < 1:
        parser.error("--workers: 1 or more")
    try:
        weights = [float(x) for x in args.weights.split(",") if x]
    except ValueError:
        parser.error("--weights: comma-separated numbers")
    if any(not 0 < w <= MAX_PRIOR_WEIGHT for w in weights) or len(set(weights)) < len(weights):
        parser.error(f"--weights: distinct values above 0, at most {MAX_PRIOR_WEIGHT:g}")

    cases, left_out, seen = [], [], set()
    for draws in args.draws:
        more, more_left_out = read_cases(draws)
        left_out += more_left_out
        # a problem in two draws is one pair of cases (the log knows a case by file and side)
        files = {case[1] for case in more}
        left_out += [f"{name}: left out of {draws}: listed in an earlier draw" for name in sorted(files & seen)]
        cases += [case for case in more if case[1] not in seen]
        seen |= files
    print(*left_out, sep="\n")
    readings = len(cases) // 2
    print(f"{readings + len(left_out)} readings in {', '.join(map(str, args.draws))}: {readings} framed again "
          f"({len(cases)} cases), {len(left_out)} left out")
    if not cases:
        return 1

    guides = {UNGUIDED: None}
    loaded = Guide.load(args.guide)   # the network, read once; a guide (and its cache) a variant
    for fade in fades:
        for weight in weights or [loaded.weight]:
            guide = Guide(loaded.net, source=loaded.source, weight=weight, fade_nodes=fade)
            guides[variant_name(fade, weight)] = guide
    started = time.perf_counter()
    first = cases[0][4]
    for algo in algorithms:   # compile and load once, so that every worker inherits them
        for guide in guides.values():
            Solver(first).solve(first.to_play, algo=algo, max_nodes=1000, guide=guide)
    print(f"JIT compilation and the first evaluation: {time.perf_counter() - started:.2f} s (excluded)")

    args.log.mkdir(parents=True, exist_ok=True)
    failed = []
    for stage in range(len(budgets)):   # the first budget for every case before any larger one
        failed += run_stage(cases, guides, algorithms, budgets, stage, args.workers, args.log)
    if failed:
        print(f"{', '.join(failed)} failed: the report covers the solves logged", file=sys.stderr)

    differ = report(cases, read_log(args.log), list(guides), algorithms, budgets)
    print(f"\nwinners that differ where two variants settled a case: {len(differ)}", *differ, sep="\n  ")
    return 1 if differ or failed else 0


if __name__ == "__main__":
    sys.exit(main())
