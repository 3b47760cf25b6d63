"""Speed figures, Ludii-style: random playouts per CPU second on one core, warmed up, fixed seed.

For every game in content/ (and the harness's toy games), prints games/s and
moves/s through the engine (pnpgen's play_game with random bots), the same for a
minimal hand-written random loop of that game (benchmarks/loops, no engine), the
ratio of the two, and the speed-up of `simulate --workers 2` over 1 worker. Then
runs every benchmarks/bench_*.py script.

    python benchmarks/run.py [--seconds 2] [--only GAME] [--no-toys] [--no-scripts]
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from benchmarks.loops import all_loops  # noqa: E402
from pnpgen.content.game import load_games  # noqa: E402
from pnpgen.engine.protocol import CHANCE, TERMINAL, Rules  # noqa: E402
from pnpgen.engine.simulate import derive_seed, play_game, simulate  # noqa: E402
from pnpgen.games import rules_for_content  # noqa: E402

SEED = 20240601


def measure(play: Callable[[int], tuple[int, int]], seconds: float, first: int = 0
            ) -> tuple[float, float, float, int]:
    """(games/s, steps/s, player moves/s, next game) over `seconds` of this process's CPU time,
    from game `first` on: one core's figures, which other load on a shared machine moves much
    less than wall time."""
    games = steps = moves = 0
    start = time.process_time()
    while (elapsed := time.process_time() - start) < seconds:
        s, m = play(first + games)
        games, steps, moves = games + 1, steps + s, moves + m
    return games / elapsed, steps / elapsed, moves / elapsed, first + games


def compare(plays: dict[str, Callable[[int], tuple[int, int]]], seconds: float,
            rounds: int = 9) -> dict[str, tuple[float, float, float]]:
    """Each play warmed up, then measured in short interleaved rounds, each round on new
    games; the median round counts. The machine's speed drifts (a shared host): rounds this
    short see the same drift on both sides of a ratio."""
    for play in plays.values():
        measure(play, seconds / 10)
    rates: dict[str, list[tuple[float, float, float]]] = {name: [] for name in plays}
    next_game = dict.fromkeys(plays, 0)
    for _ in range(rounds):
        for name, play in plays.items():
            *rate, next_game[name] = measure(play, seconds / rounds, next_game[name])
            rates[name].append((rate[0], rate[1], rate[2]))
    return {name: tuple(statistics.median(r[k] for r in found) for k in range(3))  # type: ignore[misc]
            for name, found in rates.items()}


def engine_play(rules: Rules[Any, Any], players: int) -> Callable[[int], tuple[int, int]]:
    bots = ["uniform"] * players  # the generic random bot, as in the direct and hand loops

    def play(i: int) -> tuple[int, int]:
        record = play_game(rules, bots, derive_seed(SEED, i))
        return record.steps, record.player_moves

    return play


def direct_play(rules: Rules[Any, Any], players: int) -> Callable[[int], tuple[int, int]]:
    """The same random playout calling the game's methods directly, without the harness
    (no bots, records or events): what simulate.py itself costs."""
    current, legal, apply, sample = rules.current_player, rules.legal_moves, rules.apply, rules.sample_chance

    def play(i: int) -> tuple[int, int]:
        rng = random.Random(derive_seed(SEED, i))
        state = rules.initial_state(players)
        steps = moves = 0
        while (player := current(state)) != TERMINAL and steps < rules.max_steps:
            if player == CHANCE:
                move = sample(state, rng)
            else:
                move = rng.choice(legal(state))
                moves += 1
            state = apply(state, move)[0]
            steps += 1
        return steps, moves

    return play


def worker_speedup(rules: Rules[Any, Any], players: int, games_per_second: float, seconds: float) -> float:
    """Time of 1 worker over time of 2 on the same games; best of three runs each,
    interleaved, since a shared machine's speed drifts."""
    games = max(40, int(games_per_second * max(2.0, seconds)))  # enough work to hide pool start-up
    best = {1: float("inf"), 2: float("inf")}
    for _ in range(3):
        for workers in (1, 2):
            start = time.perf_counter()
            simulate(rules, games, SEED, ["uniform"] * players, workers=workers)
            best[workers] = min(best[workers], time.perf_counter() - start)
    return best[1] / best[2]


def _spin(n: int) -> int:
    total = 0
    for i in range(n):
        total += i * i % 7
    return total


def machine_scaling() -> float:
    """What 2 processes get over 1 on a pure busy loop right now (other load lowers it)."""
    import multiprocessing

    best = {1: float("inf"), 2: float("inf")}
    n = 3_000_000
    for _ in range(3):
        start = time.perf_counter()
        _spin(n)
        _spin(n)
        best[1] = min(best[1], time.perf_counter() - start)
        start = time.perf_counter()
        with multiprocessing.get_context("fork").Pool(2) as pool:
            pool.map(_spin, [n, n])
        best[2] = min(best[2], time.perf_counter() - start)
    return best[1] / best[2]


def games_to_bench(only: str | None, toys: bool) -> list[Rules[Any, Any]]:
    found: list[Rules[Any, Any]] = []
    content = ROOT / "content"
    for game in load_games(content) if content.is_dir() else []:
        try:
            found += rules_for_content(game)
        except Exception as err:  # a game still being written must not stop the bench
            print(f"{game.id}: skipped ({type(err).__name__}: {err})")
    if toys:
        try:
            from test_harness_toys import nim, pig
        except ImportError as err:  # the toys live in tests/ and need pytest
            print(f"toy games skipped ({err})")
        else:
            found += [nim(), pig()]
    return [r for r in found if not only or r.id == only or r.id.startswith(only + "/")]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=2.0, help="measuring time per figure")
    parser.add_argument("--only", help="one game id")
    parser.add_argument("--no-toys", action="store_true", help="leave out the harness's toy games")
    parser.add_argument("--no-workers", action="store_true", help="skip the 2-worker speed-up")
    parser.add_argument("--no-scripts", action="store_true", help="skip benchmarks/bench_*.py")
    args = parser.parse_args()
    loops = all_loops()
    header = (f"{'game':38} {'players':>7} {'engine games/s':>15} {'moves/s':>10} {'steps/s':>10} "
              f"{'direct/engine':>13} {'hand games/s':>13} {'hand/engine':>11} {'2 workers':>10}")
    print(f"random playouts, one core, seed {SEED}, {args.seconds:g} CPU s per figure after warm-up, "
          f"median of 9 interleaved rounds; load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    if not args.no_workers:
        print(f"machine: 2 busy processes run {machine_scaling():.2f}× as fast as 1 (the ceiling for '2 workers')")
    print(header)
    print("-" * len(header))
    for rules in games_to_bench(args.only, not args.no_toys):
        players = rules.min_players if rules.min_players > 1 or rules.max_players == 1 else 2
        plays = {"engine": engine_play(rules, players), "direct": direct_play(rules, players)}
        if rules.id in loops:
            loop = loops[rules.id](rules, players)
            plays["hand"] = lambda i, loop=loop: loop(random.Random(derive_seed(SEED, i)))
        rates = compare(plays, args.seconds)
        games_s, steps_s, moves_s = rates["engine"]
        direct = f"{rates['direct'][1] / steps_s:.2f}×"
        hand, ratio = "—", "—"
        if "hand" in rates:  # by steps: a game's length varies, a step's work does not
            hand, ratio = f"{rates['hand'][0]:,.0f}", f"{rates['hand'][1] / steps_s:.2f}×"
        speedup = "—" if args.no_workers else f"{worker_speedup(rules, players, games_s, args.seconds):.2f}×"
        print(f"{rules.id:38} {players:>7} {games_s:>15,.1f} {moves_s:>10,.0f} {steps_s:>10,.0f} "
              f"{direct:>13} {hand:>13} {ratio:>11} {speedup:>10}", flush=True)
    print("moves = player decisions; steps = moves plus chance outcomes; direct = the game's methods called "
          "in a bare loop (harness cost); hand = benchmarks/loops, no engine (engine + game-module cost); "
          "ratios of steps per CPU second; "
          "2 workers = simulate --workers 2 speed-up over 1")
    if not args.no_scripts:
        for script in sorted((ROOT / "benchmarks").glob("bench_*.py")):
            print(f"\n== {script.name} ==", flush=True)
            subprocess.run([sys.executable, str(script)], cwd=ROOT, check=False)


if __name__ == "__main__":
    main()
