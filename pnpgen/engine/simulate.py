"""Play many seeded games with bots and summarise them.

Game i uses seed `derive_seed(seed, i)`, so any game can be replayed alone and
results do not depend on how games are split across workers. Bots rotate seats
game by game, so seat figures measure the seat, not the bot.
"""

from __future__ import annotations

import gc
import multiprocessing
import random
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from pnpgen.engine.bots import make_bot, scaled_bot
from pnpgen.engine.capabilities import broken_invariants, game_stats
from pnpgen.engine.chance import chance_sampler
from pnpgen.engine.metrics import (
    distribution,
    first_player_advantage,
    mean_interval,
    seat_balance,
    wilson_interval,
)
from pnpgen.engine.protocol import CHANCE, TERMINAL, Outcome, Rules

TIMEOUT = "timeout"


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

    @property
    def timeout(self) -> bool:
        return self.outcome.end == TIMEOUT


def play_game(
    rules: Rules[Any, Any],
    bot_names: list[str],
    seed: int,
    check_invariants: bool = False,
    max_steps: int | None = None,
) -> GameRecord:
    rng = random.Random(seed)
    bots = [make_bot(rules, name) for name in bot_names]
    state = rules.initial_state(len(bot_names))
    limit = max_steps or rules.max_steps
    current_player, apply, sample_chance = rules.current_player, rules.apply, chance_sampler(rules)
    steps = moves = 0
    counts: dict[str, int] = {}  # event kinds (a plain dict: Counter's += is slow in this loop)
    problems: list[str] = []
    while (player := current_player(state)) != TERMINAL:
        if steps >= limit:
            scores = tuple(0.0 for _ in bot_names)
            return GameRecord(seed, bot_names, Outcome((), scores, TIMEOUT), steps, moves,
                              Counter(counts), game_stats(rules, state), problems)
        if player == CHANCE:
            move = sample_chance(state, rng)
        else:
            move = bots[player](state, rng)
            moves += 1
        state, new_events = apply(state, move)
        for event in new_events:
            kind = event.kind
            counts[kind] = counts.get(kind, 0) + 1
        steps += 1
        if check_invariants:
            problems += [f"seed {seed}, step {steps}: {p}" for p in broken_invariants(rules, state)]
    return GameRecord(seed, bot_names, rules.outcome(state), steps, moves, Counter(counts),
                      game_stats(rules, state), problems)


def seating(bot_names: list[str], index: int) -> list[str]:
    """Bots for game `index`: rotated one seat per game."""
    shift = index % len(bot_names)
    return bot_names[shift:] + bot_names[:shift]


# --- parallel play -----------------------------------------------------------------
# Workers are forked, so the Rules object is inherited rather than pickled; each task
# is a contiguous block of game indices and records come back in index order.
_worker: dict[str, Any] = {}


def _init_worker(rules: Rules[Any, Any], bot_names: list[str], seed: int, check: bool) -> None:
    _worker.update(rules=rules, bots=bot_names, seed=seed, check=check)


def _play_block(block: range) -> list[tuple[Any, ...]]:
    w = _worker
    return [_pack(play_game(w["rules"], seating(w["bots"], i), derive_seed(w["seed"], i), w["check"]))
            for i in block]


def _pack(r: GameRecord) -> tuple[Any, ...]:
    """A record as plain values: much cheaper to send between processes."""
    o = r.outcome
    return (r.seed, o.winners, o.scores, o.end, r.steps, r.player_moves, r.events, r.stats, r.problems)


def _unpack(data: tuple[Any, ...], bots: list[str]) -> GameRecord:
    seed, winners, scores, end, steps, moves, events, stats, problems = data
    return GameRecord(seed, bots, Outcome(winners, scores, end), steps, moves, events, stats, problems)


def play_many(
    rules: Rules[Any, Any], games: int, seed: int, bot_names: list[str],
    check_invariants: bool = False, workers: int = 1,
) -> Iterator[GameRecord]:
    """Records of games 0..games-1 in order, whatever the number of workers."""
    if workers <= 1 or games < 2:
        for index in range(games):
            yield play_game(rules, seating(bot_names, index), derive_seed(seed, index), check_invariants)
        return
    size = max(1, min(256, games // (workers * 32)))
    blocks = [range(start, min(games, start + size)) for start in range(0, games, size)]
    context = multiprocessing.get_context("fork")
    seatings = [seating(bot_names, k) for k in range(len(bot_names))]
    gc.freeze()  # the parent's objects stay out of the workers' collections (fewer copied pages)
    try:
        with context.Pool(workers, _init_worker, (rules, bot_names, seed, check_invariants)) as pool:
            for block, packed in zip(blocks, pool.imap(_play_block, blocks), strict=True):
                for index, data in zip(block, packed, strict=True):
                    yield _unpack(data, seatings[index % len(seatings)])
    finally:
        gc.unfreeze()


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
    lengths: list[int] = field(default_factory=list)  # player moves per game, in game order
    draws: int = 0  # finished without a single winner (shared win or none), timeouts apart
    timeouts: int = 0
    events: dict[str, float] = field(default_factory=dict)  # mean count per game by event kind
    won_lengths: list[int] = field(default_factory=list)  # player moves of the games won (solo: turns used)
    won_scores: list[float] = field(default_factory=list)  # solo: the game's own score of the games won

    @property
    def decided(self) -> int:
        return self.games - self.draws - self.timeouts

    @property
    def solo(self) -> bool:
        return self.players == 1

    def win_rate(self, seat: int) -> float:
        return self.seat_wins[seat] / self.games if self.games else 0.0

    def metrics(self) -> dict[str, Any]:
        """Balance figures: multi-player games only (solo games report the win rate)."""
        if self.solo:
            return {}
        rates = [self.win_rate(s) for s in range(self.players)]
        return {
            "first_player_advantage": first_player_advantage(rates),
            "balance": seat_balance(rates),
            "decisiveness": self.decided / self.games if self.games else 0.0,
        }

    def to_data(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "game": self.game,
            "games": self.games,
            "seed": self.seed,
            "bots": self.bots,
            "players": self.players,
            "seats": [
                {"seat": i + 1, "win_rate": self.win_rate(i), "interval95": list(ci)}
                for i, ci in enumerate(self.seat_intervals)
            ],
            "bot_wins": self.bot_wins,
            "draws": self.draws,
            "timeouts": self.timeouts,
            "ends": self.ends,
            "length": {
                "mean_player_moves": self.length_mean,
                "interval95": list(self.length_interval),
                **distribution(self.lengths),
            },
            "stats": self.stats,
            "events_per_game": self.events,
            "problems": self.problems,
        }
        data.update(self.metrics())
        if self.solo:
            data["moves_used_in_wins"] = distribution(self.won_lengths)
            data["score_in_wins"] = score_figures(self.won_scores)
        return data


def score_figures(scores: list[float]) -> dict[str, float]:
    """Mean, lowest and highest of a solo game's scores ({} when there are none)."""
    if not scores:
        return {}
    return {"mean": sum(scores) / len(scores), "min": min(scores), "max": max(scores)}


def simulate(
    rules: Rules[Any, Any],
    games: int,
    seed: int,
    bot_names: list[str],
    check_invariants: bool = False,
    on_game: Callable[[GameRecord], None] | None = None,
    workers: int = 1,
) -> Summary:
    records: list[GameRecord] = []
    for record in play_many(rules, games, seed, bot_names, check_invariants, workers):
        records.append(record)
        if on_game:
            on_game(record)
    return summarise(rules.id, seed, bot_names, records)


def summarise(game: str, seed: int, bot_names: list[str], records: list[GameRecord]) -> Summary:
    players = len(bot_names)
    seat_wins = [0.0] * players
    bot_wins: dict[str, float] = dict.fromkeys(bot_names, 0.0)
    draws = timeouts = 0
    for r in records:
        winners = r.outcome.winners
        if r.timeout:
            timeouts += 1
        elif players > 1 and len(winners) != 1:
            draws += 1
        for seat in winners:
            share = 1.0 / len(winners)
            seat_wins[seat] += share
            bot_wins[r.bots[seat]] = bot_wins.get(r.bots[seat], 0.0) + share
    n = len(records)
    lengths = [r.player_moves for r in records]
    mean, low, high = mean_interval([float(x) for x in lengths])
    stat_keys = sorted({k for r in records for k in r.stats})
    stats = {
        k: sum(r.stats.get(k, 0.0) for r in records) / max(1, sum(k in r.stats for r in records))
        for k in stat_keys
    }
    event_counts: Counter[str] = Counter()
    for r in records:
        event_counts.update(r.events)
    return Summary(
        game=game,
        games=n,
        seed=seed,
        bots=bot_names,
        players=players,
        seat_wins=seat_wins,
        seat_intervals=[wilson_interval(w, n) for w in seat_wins],
        bot_wins=dict(bot_wins),
        ends=dict(sorted(Counter(r.outcome.end for r in records).items())),
        length_mean=mean,
        length_interval=(low, high),
        stats=stats,
        problems=[p for r in records for p in r.problems][:20],
        lengths=lengths,
        won_lengths=[r.player_moves for r in records if r.outcome.winners],
        won_scores=[r.outcome.scores[0] for r in records if r.outcome.winners] if players == 1 else [],
        draws=draws,
        timeouts=timeouts,
        events={k: v / n for k, v in sorted(event_counts.items())} if n else {},
    )


@dataclass
class SkillCheck:
    """The same bot with `factor` times the search against itself, seats rotated."""

    weak: str
    strong: str
    games: int
    seed: int
    strong_wins: float
    interval: tuple[float, float]
    fair_share: float  # the strong bot's expected win share if skill did not matter

    @property
    def rate(self) -> float:
        return self.strong_wins / self.games if self.games else 0.0

    @property
    def matters(self) -> bool:
        """Skill matters when the interval lies wholly above the fair share."""
        return self.interval[0] > self.fair_share

    def to_data(self) -> dict[str, Any]:
        return {"weak": self.weak, "strong": self.strong, "games": self.games, "seed": self.seed,
                "strong_win_rate": self.rate, "interval95": list(self.interval),
                "fair_share": self.fair_share, "skill_matters": self.matters}


def skill_check(
    rules: Rules[Any, Any], bot: str, players: int, games: int, seed: int,
    factor: int = 4, workers: int = 1,
    on_game: Callable[[GameRecord], None] | None = None,
) -> SkillCheck:
    """One seat plays `bot` with factor× search, the others plain `bot`.

    Solo games compare two separate runs: the share is then the strong bot's win
    rate, against the weak bot's win rate as the reference.
    """
    strong = scaled_bot(bot, factor)
    if players == 1:
        weak_summary = simulate(rules, games, seed, [bot], workers=workers, on_game=on_game)
        strong_summary = simulate(rules, games, seed, [strong], workers=workers, on_game=on_game)
        wins = strong_summary.seat_wins[0]
        return SkillCheck(bot, strong, games, seed, wins, wilson_interval(wins, games),
                          weak_summary.win_rate(0))
    summary = simulate(rules, games, seed, [strong] + [bot] * (players - 1), workers=workers,
                       on_game=on_game)
    wins = summary.bot_wins.get(strong, 0.0)
    return SkillCheck(bot, strong, games, seed, wins, wilson_interval(wins, games), 1.0 / players)
