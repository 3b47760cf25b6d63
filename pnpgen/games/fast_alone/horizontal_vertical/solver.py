"""HorizontalVertical: solver."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Iterator
from functools import cache
from operator import itemgetter
from typing import TYPE_CHECKING

from pnpgen.engine.bots import best_of
from pnpgen.engine.protocol import Bot
from pnpgen.games.fast_alone.horizontal_vertical.rules import (
    WON,
    Condition,
    Move,
    State,
    X,
)

if TYPE_CHECKING:
    from pnpgen.games.fast_alone.horizontal_vertical import HorizontalVertical


def _top(values: list[float], count: int) -> float:
    """The product of the `count` best values (every one of them must come true)."""
    result = 1.0
    for v in values[:count]:
        result *= v
    return result


@cache
def _sum_table(empty: int, faces: int) -> tuple[int, ...]:
    """Ways for `empty` dice to total each sum 0..empty*faces."""
    ways = [1]
    for _ in range(empty):
        nxt = [0] * (len(ways) + faces)
        for total, count in enumerate(ways):
            for face in range(1, faces + 1):
                nxt[total + face] += count
        ways = nxt
    return tuple(ways)


@cache
def _sum_chance(cond: Condition, filled: int, empty: int, faces: int) -> float:
    """Chance that random numbers in the empty cells make the line meet `cond`."""
    ways = _sum_table(empty, faces)
    good = sum(count for total, count in enumerate(ways) if count and cond.holds(filled + total))
    return good / faces**empty


def _best_crosses(rules: HorizontalVertical, cells: tuple[int, ...], passes: int, count: int,
                  taken: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Place `count` x one at a time where they cost the position least."""
    placed: list[int] = []
    current = list(cells)
    for _ in range(count):
        best, best_value = -1, float("-inf")
        for cell, v in enumerate(current):
            if v == 0 and cell != taken:
                current[cell] = X
                value = rules.position_value(tuple(current), passes)
                current[cell] = 0
                if value > best_value:
                    best, best_value = cell, value
        current[best] = X
        placed.append(best)
    return tuple(sorted(placed)), tuple(current)


def sample_move(rules: HorizontalVertical, state: State, rng: random.Random) -> Move:
    """The random player's move: any write (value and cell) or the pass, equally likely; x anywhere.

    (The generic `uniform` bot picks among every x placement too, so it mostly plays
    double wilds.)"""
    options: list[tuple[int, int, int]] = [(v, c, cost) for (v, c), cost in rules.writes(state).items()]
    if state.passes < rules.max_passes:
        options.append((0, -1, rules.pass_x))
    value, cell, cost = rng.choice(options)
    empty = [i for i, v in enumerate(state.cells) if v == 0 and i != cell]
    xs = tuple(sorted(rng.sample(empty, cost)))
    return Move("write", value, cell, xs) if cell >= 0 else Move("pass", xs=xs)



def solver_bot(rules: HorizontalVertical) -> Bot[State, Move]:
    """Greedy on the heuristic: try every write (and a pass), x where they hurt least."""

    def choose(state: State, rng: random.Random) -> Move:
        options: list[tuple[Move, int, int]] = [
            (Move("write", value, cell), cost, cell) for (value, cell), cost in rules.writes(state).items()]
        if state.passes < rules.max_passes:
            options.append((Move("pass"), rules.pass_x, -1))

        def scored() -> Iterator[tuple[Move, float]]:
            for move, cost, cell in options:
                cells = list(state.cells)
                if cell >= 0:
                    cells[cell] = move.value
                passes = state.passes + (move.kind == "pass")
                xs, after = _best_crosses(rules, tuple(cells), passes, cost, cell)
                if rules.won(after):
                    value = 1000.0 + rules.max_passes - passes
                else:
                    value = rules.position_value(after, passes) if 0 in after else -1000.0
                yield move._replace(xs=xs), value

        return best_of(scored(), rng)

    return choose


# The random player, the solver and the figures simulation reports.

BOTS = {"solver": solver_bot}


def evaluate(rules: HorizontalVertical, state: State, seat: int) -> float:
    if state.end:
        return 1000.0 + rules.max_passes - state.passes if state.end == WON else -1000.0
    return rules.position_value(state.cells, state.passes)


def line_promise(rules: HorizontalVertical, cells: tuple[int, ...], line: int) -> float:
    """How close a line is to meeting its condition, 0..1 (solver heuristic)."""
    values = [cells[i] for i in rules.line_cells[line]]
    if X in values:
        return 0.0
    cond = rules.board.lines[line]
    empty = values.count(0)
    numbers = [v for v in values if v]
    if cond.measure == "sum":
        if not rules.board.full_lines:
            return 1.0 if cond.holds(sum(numbers)) else 0.0
        chance = _sum_chance(cond, sum(numbers), empty, rules.faces)
        return chance * rules.decay**empty
    best = max(Counter(numbers).values(), default=0)
    if cond.holds(best):
        return 1.0
    need = max(0, cond.value - best) if cond.test in ("at_least", "equals") else 0
    if need > empty:
        return 0.0
    return rules.decay ** (2 * need) * (1 + 0.1 * (empty - need))


Promises = tuple[tuple[Callable[[tuple[int, ...]], tuple[int, ...]], dict[tuple[int, ...], float]], ...]


def promises(rules: HorizontalVertical) -> Promises:
    """Per line: what reads its cells' values, and its line_promise by those values (filled in
    as met; a line's promise depends on nothing else)."""
    result: list[tuple[Callable[[tuple[int, ...]], tuple[int, ...]], dict[tuple[int, ...], float]]] = []
    for cells in rules.line_cells:
        get = itemgetter(*cells) if len(cells) > 1 else lambda all_cells, i=cells[0]: (all_cells[i],)
        result.append((get, {}))
    return tuple(result)


def position_value(rules: HorizontalVertical, cells: tuple[int, ...], passes: int) -> float:
    promise = []
    for line, (get, known) in enumerate(rules.promises):
        values = get(cells)
        p = known.get(values)
        if p is None:
            if len(known) > 100_000:  # a bound on memory over long runs
                known.clear()
            p = known[values] = rules.line_promise(cells, line)
        promise.append(p)
    rows = sorted(promise[: rules.n_rows], reverse=True)
    cols = sorted(promise[rules.n_rows:], reverse=True)
    core = _top(rows, rules.win_rows) * _top(cols, rules.win_cols)
    return (core + rules.spread * sum(promise) / len(promise)
            + rules.pass_value * (rules.max_passes - passes) + rules.empty_value * cells.count(0))


def game_stats(rules: HorizontalVertical, state: State) -> dict[str, float]:
    won = state.end == WON
    return {"turns": float(state.turns), "score (passes left)": float(rules.max_passes - state.passes)
            if won else 0.0, "passes used": float(state.passes)}
