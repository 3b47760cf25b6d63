"""Unification: solver."""

from __future__ import annotations

import heapq
import random
from typing import TYPE_CHECKING

from pnpgen.engine.protocol import Bot
from pnpgen.games.fast_alone.unification.rules import (
    OPPOSITE,
    WON,
    Move,
    State,
)

if TYPE_CHECKING:
    from pnpgen.games.fast_alone.unification import Unification


def plan(rules: Unification, state: State, nodes: int) -> list[Move] | None:
    """A winning line of certain pushes by weighted A* (None when none is found within
    `nodes` positions or the pushes left). A win with the red die off the centre is kept
    while the search goes on, for a quarter of `nodes` more, for a centre win scoring more
    (the doubling)."""
    Key = tuple[tuple[int, ...], int, int, str]

    def key(s: State) -> Key:
        return (s.cells, s.red, s.push, s.banned)

    def line_to(at: Key | None) -> list[Move]:
        line: list[Move] = []
        while at is not None:
            at, step = parents[at]
            if step is not None:
                line.append(step)
        return line[::-1]

    certain = {k for k, edge in rules.edges.items() if all(e.effect != "reroll" for e in edge.effects)}
    counter = 0
    frontier: list[tuple[float, int, int, State]] = [(rules.weight * rules.distance(state), 0, counter, state)]
    parents: dict[Key, tuple[Key | None, Move | None]] = {key(state): (None, None)}
    best_g: dict[Key, int] = {key(state): 0}
    best: tuple[int, list[Move]] | None = None  # the best-scoring win found so far
    budget = nodes
    while frontier and len(parents) < budget:
        _, g, _, here = heapq.heappop(frontier)
        here_key = key(here)
        if best_g.get(here_key, 1 << 30) < g:
            continue
        for move in rules.pushes(here):
            if OPPOSITE[move.edge] not in certain:
                continue
            new = rules.advance(here, move)
            new_key = key(new)
            if new.end != WON and (new.end or new_key in best_g and best_g[new_key] <= g + 1):
                continue
            parents[new_key] = (here_key, move)
            best_g[new_key] = g + 1
            if new.end == WON:
                score = rules.score(new)
                if best is None:  # from here on, a quarter of the positions more for a better win
                    budget = min(nodes, len(parents) + nodes // 4)
                if best is None or score > best[0]:
                    best = (score, line_to(new_key))
                if new.red == rules.centre or rules.centre < 0:
                    return best[1]
                continue
            left = rules.push_limit - new.pushes
            if left > 0 and not (best and 2 * left <= best[0]):  # a centre win could still score more
                counter += 1
                heapq.heappush(frontier, (g + 1 + rules.weight * rules.distance(new), g + 1, counter, new))
    return best[1] if best else None


def solver_bot(rules: Unification) -> Bot[State, Move]:
    """Follows a planned winning line; plans again after a reroll or when lost; with no
    plan, the push leaving the fewest effect steps (a reroll valued by its average)."""
    route: list[tuple[State, Move]] = []

    def greedy(state: State, rng: random.Random) -> Move:
        scored: list[tuple[float, Move]] = []
        for move in rules.legal_moves(state):
            new = rules.advance(state, move)
            if new.end == WON:
                return move
            if new.end:
                value = float(1 << 20)
            elif not new.push:
                value = sum(rules.distance(new._replace(push=f)) for f in range(1, rules.faces + 1)) / rules.faces
            else:
                value = float(rules.distance(new))
            scored.append((value, move))
        low = min(v for v, _ in scored)
        return rng.choice([m for v, m in scored if v == low])

    def choose(state: State, rng: random.Random) -> Move:
        if route and route[0][0] == state:
            return route.pop(0)[1]
        route.clear()
        line = plan(rules, state, rules.nodes)
        if line:
            at = state
            for move in line:
                route.append((at, move))
                at = rules.advance(at, move)
            return route.pop(0)[1]
        return greedy(state, rng)

    return choose


# The random player, the solver and the figures simulation reports.

BOTS = {"solver": solver_bot}  # "random" is the engine's: uniform over legal_moves


def distance(rules: Unification, state: State) -> int:
    """The fewest certain effect steps that could still unify the grid: over the white
    dice (grid and push die), all but one must reach the red die's face; a paradigm
    edge may first give the red another face, for one push more."""
    cells, red = state.cells, state.red
    red_face = cells[red]
    whites = (*cells[:red], *cells[red + 1:], state.push) if red >= 0 else (*cells, state.push)
    table = rules.steps
    best = 1 << 30
    for target in range(1, rules.faces + 1) if rules.paradigm else (red_face,):
        steps = [table[f][target] for f in whites]
        cost = sum(steps) - max(steps) + (target != red_face)  # all but the farthest die
        best = min(best, cost)
    return best


def evaluate(rules: Unification, state: State, seat: int) -> float:
    if state.end:
        return 1.0 if state.end == WON else 0.0
    if not rules.settled(state) or not state.push:
        return 0.0
    return 1.0 / (1.0 + rules.distance(state))


def game_stats(rules: Unification, state: State) -> dict[str, float]:
    return {"turns": float(state.pushes), "pushes": float(state.pushes), "rerolls": float(state.rerolls),
            "red in centre": float(state.end == WON and state.red == rules.centre)}


def steps(rules: Unification) -> tuple[tuple[int, ...], ...]:
    """steps[f][t]: the fewest pushes whose certain effects turn face f into t (the
    solver's measure; a face a reroll alone could give counts 2)."""
    changes: dict[int, set[int]] = {f: set() for f in range(1, rules.faces + 1)}
    rerolls = False
    for edge in rules.edges.values():
        for e in edge.effects:
            for f in changes:
                changes[f].update(rules._changed(e, f))
            rerolls |= e.effect == "reroll"
    far = 2 if rerolls else rules.size * rules.faces
    table = []
    for start in range(rules.faces + 1):
        dist = {start: 0}
        todo = [start] if start else []
        for f in todo:
            for g in changes[f]:
                if g not in dist:
                    dist[g] = dist[f] + 1
                    todo.append(g)
        table.append(tuple(min(dist.get(t, far), far) for t in range(rules.faces + 1)))
    return tuple(table)
