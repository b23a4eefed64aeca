"""The node budgets' table (pipeline/budgets.py): every command's ``--help`` gives its figure,
and the solver's own defaults, which it cannot read from the table, agree with their rows."""
from __future__ import annotations

import ast
import inspect
import re
from pathlib import Path

import pytest

from cli.main import build_parser
from pipeline.budgets import BUDGETS

ROOT = Path(__file__).resolve().parents[1]
COMMANDS = ["solve", "solve-all", "validate", "enclose", "eval", "serve", "generate"]


def max_nodes_help(command: str) -> str:
    parser = build_parser()
    subparsers = next(action for action in parser._actions if action.dest == "command")
    action = next(action for action in subparsers.choices[command]._actions if "--max-nodes" in action.option_strings)
    return action.help % {"default": action.default}


@pytest.mark.parametrize("command", COMMANDS)
def test_the_help_gives_the_tables_budget(command):
    nodes = BUDGETS[command].nodes
    figures = re.findall(r"\d+(?:,\d{3})*", max_nodes_help(command))
    assert f"{nodes:,}" in figures or str(nodes) in figures


@pytest.mark.parametrize("command", COMMANDS)
def test_every_row_says_where_its_figure_comes_from(command):
    budget = BUDGETS[command]
    assert budget.nodes > 0 and budget.why and (ROOT / budget.where.split()[0]).exists()


def test_the_solvers_own_defaults_agree_with_the_table():
    from solver.main_line import settled_length

    assert inspect.signature(settled_length).parameters["max_nodes"].default == BUDGETS["main line"].nodes
    # pattern training's --max-nodes is an argparse default inside its main(): read it from the source
    tree = ast.parse((ROOT / "solver" / "pattern_training.py").read_text())
    defaults = [keyword.value.value for node in ast.walk(tree) if isinstance(node, ast.Call)
                and node.args and isinstance(node.args[0], ast.Constant) and node.args[0].value == "--max-nodes"
                for keyword in node.keywords if keyword.arg == "default"]
    assert defaults == [BUDGETS["pattern training"].nodes]
