"""The positions the page shows and asks about: read from SGF, sent as rows of text, answered.

A board travels as JSON: ``{"size": 9, "stones": ["..X.O....", ...], "to_play": "B",
"target": "C7", "frame": false}``, rows from the top, ``X`` black, ``O`` white,
``.`` empty, points in Go coordinates.  Everything read from the page is
checked as ``tsumego solve`` checks a file: the board is written as a problem
SGF and read back by :func:`solver.parse_problem`, so a bad position gets the
command line's one-line reason.  With ``frame`` the group is framed as
``tsumego solve --group`` frames a game's group (:mod:`pipeline.game_group`).
"""
from __future__ import annotations

import argparse
import math

import numpy as np

from pipeline.formats.sgf_writer import game_tree, node, stone_points
from pipeline.formats.subproblem import Subproblem
from pipeline.game_group import GameGroup, GamePosition, game_position, position_group
from pipeline import solve_command
from pipeline.solve_command import answer_problem, colour_name, line_moves, replayed, stone_rows
from solver import BLACK, EMPTY, WHITE, Problem, ProblemError, parse_problem, sgf_point
from solver.board import MAX_SIZE, color_letter, color_of_letter
from solver.coordinates import go_point, parse_go_point
from solver.problem import read_sgf, reason_of

GLYPHS = ".XO"   # EMPTY, BLACK, WHITE


class BadRequest(ValueError):
    """A request the page should not have sent, in one line naming what is wrong."""


class NotThere(LookupError):
    """A request for something the server does not hold (a position, a size, a view)."""


def read_position(data: bytes, source: str, move: int | None = None) -> dict:
    """The board an uploaded SGF shows: a problem (its root marks a target with ``MA``) as it
    stands, its ``SQ`` stubs placed, Black to play where it has no ``PL`` (``to_play_given``
    false: the page says so); any other file as a game, after ``move`` moves of its main
    line (None: the last), with how many moves it has for the page's slider.  ``source`` names
    the file in every answer about it."""
    game = read_sgf(data, source)
    if game.get_root().has_property("MA"):
        problem = parse_problem(data, source, require_to_play=False)
        return {"source": source, "kind": "problem", "size": problem.size, "stones": stone_rows(problem.stones),
                "to_play": color_letter(problem.to_play or BLACK), "to_play_given": problem.to_play is not None,
                "target": go_point(*problem.target, problem.size), "moves": 0, "move": 0}
    moves = game_position(data, None, source).move_number
    position = game_position(data, move, source)
    return {"source": source, "kind": "game", "size": position.size, "stones": stone_rows(position.stones),
            "to_play": color_letter(position.to_play), "to_play_given": True, "target": None, "moves": moves,
            "move": position.move_number}


def board_stones(board: dict) -> np.ndarray:
    """int8 ``[y, x]`` of the page's ``size`` and ``stones`` rows; BadRequest if they do not fit."""
    size, rows = board.get("size"), board.get("stones")
    if not isinstance(size, int) or not 1 <= size <= MAX_SIZE:
        raise BadRequest(f"board size {size!r} is not a size from 1 to {MAX_SIZE}")
    if (not isinstance(rows, list) or len(rows) != size
            or any(not isinstance(row, str) or len(row) != size or set(row) - set(GLYPHS) for row in rows)):
        raise BadRequest(f"the stones are not {size} rows of {size} of '{GLYPHS}'")
    return np.array([[GLYPHS.index(c) for c in row] for row in rows], dtype=np.int8)


def board_to_play(board: dict) -> int:
    letter = board.get("to_play")
    if letter not in ("B", "W"):
        raise BadRequest(f"the side to play {letter!r} is not B or W")
    return color_of_letter(letter)


def board_problem(board: dict, source: str) -> Problem:
    """The problem the page asks: its board, the group at ``target``, ``to_play`` first; read
    back through the problem reader, so that its faults get the command line's reasons."""
    stones = board_stones(board)
    size = len(stones)
    try:
        x, y = parse_go_point(str(board.get("target")), size)
    except ValueError as exc:
        raise BadRequest(str(exc)) from None
    if stones[y, x] == EMPTY:
        raise BadRequest(f"there is no stone at {go_point(x, y, size)}: click a stone of the group")
    root = node([("SZ", [str(size)]), ("PL", [color_letter(board_to_play(board))]),
                 ("AB", stone_points(stones, BLACK)), ("AW", stone_points(stones, WHITE)),
                 ("MA", [sgf_point(x, y)])])
    return parse_problem(game_tree([root]).encode(), source)


def framed(problem, source: str, max_area: int) -> GameGroup:
    """``solve --group``'s framing of the group of ``problem``, on its board as it stands (none for a
    group pass-alive on the whole board)."""
    position = GamePosition(source=source, size=problem.size, stones=problem.stones,
                            to_play=problem.to_play, move_number=0)
    return position_group(position, go_point(*problem.target, problem.size), source, problem.to_play, max_area)


def solver_settings(settings: dict):
    """``(solve_options, guide, move patterns)`` for :func:`solve_job` in a worker process: the
    options of ``tsumego solve --pv --sgf-out`` at their defaults (the namespace
    :func:`pipeline.solve_command.answer_problem` reads, parsed from no command line), so that an answer here is the command's,
    but for the node budget, the time limit and the largest area (``settings``' ``max_nodes``,
    ``seconds`` and ``max_area``); the guide ``settings`` names, loaded; the kernels warmed up."""
    from model.guide import Guide
    from pipeline.pattern_options import patterns_from_args
    from pipeline.warm_up import warm_up_planes, warm_up_solver

    commands = argparse.ArgumentParser().add_subparsers()
    solve_command.register(commands)
    solve_options = commands.choices["solve"].parse_args(["-"])
    solve_options.max_nodes = settings["max_nodes"]
    solve_options.seconds = settings.get("seconds")   # solve --seconds: the answer's solves stop themselves
    solve_options.max_area = settings.get("max_area", solve_options.max_area)
    solve_options.pv = True
    solve_options.sgf_out = "answer.sgf"   # (not written: its text comes back, for the page to offer)
    guide = Guide.load(settings["guide"]) if settings.get("guide") else None
    warm_up_solver()
    if guide is not None:
        warm_up_planes()
    return solve_options, guide, patterns_from_args(solve_options)


def solve_job(job: dict, solve_options, guide, move_patterns) -> dict:
    """The answer for the board ``job`` (with ``source``): ``tsumego solve --json --pv``'s row
    (with ``frame``, ``solve --group``'s: the frame's stones and its check against a wider
    frame), and for the page the lines the command prints under its answer (``notes``), the
    board after each move of the main line (``steps``), the board solved (``framed``) and the
    answer as SGF (``answer_sgf``, as ``--sgf-out`` writes it); ``{"error": line}`` if it
    cannot be answered."""
    source = job.get("source", "board")
    try:
        problem = board_problem(job, source)
        group = framed(problem, source, solve_options.max_area) if job.get("frame") else None
        if group is not None:
            problem = group.problem
        row, text, answer_sgf = answer_problem(problem, group, source, solve_options, guide, move_patterns)
    except (ProblemError, BadRequest) as exc:
        return {"error": str(exc)}
    except Exception as exc:   # one line all the same, and the worker goes on
        return {"error": f"{source}: {reason_of(exc)}"}
    moves = line_moves(row)
    row["notes"] = [line.strip() for line in text.split("\n  main line:")[0].splitlines()[1:]]
    row["steps"] = [stone_rows(replayed(problem, moves[:k])) for k in range(len(moves) + 1)]
    row["framed"] = stone_rows(problem.stones)
    row["answer_sgf"] = answer_sgf
    return row


def unsettled_words(problem, seconds: float) -> str:
    """A solve stopped at the time limit, in the words of ``tsumego solve``'s out-of-budget verdict."""
    group = f"the {colour_name(problem.defender).lower()} group at {go_point(*problem.target, problem.size)}"
    return f"{colour_name(problem.to_play)} to play: {group} is not settled within the time limit ({seconds:g} s)"


def halo(net, stones: np.ndarray, to_play: int) -> list[list[float | None]]:
    """On every stone, the network's P(its block survives, ``to_play`` moving first), as
    ``tsumego eval --picture`` draws it (:func:`model.evaluate.stone_safety`), but without the 8
    symmetries (eight times the time, for a page that answers at once); None on empty points."""
    from model.evaluate import stone_safety

    ys, xs = np.nonzero(stones)
    if not len(ys):
        return [[None] * len(stones) for _ in stones]
    sub = Subproblem(size=len(stones), stones=stones, target=(int(xs[0]), int(ys[0])), to_play=to_play)
    safety = stone_safety(net, sub)
    return [[None if math.isnan(v) else round(float(v), 4) for v in row] for row in safety]


def network_words(net, problem, unsure_band=None) -> dict:
    """``tsumego eval``'s question and answer for the group of ``problem``: ``{"question",
    "network", "moves"}``, the moves in Go coordinates, best first; unsure within ``unsure_band``
    (the network's, as eval reads it; None: the band of a network without calibration)."""
    from model.answer_words import network_answer, question
    from model.evaluate import EvalOptions, answer_position, unsure_band_of

    sub = Subproblem(size=problem.size, stones=problem.stones, target=problem.target, to_play=problem.to_play)
    band = unsure_band_of(None) if unsure_band is None else tuple(unsure_band)
    options = EvalOptions(top=3, symmetries=True, end_state=False, solve=False, unsure_band=band)
    answer = answer_position(net, problem.source, sub, options)
    return {"question": question(sub), "network": network_answer(answer),
            "moves": [{"move": go_point(*point, problem.size), "p": round(p, 3)}
                      for point, p in answer.verdict.moves]}
