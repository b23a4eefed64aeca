"""``tsumego validate``: re-solve a random sample of subproblems and compare labels.

``tsumego validate DIR [--sample 100] [--seed 0] [--algo dfs|dfpn]
[--max-nodes N]`` takes ``DIR/subproblems/*.sgf`` (or ``DIR/*.sgf`` when DIR
is a folder of subproblems), picks ``--sample`` files at random (the seed
fixes which), and solves each from scratch with the side in ``PL`` moving
first.  The default algorithm is the one ``solve-all`` did *not* use (read
from ``DIR/settings.json``; df-pn when unknown), so a bug shared by one search
and the tree builder cannot hide.  It checks:

- ``TS``: the target's status agrees with the label;
- ``TR``: PL's recorded winning move still wins when played (PL must win).

Each disagreement gets one line; the last line counts sampled = agreed +
disagreed + unknown (the node budget ran out) + rejected (unreadable files).
The exit code is 1 when anything disagrees or nothing could be checked.
"""
from __future__ import annotations

import json
import random
import sys
from dataclasses import dataclass
from pathlib import Path

from pipeline.budgets import VALIDATE_MAX_NODES
from pipeline.errors import CommandError
from pipeline.expand import KO_MASTER
from solver import ALGORITHMS, ProblemError, Solver, parse_problem
from solver.board import color_letter


@dataclass(frozen=True)
class Check:
    """The outcome for one file: ``verdict`` is agree, disagree, unknown or rejected."""

    file: str
    verdict: str
    detail: str = ""


def subproblem_files(folder: Path) -> list[Path]:
    inner = folder / "subproblems"
    return sorted((inner if inner.is_dir() else folder).glob("*.sgf"))


def default_algorithm(folder: Path) -> str:
    """The search solve-all did not use, so the two labels come from different code.

    ``settings.json`` is in the solve-all folder, which is ``folder`` or, when
    ``folder`` is its ``subproblems/``, the one above.
    """
    for settings in (folder / "settings.json", folder.parent / "settings.json"):
        try:
            used = json.loads(settings.read_text())["algo"]
        except (OSError, ValueError, KeyError):
            continue
        return "dfpn" if used == "dfs" else "dfs"
    return "dfpn"


def check_file(path: Path, algo: str, max_nodes: int) -> Check:
    from pipeline.formats.subproblem import parse_subproblem

    try:
        data = path.read_bytes()
    except OSError as exc:
        return Check(str(path), "rejected", f"cannot read the file ({exc.strerror})")
    try:
        sub = parse_subproblem(data, str(path))
        if sub.safe is None:
            raise ProblemError(str(path), "no TS[] label")
        solver = Solver(parse_problem(data, str(path)))
    except ProblemError as exc:
        return Check(str(path), "rejected", exc.reason)
    verdict = solver.solve(sub.to_play, ko_master=KO_MASTER, algo=algo, max_nodes=max_nodes)
    if verdict.winner is None:
        return Check(str(path), "unknown", f"{algo} ran out of its {max_nodes} node budget")
    found_safe = verdict.status == "safe"
    if found_safe != sub.safe:
        return Check(str(path), "disagree",
                     f"TS[{int(sub.safe)}] but {algo} finds the target {verdict.status} "
                     f"with {color_letter(sub.to_play)} to play")
    # The reader refuses a TR where TS says PL loses, and TS agrees with the search: PL wins here.
    if sub.best_move is not None:
        if not solver.play(*sub.best_move, sub.to_play):
            return Check(str(path), "disagree", "the TR move is illegal")
        if solver.target_captured():
            return Check(str(path), "agree")  # the TR move captures the target: it wins outright
        reply = solver.solve(3 - sub.to_play, ko_master=KO_MASTER, algo=algo, max_nodes=max_nodes)
        if reply.winner is None:
            return Check(str(path), "unknown", f"{algo} ran out of its {max_nodes} node budget after TR")
        if reply.winner != sub.to_play:
            return Check(str(path), "disagree", f"the TR move does not win for {color_letter(sub.to_play)}")
    return Check(str(path), "agree")


def validate(files: list[Path], sample: int, seed: int, algo: str, max_nodes: int,
             progress: bool = True) -> list[Check]:
    from pipeline.progress import progress_bar

    chosen = random.Random(seed).sample(files, min(sample, len(files)))
    return [check_file(path, algo, max_nodes)
            for path in progress_bar(sorted(chosen), desc="validate", unit="file", disable=not progress)]


def cmd_validate(args) -> int:
    folder = Path(args.dir)
    if not folder.is_dir():
        raise CommandError(f"{folder}: not a folder")
    files = subproblem_files(folder)
    algo = args.algo or default_algorithm(folder)
    checks = validate(files, args.sample, args.seed, algo, args.max_nodes, progress=not args.no_progress)
    counts = {verdict: 0 for verdict in ("agree", "disagree", "unknown", "rejected")}
    for check in checks:
        counts[check.verdict] += 1
        if check.verdict == "disagree":
            print(f"disagree: {check.file}: {check.detail}")
        elif check.verdict != "agree":
            print(f"error: {check.file}: {check.detail}", file=sys.stderr)
    print(f"validate: sampled {len(checks)} of {len(files)} with {algo} (seed {args.seed}) = "
          f"agreed {counts['agree']} + disagreed {counts['disagree']} + unknown {counts['unknown']} "
          f"+ rejected {counts['rejected']}")
    return 1 if counts["disagree"] or not counts["agree"] else 0


def register(commands) -> None:
    parser = commands.add_parser("validate", help="re-solve a random sample of subproblems, compare labels")
    parser.add_argument("dir", metavar="DIR", help="solve-all output folder, or a folder of subproblems")
    parser.add_argument("--sample", type=int, default=100, help="how many files to check (default 100)")
    parser.add_argument("--seed", type=int, default=0, help="which files are picked")
    parser.add_argument("--algo", choices=ALGORITHMS,
                        help="search to use (default: the one solve-all did not use)")
    parser.add_argument("--max-nodes", type=int, default=VALIDATE_MAX_NODES,
                        help="node budget per solve (0: none)")
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")
    parser.set_defaults(run=cmd_validate)
