"""ROUTOU DICE (郎党ダイス): two-player grid battle with d10 placement, movement and
slashes. model.py holds the rules (mechanics, with notation.py's move notation),
files.py the state files, analysis.py the evaluation and bots.py's bots,
presentation.py the referee's board and the rulebook's values; every number is in
game.yaml `rules:`."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pnpgen.content.game import GameContent
from pnpgen.content.schema import Range, Schema

if TYPE_CHECKING:
    from pnpgen.games.routou_dice.game import RoutouDice

__all__ = ["RULES_SCHEMA", "SIMULATION_SCHEMA", "RoutouDice", "create"]

# game.yaml `simulation:` settings of this engine (beside the shared ones)
SIMULATION_SCHEMA: Schema = {
    "random_pass_probability?": Range(float, 0, 1),  # the random bot passes this often when it may
    "greedy?": {"clone_sample?": Range(int, 1, 10_000), "weights?": {"*": Range(float, -1e6, 1e6)}},
}


def game_ids(content: GameContent) -> list[str]:
    """The one game this engine makes of `content`, without building it (pnpgen list)."""
    return [content.id]


def create(content: GameContent) -> list[RoutouDice]:
    from pnpgen.games.routou_dice.game import RoutouDice  # imported only when a game is played

    return [RoutouDice(content)]


def __getattr__(name: str) -> Any:
    """The game and its rules' schema, imported on first use (pnpgen list needs neither)."""
    if name == "RULES_SCHEMA":
        from pnpgen.games.routou_dice.config import RULES_SCHEMA

        return RULES_SCHEMA
    if name == "RoutouDice":
        from pnpgen.games.routou_dice.game import RoutouDice

        return RoutouDice
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
