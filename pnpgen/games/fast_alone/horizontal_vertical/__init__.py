"""Horizontal & Vertical (ヨコとタテと): GAMES.md §3.1, decisions D-FA-1..3.

One board side is one class built in four layers, each a module of this package and each
using the ones before it: rules (mechanics and move notation), codec (state files),
solver (the bots and the evaluation) and presentation (the rulebook's values and tables,
a state described).
"""

from __future__ import annotations

from pnpgen.games.fast_alone.horizontal_vertical.presentation import HorizontalVerticalPresentation
from pnpgen.games.fast_alone.horizontal_vertical.rules import FULL, RULES_SCHEMA, STUCK, WON, Move, State

__all__ = [
    "FULL", "HorizontalVertical", "Move", "RULES_SCHEMA", "STUCK", "State", "WON", "create"
]


class HorizontalVertical(HorizontalVerticalPresentation):
    """One board side of Horizontal & Vertical."""


create = HorizontalVertical.create
