"""The publishing capability: what only printed matter asks of a game (engine/ knows nothing
of books). A game has it by having these methods, each optional, in its Rules class or
registered on it from a module (`rulebook_table = presentation.rulebook_table`); the
renderers call them through the functions below, which say what a game without one gives."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

from pnpgen.engine.capabilities import own

S = TypeVar("S")
M = TypeVar("M")

if TYPE_CHECKING:
    from pnpgen.engine.protocol import Rules
    from pnpgen.scene import Scene


class Publishing(Protocol):
    """Rulebook values, tables and figures, pictures in words, and the table's mock-up."""

    def rulebook_context(self, lang: str) -> dict[str, object]:
        """Values a rulebook or sheet text may use ({{ threshold }}, computed figures, ...)."""
        ...

    def rulebook_table(self, name: str, lang: str) -> list[list[str]]:
        """A table the rulebook names (`table:`, a sheet's `from_rules:`), header row first,
        built from content; KeyError for a name it does not build."""
        ...

    def rulebook_figure(self, name: str, lang: str) -> list[Scene]:
        """A picture the rulebook names (`figure:`), as rows a page may break between (charts of
        tiles, cards or boards drawn with pnpgen.scene); KeyError for an unknown name."""
        ...

    def alt_text(self, state: Any, moves: Sequence[Any] = (), lang: str = "en") -> str | None:
        """What `draw(state, moves, lang)` shows, in words in `lang`, written from the state (a
        picture's alternative text: "six dice show 1 4 4 5 6 6 and the bonus die 4"); None:
        the rulebook describes the picture from its labels."""
        ...

    def mockup(self, lang: str = "en") -> Scene | None:
        """The whole table at the start of a game as players set it up (the preview `pnpgen
        build` writes to build/<game>/preview/); None when the game has none."""
        ...


def rulebook_context(rules: Rules[S, M], lang: str) -> dict[str, object]:
    """The game's rulebook values; none for a game that publishes none."""
    context = own(rules, "rulebook_context", Publishing)
    return dict(context(lang)) if context is not None else {}


def rulebook_table(rules: Rules[S, M], name: str, lang: str) -> list[list[str]]:
    """A table the game builds for print; KeyError when it builds none of that name."""
    table = own(rules, "rulebook_table", Publishing)
    if table is None:
        raise KeyError(name)
    rows: list[list[str]] = table(name, lang)
    return rows


def rulebook_figure(rules: Rules[S, M], name: str, lang: str) -> list[Scene]:
    """A picture the game draws for the rulebook; KeyError when it draws none of that name."""
    figure = own(rules, "rulebook_figure", Publishing)
    if figure is None:
        raise KeyError(name)
    rows: list[Scene] = figure(name, lang)
    return rows


def mockup(rules: Rules[S, M], lang: str) -> Scene | None:
    """The game's mock-up of the table, or None."""
    draw = own(rules, "mockup", Publishing)
    scene: Scene | None = draw(lang) if draw is not None else None
    return scene


def alt_text(rules: Rules[Any, Any], state: Any, moves: Sequence[Any], lang: str) -> str | None:
    """The game's own words for a picture of `state` with `moves` marked, or None."""
    describe = own(rules, "alt_text", Publishing)
    words: str | None = describe(state, moves, lang) if describe is not None else None
    return words
