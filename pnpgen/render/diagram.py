"""A Scene (pnpgen.scene) drawn straight onto a ReportLab canvas at print size, for the
print kit's previews (rulebooks embed scenes as SVG, rulebook/layout.py). Drawn with canvas
calls rather than reportlab.graphics shapes, whose checked attributes were slow."""

from __future__ import annotations

from functools import lru_cache

from reportlab.lib import colors
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas

from pnpgen import scene as sc
from pnpgen.render.fonts import FALLBACK, SANS, covers


@lru_cache(maxsize=256)
def _colour(value: str) -> colors.Color:
    return colors.HexColor(value)


def draw_scene(canvas: Canvas, scene: sc.Scene, font: str = SANS) -> None:
    """Every shape of `scene` onto `canvas` at 1 pt per point, its top-left at the origin's
    `scene.height` above (a page or a preview recording of the scene's size)."""
    canvas.setLineCap(1)
    for s in scene.shapes:
        _draw(canvas, s, scene.height, font)


def _paint(canvas: Canvas, fill: str | None, stroke: str | None, width: float) -> tuple[int, int]:
    if fill:
        canvas.setFillColor(_colour(fill))
    if stroke:
        canvas.setStrokeColor(_colour(stroke))
        canvas.setLineWidth(width)
    return int(bool(stroke)), int(bool(fill))


def _draw(canvas: Canvas, s: sc.Shape, h: float, font: str) -> None:
    c = canvas
    if isinstance(s, sc.Rect):
        if not s.fill and not s.stroke:  # a counting marker (a tile's extent): nothing to draw
            return
        stroke, fill = _paint(c, s.fill, s.stroke, s.width)
        if s.radius:
            c.roundRect(s.x, h - s.y - s.h, s.w, s.h, s.radius, stroke=stroke, fill=fill)
        else:
            c.rect(s.x, h - s.y - s.h, s.w, s.h, stroke=stroke, fill=fill)
    elif isinstance(s, sc.Circle):
        stroke, fill = _paint(c, s.fill, s.stroke, s.width)
        c.circle(s.x, h - s.y, s.r, stroke=stroke, fill=fill)
    elif isinstance(s, sc.Polygon):
        _polygon(c, s.points, h, s.fill, s.stroke, s.width)
    elif isinstance(s, sc.Line):
        _paint(c, None, s.stroke, s.width)
        c.setDash([2, 2] if s.dash else [])
        c.line(s.x1, h - s.y1, s.x2, h - s.y2)
        if s.dash:
            c.setDash([])
        if s.arrow:
            _polygon(c, sc.arrow_head(s), h, s.stroke, None, 0)
    else:
        c.setFillColor(_colour(s.colour))
        runs = _runs(s.text, font)
        width = sum(stringWidth(text, face, s.size) for face, text in runs)
        x = s.x - {"start": 0.0, "middle": width / 2, "end": width}[s.anchor]
        y = h - s.y - s.size * 0.35
        for face, text in runs:
            c.setFont(face, s.size)
            c.drawString(x, y, text)
            x += stringWidth(text, face, s.size)


def _runs(text: str, font: str) -> list[tuple[str, str]]:
    """`text` cut where the face changes: `font`, or its IPAex fallback for the characters
    it lacks (≦ ≧ in a Latin face)."""
    fallback = FALLBACK.get(font, font)
    runs: list[tuple[str, str]] = []
    for ch in text:
        face = font if covers(font, ch) else fallback
        if runs and runs[-1][0] == face:
            runs[-1] = (face, runs[-1][1] + ch)
        else:
            runs.append((face, ch))
    return runs


def _polygon(c: Canvas, points: tuple[tuple[float, float], ...], h: float, fill: str | None, stroke: str | None,
             width: float) -> None:
    stroke_on, fill_on = _paint(c, fill, stroke, width)
    path = c.beginPath()
    path.moveTo(points[0][0], h - points[0][1])
    for x, y in points[1:]:
        path.lineTo(x, h - y)
    path.close()
    c.drawPath(path, stroke=stroke_on, fill=fill_on)
