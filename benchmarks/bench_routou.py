"""ROUTOU DICE random play: games/s and steps/s of its random bot (lazy sample_move), of the
generic uniform bot (every legal move listed), and MCTS iterations/s at 10 iterations per
decision (playouts through sample_move), for this tree and for the original code (the
commit before the lazy sampler, taken from git), measured in the same run.

Each figure is CPU seconds of a fresh process (the machine is shared: CPU time moves less
with other load than wall time), baseline and candidate interleaved, best of the rounds;
the ratio candidate / baseline is printed beside them.

    python benchmarks/bench_routou.py [--seconds 3] [--rounds 2] [--baseline 4729f26^]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BASELINE = "4729f26^"  # ROUTOU DICE before the lazy random move, fast path and MCTS changes

CHILD = """
import json, random, sys, time
root, seconds = sys.argv[1], float(sys.argv[2])
sys.path.insert(0, root)
from pathlib import Path
from pnpgen.content.game import load_games
from pnpgen.engine.mcts import MCTS
from pnpgen.engine.protocol import CHANCE
from pnpgen.engine.simulate import derive_seed, play_game
from pnpgen.games import rules_for_content
assert __import__("pnpgen").__file__.startswith(root)
(content,) = load_games(Path(root) / "content", ["routou-dice"])
rules = rules_for_content(content)[0]
clock = time.process_time
figures = {}
for bot in ("random", "uniform"):
    start, games, steps = clock(), 0, 0
    while clock() - start < seconds:
        steps += play_game(rules, [bot, bot], derive_seed(1, games)).steps
        games += 1
    elapsed = clock() - start
    figures[bot] = [games / elapsed, steps / elapsed]
search, rng, iterations = MCTS(rules, 10), random.Random(1), 0
start = clock()
while clock() - start < seconds:
    state = rules.initial_state(2)
    while rules.current_player(state) == CHANCE:
        state = rules.apply(state, rules.sample_chance(state, rng))[0]
    search.choose(state, rng)
    iterations += search.iterations
figures["mcts"] = [iterations / (clock() - start)]
print(json.dumps(figures))
"""


def measure(root: Path, seconds: float) -> dict[str, list[float]]:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    done = subprocess.run([sys.executable, "-c", CHILD, str(root), str(seconds)], capture_output=True, text=True,
                          check=True, cwd=root, env=env)
    result: dict[str, list[float]] = json.loads(done.stdout)
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--baseline", default=BASELINE, help="the commit measured as the original")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp)
        try:
            archive = subprocess.run(["git", "archive", args.baseline, "pnpgen", "content"], cwd=ROOT,
                                     capture_output=True, check=True).stdout
            subprocess.run(["tar", "-x", "-C", str(base)], input=archive, check=True)
        except (OSError, subprocess.CalledProcessError) as err:
            print(f"baseline {args.baseline} not available ({err}); this tree only")
            base = None  # type: ignore[assignment]
        best: dict[str, dict[str, list[float]]] = {}
        trees = {"candidate": ROOT, **({"baseline": base} if base is not None else {})}
        for _ in range(args.rounds):
            for name, root in trees.items():
                figures = measure(root, args.seconds)
                kept = best.setdefault(name, figures)
                for key, values in figures.items():
                    if values[0] > kept[key][0]:
                        kept[key] = values
    print(f"ROUTOU DICE, one core, {args.seconds:g} CPU s per figure, best of {args.rounds} interleaved rounds; "
          f"baseline {args.baseline}; load average {os.getloadavg()[0]:.2f}")
    labels = {"random": "random bot games/s", "uniform": "uniform bot games/s", "mcts": "mcts:10 iterations/s"}
    for key, label in labels.items():
        now = best["candidate"][key][0]
        line = f"  {label:24} {now:9.1f}"
        if "baseline" in best:
            before = best["baseline"][key][0]
            line += f"   original {before:9.1f}   ×{now / before:5.2f}"
        print(line, flush=True)


if __name__ == "__main__":
    main()
