"""The Beam stages on a dask.distributed cluster (``--runner DaskRunner``), against the direct runner.

A scheduler and two workers are started as processes of their own, each in a
network namespace of its own when this machine allows it (root, ``ip netns``):
a bridge joins the three namespaces and this one, so the client, the scheduler
and the workers talk over veth links as separate hosts would, and share only
the file system.  Where namespaces cannot be made (not root, no ``ip``), the
three processes run on this host and talk over 127.0.0.1; only
:func:`test_the_cluster_is_three_hosts` is then skipped.  The processes run in
a scratch folder and import the project from this checkout (``PYTHONPATH``),
as the test itself does.

Every process started here is stopped in the fixture's ``finally``, its whole
process group, within a bounded time; the scheduler also leaves by itself
when idle, and the workers when it is gone.
"""
from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytest.importorskip("distributed", reason="dask.distributed is not installed: pip install -e '.[dask]'")

import apache_beam as beam  # noqa: E402
from apache_beam.options.pipeline_options import PipelineOptions  # noqa: E402
from apache_beam.pvalue import AsList, AsSingleton, TaggedOutput  # noqa: E402
from distributed import Client  # noqa: E402

from pipeline.beam.dask_runner import DaskRunner  # noqa: E402
from cli.main import main  # noqa: E402

REPOSITORY = Path(__file__).resolve().parents[1]
PROBLEMS = REPOSITORY / "sgf-problems" / "eye-shapes"
BIN = Path(sys.executable).parent
START_SECONDS = 90     # for the scheduler's file and both workers to register
STOP_SECONDS = 10      # for a process group to end on SIGTERM before SIGKILL


def _files(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def _ip(*words: str) -> None:
    subprocess.run(["ip", *words], check=True, capture_output=True, timeout=30)


class Hosts:
    """A bridge in this namespace and one namespace per process, each with a veth on the bridge."""

    def __init__(self, names: list[str]):
        tag = os.getpid() % 200 + 20
        self.subnet = f"10.213.{tag}"
        self.bridge = f"tsg{tag}br"
        self.namespaces = {name: f"tsg{tag}-{name}" for name in names}
        self.addresses = {name: f"{self.subnet}.{index + 2}" for index, name in enumerate(names)}

    def make(self) -> None:
        self.remove()    # what a run killed before its finalizer left under these names
        _ip("link", "add", self.bridge, "type", "bridge")
        _ip("addr", "add", f"{self.subnet}.1/24", "dev", self.bridge)
        _ip("link", "set", self.bridge, "up")
        for index, (name, namespace) in enumerate(self.namespaces.items()):
            host_end = f"{self.bridge[:-2]}v{index}"
            _ip("netns", "add", namespace)
            _ip("link", "add", host_end, "type", "veth", "peer", "name", "eth0", "netns", namespace)
            _ip("link", "set", host_end, "master", self.bridge, "up")
            _ip("-n", namespace, "addr", "add", f"{self.addresses[name]}/24", "dev", "eth0")
            _ip("-n", namespace, "link", "set", "eth0", "up")
            _ip("-n", namespace, "link", "set", "lo", "up")

    def remove(self) -> None:
        for namespace in self.namespaces.values():   # takes its veth pair with it
            subprocess.run(["ip", "netns", "del", namespace], capture_output=True, timeout=30)
        subprocess.run(["ip", "link", "del", self.bridge], capture_output=True, timeout=30)

    def command(self, name: str, words: list[str]) -> list[str]:
        return ["ip", "netns", "exec", self.namespaces[name], *words]


def _namespaces_reason() -> str | None:
    """None when network namespaces can be made here, else why not."""
    if os.geteuid() != 0 or shutil.which("ip") is None:
        return "network namespaces need root and iproute2's ip"
    probe = f"tsgprobe{os.getpid()}"
    made = subprocess.run(["ip", "netns", "add", probe], capture_output=True, text=True, timeout=30)
    if made.returncode != 0:
        return f"ip netns add failed: {made.stderr.strip()}"
    subprocess.run(["ip", "netns", "del", probe], capture_output=True, timeout=30)
    return None


def _stop(process: subprocess.Popen) -> None:
    """End a process's whole group: SIGTERM, then SIGKILL once STOP_SECONDS have passed."""
    for sig in (signal.SIGTERM, signal.SIGKILL):
        try:
            os.killpg(process.pid, sig)
        except ProcessLookupError:
            return
        try:
            process.wait(timeout=STOP_SECONDS)
            return
        except subprocess.TimeoutExpired:
            continue


class Cluster:
    def __init__(self, address: str, hosts: Hosts | None, reason: str | None):
        self.address = address
        self.hosts = hosts
        self.reason = reason   # why the processes share this host's network, or None


@pytest.fixture(scope="module")
def cluster(tmp_path_factory):
    scratch = tmp_path_factory.mktemp("dask-cluster")
    scheduler_file = scratch / "scheduler.json"
    reason = _namespaces_reason()
    hosts = Hosts(["scheduler", "w1", "w2"]) if reason is None else None
    processes: list[subprocess.Popen] = []
    # The scheduler and the workers unpickle the task graph: they import this checkout's
    # project, as the test does, and this module's own DoFns by its module's name.
    python_path = [str(REPOSITORY), str(Path(__file__).parent), os.environ.get("PYTHONPATH", "")]
    environment = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, python_path))}

    def start(name: str, words: list[str]) -> None:
        command = hosts.command(name, words) if hosts is not None else words
        log = open(scratch / f"{name}.log", "w")
        processes.append(subprocess.Popen(command, cwd=scratch, env=environment, stdout=log,
                                          stderr=subprocess.STDOUT, start_new_session=True))
        log.close()

    def host(name: str) -> str:
        return hosts.addresses[name] if hosts is not None else "127.0.0.1"

    try:
        if hosts is not None:
            hosts.make()
        start("scheduler", [str(BIN / "dask"), "scheduler", "--host", host("scheduler"), "--port", "0",
                            "--no-dashboard", "--scheduler-file", str(scheduler_file), "--idle-timeout", "600"])
        deadline = time.monotonic() + START_SECONDS
        while not scheduler_file.exists() or not scheduler_file.stat().st_size:
            assert time.monotonic() < deadline and processes[0].poll() is None, \
                (scratch / "scheduler.log").read_text()
            time.sleep(0.2)
        for name in ("w1", "w2"):
            start(name, [str(BIN / "dask"), "worker", "--scheduler-file", str(scheduler_file), "--host", host(name),
                         "--name", name, "--nthreads", "1", "--no-nanny", "--no-dashboard",
                         "--death-timeout", "60"])
        address = json.loads(scheduler_file.read_text())["address"]
        with Client(address, timeout=START_SECONDS) as client:
            client.wait_for_workers(2, timeout=START_SECONDS)
        yield Cluster(address, hosts, reason)
    finally:
        for process in reversed(processes):
            _stop(process)
        if hosts is not None:
            hosts.remove()


@pytest.fixture(scope="module")
def inputs(tmp_path_factory) -> Path:
    """The eye-shape problems and a file without MA or PL (a dead letter of solve-all), read by
    both runners from one folder: the dead letters name the files they reject."""
    root = tmp_path_factory.mktemp("inputs")
    shutil.copytree(PROBLEMS, root / "problems")
    (root / "problems" / "no-target.sgf").write_text("(;GM[1]SZ[9]AB[aa]AW[bb])")
    return root


def _solve_all(inputs: Path, out: Path, *beam_options: str) -> None:
    assert main(["solve-all", "--problems", str(inputs / "problems"), "--out", str(out), "--no-progress",
                 *beam_options]) == 1    # 1: a problem was rejected


def _features(inputs: Path, out: Path, *beam_options: str) -> None:
    assert main(["features", "--subproblems", str(inputs / "subproblems"), "--out", str(out),
                 "--no-progress", *beam_options]) == 1    # 1: a file was rejected


@pytest.fixture(scope="module")
def direct(inputs, tmp_path_factory) -> Path:
    """The direct runner's files; its subproblems and a broken file are the input of features."""
    root = tmp_path_factory.mktemp("direct")
    _solve_all(inputs, root / "solve-all")
    shutil.copytree(root / "solve-all" / "subproblems", inputs / "subproblems")
    (inputs / "subproblems" / "broken.sgf").write_text("(;SZ[9]AB[zz")
    _features(inputs, root / "tfrecords")
    return root


def test_the_dask_runner_writes_the_files_the_direct_runner_writes(cluster, inputs, direct, tmp_path, capsys):
    dask = ["--runner", "DaskRunner", "--dask_client_address", cluster.address]
    capsys.readouterr()
    _solve_all(inputs, tmp_path / "solve-all", *dask)
    _features(inputs, tmp_path / "tfrecords", *dask)
    captured = capsys.readouterr()
    for stage in ("solve-all", "tfrecords"):
        expected = _files(direct / stage)
        assert expected and _files(tmp_path / stage) == expected
    # the dead letters of both stages, and Beam's counters from the cluster
    assert "no-target.sgf: no MA[] property" in captured.err
    assert "broken.sgf: not a valid SGF file" in captured.err
    assert "problems read 13 = expanded 12 (0 in earlier runs) + rejected 1" in captured.out
    assert "93 solves" in captured.out and "?" not in captured.out
    assert "read 37, written 22 train + 14 test, rejected 1" in captured.out
    assert "warning" not in captured.err

    # a rerun resumes: every tree is finished, no file is written again
    _solve_all(inputs, tmp_path / "solve-all", *dask)
    assert "expanded 12 (12 in earlier runs)" in capsys.readouterr().out
    assert _files(tmp_path / "solve-all") == _files(direct / "solve-all")


def test_the_cluster_is_three_hosts(cluster):
    if cluster.hosts is None:
        pytest.skip(f"no network namespaces ({cluster.reason}): the scheduler and the workers "
                    "ran as processes of this host, over 127.0.0.1")
    with Client(cluster.address, timeout=30) as client:
        workers = client.scheduler_info()["workers"]
    assert cluster.address.startswith(f"tcp://{cluster.hosts.addresses['scheduler']}:")
    assert sorted(worker.split("//")[1].split(":")[0] for worker in workers) == [
        cluster.hosts.addresses["w1"], cluster.hosts.addresses["w2"]]


class Route(beam.DoFn):
    """Logs each element it sees; multiples of three are dead letters, the others keyed by parity."""

    def __init__(self, log: str):
        self.log = log

    def process(self, number):
        with open(self.log, "a") as f:
            f.write(f"{number}\n")
        beam.metrics.Metrics.counter("test", "routed").inc()
        if number % 3 == 0:
            yield TaggedOutput("dead", number)
        else:
            yield number % 2, number


def _write(groups, total, dead, path):
    Path(path).write_text(json.dumps({"groups": sorted((key, sorted(values)) for key, values in groups),
                                      "total": total, "dead": sorted(dead)}))


def test_every_step_runs_once_and_each_output_goes_where_it_is_read(cluster, tmp_path):
    """Tagged outputs, side inputs, groupings, counters: what Beam's own Dask runner gets wrong."""
    log, out = tmp_path / "routed.log", tmp_path / "out.json"
    pipeline = beam.Pipeline(runner=DaskRunner(),
                             options=PipelineOptions(["--dask_client_address", cluster.address]))
    routed = (pipeline | beam.Create(range(20)) | beam.Reshuffle()
              | beam.ParDo(Route(str(log))).with_outputs("dead", main="kept"))
    groups = routed.kept | beam.GroupByKey() | "Groups" >> beam.combiners.ToList()
    total = routed.kept | beam.combiners.Count.Globally()
    groups | beam.Map(_write, AsSingleton(total), AsList(routed.dead), str(out))
    result = pipeline.run()
    assert result.wait_until_finish() == "DONE"
    assert sorted(int(line) for line in log.read_text().split()) == list(range(20))
    assert json.loads(out.read_text()) == {
        "groups": [[0, [2, 4, 8, 10, 14, 16]], [1, [1, 5, 7, 11, 13, 17, 19]]],
        "total": 13, "dead": [0, 3, 6, 9, 12, 15, 18]}
    [counted] = result.metrics().query()["counters"]
    assert (counted.key.metric.name, counted.committed) == ("routed", 20)
