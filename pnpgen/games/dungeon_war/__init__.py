"""Dungeon War (ダンジョン大戦): King Dragons lead armies through a growing dungeon.

odds.py computes melee and ranged odds exactly; model.py is the rules engine (it resolves
every melee through odds.py); notation.py, files.py and explain.py give the referee its
moves, state files and reasons. Every number is in content/dungeon-war (game.yaml
`rules:`, dungeon-cards.yaml, war-cards.csv); data the source lacks is marked stand-in.
"""

from __future__ import annotations

from typing import Any

from pnpgen.content.game import GameContent
from pnpgen.content.schema import Range
from pnpgen.engine.protocol import Rules

from .analysis import WEIGHTS
from .config import RULES_SCHEMA
from .game import DungeonWar

__all__ = ["RULES_SCHEMA", "SIMULATION_SCHEMA", "DungeonWar", "create"]

# game.yaml `simulation:` settings of this engine (beside the shared ones): analysis.py
SIMULATION_SCHEMA: dict[str, Any] = {
    "evaluation": {key: Range(float, -1e6, 1e6) for key in WEIGHTS},
}


def create(content: GameContent) -> list[Rules[Any, Any]]:
    return [DungeonWar(content)]
