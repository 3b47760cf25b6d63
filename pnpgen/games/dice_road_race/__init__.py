"""The Dice Road Race stage race: standings referee and race simulation.

race.py holds the stage-race arithmetic (the referee's report); model.py plays
whole races on the stand-in race model of D-RR-1; every number is in game.yaml.
"""

from __future__ import annotations

from typing import Any

from pnpgen.content.game import GameContent
from pnpgen.content.schema import Each, Range
from pnpgen.engine.protocol import Rules
from pnpgen.games.dice_road_race.config import RULES_SCHEMA
from pnpgen.games.dice_road_race.model import StageRace

__all__ = ["RULES_SCHEMA", "SIMULATION_SCHEMA", "create"]

# game.yaml `simulation:` settings of this engine (beside the shared ones)
SIMULATION_SCHEMA: dict[str, Any] = {
    "retire_gaps?": Each(Range(int, 1, 100_000)),  # bots retire when this far behind, per stage
}


def create(content: GameContent) -> list[Rules[Any, Any]]:
    return [StageRace(content)]
