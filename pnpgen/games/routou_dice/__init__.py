"""ROUTOU DICE (郎党ダイス): two-player grid battle with d10 placement, movement and
slashes. model.py holds the rules, files.py the state files, notation.py the move
notation, bots.py the bots; every number is in game.yaml `rules:`."""

from __future__ import annotations

from typing import Any

from pnpgen.content.game import GameContent
from pnpgen.content.schema import Range
from pnpgen.engine.protocol import Rules
from pnpgen.games.routou_dice.config import RULES_SCHEMA
from pnpgen.games.routou_dice.model import RoutouDice

__all__ = ["RULES_SCHEMA", "SIMULATION_SCHEMA", "RoutouDice", "create"]

# game.yaml `simulation:` settings of this engine (beside the shared ones)
SIMULATION_SCHEMA: dict[str, Any] = {
    "random_pass_probability?": Range(float, 0, 1),  # the random bot passes this often when it may
    "greedy?": {"clone_sample?": Range(int, 1, 10_000), "weights?": {"*": Range(float, -1e6, 1e6)}},
}


def create(content: GameContent) -> list[Rules[Any, Any]]:
    return [RoutouDice(content)]
