"""Grid boards: rows x columns of cells with labels, marks, regions, a title block and blocks.

The board is one drawing in millimetres (origin top-left, y down), laid out by
`layout_board`: an optional title block, label bands on any side of the grid (several
label sets per side stack outwards), the grid itself, and optional sheet blocks (checkbox
rows, tables, text) under it. A board that fits the paper is centred on one page; a
larger one is tiled (see tiling.py).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from reportlab.lib.units import mm
from reportlab.pdfbase.pdfmetrics import getAscentDescent, stringWidth
from reportlab.pdfgen.canvas import Canvas

from pnpgen.content.schema import Any_, Choice, Each, OneOf, Range, Schema, Text, number
from pnpgen.content.schema import check as schema_check
from pnpgen.content.yamlpos import YMap, where
from pnpgen.errors import BuildError, ContentError
from pnpgen.limits import MAX_GRID_CELLS, MAX_LENGTH_MM
from pnpgen.render.fonts import SANS, setup_fonts
from pnpgen.render.kit.blocks import (
    PT,
    Stack,
    TextCtx,
    check_blocks,
    component_text,
    draw_text,
    finish_page,
    heading,
    localized,
    make_stack,
    natural_width,
    page_rect,
    printable,
    text_height,
)
from pnpgen.render.kit.bounds import FONT, LENGTH, SIZE, check_bounds, check_draws
from pnpgen.render.kit.elements import Align, check_elements, draw_elements, safe_breaches
from pnpgen.render.kit.page import EDGE, KitJob, Rect, grown, marked_bleed, problems_of, write_pdf
from pnpgen.render.kit.presets import PRESETS, bleed_safe, drawn_text_problems, padding, padding_problem
from pnpgen.render.kit.preview import Recorder, save_preview, tile_sheet
from pnpgen.render.kit.tiling import Box, Frame, Tile, TilePlan, TooManyTiles, alignment_marks, plan_tiles
from pnpgen.render.words import WORDS

SIDES = ("top", "bottom", "left", "right")
PREVIEW_SIDE = 2_400.0  # points: the preview of a larger board is scaled down to this
SYMBOLS = ("circle", "dot", "cross", "square", "diamond", "triangle", "star", "ring")

# --- schema -----------------------------------------------------------------------------

COUNT = OneOf(int, {"range": OneOf(str, Each(int, min=2))}, {"count_of": str})
CELL_REF = Each(int, min=2)
MARK: Schema = {
    "fill?": str,
    "symbol?": Choice(*SYMBOLS),
    "symbol_size?": float,
    "color?": str,
    "text?": OneOf(Text, int),
    "text_size?": float,
    "image?": str,
}
LABELS: Schema = {
    "axis": Choice("columns", "rows"),
    "values?": OneOf(str, Each(OneOf(Text, int, float))),
    "range?": OneOf(str, Each(int, min=2)),
    "start?": int,
    "reverse?": bool,
    "sides?": Each(Choice(*SIDES), min=1),
    "size?": float,
    "font_size?": float,
    "title?": Text,
    "upside_down?": bool,
    "span?": bool,
}
SCHEMA: Schema = {
    "type": str,
    "id": str,
    "title": Text,
    "game?": str,  # a collection: the game whose rules fill {{ fields }} and from_rules tables
    "paper?": str,
    "landscape?": bool,
    "overlap?": float,
    "grid": {
        "columns": COUNT,
        "rows": COUNT,
        "cell": OneOf(float, {"width": float, "height": float}),
        "line?": float,
        "color?": str,
        "fill?": str,
        "border?": float,
    },
    "labels?": Each(LABELS),
    "cells?": Each({"at": OneOf(CELL_REF, Each(CELL_REF, min=1)), **MARK}),
    "regions?": Each({
        "from?": CELL_REF,
        "to?": CELL_REF,
        "cells?": Each(CELL_REF, min=1),
        "fill?": str,
        "border?": str,
        "border_width?": float,
        "label?": Text,
        "label_size?": float,
        "label_at?": Choice("top", "center", "bottom"),
        "label_background?": str,
    }),
    "title_block?": {
        "text?": Text,
        "subtitle?": Text,
        "position?": Choice("top", "bottom"),
        "size?": float,
        "align?": Align,
    },
    "decorations?": Each(Any_, min=1),
    "preset?": Choice(*PRESETS),
    "bleed?": float,
    "blocks?": Each(Any_, min=1),
    "padding?": float,
    "frame?": float,
    "background?": str,
    "font_size?": float,
}
COUNT_BOUND = Range(int, 1, MAX_GRID_CELLS)  # columns or rows given as a number
BOUNDS: dict[str, object] = {  # see bounds.py; blocks have sheet.BLOCK_BOUNDS
    "overlap": LENGTH,
    "grid": {"columns": COUNT_BOUND, "rows": COUNT_BOUND, "cell": (SIZE, {"width": SIZE, "height": SIZE}),
             "line": LENGTH, "border": LENGTH},
    "labels": [{"size": SIZE, "font_size": FONT}],
    "cells": [{"symbol_size": SIZE, "text_size": FONT}],
    "regions": [{"border_width": LENGTH, "label_size": FONT}],
    "title_block": {"size": SIZE},
    "bleed": LENGTH,
    "padding": LENGTH,
    "frame": LENGTH,
    "font_size": FONT,
}


def check_board(component: YMap, path: str = "board") -> None:
    """The schema, the numbers' bounds, the blocks and the decorations (cells, labels and
    data are checked as the board is laid out and drawn)."""
    schema_check(component, SCHEMA, None, None, path)
    check_bounds(component, BOUNDS)
    if "blocks" in component:
        check_blocks(component["blocks"], f"{path}.blocks")
    if "decorations" in component:
        check_elements(component["decorations"], f"{path}.decorations")


# --- layout -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Label:
    text: str
    box: Box
    size: float  # pt
    upside_down: bool = False


@dataclass
class BoardLayout:
    """Every position on the board, in drawing millimetres."""

    columns: int
    rows: int
    cell_w: float
    cell_h: float
    grid_x: float
    grid_y: float
    width: float
    height: float
    labels: list[Label] = field(default_factory=list)
    title: Box | None = None
    blocks: Box | None = None

    def cell(self, column: int, row: int) -> Box:
        """Cell box by 0-based column (left to right) and row (top to bottom)."""
        return Box(self.grid_x + column * self.cell_w, self.grid_y + row * self.cell_h, self.cell_w, self.cell_h)

    @property
    def grid(self) -> Box:
        return Box(self.grid_x, self.grid_y, self.columns * self.cell_w, self.rows * self.cell_h)


def grid_count(value: Any, ctx: TextCtx, parent: object, key: str) -> int:
    """A row/column count: a number, {range: [first, last]} or {count_of: <data path>}."""
    if isinstance(value, int):
        count = value
    elif "range" in value:
        first, last = number_range(value["range"], ctx, value, "range")
        count = last - first + 1
    else:
        items = ctx.job.data_at(str(value["count_of"]), value, "count_of")
        if not isinstance(items, list | dict):
            raise ContentError(f"'{value['count_of']}' is not a list", **where(value, "count_of", value=True))
        count = len(items)
    if count < 1:
        raise ContentError(f"grid.{key}: needs at least one", **where(parent, key, value=True))
    return count


def number_range(value: object, ctx: TextCtx, parent: object, key: str) -> tuple[int, int]:
    """[first, last] given inline or at a data path of game.yaml (e.g. rules.board.columns)."""
    pair = ctx.job.data_at(value, parent, key) if isinstance(value, str) else value
    if not (isinstance(pair, list) and len(pair) == 2 and all(isinstance(v, int) for v in pair)):
        raise ContentError(f"{key}: expected [first, last] numbers, found {pair!r}", **where(parent, key, value=True))
    return int(pair[0]), int(pair[1])


def label_values(spec: YMap, count: int, ctx: TextCtx) -> list[str]:
    """The texts of one label set: explicit values, a number range, or numbers from `start`."""
    items: Sequence[Any]
    if "values" in spec:
        raw = spec["values"]
        items = ctx.job.data_at(raw, spec, "values") if isinstance(raw, str) else raw
        if not isinstance(items, list):
            raise ContentError(f"labels: '{raw}' is not a list", **where(spec, "values", value=True))
    elif "range" in spec:
        first, last = number_range(spec["range"], ctx, spec, "range")
        step = 1 if last >= first else -1
        items = range(first, last + step, step)  # a range knows its length without being made
    else:
        start = int(spec.get("start", 1))
        items = range(start, start + count)
    if len(items) != count:
        wanted = "1 (span: true)" if spec.get("span") else f"{count} {spec['axis']}"
        raise ContentError(f"labels: {len(items):,} values for {wanted}",
                           **where(spec, "values" if "values" in spec else "range" if "range" in spec else "axis"))
    values = ([component_text(v, ctx, items, i) for i, v in enumerate(items)] if "values" in spec
              else [str(v) for v in items])
    return values[::-1] if spec.get("reverse") else values


def cell_size(grid: YMap) -> tuple[float, float]:
    cell = grid["cell"]
    if isinstance(cell, dict):
        return float(cell["width"]), float(cell["height"])
    return float(cell), float(cell)


def layout_board(component: YMap, ctx: TextCtx) -> tuple[BoardLayout, Stack | None]:
    """Where everything goes, in board millimetres, and the blocks under the grid."""
    grid = component["grid"]
    columns = grid_count(grid["columns"], ctx, grid, "columns")
    rows = grid_count(grid["rows"], ctx, grid, "rows")
    if columns * rows > MAX_GRID_CELLS:
        raise ContentError(f"grid: {columns:,} columns × {rows:,} rows is {columns * rows:,} cells; the limit is "
                           f"{MAX_GRID_CELLS:,}", **where(component, "grid"))
    ctx.drawn.add(columns * rows, "grid", where(component, "grid"))
    labels = sum((len(spec["sides"]) if spec.get("sides") else 2)
                 * (1 if spec.get("span") else columns if spec["axis"] == "columns" else rows)
                 for spec in component.get("labels") or [])  # counted before any is made
    ctx.drawn.add(labels, "labels", where(component, "labels"))
    cw, ch = cell_size(grid)
    pad = padding(component, ctx.job.options.preset)

    # label sets per side, nearest the grid first
    bands: dict[str, list[tuple[YMap, float]]] = {s: [] for s in SIDES}
    for spec in component.get("labels") or []:
        default_sides = ["top", "bottom"] if spec["axis"] == "columns" else ["left", "right"]
        for side in spec.get("sides") or default_sides:
            if (side in ("top", "bottom")) != (spec["axis"] == "columns"):
                raise ContentError(f"labels: {spec['axis']} labels go on "
                                   f"{'top/bottom' if spec['axis'] == 'columns' else 'left/right'}, not {side}",
                                   **where(spec, "sides", value=True))
            bands[side].append((spec, float(spec.get("size", min(cw, ch) * 0.45 if side in ("left", "right")
                                                             else min(cw, ch) * 0.4))))
    thick = {s: sum(size for _, size in bands[s]) for s in SIDES}
    grid_w, grid_h = columns * cw, rows * ch
    inner_w = thick["left"] + grid_w + thick["right"]

    title_box: Box | None = None
    title_h = 0.0
    tb = component.get("title_block")
    if tb is not None:
        title_h = float(tb.get("size", 12.0))
    stack = make_stack(component["blocks"], ctx) if "blocks" in component else None
    blocks_h = stack.height(inner_w) + 3.0 if stack else 0.0

    y = pad
    if tb is not None and tb.get("position", "top") == "top":
        title_box = Box(pad, y, inner_w, title_h)
        y += title_h
    grid_x, grid_y = pad + thick["left"], y + thick["top"]
    y = grid_y + grid_h + thick["bottom"]
    blocks_box = None
    if stack:
        blocks_box = Box(pad, y + 3.0, inner_w, blocks_h - 3.0)
        y += blocks_h
    if tb is not None and tb.get("position", "top") == "bottom":
        title_box = Box(pad, y, inner_w, title_h)
        y += title_h
    layout = BoardLayout(columns, rows, cw, ch, grid_x, grid_y, inner_w + 2 * pad, y + pad,
                         title=title_box, blocks=blocks_box)
    if max(layout.width, layout.height) > MAX_LENGTH_MM:  # also PDF's largest page (5.08 m)
        raise ContentError(f"the board is {number(round(layout.width))} × {number(round(layout.height))} mm; the "
                           f"limit is {number(MAX_LENGTH_MM)} mm a side", **where(component, "grid"))

    used: set[tuple[str, str]] = set()  # corners (vertical side, horizontal side) holding a title
    for side in SIDES:
        offset = 0.0
        for spec, size in bands[side]:
            span = bool(spec.get("span"))  # one text along the whole side (e.g. a side's effect)
            count = 1 if span else columns if spec["axis"] == "columns" else rows
            values = label_values(spec, count, ctx)
            step_w, step_h = (grid_w, grid_h) if span else (cw, ch)
            across = step_w if side in ("top", "bottom") else size  # room for a label's width, mm
            fsize = label_font_size(spec, values, across, min(size, step_w if side in ("top", "bottom") else step_h),
                                    ctx)
            flip = bool(spec.get("upside_down")) and side in ("top", "right")
            for i, text in enumerate(values):
                if side == "top":
                    box = Box(grid_x + i * step_w, grid_y - offset - size, step_w, size)
                elif side == "bottom":
                    box = Box(grid_x + i * step_w, grid_y + grid_h + offset, step_w, size)
                elif side == "left":
                    box = Box(grid_x - offset - size, grid_y + i * step_h, size, step_h)
                else:
                    box = Box(grid_x + grid_w + offset, grid_y + i * step_h, size, step_h)
                layout.labels.append(Label(text, box, fsize, flip))
            if "title" in spec:  # the axis title: in a free corner at one end of the band
                title = component_text(spec["title"], ctx, spec, "title")
                for end in _title_ends(side, flip):
                    corner = _corner(side, end, offset, size, grid_x, grid_y, grid_w, grid_h, thick)
                    key = (side, end) if side in ("top", "bottom") else (end, side)
                    if key not in used and corner.width > 0 and corner.height > 0:
                        used.add(key)
                        layout.labels.append(Label(title, corner, fsize * 0.85, flip))
                        break
            offset += size
    return layout, stack


def label_font_size(spec: YMap, values: list[str], width: float, height: float, ctx: TextCtx) -> float:
    """The labels' size in pt: as given (an error if the widest label does not fit across its
    place), else the largest that fits both ways, at most 55 % of the height."""
    widest = max((natural_width(v, 1.0) for v in values), default=0.0)  # mm at 1 pt
    room = width - 1.0
    if "font_size" in spec:
        size = float(spec["font_size"])
        if widest * size > room + 1e-6:
            raise BuildError(f"{ctx.label}: labels of font_size {size:g} are wider than their {width:g} mm "
                             "(a smaller font_size or a larger size)", **where(spec, "font_size", value=True))
        return size
    fit = room / widest if widest else float("inf")
    return min(height * 0.55 / PT, fit)


def _title_ends(side: str, flip: bool) -> list[str]:
    """Which end of a band its axis title prefers: where the reader starts reading."""
    ends = ["left", "right"] if side in ("top", "bottom") else ["top", "bottom"]
    return ends[::-1] if flip else ends


def _corner(side: str, end: str, offset: float, size: float, grid_x: float, grid_y: float, grid_w: float,
            grid_h: float, thick: dict[str, float]) -> Box:
    if side in ("top", "bottom"):
        y0 = grid_y - offset - size if side == "top" else grid_y + grid_h + offset
        return Box(grid_x - thick["left"], y0, thick["left"], size) if end == "left" \
            else Box(grid_x + grid_w, y0, thick["right"], size)
    x0 = grid_x - offset - size if side == "left" else grid_x + grid_w + offset
    return Box(x0, grid_y - thick["top"], size, thick["top"]) if end == "top" \
        else Box(x0, grid_y + grid_h, size, thick["bottom"])


# --- drawing ----------------------------------------------------------------------------


def resolve_cells(refs: Any, layout: BoardLayout, parent: object, key: str) -> list[tuple[int, int]]:
    """[column, row] references (1-based, from the top-left) as 0-based pairs, checked."""
    pairs = [refs] if refs and isinstance(refs[0], int) else list(refs)
    out = []
    for ref in pairs:
        if len(ref) != 2:
            raise ContentError(f"{key}: a cell is [column, row], found {list(ref)}", **where(parent, key, value=True))
        c, r = int(ref[0]), int(ref[1])
        if not (1 <= c <= layout.columns and 1 <= r <= layout.rows):
            raise ContentError(f"{key}: cell [{c}, {r}] is outside the {layout.columns}x{layout.rows} grid",
                               **where(parent, key, value=True))
        out.append((c - 1, r - 1))
    return out


def region_cells(spec: YMap, layout: BoardLayout) -> list[tuple[int, int]]:
    if "cells" in spec:
        return resolve_cells(spec["cells"], layout, spec, "cells")
    if "from" not in spec or "to" not in spec:
        raise ContentError("regions: give 'cells' or 'from' and 'to'", **where(spec))
    (c0, r0), = resolve_cells(spec["from"], layout, spec, "from")
    (c1, r1), = resolve_cells(spec["to"], layout, spec, "to")
    return [(c, r) for r in range(min(r0, r1), max(r0, r1) + 1) for c in range(min(c0, c1), max(c0, c1) + 1)]


def marked_cells(component: YMap, layout: BoardLayout) -> int:
    """How many cells the regions and cell marks fill or mark, counted without listing them
    (a region from [1, 1] to [100, 100] is 10,000 cells), plus the decorations."""
    count = len(component.get("decorations") or [])
    for spec in component.get("regions") or []:
        if "cells" in spec:
            count += len(spec["cells"])
        elif "from" in spec and "to" in spec:
            (c0, r0), = resolve_cells(spec["from"], layout, spec, "from")
            (c1, r1), = resolve_cells(spec["to"], layout, spec, "to")
            count += (abs(c1 - c0) + 1) * (abs(r1 - r0) + 1)
    for spec in component.get("cells") or []:
        at = spec["at"]
        count += 1 if at and isinstance(at[0], int) else len(at)
    return count


def outline(cells: Sequence[tuple[int, int]]) -> list[tuple[tuple[int, int], tuple[int, int]]]:
    """Grid-corner segments on the boundary of a set of cells (edges not shared by two members)."""
    members = set(cells)
    edges = []
    for c, r in members:
        if (c, r - 1) not in members:
            edges.append(((c, r), (c + 1, r)))
        if (c, r + 1) not in members:
            edges.append(((c, r + 1), (c + 1, r + 1)))
        if (c - 1, r) not in members:
            edges.append(((c, r), (c, r + 1)))
        if (c + 1, r) not in members:
            edges.append(((c + 1, r), (c + 1, r + 1)))
    return sorted(edges)


def polygon(name: str) -> list[tuple[float, float]]:
    """Corners of a unit-radius symbol: diamond, triangle or a five-pointed star."""
    if name == "diamond":
        return [(0, 1), (1, 0), (0, -1), (-1, 0)]
    if name == "triangle":
        return [(math.cos(a), math.sin(a)) for a in (math.pi / 2, math.pi * 7 / 6, math.pi * 11 / 6)]
    radii = [1.0 if k % 2 == 0 else 0.42 for k in range(10)]
    return [(r * math.cos(math.pi / 2 + k * math.pi / 5), r * math.sin(math.pi / 2 + k * math.pi / 5))
            for k, r in enumerate(radii)]


def draw_symbol(canvas: Canvas, name: str, cx: float, cy: float, radius: float) -> None:
    """A simple mark centred on (cx, cy) in points; colours are set by the caller."""
    if name in ("circle", "ring"):
        canvas.circle(cx, cy, radius, stroke=1, fill=0 if name == "ring" else 1)
    elif name == "dot":
        canvas.circle(cx, cy, radius * 0.35, stroke=0, fill=1)
    elif name == "cross":
        d = radius * 0.8
        canvas.line(cx - d, cy - d, cx + d, cy + d)
        canvas.line(cx - d, cy + d, cx + d, cy - d)
    elif name == "square":
        canvas.rect(cx - radius * 0.85, cy - radius * 0.85, radius * 1.7, radius * 1.7, stroke=1, fill=1)
    else:
        points = polygon(name)
        path = canvas.beginPath()
        path.moveTo(cx + points[0][0] * radius, cy + points[0][1] * radius)
        for px, py in points[1:]:
            path.lineTo(cx + px * radius, cy + py * radius)
        path.close()
        canvas.drawPath(path, stroke=1, fill=1)


def draw_board(canvas: Canvas, frame: Frame, component: YMap, layout: BoardLayout, stack: Stack | None,
               ctx: TextCtx, bleed: float = 0.0) -> None:
    """The whole board drawing (the caller clips and places it)."""
    colour = ctx.colour
    grid = component["grid"]
    whole = Box(0, 0, layout.width, layout.height)
    saver = getattr(ctx.job.options, "ink_saver", False) and not ctx.job.options.print_shop
    if "background" in component and not saver:  # into the bleed (--ink-saver: left white)
        canvas.setFillColor(colour(component["background"]))
        canvas.rect(*frame.rect(whole.inset(-bleed)), stroke=0, fill=1)
    if "decorations" in component:
        draw_elements(canvas, component["decorations"], page_rect(frame, whole), ctx.element_ctx())
    if component.get("frame"):
        canvas.setStrokeColor(colour("#000000"))
        canvas.setLineWidth(float(component["frame"]) * mm)
        canvas.rect(*frame.rect(whole), stroke=1, fill=0)

    # cell fills first (grid, regions, marks), then lines on top
    if "fill" in grid:
        canvas.setFillColor(colour(str(grid["fill"])))
        canvas.rect(*frame.rect(layout.grid), stroke=0, fill=1)
    regions = [(spec, region_cells(spec, layout)) for spec in component.get("regions") or []]
    for spec, cells in regions:
        if "fill" in spec:
            canvas.setFillColor(colour(spec["fill"]))
            for c, r in cells:
                canvas.rect(*frame.rect(layout.cell(c, r)), stroke=0, fill=1)
    marks = [(spec, resolve_cells(spec["at"], layout, spec, "at")) for spec in component.get("cells") or []]
    for spec, cells in marks:
        if "fill" in spec:
            canvas.setFillColor(colour(spec["fill"]))
            for c, r in cells:
                canvas.rect(*frame.rect(layout.cell(c, r)), stroke=0, fill=1)

    # the grid: one rectangle per cell, so every cell can be found in the PDF
    canvas.setStrokeColor(colour(str(grid.get("color", "#000000"))))
    canvas.setLineWidth(float(grid.get("line", 0.3)) * mm)
    for r in range(layout.rows):
        for c in range(layout.columns):
            canvas.rect(*frame.rect(layout.cell(c, r)), stroke=1, fill=0)
    canvas.setLineWidth(float(grid.get("border", 0.8)) * mm)
    canvas.rect(*frame.rect(layout.grid), stroke=1, fill=0)

    for spec, cells in regions:
        if "border" in spec:
            canvas.setStrokeColor(colour(spec["border"]))
            canvas.setLineWidth(float(spec.get("border_width", 0.8)) * mm)
            canvas.setLineCap(2)
            for (c0, r0), (c1, r1) in outline(cells):
                canvas.line(frame.x(layout.grid_x + c0 * layout.cell_w), frame.y(layout.grid_y + r0 * layout.cell_h),
                            frame.x(layout.grid_x + c1 * layout.cell_w), frame.y(layout.grid_y + r1 * layout.cell_h))
            canvas.setLineCap(0)
        if "label" in spec:
            _region_label(canvas, frame, spec, cells, layout, ctx)

    for spec, cells in marks:
        for c, r in cells:
            _mark(canvas, frame, spec, layout.cell(c, r), ctx)

    canvas.setFillColor(colour("#000000"))
    for label in layout.labels:
        _centred(canvas, frame, label.box, label.text, label.size, label.upside_down)

    if layout.title is not None:
        _title_block(canvas, frame, component, layout.title, ctx)
    if stack is not None and layout.blocks is not None:
        stack.draw(canvas, frame, layout.blocks, ctx)


def _centred(canvas: Canvas, frame: Frame, box: Box, text: str, size: float, upside_down: bool = False) -> None:
    """One line of text centred in a box (turned half a turn for the far player if asked)."""
    canvas.saveState()
    canvas.translate(frame.x(box.x + box.width / 2), frame.y(box.y + box.height / 2))
    if upside_down:
        canvas.rotate(180)
    canvas.setFont(SANS, size)
    canvas.drawCentredString(0, -size * 0.35, text)
    canvas.restoreState()


def _mark(canvas: Canvas, frame: Frame, spec: YMap, box: Box, ctx: TextCtx) -> None:
    colour = ctx.colour(str(spec.get("color", "#000000")))
    cx, cy = frame.x(box.x + box.width / 2), frame.y(box.y + box.height / 2)
    if "symbol" in spec:
        radius = float(spec.get("symbol_size", min(box.width, box.height) * 0.5)) * mm / 2
        canvas.setFillColor(colour)
        canvas.setStrokeColor(colour)
        canvas.setLineWidth(0.6)
        draw_symbol(canvas, str(spec["symbol"]), cx, cy, radius)
    if "text" in spec:
        canvas.setFillColor(colour)
        text = component_text(spec["text"], ctx, spec, "text")
        size = float(spec.get("text_size", min(box.width, box.height) * 0.4 / PT))
        if "text_size" not in spec:  # the default never runs past the cell: 90 % of its width at most
            size = min(size, size * box.width * 0.9 / max(stringWidth(text, SANS, size) * PT, 1e-6))
        _centred(canvas, frame, box, text, size)
    if "image" in spec:
        draw_elements(canvas, [{"image": spec["image"]}], page_rect(frame, box.inset(box.width * 0.1)),
                      ctx.element_ctx())


def _region_label(canvas: Canvas, frame: Frame, spec: YMap, cells: list[tuple[int, int]], layout: BoardLayout,
                  ctx: TextCtx) -> None:
    """The region's name on a knocked-out plate (`label_background`, white by default) so
    grid lines never run through it; at least 10 pt, or 60% of a cell, made smaller only
    to fit the region's width."""
    cs = [c for c, _ in cells]
    rs = [r for _, r in cells]
    x0, x1 = layout.grid_x + min(cs) * layout.cell_w, layout.grid_x + (max(cs) + 1) * layout.cell_w
    y0, y1 = layout.grid_y + min(rs) * layout.cell_h, layout.grid_y + (max(rs) + 1) * layout.cell_h
    text = component_text(spec["label"], ctx, spec, "label")
    size = float(spec.get("label_size", max(10.0, min(layout.cell_w, layout.cell_h) * 0.6)))
    pad = 1.2  # mm each side of the text on its plate
    room = x1 - x0 - 2 * pad - 1.0
    if "label_size" not in spec and stringWidth(text, SANS, size) * PT > room:
        size = max(6.0, room / max(stringWidth(text, SANS, 1.0) * PT, 1e-6))
    h = size * 1.4 * PT
    w = min(x1 - x0 - 1.0, stringWidth(text, SANS, size) * PT + 2 * pad)
    at = spec.get("label_at", "top")
    y = y0 + 0.8 if at == "top" else (y1 - h - 0.8 if at == "bottom" else (y0 + y1 - h) / 2)
    plate = Box((x0 + x1 - w) / 2, y, w, h)
    canvas.setFillColor(ctx.colour(str(spec.get("label_background", "#ffffff"))))
    canvas.rect(*frame.rect(plate), stroke=0, fill=1)
    canvas.setFillColor(ctx.colour(str(spec.get("border", "#000000"))))
    _centred(canvas, frame, plate, text, size)


def _title_block(canvas: Canvas, frame: Frame, component: YMap, box: Box, ctx: TextCtx) -> None:
    tb = component["title_block"]
    title = component_text(tb["text"], ctx, tb, "text") if "text" in tb else heading(component, ctx)
    sub = component_text(tb["subtitle"], ctx, tb, "subtitle") if "subtitle" in tb else ""
    align = str(tb.get("align", "center"))
    size = min(box.height * 0.55, 14 * PT * 2) / PT if not sub else box.height * 0.4 / PT
    title_h = text_height(title, size, box.width)
    sub_h = text_height(sub, size * 0.55, box.width) if sub else 0.0
    top = box.y + (box.height - title_h - sub_h) / 2
    draw_text(canvas, frame, Box(box.x, top, box.width, title_h), title, size, ctx, align)
    if sub:
        draw_text(canvas, frame, Box(box.x, top + title_h, box.width, sub_h), sub, size * 0.55, ctx, align)


# --- pages ------------------------------------------------------------------------------



@dataclass
class BoardPlan:
    layout: BoardLayout
    stack: Stack | None
    tiles: TilePlan
    pages: list[tuple[Rect, Rect, Frame]]  # per page: paper, trim (points), where the board lands
    bleed: float  # points


def plan_board(component: YMap, job: KitJob) -> tuple[BoardPlan, TextCtx]:
    """The board's layout and its pages: one if it fits (either way round), else tiles."""
    check_board(component)
    ctx = TextCtx(job, job.label(component), font_size=float(component.get("font_size", 9.0)))
    layout, stack = layout_board(component, ctx)
    marks = next((key for key in ("regions", "cells", "decorations") if key in component), None)
    ctx.drawn.add(marked_cells(component, layout), "regions and cells", where(component, marks))
    bleed = bleed_safe(component, job.options.preset, job.options.print_shop)[0] * mm
    w, h = layout.width, layout.height
    if job.options.print_shop:  # the page is the board plus its bleed: never tiled
        trim = Rect(bleed, bleed, w * mm, h * mm)
        tiles = plan_tiles(w, h, (w, h), 0.0, "portrait")
        return BoardPlan(layout, stack, tiles, [(trim.outset(bleed), trim, Frame(trim.x, trim.top))], bleed), ctx
    paper = component.get("paper")
    upright, turned = job.paper(paper), job.paper(paper, True)
    area_up, area_turned = printable(upright), printable(turned)
    orientation = "auto" if "landscape" not in component else ("landscape" if component["landscape"] else "portrait")
    overlap = float(component.get("overlap", 10.0))
    try:
        tiles = plan_tiles(w, h, (area_up.w / mm, area_up.h / mm), overlap, orientation,
                           (area_turned.w / mm, area_turned.h / mm))
    except ValueError as error:
        cause = "grid" if isinstance(error, TooManyTiles) and "overlap" not in component else "overlap"
        raise ContentError(f"{ctx.label}: {error}", **where(component, cause)) from None
    per_page = ctx.drawn.used  # a tile draws the whole board, clipped
    check_draws(per_page * len(tiles.tiles), f"{per_page:,} cells, labels and marks on each of "
                f"{len(tiles.tiles):,} tiles", where(component))
    page, area = (turned, area_turned) if tiles.landscape else (upright, area_up)
    pages = []
    for tile in tiles.tiles:  # each window centred in the printable area
        trim = Rect(area.x + (area.w - tile.width * mm) / 2, area.top - (area.h + tile.height * mm) / 2,
                    tile.width * mm, tile.height * mm)
        pages.append((page, trim, Frame(trim.x - tile.x * mm, trim.top + tile.y * mm)))
    return BoardPlan(layout, stack, tiles, pages, bleed), ctx


def draw_pages(canvas: Canvas, component: YMap, plan: BoardPlan, ctx: TextCtx) -> None:
    marks = alignment_marks(plan.tiles)
    for tile, (page, trim, frame) in zip(plan.tiles.tiles, plan.pages, strict=True):
        canvas.setPageSize((page.w, page.h))
        canvas.saveState()
        # a home page's bleed gives way where its crop marks need the room (page.marked_bleed)
        edge = (plan.bleed, plan.bleed) if ctx.job.options.print_shop else marked_bleed(page, trim, plan.bleed)
        if plan.tiles.tiled or edge != (plan.bleed, plan.bleed):  # only this tile's window (and its bleed) shows
            clip = canvas.beginPath()
            bleed_box = grown(trim, edge)
            clip.rect(bleed_box.x, bleed_box.y, bleed_box.w, bleed_box.h)
            canvas.clipPath(clip, stroke=0, fill=0)
        draw_board(canvas, frame, component, plan.layout, plan.stack, ctx, plan.bleed / mm)
        canvas.restoreState()
        caption: list[Rect] = []
        if plan.tiles.tiled:
            _tile_marks(canvas, frame, tile, plan, marks[(tile.column, tile.row)], ctx)
            caption.append(_tile_caption(canvas, page, trim, tile, plan, component, ctx))
        finish_page(canvas, page, [trim], edge, ctx.job, padding(component, ctx.job.options.preset) * mm, caption)


def _tile_marks(canvas: Canvas, frame: Frame, tile: Tile, plan: BoardPlan, points: list[tuple[float, float]],
                ctx: TextCtx) -> None:
    """Alignment targets (the same board spot on both tiles of a seam) and dashed lines
    where the right and lower neighbours begin: lay them over the dashes, targets on targets."""
    canvas.saveState()
    canvas.setStrokeColor(ctx.colour("#000000"))
    canvas.setLineWidth(0.35)
    for x, y in points:
        cx, cy = frame.x(x), frame.y(y)
        canvas.circle(cx, cy, 2.5 * mm, stroke=1, fill=0)
        canvas.line(cx - 4 * mm, cy, cx + 4 * mm, cy)
        canvas.line(cx, cy - 4 * mm, cx, cy + 4 * mm)
    canvas.setDash(2, 2)
    top, bottom = frame.y(tile.y), frame.y(tile.y + tile.height)
    left, right = frame.x(tile.x), frame.x(tile.x + tile.width)
    if tile.column + 1 < plan.tiles.columns:
        x = frame.x(plan.tiles.tile(tile.column + 1, tile.row).x)
        canvas.line(x, bottom, x, top)
    if tile.row + 1 < plan.tiles.rows:
        y = frame.y(plan.tiles.tile(tile.column, tile.row + 1).y)
        canvas.line(left, y, right, y)
    canvas.restoreState()


def _tile_caption(canvas: Canvas, page: Rect, trim: Rect, tile: Tile, plan: BoardPlan, component: YMap,
                  ctx: TextCtx) -> Rect:
    """Which tile this is and how to join it: above the tile, between its crop marks. The
    area it takes."""
    text = WORDS(
        "tile_caption", ctx.lang, title=component_text(component["title"], ctx, component, "title"), name=tile.name,
        index=plan.tiles.tiles.index(tile) + 1, count=len(plan.tiles.tiles), overlap=f"{plan.tiles.overlap:g}")
    room = trim.w - 6 * mm
    size = max(4.5, min(7.0, 7.0 * room / max(stringWidth(text, SANS, 7.0), 1)))
    canvas.setFillColor(ctx.colour("#000000"))
    canvas.setFont(SANS, size)
    ascent, descent = getAscentDescent(SANS, size)
    y = min(trim.top + plan.bleed + 2 * mm, page.top - EDGE - ascent)  # its letters EDGE inside (inkjets clip)
    canvas.drawString(trim.x + 3 * mm, y, text)
    return Rect(trim.x + 3 * mm, y + descent, stringWidth(text, SANS, size), ascent - descent)


# --- the component type interface -----------------------------------------------------


__all__ = ["BOUNDS", "SCHEMA", "check", "localized", "preview", "render", "safe_zone"]


def check(component: YMap, job: KitJob) -> list[str]:
    """Build-time problems: cells outside the grid, label counts, fields, images, overflow."""
    import io

    setup_fonts()
    def dry_run() -> None:  # drawing on nothing catches what drawing finds
        plan, ctx = plan_board(component, job)
        draw_pages(Canvas(io.BytesIO()), component, plan, ctx)

    return problems_of(dry_run)


def safe_zone(component: YMap, job: KitJob, planned: tuple[BoardPlan, TextCtx] | None = None) -> list[str]:
    """Text nearer the cut than the safe zone (validate's problems; a build warns): a
    padding narrower than it; else a decoration's text (elements.safe_breaches, at its
    line; `safe: off` lets it in), or any other text the board draws (labels, titles,
    marks, blocks), measured where its letters land. `planned`: the board's plan when the
    caller has it (drawing leaves a plan as it was)."""
    problems = padding_problem(component, job.options.preset)
    if problems:
        return problems
    plan, ctx = planned or plan_board(component, job)
    safe = bleed_safe(component, job.options.preset)[1]
    w, h = plan.layout.width * mm, plan.layout.height * mm
    if "decorations" in component:
        problems += safe_breaches(component["decorations"], Rect(0, 0, w, h), ctx.element_ctx(), safe * mm)
    rec = Recorder(w, h)
    bare = {key: value for key, value in component.items() if key != "decorations"}  # measured above
    draw_board(rec, Frame(0, h), bare, plan.layout, plan.stack, ctx)  # type: ignore[arg-type]
    key = "labels" if "labels" in component else "grid"
    return problems + drawn_text_problems(rec, (0, 0, w, h), safe, ctx.label, component, key)


def render(component: YMap, job: KitJob) -> list[Any]:
    """The board's PDF, build/<game>/<id>[-<lang>].pdf: one page, or one page per tile."""
    plan, ctx = plan_board(component, job)
    first = plan.pages[0][0]

    def draw(canvas: Canvas) -> int:
        draw_pages(canvas, component, plan, ctx)
        return len(plan.pages)

    size = f"{plan.layout.width:.0f}×{plan.layout.height:.0f} mm"
    tiles = plan.tiles
    note = (f"tiled {tiles.columns}×{tiles.rows} with {tiles.overlap:g} mm overlap" if tiles.tiled
            else "one page")
    warnings = [f"warning: {problem}" for problem in safe_zone(component, job, (plan, ctx))]
    return [write_pdf(job, component, (first.w, first.h), draw, "board", [f"{size}, {note}", *warnings])]


def preview(component: YMap, job: KitJob) -> list[Path]:
    """preview/<id>[-<lang>].svg (and its PNG twin): the whole board, untiled."""
    plan, ctx = plan_board(component, job)
    w, h = plan.layout.width * mm, plan.layout.height * mm
    fit = min(1.0, PREVIEW_SIDE / max(w, h))
    rec = Recorder(w * fit, h * fit)
    if fit < 1:  # a board of metres: its PNG stays about PREVIEW_SIDE pixels a side
        rec.scale(fit, fit)
    draw_board(rec, Frame(0, h), component, plan.layout, plan.stack, ctx)  # type: ignore[arg-type]
    tiles = plan.tiles
    caption = component_text(component["title"], ctx, component, "title") + (
        f" ({tiles.columns}×{tiles.rows} tiles)" if tiles.tiled else "")
    name = Path(job.out_path(str(component["id"])).name).with_suffix(".svg")
    return [save_preview(tile_sheet([(rec, caption)], columns=1), job.preview_dir() / name)]
