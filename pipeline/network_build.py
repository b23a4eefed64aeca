"""``make network`` as a build that resumes over days, and ``make network-status``.

    python -m pipeline.network_build run    [--cache DIR] [--shared DIR] [--network NAME] [--seed S]
                                            [--bits B] [--beam "..."] [--enclose-options "..."]
                                            [--until STAGE] [--share-from OTHER_CACHE]
    python -m pipeline.network_build status [--cache DIR] [--shared DIR] ...

Rebuilding the shipped network from ``../shared`` takes about seven hours on 2
cores (the book problems enclosed, their trees, the features, two trainings),
longer than a working session, and a session's processes end with it.  So
every stage keeps its output in one cache folder outside the repository
(``NETWORK_CACHE``, by default ``~/.cache/tsumego/network``), which survives
from one day to the next on the same machine, and the build is a list of
stages (:data:`STAGES`), each a ``tsumego`` command:

- a stage is **done** when its stamp (``stamps/<stage>.json``) holds the key
  of its command, its settings and the keys of the stages it reads, and its
  output is complete; a done stage is skipped;
- otherwise it runs: ``enclose`` and ``solve-all`` go on in place (each
  keeps a record per problem and redoes only what changed; a new reading
  version runs ``enclose`` again without changing its key, and changes the
  keys of the stages after it only if the run changed the enclosed problems:
  :attr:`Stage.code_version`), ``train``
  stages go on from their last checkpoint (``--resume``), and any other
  stage whose key changed starts from an empty folder;
- the stamp is written once the stage's command succeeds (exit code 0, or 1
  where the shared collections hold files the stage rejects, each named on
  stderr), with the seconds it took.

A build that differs from another only in later stages (an ablation: another
cap on the trees, another seed) takes the other build's finished stages with
``--share-from OTHER_CACHE``: a stage whose key is done there is linked, not
run (keys name no cache folder).  A linked stage whose key later changes is
unlinked and run here, so the other build's files are never written.

``status`` prints every stage as ``done`` (and what it took), ``partial``
(how far: problems enclosed, trees grown, epochs trained) or ``to do``,
with the time each is expected to take on 2 cores, so whoever picks the
build up knows where it stands before starting it again.  The network,
packed, is copied to ``model/networks/<NAME>`` at the end.
"""
from __future__ import annotations

import argparse
import dataclasses
import hashlib
import json
import os
import shlex
import shutil
import subprocess
import sys
import time
from pathlib import Path

from pipeline.batch import REJECTED

REPOSITORY = Path(__file__).resolve().parents[1]
DEFAULT_CACHE = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "tsumego" / "network"
STAMPS = "stamps"


@dataclasses.dataclass(frozen=True)
class Settings:
    """What the build is asked for (the Makefile's variables)."""

    cache: Path
    shared: Path
    network: str = "conv-books"
    seed: int = 0
    bits: int = 5
    max_subproblems: int = 100
    book_test: float = 0.1
    reference_test: float = 0.34
    beam: tuple[str, ...] = ()
    enclose_options: tuple[str, ...] = ()
    share_from: Path | None = None   # another build's cache whose finished stages are linked


@dataclasses.dataclass(frozen=True)
class Stage:
    """One step: ``command(settings)`` writes ``output`` (relative to the cache), finished when
    ``complete`` holds; ``reads`` names the stages whose output it reads; ``in_place``: a changed
    key reruns the command in its folder rather than from an empty one; ``expected_minutes``: on
    2 cores, for ``status``."""

    name: str
    output: str
    command: object              # settings -> list of arguments after ``tsumego``
    complete: object             # (cache folder) -> bool
    progress: object             # (cache folder, settings) -> str, how far a partial run got
    reads: tuple[str, ...] = ()
    shared_inputs: tuple[str, ...] = ()   # folders of the shared data it reads
    in_place: bool = False
    rejections_allowed: bool = False      # exit code 1: inputs rejected, each named
    expected_minutes: int = 10
    # () -> the version of the code an in-place stage runs, kept in its stamp: a stamp of
    # another version makes the stage run again, in place, without changing its key (the
    # command itself decides what to redo); ``answers``: (cache folder) -> a digest of what
    # the stages after it read, which, changed by such a run, changes the keys they read
    code_version: object = None
    answers: object = None


def count_files(folder: Path, pattern: str) -> int:
    return sum(1 for _ in folder.rglob(pattern)) if folder.is_dir() else 0


def tree_progress(out: Path, problems: Path) -> str:
    """How far a solve-all run got: trees finished, sides grown or set aside, of the problems."""
    sides = count_files(out / "partial", "*.sgf") + count_files(out / "rejected", "*.json")
    return (f"{count_files(out / 'trees', '*.sgf')} of {count_files(problems, '*.sgf')} trees, "
            f"{sides} sides grown or set aside")


def enclose_progress(out: Path, settings: Settings) -> str:
    """How far an enclose run got: the problems whose record holds for today's settings (a
    record of an earlier ``READING_VERSION`` is checked on a sample when the stage runs, then
    kept or redone), where the build's enclose options are the defaults; else every record."""
    problems = count_files(settings.shared / "sgf-open", "*.sgf")
    if settings.enclose_options:
        return f"{count_files(out / 'records', '*.json')} of {problems} problems"
    from pipeline.enclose.command import record_settings
    from pipeline.enclose.keys import fingerprint
    from pipeline.enclose.reading_check import earlier_version

    current = record_settings()
    done = earlier = 0
    for path in out.glob("records/**/*.json"):
        try:
            record = json.loads(path.read_text())
            data = Path(record["file"]).read_bytes()
            if record.get("fingerprint") == fingerprint(data, current):
                done += 1
            else:
                earlier += earlier_version(record, data, current) is not None
        except (OSError, ValueError, KeyError, TypeError):
            pass   # a record being written, or of a file gone: not done
    return (f"{done} of {problems} problems with today's settings"
            + (f", {earlier} of an earlier reading (checked on a sample when it runs)" if earlier else ""))


def training_progress(folder: Path) -> str:
    progress = folder / "checkpoints" / "progress.json"
    if (folder / "model.keras").exists():
        return "trained"
    if not progress.exists():
        return "not started"
    # read here, not through model.checkpoints: pipeline sits below model (tests/test_layers.py)
    state = json.loads(progress.read_text())
    # the run's epochs stand in its limits (model.train writes progress.json so)
    epochs = (state.get("limits") or {}).get("epochs", "?")
    return f"{state.get('epochs_done', 0)} of {epochs} epochs"


def _reference_commands(s: Settings):
    reference = s.cache / "reference"
    return {
        "reference-solve-all": ["solve-all", "--problems", str(s.shared / "sgf-problems"),
                                "--out", str(reference / "solve-all"), "--max-subproblems",
                                str(s.max_subproblems), "--no-progress", *s.beam],
        "reference-features": ["features", "--subproblems", str(reference / "solve-all" / "subproblems"),
                               "--out", str(reference / "tfrecords"), "--test-fraction", str(s.reference_test),
                               "--seed", str(s.seed), "--no-progress", *s.beam],
    }


def _train(s: Settings, out: str, *recipe: str) -> list[str]:
    reference_train = [a for _ in range(4) for a in ("--extra-train", str(s.cache / "reference" / "tfrecords"))]
    return ["train", "--data", str(s.cache / "tfrecords"), "--out", str(s.cache / out), *recipe,
            "--seed", str(s.seed), *reference_train, "--extra-split", "train", "--validation-fraction", "0"]


STAGES = (
    Stage("reference-solve-all", "reference/solve-all",
          lambda s: _reference_commands(s)["reference-solve-all"],
          complete=lambda c: (c / "reference/solve-all/stats.json").exists(),
          progress=lambda c, s: tree_progress(c / "reference/solve-all", s.shared / "sgf-problems"),
          shared_inputs=("sgf-problems",), in_place=True, rejections_allowed=True, expected_minutes=8),
    Stage("reference-features", "reference/tfrecords",
          lambda s: _reference_commands(s)["reference-features"],
          complete=lambda c: (c / "reference/tfrecords/features.json").exists(),
          progress=lambda c, s: "", reads=("reference-solve-all",), expected_minutes=2),
    Stage("enclose", "enclosed",
          lambda s: ["enclose", str(s.shared / "sgf-open"), "--out", str(s.cache / "enclosed"), "--no-guide",
                     "--no-progress", *s.enclose_options, *s.beam],
          complete=lambda c: (c / "enclosed/summary.md").exists(),
          progress=lambda c, s: enclose_progress(c / "enclosed", s),
          shared_inputs=("sgf-open",), in_place=True, rejections_allowed=True, expected_minutes=95,
          code_version=lambda: reading_version(), answers=lambda c: files_digest(c / "enclosed", "*.sgf")),
    Stage("solve-all", "solve-all",
          lambda s: ["solve-all", "--problems", str(s.cache / "enclosed"), "--out", str(s.cache / "solve-all"),
                     "--max-subproblems", str(s.max_subproblems), "--no-progress", *s.beam],
          complete=lambda c: (c / "solve-all/stats.json").exists(),
          progress=lambda c, s: tree_progress(c / "solve-all", c / "enclosed"),
          reads=("enclose",), in_place=True, rejections_allowed=True, expected_minutes=70),
    Stage("same-positions", "copies.txt",
          lambda s: ["same-positions", "--open", str(s.shared / "sgf-open"), "--enclosed",
                     str(s.shared / "sgf-problems"), "--out", str(s.cache / "same-positions.json"),
                     "--held-out", str(s.cache / "reference" / "tfrecords"),
                     "--copies-out", str(s.cache / "copies.txt")],
          complete=lambda c: (c / "copies.txt").exists(), progress=lambda c, s: "",
          reads=("reference-features",), shared_inputs=("sgf-open", "sgf-problems"), rejections_allowed=True,
          expected_minutes=3),
    Stage("features", "tfrecords",
          lambda s: ["features", "--subproblems", str(s.cache / "solve-all" / "subproblems"),
                     "--out", str(s.cache / "tfrecords"), "--test-fraction", str(s.book_test),
                     "--seed", str(s.seed), "--exclude-problems", str(s.cache / "copies.txt"),
                     "--no-progress", *s.beam],
          complete=lambda c: (c / "tfrecords/features.json").exists(), progress=lambda c, s: "",
          reads=("solve-all", "same-positions"), expected_minutes=15),
    Stage("train", "model",
          lambda s: _train(s, "model", "--config", "conv-books"),
          complete=lambda c: (c / "model/model.keras").exists(),
          progress=lambda c, s: training_progress(c / "model"),
          reads=("features", "reference-features"), expected_minutes=95),
    Stage("train-longer", "model-longer",
          lambda s: _train(s, "model-longer", "--config", "conv-books-longer")
          + ["--resume", str(s.cache / "model")],
          complete=lambda c: (c / "model-longer/model.keras").exists(),
          progress=lambda c, s: training_progress(c / "model-longer"),
          reads=("train",), expected_minutes=90),
    Stage("quantize", "model-longer/model-5bit.tsq",
          lambda s: ["quantize", "--model", str(s.cache / "model-longer"), "--bits", str(s.bits), "--no-table"],
          complete=lambda c: any((c / "model-longer").glob("model-*bit.tsq")), progress=lambda c, s: "",
          reads=("train-longer",), in_place=True, expected_minutes=1),
)


def reading_version():
    from pipeline.enclose.question import READING_VERSION
    return READING_VERSION


# What the enclose stage's key holds of its version: frozen at the reading version it last
# named (12), so that builds stamped then keep their keys.  A change of the reading code
# does not change the key: the stage runs again in place (its ``code_version``) and the
# command keeps the records whose answers a sample shows unchanged, or redoes them all
# (pipeline/enclose/reading_check.py).
ENCLOSE_KEY_VERSION = "reading 12"


def files_digest(folder: Path, pattern: str) -> str:
    """A hash of the names and bytes of ``folder``'s files matching ``pattern``, at any depth."""
    digest = hashlib.sha256()
    for path in sorted(folder.rglob(pattern)):
        digest.update(f"{path.relative_to(folder)}\0".encode() + path.read_bytes() + b"\0")
    return digest.hexdigest()


def changed_by_code(cache: Path, stage: Stage, key: str) -> str:
    """What the stages after ``stage`` read of it beside its key: the code version whose run
    last changed its answers (its stamp's ``changed_at``), or nothing."""
    stamp = read_stamp(cache, stage.name) or {}
    if stage.code_version is None or stamp.get("key") != key or stamp.get("changed_at") is None:
        return ""
    return f" changed by code version {stamp['changed_at']}"


def shared_listing(folder: Path) -> str:
    """A hash of a shared folder's ``*.sgf`` names and sizes: a changed collection changes the key
    (the stages themselves tell a changed file by its bytes)."""
    digest = hashlib.sha256()
    for path in sorted(folder.rglob("*.sgf")):
        digest.update(f"{path.relative_to(folder)}\0{path.stat().st_size}\n".encode())
    return digest.hexdigest()


def stage_keys(settings: Settings) -> dict[str, str]:
    """Each stage's key: its command (the cache folder written as ``CACHE``, so a moved cache
    keeps its stamps), the versions its output depends on, its shared inputs' listing and the
    keys of the stages it reads.  The reading's version is not among them: the enclose
    command checks its records against a new one itself (:data:`ENCLOSE_KEY_VERSION`)."""
    from pipeline.planes import plane_names

    versions = {"enclose": ENCLOSE_KEY_VERSION, "features": ",".join(plane_names()),
                "reference-features": ",".join(plane_names())}
    keys: dict[str, str] = {}
    read_as: dict[str, str] = {}   # a stage's key as the stages that read it see it
    listings: dict[str, str] = {}
    for stage in STAGES:
        # the Beam options say how to run, not what: they stay out of the key
        command = [a.replace(str(settings.cache), "CACHE").replace(str(settings.shared), "SHARED")
                   for a in stage.command(dataclasses.replace(settings, beam=()))]
        for name in stage.shared_inputs:
            if name not in listings:
                listings[name] = shared_listing(settings.shared / name)
        material = {"command": command, "version": versions.get(stage.name, ""),
                    "shared": [listings[n] for n in stage.shared_inputs],
                    "reads": [read_as[n] for n in stage.reads]}
        keys[stage.name] = hashlib.sha256(json.dumps(material, sort_keys=True).encode()).hexdigest()[:16]
        read_as[stage.name] = keys[stage.name] + changed_by_code(settings.cache, stage, keys[stage.name])
    return keys


def read_stamp(cache: Path, name: str) -> dict | None:
    try:
        return json.loads((cache / STAMPS / f"{name}.json").read_text())
    except (OSError, ValueError):
        return None


def write_stamp(cache: Path, name: str, stamp: dict) -> None:
    (cache / STAMPS).mkdir(parents=True, exist_ok=True)
    path = cache / STAMPS / f"{name}.json"
    partial = path.with_suffix(".partial")
    partial.write_text(json.dumps(stamp, indent=1) + "\n")
    partial.replace(path)


def state_of(stage: Stage, cache: Path, key: str) -> str:
    """``done``, ``partial`` (started, or done for other inputs or code) or ``to do``."""
    stamp = read_stamp(cache, stage.name)
    if (stamp is not None and stamp.get("key") == key and stage.complete(cache)
            and (stage.code_version is None or stamp.get("code_version") == stage.code_version())):
        return "done"
    return "partial" if (cache / stage.output).exists() else "to do"


def minutes(seconds: float) -> str:
    return f"{seconds / 60:.0f} min" if seconds >= 60 else f"{seconds:.0f} s"


def status_rows(settings: Settings) -> list[list[str]]:
    keys = stage_keys(settings)
    rows = []
    for stage in STAGES:
        state = state_of(stage, settings.cache, keys[stage.name])
        stamp = read_stamp(settings.cache, stage.name) or {}
        if state == "done":
            how_far = ""
            took = training_time(settings.cache / stage.output)
            if took is None:
                took = minutes(stamp.get("seconds", 0.0))
                if stamp.get("went_on"):
                    # a sitting stopped before it could write its stamp left no time behind
                    took += " (its last sitting)"
        else:
            how_far = stage.progress(settings.cache, settings) if state == "partial" else ""
            if state == "partial" and stamp and stamp.get("key") != keys[stage.name]:
                how_far = ("done for earlier inputs or settings; " + how_far).rstrip("; ")
            elif state == "partial" and stamp and stage.code_version is not None:
                how_far = (f"done by code version {stamp.get('code_version', '?')}, "
                           f"today {stage.code_version()}; " + how_far).rstrip("; ")
            took = f"about {stage.expected_minutes} min on 2 cores"
        rows.append([stage.name, state, how_far, took])
    return rows


def run_stage(stage: Stage, settings: Settings, key: str, tsumego: str) -> None:
    cache = settings.cache
    stamp = read_stamp(cache, stage.name)
    output = cache / stage.output
    if not inside(output, cache):
        raise SystemExit(f"network: {stage.name}: its output {output} lies in a stage linked from another "
                         "build, which this one must not write: build without --share-from")
    if output.is_symlink():
        output.unlink()   # another build's output, linked while the keys agreed: run it here
    elif stamp is not None and stamp.get("key") != key and not stage.in_place and output.exists():
        # its inputs or settings changed: start it again from nothing
        shutil.rmtree(output) if output.is_dir() else output.unlink()
    command = stage.command(settings)
    # a sitting that goes on with what an earlier one left: its stamp times this sitting only
    went_on = output.exists() and stage.in_place
    if (output / "checkpoints" / "progress.json").exists():
        command = resumed(command, output)
        went_on = True
    print(f"network: {stage.name}: {shlex.join(['tsumego', *command])}", flush=True)
    # a run for a new code version alone: did it change what the stages after it read?
    same_key = stamp is not None and stamp.get("key") == key and stage.code_version is not None
    answers = stage.answers(cache) if same_key and stage.answers is not None else None
    started = time.monotonic()
    code = subprocess.call([tsumego, *command])
    if code != 0 and not (code == REJECTED and stage.rejections_allowed):
        raise SystemExit(f"network: {stage.name} failed (exit code {code}); `make network` goes on from here")
    new = {"key": key, "seconds": round(time.monotonic() - started, 1),
           "finished": time.strftime("%Y-%m-%d %H:%M:%S"), "command": command, "went_on": went_on}
    if stage.code_version is not None:
        new["code_version"] = stage.code_version()
        changed_at = stamp.get("changed_at") if same_key else None
        if answers is not None and stage.answers(cache) != answers:
            changed_at = stage.code_version()   # the stages after it read other answers: their keys change
        if changed_at is not None:
            new["changed_at"] = changed_at
    write_stamp(cache, stage.name, new)


def resumed(command: list[str], unfinished: Path) -> list[str]:
    """A ``train`` command going on with the unfinished run in ``unfinished`` (``--resume`` of
    it, in place of the finished run the command would start from)."""
    if "--resume" in command:
        at = command.index("--resume")
        return [*command[:at], "--resume", str(unfinished), *command[at + 2:]]
    return [*command, "--resume", str(unfinished)]


def training_time(folder: Path) -> str | None:
    """A finished training's time over its sittings, from the ``model.json`` model.train
    writes (``seconds`` counts every sitting), where it took more than one; else None."""
    try:
        record = json.loads((folder / "model.json").read_text())
    except (OSError, ValueError):
        return None
    sittings = (record.get("sittings") or []) if isinstance(record, dict) else []
    if len(sittings) < 2:
        return None
    return f"{minutes(record.get('seconds', 0.0))} of training in {len(sittings)} sittings"


def inside(path: Path, cache: Path) -> bool:
    """Whether ``path``'s folder is the cache's own, not one linked from another build."""
    return path.parent.resolve().is_relative_to(cache.resolve())


def link_shared(stage: Stage, settings: Settings, key: str) -> bool:
    """Link ``stage``'s output from ``settings.share_from`` when it is done there for the same
    key (and copy its stamp); whether it was linked."""
    other = settings.share_from
    if other is None or other == settings.cache or state_of(stage, other, key) != "done":
        return False
    output = settings.cache / stage.output
    source = (other / stage.output).resolve()
    if output.resolve() != source:   # (already there when it lies in a stage linked before)
        if not inside(output, settings.cache):
            return False
        if output.is_symlink():
            output.unlink()
        elif output.exists():
            shutil.rmtree(output) if output.is_dir() else output.unlink()
        output.parent.mkdir(parents=True, exist_ok=True)
        output.symlink_to(source)
    write_stamp(settings.cache, stage.name, dict(read_stamp(other, stage.name), shared_from=str(other)))
    return True


def install(settings: Settings) -> Path:
    """Copy the packed network and its spec into ``model/networks/<network>``."""
    source = settings.cache / "model-longer"
    target = REPOSITORY / "model" / "networks" / settings.network
    target.mkdir(parents=True, exist_ok=True)
    for name in (f"model-{settings.bits}bit.tsq", "model.json"):
        shutil.copy2(source / name, target / name)
    return target


def print_status(settings: Settings) -> None:
    from pipeline.markdown import markdown_table

    print(f"network build in {settings.cache}:")
    print("\n".join(markdown_table(["stage", "state", "how far", "took / expected"], status_rows(settings), "llll")))


def settings_from(args) -> Settings:
    return Settings(cache=Path(args.cache).expanduser().resolve(), shared=Path(args.shared).resolve(),
                    network=args.network, seed=args.seed, bits=args.bits,
                    max_subproblems=args.max_subproblems, beam=tuple(shlex.split(args.beam)),
                    enclose_options=tuple(shlex.split(args.enclose_options)),
                    share_from=Path(args.share_from).expanduser().resolve() if args.share_from else None)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("action", choices=("run", "status"))
    parser.add_argument("--cache", default=str(DEFAULT_CACHE), help=f"(default: {DEFAULT_CACHE})")
    parser.add_argument("--shared", default=str(REPOSITORY.parent / "shared"), help="(default: ../shared)")
    parser.add_argument("--network", default="conv-books", help="(default: conv-books)")
    parser.add_argument("--seed", type=int, default=0, help="(default: 0)")
    parser.add_argument("--bits", type=int, default=5, help="(default: 5)")
    parser.add_argument("--max-subproblems", type=int, default=100, help="(default: 100)")
    parser.add_argument("--beam", default="", help="Beam options for the stages (default: none)")
    parser.add_argument("--enclose-options", default="", help="(default: none)")
    parser.add_argument("--share-from", metavar="OTHER_CACHE",
                        help="link the stages another build has done with the same keys (default: none)")
    parser.add_argument("--until", choices=[stage.name for stage in STAGES],
                        help="run: stop after this stage (default: build and install the network)")
    args = parser.parse_args(argv)
    settings = settings_from(args)
    for folder in ("sgf-open", "sgf-problems"):
        if not (settings.shared / folder).is_dir():
            print(f"error: {settings.shared / folder}: the shared collection is not there", file=sys.stderr)
            return 2
    if args.action == "status":
        print_status(settings)
        return 0
    settings.cache.mkdir(parents=True, exist_ok=True)
    tsumego = str(Path(sys.executable).with_name("tsumego"))
    keys = stage_keys(settings)
    for stage in STAGES:
        if state_of(stage, settings.cache, keys[stage.name]) == "done":
            print(f"network: {stage.name}: done, skipped", flush=True)
        elif link_shared(stage, settings, keys[stage.name]):
            print(f"network: {stage.name}: done in {settings.share_from}, linked", flush=True)
        else:
            run_stage(stage, settings, keys[stage.name], tsumego)
            keys = stage_keys(settings)   # a stage whose answers changed changes the keys of those after it
        if stage.name == args.until:
            return 0
    print(f"network: installed in {install(settings)}")
    print_status(settings)
    return 0


if __name__ == "__main__":
    sys.exit(main())
