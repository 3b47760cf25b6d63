"""Play many seeded games with bots and summarise them.

Game i uses seed `derive_seed(seed, i)`, so any game can be replayed alone and
results do not depend on how games are split across workers. Bots rotate seats
game by game, so seat figures measure the seat, not the bot.

Summaries stream: games are tallied block by block into counts and exact sums (`Tally`),
so memory stays flat in the number of games and partial tallies merge to the same
result in any order (local processes, or a Dask cluster: pnpgen.engine.cluster).
"""

from __future__ import annotations

import gc
import multiprocessing
import os
import random
import signal
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from fractions import Fraction
from itertools import chain
from typing import Any, TypeVar

from pnpgen.engine.bots import make_bot, scaled_bot
from pnpgen.engine.capabilities import broken_invariants, game_stats, tallier
from pnpgen.engine.chance import chance_sampler
from pnpgen.engine.metrics import (
    count_interval,
    distribution,
    first_player_advantage,
    seat_balance,
    wilson_interval,
)
from pnpgen.engine.protocol import CHANCE, TERMINAL, Event, Outcome, Rules
from pnpgen.errors import Interrupted

S = TypeVar("S")
M = TypeVar("M")

TIMEOUT = "timeout"
TALLY = "tally "  # event counts under this prefix are a game's tallies (Analysis.tally)


def tally_groups(events: dict[str, float]) -> dict[str, list[tuple[str, float]]]:
    """A game's tallies (event counts under TALLY, labelled 'group: item') by group, each
    item with its mean count per game, most first (ties by name)."""
    groups: dict[str, list[tuple[str, float]]] = {}
    for key, value in events.items():
        if key.startswith(TALLY):
            group, _, item = key[len(TALLY):].partition(": ")
            groups.setdefault(group, []).append((item or group, value))
    return {g: sorted(items, key=lambda kv: (-kv[1], kv[0])) for g, items in sorted(groups.items())}


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
    rules: Rules[S, M],
    bot_names: list[str],
    seed: int,
    check_invariants: bool = False,
    max_steps: int | None = None,
) -> GameRecord:
    rng = random.Random(seed)
    bots = [make_bot(rules, name) for name in bot_names]
    state = rules.initial_state(len(bot_names))
    limit = max_steps or rules.max_steps
    current_player, sample_chance = rules.current_player, chance_sampler(rules)
    # verification checks every move (apply) and state (check); a game that tallies its steps
    # reads their events; else the fast path trusts the moves drawn here and writes no events
    tally = tallier(rules)
    step = (_tallied_step(rules, tally) if tally is not None else _checked_step(rules) if check_invariants
            else rules.apply_unchecked)
    steps = moves = 0
    seen: list[tuple[str, ...]] = []  # each step's event kinds, counted once at the end
    note = seen.append
    problems: list[str] = []
    while (player := current_player(state)) != TERMINAL:
        if steps >= limit:
            scores = tuple(0.0 for _ in bot_names)
            return GameRecord(seed, bot_names, Outcome((), scores, TIMEOUT), steps, moves,
                              _kinds(seen), game_stats(rules, state), problems)
        if player == CHANCE:
            move = sample_chance(state, rng)
        else:
            move = bots[player](state, rng)
            moves += 1
        state, kinds = step(state, move)
        note(kinds)
        steps += 1
        if check_invariants:
            problems += [f"seed {seed}, step {steps}: {p}" for p in broken_invariants(rules, state)]
    return GameRecord(seed, bot_names, rules.outcome(state), steps, moves, _kinds(seen),
                      game_stats(rules, state), problems)


def _checked_step(rules: Rules[S, M]) -> Callable[[S, M], tuple[S, tuple[str, ...]]]:
    def step(state: S, move: M) -> tuple[S, tuple[str, ...]]:
        new, events = rules.apply(state, move)
        return new, tuple(event.kind for event in events)

    return step


def _tallied_step(rules: Rules[S, M], tally: Callable[[S, M, Sequence[Event]], Sequence[str]]
                  ) -> Callable[[S, M], tuple[S, tuple[str, ...]]]:
    """A checked step whose kinds also hold the game's tally labels (Analysis.tally)."""
    def step(state: S, move: M) -> tuple[S, tuple[str, ...]]:
        new, events = rules.apply(state, move)
        return new, (*(event.kind for event in events), *(TALLY + label for label in tally(state, move, events)))

    return step


def _kinds(seen: list[tuple[str, ...]]) -> Counter[str]:
    """Event kinds counted from each step's kinds (few distinct tuples: counted as tuples first)."""
    if len(seen) < 100:  # a short game: counted at once
        return Counter(chain.from_iterable(seen))
    total: Counter[str] = Counter()
    for kinds, times in Counter(seen).items():
        for kind in kinds:
            total[kind] += times
    return total


def seating(bot_names: list[str], index: int) -> list[str]:
    """Bots for game `index`: rotated one seat per game."""
    shift = index % len(bot_names)
    return bot_names[shift:] + bot_names[:shift]


# --- parallel play -----------------------------------------------------------------
# Workers are forked, so the Rules object is inherited rather than pickled; each task
# is a contiguous block of game indices and records come back in index order.
_worker: dict[str, Any] = {}


def _quiet_on_ctrl_c() -> None:
    """In a worker process: Ctrl-C, sent to the whole process group, is the parent's to
    handle (it stops the pool); a worker would print its own traceback."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


@contextmanager
def without_ctrl_c() -> Iterator[None]:
    """SIGINT blocked while worker processes are forked or spawned: a child keeps the mask
    (across exec too) and never sees Ctrl-C, which is the parent's to handle. So does a thread
    started meanwhile (Dask's event loop, which spawns and restarts Dask's workers). A Ctrl-C
    meanwhile waits, and reaches the parent as soon as the block ends."""
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)


@contextmanager
def ctrl_c_waits() -> Iterator[None]:
    """A Ctrl-C inside is handled when the block ends, so the work in it is never left half
    done. (Python runs signal handlers in the main thread only; elsewhere this does nothing.)"""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    caught: list[Any] = []
    previous = signal.signal(signal.SIGINT, lambda signum, frame: caught.append(frame))
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
        if caught and callable(previous):
            previous(signal.SIGINT, caught[0])


def _init_worker(rules: Rules[S, M], bot_names: list[str], seed: int, check: bool) -> None:
    _quiet_on_ctrl_c()
    _worker.update(rules=rules, bots=bot_names, seed=seed, check=check)


def _play_block(block: range) -> list[Packed]:
    w = _worker
    return [_pack(play_game(w["rules"], seating(w["bots"], i), derive_seed(w["seed"], i), w["check"]))
            for i in block]


# a GameRecord as plain values: seed, winners, scores, end, steps, moves, events, stats, problems
Packed = tuple[int, tuple[int, ...], tuple[float, ...], str, int, int, Counter[str], dict[str, float], list[str]]


def _pack(r: GameRecord) -> Packed:
    """A record as plain values: much cheaper to send between processes."""
    o = r.outcome
    return (r.seed, o.winners, o.scores, o.end, r.steps, r.player_moves, r.events, r.stats, r.problems)


def _unpack(data: Packed, bots: list[str]) -> GameRecord:
    seed, winners, scores, end, steps, moves, events, stats, problems = data
    return GameRecord(seed, bots, Outcome(winners, scores, end), steps, moves, events, stats, problems)


def cores_here() -> int:
    """Worker processes a caller may fork: one per core, or 1 inside a pool's worker (a
    daemonic process may not have children)."""
    return 1 if multiprocessing.current_process().daemon else (os.cpu_count() or 1)


def play_many(
    rules: Rules[S, M], games: int, seed: int, bot_names: list[str],
    check_invariants: bool = False, workers: int = 1,
) -> Iterator[GameRecord]:
    """Records of games 0..games-1 in order, whatever the number of workers."""
    if workers <= 1 or games < 2:
        for index in range(games):
            yield play_game(rules, seating(bot_names, index), derive_seed(seed, index), check_invariants)
        return
    size = max(1, min(256, games // (workers * 32)))
    ranges = [range(start, min(games, start + size)) for start in range(0, games, size)]
    context = multiprocessing.get_context("fork")
    seatings = [seating(bot_names, k) for k in range(len(bot_names))]
    gc.freeze()  # the parent's objects stay out of the workers' collections (fewer copied pages)
    try:
        with without_ctrl_c():
            pool = context.Pool(workers, _init_worker, (rules, bot_names, seed, check_invariants))
        with pool:
            for block, packed in zip(ranges, pool.imap(_play_block, ranges), strict=True):
                for index, data in zip(block, packed, strict=True):
                    yield _unpack(data, seatings[index % len(seatings)])
    finally:
        gc.unfreeze()


PROBLEMS_KEPT = 20  # problems a summary lists (the first ones, by game index)


@dataclass
class Tally:
    """What a summary needs from a run of games, kept in memory that does not grow with the
    number of games: counts, and exact sums (fractions), so two tallies merge into the same
    result in any order. A block of games is tallied where it is played (a worker process, a
    Dask worker) and only the tally travels back."""

    players: int
    games: int = 0
    seat_wins: list[Fraction] = field(default_factory=list)
    bot_wins: dict[str, Fraction] = field(default_factory=dict)
    draws: int = 0
    timeouts: int = 0
    ends: Counter[str] = field(default_factory=Counter)
    lengths: Counter[int] = field(default_factory=Counter)  # player moves -> games
    won_lengths: Counter[int] = field(default_factory=Counter)
    won_score_sum: Fraction = Fraction(0)  # solo games: the game's own score of the games won
    won_score_min: float | None = None
    won_score_max: float | None = None
    stat_sums: dict[str, Fraction] = field(default_factory=dict)
    stat_counts: Counter[str] = field(default_factory=Counter)
    events: Counter[str] = field(default_factory=Counter)
    problems: list[tuple[int, str]] = field(default_factory=list)  # (game index, problem), first ones

    def __post_init__(self) -> None:
        if not self.seat_wins:
            self.seat_wins = [Fraction(0)] * self.players

    def add(self, index: int, r: GameRecord) -> None:
        """Count game `index`, played with the bots `r.bots` per seat."""
        self.games += 1
        winners = r.outcome.winners
        if r.timeout:
            self.timeouts += 1
        elif self.players > 1 and len(winners) != 1:
            self.draws += 1
        for seat in winners:
            share = Fraction(1, len(winners))
            self.seat_wins[seat] += share
            bot = r.bots[seat]
            self.bot_wins[bot] = self.bot_wins.get(bot, Fraction(0)) + share
        self.ends[r.outcome.end] += 1
        self.lengths[r.player_moves] += 1
        if winners:
            self.won_lengths[r.player_moves] += 1
            if self.players == 1:
                score = r.outcome.scores[0]
                self.won_score_sum += Fraction(score)
                self.won_score_min = score if self.won_score_min is None else min(self.won_score_min, score)
                self.won_score_max = score if self.won_score_max is None else max(self.won_score_max, score)
        for key, value in r.stats.items():
            self.stat_sums[key] = self.stat_sums.get(key, Fraction(0)) + Fraction(value)
            self.stat_counts[key] += 1
        self.events.update(r.events)
        if r.problems and len(self.problems) < PROBLEMS_KEPT:
            self.problems += [(index, p) for p in r.problems][:PROBLEMS_KEPT - len(self.problems)]

    def merge(self, other: Tally) -> Tally:
        """Add another tally (of other games) into this one; the order of merges never
        changes the result."""
        self.games += other.games
        self.seat_wins = [a + b for a, b in zip(self.seat_wins, other.seat_wins, strict=True)]
        for bot, wins in other.bot_wins.items():
            self.bot_wins[bot] = self.bot_wins.get(bot, Fraction(0)) + wins
        self.draws += other.draws
        self.timeouts += other.timeouts
        self.ends.update(other.ends)
        self.lengths.update(other.lengths)
        self.won_lengths.update(other.won_lengths)
        self.won_score_sum += other.won_score_sum
        for mine, theirs, pick in (("won_score_min", other.won_score_min, min),
                                   ("won_score_max", other.won_score_max, max)):
            current = getattr(self, mine)
            if theirs is not None:
                setattr(self, mine, theirs if current is None else pick(current, theirs))
        for key, total in other.stat_sums.items():
            self.stat_sums[key] = self.stat_sums.get(key, Fraction(0)) + total
        self.stat_counts.update(other.stat_counts)
        self.events.update(other.events)
        self.problems = sorted(self.problems + other.problems, key=lambda p: p[0])[:PROBLEMS_KEPT]
        return self

    def summary(self, game: str, seed: int, bot_names: list[str]) -> Summary:
        n = self.games
        mean, low, high = count_interval(self.lengths)
        won = sum(self.won_lengths.values())
        bot_wins = {name: 0.0 for name in bot_names}
        bot_wins.update({bot: float(w) for bot, w in self.bot_wins.items()})
        return Summary(
            game=game,
            games=n,
            seed=seed,
            bots=bot_names,
            players=self.players,
            seat_wins=[float(w) for w in self.seat_wins],
            seat_intervals=[wilson_interval(float(w), n) for w in self.seat_wins],
            bot_wins=bot_wins,
            ends=dict(sorted(self.ends.items())),
            length_mean=mean,
            length_interval=(low, high),
            stats={k: float(self.stat_sums[k] / self.stat_counts[k]) for k in sorted(self.stat_sums)},
            problems=[p for _, p in self.problems],
            lengths=dict(sorted(self.lengths.items())),
            won_lengths=dict(sorted(self.won_lengths.items())),
            won_score=({"mean": float(self.won_score_sum / won), "min": float(self.won_score_min or 0),
                        "max": float(self.won_score_max or 0)}
                       if self.players == 1 and won else {}),
            draws=self.draws,
            timeouts=self.timeouts,
            events={k: float(Fraction(v, n)) for k, v in sorted(self.events.items())} if n else {},
        )


def tally_games(rules: Rules[S, M], bot_names: list[str], seed: int, start: int, stop: int,
                check_invariants: bool = False) -> Tally:
    """Games start..stop-1 of a run, tallied (bots rotated, game i seeded derive_seed(seed, i))."""
    tally = Tally(len(bot_names))
    for index in range(start, stop):
        tally.add(index, play_game(rules, seating(bot_names, index), derive_seed(seed, index), check_invariants))
    return tally


def blocks(start: int, stop: int, size: int) -> list[tuple[int, int]]:
    """Games start..stop-1 in blocks of `size`, the last 4 × size of them in blocks a quarter
    as large, so that workers run out of work together (the result never depends on it)."""
    size = max(1, size)
    fine = max(1, size // 4)
    cut = max(start, stop - 4 * size)
    return ([(a, min(cut, a + size)) for a in range(start, cut, size)]
            + [(a, min(stop, a + fine)) for a in range(cut, stop, fine)])


def block_size(games: int, slots: int) -> int:
    """Games per task: about 16 tasks per worker (balance, progress), at most 256 per task."""
    return max(1, min(256, games // max(1, slots * 16)))


OnGames = Callable[[int], None]
"""Progress: called with the number of games just kept, in game order (a block that finishes
before an earlier one is counted when the gap fills): what a Ctrl-C would keep so far."""


class RunInterrupted(Interrupted):
    """Ctrl-C during a run. `done` tallies its first games, `start`..`start + done.games - 1`:
    blocks that finished after a gap are left out, so `done` is what a run of that many games
    with the same seed gives, whatever order the blocks finished in."""

    def __init__(self, done: Tally) -> None:
        super().__init__()
        self.done = done


class InOrder:
    """Block tallies merged in game order as they arrive in any order: `total` always holds
    games start..`next` - 1. A Ctrl-C waits while a block is merged, so `total` is never half
    merged."""

    def __init__(self, players: int, start: int) -> None:
        self.total = Tally(players)
        self.next = start
        self._early: dict[int, tuple[int, Tally]] = {}  # blocks that finished before an earlier one

    def add(self, a: int, b: int, part: Tally, on_games: OnGames | None = None) -> None:
        """Block a..b-1's tally; `on_games` is told how many games that kept in order (if any)."""
        with ctrl_c_waits():
            before = self.next
            self._early[a] = (b, part)
            while self.next in self._early:
                self.next, ready = self._early.pop(self.next)
                self.total.merge(ready)
        if on_games and self.next > before:
            on_games(self.next - before)

    @contextmanager
    def on_ctrl_c(self) -> Iterator[InOrder]:
        """Ctrl-C (Interrupted or KeyboardInterrupt) inside: RunInterrupted with the games so far."""
        try:
            yield self
        except RunInterrupted:
            raise
        except (KeyboardInterrupt, Interrupted):
            raise RunInterrupted(self.total) from None


class OutOfTime(Exception):
    """A run given `timeout` seconds did not finish; its games were stopped and are not counted."""


class Runner:
    """Where games are played: this process, local worker processes, or a Dask cluster
    (pnpgen.engine.cluster). The games and their seeds never depend on the runner."""

    workers = 1
    description = "this process"

    def tally(self, rules: Rules[S, M], bot_names: list[str], seed: int, start: int, stop: int,
              check_invariants: bool = False, on_games: OnGames | None = None,
              timeout: float | None = None) -> Tally:
        """Games start..stop-1, tallied. With `timeout` (seconds), raises OutOfTime when they
        are not all done by then (this process checks between blocks; workers are stopped)."""
        deadline = None if timeout is None else time.monotonic() + timeout
        with InOrder(len(bot_names), start).on_ctrl_c() as done:
            for a, b in blocks(start, stop, block_size(stop - start, 4)):
                if deadline is not None and time.monotonic() > deadline:
                    raise OutOfTime
                done.add(a, b, tally_games(rules, bot_names, seed, a, b, check_invariants), on_games)
        return done.total

    def close(self) -> None:
        pass

    def __enter__(self) -> Runner:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


_forked_rules: list[Rules[Any, Any]] = []  # in a ProcessRunner's worker: the Rules it was forked with


def _init_pool_worker(rules: Rules[S, M]) -> None:
    _quiet_on_ctrl_c()
    _forked_rules[:] = [rules]


def _tally_block(task: tuple[list[str], int, bool, int, int]) -> tuple[tuple[int, int], Tally]:
    bot_names, seed, check, a, b = task
    return (a, b), tally_games(_forked_rules[0], bot_names, seed, a, b, check)


class ProcessRunner(Runner):
    """`workers` forked processes on this machine. They are kept between runs of the same
    Rules (a report's batches, a sweep point's runs), so their caches stay warm: a fresh
    Burning Desire worker spends about 0.5 s warming up; close() stops them."""

    def __init__(self, workers: int) -> None:
        self.workers = workers
        self.description = f"{workers} local worker process(es)"
        self._pool: multiprocessing.pool.Pool | None = None
        self._pool_rules: object = None  # the Rules the pool was forked with

    def _pool_for(self, rules: Rules[S, M]) -> multiprocessing.pool.Pool:
        if self._pool is None or self._pool_rules is not rules:
            self.close()
            gc.freeze()  # the parent's objects stay out of the workers' collections (fewer copied pages)
            try:
                with without_ctrl_c():
                    self._pool = multiprocessing.get_context("fork").Pool(self.workers, _init_pool_worker, (rules,))
            finally:
                gc.unfreeze()
            self._pool_rules = rules
        return self._pool

    def tally(self, rules: Rules[S, M], bot_names: list[str], seed: int, start: int, stop: int,
              check_invariants: bool = False, on_games: OnGames | None = None,
              timeout: float | None = None) -> Tally:
        if timeout is None and (self.workers <= 1 or stop - start < 2):
            return super().tally(rules, bot_names, seed, start, stop, check_invariants, on_games)
        todo = [(bot_names, seed, check_invariants, a, b)
                for a, b in blocks(start, stop, block_size(stop - start, self.workers))]
        deadline = None if timeout is None else time.monotonic() + timeout
        results = self._pool_for(rules).imap_unordered(_tally_block, todo)
        try:
            with InOrder(len(bot_names), start).on_ctrl_c() as done:
                for _ in todo:
                    wait = None if deadline is None else max(0.0, deadline - time.monotonic())
                    try:
                        (a, b), part = results.next(wait)
                    except multiprocessing.TimeoutError:
                        raise OutOfTime from None
                    done.add(a, b, part, on_games)
        except BaseException:
            self.close()  # workers still playing this run's games are stopped
            raise
        return done.total

    def close(self) -> None:
        if self._pool is not None:
            self._pool.terminate()
            self._pool.join()
            self._pool = self._pool_rules = None


def local_runner(workers: int = 1) -> Runner:
    return ProcessRunner(workers) if workers > 1 else Runner()


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
    lengths: dict[int, int] = field(default_factory=dict)  # player moves per game -> number of games
    draws: int = 0  # finished without a single winner (shared win or none), timeouts apart
    timeouts: int = 0
    events: dict[str, float] = field(default_factory=dict)  # mean count per game by event kind
    won_lengths: dict[int, int] = field(default_factory=dict)  # player moves of the games won -> games
    won_score: dict[str, float] = field(default_factory=dict)  # solo: mean, min, max of the games won's score

    @property
    def decided(self) -> int:
        return self.games - self.draws - self.timeouts

    @property
    def solo(self) -> bool:
        return self.players == 1

    @property
    def wins(self) -> int:
        """Games with a winner (solo: games won)."""
        return sum(self.won_lengths.values())

    def win_rate(self, seat: int) -> float:
        return self.seat_wins[seat] / self.games if self.games else 0.0

    def metrics(self) -> dict[str, object]:
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
            data["score_in_wins"] = dict(self.won_score)
        return data


def score_figures(scores: list[float]) -> dict[str, float]:
    """Mean, lowest and highest of a solo game's scores ({} when there are none)."""
    if not scores:
        return {}
    return {"mean": sum(scores) / len(scores), "min": min(scores), "max": max(scores)}


def simulate(
    rules: Rules[S, M],
    games: int,
    seed: int,
    bot_names: list[str],
    check_invariants: bool = False,
    on_games: OnGames | None = None,
    workers: int = 1,
    runner: Runner | None = None,
) -> Summary:
    """Games 0..games-1, summarised. Memory stays flat in `games`: each block of games is
    tallied as it finishes and no game record is kept. `runner` (default: `workers` local
    processes) says where the games are played; the result is the same on any."""
    if runner is None:
        with local_runner(workers) as own:
            return simulate(rules, games, seed, bot_names, check_invariants, on_games, runner=own)
    tally = runner.tally(rules, bot_names, seed, 0, games, check_invariants, on_games)
    return tally.summary(rules.id, seed, bot_names)


def summarise(game: str, seed: int, bot_names: list[str], records: list[GameRecord]) -> Summary:
    """A summary of records already played (record i is game i)."""
    tally = Tally(len(bot_names))
    for index, record in enumerate(records):
        tally.add(index, record)
    return tally.summary(game, seed, bot_names)


TOO_WIDE_TO_TELL = 0.35  # a skill check's interval this wide: 40 games give about 0.3, 4 games 0.6


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

    @property
    def verdict(self) -> str:
        """In words; an interval wider than TOO_WIDE_TO_TELL says little either way."""
        low, high = self.interval
        if self.matters:
            return "skill matters"
        return "too few games to tell" if high - low > TOO_WIDE_TO_TELL else "no clear effect of skill"

    def to_data(self) -> dict[str, object]:
        return {"weak": self.weak, "strong": self.strong, "games": self.games, "seed": self.seed,
                "strong_win_rate": self.rate, "interval95": list(self.interval),
                "fair_share": self.fair_share, "skill_matters": self.matters}


def skill_check(
    rules: Rules[S, M], bot: str, players: int, games: int, seed: int,
    factor: int = 4, workers: int = 1,
    on_games: OnGames | None = None, runner: Runner | None = None,
) -> SkillCheck:
    """One seat plays `bot` with factor× search, the others plain `bot`.

    Solo games compare two separate runs: the share is then the strong bot's win
    rate, against the weak bot's win rate as the reference.
    """
    strong = scaled_bot(bot, factor)
    if players == 1:
        weak_summary = simulate(rules, games, seed, [bot], workers=workers, on_games=on_games, runner=runner)
        strong_summary = simulate(rules, games, seed, [strong], workers=workers, on_games=on_games,
                                  runner=runner)
        wins = strong_summary.seat_wins[0]
        return SkillCheck(bot, strong, games, seed, wins, wilson_interval(wins, games),
                          weak_summary.win_rate(0))
    summary = simulate(rules, games, seed, [strong] + [bot] * (players - 1), workers=workers,
                       on_games=on_games, runner=runner)
    wins = summary.bot_wins.get(strong, 0.0)
    return SkillCheck(bot, strong, games, seed, wins, wilson_interval(wins, games), 1.0 / players)
