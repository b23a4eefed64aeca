"""``tsumego serve`` through its JSON: the answers are the command line's, bad input gets one line
and the server goes on, solves are queued and bounded.

The application runs on Flask's test client, over the shipped network and real solver
worker processes; the positions are the project's own problems and the composed game of
``docs/examples``.
"""
from __future__ import annotations

import json
import re
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest

from model.serve.app import MAX_UPLOAD, create_app
from model.serve.boards import NotThere, solve_job, solver_settings
from model.serve.research import LISTED, load_research, position_view
from solver import ProblemError, load_problem
from solver.coordinates import parse_go_point
from tests.serve_data import GAME, OWN_PROBLEMS, command_line_row, labelled_folder, shipped_network, solve_queue


@pytest.fixture(scope="module")
def network():
    return shipped_network()


@pytest.fixture(scope="module")
def solves(network):
    queue = solve_queue(network[1])
    yield queue
    queue.close()


@pytest.fixture(scope="module")
def research(network, tmp_path_factory):
    folder = tmp_path_factory.mktemp("subproblems")
    labelled_folder(folder)
    return load_research(str(folder), network[0], bits=5)


@pytest.fixture(scope="module")
def app(network, solves, research):
    return create_app(network[0], solves, research)


def opened(client, path, move=None) -> dict:
    answer = client.post("/api/position", json={"sgf": path.read_text(), "name": path.name, "move": move})
    assert answer.status_code == 200, answer.json
    return answer.json


def one_line_error(answer, status: int) -> str:
    assert answer.status_code == status
    message = answer.json["error"]
    assert message and "\n" not in message and "Traceback" not in message
    return message


def test_a_problem_gets_the_halo_and_the_command_lines_proof(app):
    client = app.test_client()
    path = next(p for p in OWN_PROBLEMS if p.parent.name == "ko")
    position = opened(client, path)
    problem = load_problem(path)
    assert position["kind"] == "problem" and position["target"] == command_line_row(path)[0]["target"]
    stones = np.array([[".XO".index(c) for c in row] for row in position["stones"]])
    assert (stones == problem.stones).all()

    halo = client.post("/api/halo", json=position).json
    values = np.array([[np.nan if v is None else v for v in row] for row in halo["halo"]])
    assert (np.isnan(values) == (stones == 0)).all()
    assert ((values[stones > 0] >= 0) & (values[stones > 0] <= 1)).all()
    assert halo["question"].endswith(f"group at {position['target']} safe?")
    assert halo["network"].startswith("P(safe) = ")

    answer = client.post("/api/solve", json=position).json
    row, answer_sgf = command_line_row(path)
    assert answer["verdict"] == row["verdict"] and answer["status"] == row["status"]
    assert answer["pv"] == row["pv"] and answer["steps"][-1] == row["final"]
    assert answer["steps"][0] == position["stones"]
    # --sgf-out's file, but for the name (GN): the board solved is the page's, which has none
    name = problem.properties.get("GN")
    assert answer["answer_sgf"] == (answer_sgf.replace(f"GN[{name}]", "") if name else answer_sgf)


def test_the_side_to_play_switches(app):
    client = app.test_client()
    path = OWN_PROBLEMS[0]
    position = opened(client, path)
    assert position["to_play_given"]
    unsaid = client.post("/api/position", json={"sgf": re.sub(r"PL\[[BW]\]", "", path.read_text())}).json
    assert (unsaid["to_play"], unsaid["to_play_given"], unsaid["source"]) == ("B", False, "pasted SGF")
    first = client.post("/api/solve", json=position).json
    other = client.post("/api/solve", json={**position, "to_play": "B" if position["to_play"] == "W" else "W"}).json
    assert first["to_play"] == position["to_play"] and other["to_play"] != position["to_play"]
    assert other["verdict"].startswith("Black to play" if other["to_play"] == "B" else "White to play")


def test_a_games_group_is_framed_as_solve_group_frames_it(app):
    client = app.test_client()
    position = opened(client, GAME)
    assert position["kind"] == "game" and position["move"] == position["moves"] == 46
    earlier = opened(client, GAME, move=38)
    assert earlier["move"] == 38 and sum(row.count("X") + row.count("O") for row in earlier["stones"]) == 40

    answer = client.post("/api/solve", json={**earlier, "target": "D2", "frame": True}).json
    row, _ = command_line_row(GAME, "--group", "D2", "--move", "38")
    assert answer["verdict"] == row["verdict"] and answer["pv"] == row["pv"]
    # the frame's wall stones, which the page draws apart, and the command's lines on them
    assert answer["frame"] == row["frame"] and len(row["frame"]["added"]) == 3
    added = [(x, y) for y, line in enumerate(answer["framed"]) for x, c in enumerate(line)
             if c != "." and earlier["stones"][y][x] == "."]
    assert sorted(added) == sorted(parse_go_point(point, 19) for point in row["frame"]["added"])
    assert answer["notes"][0] == "framed: the frame added 3 black stones the game does not have: J2 K2 K1"
    # too open a few moves before: the command line's reason, in one line
    message = one_line_error(client.post("/api/solve", json={**opened(client, GAME, move=34), "target": "D2",
                                                              "frame": True}), 400)
    assert message.startswith(f"{GAME.name}: the white group at D2 is too open to frame: 4 of the 11 points")


def test_a_pass_alive_group_is_answered_without_a_frame(app):
    """Two eyes in the corner, open to the rest of the board: solve --group's exact answer."""
    client = app.test_client()
    sgf = "(;SZ[9]PL[B]AW[ba][da][ab][bb][cb][db]AB[ea][eb][ac][bc][cc][dc][ec])"
    position = client.post("/api/position", json={"sgf": sgf, "name": "corner.sgf"}).json
    answer = client.post("/api/solve", json={**position, "target": "B9", "frame": True}).json
    assert answer["verdict"] == "Black to play cannot kill the white group at B9: it lives"
    assert (answer["frame"], answer["pass_alive"]) == (None, [["A9"], ["C9"]])
    assert answer["notes"][0].startswith("pass-alive on the whole board: its eyes at A9 and C9")


def test_bad_input_gets_one_line_and_the_server_stays_up(app, tmp_path):
    client = app.test_client()
    broken = "(;SZ[9]AB[cc]MA[cc]"
    (tmp_path / "broken.sgf").write_text(broken)
    with pytest.raises(ProblemError) as command_line:
        load_problem(tmp_path / "broken.sgf")
    message = one_line_error(client.post("/api/position", json={"sgf": broken, "name": "broken.sgf"}), 400)
    assert message == f"broken.sgf: {command_line.value.reason}"

    huge = json.dumps({"sgf": "(;SZ[19]" + "C[" + "x" * (10 << 20) + "])", "name": "huge.sgf"})
    assert len(huge) > 10 * MAX_UPLOAD
    message = one_line_error(client.post("/api/position", data=huge, content_type="application/json"), 413)
    assert "over the 1024 KB" in message

    message = one_line_error(client.get("/api/research/position", query_string={"name": "../../etc/passwd"}), 404)
    assert message == "../../etc/passwd: not a position of the data folder"
    one_line_error(client.get("/static/../../etc/passwd"), 404)
    one_line_error(client.get("/static/%2e%2e/%2e%2e/setup.cfg"), 404)

    position = opened(client, OWN_PROBLEMS[0])
    message = one_line_error(client.post("/api/solve", json={**position, "target": "T19"}), 400)
    assert message == f"T19 is off a {position['size']}×{position['size']} board"
    empty = next((x, y) for y, row in enumerate(position["stones"]) for x, c in enumerate(row) if c == ".")
    point = "ABCDEFGHJKLMNOPQRST"[empty[0]] + str(position["size"] - empty[1])
    message = one_line_error(client.post("/api/solve", json={**position, "target": point}), 400)
    assert message == f"there is no stone at {point}: click a stone of the group"
    suicide = [row.replace(".", "X") for row in position["stones"]]   # no block has a liberty
    message = one_line_error(client.post("/api/halo", json={**position, "stones": suicide}), 400)
    assert message.startswith(f"{position['source']}: illegal position: the block at")
    one_line_error(client.post("/api/solve", data="not json", content_type="application/json"), 400)

    assert client.post("/api/solve", json=position).json["status"] in ("safe", "unsafe")


def test_a_hundred_requests_four_at_a_time_are_all_answered(app):
    paths = (OWN_PROBLEMS * 2)[:100]

    def ask(path):
        client = app.test_client()
        position = opened(client, path)
        answer = client.post("/api/solve", json=position)
        return answer.status_code, answer.json.get("verdict", answer.json.get("error"))

    with ThreadPoolExecutor(4) as pool:
        answers = list(pool.map(ask, paths))
    assert len(answers) == 100
    assert all(status == 200 and verdict for status, verdict in answers), \
        [a for a in answers if a[0] != 200]


# A lone white stone in the corner of a 9×9 board, walled in with 35 empty points around it:
# more than 2,000,000 nodes leave it unsettled (6 s), so a solve of it is still running at
# any time limit of a fraction of a second.
WALLED_IN = {"size": 9, "to_play": "W", "target": "A9", "source": "walled-in",
             "stones": ["O.....X..", *["......X.."] * 5, "XXXXXXX..", ".........", "........."]}


def test_a_solve_past_its_time_limit_says_so_and_past_the_backstop_is_stopped(network):
    answer = solve_job(WALLED_IN, *solver_settings({"max_nodes": 0, "seconds": 0.5, "guide": None}))
    assert answer["status"] == "unknown"
    assert answer["verdict"] == "White to play: the white group at A9 is not settled within 0.5 s"
    # without the solver's limit, the queue's own: the worker stopped and replaced
    queue = solve_queue(network[1], workers=1, seconds=0.5, max_nodes=0)
    try:
        client = create_app(network[0], queue).test_client()
        answer = client.post("/api/solve", json=WALLED_IN).json
        assert answer["status"] == "unknown" and answer["timed_out"]
        assert answer["verdict"] == ("White to play: the white group at A9 is not settled within the time limit "
                                     "(0.5 s)")
        queue.seconds = 30   # the next solve is answered
        assert client.post("/api/solve", json=opened(client, OWN_PROBLEMS[0])).json["status"] in ("safe", "unsafe")
    finally:
        queue.close()


def test_a_solve_past_its_node_budget_says_so(network):
    path = next(p for p in OWN_PROBLEMS if p.parent.name == "large-areas")
    settings = solver_settings({"max_nodes": 5, "guide": None})
    position = {**json.loads(json.dumps(opened(create_app(network[0], None).test_client(), path))),
                "source": path.name}
    answer = solve_job(position, *settings)
    assert answer["status"] == "unknown" and answer["verdict"].endswith("is not settled within the node budget")
    assert answer["pv"] == [] and answer["steps"] == [position["stones"]]


def test_the_research_view_scores_by_size_as_the_report_does(app, research, network):
    from model.report_stats import size_rows

    client = app.test_client()
    rows = client.get("/api/research/sizes").json["rows"]
    assert rows == json.loads(json.dumps(size_rows(research.predictions, 5)))
    assert rows[-1]["size"] == "all" and rows[-1]["count"] == 2 * 8
    size = rows[0]["size"]
    listed = client.get("/api/research/positions", query_string={"size": size}).json
    assert listed["count"] == rows[0]["count"] == len(listed["positions"]) <= LISTED
    misses = [abs(p["p_safe"] - (p["label"] == "safe")) for p in listed["positions"]]
    assert misses == sorted(misses, reverse=True)

    worst = listed["positions"][0]
    view = client.get("/api/research/position", query_string={"name": worst["name"]}).json
    assert view["label"] == worst["label"] and view["p_safe"] == pytest.approx(worst["p_safe"], abs=1e-3)
    assert [plane["name"] for plane in view["planes"]] == network[0].planes
    assert all(np.array(plane["cells"]).shape == (11, 11) for plane in view["planes"])
    assert len(view["moves"]) == 3 and view["end_state"] is not None
    one_line_error(client.get("/api/research/position", query_string={"name": worst["name"], "window": 99}), 404)
    one_line_error(client.get("/api/research/positions", query_string={"size": "x"}), 404)


def test_a_features_folder_is_scored_on_its_test_split_its_positions_found_beside_it(network, tmp_path):
    import tensorflow as tf

    from pipeline.features_pipeline import SplitSettings, record_of
    from pipeline.formats.records import write_spec
    from pipeline.planes import plane_names

    subproblems = tmp_path / "solve-all" / "subproblems"   # as make lays the folders out
    subproblems.mkdir(parents=True)
    labelled_folder(subproblems, count=3)
    records = tmp_path / "tfrecords"
    records.mkdir()
    with tf.io.TFRecordWriter(str(records / "test-00000-of-00001.tfrecord.gz"), options="ZLIB") as writer:
        for path in sorted(subproblems.glob("*.sgf")):
            writer.write(record_of(str(path), path.read_bytes(), SplitSettings())[4])
    write_spec(str(records), plane_names(), counts={})

    from_records = load_research(str(records), network[0], bits=5)
    from_files = load_research(str(subproblems), network[0], bits=5)
    assert set(from_records.files) == {path.name for path in subproblems.glob("*.sgf")}
    assert from_records.by_size == from_files.by_size

    def p_safe(research):
        return dict(zip(research.predictions.subproblem, research.predictions.probability["packed"]))

    assert p_safe(from_records) == pytest.approx(p_safe(from_files))
    # a record whose file is not there is listed, and said to be missing when asked for
    missing = sorted(from_records.files)[0]
    del from_records.files[missing]
    with pytest.raises(NotThere, match=f"^{missing}: scored, but its subproblem file is not in {subproblems}$"):
        position_view(from_records, network[0], missing)


def test_the_command_refuses_a_missing_folder_and_a_port_in_use_in_one_line(tmp_path, capsys):
    import socket

    from cli.main import main

    assert main(["serve", "--data", str(tmp_path / "none")]) == 2
    assert capsys.readouterr().err == f"error: --data {tmp_path / 'none'}: not a folder\n"
    with socket.create_server(("127.0.0.1", 0)) as taken:
        port = taken.getsockname()[1]
        assert main(["serve", "--port", str(port)]) == 2
    assert capsys.readouterr().err == \
        f"error: --host 127.0.0.1 --port {port}: cannot listen there (Address already in use)\n"
