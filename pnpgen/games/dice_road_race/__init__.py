"""The Dice Road Race stage race: standings referee and race simulation.

race.py holds the stage-race arithmetic (the referee's report); model.py plays
whole races on the stand-in race model of D-RR-1 (mechanics and notation); files.py
reads and writes state files, analysis.py holds the bots and figures, presentation.py
the referee's standings and the rulebook's tables; every number is in game.yaml.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pnpgen.content.game import GameContent
from pnpgen.content.schema import Each, Range, Schema

if TYPE_CHECKING:
    from pnpgen.games.dice_road_race.game import StageRace

__all__ = ["RULES_SCHEMA", "SIMULATION_SCHEMA", "StageRace", "create"]

# game.yaml `simulation:` settings of this engine (beside the shared ones)
SIMULATION_SCHEMA: Schema = {
    "retire_gaps?": Each(Range(int, 1, 100_000)),  # bots retire when this far behind, per stage
}


def game_ids(content: GameContent) -> list[str]:
    """The one game this engine makes of `content`, without building it (pnpgen list)."""
    return [content.id]


def create(content: GameContent) -> list[StageRace]:
    from pnpgen.games.dice_road_race.game import StageRace  # imported only when a game is played

    return [StageRace(content)]


def __getattr__(name: str) -> Any:
    """The game and its rules' schema, imported on first use (pnpgen list needs neither)."""
    if name == "RULES_SCHEMA":
        from pnpgen.games.dice_road_race.config import RULES_SCHEMA

        return RULES_SCHEMA
    if name == "StageRace":
        from pnpgen.games.dice_road_race.game import StageRace

        return StageRace
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
