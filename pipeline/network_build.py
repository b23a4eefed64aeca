"""``make network`` as a build that resumes over days, and ``make network-status``.

    python -m pipeline.network_build run    [--size short|full] [--cache DIR] [--shared DIR]
                                            [--network NAME] [--seed S] [--bits B] [--beam "..."]
                                            [--enclose-options "..."] [--until STAGE]
                                            [--share-from OTHER_CACHE] [--generated N]
                                            [--start shipped|fresh] [--epochs N] [--data short|full]
    python -m pipeline.network_build status [--size short|full] [--cache DIR] ...

The build is a list of stages (:func:`pipeline.network_stages.stages`: the
short one of 123 minutes on 2 cores, from the shipped weights, and the full
one of seven hours), each a ``tsumego`` command.  A session's processes end
with it, so every stage keeps its output in one cache folder outside the
repository (``NETWORK_CACHE``, by default ``~/.cache/tsumego/network-short``
or ``network``), which survives from one day to the next on the same machine:

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
packed, is copied to ``model/networks/<NAME>`` at the end with its float
weights, and ``tsumego card`` writes its lineage and held-out figures there.
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

from pipeline import network_stages
from pipeline.batch import REJECTED
from pipeline.network_stages import (SIZE_RECIPES, SIZES, Settings, Stage, build_stages,  # noqa: F401
                                     files_digest, stages, training_progress)

CACHE_ROOT = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "tsumego"
# each size its own cache: their enclosed problems differ, and one would redo the other's
DEFAULT_CACHES = {"short": CACHE_ROOT / "network-short", "full": CACHE_ROOT / "network"}
STAMPS = "stamps"
# The full build's stages, as the tests and tools that name them read them
STAGES = stages("full")


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
    keeps its stamps), its ``version`` (what else its output depends on), its shared inputs'
    listing and the keys of the stages it reads.  The reading's version is not among them: the
    enclose command checks its records against a new one itself (``ENCLOSE_KEY_VERSION``)."""
    keys: dict[str, str] = {}
    read_as: dict[str, str] = {}   # a stage's key as the stages that read it see it
    listings: dict[str, str] = {}
    for stage in build_stages(settings):
        # the Beam options say how to run, not what: they stay out of the key
        command = [a.replace(str(settings.cache), "CACHE").replace(str(settings.shared), "SHARED")
                   for a in stage.command(dataclasses.replace(settings, beam=()))]
        for name in stage.shared_inputs:
            if name not in listings:
                listings[name] = shared_listing(settings.shared / name)
        material = {"command": command, "version": stage.version(settings) if stage.version else "",
                    "shared": [listings[n] for n in stage.shared_inputs],
                    "reads": [read_as[n] for n in stage.reads if n in read_as]}
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
    for stage in build_stages(settings):
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
            expected = settings.data_recipe.expected_minutes.get(stage.name, stage.expected_minutes)
            took = f"about {expected} min on 2 cores"
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
    print(f"network: {stage.name}: {shlex.join(['tsumego', *command]) if stage.action is None else ' '.join(command)}",
          flush=True)
    # a run for a new code version alone: did it change what the stages after it read?
    same_key = stamp is not None and stamp.get("key") == key and stage.code_version is not None
    answers = stage.answers(cache) if same_key and stage.answers is not None else None
    started = time.monotonic()
    if stage.action is not None:
        stage.action(settings)
        code = 0
    else:
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


def installed(settings: Settings) -> bool:
    """Whether the repository's network is this build's already (its packed file the same)."""
    name = f"model-{settings.bits}bit.tsq"
    built = settings.cache / SIZE_RECIPES[settings.size].trained / name
    target = network_stages.REPOSITORY / "model" / "networks" / settings.network / name
    return target.is_file() and built.read_bytes() == target.read_bytes()


def install(settings: Settings, tsumego: str) -> Path:
    """Copy the packed network, its float weights (what the next build starts from) and its
    spec into ``model/networks/<network>``, the cache's paths in the spec written as
    ``NETWORK_CACHE``; then ``tsumego card`` writes the report's calibration into the spec and
    the lineage and held-out figures into the card (its README)."""
    source = settings.cache / SIZE_RECIPES[settings.size].trained
    target = network_stages.REPOSITORY / "model" / "networks" / settings.network
    target.mkdir(parents=True, exist_ok=True)
    for name in (f"model-{settings.bits}bit.tsq", "model-float.tsq"):
        shutil.copy2(source / name, target / name)
    spec = (source / "model.json").read_text().replace(str(settings.cache), "NETWORK_CACHE")
    (target / "model.json").write_text(spec)
    code = subprocess.call([tsumego, "card", "--network", str(target), "--report", str(settings.cache / "report")])
    if code != 0:
        raise SystemExit(f"network: tsumego card failed (exit code {code}); the network is installed in {target}")
    return target


def print_status(settings: Settings) -> None:
    from pipeline.markdown import markdown_table

    print(f"network build in {settings.cache}:")
    print("\n".join(markdown_table(["stage", "state", "how far", "took / expected"], status_rows(settings), "llll")))


def settings_from(args) -> Settings:
    cache = args.cache or DEFAULT_CACHES[args.size]
    return Settings(cache=Path(cache).expanduser().resolve(), shared=Path(args.shared).resolve(),
                    network=args.network, seed=args.seed, bits=args.bits, size=args.size,
                    generated=args.generated, start=args.start, epochs=args.epochs, data=args.data,
                    max_subproblems=args.max_subproblems, beam=tuple(shlex.split(args.beam)),
                    enclose_options=tuple(shlex.split(args.enclose_options)),
                    share_from=Path(args.share_from).expanduser().resolve() if args.share_from else None)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("action", choices=("run", "status"))
    parser.add_argument("--size", choices=SIZES, default="short",
                        help="short: 123 minutes on 2 cores, from the shipped weights; full: about seven "
                             "hours, from nothing (default: short)")
    parser.add_argument("--cache", default=None,
                        help=f"(default: {DEFAULT_CACHES['short']}, or {DEFAULT_CACHES['full']} for --size full)")
    parser.add_argument("--shared", default=str(network_stages.REPOSITORY.parent / "shared"), help="(default: ../shared)")
    parser.add_argument("--network", default="conv-books", help="(default: conv-books)")
    parser.add_argument("--seed", type=int, default=0, help="(default: 0)")
    parser.add_argument("--bits", type=int, default=5, help="(default: 5)")
    parser.add_argument("--max-subproblems", type=int, default=None,
                        help="the book trees' cap (default: the size's, "
                             + ", ".join(f"{k} {r.trees_cap}" for k, r in SIZE_RECIPES.items()) + ")")
    parser.add_argument("--beam", default="", help="Beam options for the stages (default: none)")
    parser.add_argument("--enclose-options", default="", help="(default: none)")
    parser.add_argument("--share-from", metavar="OTHER_CACHE",
                        help="link the stages another build has done with the same keys (default: none)")
    parser.add_argument("--generated", type=int, default=0, metavar="N",
                        help="N generated problems in the open style trained on beside the books (default: 0)")
    parser.add_argument("--start", choices=("shipped", "fresh"), default="shipped",
                        help="the short build's training: from the shipped network's weights, or from "
                             "nothing (default: shipped)")
    parser.add_argument("--epochs", type=int, default=None,
                        help="the training's epochs (the full build's first training's), for an ablation at "
                             "equal time (default: the recipe's)")
    parser.add_argument("--data", choices=SIZES, default=None,
                        help="the data stages of this size, the training of --size's: the short training on "
                             "the full build's data, linked with --share-from (default: --size's)")
    parser.add_argument("--until", choices=sorted({stage.name for size in SIZES for stage in stages(size, True)}
                                                  | {stage.name for stage in stages("short", True, "fresh")}),
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
    for stage in build_stages(settings):
        if state_of(stage, settings.cache, keys[stage.name]) == "done":
            print(f"network: {stage.name}: done, skipped", flush=True)
        elif link_shared(stage, settings, keys[stage.name]):
            print(f"network: {stage.name}: done in {settings.share_from}, linked", flush=True)
        else:
            run_stage(stage, settings, keys[stage.name], tsumego)
            keys = stage_keys(settings)   # a stage whose answers changed changes the keys of those after it
        if stage.name == args.until:
            return 0
    if installed(settings):
        print(f"network: {settings.network}: installed already", flush=True)
    else:
        print(f"network: installed in {install(settings, tsumego)}")
    print_status(settings)
    return 0


if __name__ == "__main__":
    sys.exit(main())
