"""Run the reference solver tsumego.js 1.1.0 on problem SGF files.

tsumego.js is a Node.js package, so it lives in a cache folder outside the
repository (``$TSUMEGO_PEER_CACHE`` or ``~/.cache/tsumego-peer``) and is driven
by ``solve_peer.js`` beside this module, which prints one JSON line per file:

    {"file": ..., "to_play": "B"|"W", "move": "B[xy]"|"B[]"|None,
     "status": "safe"|"unsafe", "nodes": N, "seconds": S}

or ``{"file": ..., "error": "..."}`` when a file cannot be solved.
"""
from __future__ import annotations

import json
import os
import queue
import shutil
import subprocess
import threading
import time
from pathlib import Path
from typing import Iterable, Sequence

PACKAGE = "tsumego.js"
VERSION = "1.1.0"
SCRIPT = Path(__file__).with_name("solve_peer.js")
KO_MASTERS = ("attacker", "defender", "none")


class PeerUnavailable(RuntimeError):
    """Node.js, npm or the tsumego.js package cannot be used."""


def default_cache_dir() -> Path:
    return Path(os.environ.get("TSUMEGO_PEER_CACHE") or Path.home() / ".cache" / "tsumego-peer")


def _installed_version(module: Path) -> str | None:
    try:
        return json.loads((module / "package.json").read_text())["version"]
    except (OSError, ValueError, KeyError):
        return None


def ensure_installed(cache_dir: str | os.PathLike | None = None) -> Path:
    """Install tsumego.js 1.1.0 into ``cache_dir`` unless it is there; return its folder."""
    if shutil.which("node") is None:
        raise PeerUnavailable("node is not on PATH: install Node.js to run tsumego.js")
    cache = Path(cache_dir) if cache_dir is not None else default_cache_dir()
    module = cache / "node_modules" / PACKAGE
    if _installed_version(module) == VERSION:
        return module
    npm = shutil.which("npm")
    if npm is None:
        raise PeerUnavailable(f"npm is not on PATH: cannot install {PACKAGE}@{VERSION}")
    try:
        cache.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise PeerUnavailable(f"cannot create the cache folder {cache}: {e}") from e
    cmd = [npm, "install", "--prefix", str(cache), "--no-audit", "--no-fund", f"{PACKAGE}@{VERSION}"]
    done = subprocess.run(cmd, capture_output=True, text=True)
    if done.returncode != 0 or _installed_version(module) != VERSION:
        detail = (done.stderr or done.stdout).strip().splitlines()[-1:] or ["no output"]
        raise PeerUnavailable(f"'{' '.join(cmd)}' failed: {detail[0]}")
    return module


def _run_node(args: list[str], deadline: float | None, file_timeout: float | None):
    """Run node, reading its JSON lines as they come.

    Returns (rows, exit code, stderr text, why): ``why`` is None when node
    ended by itself, else "run" or "file" for the time limit that stopped it
    (node is then killed and the exit code is None).  The per-file clock
    starts at node's "ready" line, so start-up is not charged to a file.
    """
    proc = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    lines: queue.Queue = queue.Queue()
    errors: list[bytes] = []

    def read_stdout():
        for line in proc.stdout:
            lines.put(line)
        lines.put(None)

    readers = [threading.Thread(target=read_stdout, daemon=True),
               threading.Thread(target=lambda: errors.append(proc.stderr.read()), daemon=True)]
    for reader in readers:
        reader.start()
    rows, why, ready = [], None, False
    while True:
        left = None if deadline is None else max(deadline - time.monotonic(), 0.0)
        wait, why_if_late = left, "run"
        if ready and file_timeout is not None and (left is None or file_timeout < left):
            wait, why_if_late = file_timeout, "file"
        try:
            line = lines.get(timeout=wait)
        except queue.Empty:
            proc.kill()
            why = why_if_late
            break
        if line is None:
            break
        if line.strip():
            row = json.loads(line)
            if row.get("ready"):
                ready = True
            else:
                rows.append(row)
    code = proc.wait()
    for reader in readers:
        reader.join()
    stderr = b"".join(errors).decode("utf-8", "replace")
    return rows, (None if why else code), stderr, why


def solve_files(
    files: Iterable[str | os.PathLike],
    ko_master: str = "attacker",
    play: Sequence[str] = (),
    solve_as: str | None = None,
    timeout: float | None = None,
    cache_dir: str | os.PathLike | None = None,
    file_timeout: float | None = None,
) -> list[dict]:
    """Solve every file with tsumego.js in one Node process; one dict per file, in order.

    ``play`` moves (e.g. ``"B[cd]"``) are played first; the side solved for is then
    ``solve_as``, else the opponent of the last played move, else ``PL[]``.
    ``timeout`` bounds the whole run in seconds: when it expires the file being
    solved gets a timeout error and the files after it a "not run" error.
    ``file_timeout`` bounds each file: a file that takes longer gets a timeout
    error and the run goes on with the next one in a fresh process.  Timed-out
    files carry ``"timed_out": True`` beside the error.  If Node dies on a file
    (e.g. out of memory), that file gets the error and the run goes on with the
    rest in a fresh process.
    """
    if ko_master not in KO_MASTERS:
        raise ValueError(f"ko_master must be one of {KO_MASTERS}, not {ko_master!r}")
    files = [str(f) for f in files]
    module = ensure_installed(cache_dir)
    options = ["--module", str(module), "--ko-master", ko_master, "--ready"]
    for move in play:
        options += ["--play", move]
    if solve_as is not None:
        options += ["--solve-as", solve_as]

    results: list[dict] = []
    deadline = None if timeout is None else time.monotonic() + timeout
    while len(results) < len(files):
        lines, code, stderr, late = _run_node(["node", str(SCRIPT), *options, *files[len(results):]],
                                              deadline, file_timeout)
        results += lines
        if len(results) == len(files):
            break
        current, rest = files[len(results)], files[len(results) + 1:]
        if late == "run":
            results.append({"file": current, "error": f"timeout: the run took over {timeout} s",
                            "timed_out": True})
            results += [{"file": f, "error": "not run: the run timed out"} for f in rest]
            break
        if late == "file":
            results.append({"file": current, "error": f"timeout: over {file_timeout} s on this file",
                            "timed_out": True})
            continue
        if not lines and code == 2:  # a usage error: every file would fail the same way
            raise ValueError(stderr.strip())
        last = (stderr.strip().splitlines() or ["no output"])[-1]
        # Node died on `current` (e.g. out of memory): note it, go on in a new process
        results.append({"file": current, "error": f"node exited with code {code}: {last}"})
    return results
