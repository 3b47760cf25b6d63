"""Random draws exactly as random.Random makes them (seeded games play the same), without a
Python call per draw: simulation draws millions of them.

Random's randrange(n), choice and shuffle all draw through CPython's Random._randbelow(n):
getrandbits of n's bit length, redrawn while >= n. That loop is written out here, and only
here; tests/test_draws.py holds each function to its Random method.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TypeVar

_T = TypeVar("_T")


def below(n: int, rng: random.Random) -> int:
    """rng.randrange(n), n >= 1."""
    bits = rng.getrandbits
    k = n.bit_length()
    r = bits(k)
    while r >= n:
        r = bits(k)
    return r


def below_each(n: int, count: int, rng: random.Random) -> list[int]:
    """[rng.randrange(n) for _ in range(count)]: `count` dice of n faces (0-based) in one call."""
    bits = rng.getrandbits
    k = n.bit_length()
    drawn = []
    for _ in range(count):
        r = bits(k)
        while r >= n:
            r = bits(k)
        drawn.append(r)
    return drawn


def choice(items: Sequence[_T], rng: random.Random) -> _T:
    """rng.choice(items), items not empty."""
    return items[below(len(items), rng)]


def shuffle(items: list[_T], rng: random.Random) -> None:
    """rng.shuffle(items): from the last index down to 1, a swap with a random one at or below it."""
    bits = rng.getrandbits
    for i in range(len(items) - 1, 0, -1):
        n = i + 1
        k = n.bit_length()
        j = bits(k)
        while j >= n:
            j = bits(k)
        items[i], items[j] = items[j], items[i]
