"""A Scene (pnpgen.scene) as a ReportLab Drawing: a flowable for the rulebook, at print size."""

from __future__ import annotations

from reportlab.graphics.shapes import Circle, Drawing, Group, Line, Polygon, Rect, String
from reportlab.lib import colors

from pnpgen import scene as sc
from pnpgen.render.fonts import SANS


def _colour(value: str | None) -> colors.Color | None:
    return colors.HexColor(value) if value else None


def drawing(scene: sc.Scene, max_width: float, max_scale: float = 1.0) -> Drawing:
    """The scene scaled to fit `max_width` (never enlarged past `max_scale`)."""
    scale = min(max_scale, max_width / scene.width) if scene.width else 1.0
    h = scene.height
    group = Group()
    for s in scene.shapes:
        for shape in _shapes(s, h):
            group.add(shape)
    group.transform = (scale, 0, 0, scale, 0, 0)
    # the initial font is the bundled one: ReportLab's default (Helvetica) would be a font
    # resource the PDF names without embedding it
    out = Drawing(scene.width * scale, scene.height * scale, initialFontName=SANS)
    out.add(group)
    out.hAlign = "CENTER"
    return out


def _shapes(s: sc.Shape, h: float) -> list[object]:
    if isinstance(s, sc.Rect):
        if not s.fill and not s.stroke:  # a counting marker (a tile's extent): nothing to draw
            return []
        return [Rect(s.x, h - s.y - s.h, s.w, s.h, rx=s.radius, ry=s.radius, fillColor=_colour(s.fill),
                     strokeColor=_colour(s.stroke), strokeWidth=s.width if s.stroke else 0)]
    if isinstance(s, sc.Circle):
        return [Circle(s.x, h - s.y, s.r, fillColor=_colour(s.fill), strokeColor=_colour(s.stroke),
                       strokeWidth=s.width if s.stroke else 0)]
    if isinstance(s, sc.Polygon):
        return [Polygon([v for x, y in s.points for v in (x, h - y)], fillColor=_colour(s.fill),
                        strokeColor=_colour(s.stroke), strokeWidth=s.width if s.stroke else 0)]
    if isinstance(s, sc.Line):
        out: list[object] = [Line(s.x1, h - s.y1, s.x2, h - s.y2, strokeColor=_colour(s.stroke),
                                  strokeWidth=s.width, strokeLineCap=1,
                                  strokeDashArray=[2, 2] if s.dash else None)]
        if s.arrow:
            head = sc.arrow_head(s)
            out.append(Polygon([v for x, y in head for v in (x, h - y)], fillColor=_colour(s.stroke),
                               strokeColor=None, strokeWidth=0))
        return out
    return [String(s.x, h - s.y - s.size * 0.35, s.text, fontName=SANS, fontSize=s.size,
                   fillColor=_colour(s.colour), textAnchor=s.anchor)]
