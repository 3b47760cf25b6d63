"""Simulation on Dask: one process, local workers, a LocalCluster and a real scheduler with
separate worker processes give the same summary; so does a run that loses a worker."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from pnpgen.engine.simulate import Tally, simulate, tally_games
from pnpgen.games import find_rules

distributed = pytest.importorskip("distributed")

from pnpgen.engine.cluster import DaskRunner, open_runner  # noqa: E402

CONTENT = Path(__file__).resolve().parents[1] / "content"
BOTS = ["optimal", "greedy", "random"]


@pytest.fixture(scope="module")
def rules():  # type: ignore[no-untyped-def]
    return find_rules(CONTENT, "burning-desire")


@pytest.fixture(scope="module")
def local_cluster() -> Iterator[DaskRunner]:
    runner = open_runner("local", 2)
    assert isinstance(runner, DaskRunner)
    with runner:
        yield runner


def test_tallies_merge_to_the_same_result_in_any_order(rules) -> None:  # type: ignore[no-untyped-def]
    parts = [tally_games(rules, BOTS, 9, a, a + 5) for a in range(0, 30, 5)]
    forward, backward = Tally(3), Tally(3)
    for part in parts:
        forward.merge(part)
    for part in reversed(parts):
        backward.merge(part)
    whole = tally_games(rules, BOTS, 9, 0, 30)
    assert forward == backward == whole
    assert whole.games == 30 and sum(whole.lengths.values()) == 30


def test_one_process_workers_and_local_cluster_agree(rules, local_cluster) -> None:  # type: ignore[no-untyped-def]
    one = simulate(rules, 60, 13, BOTS).to_data()
    two = simulate(rules, 60, 13, BOTS, workers=2).to_data()
    seen: list[int] = []
    dask = simulate(rules, 60, 13, BOTS, runner=local_cluster, on_games=seen.append).to_data()
    assert one == two == dask
    assert sum(seen) == 60 and len(seen) > 1  # progress came task by task
    assert one["games"] == 60 and sum(one["ends"].values()) == 60


def test_the_same_rules_travel_once_and_workers_keep_them(rules, local_cluster) -> None:  # type: ignore[no-untyped-def]
    client = local_cluster.client
    scattered: list[int] = []
    scatter = client.scatter

    def counting_scatter(data, **options):  # type: ignore[no-untyped-def]
        scattered.append(len(data))
        return scatter(data, **options)

    client.scatter = counting_scatter
    try:
        other = find_rules(CONTENT, "dice-road-race")
        simulate(other, 10, 5, ["random"], runner=local_cluster)
        first = simulate(rules, 40, 5, BOTS, runner=local_cluster).to_data()
        second = simulate(rules, 40, 6, BOTS, runner=local_cluster).to_data()
        again = simulate(rules, 40, 5, BOTS, runner=local_cluster).to_data()
    finally:
        client.scatter = scatter
    assert first == again == simulate(rules, 40, 5, BOTS).to_data()
    assert second == simulate(rules, 40, 6, BOTS).to_data() != first
    assert len(scattered) == 2  # Dice Road Race, then Burning Desire once for its three runs
    loaded = client.run(lambda: list(__import__("pnpgen.engine.cluster", fromlist=["_loaded"])._loaded))
    assert all(len(digests) <= 4 for digests in loaded.values())  # a few Rules per worker at most
    assert any(local_cluster._sent[2] in digests for digests in loaded.values())  # Burning Desire's, kept


def test_a_lost_worker_changes_nothing(rules, local_cluster) -> None:  # type: ignore[no-untyped-def]
    expected = simulate(rules, 120, 21, BOTS).to_data()
    client = local_cluster.client
    pids = client.run(os.getpid)
    victim, pid = sorted(pids.items())[0]
    done: list[int] = []

    def kill_once(games: int) -> None:
        if not done:  # after the first task: the rest are queued or running
            os.kill(pid, signal.SIGKILL)
        done.append(games)

    result = simulate(rules, 120, 21, BOTS, runner=local_cluster, on_games=kill_once).to_data()
    assert done[0] < 120  # the worker died with games still to play
    assert result == expected
    client.wait_for_workers(2, timeout=60)  # the nanny restarted it
    assert pid not in client.run(os.getpid).values()
    assert victim in pids


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_a_real_scheduler_and_two_worker_processes(rules, run_pnpgen, tmp_path) -> None:  # type: ignore[no-untyped-def]
    port = _free_port()
    address = f"tcp://127.0.0.1:{port}"
    dask = [sys.executable, "-m", "dask"]
    logs = open(tmp_path / "dask.log", "w")  # noqa: SIM115 - closed below
    scheduler = subprocess.Popen([*dask, "scheduler", "--host", "127.0.0.1", "--port", str(port),
                                  "--no-dashboard"], stdout=logs, stderr=logs)
    workers = [subprocess.Popen([*dask, "worker", address, "--nthreads", "1", "--no-dashboard",
                                 "--name", f"w{i}"], stdout=logs, stderr=logs) for i in range(2)]
    try:
        with distributed.Client(address, timeout="60s") as client:
            client.wait_for_workers(2, timeout=60)
        code, out, err = run_pnpgen("simulate", "burning-desire", "-n", "40", "--seed", "8", "--bots",
                                    ",".join(BOTS), "--json", "--cluster", address, "--content", str(CONTENT))
        assert code == 0, err
        assert json.loads(out) == {"ok": True, "errors": [], **simulate(rules, 40, 8, BOTS).to_data()}
    finally:
        for process in [*workers, scheduler]:
            process.terminate()
        for process in [*workers, scheduler]:
            process.wait(timeout=30)
        logs.close()


def test_bad_cluster_option_is_one_line(run_pnpgen) -> None:  # type: ignore[no-untyped-def]
    code, _, err = run_pnpgen("simulate", "burning-desire", "-n", "5", "--cluster", "nowhere",
                              "--content", str(CONTENT))
    assert code == 2
    assert err.strip() == ("error: --cluster 'nowhere': give 'local' or a scheduler address such as "
                           "tcp://host:8786")


def test_rules_are_sent_again_when_every_worker_that_held_them_died(rules, local_cluster) -> None:  # type: ignore[no-untyped-def]
    """The runner keeps the Rules it scattered; if all its holders die, the next run sends it
    again instead of waiting on data Dask no longer has. The test waits on the scheduler's own
    add-worker events, not on the clock, so a loaded machine cannot fail it."""
    import threading

    from distributed.diagnostics.plugin import SchedulerPlugin

    class Restarts(SchedulerPlugin):
        def __init__(self) -> None:
            self.added: set[str] = set()
            self.both = threading.Event()

        def add_worker(self, scheduler, worker) -> None:  # type: ignore[no-untyped-def]
            self.added.add(worker)
            if len(self.added) >= 2:
                self.both.set()

    expected = simulate(rules, 30, 8, BOTS).to_data()
    client = local_cluster.client
    assert simulate(rules, 30, 8, BOTS, runner=local_cluster).to_data() == expected
    restarts = Restarts()
    scheduler = local_cluster._cluster.scheduler
    local_cluster._cluster.loop.add_callback(scheduler.add_plugin, restarts, name="restarts")
    while "restarts" not in scheduler.plugins:  # registered on the scheduler's own loop
        threading.Event().wait(0.01)
    old = set(client.nthreads())  # worker addresses: restarted workers get new ones
    try:
        for pid in client.run(os.getpid).values():
            os.kill(pid, signal.SIGKILL)
        # only a hang guard: the event comes as soon as both nannies have started new workers
        assert restarts.both.wait(timeout=900), "the nannies did not restart the workers"
        assert not old & restarts.added
        again = local_cluster.tally(rules, BOTS, 8, 0, 30, timeout=900)  # a hang would be OutOfTime
    finally:
        local_cluster._cluster.loop.add_callback(scheduler.remove_plugin, name="restarts")
    assert again.summary(rules.id, 8, BOTS).to_data() == expected
