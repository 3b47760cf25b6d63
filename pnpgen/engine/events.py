"""What a move does and how a game ends: events, illegal moves, outcomes."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any


class Event:
    """Something that happened while applying a move, for people and for tests.

    `text` may be given as a function that writes it: simulation counts events by kind
    and never reads their text, so hot paths pass a lambda and pay nothing for prose.
    """

    __slots__ = ("kind", "_text", "data")

    def __init__(self, kind: str, text: str | Callable[[], str], data: dict[str, Any] | None = None) -> None:
        self.kind = kind
        self._text = text
        self.data = {} if data is None else data

    @property
    def text(self) -> str:
        if not isinstance(self._text, str):
            self._text = self._text()
        return self._text

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Event):
            return NotImplemented
        return (self.kind, self.text, self.data) == (other.kind, other.text, other.data)

    __hash__ = None  # type: ignore[assignment]  # mutable data, like the dataclass it replaces

    def __repr__(self) -> str:
        return f"Event({self.kind!r}, {self.text!r}, {self.data!r})"

    def to_data(self) -> dict[str, object]:
        return {"kind": self.kind, "text": self.text, **({"data": self.data} if self.data else {})}


class IllegalMove(Exception):
    """A well-formed move that the rules forbid in this state."""

    def __init__(self, rule: str, reason: str) -> None:
        super().__init__(f"{rule}: {reason}")
        self.rule = rule
        self.reason = reason


@dataclass(frozen=True)
class Outcome:
    """How a finished game ended."""

    winners: tuple[int, ...]  # seats; empty for a lost solo game; several for a shared win
    scores: tuple[float, ...]  # per seat, the game's own score
    end: str  # an end-condition id declared in the game's YAML (e.g. "threshold", "timeout")

    @property
    def shared(self) -> bool:
        return len(self.winners) > 1
