"""The game contract: the mechanics a rules module implements.

A game is one `Rules[State, Move]` subclass with six methods and one number (OpenSpiel's
State API, kept small; boardgame.io's one object per game):

    initial_state(players)        the state before the first move; no randomness here
    current_player(state)         a seat (0-based), CHANCE or TERMINAL
    legal_moves(state)            every legal move of the seat to move
    chance_outcomes(state)        at CHANCE: every outcome with its exact probability
    apply(state, move)            (next state, events); raises IllegalMove naming the rule
    outcome(state)                winners, scores and the end condition of a finished game
    max_steps                     the longest a game can run, in moves (chance included)

Randomness is explicit: a die roll or a shuffle is a CHANCE node, so simulation, exact odds
and the referee see the same outcomes. States are immutable; `apply` never changes its input.

Everything else is a capability: methods a game has only if it has the capability, in its
Rules class or, for a larger game, functions of a module of their own registered on it
(`to_data = files.to_data`). The protocols below give their signatures; a game does not
inherit them, pnpgen.engine.capabilities finds them by name:

    Notation      moves as text (the referee, worked examples, golden playthroughs)
    StateCodec    states as YAML/JSON data (pnpgen.engine.state_data derives them from the State)
    Analysis      evaluation, a lazy random move, the game's own bots and per-game figures
    Presentation  a state described and drawn for people
    HiddenInformation  what one seat sees (its view), states consistent with a view, and
                  which hidden fact a move rests on (bots play on views; the referee judges one)

What only printing needs (rulebook values, tables, figures, mock-ups) is pnpgen.render.publishing.
An engine module exposes RULES_SCHEMA and `create(content) -> list[Rules]` (pnpgen.games);
docs/adding-a-game.md walks through it.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Generic, Protocol, TypeVar, runtime_checkable

from pnpgen.content.schema import text_for
from pnpgen.engine.events import Event, IllegalMove, Outcome
from pnpgen.engine.state_data import fields_from_data, fields_to_data

if TYPE_CHECKING:
    from pnpgen.content.game import GameContent
    from pnpgen.scene import Scene

__all__ = ["CHANCE", "TERMINAL", "Analysis", "Bot", "Event", "HiddenInformation", "IllegalMove", "Notation",
           "Outcome", "Presentation", "Rules", "StateCodec", "Unseen"]

CHANCE = -1
TERMINAL = -2

S = TypeVar("S")
M = TypeVar("M")
V = TypeVar("V")
S_in = TypeVar("S_in", contravariant=True)
M_in = TypeVar("M_in", contravariant=True)

Bot = Callable[[S, random.Random], M]


class Rules(ABC, Generic[S, M]):
    """One playable game. Every number comes from content: `settings` is its `rules:` section."""

    min_players: int = 1
    max_players: int = 1
    max_steps: int = 10_000

    def __init__(self, content: GameContent, id: str | None = None, settings: object = None) -> None:
        players = content.data.get("players") or {}
        self.content, self.id = content, id or content.id
        self.min_players = int(players.get("min", 1))
        self.max_players = int(players.get("max", self.min_players))
        self.settings: Any = content.data.get("rules") if settings is None else settings
        self.simulation: dict[str, Any] = dict(content.data.get("simulation") or {})
        self.max_steps = int(self.simulation.get("max_steps", type(self).max_steps))

    @abstractmethod
    def initial_state(self, players: int) -> S: ...

    @abstractmethod
    def current_player(self, state: S) -> int: ...  # a seat, CHANCE or TERMINAL

    @abstractmethod
    def legal_moves(self, state: S) -> list[M]: ...  # no duplicates; empty at chance or terminal

    @abstractmethod
    def chance_outcomes(self, state: S) -> list[tuple[M, Fraction]]: ...  # summing to exactly 1

    @abstractmethod
    def apply(self, state: S, move: M) -> tuple[S, list[Event]]: ...  # IllegalMove naming the rule

    @abstractmethod
    def outcome(self, state: S) -> Outcome: ...  # how a terminal state ended

    # --- derived
    def apply_unchecked(self, state: S, move: M) -> tuple[S, tuple[str, ...]]:
        """apply() for a move the engine drew itself: the same next state, only the events' kinds.
        Simulation and search use it; a game may share one core with apply (test_fast_path.py)."""
        new, events = self.apply(state, move)
        return new, tuple(event.kind for event in events)

    def sample_chance(self, state: S, rng: random.Random) -> M:
        """Draw one chance outcome with its probability."""
        outcomes = self.chance_outcomes(state)
        return rng.choices([m for m, _ in outcomes], [float(p) for _, p in outcomes])[0]

    def is_terminal(self, state: S) -> bool:
        return self.current_player(state) == TERMINAL

    def num_players(self, state: S) -> int:  # override when the seat count is in the state
        return self.min_players

    def seats(self, state: S) -> Sequence[int]:
        return range(self.num_players(state))

    def end_conditions(self) -> dict[str, str]:
        """End-condition ids declared in content, with an English label."""
        return {k: text_for(v, "en") for k, v in self.content.labels("end_conditions").items()}

    def rule_title(self, rule: str, lang: str = "en") -> str:
        return text_for(self.content.labels("rule_ids").get(rule, ""), lang)


@runtime_checkable
class Notation(Protocol[S_in, M]):
    """Moves as text: parse_move(format_move(m)) == m; BadMove with a one-line reason."""

    def parse_move(self, text: str, state: S_in | None = None) -> M: ...
    def format_move(self, move: M) -> str: ...


@runtime_checkable
class StateCodec(Protocol[S]):
    """States as plain data (the referee's state files), each problem at its file, line and key.
    By default (state_data.fields_to_data, fields_from_data) a State's fields map one to one
    onto keys, checked against STATE_SCHEMA then `check` ('key: problem' each); SEATS are 1-based."""

    def to_data(self, state: S) -> dict[str, object]:
        return fields_to_data(self, state)

    def from_data(self, data: Any) -> S:
        state: S = fields_from_data(self, data)
        return state

    def example_state(self) -> S: ...  # a documented sample for `referee --example-state`

    def check(self, state: S) -> list[str]:
        return []


@runtime_checkable
class Analysis(Protocol[S_in, M]):
    """What bots, simulation and reports may use beyond the mechanics, each method optional
    (pnpgen.engine.capabilities). sample_move: one legal move for random play, deterministic in
    the rng (a game with long move lists samples lazily and documents how it differs); tally:
    labels 'group: item' to count for one simulated step; bots: name -> maker of a bot."""

    def evaluate(self, state: S_in, seat: int) -> float: ...  # the greedy bot, MCTS cut-offs
    def sample_move(self, state: S_in, rng: random.Random) -> M: ...
    def bots(self) -> Mapping[str, Callable[[], Bot[Any, M]]]: ...
    def bot_methods(self) -> dict[str, str]: ...  # how each own bot plays, one line
    def game_stats(self, state: S_in) -> dict[str, float]: ...  # figures of a finished game
    def tally(self, state: S_in, move: M, events: Sequence[Event]) -> Sequence[str]: ...


@runtime_checkable
class Presentation(Protocol[S_in]):
    """A state in words (the referee), and drawn with `moves` marked (rulebook examples, --svg)."""

    def describe(self, state: S_in) -> str | None: ...
    def draw(self, state: S_in, moves: Sequence[Any] = (), lang: str = "en") -> Scene | None: ...


@dataclass(frozen=True)
class Unseen:
    """What a move rests on that a view does not show (HiddenInformation.unseen)."""

    legal_if: str | None = None  # the move is legal only if this hidden fact holds (None: the view decides)
    then: str | None = None  # legal either way, but what follows rests on this hidden fact


@runtime_checkable
class HiddenInformation(Protocol[S, M_in, V]):
    """Seats hold facts the others cannot see; a view V is all one seat knows. Verification checks
    view(determinise(view(s, k), k, rng), k) == view(s, k) and equal legal moves in such states."""

    def view(self, state: S, seat: int) -> V: ...
    def view_seat(self, view: V) -> int: ...
    # a state consistent with `view`, hidden facts drawn with `rng`; with `assume`, one in which
    # the facts that move rests on hold (None if none can)
    def determinise(self, view: V, seat: int, rng: random.Random, assume: M_in | None = None) -> S | None: ...
    def unseen(self, view: V, move: M_in) -> Unseen: ...  # the hidden facts a move rests on, in words
    def view_to_data(self, view: V) -> dict[str, Any]: ...  # a view file (it names its seat: `view: 2`)
    def view_from_data(self, data: Any) -> V: ...  # read back; ImpossibleState naming the key
