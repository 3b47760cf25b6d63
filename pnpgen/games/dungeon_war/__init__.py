"""Dungeon War (ダンジョン大戦): King Dragons lead armies through a growing dungeon.

odds.py computes melee and ranged odds exactly; model.py is the rules engine's contract,
with the rules by family in turn.py, movement.py, building.py, combat.py (every melee
through odds.py), shooting.py, cards.py and king.py, the moves in moves.py and each phase's
pending decision in pending.py; notation.py, files.py and explain.py give the referee its
moves, state files and reasons. Every number is in content/dungeon-war (game.yaml
`rules:`, dungeon-cards.yaml, war-cards.csv); data the source lacks is marked stand-in.
"""

from __future__ import annotations

from typing import Any

from pnpgen.content.game import GameContent
from pnpgen.engine.protocol import Rules

__all__ = ["RULES_SCHEMA", "SIMULATION_SCHEMA", "DungeonWar", "create"]


def game_ids(content: GameContent) -> list[str]:
    """The one game this engine makes of `content`, without building it (pnpgen list)."""
    return [content.id]


def create(content: GameContent) -> list[Rules[Any, Any]]:
    from .game import DungeonWar  # imported only when a game is played

    return [DungeonWar(content)]


def __getattr__(name: str) -> Any:
    """The game and its rules' schema, imported on first use (pnpgen list needs neither)."""
    if name == "RULES_SCHEMA":
        from .config import RULES_SCHEMA

        return RULES_SCHEMA
    if name == "SIMULATION_SCHEMA":  # game.yaml `simulation:` keys of this engine, beside the shared ones
        from pnpgen.content.schema import Range

        from .analysis import WEIGHTS

        return {"evaluation": {key: Range(float, -1e6, 1e6) for key in WEIGHTS}}
    if name == "DungeonWar":
        from .game import DungeonWar

        return DungeonWar
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
