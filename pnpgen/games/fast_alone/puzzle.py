"""What every Fast Alone puzzle shares. A puzzle package composes one class per board side:
its rules class (mechanics and notation, an engine.collection.Variant) with the functions of
its codec, solver and presentation modules registered on it, after these shared ones:

    bot_methods, solver_method     the random player and the solver, described from the catalogue
    rulebook_context, tables,      the rulebook's shared values (difficulty games and seed, side
    rulebook_table, values         name, solver method) around the puzzle's own `values`, and
                                   its tables by name, the two difficulty tables among them
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial
from typing import TYPE_CHECKING, Any, Protocol, cast

from pnpgen.content.schema import text_for
from pnpgen.content.yamlpos import where
from pnpgen.errors import ContentError
from pnpgen.games.fast_alone.catalogue import WORDS
from pnpgen.games.fast_alone.difficulty import COLLECTION_TABLE, collection_table, difficulty_table, settings

if TYPE_CHECKING:
    from pnpgen.engine.collection import Variant

Table = Callable[[str], list[list[str]]]


class Side(Protocol):
    """One board side of a puzzle, as the shared functions read it."""

    key: str
    data: Any  # the puzzle's checked YAML
    side_name: object  # Text: a string or {ja:, en:}

    @property
    def siblings(self) -> Sequence[Side]: ...  # every side of the puzzle, this one included
    def solver_method(self, lang: str) -> str: ...
    def values(self, lang: str) -> dict[str, object]: ...
    def tables(self) -> dict[str, Table]: ...


def content_error(message: str, container: object, key: object) -> ContentError:
    """A ContentError at `key` of the puzzle's data (its value's line)."""
    return ContentError(message, **where(container, key, value=True))


def solver_method(rules: Side, lang: str) -> str:
    """How the solver plays, in words; a puzzle whose text names its settings fills them in."""
    return WORDS(f"{rules.key}.solver_method", lang)


def bot_methods(rules: Side) -> dict[str, str]:
    return {"random": WORDS("random_method", "en"), "solver": rules.solver_method("en")}


def values(rules: Side, lang: str) -> dict[str, object]:
    """The puzzle's own rulebook values (none by default)."""
    return {}


def rulebook_context(rules: Side, lang: str) -> dict[str, object]:
    games, seed, _ = settings(_variant(rules), rules.data)
    return {"difficulty_games": games, "difficulty_seed": seed, **rules.values(lang),
            "side_name": text_for(rules.side_name, lang), "solver_method": rules.solver_method(lang)}


def tables(rules: Side) -> dict[str, Table]:
    """The rulebook's tables by name: every side of every puzzle, and this puzzle's sides."""
    return {COLLECTION_TABLE: partial(collection_table, _variant(rules)),
            "difficulty": partial(difficulty, rules)}


def rulebook_table(rules: Side, name: str, lang: str) -> list[list[str]]:
    table = rules.tables().get(name)
    if table is None:
        raise KeyError(name)
    return table(lang)


def difficulty(rules: Side, lang: str) -> list[list[str]]:
    """Every side of the puzzle, random player and solver."""
    games, seed, bots = settings(_variant(rules), rules.data)
    return difficulty_table([(text_for(r.side_name, lang), _variant(r)) for r in rules.siblings], games, seed, bots,
                            lang)


def _variant(rules: Side) -> Variant[Any, Any]:
    return cast("Variant[Any, Any]", rules)  # every Side is a Variant
