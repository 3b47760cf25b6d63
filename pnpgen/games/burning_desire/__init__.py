"""Burning Desire: push-your-luck dice scoring to 1000 (GAMES.md §1).

config.py reads game.yaml, scoring.py scores a roll, rules.py plays the game,
solver.py finds the exact optimal reroll policy, bots.py holds the bots.
"""

from __future__ import annotations

from typing import Any

from pnpgen.content.game import GameContent
from pnpgen.engine.protocol import Rules
from pnpgen.games.burning_desire.config import RULES_SCHEMA
from pnpgen.games.burning_desire.rules import BurningDesire

__all__ = ["RULES_SCHEMA", "create"]


def create(content: GameContent) -> list[Rules[Any, Any]]:
    return [BurningDesire(content)]
