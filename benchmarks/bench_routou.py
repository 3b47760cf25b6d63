"""ROUTOU DICE random play: games/s and steps/s of its random bot (lazy sample_move), of the
generic uniform bot (every legal move listed), and MCTS iterations/s at 10 iterations per
decision (playouts through sample_move), all in the same run on one core.

    python benchmarks/bench_routou.py [--seconds 3]
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from pnpgen.content.game import load_games  # noqa: E402
from pnpgen.engine.mcts import MCTS  # noqa: E402
from pnpgen.engine.protocol import CHANCE  # noqa: E402
from pnpgen.engine.simulate import derive_seed, play_game  # noqa: E402
from pnpgen.games import rules_for_content  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=3.0)
    args = parser.parse_args()
    (content,) = load_games(ROOT / "content", ["routou-dice"])
    rules = rules_for_content(content)[0]
    print(f"ROUTOU DICE, one core, {args.seconds:g} s per figure; load average {os.getloadavg()[0]:.2f}")
    for bot in ("random", "uniform"):
        start, games, steps = time.perf_counter(), 0, 0
        while time.perf_counter() - start < args.seconds:
            steps += play_game(rules, [bot, bot], derive_seed(1, games)).steps
            games += 1
        elapsed = time.perf_counter() - start
        print(f"{bot:8} bot: {games / elapsed:8.1f} games/s {steps / elapsed:10,.0f} steps/s "
              f"({steps / games:.0f} steps a game)")
    search, rng, iterations = MCTS(rules, 10), random.Random(1), 0
    start = time.perf_counter()
    while time.perf_counter() - start < args.seconds:
        state = rules.initial_state(2)
        while rules.current_player(state) == CHANCE:
            state = rules.apply(state, rules.sample_chance(state, rng))[0]
        search.choose(state, rng)
        iterations += search.iterations
    print(f"mcts:10 from the opening: {iterations / (time.perf_counter() - start):8.1f} iterations/s")


if __name__ == "__main__":
    main()
