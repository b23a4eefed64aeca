"""The sides ``solve-all`` rejected for the node budget or the move cap, remembered across reruns.

Such a rejection is the search's own answer: given the side's position, the
tree settings (a folder is resumed only with its own, ``settings.json``) and
the code that grows the tree, a rerun reaches it again, after as many nodes.
Searched again on every rerun, the reference problems' 78 sides over the node budget
took 8 minutes of each ``make network`` rerun.  So each is kept as
``rejected/<problem-id>.<side>.json``: the side's root position, a
fingerprint of the code, and the reason.  A rerun with the same position and
the same code sends the dead letter again without searching; a changed
problem or a changed search (which may settle the side now: three rejected
sides expanded after one change of the move order, RESULTS.md "The defender
does not fill the target's eye") searches it again.  Other failures, a fault
in one problem's search, are not remembered: they are searched again.
"""
from __future__ import annotations

import ast
import functools
import hashlib
import json
from pathlib import Path

from pipeline.beam import storage

_ROOT = Path(__file__).resolve().parents[1]


def _pipeline_imports(module: Path) -> set[Path]:
    """The files of the ``pipeline`` modules ``module`` imports, itself included, transitively."""
    seen: set[Path] = set()
    todo = [module]
    while todo:
        path = todo.pop()
        if path in seen:
            continue
        seen.add(path)
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                # ``from pipeline.beam import storage`` imports a module by the name it lists
                names = [node.module] + [f"{node.module}.{alias.name}" for alias in node.names]
            else:
                names = []
            # importing a.b.c runs a/__init__.py and a/b/__init__.py too
            prefixes = {".".join(name.split(".")[:k]) for name in names for k in range(1, name.count(".") + 2)}
            for name in prefixes:
                if name.split(".")[0] != "pipeline":
                    continue
                base = _ROOT.joinpath(*name.split("."))
                for candidate in (base.with_suffix(".py"), base / "__init__.py"):
                    if candidate.is_file():
                        todo.append(candidate)
    return seen


def code_files() -> list[Path]:
    """What decides a side's search: the solver's sources and move patterns, and
    ``pipeline/expand.py`` with the project modules it imports."""
    solver = _ROOT / "solver"
    files = set(solver.glob("*.py")) | set(solver.glob("*.npz"))
    files |= _pipeline_imports(_ROOT / "pipeline" / "expand.py")
    return sorted(files)


@functools.lru_cache(maxsize=1)
def code_fingerprint() -> str:
    digest = hashlib.sha256()
    for path in code_files():
        digest.update(str(path.relative_to(_ROOT)).encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()


def remember(path: str, position: str, reason: str) -> None:
    """Keep a rejection at ``path`` (the layout's place for the side)."""
    record = {"position": position, "code": code_fingerprint(), "reason": reason}
    storage.write_atomic(path, (json.dumps(record, sort_keys=True) + "\n").encode())


def recall(path: str, position: str | None = None) -> str | None:
    """The reason kept at ``path`` if it was reached by today's code (on ``position``, when
    given); None when there is none, or it is outdated or unreadable."""
    if not storage.exists(path):
        return None
    try:
        record = json.loads(storage.read_bytes(path))
        current = record["code"] == code_fingerprint() and (position is None or record["position"] == position)
        return str(record["reason"]) if current else None
    except (ValueError, KeyError, TypeError):
        return None
