"""UnificationPresentation: presentation."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pnpgen.content.schema import text_for
from pnpgen.engine.protocol import CHANCE
from pnpgen.games.fast_alone.catalogue import WORDS, header
from pnpgen.games.fast_alone.puzzle import PuzzlePresentation
from pnpgen.games.fast_alone.unification.rules import (
    EDGES,
    WON,
    Effect,
    Move,
    State,
)
from pnpgen.games.fast_alone.unification.solver import UnificationSolver


def effect_text(effect: Effect, faces: int, lang: str) -> str:
    """One sentence on an effect, written from its data (rulebook tables)."""
    return WORDS(f"un.{effect.effect}", lang, signed=f"{effect.by:+d}", by=abs(effect.by), faces=faces,
                 total=faces + 1)


class UnificationPresentation(UnificationSolver, PuzzlePresentation[State, Move]):
    """The rulebook's values and tables, and a state described for the referee."""

    def describe(self, state: State) -> str | None:
        n = self.n
        lines = [text_for(self.side_name, "en")]
        edges = ", ".join(f"{WORDS(f'un.{k}', 'en')} {text_for(e.name, 'en')}" for k, e in self.edges.items())
        lines.append(f"Edges (a die leaving by one gets its effect): {edges}")
        for r in range(n):
            row = []
            for c in range(n):
                i = r * n + c
                face = str(state.cells[i]) if state.cells[i] else "."
                row.append(f"[{face}]" if i == state.red else f" {face} ")
            lines.append("  " + "".join(row))
        lines.append(f"Push die: {state.push or 'to be rolled'}; pushes made: {state.pushes} of {self.push_limit}"
                     + (f"; no push from {state.banned}" if state.banned else ""))
        if state.end:
            lines.append(f"Game over ({state.end}): " + (f"won, score {self.score(state)}" if state.end == WON
                                                           else "lost"))
        elif self.current_player(state) == CHANCE:
            lines.append("Setup is under way" if not self.settled(state) else "The push die is to be rolled again")
        else:
            moves = self.legal_moves(state)
            lines.append(f"{len(moves)} pushes allowed: " + " ".join(self.format_move(m) for m in moves))
            lines.append(f"Effect steps still needed, at least: {self.distance(state)}")
        return "\n".join(lines)

    # --- rulebook ------------------------------------------------------------------------
    def values(self, lang: str) -> dict[str, Any]:
        return {
            "grid": self.n,
            "cells": self.size,
            "white": self.size - 1,
            "faces": self.faces,
            "push_limit": self.push_limit,
            **{f"edge_{k}": text_for(e.name, lang) for k, e in self.edges.items()},
        }

    def solver_method(self, lang: str) -> str:
        return WORDS("unification.solver_method", lang, nodes=self.nodes, weight=f"{self.weight:g}")

    def tables(self) -> dict[str, Callable[[str], list[list[str]]]]:
        return {**super().tables(), "edges": self.edges_table}

    def edges_table(self, lang: str) -> list[list[str]]:
        rows = [header(lang, "un.edge", "effect", "what_it_does")]
        for key in EDGES:
            edge = self.edges[key]
            what = WORDS("un.then", lang).join(effect_text(e, self.faces, lang) for e in edge.effects)
            rows.append([WORDS(f"un.{key}", lang), text_for(edge.name, lang), what])
        return rows
