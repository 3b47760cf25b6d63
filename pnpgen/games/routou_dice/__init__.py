"""ROUTOU DICE (郎党ダイス): two-player grid battle with d10 placement, movement and
slashes. model.py holds the rules, files.py the state files, notation.py the move
notation, bots.py the bots; every number is in game.yaml `rules:`."""

from __future__ import annotations

from typing import Any

from pnpgen.content.game import GameContent
from pnpgen.engine.protocol import Rules
from pnpgen.games.routou_dice.config import RULES_SCHEMA
from pnpgen.games.routou_dice.model import RoutouDice

__all__ = ["RULES_SCHEMA", "RoutouDice", "create"]


def create(content: GameContent) -> list[Rules[Any, Any]]:
    return [RoutouDice(content)]
