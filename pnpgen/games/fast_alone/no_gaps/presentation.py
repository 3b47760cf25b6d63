"""NoGaps: presentation."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from pnpgen import scene as sc
from pnpgen.content.schema import text_for
from pnpgen.games.fast_alone import puzzle
from pnpgen.games.fast_alone.catalogue import WORDS, header
from pnpgen.games.fast_alone.no_gaps.rules import (
    OVER,
    PLAY,
    ROLL,
    WON,
    Move,
    State,
    Tile,
)
from pnpgen.words import COMMON

if TYPE_CHECKING:
    from pnpgen.games.fast_alone.no_gaps import NoGaps


def shape_picture(cells: tuple[tuple[int, int], ...]) -> str:
    """A shape as lines of ■ (cell) and □ (no cell)."""
    height = max(r for r, _ in cells) + 1
    width = max(c for _, c in cells) + 1
    every = set(cells)
    return "\n".join("".join("■" if (r, c) in every else "□" for c in range(width)) for r in range(height))


# tile fills in drawing order (soft tints, told apart by their outlines too)
TINTS = ("#c9dcef", "#f3d9b1", "#d4e8c9", "#e8cde3", "#f1e6a9", "#cfe4e4", "#e6d3c3", "#d9d3ef")


# The rulebook's values and tables, and a state described for the referee.


def picture(rules: NoGaps, state: State) -> list[str]:
    """The grid, each cell showing the drawing order (1-9, then letters) of its tile."""
    marks = ["."] * rules.size
    symbols = "123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"
    for n, (_, mask) in enumerate(state.drawn):
        for i in range(rules.size):
            if mask >> i & 1:
                marks[i] = symbols[n % len(symbols)]
    return [" ".join(marks[r * rules.cols:(r + 1) * rules.cols]) for r in range(rules.rows)]


def draw(rules: NoGaps, state: State, moves: Sequence[Move] = (), lang: str = "en") -> sc.Scene:
    """The sheet's grid with every tile drawn so far as its shape, the dice in hand and the
    reroll boxes below; a placement is the tile outlined in the move's colour."""
    cell = 15.0
    grid = sc.Grid(rules.cols, rules.rows, cell, x=12, y=11)
    shapes: list[sc.Shape] = [*grid.cells(), *grid.labels(
        cols=[chr(ord("a") + c) for c in range(rules.cols)], rows=[str(r + 1) for r in range(rules.rows)])]
    for n, (_, mask) in enumerate(state.drawn):
        shapes += sc.polyomino(_cells(rules, mask), grid, TINTS[n % len(TINTS)])
    for m in moves:
        if m.kind == "place":
            shapes += sc.polyomino(_cells(rules, m.mask), grid, None, sc.ACCENT, 1.8)  # outlined, still to draw
    bottom = grid.y + rules.rows * cell + 6
    box = 8.0
    for k in range(rules.max_rerolls):
        bx = grid.x + k * (box + 3)
        shapes.append(sc.Rect(bx, bottom + 2.5, box, box, None, sc.GREY, 0.6))
        if k < state.rerolls:
            shapes += sc.cross(bx, bottom + 2.5, box, width=0.8, inset=0.15)
        elif k == state.rerolls and any(m.kind == "reroll" for m in moves):  # the box a reroll ticks
            shapes.append(sc.Rect(bx - 1.5, bottom + 1, box + 3, box + 3, None, sc.ACCENT, 1.4))
    dice_x = grid.x + rules.max_rerolls * (box + 3) + 8
    shapes += sc.dice_row(state.hand, dice_x, bottom, 13)
    rolled = [f for m in moves if m.kind == "roll" for f in m.dice]
    if rolled and not state.hand:  # the dice a reroll brings, outlined where the hand will be
        shapes += sc.dice_row(rolled, dice_x, bottom, 13)
        shapes += [sc.Rect(dice_x + k * 16 - 1.5, bottom - 1.5, 16, 16, None, sc.ACCENT, 1.2)
                   for k in range(len(rolled))]
    width = max(grid.x + rules.cols * cell, dice_x + len(state.hand) * 16) + 2
    return sc.Scene(width, bottom + 15, tuple(shapes))


def _cells(rules: NoGaps, mask: int) -> list[tuple[int, int]]:
    """The (column, row) cells of a mask."""
    return [(i % rules.cols, i // rules.cols) for i in range(rules.size) if mask >> i & 1]


def describe(rules: NoGaps, state: State) -> str | None:
    lines = [f"{text_for(rules.side_name, 'en')}: columns a–{chr(ord('a') + rules.cols - 1)}, rows 1–{rules.rows} "
             "from the top; digits show the order tiles were drawn"]
    lines.append("    " + " ".join(chr(ord("a") + c) for c in range(rules.cols)))
    lines += [f"{r + 1:>3} {row}" for r, row in enumerate(rules.picture(state))]
    left = ", ".join(f"{t.id}×{state.left[i]}" for i, t in enumerate(rules.tiles) if state.left[i])
    lines.append(f"Tiles left: {left or 'none'}")
    lines.append(f"Dice: in hand {' '.join(map(str, state.hand)) or 'none'}, set aside {state.aside}, "
                 f"removed {state.removed}; rerolls used {state.rerolls} of {rules.max_rerolls}")
    if state.phase == OVER:
        result = "won" if state.end == WON else "lost"
        lines.append(f"Game over ({state.end}): {result}, score {rules.outcome(state).scores[0]:g}")
    elif state.phase == PLAY:
        for face in sorted(set(state.hand)):
            options = [f"{rules.tiles[i].id} ({sum(not m & state.filled for m in rules.tiles[i].masks)} places)"
                       for i in rules.by_face[face] if state.left[i]]
            lines.append(f"  die {face}: {', '.join(o for o in options if '(0 places)' not in o)}")
    else:
        lines.append("A roll is due" if state.phase == ROLL else "Every die is used: reroll")
    return "\n".join(lines)


# --- rulebook ------------------------------------------------------------------------
def values(rules: NoGaps, lang: str) -> dict[str, object]:
    return {
        "rows": rules.rows,
        "columns": rules.cols,
        "cells": rules.size,
        "dice": rules.count,
        "faces": rules.faces,
        "rerolls": rules.max_rerolls,
        "blank_faces": "/".join(map(str, sorted(rules.blank))),
        "tile_count": sum(t.count for t in rules.tiles),
        "tile_cells": sum(t.count * t.size for t in rules.tiles),
        "orientations": len(rules.transforms),
    }


def rulebook_figure(rules: NoGaps, name: str, lang: str) -> list[sc.Scene]:
    """'tiles': the tile chart as the sheet prints it, one row per die face: the face, the
    points its tiles score for the last cell, and each of its tiles drawn cell by cell with
    its name in words under it (header row first); one picture, its rows sharing their edges."""
    if name != "tiles":
        raise KeyError(name)
    widths, die = (34.0, 40.0, 406.0), 14.0
    rows: list[sc.Scene] = [_chart_row(header(lang, "die", "points", "tiles"), widths, 13.0, sc.HEADER)]
    for face in range(1, rules.faces + 1):
        tiles = [t for t in rules.tiles if t.face == face]
        pictures, height = _tile_lines(tiles, widths[0] + widths[1] + 0.5, widths[2], lang)
        if face in rules.blank or not tiles:
            pictures = [sc.Label(widths[0] + widths[1] + 4.5, height / 2,
                                 WORDS("no-gaps.set_aside" if face in rules.blank else "none", lang), 7.5,
                                 sc.INK, "start")]
        points = "/".join(str(p) for p in sorted({t.points for t in tiles})) or "–"
        row = _chart_row(["", points, ""], widths, height)
        shapes = (*row.shapes, *sc.die(0.5 + (widths[0] - die) / 2, (height - die) / 2, die, face, edge=sc.INK),
                  *pictures)
        rows.append(sc.Scene(row.width, row.height, shapes))
    top, chart = 0.0, list[sc.Shape]()
    for row in rows:
        chart += row.moved(0, top)
        top += row.height
    return [sc.Scene(rows[0].width, top, tuple(chart))]


def _tile_lines(tiles: Sequence[Tile], x: float, width: float, lang: str) -> tuple[list[sc.Shape], float]:
    """A face's tiles set left to right (a new line when the cell is full), each its shape
    with cell lines over its name; the shapes and the height they take (at least 24 pt)."""
    unit, size, gap, pad = 6.0, 6.5, 8.0, 5.0
    slots: list[tuple[Tile, str, int, int, float]] = []
    for tile in tiles:
        label = text_for(tile.name, lang)
        if tile.count > 1:
            label = COMMON("copies", lang, text=label, n=tile.count)
        wide, tall = max(c for _, c in tile.cells) + 1, max(r for r, _ in tile.cells) + 1
        slots.append((tile, label, wide, tall, max(wide * unit, sc.text_width(label, size))))
    lines: list[list[tuple[Tile, str, int, int, float]]] = [[]]
    used = pad
    for slot in slots:
        if lines[-1] and used + slot[4] > width - pad:
            lines.append([])
            used = pad
        lines[-1].append(slot)
        used += slot[4] + gap
    shapes: list[sc.Shape] = []
    y = pad
    for line in lines:
        tallest = max((s[3] for s in line), default=0) * unit
        left = x + pad
        for tile, label, wide, tall, span in line:
            grid = sc.Grid(wide, tall, unit, left + (span - wide * unit) / 2, y + tallest - tall * unit)
            shapes += sc.polyomino([(c, r) for r, c in tile.cells], grid, "#c9dcef", sc.INK, 0.9)
            shapes += [sc.Rect(*grid.at(c, r), unit, unit, None, sc.INK, 0.35) for r, c in tile.cells]
            shapes.append(sc.Label(left + span / 2, y + tallest + 2 + size / 2, label, size, sc.INK))
            left += span + gap
        y += tallest + size + 2 + pad
    return shapes, max(24.0, y)


def _chart_row(texts: list[str], widths: tuple[float, ...], height: float, fill: str | None = None) -> sc.Scene:
    """One row of a chart: its cells outlined, their texts set left (the caller adds pictures)."""
    shapes: list[sc.Shape] = []
    x = 0.5
    for text, width in zip(texts, widths, strict=True):
        shapes.append(sc.Rect(x, 0, width, height, fill, sc.GREY, 0.5))
        if text:
            shapes.append(sc.Label(x + 4, height / 2, text, 7.5, sc.INK, "start"))
        x += width
    return sc.Scene(x + 0.5, height, tuple(shapes))


def tables(rules: NoGaps) -> dict[str, Callable[[str], list[list[str]]]]:
    return {**puzzle.tables(rules), "tiles": rules.tiles_table, "chart": rules.chart_table,
            "sheet_chart": rules.sheet_chart_table}


def tiles_table(rules: NoGaps, lang: str) -> list[list[str]]:
    rows = [header(lang, "die", "tile", "shape", "points")]
    for tile in rules.tiles:
        label = f"{tile.id} ×{tile.count}" if tile.count > 1 else tile.id
        rows.append([str(tile.face), f"{label} {text_for(tile.name, lang)}", shape_picture(tile.cells),
                     str(tile.points)])
    for face in sorted(rules.blank):
        rows.append([str(face), WORDS("no-gaps.set_aside", lang), "", ""])
    return rows


def chart_table(rules: NoGaps, lang: str) -> list[list[str]]:
    """One row per face: the compact chart of a board sheet."""
    rows = [header(lang, "die", "tiles")]
    for face in range(1, rules.faces + 1):
        items = [text_for(t.name, lang) + (f" ×{t.count}" if t.count > 1 else "")
                 for t in rules.tiles if t.face == face]
        rows.append([str(face), COMMON("list_separator", lang).join(items) or WORDS("none", lang)])
    return rows


def sheet_chart_table(rules: NoGaps, lang: str) -> list[list[str]]:
    """The board sheet's chart: per face, its points and each tile's picture."""
    per_face = [[t for t in rules.tiles if t.face == f] for f in range(1, rules.faces + 1)]
    width = max(sum(t.count for t in tiles) for tiles in per_face)
    rows = [header(lang, "die", "points", "tiles") + [""] * (width - 1)]
    for face, tiles in enumerate(per_face, start=1):
        pictures = [shape_picture(t.cells) for t in tiles for _ in range(t.count)]
        points = "/".join(str(p) for p in sorted({t.points for t in tiles})) or "–"
        blank = WORDS("none", lang) if face in rules.blank else ""
        rows.append([str(face), points, *(pictures or [blank]), *[""] * (width - max(1, len(pictures)))])
    return rows
