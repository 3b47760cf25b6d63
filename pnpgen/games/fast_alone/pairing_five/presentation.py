"""PairingFive: presentation."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from pnpgen import scene as sc
from pnpgen.content.schema import text_for
from pnpgen.games.fast_alone import puzzle
from pnpgen.games.fast_alone.catalogue import WORDS, header
from pnpgen.games.fast_alone.pairing_five.rules import (
    WON,
    Area,
    Move,
    State,
)

if TYPE_CHECKING:
    from pnpgen.games.fast_alone.pairing_five import PairingFive

RED_FILL = "#f0b4b4"  # the red die


def effect_text(spec: Area, faces: int, lang: str) -> str:
    """One sentence on an effect, written from its data (rulebook tables)."""
    return WORDS(f"pf.{spec.effect}", lang, total=faces + 1, least=spec.least, by=spec.by, faces=faces)


# The rulebook's values and tables, and a state described for the referee.


def draw(rules: PairingFive, state: State, moves: Sequence[Move] = (), lang: str = "en") -> sc.Scene:
    """The board: each area's letter and effect over its 1st and 2nd cells, with the dice
    placed (the red tinted); the red die waiting and the unused dice below. A placement
    outlines the cell the die goes to."""
    names = [text_for(a.name, lang) for a in rules.areas]
    cell, size = 22.0, 6.5
    widths = [max(cell + 10, sc.text_width(name, size) + 6) for name in names]  # each area as wide as its name
    top = 22.0
    shapes: list[sc.Shape] = []
    marks: list[sc.Shape] = []
    targets = {2 * m.area + (1 if state.cells[2 * m.area] else 0) for m in moves if m.kind == "place"}
    die = cell * 0.75
    left = 18.0  # the row names, 1st and 2nd
    shapes += [sc.Label(left - 3, top + k * (cell + 4) + cell / 2, row, 6.5, sc.GREY, "end")
               for k, row in enumerate(("1st", "2nd"))]
    for a, name in enumerate(names):
        x, width = left + sum(widths[:a]), widths[a]
        shapes += [sc.Label(x + width / 2, 5, rules.areas[a].label, 8), sc.Label(x + width / 2, 15, name, size,
                                                                             sc.ACCENT)]
        for k in range(2):
            cx, cy = x + (width - cell) / 2, top + k * (cell + 4)
            shapes.append(sc.Rect(cx, cy, cell, cell, None, sc.ROLE_INK["cell"], 0.5, role="cell"))
            face = state.cells[2 * a + k]
            if face:
                red = a == state.red_area and k == 0
                shapes += sc.die(cx + (cell - die) / 2, cy + (cell - die) / 2, die, face,
                                 RED_FILL if red else sc.PAPER)
            if 2 * a + k in targets:
                marks.append(sc.Rect(cx - 1.5, cy - 1.5, cell + 3, cell + 3, None, sc.ACCENT, 1.6))
    y = top + 2 * cell + 4 + 8
    x = left
    small = 13.0
    if state.red:
        shapes += sc.die(x, y, small, state.red, RED_FILL)
        x += small + 8
    shapes += sc.dice_row(state.pool, x, y, small, 3.5)
    touched = [m.a for m in moves if m.kind == "place" and m.effect in ("change", "reroll") and m.a]
    if touched and touched[0] in state.pool:  # the unused die the effect changes or rerolls
        k = state.pool.index(touched[0])
        marks.append(sc.Rect(x + k * (small + 3.5) - 1.5, y - 1.5, small + 3, small + 3, None, sc.ACCENT, 1.3,
                             radius=3))
    right = max(left + sum(widths), x + len(state.pool) * (small + 3.5))
    return sc.Scene(right, y + small + 1, tuple(shapes + marks))


def describe(rules: PairingFive, state: State) -> str | None:
    lines = [f"{text_for(rules.side_name, 'en')}"]
    for a, spec in enumerate(rules.areas):
        dice = [str(f) for f in state.cells[2 * a:2 * a + 2] if f]
        red = " (red)" if a == state.red_area else ""
        lines.append(f"  area {spec.label} [{text_for(spec.name, 'en')}]: {' '.join(dice) or '-'}{red}")
    if state.red:
        lines.append(f"Red die {state.red} waits to be placed")
    lines.append(f"Unused: {rules._shown(state.pool)}; dice placed: {state.turns}")
    if state.end:
        lines.append(f"Game over ({state.end}): {'won' if state.end == WON else 'lost'}")
    elif not rules.rolled(state):
        lines.append("The ten dice are to be rolled")
    elif state.pending:
        lines.append(f"{state.pending} dice are being rerolled")
    else:
        moves = rules.legal_moves(state)
        by_spot = Counter((m.face, m.area) for m in moves)
        lines.append(f"{len(by_spot)} placements, {len(moves)} moves with their effects:")
        for (face, area), count in sorted(by_spot.items()):
            lines.append(f"  place {face} in {rules.label(area)}: {count} way(s) to fire "
                         f"{text_for(rules.areas[area].name, 'en')}")
    return "\n".join(lines)


# --- rulebook ------------------------------------------------------------------------
def values(rules: PairingFive, lang: str) -> dict[str, object]:
    return {
        "white": rules.white,
        "dice": rules.white + 1,
        "areas": rules.n,
        "faces": rules.faces,
        "effects": WORDS("list_separator", lang).join(text_for(a.name, lang) for a in rules.areas),
        **{f"area_{a.label}": text_for(a.name, lang) for a in rules.areas},
    }


def solver_method(rules: PairingFive, lang: str) -> str:
    return WORDS("pairing-five.solver_method", lang, exact_from=rules.exact_from, depth=rules.depth)


def tables(rules: PairingFive) -> dict[str, Callable[[str], list[list[str]]]]:
    return {**puzzle.tables(rules), "areas": rules.areas_table}


def areas_table(rules: PairingFive, lang: str) -> list[list[str]]:
    rows = [header(lang, "pf.area", "effect", "what_it_does")]
    for spec in rules.areas:
        rows.append([spec.label, text_for(spec.name, lang), effect_text(spec, rules.faces, lang)])
    return rows
