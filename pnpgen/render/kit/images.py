"""Images content refers to, checked before any decoder or renderer reads them.

An image is a PNG, JPEG or SVG file inside its game folder:

- every file is at most MAX_IMAGE_BYTES (an SVG MAX_SVG_BYTES);
- a PNG or JPEG is at most MAX_IMAGE_PIXELS pixels, read from its header before it is
  decoded, and is then decoded once in full (a truncated file is refused here, not when
  a PDF is half written);
- an SVG is parsed by us first (lxml: no DTD loading, no entities, no network; a
  document declaring entities is refused), at most MAX_SVG_ELEMENTS elements, and
  every link it holds is checked: `#id`, a base64 PNG/JPEG `data:` URI (checked like a
  file) or a relative path to a PNG/JPEG inside the game folder. URLs, `file:` links,
  absolute paths, links leaving the game folder and links to other SVG files are refused.
  svglib then draws the parsed tree with the game folder as its reference root and a
  font map that never opens a font file or runs fc-match, and stops past MAX_SVG_ELEMENTS
  nodes drawn or MAX_SVG_DEPTH levels (<use> copies count). Its declared size must lie
  in [1/1000, MAX_SVG_SIDE] units.

A problem is a BuildError naming the image file (and the line of the bad SVG element).
"""

from __future__ import annotations

import base64
import binascii
import io
import logging
import math
import os
import re
import warnings
from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from reportlab.lib import colors
from reportlab.pdfgen.canvas import Canvas

from pnpgen.content.game import refused_file
from pnpgen.errors import BuildError
from pnpgen.limits import (
    MAX_IMAGE_BYTES,
    MAX_IMAGE_MEMORY,
    MAX_IMAGE_PIXELS,
    MAX_SVG_BYTES,
    MAX_SVG_DEPTH,
    MAX_SVG_ELEMENTS,
    MAX_SVG_SIDE,
    MAX_SVG_TEXT_CHARS,
)
from pnpgen.render.colour import to_cmyk
from pnpgen.render.fonts import SANS, setup_fonts
from pnpgen.render.kit.page import MIN_PPI, Rect

RASTER = (".png", ".jpg", ".jpeg")
SUFFIXES = (*RASTER, ".svg")
XLINK_HREF = "{http://www.w3.org/1999/xlink}href"
SCHEME = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*:")  # http:, file:, C: ...
SVGLIB_DATA = re.compile(r"data:image/(jpe?g|png);base64")  # what svglib decodes (else: a path)


@dataclass(frozen=True, eq=False)
class Image:
    """A checked image: its natural size (SVG user units, PNG pixels) and, for an SVG, the
    ReportLab Drawing svglib made of it."""

    path: Path  # resolved
    shown: str  # as errors name it
    width: float
    height: float
    drawing: object = None
    nodes: int = 0  # SVG elements drawn (what a preview spends on it)


_checked: dict[Path, Image] = {}  # every image that passed its checks, by resolved path


def check_image(path: Path, shown: str, root: Path) -> Image:
    """Check the image file `path` (resolved, inside the resolved game folder `root`);
    `shown` names it in errors as the designer wrote it. Cached per file version."""
    problem = refused_file(path, root)  # a link loop, a pipe or a device: said as such
    if problem:
        raise BuildError(f"image {problem}", shown)
    if not path.is_file():
        kind = "a folder" if path.is_dir() else "missing"
        raise BuildError(f"image is {kind}, not a file", shown)
    suffix = path.suffix.lower()
    if suffix not in SUFFIXES:
        raise BuildError(f"an image must be a .png, .jpg or .svg file, not '{path.suffix or path.name}'", shown)
    stat = path.stat()
    image = _check(path, stat.st_size, stat.st_mtime_ns, shown, root.resolve())
    _checked[path.resolve()] = image
    return image


def checked(path: str | Path) -> Image:
    """A checked image by path (svglib hands raster links over as strings)."""
    found = _checked.get(Path(path).resolve())
    if found is None:  # drawing code reaches only checked images; never guess
        raise BuildError(f"image {path} was not checked before drawing")
    return found


@lru_cache(maxsize=256)
def _check(path: Path, size: int, mtime: int, shown: str, root: Path) -> Image:
    if path.suffix.lower() == ".svg":
        if size > MAX_SVG_BYTES:
            raise BuildError(f"SVG file of {size:,} bytes is over the limit of {MAX_SVG_BYTES:,} bytes", shown)
        return _svg(path, shown, root)
    if size > MAX_IMAGE_BYTES:
        raise BuildError(f"image file of {size:,} bytes is over the limit of {MAX_IMAGE_BYTES:,} bytes", shown)
    width, height = _raster(io.BytesIO(path.read_bytes()), shown)
    return Image(path, shown, width, height)


# --- PNG and JPEG -----------------------------------------------------------------------------


def _raster(source: io.BytesIO, shown: str, line: int | None = None) -> tuple[int, int]:
    """Size of a PNG or JPEG, refused over MAX_IMAGE_PIXELS or MAX_IMAGE_MEMORY before
    decoding, then decoded once to prove it whole (a JPEG strictly: libjpeg pads a short
    scan with grey and only warns, so a 631-byte file can claim 9999×9999)."""
    from PIL import Image as PILImage
    from PIL import UnidentifiedImageError

    def fail(problem: str) -> BuildError:
        return BuildError(problem, shown, line)

    PILImage.MAX_IMAGE_PIXELS = None  # our own guard below, with the size in its message
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # a warning would be a second line on stderr
            with PILImage.open(source, formats=("PNG", "JPEG")) as picture:
                width, height = picture.size  # from the header: nothing is decoded yet
                if width * height > MAX_IMAGE_PIXELS:
                    raise fail(f"image of {width}×{height} pixels is over the limit of {MAX_IMAGE_PIXELS:,} pixels")
                each, kind = _bytes_per_pixel(picture.mode, source.getbuffer())
                if width * height * each > MAX_IMAGE_MEMORY:
                    raise fail(f"image of {width}×{height} pixels ({kind}, {each} bytes a pixel) would take "
                               f"{width * height * each / 1e6:,.0f} MB decoded, over the limit of "
                               f"{MAX_IMAGE_MEMORY / 1e6:,.0f} MB")
                if picture.format == "JPEG":
                    damage = _jpeg_damage(source.getvalue())
                    if damage:
                        raise fail(f"JPEG image is cut short or damaged ({damage})")
                else:
                    picture.load()
    except BuildError:
        raise
    except UnidentifiedImageError:
        raise fail("not a PNG or JPEG image") from None
    except Exception as error:  # noqa: BLE001 - any decoder failure on untrusted bytes is bad input
        raise fail(f"not a readable PNG or JPEG image ({_reason(error)})") from None
    finally:
        # Pillow's guard, at our limit, for every later read (all of checked images).
        PILImage.MAX_IMAGE_PIXELS = MAX_IMAGE_PIXELS
    return width, height


# Bytes a pixel of each Pillow mode takes decoded (Pillow keeps RGB in 4 bytes).
_MODE_BYTES = {"1": 1, "L": 1, "P": 1, "I;16": 2, "I;16B": 2, "I;16L": 2}
_PNG_CHANNELS = {0: 1, 2: 3, 3: 1, 4: 2, 6: 4}  # by the IHDR colour type


def _bytes_per_pixel(mode: str, data: memoryview) -> tuple[int, str]:
    """Bytes a decoded pixel takes, the larger of Pillow's mode and the file's own samples
    (a 16-bit RGBA PNG decodes through 8 bytes a pixel), and a name of that kind."""
    each, kind = _MODE_BYTES.get(mode, 4), mode
    if bytes(data[:8]) == b"\x89PNG\r\n\x1a\n" and len(data) >= 26:
        depth, colour = data[24], data[25]
        stored = -(-_PNG_CHANNELS.get(colour, 4) * depth // 8)
        kind = f"{mode}, {depth}-bit"
        each = max(each, stored)
    return each, kind


def _jpeg_damage(data: bytes) -> str | None:
    """What libjpeg says is wrong with a JPEG (None: whole), decoding it at 1/8 scale (every
    coded block is still read) and taking as errors what it would only warn about."""
    import simplejpeg

    try:
        header = simplejpeg.decode_jpeg_header(data)
        colour = "CMYK" if header[2] in ("CMYK", "YCCK") else "GRAY"
        simplejpeg.decode_jpeg(data, colorspace=colour, strict=True, min_factor=8)
    except ValueError as error:
        return _reason(error).rstrip(".")
    return None


def _reason(error: BaseException) -> str:
    text = " ".join(str(error).split()) or type(error).__name__
    return text if len(text) <= 80 else text[:79] + "…"


# --- SVG ------------------------------------------------------------------------------------


def _svg(path: Path, shown: str, root: Path) -> Image:
    from lxml import etree

    data = path.read_bytes()
    if b"<!ENTITY" in data:
        raise BuildError("an SVG may not declare XML entities (<!ENTITY>)", shown)
    parser = etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False, huge_tree=False,
                             remove_comments=True, remove_pis=True)
    try:
        svg = etree.fromstring(data, parser)
    except etree.XMLSyntaxError as error:
        raise BuildError(f"not a well-formed SVG file ({_reason(Exception(error.msg))})", shown,
                         error.lineno or None) from None
    dtd = svg.getroottree().docinfo.internalDTD
    if dtd is not None and any(True for _ in dtd.iterentities()):
        raise BuildError("an SVG may not declare XML entities (<!ENTITY>)", shown)
    if etree.QName(svg).localname != "svg":
        raise BuildError(f"not an SVG file (its root element is <{etree.QName(svg).localname}>)", shown)
    budget = _Budget()
    for count, element in enumerate(svg.iter(), start=1):
        if count > MAX_SVG_ELEMENTS:
            raise BuildError(f"SVG has more than {MAX_SVG_ELEMENTS:,} elements", shown)
        if not isinstance(element.tag, str):
            continue  # an entity reference
        _check_text(element, etree.QName(element).localname, shown)
        if etree.QName(element).localname == "a":
            continue  # a hyperlink, which svglib never follows
        for attribute in (XLINK_HREF, "href"):
            link = element.get(attribute)
            if link is not None:
                _check_link(link, path, shown, root, element.sourceline, budget)
    drawing, nodes = _render(svg, path, shown, root)
    width, height = float(drawing.width), float(drawing.height)
    low = 1 / 1000
    if not all(math.isfinite(v) and low <= v <= MAX_SVG_SIDE for v in (width, height)):
        raise BuildError(f"SVG size {width:g}×{height:g} is out of range: give it a width and height (or viewBox) "
                         f"between {low:g} and {MAX_SVG_SIDE:,.0f} units", shown)
    try:  # a trial draw, so that a drawing error is found here and not half-way through a PDF
        from reportlab.graphics import renderPDF
        from reportlab.pdfgen.canvas import Canvas

        renderPDF.draw(drawing, Canvas(io.BytesIO()), 0, 0)
    except Exception as error:  # noqa: BLE001 - see _render
        raise BuildError(f"SVG could not be drawn ({_reason(error)})", shown) from None
    return Image(path, shown, width, height, drawing, nodes)


def _check_text(element: Any, name: str, shown: str) -> None:
    """An element's text: at most MAX_SVG_TEXT_CHARS (Pillow's text drawing fails on a
    million characters), and a <style> with no @import (svglib cannot read one, and it
    names another file)."""
    text = element.text or ""
    if len(text) > MAX_SVG_TEXT_CHARS:
        raise BuildError(f"SVG text of {len(text):,} characters is over the limit of {MAX_SVG_TEXT_CHARS:,}",
                         shown, element.sourceline)
    if name == "style" and "@import" in text.lower():
        raise BuildError("an SVG <style> may not @import other style sheets: put the rules in the SVG",
                         shown, element.sourceline)


@dataclass
class _Budget:
    pixels: int = 0  # decoded pixels of every data: image in one SVG


def _check_link(link: str, svg: Path, shown: str, root: Path, line: int | None, budget: _Budget) -> None:
    """One `href` of an SVG: refused unless svglib would draw only checked pixels from it."""
    short = link if len(link) <= 60 else link[:59] + "…"

    def refuse(problem: str) -> BuildError:
        return BuildError(f"image link '{short}' {problem}", shown, line)

    if link.startswith("#"):
        return
    if link.startswith("data:"):
        found = SVGLIB_DATA.match(link)
        if not found or link[found.end():found.end() + 1] != ",":
            raise refuse("is not a base64 PNG or JPEG (the only data: links drawn)")
        try:
            payload = base64.decodebytes(link[found.end() + 1:].encode("ascii"))
        except (binascii.Error, UnicodeEncodeError):
            raise refuse("holds bad base64 data") from None
        width, height = _raster(io.BytesIO(payload), shown, line)
        budget.pixels += width * height
        if budget.pixels > MAX_IMAGE_PIXELS:
            raise BuildError(f"the data: images of this SVG are over the limit of {MAX_IMAGE_PIXELS:,} pixels",
                             shown, line)
        return
    if SCHEME.match(link):
        raise refuse("is a URL: link only to files inside the game folder")
    if link.startswith(("/", "\\")) or os.path.isabs(link):
        raise refuse("is an absolute path: link only to files inside the game folder")
    iri = link.split("#", 1)[0]
    if not iri:
        return
    # As svglib resolves it: joined to the SVG's folder, then normalised.
    target = Path(os.path.normpath(os.path.join(os.path.dirname(svg), iri)))
    problem = refused_file(target, root)  # leaves the folder, a link loop, a pipe or device
    if problem:
        raise refuse(problem)
    real = target.resolve()
    if target.suffix.lower() == ".svg":
        raise refuse("points to another SVG file: draw it as its own image element instead")
    if target.suffix.lower() not in RASTER:
        raise refuse("is not a .png or .jpg file")
    if not real.is_file():
        raise refuse("points to no file")
    linked = os.path.normpath(os.path.join(os.path.dirname(shown), iri))
    check_image(real, linked, root)


class _BundledFonts:
    """svglib's font lookup: every family is the bundled sans (text in an SVG is set in it
    anyway), so no font file is opened and no fc-match is run for a name content chose."""

    def find_font(self, font_name: str, weight: str = "normal", style: str = "normal") -> tuple[str, bool]:
        return SANS, True


class _TooBig(Exception):
    pass


@lru_cache(maxsize=1)
def _renderer() -> type:
    from svglib.svglib import SvgRenderer

    class Renderer(SvgRenderer):  # type: ignore[misc]
        """svglib's renderer, stopped past MAX_SVG_ELEMENTS nodes drawn or MAX_SVG_DEPTH levels:
        every <use> draws a copy of its target, so a small file can draw millions of shapes."""

        nodes = depth = 0

        def renderNode(self, node: Any, parent: object = None) -> None:  # noqa: N802 - svglib's name
            self.nodes += 1
            self.depth += 1
            try:
                if self.nodes > MAX_SVG_ELEMENTS:
                    raise _TooBig(f"SVG draws more than {MAX_SVG_ELEMENTS:,} elements (copies by <use> included)")
                if self.depth > MAX_SVG_DEPTH:
                    raise _TooBig(f"SVG nests deeper than {MAX_SVG_DEPTH} levels (copies by <use> included)")
                super().renderNode(node, parent)
            finally:
                self.depth -= 1

    return Renderer


def _render(svg: object, path: Path, shown: str, root: Path) -> tuple[Any, int]:
    setup_fonts()
    # svglib logs what it skips; on stderr those would be lines beside our one-line errors.
    logging.getLogger("svglib").setLevel(logging.CRITICAL)
    try:
        renderer = _renderer()(str(path), font_map=_BundledFonts(), external_reference_root=str(root))
        drawing = renderer.render(svg)
    except _TooBig as error:
        raise BuildError(str(error), shown) from None
    except Exception as error:  # noqa: BLE001 - svglib failing on untrusted input is bad input
        raise BuildError(f"SVG could not be read ({_reason(error)})", shown) from None
    if drawing is None:
        raise BuildError("not a readable SVG file", shown)
    _bundled_font(drawing)
    # The renderer's first state: never a base-14 font (read by renderbase.StateTracker).
    drawing.__dict__["initialFontName"] = SANS
    return drawing, renderer.nodes


def _bundled_font(node: object) -> None:
    """Text inside an SVG is set in the bundled font (embedded; covers Japanese)."""
    if hasattr(node, "fontName"):
        node.fontName = SANS
    for child in getattr(node, "contents", []):
        _bundled_font(child)


def draw_image_file(canvas: Canvas, image: Image, area: Rect, fit: str, cmyk: bool) -> None:
    """A checked image scaled into `area` (contain, cover or stretch)."""
    sx, sy = area.w / image.width, area.h / image.height
    if fit == "contain":
        sx = sy = min(sx, sy)
    elif fit == "cover":
        sx = sy = max(sx, sy)
    w, h = image.width * sx, image.height * sy
    x, y = area.x + (area.w - w) / 2, area.y + (area.h - h) / 2
    canvas.saveState()
    if fit == "cover":
        clip = canvas.beginPath()
        clip.rect(area.x, area.y, area.w, area.h)
        canvas.clipPath(clip, stroke=0, fill=0)
    if hasattr(canvas, "draw_image_file"):  # a preview canvas places the file itself
        canvas.draw_image_file(image, x, y, w, h)
    else:
        if image.drawing is None and cmyk:  # a picture in a print-shop file: enough pixels?
            ppi = image.width / (w / 72)
            if ppi < MIN_PPI - 0.5:
                low: dict[str, float] = canvas.__dict__.setdefault("_pnpgen_low_ppi", {})
                low[str(image.path)] = min(ppi, low.get(str(image.path), ppi))
        name = _form(canvas, image, cmyk)
        canvas.translate(x, y)
        canvas.scale(sx, sy)
        canvas.doForm(name)
    canvas.restoreState()


def _form(canvas: Canvas, image: Image, cmyk: bool) -> str:
    """A checked image drawn once per PDF as a form that every card showing it places: the
    work does not grow with the cards (a drawing of thousands of shapes, a picture ReportLab
    would hash again for every card), and forms are named by order, so the PDF does not
    depend on where the game folder lies (ReportLab names a picture given by file name
    after that name)."""
    forms: dict[tuple[Image, bool], str] = canvas.__dict__.setdefault("_pnpgen_images", {})
    name = forms.get((image, cmyk))
    if name is None:
        name = forms[image, cmyk] = f"pnpgenImage{len(forms)}"
        canvas.beginForm(name, 0, 0, image.width, image.height)
        if image.drawing is not None:
            from reportlab.graphics import renderPDF

            renderPDF.draw(svg_drawing(image, cmyk), canvas, 0, 0)
        elif cmyk:
            canvas.drawImage(cmyk_image(image), 0, 0, image.width, image.height, mask="auto")
        else:
            canvas.drawImage(_reader(str(image.path)), 0, 0, image.width, image.height, mask="auto")
        canvas.endForm()
    return name


def _reader(path: str) -> object:
    from reportlab.lib.utils import ImageReader

    return ImageReader(path)


@lru_cache(maxsize=128)
def svg_drawing(image: Image, cmyk: bool = False) -> object:
    """A checked SVG's ReportLab Drawing; with `cmyk` a copy with its colours and pictures
    converted (print-shop files)."""
    if not cmyk:
        return image.drawing
    import copy

    from reportlab.graphics.shapes import Image as Picture

    # Decoded data: pictures are shared, not copied (a copied JPEG loses its file).
    shared = {id(n.path): n.path for n in _nodes(image.drawing) if isinstance(n, Picture) and hasattr(n.path, "mode")}
    drawing = copy.deepcopy(image.drawing, shared)
    for node in _nodes(drawing):
        for attr in ("fillColor", "strokeColor"):
            value = getattr(node, attr, None)
            if isinstance(value, colors.Color):
                setattr(node, attr, to_cmyk(value))
        if isinstance(node, Picture):
            node.path = _cmyk_picture(node.path)
    black = colors.CMYKColor(0, 0, 0, 1)
    drawing.__dict__.update(initialFillColor=black, initialStrokeColor=black)  # not Drawing attributes
    return drawing


def _nodes(node: object) -> Iterator[Any]:
    yield node
    for child in getattr(node, "contents", []):
        yield from _nodes(child)


def _cmyk_picture(picture: Any, keep_alpha: bool = False) -> Any:
    """A PIL picture, or a checked file, in press CMYK (render/press.py). Transparency is
    flattened on white, or with `keep_alpha` returned beside it: (cmyk, alpha or None)."""
    from PIL import Image as PILImage

    if isinstance(picture, str | Path):
        with PILImage.open(checked(picture).path) as source:
            rgba = source.convert("RGBA")
    elif getattr(picture, "fp", None) is not None:  # undecoded (a JPEG): decode a copy, so the
        import io  # picture keeps its file for the home pass

        picture.fp.seek(0)
        with PILImage.open(io.BytesIO(picture.fp.read())) as source:
            rgba = source.convert("RGBA")
        picture.fp.seek(0)
    else:
        rgba = picture.convert("RGBA")
    from pnpgen.render.press import cmyk_picture

    alpha = rgba.getchannel("A")
    flat = PILImage.new("RGB", rgba.size, "white")
    flat.paste(rgba, mask=alpha)
    cmyk = cmyk_picture(flat)
    if not keep_alpha:
        return cmyk
    return cmyk, (alpha if alpha.getextrema()[0] < 255 else None)  # type: ignore[operator]


@lru_cache(maxsize=128)
def cmyk_image(image: Image) -> object:
    """A checked PNG or JPEG converted to CMYK for print-shop files; a transparent PNG
    keeps its transparency as a soft mask (no white square on a coloured back)."""
    from reportlab.lib.utils import ImageReader

    cmyk, alpha = _cmyk_picture(image.path, keep_alpha=True)
    reader = ImageReader(cmyk)
    reader.getRGBData()  # decoded now: ReportLab keeps the soft mask set below
    if alpha is not None:
        reader._dataA = ImageReader(alpha)
    return reader
