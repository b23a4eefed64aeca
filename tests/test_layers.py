"""The packages' layers: no import cycle, and each layer imports only those below it.

solver  <-  pipeline (planes, formats, beam, stages)  <-  model  <-  cli (the command line)
                                                          bench (beside the cli)  <-  research

No exception: the command line, the one part that sees every layer, is its
own package at the top, so no arrow runs up.

Every import counts, those inside functions too: an import delayed to keep
start-up fast is still a dependency.
"""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("solver", "pipeline", "model", "cli", "bench", "research")


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {module_name(path): path for package in PACKAGES for path in (ROOT / package).rglob("*.py")}


def imported_modules(name: str) -> set[str]:
    """The project modules ``name`` imports (``from a import b`` counts as ``a.b`` when
    ``a.b`` is a module, else as ``a``)."""
    path = MODULES[name]
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = ".".join(package.split(".")[:len(package.split(".")) - node.level + 1]
                                + ([base] if base else []))
            for alias in node.names:
                found.add(f"{base}.{alias.name}" if f"{base}.{alias.name}" in MODULES else base)
    return {module for module in found if module in MODULES}


GRAPH = {name: imported_modules(name) for name in MODULES}


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import cycle as the list of its modules, or None."""
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                return path[path.index(nxt):] + [nxt]
            if nxt not in state and (cycle := visit(nxt)):
                return cycle
        path.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state and (cycle := visit(node)):
            return cycle
    return None


def test_the_finder_sees_a_cycle_and_a_clean_graph():
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b", "c"}, "b": {"c"}, "c": set()}) is None


def test_the_import_graph_is_read():
    assert "pipeline.planes.registry" in GRAPH["pipeline.planes.basic"]
    assert "model.packed" in GRAPH["model.numpy_net"]
    assert {"cli.train", "pipeline.solve_all"} <= GRAPH["cli.main"]


def test_no_import_cycle():
    assert find_cycle(GRAPH) is None


# (importer prefix, imported prefix) pairs that would turn a layer upside down.
FORBIDDEN = [
    ("solver", "pipeline"), ("solver", "model"), ("solver", "cli"), ("solver", "bench"),
    ("solver", "research"),
    ("pipeline", "model"), ("pipeline", "cli"), ("pipeline", "bench"), ("pipeline", "research"),
    ("model", "cli"), ("model", "bench"), ("model", "research"),
    ("cli", "bench"), ("cli", "research"),
    ("bench", "research"),
]


def within(module: str, prefix: str) -> bool:
    return module == prefix or module.startswith(prefix + ".")


@pytest.mark.parametrize("importer, imported", FORBIDDEN)
def test_a_layer_imports_only_the_layers_below(importer, imported):
    wrong = sorted(f"{a} -> {b}" for a, targets in GRAPH.items() for b in targets
                   if within(a, importer) and within(b, imported))
    assert wrong == []


def test_nothing_imports_the_command_line():
    assert sorted(a for a, targets in GRAPH.items() if not within(a, "cli")
                  and any(within(b, "cli") for b in targets)) == []


def namespace_parameters(tree: ast.AST) -> list[str]:
    """The functions of a module that take argparse's namespace: a parameter named ``args``, or
    one annotated ``argparse.Namespace`` (or ``Namespace``)."""
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            continue
        every = node.args.posonlyargs + node.args.args + node.args.kwonlyargs
        every += [arg for arg in (node.args.vararg, node.args.kwarg) if arg is not None]
        for arg in every:
            annotation = ast.unparse(arg.annotation) if arg.annotation is not None else ""
            if arg.arg == "args" or annotation.strip("'\"").endswith("Namespace"):
                found.append(f"{getattr(node, 'name', 'lambda')}({arg.arg}) line {node.lineno}")
    return found


def test_the_finder_sees_a_namespace_parameter():
    assert namespace_parameters(ast.parse("def f(a, args): pass")) == ["f(args) line 1"]
    assert namespace_parameters(ast.parse("def g(o: argparse.Namespace): pass")) == ["g(o) line 1"]
    assert namespace_parameters(ast.parse("def h(options: 'Namespace'): pass")) == ["h(options) line 1"]
    assert namespace_parameters(ast.parse("def k(options: TrainOptions): pass")) == []


def test_no_function_of_the_model_takes_the_command_lines_arguments():
    """The model takes frozen options (model.train_options, EvalOptions, ...); argparse's
    namespace stays in the command line, which builds them."""
    wrong = {name: found for name, path in MODULES.items() if within(name, "model")
             and (found := namespace_parameters(ast.parse(path.read_text(), str(path))))}
    assert wrong == {}


# The longest a function of the packages below may be, in lines (its decorators left out,
# its docstring and comments counted): one that grows past it is split into named steps.
MAX_FUNCTION_LINES = 150
MEASURED_PACKAGES = ("solver", "pipeline", "model", "cli")


def function_lengths(packages=MEASURED_PACKAGES) -> dict[str, int]:
    """Every function's (and method's, nested ones' too) length in lines, by
    ``path:line name``."""
    lengths = {}
    for package in packages:
        for path in sorted((ROOT / package).rglob("*.py")):
            for node in ast.walk(ast.parse(path.read_text(), str(path))):
                if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    where = f"{path.relative_to(ROOT)}:{node.lineno} {node.name}"
                    lengths[where] = node.end_lineno - node.lineno + 1
    return lengths


def test_the_lengths_are_measured():
    lengths = function_lengths()
    assert len(lengths) > 500
    assert any(where.startswith("solver/dfpn.py:") and where.endswith(" _mid") for where in lengths)


def test_no_function_is_too_long():
    too_long = {where: lines for where, lines in function_lengths().items() if lines > MAX_FUNCTION_LINES}
    assert too_long == {}


# The longest a module's docstring may be, in lines: a screen.  What a module does and how
# it is called fits there; why each choice was made, and what it cost, goes to docs/.
MAX_MODULE_DOCSTRING_LINES = 45


def test_every_module_docstring_fits_a_screen():
    too_long = {}
    for package in MEASURED_PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            docstring = ast.get_docstring(ast.parse(path.read_text(), str(path)), clean=False) or ""
            if docstring.count("\n") + 1 > MAX_MODULE_DOCSTRING_LINES:
                too_long[str(path.relative_to(ROOT))] = docstring.count("\n") + 1
    assert too_long == {}


# docs/house.md: the house drawn from the imports, written by ``python tests/test_layers.py``
HOUSE = ROOT / "docs" / "house.md"


def house_drawing(graph: dict[str, set[str]] = GRAPH) -> str:
    """The layers, top first, each with its modules and how many import lines run from it into
    each layer below; an arrow running up or a cycle would show as its own line."""
    def package(module: str) -> str:
        return module.split(".")[0]

    order = ("research", "bench", "cli", "model", "pipeline", "solver")
    edges: dict[tuple[str, str], int] = {}
    for a, targets in graph.items():
        for b in targets:
            if package(a) != package(b):
                edges[package(a), package(b)] = edges.get((package(a), package(b)), 0) + 1
    lines = ["# The house, drawn from the imports", "",
             "Written by `python tests/test_layers.py` from every import of every module (those inside "
             "functions too); `tests/test_layers.py` checks that it is current, that no import runs "
             "up a layer and that there is no cycle.", "",
             "| layer | modules | imports into the layers below (importing module, imported module: pairs) |", "|---|---:|---|"]
    for name in order:
        below = [f"{b} {edges[name, b]}" for b in order[order.index(name) + 1:] if (name, b) in edges]
        count = sum(1 for m in graph if package(m) == name)
        lines.append(f"| `{name}` | {count} | {', '.join(below) or 'none'} |")
    upward = sorted(f"{a} -> {b} ({n})" for (a, b), n in edges.items() if order.index(b) < order.index(a))
    lines += ["", "Imports running up a layer: " + ("; ".join(upward) if upward else "none") + ".",
              f"Import cycles: {'none' if find_cycle(graph) is None else ' -> '.join(find_cycle(graph))}.", ""]
    lines += ["```mermaid", "flowchart TD"]
    lines += [f"    {a} -->|{n}| {b}" for (a, b), n in sorted(edges.items(), key=lambda e: (order.index(e[0][0]),
                                                                                         order.index(e[0][1])))]
    lines += ["```", ""]
    return "\n".join(lines)


def test_the_house_drawing_is_current():
    assert HOUSE.read_text() == house_drawing(), "run: python tests/test_layers.py"


def test_the_drawing_shows_an_arrow_running_up():
    drawing = house_drawing({"solver.a": {"pipeline.b"}, "pipeline.b": set()})
    assert "Imports running up a layer: solver -> pipeline (1)." in drawing


if __name__ == "__main__":
    HOUSE.write_text(house_drawing())
    print(f"wrote {HOUSE.relative_to(ROOT)}")
