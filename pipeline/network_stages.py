"""The stages of ``make network``: what each runs, reads and leaves, for the short build and the full one.

``NETWORK_SIZE=short`` (the default) fits 150 minutes on 2 cores: the book
problems enclosed at a tenth of ``enclose``'s node budget (RESULTS.md, "What a
tenth of enclose's node budget loses"), their trees, the features, and one
training that starts from the shipped network's weights (``warm-start``, a
copy taken when the build starts), so that each build goes on from the last.
``NETWORK_SIZE=full`` is the recipe of seven hours: enclose at the default
budget and two trainings from nothing.  Both score on the same held-out
reference split (its trees capped at :data:`REFERENCE_CAP` whatever the book
trees' cap), so their figures compare.
"""
from __future__ import annotations

import dataclasses
import hashlib
import json
import shutil
from pathlib import Path

REPOSITORY = Path(__file__).resolve().parents[1]
# The training recipes by name (model/configs.py reads them too), read as data: pipeline
# imports nothing of the model
RECIPES = REPOSITORY / "model" / "configs.json"
SIZES = ("short", "full")

@dataclasses.dataclass(frozen=True)
class Settings:
    """What the build is asked for (the Makefile's variables)."""

    cache: Path
    shared: Path
    network: str = "conv-books"
    seed: int = 0
    bits: int = 5
    size: str = "short"              # one of SIZES
    max_subproblems: int | None = None   # the book trees' cap (None: the size's, SIZE_RECIPES)
    book_test: float = 0.1
    reference_test: float = 0.34
    beam: tuple[str, ...] = ()
    enclose_options: tuple[str, ...] = ()
    share_from: Path | None = None   # another build's cache whose finished stages are linked
    # generated problems (tsumego generate --style open) trained on beside the books: 0, none
    generated: int = 0
    start: str = "shipped"           # the short build's training: from the shipped weights, or "fresh"
    # the first training's epochs where not its recipe's: an ablation at equal time cuts them
    # when an epoch holds more records
    epochs: int | None = None
    # the data stages' size where not the build's: the short training on the full build's
    # data, for the ablation of the short data against the full at equal training time
    data: str | None = None

    @property
    def data_recipe(self) -> "SizeRecipe":
        return SIZE_RECIPES[self.data or self.size]

    @property
    def trees_cap(self) -> int:
        return self.max_subproblems if self.max_subproblems is not None else self.data_recipe.trees_cap


@dataclasses.dataclass(frozen=True)
class SizeRecipe:
    """What a build size changes: enclose's options (before the build's own), the book trees'
    cap, the trained folder that is packed and installed, and the minutes its data stages
    take on 2 cores where they differ from the stages' own figures (for ``status``)."""

    enclose_options: tuple[str, ...]
    trees_cap: int
    trained: str
    expected_minutes: dict = dataclasses.field(default_factory=dict)


# The short build's budget: a tenth of enclose's 200,000 nodes keeps 84% of the enclosed
# problems, the same files, for 0.19 of the CPU (RESULTS.md, "What a tenth of enclose's
# node budget loses").
SIZE_RECIPES = {
    "short": SizeRecipe(enclose_options=("--max-nodes", "20000"), trees_cap=100, trained="model",
                        expected_minutes={"enclose": 10, "solve-all": 15, "features": 3}),
    "full": SizeRecipe(enclose_options=(), trees_cap=100, trained="model-longer"),
}
# The reference problems' trees, whatever the book trees' cap: the held-out split every
# build is scored on stays the same records.
REFERENCE_CAP = 100


@dataclasses.dataclass(frozen=True)
class Stage:
    """One step: ``command(settings)`` writes ``output`` (relative to the cache), finished when
    ``complete`` holds; ``reads`` names the stages whose output it reads (those the build
    holds: the generated problems' stages are there only when asked for); ``in_place``: a changed
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
    # (settings) -> what else the output depends on, beside the command, in its key
    version: object = None
    # (settings) -> None: done in Python in place of a ``tsumego`` command (``command`` then
    # only says what it does, for the key and the log)
    action: object = None


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
    if settings.enclose_options or settings.data_recipe.enclose_options:
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
                                str(REFERENCE_CAP), "--no-progress", *s.beam],
        "reference-features": ["features", "--subproblems", str(reference / "solve-all" / "subproblems"),
                               "--out", str(reference / "tfrecords"), "--test-fraction", str(s.reference_test),
                               "--seed", str(s.seed), "--no-progress", *s.beam],
    }


def recipe_version(config: str) -> str:
    """The named training recipe's settings (model/configs.json), for the training stage's key."""
    recipes = json.loads(RECIPES.read_text())
    return json.dumps(recipes[config], sort_keys=True)


def _train(s: Settings, out: str, *recipe: str) -> list[str]:
    extra = [a for _ in range(4) for a in ("--extra-train", str(s.cache / "reference" / "tfrecords"))]
    if s.generated:
        extra += ["--extra-train", str(s.cache / "generated" / "tfrecords")]
    return ["train", "--data", str(s.cache / "tfrecords"), "--out", str(s.cache / out), *recipe,
            "--seed", str(s.seed), *extra, "--extra-split", "train", "--validation-fraction", "0"]


DATA_STAGES = (
    Stage("reference-solve-all", "reference/solve-all",
          lambda s: _reference_commands(s)["reference-solve-all"],
          complete=lambda c: (c / "reference/solve-all/stats.json").exists(),
          progress=lambda c, s: tree_progress(c / "reference/solve-all", s.shared / "sgf-problems"),
          shared_inputs=("sgf-problems",), in_place=True, rejections_allowed=True, expected_minutes=13),
    Stage("reference-features", "reference/tfrecords",
          lambda s: _reference_commands(s)["reference-features"],
          complete=lambda c: (c / "reference/tfrecords/features.json").exists(),
          progress=lambda c, s: "", reads=("reference-solve-all",), expected_minutes=2,
          version=lambda s: planes_version()),
    Stage("enclose", "enclosed",
          lambda s: ["enclose", str(s.shared / "sgf-open"), "--out", str(s.cache / "enclosed"), "--no-guide",
                     "--no-progress", *s.data_recipe.enclose_options, *s.enclose_options, *s.beam],
          complete=lambda c: (c / "enclosed/summary.md").exists(),
          progress=lambda c, s: enclose_progress(c / "enclosed", s),
          shared_inputs=("sgf-open",), in_place=True, rejections_allowed=True, expected_minutes=95,
          code_version=lambda: reading_version(), answers=lambda c: files_digest(c / "enclosed", "*.sgf"),
          version=lambda s: ENCLOSE_KEY_VERSION),
    Stage("solve-all", "solve-all",
          lambda s: ["solve-all", "--problems", str(s.cache / "enclosed"), "--out", str(s.cache / "solve-all"),
                     "--max-subproblems", str(s.trees_cap), "--no-progress", *s.beam],
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
          reads=("solve-all", "same-positions"), expected_minutes=15, version=lambda s: planes_version()),
)



def _quantize(trained: str, reads: str) -> Stage:
    return Stage("quantize", f"{trained}/model-5bit.tsq",
                 lambda s: ["quantize", "--model", str(s.cache / trained), "--bits", str(s.bits), "--no-table"],
                 complete=lambda c: any((c / trained).glob("model-*bit.tsq")), progress=lambda c, s: "",
                 reads=(reads,), in_place=True, expected_minutes=1)


def _report(trained: str) -> Stage:
    """The network scored on the held-out reference split, with the 8 symmetries: the card's
    figures and its calibration (``tsumego card`` reads them at install)."""
    return Stage("report", "report",
                 lambda s: ["report", "--model", str(s.cache / trained), "--data",
                            str(s.cache / "reference" / "tfrecords"), "--split", "test", "--bits", str(s.bits),
                            "--out", str(s.cache / "report")],
                 complete=lambda c: (c / "report/summary.json").exists(), progress=lambda c, s: "",
                 reads=("quantize", "reference-features"), expected_minutes=10)


def copy_shipped_weights(s: Settings) -> None:
    """``warm-start``: the repository's network (its packed files and ``model.json``) copied into
    the cache as the build starts, so that installing the new network does not change what the
    training started from."""
    source = REPOSITORY / "model" / "networks" / s.network
    files = sorted(source.glob("*.tsq")) if (source / "model.json").is_file() else []
    if not files:
        raise SystemExit(f"network: warm-start: {source} holds no packed network with its model.json to "
                         "start from; build with NETWORK_SIZE=full, which trains from nothing")
    target = s.cache / "warm-start"
    partial = target.with_name("warm-start.partial")
    shutil.rmtree(partial, ignore_errors=True)
    partial.mkdir(parents=True)
    for path in [*files, source / "model.json"]:
        shutil.copy2(path, partial / path.name)
    if target.exists():
        shutil.rmtree(target)
    partial.rename(target)


# Generated problems in the open style (pipeline/generate.py), closed by enclose's frame, their
# trees and features: every record trained on (no test split), beside the books
GENERATED_STAGES = (
    Stage("generate", "generated/problems",
          lambda s: ["generate", "--count", str(s.generated), "--seed", str(s.seed), "--style", "open",
                     "--out", str(s.cache / "generated" / "problems")],
          complete=lambda c: (c / "generated/problems/summary.json").exists(),
          progress=lambda c, s: f"{count_files(c / 'generated/problems', '*.sgf')} of {s.generated} problems",
          expected_minutes=10),
    Stage("generated-solve-all", "generated/solve-all",
          lambda s: ["solve-all", "--problems", str(s.cache / "generated" / "problems"),
                     "--out", str(s.cache / "generated" / "solve-all"), "--max-subproblems", str(s.trees_cap),
                     "--no-progress", *s.beam],
          complete=lambda c: (c / "generated/solve-all/stats.json").exists(),
          progress=lambda c, s: tree_progress(c / "generated/solve-all", c / "generated/problems"),
          reads=("generate",), in_place=True, rejections_allowed=True, expected_minutes=10),
    Stage("generated-features", "generated/tfrecords",
          lambda s: ["features", "--subproblems", str(s.cache / "generated" / "solve-all" / "subproblems"),
                     "--out", str(s.cache / "generated" / "tfrecords"), "--test-fraction", "0",
                     "--seed", str(s.seed), "--no-progress", *s.beam],
          complete=lambda c: (c / "generated/tfrecords/features.json").exists(), progress=lambda c, s: "",
          reads=("generated-solve-all",), expected_minutes=2, version=lambda s: planes_version()),
)

WARM_START = Stage("warm-start", "warm-start", lambda s: ["copy", f"model/networks/{s.network}"],
                   complete=lambda c: (c / "warm-start/model.json").exists(), progress=lambda c, s: "",
                   expected_minutes=1, action=copy_shipped_weights)

def _training(name: str, out: str, config: str, reads: tuple[str, ...], expected_minutes: int,
              resume: str | None = None, starting_weights: str | None = None, first: bool = True) -> Stage:
    """A training stage: ``config``'s recipe (model/configs.json) into ``out``, from the run in
    ``resume`` (a cache folder) or from nothing; its key names the recipe and, with
    ``starting_weights``, the bytes of the weights in that folder; ``first``: the build's first
    training, whose epochs ``Settings.epochs`` sets."""
    def version(s: Settings) -> str:
        weights = s.cache / starting_weights if starting_weights else None
        return recipe_version(config) + (files_digest(weights, "*") if weights and weights.is_dir() else "")

    def command(s: Settings) -> list[str]:
        epochs = ["--epochs", str(s.epochs)] if s.epochs is not None and first else []
        return _train(s, out, "--config", config, *epochs) + (["--resume", str(s.cache / resume)] if resume else [])

    return Stage(name, out, command,
                 complete=lambda c: (c / out / "model.keras").exists(),
                 progress=lambda c, s: training_progress(c / out),
                 reads=reads, expected_minutes=expected_minutes, version=version)


BOOK_DATA = ("features", "reference-features", "generated-features")

SHORT_TRAINING = (
    # from the weights the repository held when they were copied, which its key names
    _training("train", "model", "conv-books-short",
              ("features", "reference-features", "warm-start", "generated-features"), 75,
              resume="warm-start", starting_weights="warm-start"),
    _quantize("model", "train"),
    _report("model"),
)

# The short build's training from nothing, for the ablation of the warm start: the shipped
# network's first recipe, cut to the short one's epochs
FRESH_TRAINING = (
    _training("train", "model", "conv-books-short-fresh", BOOK_DATA, 75),
    _quantize("model", "train"),
    _report("model"),
)

FULL_TRAINING = (
    _training("train", "model", "conv-books", BOOK_DATA, 95),
    _training("train-longer", "model-longer", "conv-books-longer", ("train",), 90, resume="model",
              first=False),
    _quantize("model-longer", "train-longer"),
    _report("model-longer"),
)


def stages(size: str, generated: bool = False, start: str = "shipped") -> tuple[Stage, ...]:
    """The build's stages in order, for ``size`` (one of SIZES), with the generated problems'
    stages or not, the short build's training from the shipped weights or ``fresh``."""
    if size == "full":
        training = FULL_TRAINING
    else:
        training = (WARM_START, *SHORT_TRAINING) if start == "shipped" else FRESH_TRAINING
    return DATA_STAGES + (GENERATED_STAGES if generated else ()) + training


def build_stages(s: Settings) -> tuple[Stage, ...]:
    return stages(s.size, s.generated > 0, s.start)


def planes_version() -> str:
    from pipeline.planes import plane_names
    return ",".join(plane_names())


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


