"""Imposition: where cards sit on the paper.

A Grid is a block of cards, `cols` × `rows`, centred on the page, neighbouring trims
`gap` apart. Each card's drawing area is its trim plus the bleed, except that towards a
neighbour the bleed stops halfway across the gap (so with the default gap of 0 cards
butt together and bleed only at the outside of the block). The layout picked is the
one that fits the most cards per page, trying both paper orientations.

Duplex: the backs page of a fronts page holds each card's back at the mirror image of
its front's slot: flipped left-right when the paper turns over on its long edge in
portrait (or on its short edge in landscape), else top-bottom.

Fold-over: one half of the page holds fronts, the other half their backs, mirrored
about the fold line (the cards' shared edge); backs are drawn turned by 180° so that a
card turned over sideways shows its back upright.
"""

from __future__ import annotations

from dataclasses import dataclass

from reportlab.lib.units import mm

from pnpgen.render.kit.page import CROP_GAP, EDGE, EPS, MIN_MARK, Rect, grown, union
from pnpgen.render.paper import paper_mm

# Card size presets, millimetres (portrait).
CARD_SIZES: dict[str, tuple[float, float]] = {
    "poker": (63.0, 88.0),
    "bridge": (57.0, 89.0),
    "euro": (59.0, 92.0),
    "mini": (44.0, 63.0),
    "tarot": (70.0, 120.0),
    "square": (70.0, 70.0),
}
DEFAULT_MARGIN = 3.0  # mm: least distance from the paper edge to the bleed edge
DUPLEX = ("long", "short")
# mm a cut line needs between the trim and the paper edge for its crop mark: the printer's
# dead band (EDGE), the mark's gap (CROP_GAP) and its shortest length (MIN_MARK). Where a
# home sheet's margin is narrower than this plus the bleed, the bleed at that edge of the
# block is dropped (as Squib's `trim` does), never the mark.
MARK_ROOM = (EDGE + CROP_GAP + MIN_MARK) / mm


@dataclass(frozen=True)
class Grid:
    """Card slots on one page (all lengths in points)."""

    page: Rect
    cols: int
    rows: int
    card_w: float
    card_h: float
    gap: float
    bleed: float
    edge: tuple[float, float] | None = None  # the bleed (x, y) at the outer edges of the block; None: `bleed`

    @property
    def outer(self) -> tuple[float, float]:
        """The bleed at the outer edges of the block (left/right, bottom/top), in points:
        less than `bleed` where the margin keeps room for the crop marks only without it."""
        return self.edge if self.edge is not None else (self.bleed, self.bleed)

    @property
    def per_page(self) -> int:
        return self.cols * self.rows

    @property
    def landscape(self) -> bool:
        return self.page.w > self.page.h

    @property
    def block(self) -> Rect:
        """The union of all trims (the page's TrimBox)."""
        w = self.cols * self.card_w + (self.cols - 1) * self.gap
        h = self.rows * self.card_h + (self.rows - 1) * self.gap
        return Rect(self.page.x + (self.page.w - w) / 2, self.page.y + (self.page.h - h) / 2, w, h)

    def trim(self, slot: int) -> Rect:
        """Slot `slot` (0-based, row by row from the top-left)."""
        col, row = slot % self.cols, slot // self.cols
        block = self.block
        return Rect(block.x + col * (self.card_w + self.gap),
                    block.top - (row + 1) * self.card_h - row * self.gap, self.card_w, self.card_h)

    def bleed_rect(self, slot: int) -> Rect:
        """The card's drawing area: full bleed outside the block, half the gap inside."""
        return clipped_bleed(self.trim(slot), self.block, self.bleed, self.gap, self.outer)

    @property
    def bleed_box(self) -> Rect:
        return grown(self.block, self.outer)

    def back_slot(self, slot: int, duplex: str) -> int:
        """The slot on the backs page behind `slot` on the fronts page."""
        col, row = slot % self.cols, slot // self.cols
        if flips_left_right(self.landscape, duplex):
            col = self.cols - 1 - col
        else:
            row = self.rows - 1 - row
        return row * self.cols + col


def flips_left_right(landscape: bool, duplex: str) -> bool:
    """Turning the paper over on its long edge swaps left and right on a portrait page
    (the long edge is upright); on a landscape page it swaps top and bottom."""
    return (duplex == "long") != landscape


def clipped_bleed(trim: Rect, block: Rect, bleed: float, gap: float,
                  outer: tuple[float, float] | None = None) -> Rect:
    """A card's drawing area: `outer` (x, y; default `bleed`) at the block's edges, half the
    gap (at most `bleed`) towards a neighbour."""
    inner = min(bleed, gap / 2)
    ox, oy = outer if outer is not None else (bleed, bleed)
    left = ox if trim.x <= block.x + EPS else inner
    right = ox if trim.right >= block.right - EPS else inner
    bottom = oy if trim.y <= block.y + EPS else inner
    top = oy if trim.top >= block.top - EPS else inner
    return Rect(trim.x - left, trim.y - bottom, trim.w + left + right, trim.h + bottom + top)


def card_size(size: str | tuple[float, float], landscape: bool = False) -> tuple[float, float]:
    """Card width and height in mm from a preset name or (width, height)."""
    w, h = CARD_SIZES[size] if isinstance(size, str) else size
    return (max(w, h), min(w, h)) if landscape else (w, h)


def fit_count(space: float, card: float, gap: float) -> int:
    """How many cards of length `card` fit in `space` with `gap` between them."""
    return max(0, int((space + gap + EPS) // (card + gap)))


def trim_margin(margin_mm: float, bleed_mm: float, marks: bool) -> float:
    """The least mm from the paper edge to the trims: with crop marks, room for them (the
    bleed is dropped where it would take that room); without, the margin and the bleed."""
    return max(margin_mm, MARK_ROOM) if marks else margin_mm + bleed_mm


def edge_bleed(space_mm: float, margin_mm: float, bleed_mm: float, marks: bool) -> float:
    """The bleed (points) at an outer edge of a block `space_mm` from the paper edge: all
    of it when the crop marks (and the margin) still find room beyond it, else what fits."""
    floor = max(margin_mm, MARK_ROOM) if marks else margin_mm
    return max(0.0, min(bleed_mm, space_mm - floor)) * mm


def grid_for(paper: str, landscape: bool, card_mm: tuple[float, float], bleed_mm: float, gap_mm: float,
             margin_mm: float = DEFAULT_MARGIN, marks: bool = True) -> Grid:
    pw, ph = paper_mm(paper, landscape)
    room = 2 * trim_margin(margin_mm, bleed_mm, marks)
    cols = fit_count(pw - room, card_mm[0], gap_mm)
    rows = fit_count(ph - room, card_mm[1], gap_mm)
    w = cols * card_mm[0] + max(cols - 1, 0) * gap_mm
    h = rows * card_mm[1] + max(rows - 1, 0) * gap_mm
    edge = (edge_bleed((pw - w) / 2, margin_mm, bleed_mm, marks), edge_bleed((ph - h) / 2, margin_mm, bleed_mm, marks))
    return Grid(Rect.mm(0, 0, pw, ph), cols, rows, card_mm[0] * mm, card_mm[1] * mm, gap_mm * mm, bleed_mm * mm,
                edge)


def best_grid(paper: str, card_mm: tuple[float, float], bleed_mm: float, gap_mm: float = 0.0,
              orientation: str = "auto", margin_mm: float = DEFAULT_MARGIN, marks: bool = True) -> Grid:
    """The paper orientation that fits the most cards (portrait on a tie); cols or rows
    may be 0 when the card does not fit at all (the caller reports it). With `marks`, every
    cut line keeps room for its crop marks (the outer bleed gives way: Grid.outer)."""
    options = {"portrait": [False], "landscape": [True], "auto": [False, True]}[orientation]
    grids = [grid_for(paper, landscape, card_mm, bleed_mm, gap_mm, margin_mm, marks) for landscape in options]
    return max(grids, key=lambda g: (g.per_page, not g.landscape))


@dataclass(frozen=True)
class Fold:
    """A fold-over page: fronts on one side of the fold line, backs on the other.

    `grid` describes the fronts half (its page is the half page). With `vertical_fold`
    the fold line is upright and fronts are on the left; else it is level and fronts
    are on top."""

    page: Rect
    grid: Grid
    vertical_fold: bool

    @property
    def per_page(self) -> int:
        return self.grid.per_page

    @property
    def fold_line(self) -> tuple[float, float, float, float]:
        if self.vertical_fold:
            x = self.page.x + self.page.w / 2
            return (x, self.page.y, x, self.page.top)
        y = self.page.y + self.page.h / 2
        return (self.page.x, y, self.page.right, y)

    def front(self, slot: int) -> Rect:
        return self.grid.trim(slot)

    def back(self, slot: int) -> Rect:
        """The mirror image of the front's trim about the fold line."""
        t = self.grid.trim(slot)
        if self.vertical_fold:
            x = self.page.x + self.page.w / 2
            return Rect(2 * x - t.right, t.y, t.w, t.h)
        y = self.page.y + self.page.h / 2
        return Rect(t.x, 2 * y - t.top, t.w, t.h)

    def front_bleed(self, slot: int) -> Rect:
        return self._no_bleed_at_fold(self.grid.bleed_rect(slot), self.front(slot))

    def back_bleed(self, slot: int) -> Rect:
        front = self.front_bleed(slot)
        t = self.grid.trim(slot)
        b = self.back(slot)
        if self.vertical_fold:  # mirrored: left and right bleeds swap
            return Rect(b.x - (front.right - t.right), front.y, front.w, front.h)
        return Rect(front.x, b.y - (front.top - t.top), front.w, front.h)

    def _no_bleed_at_fold(self, bleed: Rect, trim: Rect) -> Rect:
        """The fold is the card's edge: nothing is drawn past it."""
        if self.vertical_fold:
            right = min(bleed.right, self.page.x + self.page.w / 2)
            return Rect(bleed.x, bleed.y, right - bleed.x, bleed.h)
        bottom = max(bleed.y, self.page.y + self.page.h / 2)
        return Rect(bleed.x, bottom, bleed.w, bleed.top - bottom)

    @property
    def trims(self) -> list[Rect]:
        return [r for slot in range(self.per_page) for r in (self.front(slot), self.back(slot))]

    @property
    def block(self) -> Rect:
        return union(self.trims)


def fold_grid(paper: str, landscape: bool, vertical_fold: bool, card_mm: tuple[float, float], bleed_mm: float,
              gap_mm: float, margin_mm: float = DEFAULT_MARGIN, marks: bool = True) -> Fold:
    """Fronts packed against the fold line in their half of the page."""
    pw, ph = paper_mm(paper, landscape)
    page = Rect.mm(0, 0, pw, ph)
    room = trim_margin(margin_mm, bleed_mm, marks)  # on the outer side only: the fold side needs no margin
    if vertical_fold:
        cols = fit_count(pw / 2 - room, card_mm[0], gap_mm)
        rows = fit_count(ph - 2 * room, card_mm[1], gap_mm)
    else:
        cols = fit_count(pw - 2 * room, card_mm[0], gap_mm)
        rows = fit_count(ph / 2 - room, card_mm[1], gap_mm)
    w = cols * card_mm[0] + max(cols - 1, 0) * gap_mm
    h = rows * card_mm[1] + max(rows - 1, 0) * gap_mm
    # The fronts half-page is placed so that its centred block touches the fold line.
    half = Rect.mm(pw / 2 - w, 0, w, ph) if vertical_fold else Rect.mm(0, ph / 2, pw, h)
    space = (pw / 2 - w, (ph - h) / 2) if vertical_fold else ((pw - w) / 2, ph / 2 - h)
    edge = (edge_bleed(space[0], margin_mm, bleed_mm, marks), edge_bleed(space[1], margin_mm, bleed_mm, marks))
    grid = Grid(half, cols, rows, card_mm[0] * mm, card_mm[1] * mm, gap_mm * mm, bleed_mm * mm, edge)
    return Fold(page, grid, vertical_fold)


def best_fold(paper: str, card_mm: tuple[float, float], bleed_mm: float, gap_mm: float = 0.0,
              orientation: str = "auto", margin_mm: float = DEFAULT_MARGIN, marks: bool = True) -> Fold:
    options = {"portrait": [False], "landscape": [True], "auto": [False, True]}[orientation]
    folds = [fold_grid(paper, landscape, vertical, card_mm, bleed_mm, gap_mm, margin_mm, marks)
             for landscape in options for vertical in (False, True)]
    return max(folds, key=lambda f: (f.per_page, not f.page.w > f.page.h, not f.vertical_fold))
