"""Play many seeded games with bots and summarise them.

Game i uses seed `derive_seed(seed, i)`, so any game can be replayed alone and
results do not depend on how games are split across workers. Bots rotate seats
game by game, so seat figures measure the seat, not the bot.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from pnpgen.engine.bots import make_bot
from pnpgen.engine.metrics import mean_interval, wilson_interval
from pnpgen.engine.protocol import CHANCE, TERMINAL, Outcome, Rules


def derive_seed(seed: int, index: int) -> int:
    return (seed * 1_000_003 + index * 7_919 + 12_345) % (2**63)


@dataclass
class GameRecord:
    seed: int
    bots: list[str]  # bot name per seat
    outcome: Outcome
    steps: int
    player_moves: int
    events: Counter[str] = field(default_factory=Counter)
    stats: dict[str, float] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)


def play_game(
    rules: Rules[Any, Any],
    bot_names: list[str],
    seed: int,
    check_invariants: bool = False,
    max_steps: int | None = None,
) -> GameRecord:
    rng = random.Random(seed)
    bots = [make_bot(rules, name) for name in bot_names]
    state = rules.initial_state(len(bot_names), rng)
    limit = max_steps or rules.max_steps
    steps = moves = 0
    events: Counter[str] = Counter()
    problems: list[str] = []
    while (player := rules.current_player(state)) != TERMINAL:
        if steps >= limit:
            scores = tuple(0.0 for _ in bot_names)
            return GameRecord(seed, bot_names, Outcome((), scores, "timeout"), steps, moves,
                              events, rules.game_stats(state), problems)
        if player == CHANCE:
            move = rules.sample_chance(state, rng)
        else:
            move = bots[player](state, rng)
            moves += 1
        state, new_events = rules.apply(state, move)
        events.update(e.kind for e in new_events)
        steps += 1
        if check_invariants:
            problems += [f"step {steps}: {p}" for p in rules.check(state)]
    return GameRecord(seed, bot_names, rules.outcome(state), steps, moves, events,
                      rules.game_stats(state), problems)


@dataclass
class Summary:
    game: str
    games: int
    seed: int
    bots: list[str]
    players: int
    seat_wins: list[float]
    seat_intervals: list[tuple[float, float]]
    bot_wins: dict[str, float]
    ends: dict[str, int]
    length_mean: float
    length_interval: tuple[float, float]
    stats: dict[str, float]
    problems: list[str]

    def to_data(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "games": self.games,
            "seed": self.seed,
            "bots": self.bots,
            "players": self.players,
            "seats": [
                {"seat": i + 1, "win_rate": w / self.games if self.games else 0.0,
                 "interval95": list(ci)}
                for i, (w, ci) in enumerate(zip(self.seat_wins, self.seat_intervals, strict=True))
            ],
            "bot_wins": self.bot_wins,
            "ends": self.ends,
            "length": {"mean_player_moves": self.length_mean, "interval95": list(self.length_interval)},
            "stats": self.stats,
            "problems": self.problems,
        }


def simulate(
    rules: Rules[Any, Any],
    games: int,
    seed: int,
    bot_names: list[str],
    check_invariants: bool = False,
    on_game: Callable[[GameRecord], None] | None = None,
) -> Summary:
    players = len(bot_names)
    records: list[GameRecord] = []
    for index in range(games):
        shift = index % players
        seated = bot_names[shift:] + bot_names[:shift]
        record = play_game(rules, seated, derive_seed(seed, index), check_invariants)
        records.append(record)
        if on_game:
            on_game(record)
    return summarise(rules.id, seed, bot_names, records)


def summarise(game: str, seed: int, bot_names: list[str], records: list[GameRecord]) -> Summary:
    players = len(bot_names)
    seat_wins = [0.0] * players
    bot_wins: Counter[str] = Counter()
    for r in records:
        for seat in r.outcome.winners:
            share = 1.0 / len(r.outcome.winners)
            seat_wins[seat] += share
            bot_wins[r.bots[seat]] += share
    n = len(records)
    mean, low, high = mean_interval([float(r.player_moves) for r in records])
    stat_keys = sorted({k for r in records for k in r.stats})
    stats = {
        k: sum(r.stats.get(k, 0.0) for r in records) / max(1, sum(k in r.stats for r in records))
        for k in stat_keys
    }
    return Summary(
        game=game,
        games=n,
        seed=seed,
        bots=bot_names,
        players=players,
        seat_wins=seat_wins,
        seat_intervals=[wilson_interval(w, n) for w in seat_wins],
        bot_wins=dict(bot_wins),
        ends=dict(Counter(r.outcome.end for r in records)),
        length_mean=mean,
        length_interval=(low, high),
        stats=stats,
        problems=[p for r in records for p in r.problems][:20],
    )
