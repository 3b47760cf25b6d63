"""Pages of a PDF as pictures: RGB with PDFium (pypdfium2, a wheel with no system
dependency), CMYK with Ghostscript's tiff32nc device (the ink values of a CMYK file as a
press would lay them; Ghostscript is installed by .ci/run). Both are deterministic: the
same file and resolution give the same pixels. And the ink arithmetic both the vendor
export and preflight use: total ink per pixel, and a limit on it."""

from __future__ import annotations

import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from pnpgen.errors import PnpgenError

GS_CHUNK = 8  # pages per Ghostscript run: a deck's pages are never all on disk at once


def rasterise_rgb(pdf: Path, dpi: float) -> Iterator[Any]:
    """Each page of `pdf` as a Pillow RGB image at `dpi` (the whole MediaBox, white behind)."""
    import pypdfium2 as pdfium

    document = pdfium.PdfDocument(str(pdf))
    try:
        for index in range(len(document)):
            page = document[index]
            bitmap = page.render(scale=dpi / 72, may_draw_forms=False)
            yield bitmap.to_pil().convert("RGB")
            page.close()
    finally:
        document.close()


def ghostscript() -> str:
    """The Ghostscript command, or a one-line error saying how to install it."""
    found = shutil.which("gs")
    if found is None:
        raise PnpgenError("Ghostscript (gs) is needed to rasterise CMYK pages: install it "
                          "(Debian/Ubuntu: apt-get install ghostscript; macOS: brew install ghostscript)")
    return found


def page_count(pdf: Path) -> int:
    import pikepdf

    with pikepdf.open(pdf) as document:
        return len(document.pages)


def rasterise_cmyk(pdf: Path, dpi: float, pages: int | None = None) -> Iterator[Any]:
    """Each page of `pdf` as a Pillow CMYK image at `dpi`, through Ghostscript (tiff32nc:
    8 bits per ink, the file's own CMYK values unchanged, RGB converted by Ghostscript's
    default profiles), GS_CHUNK pages per run."""
    gs = ghostscript()
    from PIL import Image

    total = page_count(pdf) if pages is None else pages
    with tempfile.TemporaryDirectory(prefix="pnpgen-cmyk-") as tmp:
        for first in range(1, total + 1, GS_CHUNK):
            last = min(total, first + GS_CHUNK - 1)
            pattern = Path(tmp) / "page-%04d.tif"
            command = [gs, "-q", "-dSAFER", "-dBATCH", "-dNOPAUSE", "-sDEVICE=tiff32nc", f"-r{dpi:.3f}",
                       f"-dFirstPage={first}", f"-dLastPage={last}", f"-sOutputFile={pattern}", str(pdf)]
            done = subprocess.run(command, capture_output=True, text=True, check=False)
            if done.returncode != 0:
                raise PnpgenError(f"{pdf}: Ghostscript could not rasterise pages {first}–{last}: "
                                  f"{(done.stderr or done.stdout).strip().splitlines()[-1:] or '?'}")
            for number in range(1, last - first + 2):
                path = Path(tmp) / f"page-{number:04d}.tif"
                with Image.open(path) as image:
                    yield image.convert("CMYK").copy()
                path.unlink()


def total_ink(image: Any) -> Any:
    """Per pixel C + M + Y + K of a CMYK image, in percent (a numpy array)."""
    import numpy as np

    return np.asarray(image, dtype=np.uint16).sum(axis=2) * (100 / 255)


def limit_ink(image: Any, limit: float) -> Any:
    """A CMYK image whose total ink is at most `limit` percent everywhere: where a pixel is
    over, its grey part moves from C, M and Y to black (grey component replacement, as a
    separation would), then C, M and Y are scaled down if black alone cannot make room."""
    import numpy as np
    from PIL import Image

    ink = np.asarray(image, dtype=np.int32).copy()
    most = int(limit * 255 // 100)
    cmy, k = ink[..., :3], ink[..., 3]
    over = np.maximum(cmy.sum(axis=2) + k - most, 0)
    grey = np.minimum.reduce([cmy.min(axis=2), 255 - k, (over + 1) // 2])
    cmy -= grey[..., None]
    k += grey
    left = np.maximum(most - k, 0)
    sums = cmy.sum(axis=2)
    over = sums > left
    if over.any():
        scale = np.where(over, left / np.maximum(sums, 1), 1.0)
        cmy[...] = np.floor(cmy * scale[..., None])
    return Image.fromarray(ink.astype(np.uint8), mode="CMYK")
