"""Dungeon War speed, each figure with its baseline measured in the same run on one core:

- random playouts (play_game, random bots) at 2, 3 and 4 players, against the same games
  played by a bare loop over the game's methods (the harness's cost as a ratio);
- exact melee odds (odds.melee, the calculator every fight and `referee --odds` uses)
  against enumerating every roll of both sides' dice (itertools.product), the obvious way;
- views and determinised states (pnpgen.engine.hidden's bots draw one per decision)
  against apply() calls on the same states;
- a skill check: seeded 2-player games of the determinised MCTS (`--skill-bot`, default
  mcts:200) against random and against greedy, seats alternating: games won, a 95% Wilson
  interval, how the games ended and the CPU seconds per game (`--skill-games 0` skips it).

    python benchmarks/bench_dungeon_war.py [--seconds 2] [--skill-games 10] [--skill-bot mcts:200]
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from collections import Counter
from collections.abc import Callable
from fractions import Fraction
from itertools import product
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from pnpgen.content.game import load_games  # noqa: E402
from pnpgen.engine.metrics import wilson_interval  # noqa: E402
from pnpgen.engine.protocol import CHANCE, TERMINAL  # noqa: E402
from pnpgen.engine.simulate import derive_seed, play_game  # noqa: E402
from pnpgen.games import rules_for_content  # noqa: E402
from pnpgen.games.dungeon_war.odds import BP, Fighter, bp_distribution, melee  # noqa: E402

SEED = 20240601
# fights of the game's base pieces and a few equipped ones (BP dice, plus; support)
FIGHTS = [((1, 20), (2, 13)), ((2, 13), (1, 24)), ((3, 6), (2, 13)), ((2, 5), (2, 5)), ((1, 20), (3, 14)),
          ((0, 5), (2, 4)), ((3, 14), (3, 12)), ((1, 7), (2, 5)), ((2, 13), (2, 13)), ((0, 8), (1, 20))]


def rate(work: Callable[[int], int], seconds: float) -> float:
    """Units of work per second over `seconds` (work(i) returns the units it did)."""
    done, i, start = 0, 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        done += work(i)
        i += 1
    return done / (time.perf_counter() - start)


def best(work: Callable[[int], int], seconds: float, rounds: int = 3) -> float:
    rate(work, seconds / 10)
    return max(rate(work, seconds / rounds) for _ in range(rounds))


def brute_melee(a: tuple[int, int], d: tuple[int, int]) -> tuple[Fraction, Fraction, Fraction]:
    win = draw = loss = 0
    for ra in product(range(1, 7), repeat=a[0]):
        for rd in product(range(1, 7), repeat=d[0]):
            x, y = sum(ra) + a[1], sum(rd) + d[1]
            win, draw, loss = win + (x > y), draw + (x == y), loss + (x < y)
    n = 6 ** (a[0] + d[0])
    return Fraction(win, n), Fraction(draw, n), Fraction(loss, n)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--skill-games", type=int, default=10)
    parser.add_argument("--skill-bot", default="mcts:200")
    args = parser.parse_args()
    (content,) = load_games(ROOT / "content", ["dungeon-war"])
    rules: Any = rules_for_content(content)[0]
    print(f"Dungeon War, one core, {args.seconds:g} s per figure (best of 3 after warm-up); "
          f"load average {os.getloadavg()[0]:.2f}")
    for players in (2, 3, 4):
        def engine(i: int, players: int = players) -> int:
            return play_game(rules, ["random"] * players, derive_seed(SEED, i)).steps

        def bare(i: int, players: int = players) -> int:
            rng, state, steps = random.Random(derive_seed(SEED, i)), rules.initial_state(players), 0
            while (player := rules.current_player(state)) != TERMINAL:
                move = rules.sample_chance(state, rng) if player == CHANCE else rng.choice(rules.legal_moves(state))
                state, steps = rules.apply(state, move)[0], steps + 1
            return steps

        games = best(lambda i, p=players: 1 + 0 * play_game(rules, ["random"] * p, derive_seed(SEED, i)).steps,
                     args.seconds)
        steps_engine, steps_bare = best(engine, args.seconds), best(bare, args.seconds)
        print(f"random playouts, {players} players: {games:7.1f} games/s {steps_engine:9,.0f} steps/s; "
              f"bare loop {steps_bare:9,.0f} steps/s; engine/bare {steps_engine / steps_bare:.2f}×")
    for a, d in FIGHTS:  # the calculator agrees with the brute force
        odds = melee(Fighter(BP(*a)), Fighter(BP(*d)), 6, 2, 9)
        assert (odds.win, odds.draw, odds.loss) == brute_melee(a, d), (a, d)

    def exact(i: int) -> int:
        bp_distribution.cache_clear()  # every call pays the convolution: no warm cache
        a, d = FIGHTS[i % len(FIGHTS)]
        melee(Fighter(BP(*a)), Fighter(BP(*d)), 6, 2, 9)
        return 1

    def cached(i: int) -> int:
        a, d = FIGHTS[i % len(FIGHTS)]
        melee(Fighter(BP(*a)), Fighter(BP(*d)), 6, 2, 9)
        return 1

    def brute(i: int) -> int:
        brute_melee(*FIGHTS[i % len(FIGHTS)])
        return 1

    e, c, b = best(exact, args.seconds), best(cached, args.seconds), best(brute, args.seconds)
    print(f"melee odds: {e:9,.0f} calls/s cold, {c:9,.0f} calls/s with the dice cache; brute-force "
          f"enumeration {b:7,.1f} calls/s; exact/brute {e / b:,.0f}× cold, {c / b:,.0f}× cached")
    rng, states = random.Random(SEED), []
    state = rules.initial_state(3)
    while rules.current_player(state) != TERMINAL and len(states) < 400:
        player = rules.current_player(state)
        if player >= 0:
            states.append(state)
        move = rules.sample_chance(state, rng) if player == CHANCE else rng.choice(rules.legal_moves(state))
        state = rules.apply(state, move)[0]

    def draw_world(i: int) -> int:
        s = states[i % len(states)]
        seat = rules.current_player(s)
        rules.determinise(rules.view(s, seat), seat, rng)
        return 1

    def one_apply(i: int) -> int:
        s = states[i % len(states)]
        rules.apply(s, rules.legal_moves(s)[0])
        return 1

    w, a = best(draw_world, args.seconds), best(one_apply, args.seconds)
    print(f"view + determinise: {w:9,.0f} /s; legal_moves + apply on the same states {a:9,.0f} /s; "
          f"ratio {w / a:.2f}×")

    for rival in ("random", "greedy") if args.skill_games else ():
        print(skill_line(rules, args.skill_bot, rival, args.skill_games))


def skill_line(rules: Any, bot: str, rival: str, games: int, seed: int = SEED) -> str:
    """`games` seeded 2-player games of `bot` against `rival`, seats alternating."""
    wins, ends, start = 0.0, Counter[str](), time.process_time()
    for i in range(games):
        seats = [bot, rival] if i % 2 == 0 else [rival, bot]
        record = play_game(rules, seats, derive_seed(seed, i))
        ends[record.outcome.end] += 1
        wins += sum(1 / len(record.outcome.winners) for s in record.outcome.winners if seats[s] == bot)
    low, high = wilson_interval(wins, games)
    cpu = (time.process_time() - start) / games
    return (f"skill: {bot} vs {rival}, {games} games: {bot} won {wins:g} ({low:.0%}–{high:.0%}, 95%); "
            f"ends {dict(sorted(ends.items()))}; {cpu:.1f} s CPU a game")


if __name__ == "__main__":
    main()
