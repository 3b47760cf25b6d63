"""Tiling: a drawing larger than the paper split into overlapping page-sized windows.

All figures are millimetres in drawing space: origin at the drawing's top-left corner,
x to the right, y downwards. A drawing that fits the printable area is never tiled; a
larger one is cut into the fewest windows (trying both paper orientations unless one is
forced), every seam overlapping by exactly `overlap`. Alignment marks sit in the middle
of each overlap strip, at the same drawing position on both neighbouring tiles, so the
sheets line up when the marks are laid on top of each other.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from reportlab.lib.units import mm

from pnpgen.limits import MAX_PAGES

EPSILON = 1e-6  # mm: a drawing exactly the size of the area fits


@dataclass(frozen=True)
class Box:
    """A rectangle in drawing space (mm, origin top-left, y downwards)."""

    x: float
    y: float
    width: float
    height: float

    @property
    def right(self) -> float:
        return self.x + self.width

    @property
    def bottom(self) -> float:
        return self.y + self.height

    def inset(self, by: float) -> Box:
        return Box(self.x + by, self.y + by, self.width - 2 * by, self.height - 2 * by)


@dataclass(frozen=True)
class Frame:
    """Where drawing space lands on the page: the drawing's top-left corner in points."""

    left: float
    top: float

    def x(self, x: float) -> float:
        return self.left + x * mm

    def y(self, y: float) -> float:
        return self.top - y * mm

    def rect(self, box: Box) -> tuple[float, float, float, float]:
        """(x, y, width, height) in points, origin bottom-left, as ReportLab draws."""
        return (self.left + box.x * mm, self.top - box.bottom * mm, box.width * mm, box.height * mm)


@dataclass(frozen=True)
class Tile:
    column: int  # 0-based, left to right
    row: int  # 0-based, top to bottom
    x: float  # window origin in the drawing (mm)
    y: float
    width: float  # window size (mm)
    height: float

    @property
    def name(self) -> str:
        """'A1', 'B1', ... : column letter, row number (as printed on the tile)."""
        return f"{column_letter(self.column)}{self.row + 1}"

    def contains(self, x: float, y: float) -> bool:
        return self.x - EPSILON <= x <= self.x + self.width + EPSILON and \
            self.y - EPSILON <= y <= self.y + self.height + EPSILON


@dataclass(frozen=True)
class TilePlan:
    landscape: bool  # paper turned
    columns: int
    rows: int
    overlap: float
    tiles: tuple[Tile, ...]

    @property
    def tiled(self) -> bool:
        return len(self.tiles) > 1

    def tile(self, column: int, row: int) -> Tile:
        return self.tiles[row * self.columns + column]


def column_letter(index: int) -> str:
    letters = ""
    index += 1
    while index:
        index, rest = divmod(index - 1, 26)
        letters = chr(ord("A") + rest) + letters
    return letters


def fits(width: float, height: float, area: tuple[float, float]) -> bool:
    return width <= area[0] + EPSILON and height <= area[1] + EPSILON


class TooManyTiles(ValueError):
    """The drawing needs more than MAX_PAGES tiles."""


def _count(length: float, room: float, overlap: float) -> int:
    """How many windows of at most `room` cover `length`, seams overlapping by `overlap`."""
    if length <= room + EPSILON:
        return 1
    if overlap >= room:
        raise ValueError(f"overlap {overlap:g} mm leaves no room on a {room:g} mm page area")
    return math.ceil((length - overlap) / (room - overlap) - EPSILON)


def tile_count(width: float, height: float, area: tuple[float, float], overlap: float) -> int:
    return _count(width, area[0], overlap) * _count(height, area[1], overlap)


def _spans(length: float, room: float, overlap: float) -> list[tuple[float, float]]:
    """(start, size) windows covering `length` with at most `room` each, seams overlapping by `overlap`."""
    count = _count(length, room, overlap)
    if count == 1:
        return [(0.0, length)]
    size = (length + (count - 1) * overlap) / count  # equal windows, exact overlap
    return [(i * (size - overlap), size) for i in range(count)]


def plan_for(width: float, height: float, area: tuple[float, float], overlap: float,
             landscape: bool) -> TilePlan:
    """The tiling of a width x height drawing on one paper orientation (area already turned);
    TooManyTiles beyond MAX_PAGES tiles."""
    columns, rows_count = _count(width, area[0], overlap), _count(height, area[1], overlap)
    if columns * rows_count > MAX_PAGES:
        raise TooManyTiles(f"the board needs {columns:,} × {rows_count:,} tiles; the limit is {MAX_PAGES:,} pages "
                           "in one file")
    cols = _spans(width, area[0], overlap)
    rows = _spans(height, area[1], overlap)
    tiles = tuple(Tile(c, r, x, y, w, h)
                  for r, (y, h) in enumerate(rows) for c, (x, w) in enumerate(cols))
    return TilePlan(landscape, len(cols), len(rows), overlap, tiles)


def plan_tiles(width: float, height: float, area: tuple[float, float], overlap: float = 10.0,
               orientation: str = "auto", turned: tuple[float, float] | None = None) -> TilePlan:
    """Tile a drawing onto pages whose printable area is `area` (portrait width, height);
    `turned` is the printable area of the landscape page (default: `area` turned).

    orientation 'portrait' or 'landscape' forces the paper; 'auto' prefers portrait, turns
    the paper when that avoids tiling, and otherwise takes the orientation with fewer pages.
    """
    turned = turned or (area[1], area[0])
    if orientation == "portrait":
        return plan_for(width, height, area, overlap, False)
    if orientation == "landscape":
        return plan_for(width, height, turned, overlap, True)
    if fits(width, height, area):
        return plan_for(width, height, area, overlap, False)
    if fits(width, height, turned):
        return plan_for(width, height, turned, overlap, True)
    landscape = tile_count(width, height, turned, overlap) < tile_count(width, height, area, overlap)
    return plan_for(width, height, turned if landscape else area, overlap, landscape)


def alignment_marks(plan: TilePlan) -> dict[tuple[int, int], list[tuple[float, float]]]:
    """Drawing positions of the alignment marks printed on each tile, keyed by (column, row).

    Each seam gets two marks in the middle of its overlap strip, a quarter of the way in
    from each end of the shared edge; both tiles of the seam print them.
    """
    marks: dict[tuple[int, int], list[tuple[float, float]]] = {(t.column, t.row): [] for t in plan.tiles}
    for tile in plan.tiles:
        if tile.column + 1 < plan.columns:  # vertical seam with the right-hand neighbour
            right = plan.tile(tile.column + 1, tile.row)
            x = (right.x + tile.x + tile.width) / 2
            for f in (0.25, 0.75):
                point = (x, tile.y + tile.height * f)
                marks[(tile.column, tile.row)].append(point)
                marks[(right.column, right.row)].append(point)
        if tile.row + 1 < plan.rows:  # horizontal seam with the neighbour below
            below = plan.tile(tile.column, tile.row + 1)
            y = (below.y + tile.y + tile.height) / 2
            for f in (0.25, 0.75):
                point = (tile.x + tile.width * f, y)
                marks[(tile.column, tile.row)].append(point)
                marks[(below.column, below.row)].append(point)
    return marks
