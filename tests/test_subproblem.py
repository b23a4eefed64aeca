"""The subproblem SGF contract: deterministic text, content-hash names, labels read back."""
import random
import re

import numpy as np
import pytest

from pipeline.formats import subproblem as subproblem_module
from pipeline.formats.subproblem import (Subproblem, load_subproblem, parse_subproblem, parse_with_sgfmill,
                                         read_written_subproblem)
from solver import ProblemError, parse_problem
from solver.board import BLACK, WHITE
from tests.own_positions import own_positions

# White's target at ba inside a thick black wall; Black to move.
POSITION = (b"(;FF[4]SZ[9]PL[B]AB[da][db][dc][cc][bc][ac][ea][eb][ec][ed][dd][cd][bd][ad]"
            b"AW[ba][bb][cb]MA[ba])")


def labelled(**changes) -> Subproblem:
    problem = parse_problem(POSITION, "position.sgf")
    fields = dict(size=problem.size, stones=problem.stones, target=problem.target,
                  to_play=problem.to_play, safe=False, available_moves=4, best_move=(0, 1),
                  source="corner/white-dies")
    fields.update(changes)
    return Subproblem(**fields)


def test_labels_survive_a_round_trip():
    sub = labelled()
    back = parse_subproblem(sub.to_sgf().encode(), "sub.sgf")
    assert back.safe is False and back.available_moves == 4 and back.best_move == (0, 1)
    assert back.source == "corner/white-dies" and back.target == (1, 0) and back.to_play == BLACK
    assert np.array_equal(back.stones, sub.stones)
    assert back.to_sgf() == sub.to_sgf()


def test_the_text_carries_the_seed_annotations():
    text = labelled().to_sgf()
    assert "TS[0]" in text and "DS[0]" in text and "AS[4]" in text and "TR[ab]" in text
    assert "MA[ba]" in text and "PL[B]" in text and "GN[corner/white-dies]" in text
    assert "DS[1]" in labelled(to_play=WHITE).to_sgf()


def test_the_name_hashes_the_position_not_the_labels_or_source():
    a = labelled()
    assert a.name() == labelled(source="elsewhere", safe=True, best_move=None).name()
    assert a.name() != labelled(to_play=WHITE).name()
    stones = a.stones.copy()
    stones[8, 8] = WHITE
    assert a.name() != labelled(stones=stones).name()
    assert len(a.name()) == len("0123456789abcdef.sgf")


def test_a_source_with_brackets_is_escaped():
    sub = labelled(source="odd]name\\x")
    assert parse_subproblem(sub.to_sgf().encode(), "s.sgf").source == "odd]name\\x"


def test_unlabelled_problem_files_read_as_subproblems(tmp_path):
    path = tmp_path / "problem.sgf"
    path.write_bytes(POSITION)
    sub = load_subproblem(path)
    assert sub.safe is None and sub.available_moves is None and sub.best_move is None


@pytest.mark.parametrize("label, reason", [
    (b"TS[2]", "TS[2] must be 0 or 1"),
    (b"AS[x]", "AS[x] is not an integer"),
    (b"TR[ba]", "TR[ba] is on an occupied point"),
    (b"TR[zz]", "TR[zz] is off the board"),
    (b"AS[-1]", "AS[-1] is not a count of available moves (0 to the 64 empty points)"),
    (b"AS[7][8]", "AS[7][8] has more than one value"),
    (b"TS[0][1]", "TS[0][1] has more than one value"),
    (b"TS[ 1]", "TS[ 1] must be 0 or 1"),
    (b"TR[ca][da]", "TR[ca][da] has more than one value"),
    (b"TS[1]TR[ca]", "TR[ca] is a winning move, but TS[1] says PL[B] loses"),
    (b"DS[1]", "DS[1] disagrees with PL[B] and MA[ba] (PL is the attacker)"),
])
def test_bad_labels_name_the_file_and_the_reason(label, reason):
    with pytest.raises(ProblemError) as info:
        parse_subproblem(POSITION.replace(b"MA[ba]", b"MA[ba]" + label), "bad.sgf")
    assert str(info.value) == f"bad.sgf: {reason}"


def test_an_unreadable_file_is_named(tmp_path):
    with pytest.raises(ProblemError, match="missing.sgf: cannot read the file"):
        load_subproblem(tmp_path / "missing.sgf")


# -- the reader of written files: the same subproblem, or the same refusal, as sgfmill's ---------

def outcome(read, data: bytes):
    """What a reader makes of a file: every field with its type, or the refusal's message."""
    try:
        sub = read(data, "f.sgf")
    except ProblemError as exc:
        return "refused", str(exc)
    except Exception as exc:   # noqa: BLE001  (a reader must not fail otherwise: compared too)
        return "failed", type(exc).__name__, str(exc)
    arrays = [(a.dtype.str, a.shape, a.tobytes()) if a is not None else None for a in (sub.stones, sub.end_state)]
    values = (sub.size, sub.target, sub.to_play, sub.safe, sub.available_moves, sub.best_move, sub.source)
    return "read", arrays, [(type(v).__name__, [type(c).__name__ for c in v] if isinstance(v, tuple) else None, v)
                            for v in values]


def written_files() -> dict[str, bytes]:
    """Subproblem files as solve-all writes them, from the own problems: roots and first moves,
    both sides to play, with and without labels, TR and the end state."""
    files = {}
    for n, path, problem, solver, move in own_positions(every=4):
        stones = solver.board.to_array()
        empty = [(int(x), int(y)) for y, x in zip(*np.nonzero(stones == 0))]
        for to_play in (BLACK, WHITE):
            wins = to_play == problem.defender   # a label consistent with TR: PL wins
            sub = Subproblem(size=problem.size, stones=stones, target=problem.target, to_play=to_play,
                             safe=None if n % 5 == 0 else wins, available_moves=None if n % 7 == 0 else 3,
                             best_move=empty[n % len(empty)] if n % 3 else None,
                             source=f"own/{path.stem}", end_state=stones if n % 2 else None)
            files[f"{path.stem}-{move}-{to_play}.sgf"] = sub.to_sgf().encode()
    return files


JUNK_VALUES = [b"", b"aa", b"ab", b"ss", b"st", b"tt", b"zz", b"0", b"1", b"2", b"7", b"09", b"999", b"-1",
               b"B", b"W", b"b", b"a]b", b"a b", b"\xe9"]
PROPERTY = re.compile(rb"([A-Z]{1,2})((?:\[[^\]]*\])+)")


def mutations(data: bytes, rng: random.Random, count: int) -> list[bytes]:
    """Files one step from ``data`` that mostly keep its form: a value replaced by another of the
    kinds the files hold (points on and off the board, counts, colours), a value or a property
    dropped or doubled."""
    made = []
    properties = list(PROPERTY.finditer(data))
    for _ in range(count):
        found = rng.choice(properties)
        values = list(re.finditer(rb"\[([^\]]*)\]", found.group(2)))
        value = rng.choice(values)
        start, end = found.start(2) + value.start(1), found.start(2) + value.end(1)
        kind = rng.randrange(5)
        if kind <= 1:
            made.append(data[:start] + rng.choice(JUNK_VALUES) + data[end:])
        elif kind == 2:
            made.append(data[:start - 1] + data[end + 1:])                       # a value dropped
        elif kind == 3:
            made.append(data[:end + 1] + data[start - 1:end + 1] + data[end + 1:])  # a value doubled
        else:
            made.append(data[:found.start()] + data[found.end():] if rng.random() < 0.5
                        else data[:found.end()] + found.group(0) + data[found.end():])
    return made


@pytest.fixture(scope="module")
def written():
    return written_files()


def test_the_reader_of_written_files_takes_every_written_file_as_written(written):
    assert len(written) > 60
    for name, data in written.items():
        sub = read_written_subproblem(data)
        assert sub is not None, name
        assert sub.to_sgf().encode() == data, name
        assert outcome(parse_subproblem, data) == outcome(parse_with_sgfmill, data), name


def test_files_one_step_from_written_ones_read_as_sgfmill_reads_them(written):
    """Thousands of near-written files: each one read alike or refused alike, with the same message;
    many keep the written form and are refused by the fast reader's own checks."""
    rng = random.Random(7)
    checked_by_the_fast_reader = taken = 0
    for data in list(written.values())[::2]:
        for mutated in mutations(data, rng, 40):
            assert outcome(parse_subproblem, mutated) == outcome(parse_with_sgfmill, mutated), mutated
            if read_written_subproblem(mutated) is not None:
                taken += 1
            elif subproblem_module._WRITTEN.fullmatch(mutated):
                checked_by_the_fast_reader += 1
    assert taken > 100 and checked_by_the_fast_reader > 100, (taken, checked_by_the_fast_reader)


# A written file, and the edits that keep its form but not its soundness: the fast reader's
# checks refuse each, and sgfmill's reader gives the reason.
WRITTEN = (b"(;FF[4]GM[1]SZ[9]GN[corner/white-dies]PL[B]AB[da][ea][ac][bc][cc][dc][ec][ad][bd][cd][dd][ed]"
           b"AW[ba][bb][cb]MA[ba]TS[0]DS[0]AS[4]TR[ab]EB[da][ea][ac][bc][cc][dc][ec][ad][bd][cd][dd][ed]"
           b"EW[ba][bb][cb])\n")


@pytest.mark.parametrize("edit, reason", [
    ((b"SZ[9]", b"SZ[25]"), "board size 25 is larger than 19"),
    ((b"AB[da]", b"AB[da][ja]"), "AB[ja] is off the board"),
    ((b"AW[ba]", b"AW[aa][ba]"), None),                                  # aa is empty: a legal edit
    ((b"AW[ba][bb]", b"AW[ba][bb][bc]"), "is both in AB and AW"),
    ((b"MA[ba]", b"MA[aa]"), "MA[aa] is on an empty point"),
    ((b"AB[da]", b"AB[aa][da]"), None),                                  # a black stone in White's eye
    ((b"AB[da][ea][ac]", b"AB[aa][ca][da][ea][ab][db][ac]"), "has no liberties"),   # White's taken
    ((b"AS[4]", b"AS[999]"), "AS[999] is not a count of available moves"),
    ((b"TR[ab]", b"TR[bb]"), "TR[bb] is on an occupied point"),
    ((b"TR[ab]", b"TR[tt]"), "TR[tt] is off the board"),
    ((b"TS[0]", b"TS[1]"), "TR[ab] is a winning move, but TS[1] says PL[B] loses"),
    ((b"DS[0]", b"DS[1]"), "DS[1] disagrees with PL[B]"),
    ((b"EW[ba]", b"EW[ba][ba]"), "EW[ba] is listed twice in the end state"),
    ((b"EW[ba]", b"EW[aa][ba]"), None),
    ((b"EW[ba]", b"EW[ad][ba]"), "EW[ad] is listed twice in the end state"),
    ((b"EB[da]", b"EB[]EB[da]"), "EB[] is an empty list among points"),
])
def test_the_fast_reader_refuses_what_sgfmills_refuses(edit, reason):
    data = WRITTEN.replace(*edit)
    assert data != WRITTEN
    assert outcome(parse_subproblem, data) == outcome(parse_with_sgfmill, data)
    if reason is None:
        assert outcome(parse_subproblem, data)[0] == "read"
    else:
        assert read_written_subproblem(data) is None
        with pytest.raises(ProblemError, match=re.escape(reason)):
            parse_subproblem(data, "f.sgf")


def test_the_written_example_is_taken():
    assert read_written_subproblem(WRITTEN) is not None


@pytest.mark.parametrize("seed", [0, 1])
def test_hostile_files_read_as_sgfmill_reads_them(seed):
    from hostile_files import problem_files, subproblem_files

    files = {**subproblem_files(seed), **problem_files(seed)}
    for name, data in files.items():
        assert outcome(parse_subproblem, data) == outcome(parse_with_sgfmill, data), name
