"""Previews a designer can open without a PDF viewer: SVG files (svgwrite) and PNG images
(Pillow), drawn from the same geometry as the PDFs.

`Recorder` stands in for a ReportLab canvas: the kit's drawing code (elements, and SVG
images through svglib) draws on it exactly as on a page, and it keeps what was drawn as
paths, text and images in page points. `write_svg` and `to_image` turn a recording into
an SVG file or a Pillow image; both need only pip packages (svgwrite, Pillow), so they
work on any machine. Limits: clipping inside a face is not kept (each face is clipped to
its trim), the PNG draws no dashes, and text uses the bundled fonts.
"""

from __future__ import annotations

import base64
import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

from reportlab.lib.units import mm
from reportlab.pdfbase.pdfmetrics import stringWidth

from pnpgen.limits import MAX_IMAGE_BYTES, MAX_PREVIEW_PIXELS, MAX_PREVIEW_SHAPES
from pnpgen.render.fonts import FONT_DIR, FONT_FILES, SANS, setup_fonts
from pnpgen.render.kit.images import Image, checked
from pnpgen.render.pdf import atomic_output

if TYPE_CHECKING:
    from PIL.Image import Image as PILImage
    from PIL.ImageFont import FreeTypeFont
    from svgwrite import Drawing
    from svgwrite.container import SVG

Point = tuple[float, float]
RGB = tuple[float, float, float]
Matrix = tuple[float, float, float, float, float, float]
IDENTITY: Matrix = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)
CURVE_STEPS = 8  # straight pieces per Bézier curve


def _mul(m: Matrix, n: Matrix) -> Matrix:
    """m then n: the matrix of applying n in m's space."""
    a, b, c, d, e, f = m
    p, q, r, s, t, u = n
    return (a * p + c * q, b * p + d * q, a * r + c * s, b * r + d * s, a * t + c * u + e, b * t + d * u + f)


def _apply(m: Matrix, x: float, y: float) -> Point:
    a, b, c, d, e, f = m
    return (a * x + c * y + e, b * x + d * y + f)


def _rgb(colour: object) -> RGB | None:
    if colour is None:
        return None
    if hasattr(colour, "rgb"):
        r, g, b = colour.rgb()
        return (float(r), float(g), float(b))
    return None


@dataclass
class State:
    matrix: Matrix = IDENTITY
    fill: RGB | None = (0.0, 0.0, 0.0)
    stroke: RGB | None = (0.0, 0.0, 0.0)
    width: float = 1.0
    dash: tuple[float, ...] = ()
    font: str = SANS
    size: float = 10.0
    clip: tuple[float, float, float, float] | None = None  # x0, y0, x1, y1 in page points


@dataclass
class PathOp:
    subpaths: list[tuple[list[Point], bool]]  # points, closed
    fill: RGB | None
    stroke: RGB | None
    width: float
    dash: tuple[float, ...]
    clip: tuple[float, float, float, float] | None


@dataclass
class TextOp:
    x: float
    y: float
    text: str
    font: str
    size: float
    fill: RGB
    bold: bool
    angle: float  # degrees, counter-clockwise
    clip: tuple[float, float, float, float] | None


@dataclass
class ImageOp:
    path: Path
    x: float
    y: float
    w: float
    h: float


class RecPath:
    """The subset of ReportLab's PDFPathObject the kit and svglib use; curves are flattened."""

    def __init__(self) -> None:
        self.subpaths: list[tuple[list[Point], bool]] = []
        self._current: list[Point] = []

    def moveTo(self, x: float, y: float) -> None:  # noqa: N802 - ReportLab's names
        self._flush()
        self._current = [(x, y)]

    def lineTo(self, x: float, y: float) -> None:  # noqa: N802
        self._current.append((x, y))

    def curveTo(self, x1: float, y1: float, x2: float, y2: float, x3: float, y3: float) -> None:  # noqa: N802
        x0, y0 = self._current[-1] if self._current else (x1, y1)
        for i in range(1, CURVE_STEPS + 1):
            t = i / CURVE_STEPS
            u = 1 - t
            self._current.append((u ** 3 * x0 + 3 * u * u * t * x1 + 3 * u * t * t * x2 + t ** 3 * x3,
                                  u ** 3 * y0 + 3 * u * u * t * y1 + 3 * u * t * t * y2 + t ** 3 * y3))

    def close(self) -> None:
        if self._current:
            self.subpaths.append((self._current, True))
        self._current = []

    def _flush(self) -> None:
        if len(self._current) > 1:
            self.subpaths.append((self._current, False))
        self._current = []

    def _arc_points(self, x1: float, y1: float, x2: float, y2: float, start: float, extent: float) -> list[Point]:
        cx, cy, rx, ry = (x1 + x2) / 2, (y1 + y2) / 2, abs(x2 - x1) / 2, abs(y2 - y1) / 2
        steps = max(4, int(abs(extent) / 10))
        return [(cx + rx * math.cos(math.radians(start + extent * i / steps)),
                 cy + ry * math.sin(math.radians(start + extent * i / steps))) for i in range(steps + 1)]

    def arc(self, x1: float, y1: float, x2: float, y2: float, startAng: float = 0, extent: float = 90) -> None:  # noqa: N803
        self._flush()
        self._current = self._arc_points(x1, y1, x2, y2, startAng, extent)

    def arcTo(self, x1: float, y1: float, x2: float, y2: float, startAng: float = 0,  # noqa: N802, N803
              extent: float = 90) -> None:
        self._current += self._arc_points(x1, y1, x2, y2, startAng, extent)

    def rect(self, x: float, y: float, w: float, h: float) -> None:
        self._flush()
        self.subpaths.append(([(x, y), (x + w, y), (x + w, y + h), (x, y + h)], True))

    def ellipse(self, x: float, y: float, w: float, h: float) -> None:
        self._flush()
        self.subpaths.append((self._arc_points(x, y, x + w, y + h, 0, 360), True))

    def circle(self, cx: float, cy: float, r: float) -> None:
        self.ellipse(cx - r, cy - r, 2 * r, 2 * r)

    def roundRect(self, x: float, y: float, w: float, h: float, r: float) -> None:  # noqa: N802
        self._flush()
        r = max(0.0, min(r, w / 2, h / 2))
        pts: list[Point] = []
        for cx, cy, start in ((x + w - r, y + r, 270), (x + w - r, y + h - r, 0), (x + r, y + h - r, 90),
                              (x + r, y + r, 180)):
            pts += self._arc_points(cx - r, cy - r, cx + r, cy + r, start, 90)
        self.subpaths.append((pts, True))

    def finish(self) -> list[tuple[list[Point], bool]]:
        self._flush()
        return self.subpaths


class RecText:
    """The subset of ReportLab's PDFTextObject the kit uses: runs placed with setTextOrigin."""

    def __init__(self, x: float = 0, y: float = 0) -> None:
        self.x, self.y = x, y
        self.font, self.size = SANS, 10.0
        self.fill: object = None
        self.mode = 0
        self.runs: list[tuple[float, float, str, str, float, object, int]] = []

    def setFont(self, font: str, size: float, leading: float | None = None) -> None:  # noqa: N802
        self.font, self.size = font, size

    def setFillColor(self, colour: object, alpha: float | None = None) -> None:  # noqa: N802
        self.fill = colour

    def setStrokeColor(self, colour: object, alpha: float | None = None) -> None:  # noqa: N802
        pass

    def setTextRenderMode(self, mode: int) -> None:  # noqa: N802
        self.mode = mode

    def setTextOrigin(self, x: float, y: float) -> None:  # noqa: N802
        self.x, self.y = x, y

    def textOut(self, text: str) -> None:  # noqa: N802
        self.runs.append((self.x, self.y, text, self.font, self.size, self.fill, self.mode))
        self.x += stringWidth(text, self.font, self.size)


class Recorder:
    """A stand-in for a ReportLab Canvas (the calls the print kit and svglib make) that
    records what is drawn, in page points (origin bottom-left)."""

    def __init__(self, width: float, height: float, art_budget: list[int] | None = None) -> None:
        self.width, self.height = width, height
        # SVG shapes this recording may still draw; the faces of one preview share it.
        self.art_budget = art_budget if art_budget is not None else [MAX_PREVIEW_SHAPES]
        self.ops: list[PathOp | TextOp | ImageOp] = []
        self.state = State()
        self._stack: list[State] = []
        self._fillMode = 0  # noqa: N815 - read by svglib's renderer (renderPDF)

    @property
    def _fontname(self) -> str:
        return self.state.font

    @property
    def _fontsize(self) -> float:
        return self.state.size

    # graphics state
    def saveState(self) -> None:  # noqa: N802
        self._stack.append(State(**vars(self.state)))

    def restoreState(self) -> None:  # noqa: N802
        self.state = self._stack.pop()

    def transform(self, a: float, b: float, c: float, d: float, e: float, f: float) -> None:
        self.state.matrix = _mul(self.state.matrix, (a, b, c, d, e, f))

    def translate(self, dx: float, dy: float) -> None:
        self.transform(1, 0, 0, 1, dx, dy)

    def scale(self, sx: float, sy: float) -> None:
        self.transform(sx, 0, 0, sy, 0, 0)

    def rotate(self, degrees: float) -> None:
        r = math.radians(degrees)
        self.transform(math.cos(r), math.sin(r), -math.sin(r), math.cos(r), 0, 0)

    def setFillColor(self, colour: object, alpha: float | None = None) -> None:  # noqa: N802
        self.state.fill = _rgb(colour)

    def setStrokeColor(self, colour: object, alpha: float | None = None) -> None:  # noqa: N802
        self.state.stroke = _rgb(colour)

    def setLineWidth(self, width: float) -> None:  # noqa: N802
        self.state.width = width

    def setDash(self, array: float | list[float] | tuple[float, ...] = (), phase: float = 0) -> None:  # noqa: N802
        self.state.dash = tuple(array) if isinstance(array, list | tuple) else ((array,) if array else ())

    def setFont(self, font: str, size: float, leading: float | None = None) -> None:  # noqa: N802
        self.state.font, self.state.size = font, size

    def _ignore(self, *args: object, **kwargs: object) -> None:
        """Settings a preview does not show (alpha, overprint, caps and joins)."""

    setFillAlpha = setStrokeAlpha = setLineCap = setLineJoin = _ignore  # noqa: N815
    setFillOverprint = setStrokeOverprint = setOverprintMask = _ignore  # noqa: N815

    # shapes
    def beginPath(self) -> RecPath:  # noqa: N802
        return RecPath()

    def drawPath(self, path: RecPath, stroke: int = 1, fill: int = 0, fillMode: int | None = None) -> None:  # noqa: N802, N803
        s = self.state
        subpaths = [([_apply(s.matrix, x, y) for x, y in pts], closed) for pts, closed in path.finish()]
        scale = math.sqrt(abs(s.matrix[0] * s.matrix[3] - s.matrix[1] * s.matrix[2]))
        self.ops.append(PathOp(subpaths, s.fill if fill else None, s.stroke if stroke else None,
                               s.width * scale, tuple(d * scale for d in s.dash), s.clip))

    def clipPath(self, path: RecPath, stroke: int = 0, fill: int = 0, fillMode: int | None = None) -> None:  # noqa: N802, N803
        points = [_apply(self.state.matrix, x, y) for pts, _ in path.finish() for x, y in pts]
        if points:
            xs, ys = [p[0] for p in points], [p[1] for p in points]
            self.state.clip = (min(xs), min(ys), max(xs), max(ys))

    def _gradient(self, colours: Sequence[object] | None) -> None:
        """A gradient (svglib paints one into the clip path it has just set), previewed as the
        mean of its colours over the clipped area."""
        stops = [rgb for rgb in map(_rgb, colours or []) if rgb is not None]
        if self.state.clip is None or not stops:
            return
        x0, y0, x1, y1 = self.state.clip
        mean = (sum(r for r, _, _ in stops) / len(stops), sum(g for _, g, _ in stops) / len(stops),
                sum(b for _, _, b in stops) / len(stops))
        self.ops.append(PathOp([([(x0, y0), (x1, y0), (x1, y1), (x0, y1)], True)], mean, None, 0.0, (),
                               self.state.clip))

    def linearGradient(self, x0: float, y0: float, x1: float, y1: float, colors: Sequence[object],  # noqa: N802
                       positions: Sequence[float] | None = None, extend: bool = True) -> None:
        self._gradient(colors)

    def radialGradient(self, x: float, y: float, radius: float, colors: Sequence[object],  # noqa: N802
                       positions: Sequence[float] | None = None, extend: bool = True) -> None:
        self._gradient(colors)

    def _shape(self, build: str, *args: float, stroke: int = 1, fill: int = 0) -> None:
        path = RecPath()
        getattr(path, build)(*args)
        self.drawPath(path, stroke=stroke, fill=fill)

    def rect(self, x: float, y: float, w: float, h: float, stroke: int = 1, fill: int = 0) -> None:
        self._shape("rect", x, y, w, h, stroke=stroke, fill=fill)

    def roundRect(self, x: float, y: float, w: float, h: float, radius: float, stroke: int = 1,  # noqa: N802
                  fill: int = 0) -> None:
        self._shape("roundRect", x, y, w, h, radius, stroke=stroke, fill=fill)

    def circle(self, cx: float, cy: float, r: float, stroke: int = 1, fill: int = 0) -> None:
        self._shape("circle", cx, cy, r, stroke=stroke, fill=fill)

    def ellipse(self, x1: float, y1: float, x2: float, y2: float, stroke: int = 1, fill: int = 0) -> None:
        self._shape("ellipse", x1, y1, x2 - x1, y2 - y1, stroke=stroke, fill=fill)

    def line(self, x1: float, y1: float, x2: float, y2: float) -> None:
        path = RecPath()
        path.moveTo(x1, y1)
        path.lineTo(x2, y2)
        self.drawPath(path, stroke=1, fill=0)

    # text
    def _text(self, x: float, y: float, text: str, bold: bool = False, font: str | None = None,
              size: float | None = None, fill: RGB | None = None) -> None:
        s = self.state
        px, py = _apply(s.matrix, x, y)
        angle = math.degrees(math.atan2(s.matrix[1], s.matrix[0]))
        scale = math.sqrt(abs(s.matrix[0] * s.matrix[3] - s.matrix[1] * s.matrix[2]))
        colour = fill or s.fill or (0.0, 0.0, 0.0)
        self.ops.append(TextOp(px, py, text, font or s.font, (size or s.size) * scale, colour, bold, angle, s.clip))

    def drawString(self, x: float, y: float, text: str, mode: int | None = None, **kwargs: object) -> None:  # noqa: N802
        self._text(x, y, text, bold=mode == 2)

    def drawRightString(self, x: float, y: float, text: str, **kwargs: object) -> None:  # noqa: N802
        self._text(x - stringWidth(text, self.state.font, self.state.size), y, text)

    def drawCentredString(self, x: float, y: float, text: str, **kwargs: object) -> None:  # noqa: N802
        self._text(x - stringWidth(text, self.state.font, self.state.size) / 2, y, text)

    def beginText(self, x: float = 0, y: float = 0) -> RecText:  # noqa: N802
        return RecText(x, y)

    def drawText(self, obj: RecText) -> None:  # noqa: N802
        for x, y, text, font, size, fill, mode in obj.runs:
            self._text(x, y, text, bold=mode == 2, font=font, size=size, fill=_rgb(fill))

    # images
    def draw_image_file(self, image: Image, x: float, y: float, w: float, h: float) -> None:
        """A checked image placed in a box (called by elements.draw_image_file)."""
        (x0, y0), (x1, y1) = _apply(self.state.matrix, x, y), _apply(self.state.matrix, x + w, y + h)
        if image.drawing is not None and image.nodes > self.art_budget[0]:
            self.ops.append(PathOp([([(x0, y0), (x1, y0), (x1, y1), (x0, y1)], True)], (0.87, 0.87, 0.87), None, 0,
                                   (), self.state.clip))  # over budget: a grey box
            return
        if image.drawing is not None:
            # Drawn shape by shape, so that the PNG shows it too.
            from reportlab.graphics import renderPDF

            self.art_budget[0] -= image.nodes
            self.saveState()
            self.translate(x, y)
            self.scale(w / image.width, h / image.height)
            renderPDF.draw(image.drawing, self, 0, 0)  # type: ignore[arg-type]
            self.restoreState()
            return
        self.ops.append(ImageOp(image.path, min(x0, x1), min(y0, y1), abs(x1 - x0), abs(y1 - y0)))

    def drawImage(self, image: str, x: float, y: float, width: float, height: float, **kwargs: object) -> None:  # noqa: N802
        self.draw_image_file(checked(image), x, y, width, height)

    def drawInlineImage(self, image: object, x: float, y: float, width: float, height: float, **kwargs: object) -> None:  # noqa: N802
        """svglib's picture of an SVG's <image>: a linked file (checked with its SVG), or
        decoded data: pixels, which a preview leaves out."""
        if isinstance(image, str | Path):
            self.draw_image_file(checked(image), x, y, width, height)


# --- SVG ----------------------------------------------------------------------------------


def text_nearer_than(rec: Recorder, trim: tuple[float, float, float, float],
                     safe: float) -> list[tuple[str, float]]:
    """Each text drawn on `rec` whose letters (the font's ascent to descent, turned with the
    text) come nearer an edge of `trim` (x0, y0, x1, y1, points) than `safe` points, with how
    near it comes (points; negative past the edge), nearest first: the safe-zone check of
    whatever a board or sheet draws."""
    from reportlab.pdfbase.pdfmetrics import getAscentDescent

    found = []
    for op in rec.ops:
        if not isinstance(op, TextOp) or not op.text.strip():
            continue
        width = stringWidth(op.text, op.font, op.size)
        ascent, descent = getAscentDescent(op.font, op.size)
        turn = math.radians(op.angle)
        cos, sin = math.cos(turn), math.sin(turn)
        xs, ys = zip(*[(op.x + dx * cos - dy * sin, op.y + dx * sin + dy * cos)
                       for dx in (0.0, width) for dy in (descent, ascent)], strict=True)
        near = min(min(xs) - trim[0], trim[2] - max(xs), min(ys) - trim[1], trim[3] - max(ys))
        if near < safe - 1e-6:
            found.append((op.text, near))
    return sorted(found, key=lambda item: item[1])


def _hex(rgb: RGB | None) -> str:
    if rgb is None:
        return "none"
    return "#" + "".join(f"{round(max(0.0, min(1.0, v)) * 255):02x}" for v in rgb)


@dataclass
class Tile:
    """A recording placed on a preview sheet at (x, y) from the top-left (points), with a caption."""

    recording: Recorder
    x: float
    y: float
    caption: str = ""
    frame: bool = True


@dataclass
class PreviewSheet:
    width: float
    height: float
    tiles: list[Tile] = field(default_factory=list)


def write_svg(sheet: PreviewSheet, path: Path) -> Path:
    """The sheet as an SVG file (1 unit = 1 pt; sizes in mm), each tile clipped to its recording's size."""
    import svgwrite

    dwg = svgwrite.Drawing(size=(f"{sheet.width / mm:.2f}mm", f"{sheet.height / mm:.2f}mm"),
                           viewBox=f"0 0 {sheet.width:.2f} {sheet.height:.2f}", profile="full", debug=False)
    dwg.add(dwg.rect((0, 0), (sheet.width, sheet.height), fill="#ffffff"))
    embedded: dict[Path, tuple[str, int]] = {}  # picture file -> its <symbol> id and size
    for tile in sheet.tiles:
        rec = tile.recording
        box = dwg.svg(insert=(round(tile.x, 2), round(tile.y, 2)), size=(round(rec.width, 2), round(rec.height, 2)))
        for op in rec.ops:
            if isinstance(op, PathOp):
                _svg_path(dwg, box, op, rec.height)
            elif isinstance(op, TextOp):
                _svg_text(dwg, box, op, rec.height)
            else:
                _svg_image(dwg, box, op, rec.height, embedded)
        dwg.add(box)
        if tile.frame:
            dwg.add(dwg.rect((round(tile.x, 2), round(tile.y, 2)), (round(rec.width, 2), round(rec.height, 2)),
                             fill="none", stroke="#999999", stroke_width=0.3))
        if tile.caption:
            dwg.add(dwg.text(tile.caption, insert=(round(tile.x, 2), round(tile.y + rec.height + 8, 2)),
                             font_size=6, font_family=f"{SANS}, sans-serif", fill="#333333"))
    with atomic_output(path) as tmp:
        tmp.write_text(dwg.tostring(), encoding="utf-8")
    return path


def _svg_path(dwg: Drawing, parent: SVG, op: PathOp, height: float) -> None:
    d = []
    for points, closed in op.subpaths:
        d.append("M" + " L".join(f"{x:.2f},{height - y:.2f}" for x, y in points) + (" Z" if closed else ""))
    attrs: dict[str, object] = {"d": " ".join(d), "fill": _hex(op.fill), "fill_rule": "evenodd"}
    if op.stroke is not None:
        attrs.update(stroke=_hex(op.stroke), stroke_width=round(op.width, 3))
        if op.dash:
            attrs["stroke_dasharray"] = ",".join(f"{v:.2f}" for v in op.dash)
    parent.add(dwg.path(**attrs))


def _svg_text(dwg: Drawing, parent: SVG, op: TextOp, height: float) -> None:
    x, y = round(op.x, 2), round(height - op.y, 2)
    attrs: dict[str, object] = {"insert": (x, y), "font_size": round(op.size, 2),
                                "font_family": f"{op.font}, sans-serif", "fill": _hex(op.fill)}
    if op.bold:
        attrs["font_weight"] = "bold"
    if abs(op.angle) > 0.01:
        attrs["transform"] = f"rotate({-op.angle:.2f} {x} {y})"
    parent.add(dwg.text(op.text, **attrs))


def _svg_image(dwg: Drawing, parent: SVG, op: ImageOp, height: float, embedded: dict[Path, tuple[str, int]]) -> None:
    """A checked PNG or JPEG, embedded once per file (a <symbol>, placed by <use>). Past
    MAX_IMAGE_BYTES of pictures in one preview, a grey box stands in for the rest."""
    x, y, w, h = round(op.x, 2), round(height - op.y - op.h, 2), round(op.w, 2), round(op.h, 2)
    if op.path not in embedded:
        size = op.path.stat().st_size
        if sum(n for _, n in embedded.values()) + size > MAX_IMAGE_BYTES:
            parent.add(dwg.rect((x, y), (w, h), fill="#dddddd"))
            return
        kind = "image/png" if op.path.suffix.lower() == ".png" else "image/jpeg"
        data = base64.b64encode(op.path.read_bytes()).decode("ascii")
        symbol = dwg.symbol(id=f"picture{len(embedded)}", viewBox="0 0 1 1", preserveAspectRatio="none")
        symbol.add(dwg.image(f"data:{kind};base64,{data}", insert=(0, 0), size=(1, 1), preserveAspectRatio="none"))
        dwg.defs.add(symbol)
        embedded[op.path] = (symbol["id"], size)
    parent.add(dwg.use(f"#{embedded[op.path][0]}", insert=(x, y), size=(w, h)))


# --- PNG ----------------------------------------------------------------------------------


@lru_cache(maxsize=64)
def _font(name: str, pixels: int) -> FreeTypeFont:
    from PIL import ImageFont

    return ImageFont.truetype(str(FONT_DIR / FONT_FILES.get(name, FONT_FILES[SANS])), max(1, pixels))


def to_image(rec: Recorder, scale: float) -> PILImage:
    """A Pillow image of a recording, `scale` pixels per point. Coordinates and sizes far
    outside the image (absurd values inside an SVG) are pinned or left out, so Pillow never
    overflows or draws for minutes."""
    from PIL import Image, ImageDraw

    setup_fonts()
    image = Image.new("RGB", (max(1, round(rec.width * scale)), max(1, round(rec.height * scale))), "white")
    draw = ImageDraw.Draw(image)
    limit = 10.0 * max(image.width, image.height)  # pixels; anything sane is well inside

    def pin(v: float) -> float:
        return max(-limit, min(limit, v)) if math.isfinite(v) else 0.0

    def px(x: float, y: float) -> Point:
        return (pin(x * scale), pin((rec.height - y) * scale))

    def colour(rgb: RGB) -> tuple[int, int, int]:
        r, g, b = (round(max(0.0, min(1.0, v if math.isfinite(v) else 0.0)) * 255) for v in rgb)
        return (r, g, b)

    for op in rec.ops:
        if isinstance(op, PathOp):
            for points, closed in op.subpaths:
                pts = [px(x, y) for x, y in points]
                if op.fill is not None and closed and len(pts) > 2:
                    draw.polygon(pts, fill=colour(op.fill))
                if op.stroke is not None and len(pts) > 1:
                    line = pts + [pts[0]] if closed else pts
                    draw.line(line, fill=colour(op.stroke), width=max(1, round(abs(pin(op.width * scale)))))
        elif isinstance(op, TextOp):
            pixels = op.size * scale
            if not (math.isfinite(pixels) and 0 < pixels <= limit):
                continue
            font = _font(op.font, round(pixels))
            stroke = round(pixels * 0.035) if op.bold else 0
            if abs(op.angle) < 0.01:
                draw.text(px(op.x, op.y), op.text, font=font, fill=colour(op.fill), anchor="ls",
                          stroke_width=stroke, stroke_fill=colour(op.fill))
            else:
                _rotated_text(image, op, px(op.x, op.y), font, colour(op.fill), stroke)
        else:
            w, h = op.w * scale, op.h * scale
            if not (math.isfinite(w * h) and w * h <= MAX_PREVIEW_PIXELS):
                continue
            picture = _picture(op.path, max(1, round(w)), max(1, round(h)))
            x, y = px(op.x, op.y + op.h)
            image.paste(picture, (round(x), round(y)))
    return image


@lru_cache(maxsize=4)
def _picture(path: Path, width: int, height: int) -> PILImage:
    """A checked PNG or JPEG at a preview size, decoded once for every tile that shows it."""
    from PIL import Image

    with Image.open(path) as source:
        return source.convert("RGB").resize((width, height))


def _rotated_text(image: PILImage, op: TextOp, origin: Point, font: FreeTypeFont, fill: tuple[int, int, int],
                  stroke: int) -> None:
    from PIL import Image, ImageDraw

    left, top, right, bottom = font.getbbox(op.text, anchor="ls")
    pad = 2 + stroke
    layer = Image.new("L", (int(right - left + 2 * pad), int(bottom - top + 2 * pad)), 0)  # ints already
    ImageDraw.Draw(layer).text((pad - left, pad - top), op.text, font=font, fill=255, anchor="ls", stroke_width=stroke,
                               stroke_fill=255)
    turned = layer.rotate(op.angle, expand=True, resample=Image.Resampling.BICUBIC)
    # where the baseline origin lands in the turned layer
    ox, oy = pad - left - layer.width / 2, pad - top - layer.height / 2
    r = math.radians(op.angle)
    tx = ox * math.cos(r) + oy * math.sin(r) + turned.width / 2
    ty = -ox * math.sin(r) + oy * math.cos(r) + turned.height / 2
    image.paste(Image.new("RGB", turned.size, fill), (round(origin[0] - tx), round(origin[1] - ty)), turned)


def write_png(sheet: PreviewSheet, path: Path, dpi: float = 100) -> Path:
    """The sheet as a PNG at `dpi`, tiles framed and captioned like the SVG."""
    from PIL import Image, ImageDraw

    # A huge sheet (a 5 m board) is drawn at a lower resolution: at most MAX_PREVIEW_PIXELS.
    scale = min(dpi / 72, math.sqrt(MAX_PREVIEW_PIXELS / max(1.0, sheet.width * sheet.height)))
    image = Image.new("RGB", (max(1, round(sheet.width * scale)), max(1, round(sheet.height * scale))), "white")
    draw = ImageDraw.Draw(image)
    for tile in sheet.tiles:
        x, y = round(tile.x * scale), round(tile.y * scale)
        picture = to_image(tile.recording, scale)
        image.paste(picture, (x, y))
        if tile.frame:
            draw.rectangle((x, y, x + picture.width - 1, y + picture.height - 1), outline=(153, 153, 153))
        if tile.caption:
            draw.text((x, y + picture.height + round(8 * scale)), tile.caption, font=_font(SANS, round(6 * scale)),
                      fill=(51, 51, 51), anchor="ls")
    with atomic_output(path) as tmp:
        image.save(tmp, format="PNG", optimize=True)
    return path


def tile_sheet(recordings: Sequence[tuple[Recorder, str]], columns: int, gap: float = 6 * mm,
               caption_room: float = 12) -> PreviewSheet:
    """Recordings laid out row by row, `columns` per row, each with its caption below."""
    cell_w = max(r.width for r, _ in recordings) + gap
    cell_h = max(r.height for r, _ in recordings) + gap + caption_room
    rows = math.ceil(len(recordings) / columns)
    sheet = PreviewSheet(gap + columns * cell_w, gap + rows * cell_h)
    for i, (rec, caption) in enumerate(recordings):
        sheet.tiles.append(Tile(rec, gap + (i % columns) * cell_w, gap + (i // columns) * cell_h, caption))
    return sheet


def save_preview(sheet: PreviewSheet, svg_path: Path) -> Path:
    """Write the sheet as `<name>.svg` and its PNG twin `<name>.png` (for the contact sheet)."""
    write_svg(sheet, svg_path)
    write_png(sheet, svg_path.with_suffix(".png"), dpi=72)
    return svg_path


# --- the contact sheet ---------------------------------------------------------------------


def contact_sheet(previews: Sequence[Path], out: Path, width_px: int = 1600) -> Path:
    """One PNG with every component's preview, scaled to `width_px`, titled by file name.
    A preview written without its PNG twin shows as a grey box naming its SVG."""
    from PIL import Image, ImageDraw

    label_h, gap = 28, 16
    pictures = []
    for svg in previews:
        png = svg.with_suffix(".png")
        if png.is_file():
            with Image.open(png) as source:
                picture = source.convert("RGB")
        else:
            picture = Image.new("RGB", (width_px - 2 * gap, 120), (230, 230, 230))
            ImageDraw.Draw(picture).text((12, 60), f"no raster preview: open {svg.name}", fill=(60, 60, 60),
                                         font=_font(SANS, 18), anchor="lm")
        if picture.width > width_px - 2 * gap:
            ratio = (width_px - 2 * gap) / picture.width
            picture = picture.resize((width_px - 2 * gap, max(1, round(picture.height * ratio))))
        pictures.append((svg.stem, picture))
    height = gap + sum(label_h + p.height + gap for _, p in pictures)
    if width_px * height > MAX_PREVIEW_PIXELS:  # many tall previews: all drawn smaller
        ratio = MAX_PREVIEW_PIXELS / (width_px * height)
        pictures = [(name, p.resize((max(1, round(p.width * ratio)), max(1, round(p.height * ratio)))))
                    for name, p in pictures]
        height = gap + sum(label_h + p.height + gap for _, p in pictures)
    sheet = Image.new("RGB", (width_px, height), "white")
    draw = ImageDraw.Draw(sheet)
    y = gap
    for name, picture in pictures:
        draw.text((gap, y + label_h - 8), name, font=_font(SANS, 18), fill=(0, 0, 0), anchor="ls")
        y += label_h
        sheet.paste(picture, (gap, y))
        y += picture.height + gap
    with atomic_output(out) as tmp:
        sheet.save(tmp, format="PNG", optimize=True)
    return out
