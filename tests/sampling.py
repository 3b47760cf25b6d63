"""Long scenario lists, sampled in the everyday run and played whole by `nox -s full`.

`PNPGEN_FULL_TESTS=1` (what `nox -s full` sets) keeps every item; otherwise a test keeps
`every`-th item, the same items on every run, first and last included; a derandomised
Hypothesis test plays the first `everyday` of its `full` examples (`examples`). docs/testing.md
lists the sampled tests.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import TypeVar

T = TypeVar("T")

FULL = os.environ.get("PNPGEN_FULL_TESTS", "") == "1"


def sample(items: Sequence[T], every: int) -> list[T]:
    """Every item under PNPGEN_FULL_TESTS=1; otherwise items 0, every, 2·every, … and the last."""
    if FULL or every <= 1 or len(items) <= 2:
        return list(items)
    kept = list(items[::every])
    if (len(items) - 1) % every:
        kept.append(items[-1])
    return kept


def examples(full: int, everyday: int) -> int:
    """A Hypothesis test's max_examples: `full` under PNPGEN_FULL_TESTS=1, else `everyday`
    (derandomised tests then play the same first examples on every run)."""
    return full if FULL else min(full, everyday)
