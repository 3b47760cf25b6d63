"""Bots every game gets for free; games add their own through Rules.bots()."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from pnpgen.engine.protocol import Bot, Rules
from pnpgen.errors import PnpgenError


def random_bot(rules: Rules[Any, Any]) -> Bot[Any, Any]:
    def choose(state: Any, rng: random.Random) -> Any:
        return rng.choice(rules.legal_moves(state))

    return choose


def greedy_bot(rules: Rules[Any, Any]) -> Bot[Any, Any]:
    """One-move look-ahead on the game's evaluation; ties broken by the rng."""

    def choose(state: Any, rng: random.Random) -> Any:
        seat = rules.current_player(state)
        best: list[Any] = []
        best_value = float("-inf")
        for move in rules.legal_moves(state):
            value = rules.evaluate(rules.apply(state, move)[0], seat)
            if value > best_value + 1e-12:
                best, best_value = [move], value
            elif abs(value - best_value) <= 1e-12:
                best.append(move)
        return rng.choice(best)

    return choose


GENERIC_BOTS: dict[str, Callable[[Rules[Any, Any]], Bot[Any, Any]]] = {
    "random": random_bot,
    "greedy": greedy_bot,
}


def available_bots(rules: Rules[Any, Any]) -> list[str]:
    return sorted(set(GENERIC_BOTS) | set(rules.bots()))


def make_bot(rules: Rules[Any, Any], name: str) -> Bot[Any, Any]:
    """A bot by name: the game's own bots take precedence over the generic ones."""
    own = rules.bots()
    if name in own:
        return own[name]()
    if name in GENERIC_BOTS:
        return GENERIC_BOTS[name](rules)
    raise PnpgenError(f"unknown bot '{name}' for {rules.id}; bots: {', '.join(available_bots(rules))}")
