"""Scale figures, as ratios measured in this run (with the machine's load printed beside them):

- memory: peak RSS of `simulate` at 1k, 10k and 100k Burning Desire games, each in a fresh
  process, as a ratio to the 1k figure (summaries stream, so it should stay near 1.0);
- LocalCluster(2) vs --workers 2: throughput of the same games on a 2-worker Dask LocalCluster
  (started beforehand) over 2 local worker processes;
- 2 workers vs 1: local processes, beside what 2 busy processes get over 1 on this machine in
  the same rounds (a shared machine's speed drifts; the ceiling shows what was possible).

Throughput figures are medians of interleaved rounds, after a warm-up round (the runners'
processes and the game's caches warm).

    python benchmarks/bench_scale.py [--memory-games 1000,10000,100000] [--games 3000] [--rounds 7]
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT)]

from pnpgen.games import find_rules  # noqa: E402

BOTS = ["optimal", "greedy", "random"]
SEED = 20240601

# The child's own peak: VmHWM (Linux), which starts afresh at exec; ru_maxrss keeps the peak of
# the process that forked it (this benchmark, tens of MB more after the Dask cluster), so it
# would hide the child's own growth. ru_maxrss where /proc is missing.
CHILD = """
import json, resource, sys
from pathlib import Path
from pnpgen.engine.simulate import simulate
from pnpgen.games import find_rules
def peak_kb():
    try:
        with open("/proc/self/status") as status:
            return next(int(line.split()[1]) for line in status if line.startswith("VmHWM:"))
    except (OSError, StopIteration):
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
rules = find_rules(Path(sys.argv[1]), "burning-desire")
games, workers = int(sys.argv[2]), int(sys.argv[3])
base = peak_kb()
summary = simulate(rules, games, 1, ["optimal", "greedy", "random"], workers=workers)
print(json.dumps({"games": summary.games, "before_kb": base, "peak_kb": peak_kb(),
                  "workers_peak_kb": resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss}))
"""


def load() -> str:
    one, five, _ = os.getloadavg()
    return f"load {one:.2f} (1 min), {five:.2f} (5 min) on {os.cpu_count()} cores"


def memory(counts: list[int], workers: int) -> None:
    print(f"peak RSS of `simulate` (Burning Desire, bots {','.join(BOTS)}, {workers} worker(s)), {load()}")
    first = None
    for games in counts:
        start = time.perf_counter()
        done = subprocess.run([sys.executable, "-c", CHILD, str(ROOT / "content"), str(games), str(workers)],
                              capture_output=True, text=True, check=True, cwd=ROOT)
        data = json.loads(done.stdout)
        peak = data["peak_kb"] / 1024
        first = first or peak
        print(f"  {games:>8,} games: parent peak {peak:6.1f} MB (after imports {data['before_kb'] / 1024:.1f} MB), "
              f"workers' peak {data['workers_peak_kb'] / 1024:6.1f} MB, ratio to {counts[0]:,} games "
              f"{peak / first:.3f}×, {time.perf_counter() - start:.0f} s", flush=True)
    print(f"  after: {load()}")


def _busy(loops: int) -> None:
    total = 0
    for i in range(loops):
        total += i & 7


def host_ceiling(loops: int = 10_000_000) -> float:
    """What 2 busy processes get done over 1 on this machine right now (2.0 on 2 idle cores)."""
    context = multiprocessing.get_context("fork")

    def run(count: int) -> float:
        procs = [context.Process(target=_busy, args=(loops,)) for _ in range(count)]
        start = time.perf_counter()
        for proc in procs:
            proc.start()
        for proc in procs:
            proc.join()
        return time.perf_counter() - start

    return 2 * run(1) / run(2)


def throughput(games: int, rounds: int) -> None:
    rules = find_rules(ROOT / "content", "burning-desire")
    try:
        from pnpgen.engine.cluster import open_runner
    except ImportError:
        open_runner = None  # type: ignore[assignment]
    from pnpgen.engine.simulate import ProcessRunner, Runner

    print(f"throughput, {games:,} Burning Desire games per run, median of {rounds} interleaved rounds "
          f"after a warm-up round, {load()}")
    times: dict[str, list[float]] = {}
    ceilings: list[float] = []
    # both local figures in forked worker processes: this process also runs the LocalCluster's
    # scheduler, whose thread would slow games played here
    runners: dict[str, Runner] = {"1 worker": ProcessRunner(1), "2 workers": ProcessRunner(2)}
    try:
        if open_runner is not None:
            try:
                runners["LocalCluster(2)"] = open_runner("local", 2)
            except Exception as err:  # noqa: BLE001 - no Dask: the other figures still count
                print(f"  LocalCluster skipped ({err})")
        for round_ in range(rounds + 1):
            for name, runner in runners.items():
                start = time.perf_counter()
                runner.tally(rules, BOTS, SEED + round_, 0, games, timeout=3600)  # a timeout: always forked
                if round_:
                    times.setdefault(name, []).append(time.perf_counter() - start)
            if round_:
                ceilings.append(host_ceiling())
    finally:
        for runner in runners.values():
            runner.close()
    rate = {name: games / statistics.median(spent) for name, spent in times.items()}
    for name, spent in times.items():
        print(f"  {name:16} {rate[name]:8,.0f} games/s (runs {min(spent):.2f}–{max(spent):.2f} s)")

    def ratio(name: str, base: str) -> str:
        paired = sorted(b / a for a, b in zip(times[name], times[base], strict=True))
        return f"{rate[name] / rate[base]:.2f}× (round by round {paired[0]:.2f}–{paired[-1]:.2f})"

    print(f"  2 workers vs 1: {ratio('2 workers', '1 worker')}; this machine's own 2-vs-1 ceiling in the "
          f"same rounds: {statistics.median(ceilings):.2f}× ({min(ceilings):.2f}–{max(ceilings):.2f})")
    if "LocalCluster(2)" in times:
        print(f"  LocalCluster(2) vs --workers 2: {ratio('LocalCluster(2)', '2 workers')}")
    print(f"  after: {load()}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--memory-games", default="1000,10000,100000")
    parser.add_argument("--memory-workers", type=int, default=2)
    parser.add_argument("--games", type=int, default=3000, help="games per throughput run")
    parser.add_argument("--rounds", type=int, default=7, help="interleaved throughput rounds")
    args = parser.parse_args()
    throughput(args.games, args.rounds)
    memory([int(x) for x in args.memory_games.split(",")], args.memory_workers)


if __name__ == "__main__":
    main()
