"""Reading numbers out of move notation and state-file words, safely.

`str.isdigit()` accepts '²' and '١', and `int()` refuses numbers of more than 4,300
digits: either would escape as a ValueError. Every game reads numbers in its
notation and state files through `number`.
"""

from __future__ import annotations

MAX_DIGITS = 9  # no face, cell, seat or count in a game needs more


def number(word: str) -> int | None:
    """The value of a plain ASCII number of at most MAX_DIGITS digits (else None)."""
    if word.isascii() and word.isdigit() and len(word) <= MAX_DIGITS:
        return int(word)
    return None


def signed(word: str) -> int | None:
    """Like `number`, with an optional leading '+' or '-'."""
    sign = -1 if word[:1] == "-" else 1
    value = number(word[1:] if word[:1] in "+-" else word)
    return None if value is None else sign * value
