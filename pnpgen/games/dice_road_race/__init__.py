"""The Dice Road Race stage race: standings referee and race simulation.

race.py holds the stage-race arithmetic (the referee's report); model.py plays
whole races on the stand-in race model of D-RR-1; every number is in game.yaml.
"""

from __future__ import annotations

from typing import Any

from pnpgen.content.game import GameContent
from pnpgen.engine.protocol import Rules
from pnpgen.games.dice_road_race.config import RULES_SCHEMA
from pnpgen.games.dice_road_race.model import StageRace

__all__ = ["RULES_SCHEMA", "create"]


def create(content: GameContent) -> list[Rules[Any, Any]]:
    return [StageRace(content)]
