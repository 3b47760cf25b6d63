"""The difficulty table of a puzzle's rulebook chapter, from a seeded simulation.

For each board side and each bot (a random player and the solver): the win rate with
its 95% Wilson interval, the mean turns used and the mean score of the games won.
Figures are computed when a table is first asked for, every run it needs at once on one
pool of processes (one per core, a run per task), and kept for the process (the Japanese
and English rulebooks share them) and in the disk cache.
"""

from __future__ import annotations

import gc
import multiprocessing
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, TypeVar

from pnpgen.content.schema import Schema, Text, check, text_for
from pnpgen.content.yamlpos import load_yaml, where
from pnpgen.engine.capabilities import own
from pnpgen.engine.figures import cached
from pnpgen.engine.metrics import wilson_interval
from pnpgen.engine.protocol import Rules
from pnpgen.engine.simulate import cores_here, play_many, without_ctrl_c
from pnpgen.errors import ContentError
from pnpgen.games import rules_for_content
from pnpgen.games.fast_alone.catalogue import WORDS, header

S = TypeVar("S")
M = TypeVar("M")


@dataclass(frozen=True)
class Difficulty:
    games: int
    wins: int
    interval: tuple[float, float]
    turns: float  # mean of game_stats()["turns"]
    score: float  # mean score of the games won (0 when none)

    @property
    def rate(self) -> float:
        return self.wins / self.games if self.games else 0.0


_measured: dict[tuple[str, str, int, int], Difficulty] = {}

Run = tuple[Rules[Any, Any], str, int, int]  # rules, bot, games, seed
Figures = dict[str, float]  # games, wins, turns, score: what a run's figures keep (and the disk cache)


def measure(rules: Rules[S, M], bot: str, games: int, seed: int) -> Difficulty:
    measure_all([(rules, bot, games, seed)])
    return _measured[(rules.id, bot, games, seed)]


def measure_all(runs: list[Run]) -> None:
    """Figures of every run not known yet: read back from the disk cache, else simulated.
    The runs to simulate share one pool of worker processes, a whole run per task (a pool
    per run costs more CPU than the small runs do; the records are the same on any
    number of processes)."""
    missing: list[Run] = []
    for run in runs:
        rules, bot, games, seed = run
        key = (rules.id, bot, games, seed)
        if key in _measured or run in missing:
            continue
        try:
            _keep(key, cached("difficulty", rules.content.folder, key, _not_cached, _readable))
        except _NotCached:
            missing.append(run)
    for run, data in zip(missing, _simulate(missing), strict=True):
        _store(run, data)


def _store(run: Run, data: Figures) -> None:
    """A simulated run's figures, into the disk cache and the process's."""
    rules, bot, games, seed = run
    key = (rules.id, bot, games, seed)
    _keep(key, cached("difficulty", rules.content.folder, key, lambda: data, _readable))


def _keep(key: tuple[str, str, int, int], data: Mapping[str, float]) -> None:
    games, wins = int(data["games"]), int(data["wins"])
    _measured[key] = Difficulty(games, wins, wilson_interval(wins, games), data["turns"], data["score"])


class _NotCached(Exception):
    """No valid entry on disk (the cache probe's answer)."""


def _not_cached() -> Figures:
    raise _NotCached


_pending: list[Run] = []  # the runs of the pool being started (its forked workers read them)


def _simulate(runs: list[Run]) -> list[Figures]:
    """The figures of each run, on one process per core (at most one per run)."""
    workers = min(cores_here(), len(runs))
    if workers <= 1:
        return [_figures(run) for run in runs]
    _pending[:] = runs
    gc.freeze()  # the parent's objects stay out of the workers' collections (fewer copied pages)
    try:
        with without_ctrl_c():
            pool = multiprocessing.get_context("fork").Pool(workers)
        with pool:
            return pool.map(_figures_of, range(len(runs)), chunksize=1)
    finally:
        gc.unfreeze()
        _pending.clear()


def _figures_of(index: int) -> Figures:
    return _figures(_pending[index])


def _figures(run: Run) -> Figures:
    """One run's games in this process: the four figures `measure` keeps."""
    rules, bot, games, seed = run
    records = list(play_many(rules, games, seed, [bot]))
    won = [r for r in records if r.outcome.winners]
    return {"games": len(records), "wins": len(won),
            "turns": sum(r.stats.get("turns", 0.0) for r in records) / max(1, len(records)),
            "score": sum(r.outcome.scores[0] for r in won) / len(won) if won else 0.0}


def _readable(data: object) -> bool:
    """A cached entry as `measure` stores it: four finite numbers, games >= wins >= 0."""
    fields = ("games", "wins", "turns", "score")
    if not isinstance(data, dict) or any(type(data.get(f)) not in (int, float) for f in fields):
        return False
    return all(abs(data[f]) < 1e15 for f in fields) and 0 <= data["wins"] <= data["games"] and data["games"] >= 1


def settings(rules: Rules[S, M], data: Any) -> tuple[int, int, list[str]]:
    """(games, seed, bots): games and bots from the puzzle's `difficulty:` data, the seed
    from game.yaml `simulation: seed:`."""
    sim = rules.content.data.get("simulation", {}) or {}
    spec = data["difficulty"]
    return int(spec["games"]), int(sim.get("seed", 1)), [str(b) for b in spec["bots"]]


def difficulty_table(sides: list[tuple[str, Rules[S, M]]], games: int, seed: int, bots: list[str],
                     lang: str) -> list[list[str]]:
    """Header row, then one row per side and bot."""
    rows = [header(lang, "side", "player", "win_rate", "interval", "turns", "score_when_won")]
    measure_all([(rules, bot, games, seed) for _, rules in sides for bot in bots])
    for name, rules in sides:
        for bot in bots:
            d = measure(rules, bot, games, seed)
            low, high = d.interval
            rows.append([name, WORDS(f"bot.{bot}", lang) if f"bot.{bot}" in WORDS else bot, f"{d.rate:.0%}",
                         f"{low:.0%}–{high:.0%}", f"{d.turns:.1f}", f"{d.score:.1f}" if d.wins else "–"])
    return rows


# --- the collection's table (intro chapter): every side of every puzzle game.yaml lists --

COLLECTION_TABLE = "collection_difficulty"  # the rulebook table name every puzzle serves
TABLE_SCHEMA: Schema = {"puzzles": {"*": Text}}


def _cell(d: Difficulty) -> str:
    low, high = d.interval
    return f"{d.rate:.0%}\n({low:.0%}–{high:.0%})"  # two lines: narrow columns never split a figure


def collection_table(rules: Rules[S, M], lang: str) -> list[list[str]]:
    """One row per board side of the collection `rules` belongs to: games simulated, the
    random player's and the solver's win rates with 95% intervals, the solver's method,
    mean turns (random / solver) and the solver's mean score when it wins. Games and bots
    come from each puzzle's `difficulty:` data, the seed from game.yaml, the puzzle titles
    from the file named by game.yaml `simulation: difficulty_table:`. Simulations are
    shared with the chapters' tables (computed once per process)."""
    content = rules.content
    sim = content.data.get("simulation") or {}
    if "difficulty_table" not in sim:
        raise ContentError("simulation: name the collection's difficulty table file (difficulty_table:)",
                           **where(content.data, "simulation"))
    spec = load_yaml(content.path(str(sim["difficulty_table"])))
    check(spec, TABLE_SCHEMA, None, None, "difficulty_table")
    rows = [header(lang, "game", "games", "random_win_rate", "solver_win_rate", "solver_method",
                   "turns_random_solver", "solver_score")]
    sides = rules_for_content(content)
    runs: list[Run] = []
    for side in sides:
        data = getattr(side, "data", None)
        if isinstance(data, dict) and "difficulty" in data:
            games, seed, _ = settings(side, data)
            runs += [(side, "random", games, seed), (side, "solver", games, seed)]
    measure_all(runs)  # every side's simulations at once
    for side in sides:
        name = side.id.split("/", 1)[1]
        puzzle = max((k for k in content.data["rules"] if name.startswith(f"{k}-")), key=len, default=name)
        title = spec["puzzles"].get(puzzle)
        if title is None:
            raise ContentError(f"puzzles: no title for '{puzzle}'", **where(spec, "puzzles"))
        data = getattr(side, "data", None)
        if not isinstance(data, dict) or "difficulty" not in data:
            continue  # a puzzle with no difficulty data yet stays out of the table
        context_of = own(side, "rulebook_context")  # the puzzle's rulebook values
        context = context_of(lang) if context_of is not None else {}
        games, seed, _ = settings(side, data)
        random_, solver = measure(side, "random", games, seed), measure(side, "solver", games, seed)
        rows.append([WORDS("puzzle_side", lang, puzzle=text_for(title, lang), side=context["side_name"]),
                     str(games), _cell(random_), _cell(solver),
                     str(context["solver_method"]), f"{random_.turns:.1f} /\n{solver.turns:.1f}",
                     f"{solver.score:.1f}" if solver.wins else "–"])
    return rows
