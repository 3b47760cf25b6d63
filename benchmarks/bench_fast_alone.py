"""Fast Alone solver speed, as ratios against random games measured in the same run.

Growing Nine: the exact solver's time per rolled setup (every placement searched until
one wins, GAMES.md §3.2) on each board side, next to one random playout of the same side.
The ratio (solver / playout) is the figure: how many random games one exact verdict costs.

Every puzzle side: the CPU time of a seeded game played by the solver bot (the games of
the rulebook's difficulty table, through play_many) over that of a game played by the
random bot, fresh rules each round, the best round each. Issue 29, the shared 2-core
machine, the first 20 games, main at 356265a against this change in alternating runs
(solver ms/game, before -> after): horizontal-vertical total 24.6 -> 11.1 and number
44.1 -> 12.9; no-gaps a 74.5 -> 26.3 and b 67.8 -> 24.0; unification simple 168 -> 48.0
and complex 30.8 -> 9.6; pairing-five basic 31.3 -> 24.9 and expert 8.6 -> 8.4;
growing-nine 1.7 -> 1.6 and 2.3 -> 2.1. Every seeded game makes the same moves.

    python benchmarks/bench_fast_alone.py [--setups 50] [--seed 1] [--rounds 3] [--playouts 300]
        [--solver-games 20]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from pnpgen.content.game import load_games  # noqa: E402
from pnpgen.engine.protocol import CHANCE, TERMINAL  # noqa: E402
from pnpgen.engine.simulate import derive_seed, play_many  # noqa: E402
from pnpgen.games import rules_for_content  # noqa: E402
from pnpgen.games.fast_alone.difficulty import settings  # noqa: E402
from pnpgen.games.fast_alone.growing_nine import GrowingNine, roll_setup, solve_setup  # noqa: E402


def sides() -> list[GrowingNine]:
    (content,) = load_games(ROOT / "content", ["fast-alone"])
    return [r for r in rules_for_content(content) if isinstance(r, GrowingNine)]


def playout(rules: GrowingNine, seed: int) -> int:
    """One random game (placement and tumbles drawn uniformly, as the random bot does),
    calling the game's methods directly; returns the steps played."""
    rng = random.Random(seed)
    state = rules.initial_state(1)
    steps = 0
    while (player := rules.current_player(state)) != TERMINAL and steps < rules.max_steps:
        move = rules.sample_chance(state, rng) if player == CHANCE else rng.choice(rules.legal_moves(state))
        state = rules.apply(state, move)[0]
        steps += 1
    return steps


def playout_seconds(rules: GrowingNine, games: int, seed: int, rounds: int) -> float:
    """Mean seconds per random playout: `games` seeded games per round, best round (a burst of
    load on a shared machine only slows a round down)."""
    for i in range(min(20, games)):  # warm up: placement cache, imports
        playout(rules, derive_seed(seed + 1, i))
    best = float("inf")
    for _ in range(rounds):
        start = time.perf_counter()
        for i in range(games):
            playout(rules, derive_seed(seed, i))
        best = min(best, (time.perf_counter() - start) / games)
    return best


def solver_figures(rules: GrowingNine, setups: int, seed: int, rounds: int) -> dict[str, Any]:
    """Each of `setups` seeded setups solved `rounds` times; its fastest time counts."""
    rng = random.Random(seed)
    states = [roll_setup(rules, rng) for _ in range(setups)]
    solve_setup(rules, roll_setup(rules, random.Random(seed + 1)))  # warm up
    seconds = [float("inf")] * setups
    verdicts: list[bool | None] = [None] * setups
    nodes = [0] * setups
    for _ in range(rounds):
        for i, state in enumerate(states):
            won, nodes[i], took = solve_setup(rules, state)
            verdicts[i] = won
            seconds[i] = min(seconds[i], took)
    return {"won": sum(v is True for v in verdicts), "undecided": sum(v is None for v in verdicts),
            "seconds": seconds, "nodes": nodes}


def bot_seconds(rules: Any, bot: str, games: int, seed: int) -> float:
    """CPU seconds per game of `bot` over the first `games` seeded games of the side."""
    start = time.process_time()
    list(play_many(rules, games, seed, [bot]))
    return (time.process_time() - start) / games


def solver_table(games: int, rounds: int) -> None:
    """Each puzzle side's solver bot against its random bot, fresh rules each round (the
    solvers' memos start empty, as in a build), interleaved; the best round counts."""
    (content,) = load_games(ROOT / "content", ["fast-alone"])
    names = [r.id for r in rules_for_content(content) if "difficulty" in getattr(r, "data", {})]
    best: dict[tuple[str, str], float] = {}
    for _ in range(rounds):
        for rules in rules_for_content(content):
            if rules.id not in names:
                continue
            _, seed, _ = settings(rules, rules.data)
            for bot in ("random", "solver"):
                took = bot_seconds(rules, bot, games, seed)
                best[(rules.id, bot)] = min(best.get((rules.id, bot), float("inf")), took)
    print(f"\nSolver bots, the first {games} seeded difficulty games per side, best of {rounds} rounds (CPU)")
    header = f"{'side':36} {'random ms/game':>14} {'solver ms/game':>14} {'solver/random':>13}"
    print(header)
    print("-" * len(header))
    for name in names:
        random_, solver = best[(name, "random")] * 1000, best[(name, "solver")] * 1000
        print(f"{name:36} {random_:>14.2f} {solver:>14.2f} {solver / random_:>12.1f}×", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--setups", type=int, default=50, help="seeded setups solved per side")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rounds", type=int, default=3, help="runs per setup and playout rounds; the best counts")
    parser.add_argument("--playouts", type=int, default=300, help="random playouts per round")
    parser.add_argument("--solver-games", type=int, default=20, help="seeded games per side and bot")
    args = parser.parse_args()
    try:
        found = sides()
    except Exception as err:  # a puzzle still being written must not stop the other benches
        print(f"fast-alone: skipped ({type(err).__name__}: {err})")
        return
    print(f"Growing Nine exact solver, {args.setups} seeded setups per side (seed {args.seed}), "
          f"best of {args.rounds} runs each; one random playout of the same side measured alongside")
    header = (f"{'side':28} {'won':>7} {'undecided':>9} {'mean ms':>8} {'median ms':>9} {'max ms':>7} "
              f"{'mean nodes':>10} {'median nodes':>12} {'max nodes':>9} {'playout ms':>10} {'solver/playout':>14}")
    print(header)
    print("-" * len(header))
    for rules in found:
        figures = solver_figures(rules, args.setups, args.seed, args.rounds)
        ms = [s * 1000 for s in figures["seconds"]]
        nodes = figures["nodes"]
        play_ms = playout_seconds(rules, args.playouts, args.seed, args.rounds) * 1000
        mean_ms = statistics.fmean(ms)
        print(f"{rules.id:28} {figures['won']:>3}/{args.setups:<3} {figures['undecided']:>9} {mean_ms:>8.2f} "
              f"{statistics.median(ms):>9.2f} {max(ms):>7.1f} {statistics.fmean(nodes):>10,.0f} "
              f"{statistics.median(nodes):>12,.0f} {max(nodes):>9,} {play_ms:>10.3f} {mean_ms / play_ms:>13.1f}×",
              flush=True)
    print("won = setups the best placement wins (undecided: the solver's node limit was hit); nodes = positions "
          "searched; solver/playout = mean solver time over the mean time of one random playout")
    solver_table(args.solver_games, args.rounds)


if __name__ == "__main__":
    main()
