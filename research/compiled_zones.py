"""The compiled DFS's relevance zones (``Solver(relevance_zones=True)``, solver.zones) checked
and measured.

The checker: a position is solved with zones; positions that agree with it on its root's
zone and differ outside it (stones added, removed or recoloured at random on the
universe's other points, the target block kept, every block left a liberty) are solved
by the plain DFS, which must find the same winner.  The positions checked are the
problem's and those a move or two below it, for each side first and each ko master.

The measurement: how many of the table's exact results have a zone smaller than the
universe, and how large, beside the nodes of the same search without zones (equal:
zones are computed, never used yet).

``python -m research.compiled_zones [--folders F ...] [--max-nodes N] [--variants V] [--pruning]``
(``--pruning``: the zoned search prunes by its null moves' zones, and each position is
also solved by the plain search, which must agree; ``--algo dfpn``: the zones df-pn finds;
``--simulation``: df-pn with Kawano's simulation, whose proofs keep zones too).
``--verdicts --algo A --max-nodes N``: instead, every zoned way's verdicts against the
plain DFS's on the problems, each side first, each ko master, and their nodes.
"""
from __future__ import annotations

import argparse
import random
import statistics
from pathlib import Path

import numpy as np

from solver import Solver, load_problem
from solver.board import BLACK, EMPTY, WHITE, collect_block, count_liberties
from solver.dfpn import SIMULATION_NODES
from solver.dfpn_layout import V_DELTA, V_PHI, V_REPD, VALUE_FIELDS
from solver.rules import INF_DEPTH
from solver.problem import ProblemError

KO_MASTERS = ("attacker", "defender", "none")


def set_point(board, p: int, color: int) -> None:
    """Put ``color`` (EMPTY too) at cell p, keeping the hash."""
    old = int(board.cells[p])
    if old != EMPTY:
        board.hash[0] ^= board.zobrist[old - 1, p]
    board.cells[p] = color
    if color != EMPTY:
        board.hash[0] ^= board.zobrist[color - 1, p]


def legal(board, universe) -> bool:
    """Every block with a stone in ``universe`` has a liberty (a safe wall block counts)."""
    for p in universe:
        if board.cells[p] in (BLACK, WHITE):
            if count_liberties(board.cells, board.safe, board.mark, board.stack, board.meta,
                               board.stride, int(p), 1) == 0:
                return False
    return True


def solver_at(problem, cells, **options) -> Solver:
    solver = Solver(problem, **options)
    for p in np.nonzero(solver.board.cells != cells)[0]:
        set_point(solver.board, int(p), int(cells[p]))
    return solver


def positions(problem, color: int, rng: random.Random, below: int = 3, walks: int = 3,
              walk_length: int = 4) -> list[np.ndarray]:
    """The problem's position, up to ``below`` positions a move below it (``color``'s), and
    the ends of ``walks`` random walks of up to ``walk_length`` moves from it (the sides
    alternating, ``color`` first), the target never captured."""
    solver = Solver(problem)
    found = [solver.board.cells.copy()]
    moves = solver.moves()
    rng.shuffle(moves)
    for x, y in moves:
        if len(found) > below:
            break
        if solver.play(x, y, color):
            if not solver.target_captured():
                found.append(solver.board.cells.copy())
            solver.take_back()
    for _ in range(walks):
        mover = color
        for _step in range(walk_length):
            options = solver.moves()
            rng.shuffle(options)
            for x, y in options:
                if solver.play(x, y, mover):
                    if not solver.target_captured():
                        break
                    solver.take_back()
            else:
                break
            mover = 3 - mover
        if solver.history:
            found.append(solver.board.cells.copy())
        while solver.history:
            solver.take_back()
    return found


def check(problem, color: int, ko_master: str, cells, variants: int, rng: random.Random,
          max_nodes: int, pruning: bool = False, algo: str = "dfs", options: dict | None = None) -> dict:
    """One position: its zone with ``color`` first (found by ``algo``), and the variants
    outside it re-solved by the plain DFS; with ``pruning``, the zoned search prunes
    (``zone_pruning``) and the position itself is re-solved by the plain DFS too; ``options``:
    the zoned solver's others."""
    solver = solver_at(problem, cells, relevance_zones=True, zone_pruning=pruning, **(options or {}))
    verdict = solver.solve(color, ko_master=ko_master, max_nodes=max_nodes, algo=algo)
    row = {"winner": verdict.winner, "zone": None, "variants": 0, "skipped": 0, "mismatches": []}
    if verdict.winner is None:
        return row
    if pruning:
        got = solver_at(problem, cells).solve(color, ko_master=ko_master, max_nodes=max_nodes).winner
        if got is not None and got != verdict.winner:
            row["mismatches"].append((cells, got))
    zone = solver.zone_state.cells_of(len(solver.history))
    row["zone"] = None if zone is None else len(zone)
    if zone is None:
        return row
    board = solver.board
    n = collect_block(board.cells, board.mark, board.stack, board.meta, board.stride, solver.target)
    kept = set(zone) | {int(s) for s in board.stack[:n]}
    outside = [int(p) for p in solver.zone_state.universe if int(p) not in kept]
    for _ in range(variants):
        for _attempt in range(50):
            changed = cells.copy()
            for p in outside:
                if rng.random() < 0.3:
                    changed[p] = rng.choice((EMPTY, BLACK, WHITE))
            plain = solver_at(problem, changed)
            if (changed != cells).any() and legal(plain.board, solver.zone_state.universe):
                break
        else:
            continue
        got = plain.solve(color, ko_master=ko_master, max_nodes=max_nodes).winner
        if got is None:
            row["skipped"] += 1
            continue
        row["variants"] += 1
        if got != verdict.winner:
            row["mismatches"].append((changed, got))
    return row


def table_zones(solver: Solver, algo: str = "dfs") -> tuple[int, list[int]]:
    """The table's exact results, and the sizes of the zones among them smaller than U."""
    table = solver.tables[algo]
    if algo == "dfs":
        exact = (table.keys != 0) & ((table.values[:, 0] & 1) == 1)
        words = table.values[exact, 1:].view(np.uint64)
    else:
        v = table.values
        exact = (table.keys != 0) & ((v[:, V_PHI] == 0) | (v[:, V_DELTA] == 0)) & (v[:, V_REPD] == INF_DEPTH)
        words = v[exact, VALUE_FIELDS:].view(np.uint64) & solver.zone_state.full
    smaller = ~np.all(words == solver.zone_state.full, axis=1)
    return int(exact.sum()), zone_points(words[smaller]).tolist()


def zone_points(words: np.ndarray) -> np.ndarray:
    """The points of each zone: the set bits of each row of uint64 ``words``."""
    return np.unpackbits(np.ascontiguousarray(words).view(np.uint8), axis=1).sum(axis=1)


ZONED_WAYS = {"zones": {"relevance_zones": True}, "pruning": {"zone_pruning": True},
              "table": {"zone_table": True}, "pruning and table": {"zone_pruning": True, "zone_table": True}}


def verdicts(files: list[Path], algo: str, max_nodes: int, options: dict | None = None) -> None:
    """Each problem, each side first, each ko master: the plain DFS's verdict (settled within
    ``max_nodes``) against each zoned way of ``algo`` (ten times the nodes); zones alone
    must take the plain ``algo``'s very nodes.  ``options``: the plain ``algo``'s and every
    zoned way's others.  Prints the counts and node ratios."""
    options = options or {}
    cases, differ, moved = 0, {w: 0 for w in ZONED_WAYS}, 0
    ratios: dict[str, list[float]] = {w: [] for w in ZONED_WAYS}
    for path in files:
        problem = load_problem(path)
        for color in (BLACK, WHITE):
            for ko_master in KO_MASTERS:
                judge = Solver(problem).solve(color, ko_master=ko_master, max_nodes=max_nodes).winner
                plain = Solver(problem, **options).solve(color, ko_master=ko_master, max_nodes=max_nodes,
                                                         algo=algo)
                if judge is None or plain.winner is None:
                    continue
                cases += 1
                for way, zoned in ZONED_WAYS.items():
                    found = Solver(problem, **zoned, **options).solve(color, ko_master=ko_master,
                                                             max_nodes=10 * max_nodes, algo=algo)
                    if found.winner != judge:
                        differ[way] += 1
                        print(f"DIFFER {way} {path} {color} {ko_master}: {judge} vs {found.winner}")
                    moved += way == "zones" and found.nodes != plain.nodes
                    ratios[way].append(found.nodes / plain.nodes)
    print(f"{len(files)} problems, {cases} cases settled by the plain DFS and {algo}; "
          f"zones alone moved the nodes in {moved}")
    print("| way | verdicts differ | nodes against plain (geometric mean) |\n|---|---:|---:|")
    for way in ZONED_WAYS:
        print(f"| {way} | {differ[way]} | {statistics.geometric_mean(ratios[way] or [1.0]):.3f} |")


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--folders", nargs="+", default=["sgf-problems"])
    parser.add_argument("--max-nodes", type=int, default=50_000)
    parser.add_argument("--variants", type=int, default=4)
    parser.add_argument("--every", type=int, default=1, help="take one problem in EVERY")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--pruning", action="store_true",
                        help="the zoned search prunes by its null moves' zones (zone_pruning)")
    parser.add_argument("--algo", choices=("dfs", "dfpn"), default="dfs", help="the zoned search")
    parser.add_argument("--simulation", action="store_true",
                        help="df-pn with Kawano's simulation (SIMULATION_NODES), zoned and plain")
    parser.add_argument("--verdicts", action="store_true",
                        help="no checker: each zoned way's verdicts against the plain DFS's, and its nodes")
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)
    files = sorted(p for folder in args.folders for p in Path(folder).rglob("*.sgf"))[::args.every]
    options = {"simulation_nodes": SIMULATION_NODES} if args.simulation else {}
    if args.simulation and args.algo != "dfpn":
        parser.error("--simulation is df-pn's: give --algo dfpn")
    if args.verdicts:
        verdicts(files, args.algo, args.max_nodes, options)
        return
    totals = {"positions": 0, "zoned": 0, "variants": 0, "skipped": 0, "mismatches": 0}
    exact_all, sizes_all, universe_sizes = 0, [], []
    for path in files:
        try:
            problem = load_problem(path)
        except ProblemError as error:
            print(f"{path}: skipped: {error}")
            continue
        for color in (BLACK, WHITE):
            for ko_master in KO_MASTERS:
                for cells in positions(problem, color, rng):
                    row = check(problem, color, ko_master, cells, args.variants, rng, args.max_nodes,
                                args.pruning, args.algo, options)
                    totals["positions"] += 1
                    totals["zoned"] += row["zone"] is not None
                    totals["variants"] += row["variants"]
                    totals["skipped"] += row["skipped"]
                    totals["mismatches"] += len(row["mismatches"])
                    for changed, got in row["mismatches"]:
                        print(f"MISMATCH {path} {color} {ko_master}: {row['winner']} vs {got}")
            solver = Solver(problem, relevance_zones=True, zone_pruning=args.pruning, **options)
            solver.solve(color, max_nodes=args.max_nodes, algo=args.algo)
            exact, sizes = table_zones(solver, args.algo)
            exact_all += exact
            sizes_all += sizes
            universe_sizes.append(solver.zone_state.universe.size)
    print(f"{len(files)} problems: {totals}")
    print(f"exact results {exact_all}, with a zone smaller than U {len(sizes_all)} "
          f"({len(sizes_all) / max(1, exact_all):.2f}); median zone {statistics.median(sizes_all or [0])} "
          f"points, median universe {statistics.median(universe_sizes or [0])}")


if __name__ == "__main__":
    main()
