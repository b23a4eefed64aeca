"""What the tests of ``tsumego serve`` share: a folder of labelled subproblems, made from the
project's own problems by solving them, and the server's pieces over the shipped network."""
from __future__ import annotations

import functools
from pathlib import Path

from pipeline.formats.subproblem import Subproblem
from solver import BLACK, WHITE, Solver, load_problem

ROOT = Path(__file__).resolve().parents[1]
OWN_PROBLEMS = sorted((ROOT / "sgf-problems").glob("*/*.sgf"))
GAME = ROOT / "docs" / "examples" / "lower-edge-game.sgf"


def labelled_folder(folder: Path, count: int = 8) -> list[Subproblem]:
    """The first ``count`` own problems, each side moving first, solved and written as
    subproblem files (``TS``, ``AS``, ``TR``) into ``folder``."""
    written = []
    for path in OWN_PROBLEMS[:count]:
        problem = load_problem(path)
        solver = Solver(problem)
        for color in (BLACK, WHITE):
            verdict = solver.solve(color)
            sub = Subproblem(size=problem.size, stones=problem.stones, target=problem.target, to_play=color,
                             safe=verdict.status == "safe", available_moves=solver.area_size,
                             best_move=verdict.move if isinstance(verdict.move, tuple) else None,
                             source=f"{path.parent.name}/{path.stem}")
            (folder / sub.name()).write_text(sub.to_sgf())
            written.append(sub)
    return written


def shipped_network():
    from model.evaluate import load_network

    from model.shipped import packed_file

    model = packed_file(None)
    return load_network(model), model


def solve_queue(guide: str, workers: int = 2, seconds: float = 10.0, max_nodes: int = 1_000_000):
    from model.serve.solve_queue import SolveQueue

    return SolveQueue({"max_nodes": max_nodes, "guide": guide}, workers=workers, seconds=seconds)


@functools.lru_cache(maxsize=None)   # (the browser's tests ask what the JSON's tests asked)
def command_line_row(path, *options) -> tuple[dict, str]:
    """``tsumego solve --pv --json --sgf-out``'s row for a file and the SGF it would write, guided
    by the shipped network as the server is."""
    from cli.main import build_parser
    from pipeline.solve_command import solve_one

    args = build_parser().parse_args(["solve", "--pv", "--sgf-out", "answer.sgf", *options, str(path)])
    args.max_nodes = 1_000_000   # the server's budget (what solve's run sets from its default)
    row, _, answer_sgf = solve_one(str(path), args, args.load_guide(args))
    return row, answer_sgf
