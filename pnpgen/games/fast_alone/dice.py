"""Rolls of identical dice as multisets, with exact probabilities (shared by the puzzles).

Rolling n dice of f faces gives C(n+f-1, n) multisets (3d6: 56, 6d6: 462); each
multiset is one chance outcome, weighted by its number of orderings.
"""

from __future__ import annotations

import math
import random
from fractions import Fraction
from functools import lru_cache
from itertools import combinations_with_replacement


@lru_cache(maxsize=64)
def roll_multisets(count: int, faces: int) -> tuple[tuple[tuple[int, ...], Fraction], ...]:
    """Every sorted roll of `count` d`faces`, with its exact probability (sums to 1)."""
    total = faces**count
    result = []
    for rolled in combinations_with_replacement(range(1, faces + 1), count):
        ways = math.factorial(count)
        for face in set(rolled):
            ways //= math.factorial(rolled.count(face))
        result.append((rolled, Fraction(ways, total)))
    return tuple(result)


def roll(count: int, faces: int, rng: random.Random) -> tuple[int, ...]:
    """One sorted roll drawn from `rng`."""
    return tuple(sorted(rng.randint(1, faces) for _ in range(count)))
