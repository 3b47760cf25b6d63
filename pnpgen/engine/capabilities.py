"""Using a game's optional capabilities (see pnpgen.engine.protocol): the capability, or a
one-line error naming what needs it, or what a game without it does."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

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

NAMES: dict[Any, str] = {Notation: "move notation (Notation)", StateCodec: "state files (StateCodec)",
                         Analysis: "analysis (Analysis)", Presentation: "presentation (Presentation)",
                         HiddenInformation: "seat views (HiddenInformation)"}


def missing(rules: Rules[Any, Any], kind: type, needed_for: str) -> PnpgenError:
    return PnpgenError(f"{rules.id} offers no {NAMES.get(kind, kind.__name__)}, which {needed_for} needs")


def notation(rules: Rules[Any, Any], needed_for: str = "the referee") -> Notation[Any, Any]:
    """The game's move notation, or a one-line error naming what needs it."""
    if isinstance(rules, Notation):
        return rules
    raise missing(rules, Notation, needed_for)


def codec(rules: Rules[Any, Any], needed_for: str = "the referee") -> StateCodec[Any]:
    """The game's state files, or a one-line error naming what needs it."""
    if isinstance(rules, StateCodec):
        return rules
    raise missing(rules, StateCodec, needed_for)


def move_text(rules: Rules[Any, Any], move: Any) -> str:
    """A move in the game's notation, or its repr for a game without one."""
    return rules.format_move(move) if isinstance(rules, Notation) else repr(move)


def own_bots(rules: Rules[Any, Any]) -> dict[str, Callable[[], Bot[Any, Any]]]:
    """The game's own bots by name (none without the Analysis capability)."""
    return rules.bots() if isinstance(rules, Analysis) else {}


def bot_methods(rules: Rules[Any, Any]) -> dict[str, str]:
    """How each of the game's own bots plays, one line per name."""
    return rules.bot_methods() if isinstance(rules, Analysis) else {}


def evaluation(rules: Rules[Any, Any]) -> Callable[[Any, int], float]:
    """The game's evaluation of a state for a seat; without Analysis, 1 for a won end, else 0."""
    if isinstance(rules, Analysis):
        return rules.evaluate

    def terminal_value(state: Any, seat: int) -> float:
        return float(rules.current_player(state) == TERMINAL and seat in rules.outcome(state).winners)

    return terminal_value


def search_evaluation(rules: Rules[Any, Any]) -> Callable[[Any, int], float]:
    """What the guided search judges its leaves by: the game's `search_evaluate(state, seat)`
    when it defines one (what only a search needs, e.g. pressure toward a win a one-move
    look-ahead cannot see), else its evaluation."""
    found: Callable[[Any, int], float] | None = getattr(rules, "search_evaluate", None)
    return found if isinstance(rules, Analysis) and found is not None else evaluation(rules)


def move_sampler(rules: Rules[Any, Any]) -> Callable[[Any, random.Random], Any]:
    """The game's lazy random move (Analysis.sample_move), or uniform over legal_moves()."""
    if isinstance(rules, Analysis):
        return rules.sample_move

    def uniform(state: Any, rng: random.Random) -> Any:
        return rng.choice(rules.legal_moves(state))

    return uniform


def rulebook_context(rules: Rules[Any, Any], lang: str) -> dict[str, Any]:
    return dict(rules.rulebook_context(lang)) if isinstance(rules, Presentation) else {}


def rulebook_table(rules: Rules[Any, Any], name: str, lang: str) -> list[list[str]]:
    """A table the game's Presentation builds; KeyError when it builds none of that name."""
    if not isinstance(rules, Presentation):
        raise KeyError(name)
    return rules.rulebook_table(name, lang)


def rulebook_figure(rules: Rules[Any, Any], name: str, lang: str) -> list[Scene]:
    """A picture the game's Presentation draws for the rulebook; KeyError when it draws none of that name."""
    if not isinstance(rules, Presentation):
        raise KeyError(name)
    return rules.rulebook_figure(name, lang)


def tallier(rules: Rules[Any, Any]) -> Callable[[Any, Any, Any], Any] | None:
    """The game's step tally (Analysis.tally), or None when it counts nothing (no cost per step)."""
    if isinstance(rules, Analysis) and type(rules).tally is not Analysis.tally:
        return rules.tally
    return None


def game_stats(rules: Rules[Any, Any], state: Any) -> dict[str, float]:
    return rules.game_stats(state) if isinstance(rules, Analysis) else {}


def broken_invariants(rules: Rules[Any, Any], state: Any) -> list[str]:
    return rules.check(state) if isinstance(rules, StateCodec) else []


def picture(rules: Rules[Any, Any], before: Any, moves: list[Any] | None = None, after: Any = None,
            captions: tuple[str, str] = ("", ""), lang: str = "en", max_width: float | None = None) -> Scene | None:
    """The game's picture of `before` with `moves` marked, and beside it `after` (the state the
    moves lead to; None for a refused move), or below it when side by side would be wider than
    `max_width`; None for a game that draws no pictures."""
    if not isinstance(rules, Presentation):
        return None
    first = rules.draw(before, list(moves or []), lang)
    if first is None or after is None or not moves:
        return first
    second = rules.draw(after, [], lang)
    if second is None:
        return first
    from pnpgen.scene import below, beside  # drawing only: kept off the referee's start-up

    both = beside([first, second], captions=captions)
    if max_width is not None and both.width > max_width:
        return below([first, second], captions=captions)
    return both


def hidden_information(rules: Rules[Any, Any]) -> HiddenInformation[Any, Any, Any] | None:
    """The game's seat views, or None for a game of perfect information."""
    return rules if isinstance(rules, HiddenInformation) else None


def views(rules: Rules[Any, Any], needed_for: str = "a view file") -> HiddenInformation[Any, Any, Any]:
    """The game's seat views, or a one-line error naming what needs them."""
    if isinstance(rules, HiddenInformation):
        return rules
    raise missing(rules, HiddenInformation, needed_for)
