"""Cold start: wall time of whole `pnpgen` processes (referee and list), as a median of
fresh processes and as a ratio to `python -c pass` measured in the same run, interleaved;
the "(Typer)" rows are the same calls parsed by Typer instead of pnpgen/cli.py's shortcut.

Bytecode is compiled first (one run without PYTHONDONTWRITEBYTECODE), as after an
install: what is measured is start-up, not compiling. That first run also fills pnpgen's
cache of parsed YAML files, as any earlier run on the same game does; the "no cache" rows
(PNPGEN_CACHE=off) are a first run after the game's files changed. The machine's load
average is printed with the figures, since a shared machine moves them.

    python benchmarks/bench_startup.py [--runs 15]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TARGET = 0.200  # seconds, issue 16


def timed(command: list[str], env: dict[str, str]) -> float:
    start = time.perf_counter()
    subprocess.run(command, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=15, help="processes per command")
    args = parser.parse_args()
    pnpgen = [sys.executable, "-c", "from pnpgen.cli import main; main()"]  # the console script's own call
    with tempfile.TemporaryDirectory() as tmp:
        state = Path(tmp) / "state.yaml"
        state.write_text(subprocess.run(pnpgen + ["referee", "burning-desire", "--example-state"], cwd=ROOT,
                                        capture_output=True, text=True, check=True).stdout, encoding="utf-8")
        commands = {
            "python -c pass": [sys.executable, "-c", "pass"],
            "referee --legal": pnpgen + ["referee", "burning-desire", "--state", str(state), "--legal"],
            "referee --move": pnpgen + ["referee", "burning-desire", "--state", str(state), "--move", "score 1"],
            "referee --example-state": pnpgen + ["referee", "burning-desire", "--example-state"],
            "list": pnpgen + ["list"],
            # the same calls parsed by Typer (an `--opt=value` option skips the shortcut,
            # pnpgen/cli.py): what the shortcut saves, Typer's import and its pydantic coercion
            "referee --legal (Typer)": pnpgen + ["referee", "burning-desire", f"--state={state}", "--legal"],
            "list (Typer)": pnpgen + ["list", "--content=content"],
        }
        compile_env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        uncached_env = {**compile_env, "PNPGEN_CACHE": "off"}
        runs = [(name, command, compile_env) for name, command in commands.items()]
        runs += [(f"{name} (no cache)", command, uncached_env) for name, command in commands.items()
                 if name in ("referee --move", "list")]
        for _, command, env in runs:
            timed(command, env)  # write bytecode and the parsed files, warm the disk cache
        times: dict[str, list[float]] = {name: [] for name, _, _ in runs}
        for _ in range(args.runs):
            for name, command, env in runs:
                times[name].append(timed(command, env))
    base = statistics.median(times["python -c pass"])
    print(f"cold start, median of {args.runs} fresh processes each (interleaved); "
          f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} CPUs; target < {TARGET * 1000:.0f} ms")
    print(f"{'command':28} {'median ms':>10} {'min ms':>8} {'× python -c pass':>17}")
    for name, values in times.items():
        median = statistics.median(values)
        flag = "" if name == "python -c pass" or "(Typer)" in name or median < TARGET else "  (over target)"
        print(f"{name:28} {median * 1000:>10.0f} {min(values) * 1000:>8.0f} {median / base:>16.1f}×{flag}")


if __name__ == "__main__":
    main()
