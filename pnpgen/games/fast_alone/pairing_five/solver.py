"""PairingFive: solver."""

from __future__ import annotations

import random
from collections import Counter
from typing import TYPE_CHECKING

from pnpgen.engine.bots import best_of
from pnpgen.engine.protocol import Bot
from pnpgen.games.fast_alone.pairing_five.rules import (
    WON,
    Move,
    State,
)

if TYPE_CHECKING:
    from pnpgen.games.fast_alone.pairing_five import PairingFive


class _Search:
    """Expectimax with a memo: the chance of winning from a state, exact near the end."""

    def __init__(self, rules: PairingFive) -> None:
        self.rules = rules
        self.memo: dict[tuple[tuple[int, ...], int, tuple[int, ...], int, int], float] = {}

    def value(self, state: State, depth: int) -> float:
        if state.end:
            return 1.0 if state.end == WON else 0.0
        rules = self.rules
        exact = len(state.pool) + state.pending <= rules.exact_from
        if exact:
            depth = -1
        elif depth == 0:
            return rules.evaluate(state, 0)
        key = (state.cells, state.red, state.pool, state.pending, depth)
        known = self.memo.get(key)
        if known is not None:
            return known
        if state.pending:
            result = sum(float(p) * self.after(state, m, depth) for m, p in rules.chance_outcomes(state))
        else:
            result = 0.0
            for move in rules.legal_moves(state):
                result = max(result, self.after(state, move, depth - 1 if depth > 0 else -1))
                if result >= 1.0:
                    break
        if len(self.memo) > 500_000:
            self.memo.clear()
        self.memo[key] = result
        return result

    def after(self, state: State, move: Move, depth: int) -> float:
        """value(rules.advance(state, move), depth), settling the new state's end only when the
        memo does not know it: a state in the memo has no end, which depends on its key alone."""
        rules = self.rules
        new = rules.moved(state, move)
        if len(new.pool) + new.pending <= rules.exact_from:
            known = self.memo.get((new.cells, new.red, new.pool, new.pending, -1))
        else:
            known = self.memo.get((new.cells, new.red, new.pool, new.pending, depth)) if depth else None
        if known is not None:
            return known
        return self.value(rules.settle(new), depth)


def solver_bot(rules: PairingFive) -> Bot[State, Move]:
    """Expectimax: the move with the best chance of winning (ties broken by the rng)."""
    search = _Search(rules)

    def choose(state: State, rng: random.Random) -> Move:
        moves = rules.legal_moves(state)
        if len(moves) == 1:
            return moves[0]
        return best_of(((move, search.after(state, move, rules.depth - 1)) for move in moves), rng)

    return choose


# The random player, the solver and the figures simulation reports.

BOTS = {"solver": solver_bot}  # "random" is the engine's: uniform over legal_moves


def misfits(rules: PairingFive, cells: tuple[int, ...], pool: tuple[int, ...]) -> int:
    """Unused dice that no area could take as things stand (the solver's leaf measure)."""
    counts = Counter(pool)
    used = 0
    held = set()
    empty = 0
    for a in range(rules.n):
        first, second = cells[2 * a], cells[2 * a + 1]
        if first:
            held.add(first)
            if not second and counts[first]:
                used += 1
        else:
            empty += 1
    pairs = sorted((min(2, c) for f, c in counts.items() if f not in held), reverse=True)
    used += sum(pairs[:empty])
    return len(pool) - used


def evaluate(rules: PairingFive, state: State, seat: int) -> float:
    if state.end:
        return 1.0 if state.end == WON else 0.0
    pool = state.pool + ((state.red,) if state.red else ())
    return max(0.0, 1.0 - rules.misfit_cost * rules.misfits(state.cells, pool))


def game_stats(rules: PairingFive, state: State) -> dict[str, float]:
    return {"turns": float(state.turns), "dice placed": float(state.turns), "rerolls": float(state.rerolls)}
