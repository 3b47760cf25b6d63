"""Paper sizes by name, in millimetres and points."""

from __future__ import annotations

from reportlab.lib.units import mm

from pnpgen.errors import PnpgenError

PAPER_MM: dict[str, tuple[float, float]] = {
    "A4": (210.0, 297.0),
    "Letter": (215.9, 279.4),
    "B5": (182.0, 257.0),  # JIS B5, the Japanese print-shop size
    "A3": (297.0, 420.0),
    "B4": (257.0, 364.0),  # JIS B4
    "A5": (148.0, 210.0),
}


def paper_mm(name: str, landscape: bool = False) -> tuple[float, float]:
    key = next((k for k in PAPER_MM if k.lower() == name.lower()), None)
    if key is None:
        raise PnpgenError(f"unknown paper '{name}'; papers: {', '.join(PAPER_MM)}")
    w, h = PAPER_MM[key]
    return (h, w) if landscape else (w, h)


def paper_points(name: str, landscape: bool = False) -> tuple[float, float]:
    w, h = paper_mm(name, landscape)
    return (w * mm, h * mm)
