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
from typing import TYPE_CHECKING

from pnpgen.errors import PnpgenError

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray
    from PIL.Image import Image as PILImage

GS_CHUNK = 8  # pages per Ghostscript run: a deck's pages are never all on disk at once


def rasterise_rgb(pdf: Path, dpi: float, pages: list[int] | None = None) -> Iterator[PILImage]:
    """Pages of `pdf` (1-based numbers; all by default) as Pillow RGB images at `dpi`
    (the whole MediaBox, white behind)."""
    import pypdfium2 as pdfium

    document = pdfium.PdfDocument(str(pdf))
    try:
        for number in pages if pages is not None else range(1, len(document) + 1):
            page = document[number - 1]
            bitmap = page.render(scale=dpi / 72, may_draw_forms=False)
            yield bitmap.to_pil().convert("RGB")
            page.close()
    finally:
        document.close()


def distinct_pages(pdf: Path) -> list[int]:
    """For each page (in order), the number of the first page that draws the same: the
    same content stream, resources and boxes (a deck's copies and shared backs), so each
    picture is rasterised once."""
    import hashlib

    import pikepdf

    first: dict[str, int] = {}
    same: list[int] = []
    with pikepdf.open(pdf) as document:
        for number, page in enumerate(document.pages, start=1):
            digest = hashlib.sha256()
            contents = page.obj.get("/Contents")
            for stream in contents if isinstance(contents, pikepdf.Array) else [contents] if contents else []:
                digest.update(stream.read_bytes())
            for key in ("/Resources", "/MediaBox", "/TrimBox", "/BleedBox"):
                digest.update(repr(page.obj.get(key)).encode())
            same.append(first.setdefault(digest.hexdigest(), number))
    return same


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


def rasterise_cmyk(pdf: Path, dpi: float, pages: list[int] | None = None) -> Iterator[PILImage]:
    """Pages of `pdf` (1-based numbers; all by default) as Pillow CMYK images at `dpi`,
    through Ghostscript (tiff32nc: 8 bits per ink, the file's own CMYK values unchanged,
    RGB converted by Ghostscript's default profiles), GS_CHUNK pages per run."""
    gs = ghostscript()
    from PIL import Image

    wanted = pages if pages is not None else list(range(1, page_count(pdf) + 1))
    with tempfile.TemporaryDirectory(prefix="pnpgen-cmyk-") as tmp:
        for start in range(0, len(wanted), GS_CHUNK):
            chunk = wanted[start:start + GS_CHUNK]
            pattern = Path(tmp) / "page-%04d.tif"
            command = [gs, "-q", "-dSAFER", "-dBATCH", "-dNOPAUSE", "-sDEVICE=tiff32nc", f"-r{dpi:.3f}",
                       "-dMaxStripSize=0",  # one strip per page: Pillow reads it in one go, not row by row
                       f"-sPageList={','.join(map(str, chunk))}", f"-sOutputFile={pattern}", str(pdf)]
            done = subprocess.run(command, capture_output=True, text=True, check=False)
            if done.returncode != 0:
                last = (done.stderr or done.stdout).strip().splitlines()[-1:] or ["?"]
                raise PnpgenError(f"{pdf}: Ghostscript could not rasterise pages {chunk[0]}–{chunk[-1]}: {last[0]}")
            for number in range(1, len(chunk) + 1):
                path = Path(tmp) / f"page-{number:04d}.tif"
                with Image.open(path) as image:
                    yield image.convert("CMYK")  # a copy: the file can go
                path.unlink()


def total_ink(image: PILImage) -> NDArray[np.float64]:
    """Per pixel C + M + Y + K of a CMYK image, in percent (a numpy array)."""
    import numpy as np

    return np.multiply(ink_sum(image), 100 / 255, dtype=np.float64)


def ink_sum(image: PILImage) -> NDArray[np.uint16]:
    """Per pixel C + M + Y + K of a CMYK image, 0–1020: four plane additions, much faster
    than numpy's sum over the last axis."""
    import numpy as np

    pixels = np.asarray(image)
    total = pixels[..., 0].astype(np.uint16)
    for plane in (1, 2, 3):
        total += pixels[..., plane]
    return total


def limit_ink(image: PILImage, limit: float) -> PILImage:
    """A CMYK image whose total ink is at most `limit` percent everywhere: where a pixel is
    over, its grey part moves from C, M and Y to black (grey component replacement, as a
    separation would), then C, M and Y are scaled down if black alone cannot make room.
    Only the pixels over the limit are worked on (the others are left as they are); an
    image with none over is returned as it is."""
    import numpy as np
    from PIL import Image

    most = int(limit * 255 // 100)
    total = ink_sum(image)
    where = np.nonzero(total > most)
    if not len(where[0]):
        return image
    pixels = np.asarray(image)
    ink = pixels[where].astype(np.int32)  # the pixels over, one row each
    cmy, k = ink[:, :3], ink[:, 3]
    over = total[where].astype(np.int32) - most
    grey = np.minimum.reduce([cmy.min(axis=1), 255 - k, (over + 1) // 2])
    cmy -= grey[:, None]
    k += grey
    left = np.maximum(most - k, 0)
    sums = cmy.sum(axis=1)
    short = sums > left
    if short.any():
        scale = np.where(short, left / np.maximum(sums, 1), 1.0)
        cmy[...] = np.floor(cmy * scale[:, None])
    limited = pixels.copy()
    limited[where] = ink.astype(np.uint8)
    return Image.fromarray(limited, mode="CMYK")
