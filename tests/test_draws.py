"""pnpgen.engine.draws takes the very draws of random.Random's methods, so seeded games play
the same with them as with Random (and any change to CPython's drawing shows here)."""

from __future__ import annotations

import random

from pnpgen.engine import draws


def test_draws_are_the_random_methods_draws() -> None:
    for seed in range(40):
        mine, theirs = random.Random(seed), random.Random(seed)
        for n in range(1, 40):
            items, expected = list(range(n)), list(range(n))
            draws.shuffle(items, mine)
            theirs.shuffle(expected)
            assert items == expected
            assert draws.choice(items, mine) == theirs.choice(expected)
            assert draws.below(n, mine) == theirs.randrange(n)
            assert draws.below_each(n, 7, mine) == [theirs.randrange(n) for _ in range(7)]
        assert draws.below_each(6, 0, mine) == []
        assert mine.random() == theirs.random()  # the generators end in the same state
