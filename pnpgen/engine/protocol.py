"""The rules protocol: what every game module implements.

The shape follows OpenSpiel's Game/State split, kept small. States are plain
immutable-ish values owned by the game module; `apply` returns a new state and
never mutates its input. Chance is explicit: when `current_player` is CHANCE,
`chance_outcomes` lists every outcome (a move in the game's notation) with its
exact probability.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Generic, TypeVar

if TYPE_CHECKING:
    from pnpgen.content.game import GameContent

CHANCE = -1
TERMINAL = -2

S = TypeVar("S")
M = TypeVar("M")


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

    def to_data(self) -> dict[str, Any]:
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


Bot = Callable[[S, random.Random], M]


class Rules(ABC, Generic[S, M]):
    """One playable game. Subclasses hold mechanics; every number comes from content."""

    id: str
    content: GameContent
    min_players: int = 1
    max_players: int = 1
    max_steps: int = 10_000  # declared maximum number of steps (moves incl. chance)

    # --- lifecycle -------------------------------------------------------------------
    @abstractmethod
    def initial_state(self, players: int, rng: random.Random) -> S:
        """The state before the first move (setup randomness drawn from `rng`)."""

    @abstractmethod
    def current_player(self, state: S) -> int:
        """The seat to move, CHANCE, or TERMINAL."""

    @abstractmethod
    def legal_moves(self, state: S) -> list[M]:
        """Every legal player move, without duplicates (empty at chance or terminal)."""

    @abstractmethod
    def chance_outcomes(self, state: S) -> list[tuple[M, Fraction]]:
        """At a chance node: every outcome with its exact probability (sums to 1)."""

    def sample_chance(self, state: S, rng: random.Random) -> M:
        """Draw one chance outcome. Games may override with a faster sampler."""
        outcomes = self.chance_outcomes(state)
        moves = [m for m, _ in outcomes]
        weights = [float(p) for _, p in outcomes]
        return rng.choices(moves, weights)[0]

    @abstractmethod
    def apply(self, state: S, move: M) -> tuple[S, list[Event]]:
        """The next state and what happened. Raises IllegalMove naming the rule."""

    @abstractmethod
    def outcome(self, state: S) -> Outcome:
        """How a terminal state ended."""

    # --- notation and state files ----------------------------------------------------
    @abstractmethod
    def parse_move(self, text: str, state: S | None = None) -> M:
        """Move from notation; raises BadMove with a one-line reason."""

    @abstractmethod
    def format_move(self, move: M) -> str:
        """Notation for a move; parse_move(format_move(m)) == m."""

    @abstractmethod
    def to_data(self, state: S) -> dict[str, Any]:
        """Plain YAML/JSON data for a state (the referee's state file format)."""

    @abstractmethod
    def from_data(self, data: Any) -> S:
        """State from data; raises ImpossibleState (or ContentError) on bad data."""

    @abstractmethod
    def example_state(self) -> S:
        """A documented sample state for `pnpgen referee --example-state`."""

    # --- checks and analysis hooks (sensible defaults) --------------------------------
    def check(self, state: S) -> list[str]:
        """Invariant violations in `state` (empty when all hold)."""
        return []

    def evaluate(self, state: S, seat: int) -> float:
        """Heuristic value of `state` for `seat`, used by the greedy bot."""
        if self.current_player(state) == TERMINAL:
            outcome = self.outcome(state)
            return 1.0 if seat in outcome.winners else 0.0
        return 0.0

    def bots(self) -> dict[str, Callable[[], Bot[S, M]]]:
        """Game-specific bots by name (the generic ones are added by the engine)."""
        return {}

    def bot_methods(self) -> dict[str, str]:
        """How each game-specific bot plays, one line per bot name (simulate and report print it)."""
        return {}

    def game_stats(self, state: S) -> dict[str, float]:
        """Per-game figures for the simulation summary (e.g. mean turn score)."""
        return {}

    def describe(self, state: S) -> str | None:
        """A human report of a state (the referee prints it when no move is given)."""
        return None

    def rulebook_context(self, lang: str) -> dict[str, Any]:
        """Values the rulebook's Jinja2 text may use ({{ threshold }}, computed figures, ...)."""
        return {}

    def rulebook_table(self, name: str, lang: str) -> list[list[str]]:
        """A table the rulebook names (e.g. 'scores'), header row first, built from content."""
        raise KeyError(name)

    def end_conditions(self) -> dict[str, str]:
        """End-condition ids declared in content, with an English label."""
        from pnpgen.content.schema import text_for

        declared = self.content.labels("end_conditions")
        return {k: text_for(v, "en") for k, v in declared.items()}

    def rule_title(self, rule: str, lang: str = "en") -> str:
        from pnpgen.content.schema import text_for

        return text_for(self.content.labels("rule_ids").get(rule, ""), lang)

    def is_terminal(self, state: S) -> bool:
        return self.current_player(state) == TERMINAL

    def seats(self, state: S) -> Sequence[int]:
        return range(self.num_players(state))

    def num_players(self, state: S) -> int:
        return self.min_players
