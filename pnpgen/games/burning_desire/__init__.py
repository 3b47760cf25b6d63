"""Burning Desire: push-your-luck dice scoring to 1000 (GAMES.md §1).

config.py reads game.yaml, scoring.py scores a roll, rules.py plays the game (mechanics
and notation), files.py reads and writes state files, analysis.py (with solver.py, the
exact optimal reroll policy, and bots.py) evaluates and plays, presentation.py gives
the referee's report and the rulebook's values and tables.
"""

from __future__ import annotations

from typing import Any

from pnpgen.content.game import GameContent
from pnpgen.content.schema import Range
from pnpgen.engine.protocol import Rules
from pnpgen.games.burning_desire.config import RULES_SCHEMA
from pnpgen.games.burning_desire.files import BurningDesireFiles
from pnpgen.games.burning_desire.presentation import BurningDesirePresentation

__all__ = ["RULES_SCHEMA", "SIMULATION_SCHEMA", "BurningDesire", "create"]

# game.yaml `simulation:` settings of this engine (beside the shared ones)
SIMULATION_SCHEMA: dict[str, Any] = {
    "tie_break_rounds?": Range(int, 1, 1_000),  # D-BD-1: still tied after this many rounds: shared win
    "gamble_margin?": Range(int, 0, 1_000_000),  # bots gamble on reaching the threshold with a smaller lead
}


class BurningDesire(BurningDesireFiles, BurningDesirePresentation):
    """The whole game: rules and notation, state files, analysis and presentation."""


def create(content: GameContent) -> list[Rules[Any, Any]]:
    return [BurningDesire(content)]
