"""Collections: a content folder defining several games (Fast Alone: five puzzles, two board
sides each, with ids like 'fast-alone/no-gaps-a'). `pick_game` finds one of them; `Variant`
is the base of a game that is one side of one variant."""

from __future__ import annotations

import difflib
from collections.abc import Callable, Mapping, Sequence
from functools import partial
from typing import TYPE_CHECKING, Any, ClassVar, Self, TypeVar, cast

from pnpgen.engine.protocol import Bot, Rules

if TYPE_CHECKING:
    from pnpgen.content.game import GameContent

S = TypeVar("S")
M = TypeVar("M")
G = TypeVar("G", bound="Rules[Any, Any]")  # a game of a collection, whatever its state and moves


def pick_game(games: Sequence[G], name: str | None, folder_id: str) -> G | None:
    """The game `name` names: its full id ('fast-alone/no-gaps-a'), its name within the
    folder ('no-gaps-a'), or the folder's id when the folder defines one game. No name means
    the only game. None when nothing matches (or the choice is ambiguous)."""
    if name is None or name == folder_id:
        return games[0] if len(games) == 1 else None
    for game in games:
        if game.id in (name, f"{folder_id}/{name}"):
            return game
    return None


def unknown_game(games: Sequence[G], name: str, folder_id: str) -> str:
    """Why `name` picks no game of the folder, with did-you-mean among the folder's games:
    'unknown game 'fast-alone/no-gap-a' (did you mean 'fast-alone/no-gaps-a'?); games: …'."""
    ids = sorted(game.id for game in games)
    if not ids:
        return f"'{name}' is print-only (no engine: in its game.yaml), so it has no rules to play"
    if name == folder_id and len(ids) > 1:
        return f"'{name}' names no single game; choose one of: {', '.join(ids)}"
    short = {game_id.split("/", 1)[-1]: game_id for game_id in ids}  # compared without the shared folder
    close = difflib.get_close_matches(name.split("/", 1)[-1], list(short), n=1, cutoff=0.6)
    hint = f" (did you mean '{short[close[0]]}'?)" if close else ""
    return f"unknown game '{name}'{hint}; games in {folder_id}: {', '.join(ids)}"


class Variant(Rules[S, M]):
    """One game of a collection: the variant `key` (a puzzle, a rule set) played on one
    `side` (a board side, a setup). Its data is the variant's rules data, with a `sides:`
    mapping whose entries have a `name`; its id is '<folder>/<key>-<side>'.

    A subclass declares its end conditions (ENDS, among the collection's merged ones) and
    its own bots (BOTS: name -> function of the rules making the bot); `create` makes one
    game per side, each knowing its siblings."""

    ENDS: ClassVar[tuple[str, ...]] = ()  # this variant's end-condition ids; () = every one
    BOTS: ClassVar[Mapping[str, Callable[[Any], Bot[Any, Any]]]] = {}

    def __init__(self, content: GameContent, key: str, data: Any, side: str) -> None:
        super().__init__(content, f"{content.id}/{key}-{side}", data)
        self.key, self.data, self.side = key, data, side
        self.side_name: object = data["sides"][side]["name"]  # Text
        self.siblings: list[Self] = [cast(Self, self)]  # every side of this variant (set by create)

    @classmethod
    def create(cls, content: GameContent, key: str, data: Any) -> list[Self]:
        """One game per side of `data`, each knowing the others as its siblings."""
        sides = [cls(content, key, data, side) for side in data["sides"]]
        for rules in sides:
            rules.siblings = sides
        return list(sides)

    def end_conditions(self) -> dict[str, str]:
        """This variant's ends only (a collection's end-condition files are merged)."""
        ends = super().end_conditions()
        return {k: v for k, v in ends.items() if k in self.ENDS} if self.ENDS else ends

    def bots(self) -> dict[str, Callable[[], Bot[S, M]]]:
        """The variant's own bots (its Analysis capability's), made from BOTS."""
        return {name: partial(make, self) for name, make in self.BOTS.items()}

