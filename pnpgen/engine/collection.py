"""Finding one game among those a content folder defines (a collection such as Fast Alone
defines several, with ids like 'fast-alone/no-gaps-a')."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pnpgen.engine.protocol import Rules


def pick_game(games: Sequence[Rules[Any, Any]], name: str | None, folder_id: str) -> Rules[Any, Any] | None:
    """The game `name` names: its full id ('fast-alone/no-gaps-a'), its name within the
    folder ('no-gaps-a'), or the folder's id when the folder defines one game. No name means
    the only game. None when nothing matches (or the choice is ambiguous)."""
    if name is None or name == folder_id:
        return games[0] if len(games) == 1 else None
    for game in games:
        if game.id in (name, f"{folder_id}/{name}"):
            return game
    return None
