"""Exact solver for enclosed life-and-death problems.

>>> from solver import load_problem, Solver
>>> verdict = Solver(load_problem("sgf-problems/.../x.sgf")).solve(problem.to_play)
"""
from .area import DEFAULT_MAX_AREA, SearchArea, search_area
from .board import BLACK, EMPTY, WHITE, Board
from .problem import Problem, ProblemError, load_problem, parse_problem, sgf_point
from .solver import ALGORITHMS, KO_MASTERS, Solver, Verdict, solve_problem
from .table import DEFAULT_MAX_TABLE_MB

__all__ = [
    "ALGORITHMS", "BLACK", "Board", "DEFAULT_MAX_AREA", "DEFAULT_MAX_TABLE_MB", "EMPTY", "KO_MASTERS", "Problem",
    "ProblemError", "SearchArea", "Solver", "Verdict", "WHITE", "load_problem", "parse_problem",
    "search_area", "sgf_point", "solve_problem",
]
