"""The pre-commit hook's run on one changed file: `pnpgen validate --files content/<game>/game.yaml
--quick`, with an empty figures cache (the first commit after the game's folder changed in a
way that changes its figures) and with the cache that run filled (every later commit while the
folder is unchanged), and the same without --quick. Wall time and the child's CPU time (user +
system, which other load on a shared machine moves less); the load average is printed too.

    python benchmarks/bench_hook.py [--game fast-alone] [--full]
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def timed(command: list[str], env: dict[str, str]) -> tuple[float, float, int]:
    """(wall s, CPU s, exit code) of one process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(command, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                          check=False)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime, done.returncode


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", default="fast-alone", help="the game whose game.yaml 'changed'")
    parser.add_argument("--full", action="store_true", help="also without --quick (every check)")
    args = parser.parse_args()
    hook = [sys.executable, "-m", "pnpgen", "validate", "--files", f"content/{args.game}/game.yaml"]
    print(f"{' '.join(hook[2:])}  (load average {os.getloadavg()[0]:.1f})")
    for options in (["--quick"], []) if args.full else (["--quick"],):
        with tempfile.TemporaryDirectory() as cache:
            env = {**os.environ, "PNPGEN_CACHE": cache}
            cold = timed(hook + options, env)
            warm = timed(hook + options, env)
        label = " ".join(options) or "(every check)"
        for name, (wall, cpu, code) in (("empty cache", cold), ("warm cache", warm)):
            print(f"  {label:14} {name:12} wall {wall:7.1f} s   CPU {cpu:7.1f} s   exit {code}")
        print(f"  {label:14} warm/empty   CPU ratio {warm[1] / cold[1]:.2f}")


if __name__ == "__main__":
    main()
