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


def unknown_game(games: Sequence[Rules[Any, Any]], name: str, folder_id: str) -> str:
    """Why `name` picks no game of the folder, with did-you-mean among the folder's games:
    'unknown game 'fast-alone/no-gap-a' (did you mean 'fast-alone/no-gaps-a'?); games: …'."""
    import difflib

    ids = sorted(game.id for game in games)
    if not ids:
        return f"'{name}' is print-only (no engine: in its game.yaml), so it has no rules to play"
    if name == folder_id and len(ids) > 1:
        return f"'{name}' names no single game; choose one of: {', '.join(ids)}"
    short = {game_id.split("/", 1)[-1]: game_id for game_id in ids}  # compared without the shared folder
    close = difflib.get_close_matches(name.split("/", 1)[-1], list(short), n=1, cutoff=0.6)
    hint = f" (did you mean '{short[close[0]]}'?)" if close else ""
    return f"unknown game '{name}'{hint}; games in {folder_id}: {', '.join(ids)}"
