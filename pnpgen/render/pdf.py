"""PDF plumbing shared by every renderer: atomic writes, deterministic canvases."""

from __future__ import annotations

from pathlib import Path

from reportlab.pdfgen.canvas import Canvas

from pnpgen.output import atomic_output
from pnpgen.render.fonts import setup_fonts

__all__ = ["atomic_output", "new_canvas", "page_count"]


def new_canvas(path: Path, pagesize: tuple[float, float], title: str = "") -> Canvas:
    """A canvas with the bundled fonts, invariant output and document metadata."""
    setup_fonts()
    canvas = Canvas(str(path), pagesize=pagesize, invariant=1, pageCompression=1)
    canvas.setTitle(title)
    canvas.setCreator("pnpgen")
    canvas.setProducer("pnpgen")
    return canvas


def page_count(path: Path) -> int:
    """Pages in a PDF: the /Count of the page tree (not of the outline, which also has one)."""
    import re

    data = path.read_bytes()
    pages_nodes = re.findall(rb"/Count (\d+)[^>]*?/Type /Pages|/Type /Pages[^>]*?/Count (\d+)", data)
    counts = [int(a or b) for a, b in pages_nodes]
    return max(counts) if counts else 0
