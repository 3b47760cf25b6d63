"""GrowingNine: solver."""

from __future__ import annotations

import random
import time
from typing import TYPE_CHECKING, NamedTuple

from pnpgen.engine.metrics import wilson_interval
from pnpgen.engine.protocol import CHANCE, Bot
from pnpgen.games.fast_alone.growing_nine.rules import (
    RED,
    REPEAT,
    TUMBLE,
    WON,
    Move,
    State,
)

if TYPE_CHECKING:
    from pnpgen.games.fast_alone.growing_nine import GrowingNine


class Search(NamedTuple):
    won: bool | None  # None: gave up after max_nodes positions
    nodes: int
    moves: tuple[Move, ...]  # a winning line (empty when none)


def solver_bot(rules: GrowingNine) -> Bot[State, Move]:
    """Plays a proven winning line when the exact search finds one; otherwise any move
    that does not repeat a position."""
    plan: dict[tuple[int, ...], Move] = {}

    def follow(state: State, cells: tuple[int, ...], queue: tuple[int, ...], moves: tuple[Move, ...]) -> None:
        plan.clear()
        for move in moves:
            plan[cells] = move
            v = cells[move.cell]
            base = 1 if v <= RED else 1 + RED
            d = next(d for d, t in rules.adj[move.cell] if t == move.to)
            cells, queue, _ = rules._after_tumble(cells, move.cell, move.to, base + TUMBLE[d][v - base], queue)

    def choose(state: State, rng: random.Random) -> Move:
        if not rules.placed(state):
            found, place = rules.solve_placement(state)
            if place is None:
                return rng.choice(rules.legal_moves(state))
            placed, _ = rules._place(state, place)
            follow(placed, placed.cells, placed.queue, found.moves)
            return place
        if state.cells in plan:
            return plan[state.cells]
        found = rules.solve(state)
        if found.won:
            follow(state, state.cells, state.queue, found.moves)
            return plan[state.cells]
        moves = rules.legal_moves(state)
        fresh = [m for m in moves if rules.apply(state, m)[0].end != REPEAT]
        return rng.choice(fresh or moves)

    return choose


def roll_setup(rules: GrowingNine, rng: random.Random) -> State:
    """A setup rolled by chance: the red and every white, each in one of 24 orientations."""
    state = rules.initial_state(1)
    while rules.current_player(state) == CHANCE:
        state, _ = rules.apply(state, rules.sample_chance(state, rng))
    return state


def solve_setup(rules: GrowingNine, state: State) -> tuple[bool | None, int, float]:
    """For the bench: (won, positions searched, seconds) for one rolled setup, the best
    placement chosen (or for one placed state)."""
    start = time.perf_counter()
    found = rules.solve(state)
    return found.won, found.nodes, time.perf_counter() - start


class Exact(NamedTuple):
    """Exact verdicts on `setups` rolled setups (sampled: 24^10 rolls are too many to list)."""
    setups: int
    best: int  # setups won with the best placement
    placed: int  # setups won from one random placement (then perfect play)
    undecided: int  # searches that hit solver.max_nodes (counted as not won)
    mean_seconds: float
    max_seconds: float
    max_nodes: int
    mean_nodes: float  # positions searched per setup (best placement); the table prints these, not
    # the seconds, so that a rebuild gives the same PDF on any machine

    def interval(self, wins: int) -> tuple[float, float]:
        return wilson_interval(wins, self.setups)


_exact: dict[tuple[str, int, int], Exact] = {}


def exact_figures(rules: GrowingNine, setups: int, seed: int) -> Exact:
    """Roll `setups` setups with random.Random(seed) and decide each exactly: with the best
    placement, and from one placement drawn at random (a player who places blindly)."""
    key = (rules.id, setups, seed)
    if key in _exact:
        return _exact[key]
    rng = random.Random(seed)
    best = placed = undecided = most = 0
    times: list[float] = []
    nodes_total = 0
    for _ in range(setups):
        state = roll_setup(rules, rng)
        won, nodes, seconds = solve_setup(rules, state)
        times.append(seconds)
        most = max(most, nodes)
        nodes_total += nodes
        best += won is True
        undecided += won is None
        start, _ = rules.apply(state, rng.choice(rules.legal_moves(state)))
        placed += rules.solve(start).won is True
    result = Exact(setups, best, placed, undecided, sum(times) / max(1, setups), max(times, default=0.0), most,
                   nodes_total / max(1, setups))
    _exact[key] = result
    return result


# The random player, the solver and the figures simulation reports.

BOTS = {"solver": solver_bot}  # "random" is the engine's: uniform over legal_moves


# --- the exact solver ----------------------------------------------------------------
def search(rules: GrowingNine, cells: tuple[int, ...], queue: tuple[int, ...],
           seen: frozenset[tuple[int, ...]] = frozenset(),
           limit: int = 0, dead: set[tuple[int, ...]] | None = None,
           winning: set[tuple[int, ...]] | None = None) -> Search:
    """Depth-first search for the last spawn, never entering `seen` (module docstring).

    `dead` and `winning` may be shared between searches from empty histories with the
    same queue: `dead` holds positions proven not to lead to a win (a failed search
    adds every position it saw) and `winning` positions proven to (reaching one ends
    the search; its line is then not returned). A position left behind by a search
    that won may still win through one on the stack, so only failures feed `dead`."""
    dead = set() if dead is None else dead
    winning = set() if winning is None else winning
    visited = set(seen)
    visited.add(cells)
    total = len(queue)
    nodes = 1
    path: list[Move] = []
    stack = [(cells, total - len(queue), iter(rules.steps(cells)))]
    while stack:
        here, spawned, options = stack[-1]
        step = next(options, None)
        if step is None:
            stack.pop()
            if path:
                path.pop()
            continue
        frm, to, value = step
        new, rest, _ = rules._after_tumble(here, frm, to, value, queue[spawned:])
        if not rest or new in winning:
            winning.update(alive for alive, _, _ in stack)
            return Search(True, nodes, tuple(path) + (Move("tumble", cell=frm, to=to),))
        if new in visited or new in dead:
            continue
        visited.add(new)
        nodes += 1
        if limit and nodes > limit:
            return Search(None, nodes, ())
        path.append(Move("tumble", cell=frm, to=to))
        stack.append((new, total - len(rest), iter(rules.steps(new))))
    if not seen:
        dead |= visited
    return Search(False, nodes, ())


def solve_placement(rules: GrowingNine, state: State) -> tuple[Search, Move | None]:
    """Every placement of a rolled setup (sharing the dead positions of those with the
    same queue) until one wins."""
    nodes = 0
    dead: dict[tuple[int, ...], set[tuple[int, ...]]] = {}
    for move in rules.placements(state):
        placed, _ = rules._place(state, move)
        if placed.end:
            continue
        shared = dead.setdefault(placed.queue, set())
        if placed.cells in shared:
            continue
        if rules.max_nodes and nodes >= rules.max_nodes:
            return Search(None, nodes, ()), None
        limit = rules.max_nodes - nodes if rules.max_nodes else 0
        found = rules.search(placed.cells, placed.queue, limit=limit, dead=shared)
        nodes += found.nodes
        if found.won is None:
            return Search(None, nodes, ()), None
        if found.won:
            return Search(True, nodes, found.moves), move
    return Search(False, nodes, ()), None


def placement_wins(rules: GrowingNine, state: State) -> tuple[int, int, int]:
    """(winning placements, placements, positions searched) of a rolled setup: the
    win rate of a player who places at random and then plays perfectly."""
    nodes = wins = 0
    dead: dict[tuple[int, ...], set[tuple[int, ...]]] = {}
    good: dict[tuple[int, ...], set[tuple[int, ...]]] = {}
    moves = rules.placements(state)
    for move in moves:
        placed, _ = rules._place(state, move)
        if placed.end:
            continue
        found = rules.search(placed.cells, placed.queue, dead=dead.setdefault(placed.queue, set()),
                            winning=good.setdefault(placed.queue, set()))
        nodes += found.nodes
        wins += bool(found.won)
    return wins, len(moves), nodes


def solve(rules: GrowingNine, state: State) -> Search:
    """Exact: can this state still be won?"""
    if state.end:
        return Search(state.end == WON, 0, ())
    if not rules.placed(state):
        return rules.solve_placement(state)[0]
    return rules.search(state.cells, state.queue, state.seen - {state.cells}, rules.max_nodes)


def evaluate(rules: GrowingNine, state: State, seat: int) -> float:
    if state.end:
        return 1000.0 - state.turns if state.end == WON else -1000.0
    return float(rules.whites - len(state.queue))


def game_stats(rules: GrowingNine, state: State) -> dict[str, float]:
    on_board = rules.whites - len(state.queue) if rules.placed(state) else 0
    return {"turns": float(state.turns), "whites on the board": float(on_board),
            "score (turns when won)": float(state.turns) if state.end == WON else 0.0}
