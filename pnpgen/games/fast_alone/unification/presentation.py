"""Unification: presentation."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from pnpgen import scene as sc
from pnpgen.content.schema import text_for
from pnpgen.engine.protocol import CHANCE
from pnpgen.games.fast_alone import puzzle
from pnpgen.games.fast_alone.catalogue import WORDS, header
from pnpgen.games.fast_alone.unification.rules import (
    EDGES,
    WON,
    Effect,
    Move,
    State,
)

if TYPE_CHECKING:
    from pnpgen.games.fast_alone.unification import Unification


def effect_text(effect: Effect, faces: int, lang: str) -> str:
    """One sentence on an effect, written from its data (rulebook tables)."""
    signed = f"{effect.by:+d}".replace("-", "−")  # a true minus sign, as the board prints it
    return WORDS(f"un.{effect.effect}", lang, signed=signed, by=abs(effect.by), faces=faces, total=faces + 1)


RED_FILL = "#f0b4b4"  # the red die
PUSH_FILL = "#d9e4f2"  # the push die


# The rulebook's values and tables, and a state described for the referee.


def draw(rules: Unification, state: State, moves: Sequence[Move] = (), lang: str = "en") -> sc.Scene:
    """The grid of dice (the red tinted) with each edge's effect named on its side and the
    lines numbered, the push die (tinted) in the corner, the place the last die left by
    crossed; a push is an arrow into its line."""
    n, cell, size = rules.n, 24.0, 7.0
    names = {k: text_for(e.name, lang) for k, e in rules.edges.items()}
    away = 29.0  # the edge names sit this far out; arrows and crosses between them and the grid
    grid = sc.Grid(n, n, cell, x=sc.text_width(names.get("W", ""), size) + away + 2, y=away + 4)
    numbers = [str(k + 1) for k in range(n)]
    shapes: list[sc.Shape] = [*grid.cells(), *grid.labels(cols=numbers, rows=numbers, size=6.5)]
    for key, anchor in (("N", "middle"), ("S", "middle"), ("W", "end"), ("E", "start")):
        x, y = _outside(rules, grid, key, (n - 1) / 2, away)
        shapes.append(sc.Label(x, y, names.get(key, ""), size, sc.ACCENT, anchor))
    die = cell * 0.72
    for i, face in enumerate(state.cells):
        if face:
            x, y = grid.at(i % n, i // n)
            shapes += sc.die(x + (cell - die) / 2, y + (cell - die) / 2, die, face,
                             RED_FILL if i == state.red else sc.PAPER)
    marks: list[sc.Shape] = []
    if state.banned:
        x, y = _outside(rules, grid, state.banned[0], int(state.banned[1:]) - 1, 14)
        marks += sc.cross(x - 4, y - 4, 8, sc.ACCENT, 1.3, 0.0)
    for m in moves:
        if m.kind == "push":
            (x1, y1), (x2, y2) = _outside(rules, grid, m.edge, m.line, 21), _outside(rules, grid, m.edge, m.line, 9)
            marks.append(sc.arrow(x1, y1, x2, y2))
    if state.push:  # the push die waits in the free corner, north-west of the grid
        shapes += sc.die(grid.x - away + 2, grid.y - away + 2, die * 0.9, state.push, PUSH_FILL)
    width = grid.x + n * cell + away + sc.text_width(names.get("E", ""), size) + 2
    return sc.Scene(width, grid.y + n * cell + away + 6, tuple(shapes + marks))


def _outside(rules: Unification, grid: sc.Grid, edge: str, line: float, gap: float) -> tuple[float, float]:
    """The point `gap` outside the grid's `edge`, in front of `line`."""
    n, cell = rules.n, grid.cell
    along = (line + 0.5) * cell
    if edge == "N":
        return grid.x + along, grid.y - gap
    if edge == "S":
        return grid.x + along, grid.y + n * cell + gap
    if edge == "W":
        return grid.x - gap, grid.y + along
    return grid.x + n * cell + gap, grid.y + along


def describe(rules: Unification, state: State) -> str | None:
    n = rules.n
    lines = [text_for(rules.side_name, "en")]
    edges = ", ".join(f"{WORDS(f'un.{k}', 'en')} {text_for(e.name, 'en')}" for k, e in rules.edges.items())
    lines.append(f"Edges (a die leaving by one gets its effect): {edges}")
    for r in range(n):
        row = []
        for c in range(n):
            i = r * n + c
            face = str(state.cells[i]) if state.cells[i] else "."
            row.append(f"[{face}]" if i == state.red else f" {face} ")
        lines.append("  " + "".join(row))
    lines.append(f"Push die: {state.push or 'to be rolled'}; pushes made: {state.pushes} of {rules.push_limit}"
                 + (f"; no push from {state.banned}" if state.banned else ""))
    if state.end:
        lines.append(f"Game over ({state.end}): " + (f"won, score {rules.score(state)}" if state.end == WON
                                                       else "lost"))
    elif rules.current_player(state) == CHANCE:
        lines.append("Setup is under way" if not rules.settled(state) else "The push die is to be rolled again")
    else:
        moves = rules.legal_moves(state)
        lines.append(f"{len(moves)} pushes allowed: " + " ".join(rules.format_move(m) for m in moves))
        lines.append(f"Effect steps still needed, at least: {rules.distance(state)}")
    return "\n".join(lines)


# --- rulebook ------------------------------------------------------------------------
def values(rules: Unification, lang: str) -> dict[str, object]:
    return {
        "grid": rules.n,
        "cells": rules.size,
        "white": rules.size - 1,
        "faces": rules.faces,
        "push_limit": rules.push_limit,
        **{f"edge_{k}": text_for(e.name, lang) for k, e in rules.edges.items()},
    }


def solver_method(rules: Unification, lang: str) -> str:
    return WORDS("unification.solver_method", lang, nodes=rules.nodes, weight=f"{rules.weight:g}")


def tables(rules: Unification) -> dict[str, Callable[[str], list[list[str]]]]:
    return {**puzzle.tables(rules), "edges": rules.edges_table}


def edges_table(rules: Unification, lang: str) -> list[list[str]]:
    rows = [header(lang, "un.edge", "effect", "what_it_does")]
    for key in EDGES:
        edge = rules.edges[key]
        what = WORDS("un.then", lang).join(effect_text(e, rules.faces, lang) for e in edge.effects)
        rows.append([WORDS(f"un.{key}", lang), text_for(edge.name, lang), what])
    return rows
