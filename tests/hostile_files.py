"""Hostile input files, made reproducibly from the project's own problems.

:func:`problem_files` and :func:`subproblem_files` return ``{file name: bytes}``
for a seed.  Each name starts with its kind, ``<kind>--<source>[-<n>].sgf``:

* the kinds of :data:`PROBLEM_REASONS` and :data:`SUBPROBLEM_REASONS` are made
  the same way from every source and must be refused with that reason
  (or, where the reason is None, answered);
* the random kinds (:data:`RANDOM_KINDS`: truncations, bit flips, inserted
  bytes that are not UTF-8, duplicated properties, malformed values) may give
  a readable file or not: whichever, one answer or one line naming the file.

Run as a script, it prints the message of the first file of each kind
(the list in docs/formats.md):  ``python tests/hostile_files.py``.
"""
from __future__ import annotations

import random
import re
from pathlib import Path

REPOSITORY = Path(__file__).resolve().parents[1]
SOURCES = ["eye-shapes/bent-three-corner-kill", "eye-shapes/bulky-five-corner-live",
           "tesuji/placement-under-the-hane-kill", "seki/corner-seki-two-one-point", "ko/side-hane-ko"]
# One property and its values (escaped brackets inside text values included).
PROPERTY = re.compile(rb"([A-Z]{1,2})((?:\[(?:\\.|[^\]\\])*\]\s*)+)", re.S)
VALUE = re.compile(rb"\[((?:\\.|[^\]\\])*)\]", re.S)
JUNK = [b"", b" ", b"zz", b"-1", b"1", b"2", b"a", b"aaa", b"\xff\xfe", b"1e9", b"\\", b"tt", b"AA",
        b"aa:zz", b"99999999999999999999", b"\n"]

# kind: a fragment of the reason every file of the kind is refused with (None: it is answered).
PROBLEM_REASONS = {
    "empty-file": "not a valid SGF file",
    "blank-file": "not a valid SGF file",
    "binary-file": "not a valid SGF file",
    "root-variation-off-board": "root variation B[zz] is off the board",
    "root-variation-not-a-point": "root variation W[a] is not a point",
    "root-variation-two-values": "root variation B[aa][bb] has more than one value",
    "root-variation-both-colours": "a root variation holds both B[] and W[]",
    "SZ-too-small": "is off the board",
    "SZ-too-large": "board size 25 is larger than 19",
    "SZ-not-a-number": "SZ[x] is not a board size",
    "SZ-zero": "SZ[0] is not a board size",
    "SZ-duplicated": "has more than one value",
    "GN-two-values": "GN[a][b] has more than one value",
    "GN-not-UTF-8": "is not text in the file's encoding (UTF-8)",
    "CA-unknown": "CA[bogus] is not a known text encoding",
    "PL-duplicated": "has more than one value",
    "PL-bad": "PL[X] must be B or W",
    "PL-missing": "no PL[] property",
    "MA-missing": "no MA[] property",
    "MA-two-points": "MA[] marks 2 points",
    "MA-off-board": "MA[zz] is off the board",
    "MA-empty-value": "MA[] is not a point",
    "AB-off-board": "AB[zz] is off the board",
    "AW-malformed": "AW[ a] is not a point",
    "AB-and-AW": "is both in AB and AW",
    "SQ-off-board": "SQ[zz] is off the board",
    "SQ-on-a-stone": "stub is on an occupied point",
    "open-wall": "open wall",
    "comment-not-UTF-8": None,
    "huge-comment": None,
}
SUBPROBLEM_REASONS = {
    "AS-negative": "AS[-1] is not a count of available moves",
    "AS-too-large": "AS[999] is not a count of available moves",
    "AS-not-a-number": "AS[x] is not an integer",
    "AS-two-values": "AS[7][8] has more than one value",
    "AS-missing": "no AS[] label",
    "TS-two-values": "TS[0][1] has more than one value",
    "TS-space": "TS[ 1] must be 0 or 1",
    "TS-two": "TS[2] must be 0 or 1",
    "TS-missing": "no TS[] label",
    "TR-two-values": "TR[ca][da] has more than one value",
    "TR-off-board": "TR[zz] is off the board",
    "TR-on-a-stone": "is on an occupied point",
    "TR-but-PL-loses": "is a winning move, but TS[",
    "DS-wrong": "disagrees with PL[",
    "GN-missing": "no GN[] label",
    "MA-off-board": "MA[zz] is off the board",
    "root-variation-off-board": "root variation B[zz] is off the board",
}
RANDOM_KINDS = {"truncated": 6, "bit-flips": 10, "non-UTF-8-bytes": 4, "duplicated-property": 4,
                "malformed-value": 10}


def kind_of(name: str) -> str:
    return name.split("--", 1)[0]


def _values(data: bytes, prop: str) -> list[bytes]:
    """The values of the root's ``prop`` (its first occurrence)."""
    found = re.search(rb"(?<![A-Z])" + prop.encode() + rb"((?:\[(?:\\.|[^\]\\])*\])+)", data)
    return VALUE.findall(found.group(1)) if found else []


def _set(data: bytes, prop: str, values: bytes | None) -> bytes:
    """``prop`` given ``values`` (raw ``[..][..]`` text), added to the root if absent; None removes it."""
    pattern = rb"(?<![A-Z])" + prop.encode() + rb"(?:\[(?:\\.|[^\]\\])*\])+"
    new = b"" if values is None else prop.encode() + values
    if re.search(pattern, data):
        return re.sub(pattern, lambda _: new, data, count=1)
    return data.replace(b"(;", b"(;" + new, 1)


def _root_variation(data: bytes, text: bytes) -> bytes:
    end = data.rindex(b")")
    return data[:end] + text + data[end:]


def _problem_kinds(data: bytes) -> dict[str, bytes]:
    stone = _values(data, "AB")[0]
    target = _values(data, "MA")[0]
    other = next(point for point in _values(data, "AB") + _values(data, "AW") if point != target)
    return {
        "empty-file": b"",
        "blank-file": b" \n\t\n",
        "binary-file": bytes(range(256)) * 4,
        "root-variation-off-board": _root_variation(data, b"(;B[zz])"),
        "root-variation-not-a-point": _root_variation(data, b"(;W[a])"),
        "root-variation-two-values": _root_variation(data, b"(;B[aa][bb])"),
        "root-variation-both-colours": _root_variation(data, b"(;B[aa]W[bb])"),
        "SZ-too-small": _set(data, "SZ", b"[3]"),
        "SZ-too-large": _set(data, "SZ", b"[25]"),
        "SZ-not-a-number": _set(data, "SZ", b"[x]"),
        "SZ-zero": _set(data, "SZ", b"[0]"),
        "SZ-duplicated": data.replace(b"SZ[", b"SZ[19]SZ[", 1),
        "GN-two-values": _set(data, "GN", b"[a][b]"),
        "GN-not-UTF-8": _set(data, "GN", b"[\xff\xfe name]").replace(b"(;", b"(;CA[UTF-8]", 1),
        "CA-unknown": data.replace(b"(;", b"(;CA[bogus]", 1),
        "PL-duplicated": data.replace(b"PL[", b"PL[W]PL[", 1),
        "PL-bad": _set(data, "PL", b"[X]"),
        "PL-missing": _set(data, "PL", None),
        "MA-missing": _set(data, "MA", None),
        "MA-two-points": _set(data, "MA", b"[" + target + b"][" + other + b"]"),
        "MA-off-board": _set(data, "MA", b"[zz]"),
        "MA-empty-value": _set(data, "MA", b"[]"),
        "AB-off-board": _set(data, "AB", b"".join(b"[" + v + b"]" for v in _values(data, "AB")) + b"[zz]"),
        "AW-malformed": _set(data, "AW", b"[ a]" + b"".join(b"[" + v + b"]" for v in _values(data, "AW"))),
        "AB-and-AW": data.replace(b"AW[", b"AW[" + stone + b"][", 1),
        "SQ-off-board": _set(data, "SQ", b"[zz]"),
        "SQ-on-a-stone": _set(data, "SQ", b"[" + stone + b"]"),
        "open-wall": b"(;FF[4]SZ[9]PL[B]AB[ii]AW[ee]MA[ee])",
        "comment-not-UTF-8": _set(data, "C", b"[caf\xe9 \xff\xfe\x80]"),
        "huge-comment": _set(data, "C", b"[" + b"a long comment " * 200_000 + b"]"),
    }


def _subproblem_kinds(data: bytes) -> dict[str, bytes]:
    safe = _values(data, "TS")[0]
    defender_first = _values(data, "DS")[0]
    return {
        "AS-negative": _set(data, "AS", b"[-1]"),
        "AS-too-large": _set(data, "AS", b"[999]"),
        "AS-not-a-number": _set(data, "AS", b"[x]"),
        "AS-two-values": _set(data, "AS", b"[7][8]"),
        "AS-missing": _set(data, "AS", None),
        "TS-two-values": _set(data, "TS", b"[0][1]"),
        "TS-space": _set(data, "TS", b"[ 1]"),
        "TS-two": _set(data, "TS", b"[2]"),
        "TS-missing": _set(data, "TS", None),
        "TR-two-values": _set(data, "TR", b"[ca][da]"),
        "TR-off-board": _set(data, "TR", b"[zz]"),
        "TR-on-a-stone": _set(data, "TR", b"[" + _values(data, "MA")[0] + b"]"),
        "TR-but-PL-loses": _set(data, "TS", b"[0]" if safe == b"1" else b"[1]"),
        "DS-wrong": _set(data, "DS", b"[0]" if defender_first == b"1" else b"[1]"),
        "GN-missing": _set(data, "GN", None),
        "MA-off-board": _set(data, "MA", b"[zz]"),
        "root-variation-off-board": _root_variation(data, b"(;B[zz])"),
    }


def _random_kind(kind: str, data: bytes, rng: random.Random) -> bytes:
    if kind == "truncated":
        return data[:rng.randrange(len(data))]
    if kind == "bit-flips":
        flipped = bytearray(data)
        for _ in range(rng.randint(1, 4)):
            i = rng.randrange(len(flipped))
            flipped[i] ^= 1 << rng.randrange(8)
        return bytes(flipped)
    if kind == "non-UTF-8-bytes":
        i = rng.randrange(len(data))
        return data[:i] + bytes(rng.randrange(0x80, 0x100) for _ in range(rng.randint(1, 6))) + data[i:]
    properties = list(PROPERTY.finditer(data))
    found = rng.choice(properties)
    if kind == "duplicated-property":
        return data[:found.end()] + found.group(0) + data[found.end():]
    values = list(VALUE.finditer(data, found.start(2), found.end(2)))
    value = rng.choice(values)
    return data[:value.start(1)] + rng.choice(JUNK) + data[value.end(1):]


def _mutate(sources: dict[str, bytes], kinds, seed: int) -> dict[str, bytes]:
    rng = random.Random(seed)
    files = {}
    for stem, data in sources.items():
        for kind, made in kinds(data).items():
            files[f"{kind}--{stem}.sgf"] = made
        for kind, count in RANDOM_KINDS.items():
            for n in range(count):
                files[f"{kind}--{stem}-{n}.sgf"] = _random_kind(kind, data, rng)
    return files


def source_problems() -> dict[str, bytes]:
    return {source.replace("/", "-"): (REPOSITORY / "sgf-problems" / f"{source}.sgf").read_bytes()
            for source in SOURCES}


def source_subproblems() -> dict[str, bytes]:
    """Each source problem as a subproblem file, labelled by the solver for PL (who wins with a move)."""
    from pipeline.formats.subproblem import Subproblem
    from solver import Solver, parse_problem

    subs = {}
    for stem, data in source_problems().items():
        problem = parse_problem(data, stem)
        solver = Solver(problem)
        verdict = solver.solve(problem.to_play, max_nodes=100_000)
        sub = Subproblem(size=problem.size, stones=problem.stones, target=problem.target,
                         to_play=problem.to_play, safe=verdict.status == "safe",
                         available_moves=solver.area_size, best_move=verdict.move,
                         source=f"hostile/{stem}")
        subs[stem] = sub.to_sgf().encode()
    return subs


def problem_files(seed: int = 0) -> dict[str, bytes]:
    files = _mutate(source_problems(), _problem_kinds, seed)
    files["huge-junk--random.sgf"] = random.Random(seed).randbytes(3_000_000)
    return files


def subproblem_files(seed: int = 0) -> dict[str, bytes]:
    return _mutate(source_subproblems(), _subproblem_kinds, seed)


def write(files: dict[str, bytes], folder: Path) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    for name, data in files.items():
        (folder / name).write_bytes(data)
    return folder


def _first_of_each_kind(files: dict[str, bytes], kinds) -> list[tuple[str, bytes]]:
    firsts = {}
    for name, data in files.items():
        if kind_of(name) in kinds:
            firsts.setdefault(kind_of(name), (name, data))
    return list(firsts.values())


def _print_messages() -> None:
    """The message of the first file of each kind with a known reason, as the stages give it."""
    from pipeline.features_pipeline import SplitSettings, record_of
    from solver import Solver, parse_problem
    from solver.problem import reason_of

    print("problem files (solve, solve-all, eval):")
    for name, data in _first_of_each_kind(problem_files(), PROBLEM_REASONS):
        try:
            Solver(parse_problem(data, name))
            print(f"  {name}: read")
        except Exception as exc:
            print(f"  {name}: {reason_of(exc)}")
    print("subproblem files (features):")
    for name, data in _first_of_each_kind(subproblem_files(), SUBPROBLEM_REASONS):
        try:
            record_of(name, data, SplitSettings())
            print(f"  {name}: read")
        except Exception as exc:
            print(f"  {name}: {getattr(exc, 'reason', None) or exc}")


if __name__ == "__main__":
    _print_messages()
