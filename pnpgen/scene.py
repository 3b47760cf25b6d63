"""Pictures of positions as plain data: a Scene is a list of shapes in points, y down.

A game draws its states with the primitives here (grid with coordinates, die face with
pips or a number, token, arrow, highlighted cell, polyomino tile, small table) and
returns a Scene from `Presentation.draw`; render/diagram.py turns a Scene into a
ReportLab Drawing for the rulebook, `to_svg` below into SVG for `pnpgen referee --svg`.
Nothing here knows a game. Shapes carry a `role` ("cell", "die", ...): the renderers
draw every role-bearing shape with its role's own edge ink (ROLE_INK), so a test can
count what a page shows.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace

INK = "#222222"
GREY = "#8a8a8a"
PAPER = "#ffffff"
ACCENT = "#8a2b0e"  # the move: arrows and highlights
HIGHLIGHT = "#f6d8a8"
HEADER = "#e2d8cc"  # a table's header row
# each counted role's edge colour: close to INK, and used by nothing else on a page
ROLE_INK = {"cell": "#232323", "die": "#1e1e1e", "tile": "#262626", "row": "#242424"}

# pip positions on a 3x3 lattice (0..2, 0..2) for faces 1-9
PIPS: dict[int, tuple[tuple[int, int], ...]] = {
    1: ((1, 1),), 2: ((0, 0), (2, 2)), 3: ((0, 0), (1, 1), (2, 2)),
    4: ((0, 0), (2, 0), (0, 2), (2, 2)), 5: ((0, 0), (2, 0), (1, 1), (0, 2), (2, 2)),
    6: ((0, 0), (0, 1), (0, 2), (2, 0), (2, 1), (2, 2)),
    7: ((0, 0), (0, 1), (0, 2), (2, 0), (2, 1), (2, 2), (1, 1)),
    8: ((0, 0), (0, 1), (0, 2), (2, 0), (2, 1), (2, 2), (1, 0), (1, 2)),
    9: tuple((c, r) for r in range(3) for c in range(3)),
}


MM = 72.0 / 2.54 * 0.1  # points per millimetre, as ReportLab's `mm`
EPS = 1e-6  # points: rectangles this close touch


@dataclass(frozen=True)
class Rect:
    """A rectangle, the one pnpgen has: a shape of a scene (with its fill, stroke and role) and
    the geometry of a printed page (in points, origin bottom-left of the paper; render/kit)."""

    x: float
    y: float
    w: float
    h: float
    fill: str | None = None
    stroke: str | None = INK
    width: float = 0.6
    radius: float = 0.0
    role: str = ""

    @classmethod
    def mm(cls, x: float, y: float, w: float, h: float) -> Rect:
        """A rectangle given in millimetres, in points."""
        return cls(x * MM, y * MM, w * MM, h * MM)

    @property
    def right(self) -> float:
        return self.x + self.w

    @property
    def top(self) -> float:
        return self.y + self.h

    def inset(self, by: float) -> Rect:
        """Smaller on every side by `by` (negative: larger)."""
        return replace(self, x=self.x + by, y=self.y + by, w=self.w - 2 * by, h=self.h - 2 * by)

    def outset(self, by: float) -> Rect:
        return self.inset(-by)

    def box(self) -> tuple[float, float, float, float]:
        """(x0, y0, x1, y1), as PDF page boxes are written."""
        return (self.x, self.y, self.right, self.top)

    def in_mm(self) -> tuple[float, float, float, float]:
        return (self.x / MM, self.y / MM, self.w / MM, self.h / MM)

    def contains(self, other: Rect) -> bool:
        return (self.x - EPS <= other.x and self.y - EPS <= other.y
                and other.right <= self.right + EPS and other.top <= self.top + EPS)

    def overlaps(self, other: Rect) -> bool:
        return (self.x < other.right - EPS and other.x < self.right - EPS
                and self.y < other.top - EPS and other.y < self.top - EPS)

    def mirrored(self, page_width: float) -> Rect:
        """The same rectangle seen from the back of the sheet (flipped on the long edge
        of a portrait page: left and right swap)."""
        return replace(self, x=page_width - self.right)


@dataclass(frozen=True)
class Circle:
    x: float
    y: float
    r: float
    fill: str | None = INK
    stroke: str | None = None
    width: float = 0.6


@dataclass(frozen=True)
class Line:
    x1: float
    y1: float
    x2: float
    y2: float
    stroke: str = INK
    width: float = 0.8
    arrow: bool = False  # a head at (x2, y2)
    dash: bool = False


@dataclass(frozen=True)
class Polygon:
    points: tuple[tuple[float, float], ...]
    fill: str | None = None
    stroke: str | None = INK
    width: float = 0.6
    role: str = ""


@dataclass(frozen=True)
class Label:
    """Text centred on (x, y) (anchor "middle"), or starting/ending there."""

    x: float
    y: float
    text: str
    size: float = 7.0
    colour: str = INK
    anchor: str = "middle"  # start, middle, end


Shape = Rect | Circle | Line | Polygon | Label


@dataclass(frozen=True)
class Scene:
    width: float
    height: float
    shapes: tuple[Shape, ...] = ()

    def count(self, role: str) -> int:
        return sum(1 for s in self.shapes if isinstance(s, Rect | Polygon) and s.role == role)

    def moved(self, dx: float, dy: float) -> tuple[Shape, ...]:
        return tuple(shift(s, dx, dy) for s in self.shapes)


def shift(s: Shape, dx: float, dy: float) -> Shape:
    if isinstance(s, Line):
        return replace(s, x1=s.x1 + dx, y1=s.y1 + dy, x2=s.x2 + dx, y2=s.y2 + dy)
    if isinstance(s, Polygon):
        return replace(s, points=tuple((x + dx, y + dy) for x, y in s.points))
    return replace(s, x=s.x + dx, y=s.y + dy)


def text_width(text: str, size: float) -> float:
    """About how wide `text` sets at `size` (sans: Latin ~0.55 em, CJK 1 em), for margins."""
    return sum(size if ord(ch) > 0x2E7F else size * 0.56 for ch in text)


# --- composition ------------------------------------------------------------------------
def beside(scenes: Sequence[Scene], gap: float = 20.0, captions: Sequence[str] = (),
           arrow: bool = True) -> Scene:
    """Scenes in a row, top-aligned, each with its caption above, an arrow in each gap."""
    top = 10.0 if captions else 0.0
    shapes: list[Shape] = []
    x = 0.0
    height = max(s.height for s in scenes) + top
    for index, scene in enumerate(scenes):
        if index and arrow:
            mid = top + (height - top) / 2
            shapes.append(Line(x - gap + 3, mid, x - 3, mid, GREY, 1.2, arrow=True))
        if index < len(captions):
            shapes.append(Label(x + scene.width / 2, 4, captions[index], 7, GREY))
        shapes += scene.moved(x, top)
        x += scene.width + gap
    return Scene(x - gap, height, tuple(shapes))


def labelled(parts: Sequence[Scene], labels: Sequence[str], gap: float = 14.0, size: float = 7.5) -> Scene:
    """Parts in a row, bottom-aligned, each centred in a slot as wide as it or its label,
    with the label under it (a labelled picture of the table: "6 main dice", "score pad")."""
    slots = [max(p.width, text_width(label, size)) for p, label in zip(parts, labels, strict=True)]
    height = max(p.height for p in parts)
    shapes: list[Shape] = []
    x = 0.0
    for part, label, slot in zip(parts, labels, slots, strict=True):
        shapes += part.moved(x + (slot - part.width) / 2, height - part.height)
        shapes.append(Label(x + slot / 2, height + size + 2, label, size, INK))
        x += slot + gap
    return Scene(x - gap, height + size * 2 + 4, tuple(shapes))


def below(scenes: Sequence[Scene], gap: float = 8.0, captions: Sequence[str] = ()) -> Scene:
    """Scenes stacked, left-aligned, each with its caption above."""
    shapes: list[Shape] = []
    y = 0.0
    for index, scene in enumerate(scenes):
        if index < len(captions):
            shapes.append(Label(0, y + 4, captions[index], 7, GREY, "start"))
            y += 10
        shapes += scene.moved(0, y)
        y += scene.height + gap
    return Scene(max(s.width for s in scenes), y - gap, tuple(shapes))


# --- primitives ---------------------------------------------------------------------------
@dataclass(frozen=True)
class Grid:
    """A grid of `cols` x `rows` cells of side `cell`, its top-left corner at (x, y)."""

    cols: int
    rows: int
    cell: float
    x: float = 0.0
    y: float = 0.0

    def at(self, col: int, row: int) -> tuple[float, float]:
        """The top-left corner of a cell."""
        return self.x + col * self.cell, self.y + row * self.cell

    def centre(self, col: int, row: int) -> tuple[float, float]:
        x, y = self.at(col, row)
        return x + self.cell / 2, y + self.cell / 2

    def cells(self, fill: dict[tuple[int, int], str] | None = None, width: float = 0.5) -> list[Shape]:
        """Every cell as its own square (counted as "cell"); `fill` colours some."""
        fill = fill or {}
        return [Rect(*self.at(c, r), self.cell, self.cell, fill.get((c, r)), ROLE_INK["cell"], width, role="cell")
                for r in range(self.rows) for c in range(self.cols)]

    def labels(self, cols: Sequence[str] = (), rows: Sequence[str] = (), size: float = 6.5,
               right: Sequence[str] = (), bottom: Sequence[str] = ()) -> list[Shape]:
        """Coordinates: column labels above, row labels left (and optional right/bottom)."""
        out: list[Shape] = []
        for c, text in enumerate(cols):
            out.append(Label(self.centre(c, 0)[0], self.y - size * 0.9, text, size, GREY))
        for r, text in enumerate(rows):
            out.append(Label(self.x - size * 0.7, self.centre(0, r)[1], text, size, GREY, "end"))
        for r, text in enumerate(right):
            out.append(Label(self.x + self.cols * self.cell + size * 0.6, self.centre(0, r)[1], text, size,
                             GREY, "start"))
        for c, text in enumerate(bottom):
            out.append(Label(self.centre(c, 0)[0], self.y + self.rows * self.cell + size * 0.9, text, size, GREY))
        return out

    def highlight(self, col: int, row: int, colour: str = ACCENT, width: float = 1.6) -> Rect:
        """A cell outlined in the move's colour (drawn on top of its contents)."""
        x, y = self.at(col, row)
        inset = width / 2
        return Rect(x + inset, y + inset, self.cell - width, self.cell - width, None, colour, width)

    def arrow(self, start: tuple[int, int], end: tuple[int, int], colour: str = ACCENT,
              head: bool = True, lead: float = 0.3) -> Line:
        """An arrow from near the start cell's edge (`lead` cells from its centre) to short of
        the end cell's centre; without `head`, a plain segment between the centres."""
        (x1, y1), (x2, y2) = self.centre(*start), self.centre(*end)
        length = math.hypot(x2 - x1, y2 - y1) or 1.0
        k = self.cell * lead / length
        x1, y1 = x1 + (x2 - x1) * k, y1 + (y2 - y1) * k
        if not head:
            return Line(x1, y1, x2, y2, colour, 1.4)
        return arrow(x1, y1, x2, y2, colour, shorten=self.cell * 0.15)

    def route(self, cells: Sequence[tuple[int, int]], colour: str = ACCENT) -> list[Shape]:
        """A path through cells: segments, the last with a head."""
        out: list[Shape] = []
        for index, (a, b) in enumerate(zip(cells, cells[1:], strict=False)):
            last = index == len(cells) - 2
            out.append(self.arrow(a, b, colour, head=last, lead=0.4 if index == 0 else 0.0))
        return out


def arrow(x1: float, y1: float, x2: float, y2: float, colour: str = ACCENT, width: float = 1.4,
          shorten: float = 0.0) -> Line:
    length = math.hypot(x2 - x1, y2 - y1) or 1.0
    k = max(0.0, (length - shorten) / length)
    return Line(x1, y1, x1 + (x2 - x1) * k, y1 + (y2 - y1) * k, colour, width, arrow=True)


def die(x: float, y: float, size: float, value: int, fill: str = PAPER, ink: str = INK,
        number: bool = False, edge: str | None = None) -> list[Shape]:
    """A die face at (x, y) (its top-left corner): pips for 1-9, else (or with `number`)
    the value written on it. Counted as "die" when drawn in the role's ink (a chart's
    dice, not positions, pass `edge`)."""
    out: list[Shape] = [Rect(x, y, size, size, fill, edge or ROLE_INK["die"], max(0.5, size / 22),
                             radius=size * 0.18, role="die")]
    if number or value not in PIPS:
        out.append(Label(x + size / 2, y + size / 2, str(value), size * 0.62, ink))
        return out
    step, r = size / 4, size * (0.085 if value < 7 else 0.075)
    for c, row in PIPS[value]:
        out.append(Circle(x + step * (c + 1), y + step * (row + 1), r, ink))
    return out


def dice_row(faces: Sequence[int], x: float, y: float, size: float, gap: float = 3.0, fill: str = PAPER,
             ink: str = INK, number: bool = False) -> list[Shape]:
    """Die faces in a row from (x, y)."""
    out: list[Shape] = []
    for k, face in enumerate(faces):
        out += die(x + k * (size + gap), y, size, face, fill, ink, number)
    return out


def cross(x: float, y: float, size: float, colour: str = INK, width: float = 1.0, inset: float = 0.25) -> list[Shape]:
    """An x written in the square at (x, y) of side `size`."""
    a, b = size * inset, size * (1 - inset)
    return [Line(x + a, y + a, x + b, y + b, colour, width), Line(x + a, y + b, x + b, y + a, colour, width)]


def symbol(kind: str, x: float, y: float, r: float, fill: str | None = None, stroke: str | None = GREY,
           width: float = 0.7) -> list[Shape]:
    """A printed symbol centred on (x, y): star, circle, square, triangle or diamond (else a circle)."""
    if kind == "star":
        points = tuple((x + (r if k % 2 == 0 else r * 0.45) * math.sin(k * math.pi / 5),
                        y - (r if k % 2 == 0 else r * 0.45) * math.cos(k * math.pi / 5)) for k in range(10))
    elif kind in ("square", "diamond", "triangle"):
        corners = {"square": 4, "diamond": 4, "triangle": 3}[kind]
        turn = math.pi / 4 if kind == "square" else 0.0
        angles = [turn + 2 * math.pi * k / corners for k in range(corners)]
        points = tuple((x + r * math.sin(a), y - r * math.cos(a)) for a in angles)
    else:
        return [Circle(x, y, r, fill, stroke, width)]
    return [Polygon(points, fill, stroke, width)]


def token(x: float, y: float, r: float, fill: str, text: str = "", ink: str = INK) -> list[Shape]:
    """A round token centred on (x, y), optionally with a short text on it."""
    out: list[Shape] = [Circle(x, y, r, fill, INK, 0.6)]
    if text:
        out.append(Label(x, y, text, r * 1.1, ink))
    return out


def polyomino(cells: Iterable[tuple[int, int]], grid: Grid, fill: str | None, stroke: str = INK,
              width: float = 1.2) -> list[Shape]:
    """A tile covering `cells` (col, row) of `grid`: its cells filled without seams (unless
    `fill` is None), then its outline, the edges no two of its cells share (counted as one
    "tile")."""
    cells = set(cells)
    c = grid.cell
    out: list[Shape] = [Rect(*grid.at(col, row), c, c, fill, None, 0) for col, row in sorted(cells)] if fill else []
    edges: list[Shape] = []
    for col, row in sorted(cells):
        x, y = grid.at(col, row)
        for (dc, dr), (ax, ay, bx, by) in (((0, -1), (x, y, x + c, y)), ((0, 1), (x, y + c, x + c, y + c)),
                                           ((-1, 0), (x, y, x, y + c)), ((1, 0), (x + c, y, x + c, y + c))):
            if (col + dc, row + dr) not in cells:
                edges.append(Line(ax, ay, bx, by, stroke, width))
    xs = [grid.at(col, row)[0] for col, row in cells]
    ys = [grid.at(col, row)[1] for col, row in cells]
    # an invisible bounding marker carries the tile's role (one per tile, for counting)
    marker = Rect(min(xs), min(ys), max(xs) + c - min(xs), max(ys) + c - min(ys), None, None, 0, role="tile")
    return [*out, *edges, marker]


def table(x: float, y: float, rows: Sequence[Sequence[str]], widths: Sequence[float], height: float = 11.0,
          fills: dict[int, str] | None = None, size: float = 6.8) -> list[Shape]:
    """A small table, header row first; `fills` colours whole rows (by index). Each body
    row is counted as "row"."""
    fills = fills or {}
    out: list[Shape] = []
    for r, row in enumerate(rows):
        cx = x
        fill = HEADER if r == 0 else fills.get(r)
        total = sum(widths)
        out.append(Rect(x, y + r * height, total, height, fill, ROLE_INK["row"] if r else INK, 0.4,
                        role="row" if r else ""))
        for c, text in enumerate(row):
            out.append(Label(cx + 3, y + r * height + height / 2, text, size, INK, "start"))
            cx += widths[c]
    return out


# --- SVG ----------------------------------------------------------------------------------
def to_svg(scene: Scene, scale: float = 1.5, title: str = "") -> str:
    """The scene as an SVG document (svgwrite), `scale` pixels per point, 4 pt of margin."""
    import svgwrite  # imported here: only the referee's --svg needs it

    pad = 4.0
    w, h = (scene.width + 2 * pad) * scale, (scene.height + 2 * pad) * scale
    dwg = svgwrite.Drawing(size=(f"{w:.1f}", f"{h:.1f}"), profile="full", debug=False)
    dwg.viewbox(-pad, -pad, scene.width + 2 * pad, scene.height + 2 * pad)
    if title:
        dwg.set_desc(title=title)
    dwg.add(dwg.rect((-pad, -pad), (scene.width + 2 * pad, scene.height + 2 * pad), fill=PAPER))
    for s in scene.shapes:
        dwg.add(_svg_shape(dwg, s))
    return str(dwg.tostring())


def _paint(fill: str | None, stroke: str | None, width: float) -> dict[str, object]:
    return {"fill": fill or "none", "stroke": stroke or "none", "stroke_width": width if stroke else 0}


def _svg_shape(dwg: object, s: Shape) -> object:
    d = dwg  # svgwrite.Drawing
    extra: dict[str, object] = {}
    if isinstance(s, Rect):
        if s.role:
            extra["class_"] = s.role
        return d.rect((s.x, s.y), (s.w, s.h), rx=s.radius, ry=s.radius,  # type: ignore[attr-defined]
                      **_paint(s.fill, s.stroke, s.width), **extra)
    if isinstance(s, Circle):
        return d.circle((s.x, s.y), s.r, **_paint(s.fill, s.stroke, s.width))  # type: ignore[attr-defined]
    if isinstance(s, Polygon):
        if s.role:
            extra["class_"] = s.role
        return d.polygon(s.points, **_paint(s.fill, s.stroke, s.width), **extra)  # type: ignore[attr-defined]
    if isinstance(s, Line):
        group = d.g()  # type: ignore[attr-defined]
        line = d.line((s.x1, s.y1), (s.x2, s.y2), stroke=s.stroke, stroke_width=s.width)  # type: ignore[attr-defined]
        if s.dash:
            line["stroke-dasharray"] = "2,2"
        group.add(line)
        if s.arrow:
            group.add(d.polygon(arrow_head(s), fill=s.stroke))  # type: ignore[attr-defined]
        return group
    anchor = {"start": "start", "middle": "middle", "end": "end"}[s.anchor]
    return d.text(s.text, insert=(s.x, s.y + s.size * 0.35), font_size=s.size, fill=s.colour,  # type: ignore[attr-defined]
                  text_anchor=anchor, font_family="sans-serif")


def arrow_head(s: Line) -> tuple[tuple[float, float], ...]:
    """The three corners of an arrow's head at (x2, y2)."""
    angle = math.atan2(s.y2 - s.y1, s.x2 - s.x1)
    size = 3.0 + s.width * 1.5
    left = (s.x2 - size * math.cos(angle - 0.45), s.y2 - size * math.sin(angle - 0.45))
    right = (s.x2 - size * math.cos(angle + 0.45), s.y2 - size * math.sin(angle + 0.45))
    return ((s.x2, s.y2), left, right)

