"""Dungeon War: the guided MCTS (`guided:N`, pnpgen.engine.mcts.GuidedMCTS, determinised as
every Dungeon War bot is) against the greedy bot, and the plain determinised MCTS (`mcts:N`)
against greedy as its baseline, in the same run.

Seeded 2-player games, seats alternating (game i plays seed derive_seed(--seed, i) with the
searcher in seat 1 when i is even, seat 2 when odd), spread over `--workers` processes (the
results do not depend on how many). Each line gives the searcher's wins, losses and round
caps (everyone loses), its share of the decided games with a 95% Wilson interval, and the
CPU seconds per game (both bots; per worker process).

    python benchmarks/bench_dungeon_war_mcts.py [--games 50] [--bot guided:40]
        [--baseline mcts:200] [--baseline-games 10] [--first 0]
        [--workers 2] [--seed 20240601]
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from functools import lru_cache
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from pnpgen.content.game import load_games  # noqa: E402
from pnpgen.engine.metrics import wilson_interval  # noqa: E402
from pnpgen.engine.simulate import derive_seed, play_game  # noqa: E402
from pnpgen.games import rules_for_content  # noqa: E402

SEED = 20240601


@lru_cache(maxsize=1)
def dungeon_war() -> Any:
    (content,) = load_games(ROOT / "content", ["dungeon-war"])
    return rules_for_content(content)[0]


def one_game(job: tuple[str, str, int, int]) -> tuple[int, str, str, float]:
    """Game i of `bot` against `rival`: (i, 'win' / 'loss' / 'cap' / 'draw', how it ended, CPU s)."""
    bot, rival, seed, i = job
    seats = [bot, rival] if i % 2 == 0 else [rival, bot]
    start = time.process_time()
    record = play_game(dungeon_war(), seats, derive_seed(seed, i))
    cpu = time.process_time() - start
    winners = record.outcome.winners
    mine = i % 2  # the searcher's seat
    result = "cap" if not winners else "draw" if len(winners) > 1 else "win" if winners[0] == mine else "loss"
    return i, result, record.outcome.end, cpu


def match(bot: str, rival: str, games: int, seed: int, workers: int, first: int = 0) -> str:
    jobs = [(bot, rival, seed, i) for i in range(first, first + games)]
    start = time.perf_counter()
    with ProcessPoolExecutor(max_workers=workers) as pool:
        results = sorted(pool.map(one_game, jobs))
    wall = time.perf_counter() - start
    wins = sum(r == "win" for _, r, _, _ in results)
    losses = sum(r == "loss" for _, r, _, _ in results)
    caps = sum(r == "cap" for _, r, _, _ in results)
    draws = sum(r == "draw" for _, r, _, _ in results)
    decided = wins + losses + draws
    share = (wins + draws / 2) / decided if decided else 0.0
    low, high = wilson_interval(wins + draws / 2, decided) if decided else (0.0, 1.0)
    cpu = sum(c for *_, c in results) / games
    return (f"{bot} vs {rival}, {games} games (from game {first}): "
            f"{wins} won, {losses} lost, {draws} shared, {caps} round caps; "
            f"{share:.0%} of {decided} decided games (95% Wilson {low:.0%}–{high:.0%}); "
            f"{cpu:.1f} s CPU a game, {wall:.0f} s wall")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--bot", default="guided:40")
    parser.add_argument("--rival", default="greedy")
    parser.add_argument("--baseline", default="mcts:200", help="the previous bot, against the same rival")
    parser.add_argument("--baseline-games", type=int, default=10, help="0 skips the baseline")
    parser.add_argument("--first", type=int, default=0, help="the first game's number (to extend a run)")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=SEED)
    args = parser.parse_args()
    print(f"Dungeon War MCTS vs {args.rival}: seed {args.seed}, {args.workers} worker processes, "
          f"load average {os.getloadavg()[0]:.2f}", flush=True)
    print(match(args.bot, args.rival, args.games, args.seed, args.workers, args.first), flush=True)
    if args.baseline_games:
        print("baseline: " + match(args.baseline, args.rival, args.baseline_games, args.seed, args.workers, args.first),
              flush=True)


if __name__ == "__main__":
    main()
