"""PDF plumbing shared by every renderer: atomic writes, deterministic canvases."""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path

from reportlab.pdfgen.canvas import Canvas

from pnpgen.render.fonts import setup_fonts


@contextlib.contextmanager
def atomic_output(path: Path) -> Iterator[Path]:
    """Yield a temporary path beside `path`; move it into place only on success.

    A failed build never leaves a half-written file behind.
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp_name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".part", dir=path.parent)
    os.close(fd)
    tmp = Path(tmp_name)
    try:
        yield tmp
        os.chmod(tmp, 0o666 & ~_umask())  # mkstemp makes 0600; outputs get normal file modes
        os.replace(tmp, path)
    finally:
        if tmp.exists():
            tmp.unlink()


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


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
