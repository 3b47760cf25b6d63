"""Using a game's optional capabilities (see pnpgen.engine.protocol): the capability, or a
one-line error naming what needs it, or what a game without it does. A capability is found by
its methods' names on the game, whether written in its class or registered from a module."""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

from pnpgen.engine.events import Event
from pnpgen.engine.protocol import (
    TERMINAL,
    Analysis,
    Bot,
    HiddenInformation,
    Notation,
    Presentation,
    Rules,
    StateCodec,
)
from pnpgen.errors import PnpgenError

if TYPE_CHECKING:
    from pnpgen.scene import Scene

S = TypeVar("S")
M = TypeVar("M")

NAMES: dict[type, str] = {Notation: "move notation (Notation)", StateCodec: "state files (StateCodec)",
                          Analysis: "analysis (Analysis)", Presentation: "presentation (Presentation)",
                          HiddenInformation: "seat views (HiddenInformation)"}


def missing(rules: Rules[S, M], kind: type, needed_for: str) -> PnpgenError:
    return PnpgenError(f"{rules.id} offers no {NAMES.get(kind, kind.__name__)}, which {needed_for} needs")


def own(rules: object, name: str, capability: type = Analysis) -> Callable[..., Any] | None:
    """The game's method `name`, or None when it has none (a capability protocol's own empty
    declaration, inherited by a class that subclasses the protocol, is none)."""
    method = getattr(type(rules), name, None)
    if method is None or method is getattr(capability, name, None):
        return None
    found: Callable[..., Any] = getattr(rules, name)
    return found


def notation(rules: Rules[S, M], needed_for: str = "the referee") -> Notation[S, M]:
    """The game's move notation, or a one-line error naming what needs it."""
    if isinstance(rules, Notation):
        return rules
    raise missing(rules, Notation, needed_for)


def codec(rules: Rules[S, M], needed_for: str = "the referee") -> StateCodec[S]:
    """The game's state files, or a one-line error naming what needs it."""
    if isinstance(rules, StateCodec):
        return rules
    raise missing(rules, StateCodec, needed_for)


def move_text(rules: Rules[S, M], move: M) -> str:
    """A move in the game's notation, or its repr for a game without one."""
    return rules.format_move(move) if isinstance(rules, Notation) else repr(move)


def own_bots(rules: Rules[S, M]) -> Mapping[str, Callable[[], Bot[S, M]]]:
    """The game's own bots by name (none without Analysis.bots)."""
    bots = own(rules, "bots")
    return dict(bots()) if bots is not None else {}


def bot_methods(rules: Rules[S, M]) -> dict[str, str]:
    """How each of the game's own bots plays, one line per name."""
    methods = own(rules, "bot_methods")
    return dict(methods()) if methods is not None else {}


def evaluation(rules: Rules[S, M]) -> Callable[[S, int], float]:
    """The game's evaluation of a state for a seat; without one, 1 for a won end, else 0."""
    evaluate = own(rules, "evaluate")
    if evaluate is not None:
        return evaluate

    def terminal_value(state: S, seat: int) -> float:
        return float(rules.current_player(state) == TERMINAL and seat in rules.outcome(state).winners)

    return terminal_value


def search_evaluation(rules: Rules[S, M]) -> Callable[[S, int], float]:
    """What the guided search judges its leaves by: the game's `search_evaluate(state, seat)`
    when it defines one (what only a search needs, e.g. pressure toward a win a one-move
    look-ahead cannot see), else its evaluation."""
    found: Callable[[S, int], float] | None = own(rules, "search_evaluate")
    return found if found is not None else evaluation(rules)


def move_sampler(rules: Rules[S, M]) -> Callable[[S, random.Random], M]:
    """The game's lazy random move (Analysis.sample_move), or uniform over legal_moves()."""
    sample = own(rules, "sample_move")
    if sample is not None:
        return sample

    def uniform(state: S, rng: random.Random) -> M:
        return rng.choice(rules.legal_moves(state))

    return uniform


def tallier(rules: Rules[S, M]) -> Callable[[S, M, Sequence[Event]], Sequence[str]] | None:
    """The game's step tally (Analysis.tally), or None when it counts nothing (no cost per step)."""
    return own(rules, "tally")


def game_stats(rules: Rules[S, M], state: S) -> dict[str, float]:
    stats = own(rules, "game_stats")
    return dict(stats(state)) if stats is not None else {}


def broken_invariants(rules: Rules[S, M], state: S) -> list[str]:
    return rules.check(state) if isinstance(rules, StateCodec) else []


def picture(rules: Rules[S, M], before: S, moves: Sequence[M] | None = None, after: S | None = None,
            captions: tuple[str, str] = ("", ""), lang: str = "en", max_width: float | None = None) -> Scene | None:
    """The game's picture of `before` with `moves` marked, and beside it `after` (the state the
    moves lead to; None for a refused move), or below it when side by side would be wider than
    `max_width`; None for a game that draws no pictures."""
    if not isinstance(rules, Presentation):
        return None
    draw_pair = own(rules, "draw_pair", Presentation) if after is not None and moves else None
    pair = draw_pair(before, list(moves or []), after, lang) if draw_pair is not None else None
    first = pair[0] if pair else rules.draw(before, list(moves or []), lang)
    if first is None or after is None or not moves:
        return first
    second = pair[1] if pair else rules.draw(after, [], lang)
    if second is None:
        return first
    from pnpgen.scene import below, beside  # drawing only: kept off the referee's start-up

    both = beside([first, second], captions=captions)
    if max_width is not None and both.width > max_width:
        return below([first, second], captions=captions)
    return both


def hidden_information(rules: Rules[S, M]) -> HiddenInformation[S, M, Any] | None:
    """The game's seat views, or None for a game of perfect information."""
    return rules if isinstance(rules, HiddenInformation) else None


def views(rules: Rules[S, M], needed_for: str = "a view file") -> HiddenInformation[S, M, Any]:
    """The game's seat views, or a one-line error naming what needs them."""
    if isinstance(rules, HiddenInformation):
        return rules
    raise missing(rules, HiddenInformation, needed_for)

