"""No Gaps (すきまなく): GAMES.md §3.3, decision D-FA-7.

One board side is one class built in four layers, each a module of this package and each
using the ones before it: rules (mechanics and move notation), codec (state files),
solver (the bots and the evaluation) and presentation (the rulebook's values and tables,
a state described).
"""

from __future__ import annotations

from pnpgen.games.fast_alone.no_gaps.presentation import NoGapsPresentation
from pnpgen.games.fast_alone.no_gaps.rules import NO_DICE, NO_REROLLS, RULES_SCHEMA, WON, Move, State

__all__ = [
    "Move", "NO_DICE", "NO_REROLLS", "NoGaps", "RULES_SCHEMA", "State", "WON", "create"
]


class NoGaps(NoGapsPresentation):
    """One board side of No Gaps."""


create = NoGaps.create
