"""Chance: drawing a chance node's outcome, the same way everywhere (simulation, search)."""

from __future__ import annotations

import math
import random
from bisect import bisect
from collections.abc import Callable
from fractions import Fraction
from functools import lru_cache
from itertools import accumulate, combinations_with_replacement
from typing import TypeVar

from pnpgen.engine.protocol import Rules

S = TypeVar("S")
M = TypeVar("M")

def chance_sampler(rules: Rules[S, M]) -> Callable[[S, random.Random], M]:
    """The game's own sampler if it has one; else a fast equivalent of the default.

    The fast path draws exactly what `Rules.sample_chance` would (the same float
    weights, one `rng.random()`, the same bisection as `random.choices`), without
    building the intermediate lists.
    """
    if type(rules).sample_chance is not Rules.sample_chance:
        return rules.sample_chance
    outcomes_of = rules.chance_outcomes

    def sample(state: S, rng: random.Random) -> M:
        outcomes = outcomes_of(state)
        cumulative = list(accumulate([p.numerator / p.denominator for _, p in outcomes]))
        r = rng.random() * cumulative[-1]
        return outcomes[bisect(cumulative, r, 0, len(cumulative) - 1)][0]

    return sample


@lru_cache(maxsize=64)
def dice_rolls(dice: int, faces: tuple[int, ...]) -> tuple[tuple[tuple[int, ...], Fraction], ...]:
    """Every roll of `dice` fair dice showing `faces`, as a multiset in the order of `faces`
    (each face appearing once), with its exact probability."""
    result = []
    for rolled in combinations_with_replacement(faces, dice):
        ways = math.factorial(dice)
        for face in set(rolled):
            ways //= math.factorial(rolled.count(face))
        result.append((rolled, Fraction(ways, len(faces) ** dice)))
    return tuple(result)
