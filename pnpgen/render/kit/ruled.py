"""The one drawer of the print kit's tables (ReportLab): cells shaded, ruled and lettered in one
look, the sheets' (0.5 pt rules, an outline 2.4 times as heavy, a warm header, text centred in
its cell's height, a caption at a cell's top in grey).

Two callers place the cells their own way and draw them here: a sheet's `table` block
(blocks.Table: columns shared out, text wrapped, rows grown to fit) and a card's or board's
`table` element (elements.draw_table: one-line cells, the text shrunk until the grid fits its
box). Lengths are in mm in drawing space (a Frame puts it on the page), sizes in points.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from reportlab.lib import colors
from reportlab.lib.units import mm
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas

from pnpgen.render.colour import make_colour
from pnpgen.render.fonts import SANS, setup_fonts
from pnpgen.render.kit.page import Rect
from pnpgen.render.kit.richtext import LEADING, Paint, TextLayout, break_lines, draw_layout, tokenize
from pnpgen.render.kit.tiling import Box, Frame

PT = 1 / mm  # one point in millimetres
LINE_WIDTH = 0.5  # pt: the rules between cells
OUTLINE = 2.4  # the outline and the borders of column groups, times LINE_WIDTH
HEADER = "#d9d0c3"  # table headers
GREY = "#555555"  # captions
PAD = 1.0  # mm inside table cells
CAPTION = 0.7  # caption size relative to the cell text
MIN_CAPTION = 4.0  # pt: a caption shrinks to fit its cell no further (then it wraps)
CAPTION_INSET = 0.8  # mm between a caption and its cell's sides


@dataclass
class Cell:
    row: int
    col: int
    text: str = ""
    caption: str = ""
    rows: int = 1  # span
    cols: int = 1
    shade: str | None = None
    align: str = "center"
    size: float = 9.0


@dataclass(frozen=True)
class Ink:
    """The colours a table is drawn in (a card's table may set its own)."""

    stroke: str = "#000000"
    text: str = "#000000"


class PlainPaint:
    """Colours in RGB and no icons: what a page outside the print kit (a report) draws with."""

    def colour(self, spec: str) -> colors.Color:
        return make_colour(spec)

    def icon(self, canvas: Canvas, name: str, area: Rect) -> None:
        raise ValueError(f"no icon ':{name}:' outside the print kit")


def one_line(text: str, size: float, width: float) -> float:
    """`size`, or smaller so that `text` fits on one line `width` mm wide (a cell of a fixed height)."""
    natural = natural_width(text, 1.0)
    return size if natural * size <= width or natural <= 0 else width / natural


def layout_text(text: str, size: float, width: float) -> TextLayout:
    """`text` (rich text, see elements.py) broken into lines `width` mm wide."""
    setup_fonts()
    lines, _ = break_lines(tokenize(text, {}), SANS, size, width * mm)
    return TextLayout(lines, SANS, size, LEADING)


def text_height(text: str, size: float, width: float) -> float:
    """Height in mm of `text` wrapped to `width` mm."""
    return layout_text(text, size, width).height * PT if text else 0.0


def natural_width(text: str, size: float) -> float:
    """Width in mm of the longest line of `text` set on one line."""
    setup_fonts()
    return max((stringWidth(line, SANS, size) for line in text.split("\n")), default=0.0) * PT


def caption_size(cell: Cell, width: float) -> float:
    """A cell's caption size in points: CAPTION of its text, smaller so that it fits on
    one line in the cell's `width` mm (down to MIN_CAPTION; below that it wraps)."""
    size = cell.size * CAPTION
    room = width - 2 * CAPTION_INSET
    natural = natural_width(cell.caption, 1.0)
    if natural * size <= room or natural <= 0:
        return size
    return max(MIN_CAPTION, room / natural)


def caption_height(cell: Cell, width: float) -> float:
    """Height in mm a cell's caption takes at its top (0 without one)."""
    if not cell.caption:
        return 0.0
    return text_height(cell.caption, caption_size(cell, width), width - 2 * CAPTION_INSET) + 0.1 * cell.size * PT


def draw_cells(canvas: Canvas, frame: Frame, placed: Sequence[tuple[Cell, Box]], outline: Box, paint: Paint,
               ink: Ink = Ink(), edges: Sequence[float] = ()) -> None:
    """Each cell in its box: its shade, its rules, its caption and its text; then `outline`
    (the whole table) and the vertical borders at `edges` (x in mm), heavier."""
    for cell, b in placed:
        if cell.shade is not None:
            canvas.setFillColor(paint.colour(cell.shade))
            canvas.rect(*frame.rect(b), stroke=0, fill=1)
    canvas.setStrokeColor(paint.colour(ink.stroke))
    canvas.setLineWidth(LINE_WIDTH)
    for cell, b in placed:
        canvas.rect(*frame.rect(b), stroke=1, fill=0)
        top = b.y
        if cell.caption:  # inside its cell: shrunk to fit, else wrapped
            room = Box(b.x + CAPTION_INSET, b.y, b.width - 2 * CAPTION_INSET, caption_height(cell, b.width))
            _text(canvas, frame, room, cell.caption, caption_size(cell, b.width), paint, "left", "top", GREY)
            top += room.height
        if cell.text:
            inner = Box(b.x + PAD, top, b.width - 2 * PAD, b.bottom - top)
            _text(canvas, frame, inner, cell.text, cell.size, paint, cell.align, "middle", ink.text)
    canvas.setLineWidth(LINE_WIDTH * OUTLINE)
    canvas.rect(*frame.rect(outline), stroke=1, fill=0)
    for edge in edges:
        x = frame.x(edge)
        canvas.line(x, frame.y(outline.y), x, frame.y(outline.bottom))


def _text(canvas: Canvas, frame: Frame, box: Box, text: str, size: float, paint: Paint, align: str, valign: str,
          colour: str) -> None:
    draw_layout(canvas, layout_text(text, size, box.width), Rect(*frame.rect(box)), align, valign, paint, colour)
