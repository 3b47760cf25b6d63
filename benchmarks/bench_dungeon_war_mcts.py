"""Dungeon War: the guided MCTS (`guided:N`, pnpgen.engine.mcts.GuidedMCTS, determinised as
every Dungeon War bot is) against the greedy bot, and the plain determinised MCTS (`mcts:N`)
against greedy as its baseline, in the same run.

Seeded 2-player games in seat-swapped pairs: games 2k and 2k+1 both play seed
derive_seed(--seed, k), the searcher in seat 1 in game 2k and in seat 2 in game 2k+1, so a
seed's first-player advantage (or its dungeon) favours neither bot. The games are spread
over `--workers` processes (the results do not depend on how many). Each line gives the
searcher's wins, losses and round caps (everyone loses), its share of the decided games with
a 95% Wilson interval, the same split by the searcher's seat, and the CPU seconds per game
(both bots; per worker process); `--list` prints every game (number, seed, searcher's seat,
result, how it ended, rounds), so one game can be replayed alone.

    python benchmarks/bench_dungeon_war_mcts.py [--games 50] [--bot guided:40]
        [--baseline mcts:200] [--baseline-games 10] [--first 0]
        [--workers 2] [--seed 20240601] [--list]
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from functools import lru_cache
from pathlib import Path
from typing import Any, NamedTuple

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


class Game(NamedTuple):
    number: int
    seed: int
    seat: int  # the searcher's seat, 0-based
    result: str  # 'win' / 'loss' / 'cap' / 'draw', for the searcher
    end: str
    rounds: int
    cpu: float


def pairing(seed: int, number: int) -> tuple[int, int]:
    """Game `number`'s seed and the searcher's seat: a seed per pair, seats swapped within it."""
    return derive_seed(seed, number // 2), number % 2


def one_game(job: tuple[str, str, int, int]) -> Game:
    bot, rival, base, number = job
    seed, mine = pairing(base, number)
    seats = [bot, rival] if mine == 0 else [rival, bot]
    start = time.process_time()
    record = play_game(dungeon_war(), seats, seed)
    cpu = time.process_time() - start
    winners = record.outcome.winners
    result = "cap" if not winners else "draw" if len(winners) > 1 else "win" if winners[0] == mine else "loss"
    return Game(number, seed, mine, result, record.outcome.end, int(record.stats.get("rounds", 0)), cpu)


def summary(games: list[Game]) -> str:
    """Won, lost, shared, capped; the share of the decided games with its 95% Wilson interval."""
    wins = sum(g.result == "win" for g in games)
    losses = sum(g.result == "loss" for g in games)
    draws = sum(g.result == "draw" for g in games)
    caps = sum(g.result == "cap" for g in games)
    decided = wins + losses + draws
    share = (wins + draws / 2) / decided if decided else 0.0
    low, high = wilson_interval(wins + draws / 2, decided)
    return (f"{wins} won, {losses} lost, {draws} shared, {caps} round caps; "
            f"{share:.0%} of {decided} decided (95% Wilson {low:.0%}–{high:.0%})")


def match(bot: str, rival: str, games: int, seed: int, workers: int, first: int = 0,
          listing: bool = False) -> str:
    jobs = [(bot, rival, seed, i) for i in range(first, first + games)]
    start = time.perf_counter()
    results = []
    with ProcessPoolExecutor(max_workers=workers) as pool:
        for g in pool.map(one_game, jobs):  # in game order, each printed as it is known (--list)
            results.append(g)
            if listing:
                print(f"  game {g.number}: seed {g.seed}, {bot} in seat {g.seat + 1}: {g.result} ({g.end}, "
                      f"round {g.rounds}, {g.cpu:.1f} s CPU)", flush=True)
    wall = time.perf_counter() - start
    cpu = sum(g.cpu for g in results) / max(1, games)
    lines = [f"{bot} vs {rival}, games {first}–{first + games - 1} (seeds derive_seed({seed}, k) for "
             f"k = {first // 2}–{(first + games - 1) // 2}, seats swapped in each pair): "
             f"{summary(results)}; {cpu:.1f} s CPU a game, {wall:.0f} s wall"]
    lines += [f"  {bot} in seat {seat + 1}: {summary([g for g in results if g.seat == seat])}" for seat in (0, 1)]
    return "\n".join(lines)


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
    parser.add_argument("--list", action="store_true", help="print every game")
    args = parser.parse_args()
    print(f"Dungeon War MCTS vs {args.rival}: seed {args.seed}, {args.workers} worker processes, "
          f"load average {os.getloadavg()[0]:.2f}", flush=True)
    print(match(args.bot, args.rival, args.games, args.seed, args.workers, args.first, args.list), flush=True)
    if args.baseline_games:
        print("baseline: " + match(args.baseline, args.rival, args.baseline_games, args.seed, args.workers,
                                   args.first, args.list), flush=True)


if __name__ == "__main__":
    main()
