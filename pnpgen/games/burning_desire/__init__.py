"""Burning Desire: push-your-luck dice scoring to 1000 (GAMES.md §1).

config.py reads game.yaml, scoring.py scores a roll, rules.py plays the game (mechanics
and notation), files.py reads and writes state files, analysis.py (with solver.py, the
exact optimal reroll policy, and bots.py) evaluates and plays, presentation.py gives
the referee's report and the rulebook's values and tables.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pnpgen.content.game import GameContent
from pnpgen.content.schema import Range, Schema

if TYPE_CHECKING:
    from pnpgen.games.burning_desire.game import BurningDesire

__all__ = ["RULES_SCHEMA", "SIMULATION_SCHEMA", "BurningDesire", "create"]

# game.yaml `simulation:` settings of this engine (beside the shared ones)
SIMULATION_SCHEMA: Schema = {
    "tie_break_rounds?": Range(int, 1, 1_000),  # D-BD-1: still tied after this many rounds: shared win
    "gamble_margin?": Range(int, 0, 1_000_000),  # bots gamble on reaching the threshold with a smaller lead
}


def game_ids(content: GameContent) -> list[str]:
    """The one game this engine makes of `content`, without building it (pnpgen list)."""
    return [content.id]


def create(content: GameContent) -> list[BurningDesire]:
    from pnpgen.games.burning_desire.game import BurningDesire  # imported only when a game is played

    return [BurningDesire(content)]


def __getattr__(name: str) -> Any:
    """The game and its rules' schema, imported on first use (pnpgen list needs neither)."""
    if name == "RULES_SCHEMA":
        from pnpgen.games.burning_desire.config import RULES_SCHEMA

        return RULES_SCHEMA
    if name == "BurningDesire":
        from pnpgen.games.burning_desire.game import BurningDesire

        return BurningDesire
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
