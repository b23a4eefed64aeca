"""The web application: the page, and the JSON it asks for.

Every answer is JSON; a request that cannot be answered gets
``{"error": "<one line>"}`` with a 4xx status (the input named, the reason
given, as the command line words it) and the server goes on.  Uploads are
bounded (``MAX_UPLOAD``); solves go to the :class:`SolveQueue`, the network
answers in the request's own thread (a tenth of a second or so).
"""
from __future__ import annotations

from pathlib import Path

from flask import Flask, jsonify, request, send_from_directory
from werkzeug.exceptions import HTTPException, RequestEntityTooLarge

from model.serve import boards
from model.serve.boards import BadRequest, NotThere
from solver import ProblemError
from solver.problem import reason_of

STATIC = Path(__file__).resolve().parent / "static"
# An SGF a player opens is a few kilobytes, a long game's record tens: a megabyte is room
# for any, and bounds what one request makes the server hold.
MAX_UPLOAD = 1 << 20


def create_app(net, solves, research=None, settings: dict | None = None) -> Flask:
    """The application over a loaded network, a :class:`model.serve.solve_queue.SolveQueue`
    (anything with ``solve(job) -> dict``) and, for the research view, a
    :class:`model.serve.research.Research` (None: the view is off); ``settings``, the server's
    own, are told the page (``/api/info``), and their ``unsure_band`` (the network's, as
    ``tsumego eval`` reads it; none: the fixed one) says where its answers are unsure."""
    app = Flask(__name__, static_folder=None)
    app.config["MAX_CONTENT_LENGTH"] = MAX_UPLOAD
    settings = settings or {}

    @app.errorhandler(RequestEntityTooLarge)
    def too_large(_):
        size = f"{request.content_length:,} bytes, " if request.content_length else ""
        return error(f"upload: {size}over the {MAX_UPLOAD // 1024} KB an upload may hold", 413)

    @app.errorhandler(HTTPException)
    def http_error(exc):
        return error(f"{request.path}: {exc.name.lower()}", exc.code)

    @app.errorhandler(Exception)
    def unforeseen(exc):   # one line, never a traceback; the server goes on
        return error(f"{request.path}: {reason_of(exc)}", 500)

    @app.get("/")
    def page():
        return send_from_directory(STATIC, "index.html")

    @app.get("/static/<path:name>")
    def static_file(name):
        return send_from_directory(STATIC, name)   # (refuses any path out of the folder)

    @app.get("/api/info")
    def info():
        return jsonify(research=research is not None, planes=list(net.planes), end_state=bool(net.end_state),
                       max_upload=MAX_UPLOAD, **settings)

    @app.post("/api/position")
    def position():
        body = json_body()
        text, name = body.get("sgf"), str(body.get("name") or "pasted SGF")
        if not isinstance(text, str) or not text.strip():
            raise BadRequest(f"{name}: no SGF text")
        move = body.get("move")
        if move is not None and not isinstance(move, int):
            raise BadRequest(f"{name}: move {move!r} is not a move number")
        return jsonify(boards.read_position(text.encode("utf-8"), name, move))

    @app.post("/api/halo")
    def halo():
        board = json_body()
        stones = boards.board_stones(board)
        answer = {"halo": boards.halo(net, stones, boards.board_to_play(board))}
        if board.get("target"):
            problem = boards.board_problem(board, str(board.get("source") or "board"))
            answer.update(boards.network_words(net, problem, settings.get("unsure_band")))
        return jsonify(answer)

    @app.post("/api/solve")
    def solve():
        board = json_body()
        board["source"] = str(board.get("source") or "board")
        problem = boards.board_problem(board, board["source"])   # a bad board is answered now, not queued
        answer = solves.solve(board)
        if "error" in answer:
            raise BadRequest(answer["error"])
        if answer.get("timed_out"):
            answer.update(status="unknown", verdict=boards.unsettled_words(problem, solves.seconds))
        return jsonify(answer)

    @app.get("/api/research/sizes")
    def sizes():
        return jsonify(rows=researching().by_size, folder=str(researching().folder))

    @app.get("/api/research/positions")
    def positions():
        from model.serve.research import listed_positions

        return jsonify(listed_positions(researching(), request.args.get("size", "all")))

    @app.get("/api/research/position")
    def research_position():
        from model.serve.research import position_view

        window = request.args.get("window", "0")
        if not window.isdigit():
            raise BadRequest(f"window {window!r} is not a window number")
        return jsonify(position_view(researching(), net, request.args.get("name", ""), int(window)))

    @app.errorhandler(BadRequest)
    @app.errorhandler(ProblemError)
    def bad_request(exc):
        return error(str(exc), 400)

    @app.errorhandler(NotThere)
    def not_there(exc):
        return error(str(exc.args[0]), 404)

    def researching():
        if research is None:
            raise NotThere("no research view: start the server with --data DIR")
        return research

    return app


def json_body() -> dict:
    body = request.get_json(silent=True)
    if not isinstance(body, dict):
        raise BadRequest(f"{request.path}: the request is not a JSON object")
    return body


def error(message: str, status: int):
    return jsonify(error=message), status
