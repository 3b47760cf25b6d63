"""Blocks shared by sheets and boards: tables, checkbox rows, write-in boxes, text and rows
of blocks, laid out top to bottom (a Stack); the text context they fill `{{ name }}` from
(TextCtx); the page furniture of both (margins, crop marks and the check ruler). All lengths
are millimetres in drawing space (see tiling.Box / tiling.Frame); font sizes are points.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import Any

from reportlab.lib.units import mm
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfgen.canvas import Canvas

from pnpgen.content.game import GameContent
from pnpgen.content.schema import Any_, Choice, Each, OneOf, Schema, Text, text_for
from pnpgen.content.schema import check as schema_check
from pnpgen.content.yamlpos import YList, YMap, load_yaml, where
from pnpgen.engine.protocol import Rules
from pnpgen.errors import BuildError, ContentError
from pnpgen.limits import MAX_GRID_CELLS
from pnpgen.render.colour import make_colour
from pnpgen.render.fonts import SANS, setup_fonts
from pnpgen.render.kit.bounds import (
    FONT,
    LENGTH,
    REPEAT,
    SIZE,
    Budget,
    check_bounds,
)
from pnpgen.render.kit.deck import read_csv
from pnpgen.render.kit.elements import (
    LEADING,
    Align,
    ElementContext,
    fill_fields,
    main_key,
    table_model,
)
from pnpgen.render.kit.page import (
    Bleed,
    KitJob,
    Rect,
    component_title,
    crop_mark_lines,
    draw_crop_marks,
    draw_cut_path,
    draw_guides,
    draw_page_ruler,
    draw_proof_slug,
    grown,
    ruler_area,
    set_page_boxes,
    union,
)
from pnpgen.render.kit.richtext import draw_layout, tokenize
from pnpgen.render.kit.ruled import (
    GREY,
    HEADER,
    PAD,
    PT,
    Cell,
    caption_height,
    draw_cells,
    layout_text,
    natural_width,
    text_height,
)
from pnpgen.render.kit.tiling import Box, Frame

LINE: Schema = {"caption?": Text, "merge?": bool, "height?": float}


ROW: Schema = {
    "label?": OneOf(Text, int, float),
    "caption?": Text,
    "cells?": Each(OneOf(Text, int, float)),
    "repeat?": int,
    "height?": float,
    "shade?": bool,
    "merge?": bool,
    "lines?": Each(LINE, min=1),
}


COLUMN: Schema = {
    "header?": OneOf(Text, int),
    "repeat?": int,
    "width?": float,
    "field?": str,
    "lookup?": str,
    "template?": Text,
    "shade?": bool,
    "align?": Align,
}


GROUP: Schema = {"group": Text, "repeat?": int, "columns": Each(COLUMN, min=1)}


TABLE: Schema = {
    "columns?": Each(OneOf(GROUP, COLUMN), min=1),
    "rows?": Each(ROW),
    "from_rules?": str,
    "data?": OneOf(str, {"file": str}),
    "csv?": str,
    "header?": bool,
    "row_height?": float,
    "header_height?": float,
    "font_size?": float,
    "align?": Align,
}


BLOCKS: dict[str, Schema] = {
    "heading": {"heading": Text, "size?": float, "align?": Align},
    "text": {"text": Text, "size?": float, "align?": Align},
    "table": {"table": TABLE},
    "checkboxes": {
        "checkboxes": {"count": int, "label?": Text, "labels?": Each(OneOf(Text, int)), "size?": float,
                       "gap?": float, "shape?": Choice("square", "circle")},
    },
    "write_in": {"write_in": {"label?": Text, "lines?": int, "height?": float, "width?": float}},
    "space": {"space": float},
    "row": {"row": Each(Any_, min=1), "widths?": Each(float), "gap?": float},
}


BLOCK_BOUNDS: dict[str, Schema] = {  # Range bounds in the shape of the block
    "heading": {"size": FONT},
    "text": {"size": FONT},
    "table": {"table": {
        "columns": [{"repeat": REPEAT, "width": SIZE, "columns": [{"repeat": REPEAT, "width": SIZE}]}],
        "rows": [{"repeat": REPEAT, "height": SIZE, "lines": [{"height": SIZE}]}],
        "row_height": SIZE,
        "header_height": SIZE,
        "font_size": FONT,
    }},
    "checkboxes": {"checkboxes": {"count": REPEAT, "size": SIZE, "gap": LENGTH}},
    "write_in": {"write_in": {"lines": REPEAT, "height": SIZE, "width": SIZE}},
    "space": {"space": LENGTH},
    "row": {"widths": [LENGTH], "gap": LENGTH},
}


def block_kind(block: object, parent: object, key: object, path: str) -> str:
    """Which block `block` is (its one main key); ContentError with did-you-mean if none."""
    return main_key(block, list(BLOCKS), parent, key, path, "a block", "'table:' or 'text:'", "several kinds")


def check_blocks(blocks: Sequence[Any], path: str) -> None:
    for index, block in enumerate(blocks):
        here = f"{path}[{index}]"
        kind = block_kind(block, blocks, index, here)
        schema_check(block, BLOCKS[kind], blocks, index, here)
        check_bounds(block, BLOCK_BOUNDS[kind], here)
        if kind == "row":
            check_blocks(block["row"], f"{here}.row")
        if kind == "table":
            _check_table(block["table"], f"{here}.table")


def _check_table(table: YMap, path: str) -> None:
    sources = [k for k in ("from_rules", "data", "csv") if k in table]
    if len(sources) > 1:
        raise ContentError(f"{path}: give one of 'from_rules', 'data' or 'csv', not {' and '.join(sources)}",
                           **where(table, sources[1]))
    source = sources[0] if sources else None
    if source in ("data", "csv") and not any("field" in c or "template" in c
                                             for c in _leaf_specs(table.get("columns") or [])):
        raise ContentError(f"{path}: a '{source}' table needs columns with 'field'", **where(table, source))
    if not {"columns", "from_rules"} & set(table):
        raise ContentError(f"{path}: a table needs 'columns' (or 'from_rules')", **where(table))


def _leaf_specs(columns: Sequence[Any]) -> list[Any]:
    out: list[object] = []
    for col in columns:
        out += list(col["columns"]) if "group" in col else [col]
    return out


@dataclass
class TextCtx:
    """What blocks need: the job (language, game, rules, options), how errors name the
    component, `{{ name }}` values of repeated rows and columns, the default font size."""

    job: KitJob
    label: str  # "game <g>, component <c>", named in build errors
    values: dict[str, object] = field(default_factory=dict)
    font_size: float = 9.0
    drawn: Budget = field(default_factory=Budget)  # shared by with_values copies

    @property
    def lang(self) -> str:
        return self.job.text_lang

    @property
    def content(self) -> GameContent:
        return self.job.content

    @property
    def rules(self) -> Sequence[Rules[Any, Any]]:
        return self.job.rules

    def with_values(self, **values: object) -> TextCtx:
        return replace(self, values={**self.values, **values})

    def element_ctx(self) -> ElementContext:
        """The elements.py context: `{{ field }}` values are ours, then the rules' rulebook context."""
        return ElementContext(self.job, self.label, fields=self.values, font_size=self.font_size,
                              cmyk=self.job.options.print_shop)

    def colour(self, spec: str) -> object:
        """A colour, in CMYK for print-shop files."""
        try:
            return make_colour(spec, self.job.options.print_shop)
        except ValueError as error:
            raise BuildError(f"{self.label}: {error}") from None


def component_text(value: Any, ctx: TextCtx, parent: Any = None, key: Any = None) -> str:
    """A component's Text (or number) as printed: in the job's language, its `{{ name }}`
    placeholders filled in (row/column numbers `{{ n }}`, `{{ m }}`, then the rules' rulebook
    context such as `{{ threshold }}`; elements.fill_fields), every character in the font."""
    return printable_text(fill_fields(ctx.job.text(value), ctx.element_ctx(), parent, key), ctx, parent, key)


def heading(component: YMap, ctx: TextCtx) -> str:
    """The component's title as printed: in the job's language, both for a neutral build."""
    return printable_text(component_title(component, ctx.job), ctx, component, "title")


LOOKALIKES = {"≤": "≦", "≥": "≧", "≠": "≢"}  # in the font under another code


def printable_text(text: str, ctx: TextCtx, parent: object = None, key: object = None) -> str:
    """`text`, or a BuildError when the bundled font has no glyph for one of its characters
    (it would print as a blank)."""
    setup_fonts()
    cmap = pdfmetrics.getFont(SANS).face.charToGlyph
    missing = sorted({ch for ch in text if ord(ch) not in cmap and not ch.isspace()})
    if missing:
        ch = missing[0]
        hint = f"; write '{LOOKALIKES[ch]}' instead" if ch in LOOKALIKES else ""
        raise BuildError(f"{ctx.label}: '{ch}' (U+{ord(ch):04X}) is not in the bundled font and would print "
                         f"as a blank{hint}", **where(parent, key, value=True))
    return text


def plain(value: object, lang: str) -> str:
    """A data value as printed text: Text in the language, lists joined with commas."""
    if isinstance(value, dict):
        return text_for(value, lang)
    if isinstance(value, list):
        return ", ".join(" ".join(plain(v, lang) for v in item) if isinstance(item, list)
                         else plain(item, lang) for item in value)
    if isinstance(value, bool):
        return "✓" if value else ""
    return "" if value is None else str(value)


def draw_text(canvas: Canvas, frame: Frame, box: Box, text: str, size: float, ctx: TextCtx,
              align: str = "left", valign: str = "top", colour: str = "#000000") -> None:
    if text:
        draw_layout(canvas, layout_text(text, size, box.width), page_rect(frame, box), align, valign,
                    ctx.element_ctx(), colour)


def page_rect(frame: Frame, box: Box) -> Rect:
    return Rect(*frame.rect(box))


LIGHT = "#e9e4dc"  # shaded cells (totals)
GAP = 3.0  # mm between blocks
MIN_SIZE = 5.0  # pt: table text shrinks no further


def fitting_size(text: str, size: float, width: float) -> float:
    """`size`, or smaller (down to MIN_SIZE) so that the text's widest unbreakable piece (an
    English word; Japanese breaks between characters) fits `width` mm."""
    words = [t.text for t in tokenize(text, {}) if t.kind == "word"]
    widest = max((natural_width(w, 1.0) for w in words), default=0.0)
    if widest * size <= width:
        return size
    return max(MIN_SIZE, width / widest)


class Block:
    """One block of a sheet: measured for a width (mm), then drawn into a box."""

    def height(self, width: float) -> float:
        raise NotImplementedError

    def draw(self, canvas: Canvas, frame: Frame, box: Box, ctx: TextCtx) -> None:
        raise NotImplementedError


@dataclass
class TextBlock(Block):
    text: str
    size: float
    align: str = "left"
    rule: bool = False  # a heading: a line underneath

    def height(self, width: float) -> float:
        return text_height(self.text, self.size, width) + (1.5 if self.rule else 0)

    def draw(self, canvas: Canvas, frame: Frame, box: Box, ctx: TextCtx) -> None:
        draw_text(canvas, frame, box, self.text, self.size, ctx, self.align)
        if self.rule:
            canvas.setLineWidth(0.8)
            canvas.setStrokeColor(ctx.colour(GREY))
            y = frame.y(box.bottom - 0.5)
            canvas.line(frame.x(box.x), y, frame.x(box.right), y)


@dataclass
class Space(Block):
    size: float

    def height(self, width: float) -> float:
        return self.size

    def draw(self, canvas: Canvas, frame: Frame, box: Box, ctx: TextCtx) -> None:
        return None


@dataclass
class Checkboxes(Block):
    """A label then a row of boxes to tick (pass boxes, reroll boxes, rounds)."""

    label: str
    count: int
    size: float = 5.0
    gap: float = 2.0
    shape: str = "square"
    labels: list[str] = field(default_factory=list)  # small text under each box
    font_size: float = 9.0

    def label_width(self) -> float:
        return natural_width(self.label, self.font_size) + 2 if self.label else 0.0

    def height(self, width: float) -> float:
        under = self.font_size * 1.1 * PT if self.labels else 0.0
        return max(self.size + under, self.font_size * LEADING * PT)

    def boxes(self, box: Box) -> list[Box]:
        x = box.x + self.label_width()
        return [Box(x + i * (self.size + self.gap), box.y, self.size, self.size) for i in range(self.count)]

    def draw(self, canvas: Canvas, frame: Frame, box: Box, ctx: TextCtx) -> None:
        if self.label:
            label_box = Box(box.x, box.y, self.label_width(), self.size)
            draw_text(canvas, frame, label_box, self.label, self.font_size, ctx, valign="middle")
        canvas.setLineWidth(0.8)
        canvas.setStrokeColor(ctx.colour("#000000"))
        for i, b in enumerate(self.boxes(box)):
            x, y, w, h = frame.rect(b)
            if self.shape == "circle":
                canvas.circle(x + w / 2, y + h / 2, w / 2, stroke=1, fill=0)
            else:
                canvas.rect(x, y, w, h, stroke=1, fill=0)
            if i < len(self.labels):
                canvas.setFont(SANS, self.font_size * 0.75)
                canvas.setFillColor(ctx.colour(GREY))
                canvas.drawCentredString(x + w / 2, y - self.font_size * 0.8, self.labels[i])


@dataclass
class WriteIn(Block):
    """A labelled box to write in, optionally ruled into lines."""

    label: str
    lines: int = 1
    line_height: float = 9.0
    width: float | None = None
    font_size: float = 9.0

    def height(self, width: float) -> float:
        return self.lines * self.line_height

    def draw(self, canvas: Canvas, frame: Frame, box: Box, ctx: TextCtx) -> None:
        label_w = natural_width(self.label, self.font_size) + 2 if self.label else 0.0
        if self.label:
            draw_text(canvas, frame, Box(box.x, box.y, label_w, self.line_height), self.label,
                      self.font_size, ctx, valign="middle")
        w = min(self.width or box.width - label_w, box.width - label_w)
        area = Box(box.x + label_w, box.y, w, self.height(box.width))
        canvas.setLineWidth(0.8)
        canvas.setStrokeColor(ctx.colour("#000000"))
        canvas.rect(*frame.rect(area), stroke=1, fill=0)
        canvas.setLineWidth(0.3)
        canvas.setStrokeColor(ctx.colour(GREY))
        for i in range(1, self.lines):
            y = frame.y(area.y + i * self.line_height)
            canvas.line(frame.x(area.x), y, frame.x(area.right), y)


@dataclass
class Row(Block):
    """Blocks side by side."""

    blocks: list[Block]
    widths: list[float]  # mm; 0 = share what is left
    gap: float = 4.0

    def columns(self, box: Box) -> list[Box]:
        fixed = sum(self.widths)
        free = [w for w in self.widths if not w]
        share = (box.width - fixed - self.gap * (len(self.blocks) - 1)) / (len(free) or 1)
        x, out = box.x, []
        for w in self.widths:
            width = w or share
            out.append(Box(x, box.y, width, box.height))
            x += width + self.gap
        return out

    def height(self, width: float) -> float:
        cols = self.columns(Box(0, 0, width, 0))
        return max(b.height(c.width) for b, c in zip(self.blocks, cols, strict=True))

    def draw(self, canvas: Canvas, frame: Frame, box: Box, ctx: TextCtx) -> None:
        for block, col in zip(self.blocks, self.columns(box), strict=True):
            block.draw(canvas, frame, Box(col.x, col.y, col.width, block.height(col.width)), ctx)


@dataclass
class Column:
    header: str
    width: float | None  # mm; None: shared
    group: int | None = None
    shade: bool = False
    align: str = "center"
    field: str | None = None
    lookup: str | None = None
    spec: object = None
    template: object = None  # a text filled with the row's fields (data tables)


@dataclass
class Table(Block):
    columns: list[Column]
    groups: list[str]  # group titles; Column.group indexes them
    body: list[list[Cell]]  # cells of each body row (row/col filled in by layout)
    heights: list[float]  # minimum height of each body row
    header: bool = True
    header_height: float = 7.0
    font_size: float = 9.0
    _cache: dict[float, tuple[list[float], list[float], list[Cell]]] = field(default_factory=dict)

    def widths(self, width: float) -> list[float]:
        """Fixed widths as given; the others share what is left equally, except that a column
        whose text needs more gets it (all in proportion to their needs when room is short)."""
        free = [i for i, c in enumerate(self.columns) if not c.width]
        natural = {i: max(natural_width(self.columns[i].header, self.font_size) + 2 * PAD,
                          *(natural_width(cell.text, cell.size) + 2 * PAD
                            for row in self.body for cell in row if cell.col == i and cell.cols == 1))
                   for i in free}
        room = width - sum(c.width or 0 for c in self.columns)
        given: dict[int, float] = {}
        if sum(natural.values()) > room:
            total = sum(natural.values()) or 1
            given = {i: room * natural[i] / total for i in free}
        while len(given) < len(free):
            share = (room - sum(given.values())) / (len(free) - len(given))
            wide = [i for i in free if i not in given and natural[i] > share]
            if not wide:
                given.update({i: share for i in free if i not in given})
            given.update({i: natural[i] for i in wide})
        return [c.width or given[i] for i, c in enumerate(self.columns)]

    def cells(self, width: float) -> tuple[list[float], list[float], list[Cell]]:
        """Column widths, row heights and every cell (header rows first)."""
        if width in self._cache:
            return self._cache[width]
        widths = self.widths(width)
        cells: list[Cell] = []
        heights: list[float] = []
        if self.header:
            levels = 2 if self.groups else 1
            for i, col in enumerate(self.columns):
                if col.group is None:
                    cells.append(Cell(0, i, col.header, rows=levels, shade=HEADER, size=self.font_size))
                else:
                    cells.append(Cell(levels - 1, i, col.header, shade=HEADER, size=self.font_size))
            for g, title in enumerate(self.groups):
                members = [i for i, c in enumerate(self.columns) if c.group == g]
                cells.append(Cell(0, members[0], title, cols=len(members), shade=HEADER, size=self.font_size))
            heights += [self.header_height] * levels
        first = len(heights)
        for row in self.body:
            cells += [replace(cell, row=cell.row + first) for cell in row]
        heights += self.heights
        # a word wider than its cell shrinks the cell's text; rows grow to fit wrapped text
        # (a cell spanning rows grows its last row)
        for cell in cells:
            w = sum(widths[cell.col:cell.col + cell.cols]) - 2 * PAD
            cell.size = fitting_size(cell.text, cell.size, w)
            need = (text_height(cell.text, cell.size, w) + 2 * PAD if cell.text else 0) + \
                caption_height(cell, w + 2 * PAD)
            have = sum(heights[cell.row:cell.row + cell.rows])
            if need > have:
                heights[cell.row + cell.rows - 1] += need - have
        self._cache[width] = (widths, heights, cells)
        return widths, heights, cells

    def height(self, width: float) -> float:
        return sum(self.cells(width)[1])

    def cell_boxes(self, box: Box) -> list[tuple[Cell, Box]]:
        widths, heights, cells = self.cells(box.width)
        xs = [box.x + sum(widths[:i]) for i in range(len(widths) + 1)]
        ys = [box.y + sum(heights[:i]) for i in range(len(heights) + 1)]
        return [(c, Box(xs[c.col], ys[c.row], xs[c.col + c.cols] - xs[c.col], ys[c.row + c.rows] - ys[c.row]))
                for c in cells]

    def draw(self, canvas: Canvas, frame: Frame, box: Box, ctx: TextCtx) -> None:
        widths, heights, _ = self.cells(box.width)
        edges = [box.x + sum(widths[:edge]) for g in range(len(self.groups))
                 for members in [[i for i, c in enumerate(self.columns) if c.group == g]]
                 for edge in (members[0], members[-1] + 1)]
        draw_cells(canvas, frame, self.cell_boxes(box), Box(box.x, box.y, box.width, sum(heights)),
                   ctx.element_ctx(), edges=edges)


def table_cells(spec: YMap, rows: int, columns: int) -> int:
    """rows × columns of a table's body, refused over MAX_GRID_CELLS."""
    if rows * columns > MAX_GRID_CELLS:
        shape = f"{columns:,} columns" if rows == 1 else f"{rows:,} rows × {columns:,} columns"
        raise ContentError(f"table: {shape} is {rows * columns:,} cells; the limit is {MAX_GRID_CELLS:,}",
                           **where(spec))
    return rows * columns


def _repeat(spec: Any) -> int:
    return int(spec.get("repeat", 1))


def _body_lines(spec: Any) -> int:
    """The body rows one repetition of a row spec makes (see _body_rows)."""
    if "cells" in spec or not ("lines" in spec or spec.get("merge")):
        return 1
    return len(spec.get("lines") or [{}])


def make_table(spec: YMap, ctx: TextCtx) -> Table:
    size = float(spec.get("font_size", ctx.font_size))
    align = str(spec.get("align", "center"))
    width = sum(_repeat(c) * (sum(_repeat(leaf) for leaf in c["columns"]) if "group" in c else 1)
                for c in spec.get("columns") or [])
    table_cells(spec, 1, width)  # before the columns are made
    columns: list[Column] = []
    groups: list[str] = []
    for col_spec in spec.get("columns") or []:
        if "group" in col_spec:
            for n in range(1, int(col_spec.get("repeat", 1)) + 1):
                sub = ctx.with_values(n=n)
                groups.append(component_text(col_spec["group"], sub, col_spec, "group"))
                for leaf in col_spec["columns"]:
                    for m in range(1, int(leaf.get("repeat", 1)) + 1):
                        columns.append(_column(leaf, sub.with_values(m=m), len(groups) - 1, align))
        else:
            for n in range(1, int(col_spec.get("repeat", 1)) + 1):
                columns.append(_column(col_spec, ctx.with_values(n=n), None, align))
    data_rows: list[list[str]] = []
    if "from_rules" in spec:
        data_rows = [[printable_text(v, ctx, spec, "from_rules") for v in row] for row in _rules_table(spec, ctx)]
        if not columns and data_rows:
            columns = [Column(h, None, align=align) for h in data_rows[0]]
        data_rows = data_rows[1:]
    elif "data" in spec or "csv" in spec:
        data_rows = _data_rows(spec, columns, ctx)
    height = len(data_rows) + sum(_repeat(r) * _body_lines(r) for r in spec.get("rows") or [])
    ctx.drawn.add(table_cells(spec, height, len(columns)), "table", where(spec))
    row_height = float(spec.get("row_height", 7.0))
    body: list[list[Cell]] = []
    heights: list[float] = []
    for values in data_rows:
        body.append([Cell(len(body), i, values[i] if i < len(values) else "", align=columns[i].align, size=size,
                          shade=LIGHT if columns[i].shade else None) for i in range(len(columns))])
        heights.append(row_height)
    for row_spec in spec.get("rows") or []:
        for n in range(1, int(row_spec.get("repeat", 1)) + 1):
            _body_rows(row_spec, ctx.with_values(n=n), columns, size, row_height, body, heights)
    return Table(columns, groups, body, heights, header=bool(spec.get("header", True)),
                 header_height=float(spec.get("header_height", row_height)), font_size=size)


def _column(spec: YMap, ctx: TextCtx, group: int | None, align: str) -> Column:
    header = component_text(spec["header"], ctx, spec, "header") if "header" in spec else ""
    return Column(header, float(spec["width"]) if "width" in spec else None, group, bool(spec.get("shade")),
                  str(spec.get("align", align)), spec.get("field"), spec.get("lookup"), spec, spec.get("template"))


def _body_rows(spec: YMap, ctx: TextCtx, columns: list[Column], size: float, row_height: float,
               body: list[list[Cell]], heights: list[float]) -> None:
    """One row spec (one repetition) as one body row, or several when it has `lines`."""
    shade = LIGHT if spec.get("shade") else None
    label = component_text(spec["label"], ctx, spec, "label") if "label" in spec else ""
    caption = component_text(spec["caption"], ctx, spec, "caption") if "caption" in spec else ""
    height = float(spec.get("height", row_height))
    if "cells" in spec or not ("lines" in spec or spec.get("merge")):
        given = [component_text(v, ctx, spec["cells"], i) for i, v in enumerate(spec.get("cells") or [])]
        texts = given if given else [label]
        body.append([Cell(len(body), i, texts[i] if i < len(texts) else "", caption if i == 0 else "",
                          align=columns[i].align, size=size,
                          shade=shade or (LIGHT if columns[i].shade else None)) for i in range(len(columns))])
        heights.append(height)
        return
    lines = spec.get("lines") or [{"merge": True}]
    # a row of several lines: the first column spans them; the others are per line
    for k, line in enumerate(lines):
        line_caption = component_text(line["caption"], ctx, line, "caption") if "caption" in line else ""
        cells: list[Cell] = []
        if k == 0:
            cells.append(Cell(len(body), 0, label, caption, rows=len(lines), align=columns[0].align, size=size,
                              shade=shade))
        col = 1
        while col < len(columns):
            group = columns[col].group
            span = 1
            if line.get("merge") and group is not None:
                while col + span < len(columns) and columns[col + span].group == group:
                    span += 1
            cells.append(Cell(len(body), col, "", line_caption, cols=span, size=size,
                              shade=shade or (LIGHT if columns[col].shade and span == 1 else None)))
            col += span
        body.append(cells)
        heights.append(float(line.get("height", height)))


def _rules_table(spec: YMap, ctx: TextCtx) -> list[list[str]]:
    """Header and rows of rules.rulebook_table(name, lang): the tables the rulebook prints."""
    return table_model({"table": spec}, ctx.element_ctx()).lines


def _data_rows(spec: YMap, columns: list[Column], ctx: TextCtx) -> list[list[str]]:
    """Rows from a game.yaml path (`data:`) or a CSV file (`csv:`), one per item, the cells
    taken from each column's `field` (a field `x` also finds the CSV pair `x_ja`/`x_en`)."""
    key = "data" if "data" in spec else "csv"
    if key == "csv":
        items: object = [fields for fields, _, _ in read_csv(spec, ctx.job)]
    elif isinstance(spec["data"], dict):  # a YAML file of the game folder holding the list
        try:  # a refused path names the file: key
            path = ctx.content.path(str(spec["data"]["file"]))
        except ContentError as error:
            raise ContentError(error.message, **where(spec["data"], "file", value=True)) from None
        items = load_yaml(path)
    else:
        items = ctx.job.data_at(str(spec["data"]), spec, "data")
    if isinstance(items, dict):
        items = [{"key": k, **v} if isinstance(v, dict) else {"key": k, "value": v} for k, v in items.items()]
    if not isinstance(items, list):
        source = spec[key]["file"] if isinstance(spec[key], dict) else spec[key]
        raise ContentError(f"{ctx.label}: '{source}' is not a list or mapping",
                           **where(spec, key, value=True))
    table_cells(spec, len(items), len(columns))
    known = sorted({str(k) for item in items if isinstance(item, dict) for k in item})
    for col in columns:
        if col.field and col.field not in known:
            import difflib

            close = difflib.get_close_matches(col.field, known, n=1, cutoff=0.6)
            hint = f" (did you mean '{close[0]}'?)" if close else ""
            source = spec[key]["file"] if isinstance(spec[key], dict) else spec[key]
            raise ContentError(f"{ctx.label}: no row of '{source}' has the field '{col.field}'{hint}; "
                               f"fields: {', '.join(known)}", **where(col.spec, "field", value=True))
    rows = []
    for item in items:
        row = []
        for col in columns:
            if col.template is not None and isinstance(item, dict):  # the row's fields fill the text
                values = {**{str(k): v for k, v in item.items()}, "row": MappingProxyType(item)}
                row.append(component_text(col.template, ctx.with_values(**values), col.spec, "template"))
                continue
            value = item.get(col.field) if isinstance(item, dict) and col.field else None
            if col.lookup and value is not None:
                value = ctx.job.data_at(col.lookup.replace("{}", str(value)), col.spec, "lookup")
            row.append(printable_text(plain(value, ctx.lang), ctx, spec, key))
        rows.append(row)
    return rows


def make_block(spec: YMap, ctx: TextCtx) -> Block:
    kind = block_kind(spec, None, None, "block")
    size = float(spec.get("size", ctx.font_size))
    if kind in ("checkboxes", "write_in"):  # a table counts its own cells
        part = spec[kind]
        ctx.drawn.add(int(part.get("count" if kind == "checkboxes" else "lines", 1)), kind, where(spec, kind))
    elif kind != "table":
        ctx.drawn.add(1, kind, where(spec, kind))
    if kind == "heading":
        return TextBlock(component_text(spec["heading"], ctx, spec, "heading"),
                         float(spec.get("size", ctx.font_size * 1.5)), str(spec.get("align", "left")), rule=True)
    if kind == "text":
        return TextBlock(component_text(spec["text"], ctx, spec, "text"), size, str(spec.get("align", "left")))
    if kind == "space":
        return Space(float(spec["space"]))
    if kind == "table":
        return make_table(spec["table"], ctx)
    if kind == "checkboxes":
        c = spec["checkboxes"]
        return Checkboxes(component_text(c.get("label", ""), ctx, c, "label"), int(c["count"]),
                          float(c.get("size", 5.0)), float(c.get("gap", 2.0)), str(c.get("shape", "square")),
                          [component_text(v, ctx, c["labels"], i) for i, v in enumerate(c.get("labels") or [])],
                          ctx.font_size)
    if kind == "write_in":
        w = spec["write_in"]
        return WriteIn(component_text(w.get("label", ""), ctx, w, "label"), int(w.get("lines", 1)),
                       float(w.get("height", 9.0)), float(w["width"]) if "width" in w else None, ctx.font_size)
    items = spec["row"]
    widths = [float(w) for w in spec.get("widths") or []] + [0.0] * len(items)
    return Row([make_block(b, ctx) for b in items], widths[:len(items)], float(spec.get("gap", 4.0)))


@dataclass
class Stack:
    """Blocks laid out top to bottom with a gap between them."""

    blocks: list[Block]
    gap: float = GAP

    def height(self, width: float) -> float:
        heights = [b.height(width) for b in self.blocks]
        return sum(heights) + self.gap * max(len(heights) - 1, 0)

    def place(self, box: Box) -> list[tuple[Block, Box]]:
        y, out = box.y, []
        for block in self.blocks:
            h = block.height(box.width)
            out.append((block, Box(box.x, y, box.width, h)))
            y += h + self.gap
        return out

    def draw(self, canvas: Canvas, frame: Frame, box: Box, ctx: TextCtx) -> None:
        for block, b in self.place(box):
            block.draw(canvas, frame, b, ctx)


def make_stack(blocks: YList | list[Any], ctx: TextCtx) -> Stack:
    return Stack([make_block(b, ctx) for b in blocks])


def overflow(stack: Stack, box: Box, ctx: TextCtx, what: str, parent: object = None, key: object = None) -> None:
    """BuildError when the blocks are taller than their box."""
    need = stack.height(box.width)
    if need > box.height + 1e-6:
        raise BuildError(f"{ctx.label}: {what} is {need:.1f} mm tall but only {box.height:.1f} mm fit "
                         "(fewer rows, a smaller row_height or font_size, or larger paper)",
                         **where(parent, key))


MARGIN = 10.0  # mm of paper kept free on the top, left and right: crop marks live there


FOOT = 16.0  # mm kept free at the bottom: crop marks and the check ruler




def printable(page: Rect) -> Rect:
    """Where trims may go on a home-printed page (crop marks and ruler outside it)."""
    return Rect(page.x + MARGIN * mm, page.y + FOOT * mm, page.w - 2 * MARGIN * mm, page.h - (MARGIN + FOOT) * mm)


def finish_page(canvas: Canvas, page: Rect, trims: Sequence[Rect], bleed: Bleed, job: KitJob,
                safe: float = 0.0, reserved: Sequence[Rect] = ()) -> None:
    """Page boxes, crop marks, the check ruler and (--guides) proof lines, then the next page.
    `bleed` and `safe` in points; `reserved`, margin areas already used (a tile's caption).
    Print-shop pages carry boxes only: no marks, no ruler."""
    trim = union(list(trims))
    bleed_box = grown(trim, bleed)
    clipped = Rect(max(bleed_box.x, page.x), max(bleed_box.y, page.y), 0, 0)
    clipped = Rect(clipped.x, clipped.y, min(bleed_box.right, page.right) - clipped.x,
                   min(bleed_box.top, page.top) - clipped.y)
    set_page_boxes(canvas, trim, clipped)
    if job.options.print_shop:
        for t in trims:  # the cut path, in the CutContour spot colour
            draw_cut_path(canvas, t, 0, print_shop=True)
    else:
        draw_crop_marks(canvas, trims, bleed, page)
        draw_page_ruler(canvas, page, bleed_box, crop_mark_lines(trims, bleed, page), job.text_lang)
        if job.options.guides:
            for t in trims:
                draw_guides(canvas, t, bleed if isinstance(bleed, int | float) else min(bleed), safe)
            draw_proof_slug(canvas, page, trims, bleed, job.text_lang,
                            [*ruler_area(page, list(trims), bleed), *reserved])
    canvas.showPage()


def localized(component: YMap, content: GameContent) -> bool:
    """Built once per language when any text other than the title has ja and en forms, or
    a table comes from the rules (their tables are written in the build's language)."""

    def walk(value: object) -> bool:
        if isinstance(value, dict):
            if set(value) == {"ja", "en"} and value["ja"] != value["en"]:
                return True
            return "from_rules" in value or any(walk(v) for v in value.values())
        return isinstance(value, list) and any(walk(v) for v in value)

    return any(walk(v) for k, v in component.items() if k != "title")
