"""Growing Nine (ふえていく): GAMES.md §3.2, decisions D-FA-4..6.

One board side is one class built in four layers, each a module of this package and each
using the ones before it: rules (mechanics and move notation), codec (state files),
solver (the bots and the evaluation) and presentation (the rulebook's values and tables,
a state described).
"""

from __future__ import annotations

from pnpgen.games.fast_alone.growing_nine.presentation import GrowingNinePresentation
from pnpgen.games.fast_alone.growing_nine.rules import (
    ORIENTATIONS,
    REPEAT,
    RULES_SCHEMA,
    STUCK,
    TOP,
    TUMBLE,
    WON,
    Move,
    State,
)
from pnpgen.games.fast_alone.growing_nine.solver import roll_setup, solve_setup

__all__ = [
    "GrowingNine", "Move", "ORIENTATIONS", "REPEAT", "RULES_SCHEMA", "STUCK", "State", "TOP",
    "TUMBLE", "WON", "create", "roll_setup", "solve_setup"
]


class GrowingNine(GrowingNinePresentation):
    """One board side of Growing Nine."""


create = GrowingNine.create
