"""What every Fast Alone puzzle shares, one base per layer of a puzzle package:

    Puzzle              mechanics and notation: one board side (engine.collection.Variant)
    PuzzleAnalysis      bots named for simulate and report: a random player and a solver
    PuzzlePresentation  the rulebook's shared values and its difficulty tables

A puzzle package composes its own layers (rules, codec, solver, presentation) into one class.
"""

from __future__ import annotations

from functools import partial
from typing import Any, TypeVar

from pnpgen.content.schema import text_for
from pnpgen.content.yamlpos import where
from pnpgen.engine.collection import Tables, Variant
from pnpgen.engine.protocol import Analysis, Notation, Rules
from pnpgen.errors import ContentError
from pnpgen.games.fast_alone.catalogue import WORDS
from pnpgen.games.fast_alone.difficulty import COLLECTION_TABLE, collection_table, difficulty_table, settings

S = TypeVar("S")
M = TypeVar("M")


def content_error(message: str, container: Any, key: Any) -> ContentError:
    """A ContentError at `key` of the puzzle's data (its value's line)."""
    return ContentError(message, **where(container, key, value=True))


class Puzzle(Variant[S, M], Notation[S, M]):
    """One board side of a Fast Alone puzzle: its mechanics and move notation."""


class PuzzleAnalysis(Analysis[S, M]):
    """The random player and the solver, described from the catalogue
    (`<puzzle>.solver_method`, the text the rulebook prints too)."""

    key: str

    def solver_method(self, lang: str) -> str:
        """How the solver plays, in words; a puzzle whose text names its settings fills them in."""
        return WORDS(f"{self.key}.solver_method", lang)

    def bot_methods(self) -> dict[str, str]:
        return {"random": WORDS("random_method", "en"), "solver": self.solver_method("en")}


class PuzzlePresentation(PuzzleAnalysis[S, M], Tables[S]):
    """Rulebook values every puzzle offers (difficulty games and seed, side name, solver
    method) around the puzzle's own `values`, and the two difficulty tables."""

    data: Any
    side_name: Any
    siblings: list[Any]

    def values(self, lang: str) -> dict[str, Any]:
        """The puzzle's own rulebook values."""
        return {}

    def rulebook_context(self, lang: str) -> dict[str, Any]:
        games, seed, _ = settings(self.rules, self.data)
        return {"difficulty_games": games, "difficulty_seed": seed, **self.values(lang),
                "side_name": text_for(self.side_name, lang), "solver_method": self.solver_method(lang)}

    @property
    def rules(self) -> Rules[Any, Any]:
        assert isinstance(self, Rules)
        return self

    def tables(self) -> dict[str, Any]:
        return {COLLECTION_TABLE: partial(collection_table, self.rules),  # every side of every puzzle
                "difficulty": self.difficulty_table}

    def difficulty_table(self, lang: str) -> list[list[str]]:
        """Every side of the puzzle, random player and solver."""
        games, seed, bots = settings(self.rules, self.data)
        return difficulty_table([(text_for(r.side_name, lang), r) for r in self.siblings], games, seed, bots, lang)
