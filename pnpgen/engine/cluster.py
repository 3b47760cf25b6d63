"""Simulation on a Dask cluster: `--cluster tcp://host:8786` or `--cluster local`.

Optional: `pip install 'pnpgen[cluster]'` installs Dask's `distributed`. The games of a run
are cut into blocks of consecutive indices; each block is one Dask task that plays its
games (game i seeded `derive_seed(seed, i)`, bots rotated as everywhere) and returns its
`Tally`. Tallies merge exactly in any order, so a run gives the same summary as one process
or `--workers N`, whatever the cluster's size and the order tasks finish in. A task is a
pure function of its arguments: when a worker is lost, Dask runs its tasks again elsewhere
and they return the same tallies.

The pickled Rules (tens of kB, MBs once its caches are warm) is sent to every worker once
(scattered) and each task names it, so workers need pnpgen and the game's engine installed,
not the content folder. The runner keeps the Rules it sent last: further runs of the same
Rules (rounds of a report, benchmarks) neither pickle nor send it again, and workers keep
theirs, caches warm. Workers whose pnpgen code differs from this
process's are refused, since they could play different games. Pickles are code: use a
cluster only you (and people you trust) can reach, as Dask's own docs say.
"""

from __future__ import annotations

import hashlib
import logging
import os
import pickle
import re
from collections import OrderedDict
from itertools import islice
from multiprocessing import resource_tracker
from typing import Any, TypeVar

from pnpgen.engine.figures import CODE, folder_digest
from pnpgen.engine.protocol import Rules
from pnpgen.engine.simulate import (
    InOrder,
    OnGames,
    OutOfTime,
    Runner,
    Tally,
    block_size,
    blocks,
    local_runner,
    tally_games,
    without_ctrl_c,
)
from pnpgen.errors import PnpgenError

ADDRESS = re.compile(r"^(tcp|tls|ucx|ws|wss)://[A-Za-z0-9_.\-\[\]:]+:\d{1,5}$")
INSTALL = "pip install 'pnpgen[cluster]'"

# A LocalCluster shares this machine's cores with its scheduler (in this process), so the
# parts that only feed a dashboard (none is started) are slowed or off: the workers'
# statistical profiler, the system monitors and the event-loop watchdog. An idle 2-worker
# cluster costs about a third of the CPU it did.
QUIET_LOCAL_CLUSTER = {
    "distributed.worker.profile.enabled": False,
    "distributed.admin.system-monitor.interval": "5s",
    "distributed.admin.tick.interval": "1s",
}


def check_cluster(cluster: str) -> str:
    """`local` or a scheduler address (tcp://host:port); else a one-line error."""
    if cluster == "local" or ADDRESS.match(cluster):
        return cluster
    raise PnpgenError(f"--cluster '{cluster}': give 'local' or a scheduler address such as tcp://host:8786")


def open_runner(cluster: str | None, workers: int | None) -> Runner:
    """Where to play: local processes (no cluster), a LocalCluster of `workers` processes
    (`local`; default: one per core), or the Dask scheduler at an address."""
    if cluster is None:
        return local_runner(workers or 1)
    return DaskRunner(check_cluster(cluster), workers)


def code_digest() -> str:
    """What a worker's games depend on besides their arguments: pnpgen's code."""
    return folder_digest(CODE)[0]


# Rules already unpickled in this worker process, by payload digest (a few, most recent).
S = TypeVar("S")
M = TypeVar("M")
_loaded: OrderedDict[str, Rules[Any, Any]] = OrderedDict()


def play_block(payload: bytes, digest: str, bot_names: list[str], seed: int, check: bool,
               start: int, stop: int) -> Tally:
    """A Dask task: games start..stop-1 of a run of the pickled Rules, tallied."""
    if digest not in _loaded:
        _loaded[digest] = pickle.loads(payload)
        while len(_loaded) > 4:
            _loaded.popitem(last=False)
    _loaded.move_to_end(digest)
    return tally_games(_loaded[digest], bot_names, seed, start, stop, check)


class DaskRunner(Runner):
    def __init__(self, address: str, workers: int | None = None) -> None:
        try:
            from distributed import Client, LocalCluster
        except ImportError as err:
            raise PnpgenError(f"--cluster needs Dask's distributed package: {INSTALL}") from err
        self._cluster: Any = None
        self._sent: tuple[Rules[Any, Any], Any, str] | None = None  # Rules, its scattered pickle, digest
        if os.environ.get("PNPGEN_DEBUG") is None:
            logging.getLogger("distributed").setLevel(logging.ERROR)
        if address == "local":
            import dask

            count = workers or os.cpu_count() or 1
            # Ctrl-C is this process's to handle: the cluster's event loop thread, and the worker
            # processes it spawns (now, or when a nanny restarts one), start with SIGINT blocked.
            # multiprocessing's resource tracker is started first, here: started from a thread,
            # it unblocks SIGINT in that thread when it is done (so would Dask's first spawn)
            resource_tracker.ensure_running()
            with dask.config.set(QUIET_LOCAL_CLUSTER), without_ctrl_c():
                # a worker's own log is not the user's news: a task's error reaches this process
                # as its future's exception, and a worker whose scheduler stopped first (Ctrl-C)
                # would log a failed heartbeat
                quiet = logging.ERROR if os.environ.get("PNPGEN_DEBUG") else logging.CRITICAL
                self._cluster = LocalCluster(n_workers=count, threads_per_worker=1, processes=True,
                                             dashboard_address=None, silence_logs=quiet)
                self.client = Client(self._cluster)
            self.description = f"a local Dask cluster of {count} worker process(es)"
        else:
            try:
                self.client = Client(address, timeout="15s")
            except (OSError, TimeoutError) as err:
                raise PnpgenError(f"cannot reach the Dask scheduler at {address}: "
                                  f"{' '.join(str(err).split()) or type(err).__name__}") from err
            self.description = f"the Dask cluster at {address}"
        self._check_workers()

    @property
    def workers(self) -> int:  # type: ignore[override]
        """Task slots (worker threads) the cluster has now."""
        return max(1, sum(self.client.nthreads().values()))

    def _check_workers(self) -> None:
        if not self.client.nthreads():
            self.client.wait_for_workers(1, timeout=60)
        mine = code_digest()
        theirs = self.client.run(code_digest)
        different = sorted(worker for worker, digest in theirs.items() if digest != mine)
        if different:
            self.close()
            raise PnpgenError(f"Dask worker(s) {', '.join(different)} run other pnpgen code than this "
                              "machine; install the same pnpgen (and game packages) on every worker")

    def tally(self, rules: Rules[S, M], bot_names: list[str], seed: int, start: int, stop: int,
              check_invariants: bool = False, on_games: OnGames | None = None,
              timeout: float | None = None) -> Tally:
        from distributed import as_completed
        from distributed.client import TimeoutError as DaskTimeout

        shared, digest = self._send(rules)
        slots = self.workers
        todo = iter(blocks(start, stop, block_size(stop - start, slots)))
        run = hashlib.sha256(repr((digest, bot_names, seed, check_invariants)).encode()).hexdigest()[:20]
        futures: dict[Any, tuple[int, int]] = {}

        def submit(a: int, b: int) -> Any:
            future = self.client.submit(play_block, shared, digest, bot_names, seed, check_invariants, a, b,
                                        key=f"pnpgen-{run}-{a}-{b}")
            futures[future] = (a, b)
            return future

        # a few tasks per slot in flight, the next submitted as one finishes: every worker stays
        # busy, blocks finish near game order, and a stop (Ctrl-C, timeout) has few to cancel
        for a, b in islice(todo, 4 * slots):
            submit(a, b)
        try:
            stream = as_completed(list(futures), timeout=timeout)  # the cluster's task stream
            with InOrder(len(bot_names), start).on_ctrl_c() as done:
                for future in stream:
                    a, b = futures.pop(future)
                    part: Tally = future.result()
                    following = next(todo, None)
                    if following is not None:
                        stream.add(submit(*following))
                    done.add(a, b, part, on_games)
        except (TimeoutError, DaskTimeout) as err:
            raise OutOfTime from err
        except Exception as err:
            if type(err).__name__ == "KilledWorker":  # a task that kept killing its workers
                raise PnpgenError(f"the Dask cluster lost its workers while playing: {err}") from err
            raise
        finally:
            unfinished = [future for future in futures if not future.done()]
            if unfinished:
                self.client.cancel(unfinished)
        return done.total

    def _send(self, rules: Rules[S, M]) -> tuple[Any, str]:
        """The Rules scattered to every worker (the pickle, MBs once its caches are warm,
        travels once, not with each task), and its digest; sent again only for other Rules."""
        if self._sent is None or self._sent[0] is not rules or not self._still_held():
            self._release()
            payload = pickle.dumps(rules)
            self._sent = (rules, self.client.scatter(payload, broadcast=True, hash=False),
                          hashlib.sha256(payload).hexdigest()[:20])
        return self._sent[1], self._sent[2]

    def _still_held(self) -> bool:
        """Whether a worker still holds the scattered Rules: when every worker that held it
        died, it is sent again (the scheduler is asked; the client may not have heard yet)."""
        assert self._sent is not None
        future = self._sent[1]
        return future.status == "finished" and bool(self.client.who_has([future]).get(future.key))

    def _release(self) -> None:
        if self._sent is not None:
            self._sent[1].release()
            self._sent = None

    def close(self) -> None:
        if os.environ.get("PNPGEN_DEBUG") is None:  # what Dask says while we stop it (a task cancelled
            logging.getLogger("distributed").setLevel(logging.CRITICAL + 1)  # by Ctrl-C) is not news
        self._release()
        self.client.close()
        if self._cluster is not None:
            self._cluster.close()
