"""Unification (単一化): GAMES.md §3.4, decisions D-FA-8 and D-FA-9.

One board side is one class built in four layers, each a module of this package and each
using the ones before it: rules (mechanics and move notation), codec (state files),
solver (the bots and the evaluation) and presentation (the rulebook's values and tables,
a state described).
"""

from __future__ import annotations

from pnpgen.games.fast_alone.unification.presentation import UnificationPresentation
from pnpgen.games.fast_alone.unification.rules import RULES_SCHEMA, STUCK, TIME, WON, Move, State

__all__ = [
    "Move", "RULES_SCHEMA", "STUCK", "State", "TIME", "Unification", "WON", "create"
]


class Unification(UnificationPresentation):
    """One board side of Unification."""


create = Unification.create
