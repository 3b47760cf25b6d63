"""Pairing Five (2つが5つ): GAMES.md §3.5, decision D-FA-10.

One board side is one class built in four layers, each a module of this package and each
using the ones before it: rules (mechanics and move notation), codec (state files),
solver (the bots and the evaluation) and presentation (the rulebook's values and tables,
a state described).
"""

from __future__ import annotations

from pnpgen.games.fast_alone.pairing_five.board import RULES_SCHEMA
from pnpgen.games.fast_alone.pairing_five.presentation import PairingFivePresentation
from pnpgen.games.fast_alone.pairing_five.rules import STUCK, WON, Move, State

__all__ = [
    "Move", "PairingFive", "RULES_SCHEMA", "STUCK", "State", "WON", "create"
]


class PairingFive(PairingFivePresentation):
    """One board side of Pairing Five."""


create = PairingFive.create
