"""``tsumego eval``: the network's answer on problem files, in a Go player's words and pictures.

A seeded random network over today's planes (``packed_for_current_planes`` of
``tests/test_model.py``) gives real numbers to check against the numpy
evaluator; a stub network whose P(safe) is set by who moves first makes the
cases where the network should be unsure.  The positions are the project's
own problems: the bent three in the corner (13×13, White to play and kill the
black group at M3 by N1, SGF ``mm``) and the bulky five (Black to live).
"""
import dataclasses
import json
import os
import shutil
import struct
from types import SimpleNamespace

import numpy as np
import pytest

from model.evaluate import UNSURE_ABOVE, UNSURE_BELOW, target_block, why_unsure
from model.picture import TARGET_MARK, view_box
from pipeline.budgets import EVAL_MAX_NODES as DEFAULT_EVAL_MAX_NODES
from model.numpy_net import NumpyNet, SafetyEvaluator
from model.quantize import model_tensors, pack
from cli.main import build_parser, main
from pipeline.formats.records import WINDOW
from pipeline.formats.subproblem import load_subproblem
from solver.board import BLACK, WHITE
from solver.coordinates import parse_go_point
from tests.toy_network import PROBLEM_FILES, eight_images, meta_for, packed_for_current_planes, small_model

KILL, LIVE = PROBLEM_FILES
QUESTION = "if White plays first: is the black group at M3 safe?"


class FirstMoverNet(SafetyEvaluator):
    """A stub network: P(safe) is set by who moves first (the ``defender_first`` plane); the
    move head is flat, so the moves are the first empty points in reading order."""

    def __init__(self, defender_first: float, attacker_first: float):
        from pipeline.planes import plane_names

        self.planes = plane_names()
        self.safe = {1: defender_first, 0: attacker_first}

    def evaluate_all(self, boards):
        boards = np.asarray(boards)
        first = boards[:, WINDOW // 2, WINDOW // 2, self.planes.index("defender_first")]
        safe = np.where(first == 1, self.safe[1], self.safe[0])
        return safe, np.full((len(boards), WINDOW * WINDOW), 1 / WINDOW ** 2), None


def stub_model(monkeypatch, tmp_path, defender_first: float, attacker_first: float) -> list[str]:
    """``--model`` options that load a :class:`FirstMoverNet`."""
    net = FirstMoverNet(defender_first, attacker_first)
    monkeypatch.setattr(NumpyNet, "load", staticmethod(lambda path: net))
    (tmp_path / "stub.tsq").write_bytes(b"")
    return ["--model", str(tmp_path / "stub.tsq")]


def run_eval(capsys, *options) -> tuple[int, list[str], list[str]]:
    code = main(["eval", *map(str, options)])
    out, err = capsys.readouterr()
    return code, out.splitlines(), err.splitlines()


def moves_in(line: str) -> list[str]:
    """The Go coordinates of the ``moves: C18 0.462, ...`` part of a line."""
    listed = line.split("; moves: ")[1].split(";")[0]
    return [item.split()[0] for item in listed.split(", ")]


@pytest.fixture(scope="module")
def model(tmp_path_factory) -> list[str]:
    path = tmp_path_factory.mktemp("net") / "net.tsq"
    packed_for_current_planes(path)
    return ["--model", str(path)]


def test_the_line_asks_the_question_and_answers_in_go_coordinates(model, tmp_path, capsys):
    code, text, _ = run_eval(capsys, *model, "--no-symmetries", KILL)
    assert code == 0
    code, out, _ = run_eval(capsys, *model, "--no-symmetries", "--json", KILL)
    assert code == 0
    (line,), (row,) = text, [json.loads(line) for line in out]
    assert line.startswith(f"{KILL}: {QUESTION} network: P(safe) = {row['safe']:.2f}, ")
    assert (row["to_play"], row["target"], row["target_sgf"]) == ("W", "M3", "lk")
    assert moves_in(line) == [move["move"] for move in row["moves"]] and len(row["moves"]) == 3
    sub = load_subproblem(KILL)
    for move in row["moves"]:
        x, y = parse_go_point(move["move"], sub.size)
        assert move["sgf"] == chr(ord("a") + x) + chr(ord("a") + y) and sub.stones[y, x] == 0
    assert isinstance(row["unsure"], bool) and 0 <= row["safe_other_first"] <= 1
    assert ("unsure: " in line) == row["unsure"]
    assert "file's label" not in line and row["label"] is None   # a problem file has no TS
    # A subproblem's label is said in words.
    labelled = tmp_path / "labelled.sgf"
    labelled.write_text(dataclasses.replace(sub, safe=False).to_sgf())
    code, (line,), _ = run_eval(capsys, *model, labelled)
    assert code == 0 and line.endswith("; file's label: unsafe")


@pytest.mark.parametrize("safe, other, pl_defender, unsure", [
    (UNSURE_BELOW, 0.9, True, True), (UNSURE_ABOVE, 0.1, True, True),      # the band's edges are in it
    (0.34, 0.1, True, False),        # dead whoever moves first
    (0.66, 0.2, True, False),        # the attacker first does worse: an unsettled group, the network sure
    (0.8, 0.2, False, True),         # PL attacker: safe with it first, dead with the defender first
    (0.2, 0.8, True, True),          # the same contradiction, PL the defender
    (0.2, 0.9, False, False),        # attacker first 0.2, defender first 0.9: a fair answer
    (0.3451, 0.1, True, True), (0.6549, 0.1, True, True),   # printed 0.35 and 0.65: in the band
    (0.3449, 0.1, True, False),      # printed 0.34: out of it
    (0.4951, 0.8, False, True),      # printed 0.50: safe with the attacker first, a contradiction
])
def test_the_network_is_unsure_near_one_half_or_contradicting_itself(safe, other, pl_defender, unsure):
    stones = np.zeros((9, 9), np.int8)
    stones[0, 0] = BLACK
    sub = SimpleNamespace(stones=stones, target=(0, 0), to_play=BLACK if pl_defender else WHITE)
    assert (why_unsure(sub, safe, other) is not None) == unsure


def test_the_line_and_json_say_when_and_why_the_network_is_unsure(monkeypatch, tmp_path, capsys):
    # Safe with White, the attacker, moving first and dead with Black first: a contradiction.
    options = stub_model(monkeypatch, tmp_path, defender_first=0.2, attacker_first=0.9)
    code, (line,), _ = run_eval(capsys, *options, KILL)
    assert code == 0
    assert (f"{QUESTION} network: P(safe) = 0.90, maybe lives (unsure: it says safe with White (the "
            "attacker) first, P(safe) = 0.90, but not with Black (the defender) first, P(safe) = 0.20); "
            "moves: ") in line
    assert line.endswith("; if Black plays first: P(safe) = 0.20")
    code, (out,), _ = run_eval(capsys, *options, "--json", KILL)
    row = json.loads(out)
    assert (row["safe"], row["safe_other_first"], row["unsure"]) == (0.9, 0.2, True)
    assert row["unsure_why"].startswith("it says safe with White (the attacker) first")
    # Near one half.
    options = stub_model(monkeypatch, tmp_path, defender_first=0.9, attacker_first=0.4)
    code, (line,), _ = run_eval(capsys, *options, KILL)
    assert "network: P(safe) = 0.40, maybe dies (unsure: P(safe) within 0.35..0.65); moves: " in line
    # Sure: dead with White first, alive with Black first, as the problem says.
    options = stub_model(monkeypatch, tmp_path, defender_first=0.9, attacker_first=0.1)
    code, (line,), _ = run_eval(capsys, *options, KILL)
    assert "network: P(safe) = 0.10, probably dies; moves: " in line and "unsure" not in line
    code, (out,), _ = run_eval(capsys, *options, "--json", KILL)
    assert json.loads(out)["unsure"] is False and json.loads(out)["unsure_why"] is None


def test_the_title_the_words_and_the_halos_answer_one_question(monkeypatch, tmp_path, capsys):
    """LIVE: Black, the defender, to play.  Every block's halo is its P(safe) with Black first,
    as the title's: the target's halo is the title's number, the white blocks' their answer with
    their attacker first."""
    from model.evaluate import stone_safety

    options = stub_model(monkeypatch, tmp_path, defender_first=0.9, attacker_first=0.1)
    code, (line,), _ = run_eval(capsys, *options, LIVE)
    assert ": if Black plays first: is the black group at " in line
    assert " network: P(safe) = 0.90, probably lives; " in line
    assert line.endswith("; if White plays first: P(safe) = 0.10")
    sub = load_subproblem(LIVE)
    safety = stone_safety(NumpyNet.load("stub"), sub)
    assert np.allclose(safety[target_block(sub)], 0.9)
    assert np.allclose(safety[sub.stones == WHITE], 0.1)
    svg = tmp_path / "live.svg"
    assert run_eval(capsys, *options, "--picture", svg, LIVE)[0] == 0
    text = svg.read_text()
    assert "halo: P(block survives if Black plays first)" in text
    assert "network: P(safe) = 0.90, probably lives; if White plays first: P(safe) = 0.10" in text


def test_solve_proves_the_answer_or_says_the_budget_ran_out(model, capsys):
    code, (line,), _ = run_eval(capsys, *model, "--solve", KILL)
    assert code == 0
    # in tsumego solve's words
    assert "; solver: White to play kills the black group at M3: W N1 (proved, " in line
    assert line.endswith(" the network said")
    code, (out,), _ = run_eval(capsys, *model, "--solve", "--json", KILL)
    proof = json.loads(out)["solver"]
    assert (proof["status"], proof["move"], proof["sgf"]) == ("unsafe", "N1", "mm") and proof["nodes"] > 0
    assert (proof["ko"], proof["standing"]) == (None, None)
    assert proof["verdict"] == "White to play kills the black group at M3: W N1"
    code, (line,), _ = run_eval(capsys, *model, "--solve", "--max-nodes", "1", KILL)
    assert code == 0 and "; solver: unknown within 1 node (" in line
    assert "): the network's answer stands" in line
    code, (out,), _ = run_eval(capsys, *model, "--solve", "--max-nodes", "1", "--json", KILL)
    proof = json.loads(out)["solver"]
    assert (proof["status"], proof["move"], proof["sgf"]) == ("unknown", None, None)
    # the budget belongs to --solve
    with pytest.raises(SystemExit) as exited:
        main(["eval", *model, "--max-nodes", "5", KILL])
    assert exited.value.code == 2
    assert "--max-nodes is --solve's budget: give --solve too" in capsys.readouterr().err


def test_a_folder_stands_for_its_sgf_files_and_the_run_ends_with_the_totals(model, tmp_path, capsys):
    folder, empty = tmp_path / "problems", tmp_path / "empty"
    for sub_folder, source in (("a", KILL), ("b", LIVE)):
        (folder / sub_folder).mkdir(parents=True)
        shutil.copy(source, folder / sub_folder)
    bad = folder / "bad.sgf"
    bad.write_text("(;SZ[9]AB[aa]PL[B])")
    empty.mkdir()
    kill, live = folder / "a" / os.path.basename(KILL), folder / "b" / os.path.basename(LIVE)
    code, out, err = run_eval(capsys, *model, "--json", folder, empty)
    assert code == 1
    assert [json.loads(line)["file"] for line in out] == [str(kill), str(live)]   # sorted, bad.sgf after b/
    assert err == [f"error: {empty}: a folder without *.sgf files",   # rejected before any file is read
                   f"error: {bad}: no MA[] property: the target group is not marked",
                   "eval: read 4 = answered 2 + rejected 2"]
    code, out, err = run_eval(capsys, *model, folder / "a")
    assert code == 0 and err == ["eval: read 1 = answered 1 + rejected 0"]
    # one picture a file, named after it; in --json mode their names go to stderr
    bad.unlink()
    code, out, err = run_eval(capsys, *model, "--json", "--picture", tmp_path / "pictures" / "p.png", folder)
    drawn = [tmp_path / "pictures" / f"p-{path.stem}.png" for path in (kill, live)]
    assert code == 0 and all(json.loads(line) for line in out)
    assert err == [f"picture: {path}" for path in drawn] + ["eval: read 2 = answered 2 + rejected 0"]
    assert all(path.stat().st_size > 0 for path in drawn)
    # two files of one stem would be drawn to one picture: refused before any evaluation
    shutil.copy(KILL, folder / "b")
    twice = tmp_path / "pictures" / "q.png"
    code, out, err = run_eval(capsys, *model, "--picture", twice, folder)
    assert code == 2 and out == []
    assert err == [f"error: --picture {twice}: {kill} and {folder / 'b' / kill.name} would both be drawn to "
                   f"{tmp_path / 'pictures' / ('q-' + kill.stem + '.png')}"]


def png_size(path) -> tuple[int, int]:
    """(width, height) in pixels, from the PNG's IHDR chunk."""
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    return struct.unpack(">II", data[16:24])


def test_the_picture_shows_the_board_the_question_and_the_answers(model, tmp_path, capsys):
    import matplotlib.pyplot as plt

    picture = tmp_path / "board.png"
    code, out, _ = run_eval(capsys, *model, "--solve", "--picture", picture, KILL)
    assert code == 0 and out[1:] == [f"picture: {picture}"]
    # The bent three's corner and a few lines around it at 150 dpi: about 600 pixels wide
    # and 700 high with the title and the colorbar.
    width, height = png_size(picture)
    assert 450 < width < 800 and 550 < height < 900
    pixels = (plt.imread(str(picture))[..., :3] * 255).round().astype(int)
    def share(colour):
        return np.all(np.abs(pixels - np.array(colour)) <= 8, axis=-1).mean()
    blue = [int(TARGET_MARK[i:i + 2], 16) for i in (1, 3, 5)]
    # six target stones' blue squares, black and white stones
    assert 0.002 < share(blue) < 0.05 and share((0, 0, 0)) > 0.02 and share((255, 255, 255)) > 0.05
    # An SVG keeps its words as text: the question, both answers, the legend and Go coordinates.
    svg = tmp_path / "board.svg"
    assert run_eval(capsys, *model, "--solve", "--picture", svg, KILL)[0] == 0
    text = svg.read_text()
    for words in (QUESTION, "network: P(safe) = ", "solver: White to play kills the black group at M3: W N1",
                  "halo: P(block survives if White plays first)",
                  "blue squares: the target group; 1-3: White's likely moves (network)"):
        assert words in text
    # The corner and two lines around its stones and the moves, lettered without I, the rows
    # counted from the bottom: N1 is the corner.
    moves = json.loads(run_eval(capsys, *model, "--json", KILL)[1][0])["moves"]
    x0, x1, y0, y1 = view_box(load_subproblem(KILL).stones, [(parse_go_point(move["move"], 13), 0)
                                                             for move in moves])
    labels = {label for label in [*"ABCDEFGHIJKLMN", *map(str, range(1, 14))] if f">{label}</text>" in text}
    assert labels == {*"ABCDEFGHJKLMN"[x0:x1 + 1], *(str(13 - y) for y in range(y0, y1 + 1))}
    assert {"N", "1", "G"} <= labels and "I" not in labels


def test_help_gives_every_default():
    (eval_parser,) = [parser for name, parser in build_parser()._subparsers._group_actions[0].choices.items()
                      if name == "eval"]
    for action in eval_parser._actions:   # an option without a default (--group) has none to give
        if action.option_strings and action.dest != "help" and action.default is not None:
            assert "(default: " in action.help or "default: on" in action.help, action.option_strings
    helped = eval_parser.format_help()
    assert f"(default: {DEFAULT_EVAL_MAX_NODES:,}; 0: none)" in " ".join(helped.split())


def test_eval_feeds_a_network_the_planes_it_was_trained_on(tmp_path, capsys):
    from pipeline.planes import group_named, plane_names
    from pipeline.planes.windows import subproblem_windows

    kept = [name for name in plane_names() if name not in group_named("tactics").planes][::-1]
    keras_model = small_model(num_planes=len(kept), blocks=1)
    path = tmp_path / "net.tsq"
    path.write_bytes(pack(model_tensors(keras_model), 5, {"planes": kept, "window": WINDOW, "width": 40,
                                                          "blocks": 1}))
    assert main(["eval", "--model", str(path), "--json", "--no-symmetries", KILL]) == 0
    row = json.loads(capsys.readouterr().out)
    windows, _ = subproblem_windows(load_subproblem(KILL))
    picked = np.stack([windows[..., plane_names().index(name)] for name in kept], axis=-1)
    expected = float(NumpyNet.load(str(path)).evaluate(picked)[0].mean())
    assert row["safe"] == pytest.approx(expected, abs=1e-4)


def test_eval_reads_problem_sgfs_and_draws_them(tmp_path, capsys):
    from pipeline.planes.windows import subproblem_windows

    files = PROBLEM_FILES
    net = packed_for_current_planes(tmp_path / "net.tsq")
    broken = tmp_path / "broken.sgf"
    broken.write_text("(;SZ[9]AB[aa]PL[B])")
    picture = tmp_path / "board.svg"
    code = main(["eval", "--model", str(tmp_path / "net.tsq"), "--json", "--no-symmetries", "--top", "4",
                 "--picture", str(picture), files[0], str(broken), files[1]])
    out, err = capsys.readouterr()
    assert code == 1
    drawn = [tmp_path / f"board-{os.path.splitext(os.path.basename(path))[0]}.svg" for path in files]
    assert err.splitlines() == [f"picture: {drawn[0]}",
                                f"error: {broken}: no MA[] property: the target group is not marked",
                                f"picture: {drawn[1]}", "eval: read 3 = answered 2 + rejected 1"]
    with pytest.raises(SystemExit) as exited:
        main(["eval", "--model", str(tmp_path / "net.tsq"), "--picture", "board.jpg", files[0]])
    assert exited.value.code == 2
    assert "tsumego eval: error: --picture board.jpg: the name must end in .png or .svg" in capsys.readouterr().err
    rows = [json.loads(line) for line in out.splitlines()]
    assert [row["file"] for row in rows] == files
    for row, path, board in zip(rows, files, drawn):
        sub = load_subproblem(path)
        windows, _ = subproblem_windows(sub)
        assert len(windows) == target_block(sub).sum()
        assert row["safe"] == pytest.approx(float(net.evaluate(windows)[0].mean()), abs=1e-4)
        probabilities = [move["p"] for move in row["moves"]]
        assert len(probabilities) == 4 and probabilities == sorted(probabilities, reverse=True)
        for move in row["moves"]:
            x, y = ord(move["sgf"][0]) - ord("a"), ord(move["sgf"][1]) - ord("a")
            assert sub.stones[y, x] == 0
        assert board.read_text().lstrip().startswith("<?xml")
    assert main(["eval", "--model", str(tmp_path / "net.tsq"), "--json", files[0]]) == 0   # the default
    row = json.loads(capsys.readouterr().out)
    windows, _ = subproblem_windows(load_subproblem(files[0]))
    expected = np.mean([net.evaluate(np.ascontiguousarray(w))[0].mean() for w in eight_images(windows)])
    assert row["safe"] == pytest.approx(float(expected), abs=1e-4)


def test_eval_refuses_a_network_trained_on_other_planes(tmp_path, capsys):
    keras_model = small_model()
    (tmp_path / "old.tsq").write_bytes(pack(model_tensors(keras_model), 5, meta_for(2)))
    assert main(["eval", "--model", str(tmp_path / "old.tsq"), KILL]) == 1
    assert "cannot feed the network: planes ['move_marker', 'eye_block', 'noise'] are missing" in capsys.readouterr().err


def test_eval_refuses_what_solve_refuses_in_the_same_words(tmp_path, capsys):
    packed_for_current_planes(tmp_path / "net.tsq")
    good = open(KILL, "rb").read()
    bad = {"open-wall.sgf": b"(;FF[4]SZ[9]PL[B]AB[ii]AW[ee]MA[ee])",
           "root-variation.sgf": good[:good.rindex(b")")] + b"(;B[zz]))",
           "two-players.sgf": good.replace(b"PL[", b"PL[B]PL[", 1)}
    paths = []
    for name, data in bad.items():
        (tmp_path / name).write_bytes(data)
        paths.append(str(tmp_path / name))
    options = ["--max-area", "5", LIVE, *paths]   # the own problem's area has 6 points
    assert main(["eval", "--model", str(tmp_path / "net.tsq"), *options]) == 1
    *refused, totals = capsys.readouterr().err.splitlines()
    assert totals == "eval: read 4 = answered 0 + rejected 4"
    assert main(["solve", *options]) == 1
    assert refused == [line for line in capsys.readouterr().err.splitlines() if line.startswith("error: ")]
    assert [line.split(": ")[1] for line in refused] == [LIVE, *paths]
    assert "open wall" in refused[1] and "root variation B[zz] is off the board" in refused[2]


def test_solve_says_a_ko_as_solve_does(monkeypatch, tmp_path, capsys):
    from tests.test_group_answer import KO_TO_LIVE

    path = tmp_path / "ko.sgf"
    path.write_text(KO_TO_LIVE)
    # the network says safe; the label's question (the attacker wins any ko) says unsafe
    options = stub_model(monkeypatch, tmp_path, defender_first=0.9, attacker_first=0.1)
    code, (line,), _ = run_eval(capsys, *options, "--solve", path)
    assert code == 0
    assert ("; solver: White to play: the white group at A7 lives by ko: W B8; ko: White must win the ko "
            "and needs the ko threats (proved, ") in line
    assert line.endswith("), not what the network said, which reads a ko as the attacker's")
    code, (out,), _ = run_eval(capsys, *options, "--solve", "--json", path)
    proof = json.loads(out)["solver"]
    assert (proof["status"], proof["ko"], proof["move"]) == ("unsafe", "W", "B8")
    svg = tmp_path / "ko.svg"
    assert run_eval(capsys, *options, "--solve", "--picture", svg, path)[0] == 0
    text = svg.read_text()
    assert "solver: White to play: the white group at A7 lives by ko: W B8" in text
    assert "ko: White must win the ko and needs the ko threats" in text
