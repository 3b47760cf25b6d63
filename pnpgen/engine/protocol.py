"""The game contract: what a rules module implements.

A game is a `Rules` subclass with six methods and one number (OpenSpiel's State API,
kept small; boardgame.io's one object per game):

    initial_state(players)        the state before the first move; no randomness here
    current_player(state)         a seat (0-based), CHANCE or TERMINAL
    legal_moves(state)            every legal move of the seat to move
    chance_outcomes(state)        at CHANCE: every outcome with its exact probability
    apply(state, move)            (next state, events); raises IllegalMove naming the rule
                                  (apply_unchecked: an optional fast path for engine-drawn moves)
    outcome(state)                winners, scores and the end condition of a finished game
    max_steps                     the longest a game can run, in moves (chance included)

Randomness is always explicit: a die roll or a shuffle is a CHANCE node, so simulation,
exact odds and the referee all see the same outcomes. States are immutable values;
`apply` never changes its input.

Everything else is a capability a game adds only if it has it, by also inheriting:

    Notation      moves as text (the referee, worked examples, golden playthroughs)
    StateCodec    states as YAML/JSON data, derived from the State NamedTuple/dataclass
    Analysis      evaluation, the game's own bots and per-game figures
    Presentation  values and tables for the rulebook, a state described and drawn for people
    HiddenInformation  what one seat sees (its view), states consistent with a view, and
                  which hidden fact a move rests on (bots play on views; the referee judges one)

A module registers under the `pnpgen.games` entry-point group and exposes RULES_SCHEMA and
`create(content) -> list[Rules]` (see pnpgen.games); docs/adding-a-game.md walks through it.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any, ClassVar, Generic, TypeVar

from pnpgen.content.schema import text_for
from pnpgen.engine.events import Event, IllegalMove, Outcome
from pnpgen.engine.state_data import refuse, state_class, state_from_data, state_to_data

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

Bot = Callable[[S, random.Random], M]


class Rules(ABC, Generic[S, M]):
    """One playable game. Every number comes from content: `settings` is its `rules:` section."""

    min_players: int = 1
    max_players: int = 1
    max_steps: int = 10_000

    def __init__(self, content: GameContent, id: str | None = None, settings: Any = None) -> None:
        players = content.data.get("players") or {}
        self.content, self.id = content, id or content.id
        self.min_players = int(players.get("min", 1))
        self.max_players = int(players.get("max", self.min_players))
        self.settings: Any = content.data.get("rules") if settings is None else settings
        self.simulation: dict[str, Any] = dict(content.data.get("simulation") or {})
        self.max_steps = int(self.simulation.get("max_steps", type(self).max_steps))

    @abstractmethod
    def initial_state(self, players: int) -> S:
        """The state before the first move."""

    @abstractmethod
    def current_player(self, state: S) -> int:
        """The seat to move, CHANCE, or TERMINAL."""

    @abstractmethod
    def legal_moves(self, state: S) -> list[M]:
        """Every legal player move, without duplicates (empty at chance or terminal)."""

    @abstractmethod
    def chance_outcomes(self, state: S) -> list[tuple[M, Fraction]]:
        """At a chance node: every outcome with its exact probability (they sum to 1)."""

    @abstractmethod
    def apply(self, state: S, move: M) -> tuple[S, list[Event]]:
        """The next state and what happened. Raises IllegalMove naming the rule."""

    @abstractmethod
    def outcome(self, state: S) -> Outcome:
        """How a terminal state ended."""

    # --- derived; override only for speed or for a game whose seat count is in its state
    def apply_unchecked(self, state: S, move: M) -> tuple[S, tuple[str, ...]]:
        """apply() for a move the engine drew itself (from legal_moves, sample_move, a bot or
        chance): the same next state, and only the kinds of the events. Simulation and search
        use it; the referee and verification keep apply() and its checks. A game may override
        it to skip the checks and the events' text and data (tests/test_fast_path.py holds it
        to apply()). By default: apply()."""
        new, events = self.apply(state, move)
        return new, tuple(event.kind for event in events)

    def sample_chance(self, state: S, rng: random.Random) -> M:
        """Draw one chance outcome with its probability."""
        outcomes = self.chance_outcomes(state)
        return rng.choices([m for m, _ in outcomes], [float(p) for _, p in outcomes])[0]

    def is_terminal(self, state: S) -> bool:
        return self.current_player(state) == TERMINAL

    def num_players(self, state: S) -> int:
        return self.min_players

    def seats(self, state: S) -> Sequence[int]:
        return range(self.num_players(state))

    def end_conditions(self) -> dict[str, str]:
        """End-condition ids declared in content, with an English label."""
        return {k: text_for(v, "en") for k, v in self.content.labels("end_conditions").items()}

    def rule_title(self, rule: str, lang: str = "en") -> str:
        return text_for(self.content.labels("rule_ids").get(rule, ""), lang)


class Notation(ABC, Generic[S, M]):
    """Moves as text: parse_move(format_move(m)) == m."""

    @abstractmethod
    def parse_move(self, text: str, state: S | None = None) -> M:
        """The move `text` writes; raises BadMove with a one-line reason."""

    @abstractmethod
    def format_move(self, move: M) -> str:
        """The notation of `move`."""


class StateCodec(ABC, Generic[S]):
    """States as plain data (the referee's state files). By default a state's fields map one
    to one onto keys, checked against STATE_SCHEMA (a pnpgen.content.schema spec) and then
    against `check`; each problem names the file, line and key. Override to_data/from_data
    (building on these) for another layout: names instead of indices, keys by phase."""

    STATE_SCHEMA: ClassVar[dict[str, Any]] = {}
    SEATS: ClassVar[tuple[str, ...]] = ()  # fields holding seats: 0-based in the State, 1-based in files
    STATE_KEY: ClassVar[str | None] = None  # where a problem naming no key of the file is shown (None: the file)
    State: ClassVar[type]  # a NamedTuple or frozen dataclass; by default the S of StateCodec[S]

    def to_data(self, state: S) -> dict[str, Any]:
        return state_to_data(state, self.SEATS)

    def from_data(self, data: Any) -> S:
        state: S = state_from_data(state_class(self), data, self.STATE_SCHEMA, self.SEATS)
        return self.checked(state, data)

    def checked(self, state: S, data: Any) -> S:
        """`state`, or ImpossibleState at the key its first broken invariant names ('key: ...')."""
        problems = self.check(state)
        if problems:
            refuse(problems[0], data, self.STATE_KEY)
        return state

    @abstractmethod
    def example_state(self) -> S:
        """A documented sample state for `pnpgen referee --example-state`."""

    def check(self, state: S) -> list[str]:
        """Broken invariants of `state`, each 'key: problem' (empty when all hold)."""
        return []


class Analysis(Generic[S, M]):
    """What bots, simulation and reports may use beyond the mechanics."""

    def evaluate(self, state: S, seat: int) -> float:
        """Heuristic value of `state` for `seat` (the greedy bot and MCTS cut-offs use it)."""
        outcome = self.outcome(state) if self.is_terminal(state) else None  # type: ignore[attr-defined]
        return float(outcome is not None and seat in outcome.winners)

    def sample_move(self, state: S, rng: random.Random) -> M:
        """One legal move for random play (the "random" bot, MCTS playouts). By default
        uniform over legal_moves(); a game whose move lists are long may override it to
        sample lazily (kind, then mover, then target) without building them, saying in its
        docstring how its distribution differs. Deterministic in the rng."""
        return rng.choice(self.legal_moves(state))  # type: ignore[attr-defined]

    def bots(self) -> dict[str, Callable[[], Bot[S, M]]]:
        """The game's own bots by name (the generic ones come from the engine)."""
        return {}

    def bot_methods(self) -> dict[str, str]:
        """How each of the game's bots plays, one line per name (simulate and report print it)."""
        return {}

    def game_stats(self, state: S) -> dict[str, float]:
        """Per-game figures of a finished game for the simulation summary."""
        return {}

    def tally(self, state: S, move: M, events: Sequence[Event]) -> Sequence[str]:
        """Labels 'group: item' to count for one step of a simulated game (a player move or
        a chance outcome applied to `state`, with the events it gave): what it used, how a
        fight was decided. Simulation counts them per game; reports rank each group."""
        return ()


class Presentation(Generic[S]):
    """What the rulebook and the referee show people."""

    def describe(self, state: S) -> str | None:
        """A state in words (the referee prints it when no move is given)."""
        return None

    def draw(self, state: S, moves: Sequence[Any] = (), lang: str = "en") -> Scene | None:
        """The state as a picture (pnpgen.scene primitives), with `moves`, applied in turn from
        it, marked on it (arrows, highlighted cells); None when the game draws no pictures. The
        rulebook shows it beside the picture of the resulting state; so does `referee --svg`.
        `lang` is for the few words a picture may carry (table headers)."""
        return None

    def mockup(self, lang: str = "en") -> Scene | None:
        """The whole table at the start of a game, laid out as players set it up (a preview
        picture `pnpgen build` writes to build/<game>/preview/); None when the game has none."""
        return None

    def rulebook_figure(self, name: str, lang: str) -> list[Scene]:
        """A picture the rulebook names (`figure:` block), as rows a page may break between:
        a chart of tiles, cards or boards drawn with pnpgen.scene. KeyError for an unknown name."""
        raise KeyError(name)

    def rulebook_context(self, lang: str) -> dict[str, Any]:
        """Values a rulebook text may use ({{ threshold }}, computed figures, ...)."""
        return {}

    def rulebook_table(self, name: str, lang: str) -> list[list[str]]:
        """A table the rulebook names, header row first, built from content."""
        raise KeyError(name)



@dataclass(frozen=True)
class Unseen:
    """What a move rests on that a view does not show (HiddenInformation.unseen).

    legal_if  the move is legal only if this hidden fact holds (None: the view decides)
    then      the move is legal either way, but what follows rests on this hidden fact
    """

    legal_if: str | None = None
    then: str | None = None


class HiddenInformation(ABC, Generic[S, M, V]):
    """A game where seats hold facts the others cannot see (hands, face-down cards, the deck).

    A view V is one seat's knowledge of a state: everything public plus that seat's own
    secrets, the others' only as counts. The contract, checked by tests:
      - view(s, seat) == view(t, seat) for every t that determinise(view(s, seat), seat, rng) gives
        (a view holds nothing the seat cannot see, and a determinised state fits the view);
      - the seat to move has the same legal moves in every state consistent with its view.
    Bots act on views (pnpgen.engine.hidden); the referee judges a view file (view_from_data).
    """

    @abstractmethod
    def view(self, state: S, seat: int) -> V:
        """What `seat` sees of `state`."""

    @abstractmethod
    def view_seat(self, view: V) -> int:
        """The seat whose view this is."""

    @abstractmethod
    def determinise(self, view: V, seat: int, rng: random.Random, assume: M | None = None) -> S | None:
        """A full state consistent with `view`, its hidden facts drawn with `rng` (uniformly over
        consistent deals, unless the game documents otherwise). With `assume`, one in which the
        hidden facts the move `assume` rests on hold; None if no consistent state has them."""

    @abstractmethod
    def unseen(self, view: V, move: M) -> Unseen:
        """The hidden facts a move (or chance outcome) rests on, in words for the referee."""

    def view_to_data(self, view: V) -> dict[str, Any]:
        """A view as a state file (it names its seat, e.g. `view: 2`)."""
        raise NotImplementedError

    def view_from_data(self, data: Any) -> V:
        """A view file read back; ImpossibleState naming the key on bad data."""
        raise NotImplementedError

    def is_view_data(self, data: Any) -> bool:
        """Whether state-file data is one seat's view rather than a full state."""
        return isinstance(data, dict) and "view" in data
