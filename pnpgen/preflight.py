"""`pnpgen preflight GAME|FILE.pdf [--vendor NAME]`: what a print shop's preflight would
say of a PDF, ours or anyone's (docs/preflight.md).

Each page's content streams are read with pikepdf (the graphics state followed through
q/Q, cm, forms and text matrices) for colour spaces, pictures and their effective ppi,
line widths and text sizes and colours; fonts are looked up in the resources; the boxes
give size and bleed; PDFium's character boxes give text outside the safe zone; Ghostscript
rasterises the pages in CMYK for the total ink, its maximum and where it is. A vendor
profile (render/vendors/) sets the bleed, safe area, ink limit, colour mode and its own
rules; without one, a print shop's usual limits (DEFAULTS).

For a game, its print files are built in a temporary folder first: the print-shop PDFs,
or the vendor's files with --vendor; and the game's colours are checked for colour-blind
players (render/colourvision.py).

A finding is `fail` (a shop would reject the file: exit 1) or `warn` (listed, exit 0).
"""

from __future__ import annotations

import math
import tempfile
from collections.abc import Iterator
from dataclasses import asdict, dataclass, field, replace
from decimal import Decimal
from pathlib import Path
from typing import Any

from pnpgen.content.game import GameContent
from pnpgen.errors import PnpgenError
from pnpgen.output import BuildOptions
from pnpgen.render.vendors import Profile, load_profile

PT_PER_MM = 72 / 25.4
Matrix = tuple[float, float, float, float, float, float]
IDENTITY: Matrix = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)


@dataclass(frozen=True)
class Limits:
    """What the checks hold a file to: a vendor's profile, else DEFAULTS."""

    bleed_mm: float = 3.0  # the usual minimum of a card or print shop
    safe_mm: float = 3.0
    ink_limit: float = 300.0  # percent: sheet-fed offset on coated paper (FOGRA39's own limit is 330 %)
    colour: str | None = None  # cmyk: RGB fails; rgb: CMYK pictures fail; None: RGB beside CMYK fails
    ppi: float = 300.0  # pictures under this warn, under FAIL_PPI_SHARE of it fail
    hairline_pt: float = 0.25
    small_text_pt: float = 6.0
    small_rich_text_pt: float = 8.0  # text in more than one ink (registration blurs it)
    vendor: Profile | None = None


DEFAULTS = Limits()
SAFE_TOLERANCE_MM = 0.05  # a glyph box on the safe line itself (text placed at 3 mm) is not a breach
FAIL_PPI_SHARE = 0.75  # 225 ppi at 300: visibly soft
INK_DPI = 100  # the CMYK raster the ink is measured on


def limits_for(vendor: str | None) -> Limits:
    if vendor is None:
        return DEFAULTS
    profile = load_profile(vendor)
    return replace(DEFAULTS, bleed_mm=profile.bleed_mm, safe_mm=profile.safe_mm,
                   ink_limit=profile.ink_limit or DEFAULTS.ink_limit, colour=profile.colour,
                   ppi=float(profile.ppi), vendor=profile)


@dataclass
class Finding:
    check: str
    severity: str  # fail | warn
    message: str
    pages: list[int] = field(default_factory=list)  # where, when it is on pages (the same finding once)

    @property
    def page(self) -> str:
        """The pages as a short text: '3', '1–72', '1, 3, 5–9'."""
        runs: list[list[int]] = []
        for number in self.pages:
            if runs and number == runs[-1][-1] + 1:
                runs[-1].append(number)
            else:
                runs.append([number])
        return ", ".join(str(r[0]) if len(r) == 1 else f"{r[0]}–{r[-1]}" for r in runs)


@dataclass
class FileReport:
    file: str
    pages: int = 0
    findings: list[Finding] = field(default_factory=list)
    facts: dict[str, Any] = field(default_factory=dict)  # sizes, bleed, colour spaces, fonts, max ink

    @property
    def ok(self) -> bool:
        return not any(f.severity == "fail" for f in self.findings)

    def add(self, check: str, severity: str, message: str, page: int | None = None) -> None:
        """A finding; the same one on another page is one finding with both pages."""
        for found in self.findings:
            if (found.check, found.severity, found.message) == (check, severity, message):
                found.pages += [page] if page is not None else []
                return
        self.findings.append(Finding(check, severity, message, [page] if page is not None else []))

    def to_json(self) -> dict[str, object]:
        return {"file": self.file, "ok": self.ok, "pages": self.pages, "facts": self.facts,
                "findings": [asdict(f) for f in self.findings]}


# --- the content stream, followed -----------------------------------------------------------


def mul(m: Matrix, n: Matrix) -> Matrix:
    """m then n (PDF's row-vector order: the result maps as m, then n)."""
    a, b, c, d, e, f = m
    aa, bb, cc, dd, ee, ff = n
    return (a * aa + b * cc, a * bb + b * dd, c * aa + d * cc, c * bb + d * dd, e * aa + f * cc + ee,
            e * bb + f * dd + ff)


def scale_of(m: Matrix) -> float:
    return math.sqrt(abs(m[0] * m[3] - m[1] * m[2]))


@dataclass
class State:
    ctm: Matrix = IDENTITY
    fill: tuple[str, tuple[float, ...]] = ("gray", (0.0,))
    line_width: float = 1.0
    font: str = ""
    size: float = 0.0
    leading: float = 0.0
    render_mode: int = 0


@dataclass
class Marks:
    """What one page paints, gathered while its streams are followed."""

    spaces: set[str] = field(default_factory=set)  # rgb, cmyk, gray, spot, ...
    images: list[dict[str, Any]] = field(default_factory=list)  # space, ppi, where
    strokes: list[tuple[float, tuple[float, float]]] = field(default_factory=list)  # width pt, where (pt)
    texts: list[dict[str, Any]] = field(default_factory=list)  # size pt, inks, where, font
    transparency: list[str] = field(default_factory=list)
    fonts: set[str] = field(default_factory=set)  # font resource names text is shown in


def space_kind(space: Any, resources: Any) -> str:
    """A colour space as rgb, cmyk, gray, spot (Separation/DeviceN), pattern or lab."""
    import pikepdf

    if isinstance(space, pikepdf.Name):
        name = str(space)
        simple = {"/DeviceRGB": "rgb", "/RGB": "rgb", "/DeviceCMYK": "cmyk", "/CMYK": "cmyk", "/DeviceGray": "gray",
                  "/G": "gray", "/Pattern": "pattern"}
        if name in simple:
            return simple[name]
        named = resources.get("/ColorSpace", {}) if resources is not None else {}
        return space_kind(named[name], None) if name in named else "other"
    if isinstance(space, pikepdf.Array) and len(space) > 0:
        family = str(space[0])
        if family == "/ICCBased":
            return {1: "gray", 3: "rgb", 4: "cmyk"}.get(int(space[1].get("/N", 0)), "other")
        if family in ("/Separation", "/DeviceN"):
            return "spot"
        if family == "/Indexed":
            return space_kind(space[1], resources)
        if family in ("/CalRGB",):
            return "rgb"
        if family in ("/CalGray",):
            return "gray"
        if family == "/Lab":
            return "lab"
        if family == "/Pattern":
            return "pattern"
    return "other"


def inks(fill: tuple[str, tuple[float, ...]]) -> int:
    """How many inks a fill colour prints with (RGB that is not grey: four)."""
    kind, values = fill
    if kind == "cmyk":
        return sum(1 for v in values if v > 0.001)
    if kind == "rgb" and len(values) == 3:
        return 1 if max(values) - min(values) < 0.001 else 4
    return 1


def follow(stream: Any, resources: Any, state: State, marks: Marks, depth: int = 0) -> None:
    """Walk one content stream (a page's or a form's), recording into `marks`."""
    import pikepdf

    stack: list[State] = []
    tm: Matrix = IDENTITY
    tlm: Matrix = IDENTITY
    fills = {"g": "gray", "rg": "rgb", "k": "cmyk"}
    strokes = {"G": "gray", "RG": "rgb", "K": "cmyk"}
    for item in pikepdf.parse_content_stream(stream):
        if isinstance(item, pikepdf.ContentStreamInlineImage):
            image = item.iimage
            space = space_kind(image.obj.get("/ColorSpace", image.obj.get("/CS")), resources) \
                if not image.obj.get("/ImageMask", image.obj.get("/IM", False)) else "mask"
            _place_image(marks, state.ctm, int(image.width), int(image.height), space)
            continue
        op, args = str(item.operator), item.operands
        if op == "q":
            stack.append(replace(state))
        elif op == "Q" and stack:
            state = stack.pop()
        elif op == "cm" and len(args) == 6:
            state.ctm = mul(tuple(float(a) for a in args), state.ctm)  # type: ignore[arg-type]
        elif op == "w" and args:
            state.line_width = float(args[0])
        elif op in fills:
            state.fill = (fills[op], tuple(float(a) for a in args))
            marks.spaces.add(fills[op])
        elif op in strokes:
            marks.spaces.add(strokes[op])
        elif op in ("cs", "CS") and args:
            kind = space_kind(args[0], resources)
            marks.spaces.add(kind)
            if op == "cs":
                state.fill = (kind, ())
        elif op in ("sc", "scn"):  # numbers come as int or Decimal; a pattern's name is left out
            state.fill = (state.fill[0], tuple(float(a) for a in args if isinstance(a, int | float | Decimal)))
        elif op in ("S", "s", "B", "B*", "b", "b*"):
            width = state.line_width * scale_of(state.ctm)
            marks.strokes.append((width, (state.ctm[4], state.ctm[5])))
        elif op == "gs" and args:
            _graphics_state(resources, args[0], marks)
        elif op == "BT":
            tm = tlm = IDENTITY
        elif op == "Tf" and len(args) == 2:
            state.font, state.size = str(args[0]), float(args[1])
        elif op == "TL" and args:
            state.leading = float(args[0])
        elif op == "Tr" and args:
            state.render_mode = int(args[0])
        elif op in ("Td", "TD") and len(args) == 2:
            if op == "TD":
                state.leading = -float(args[1])
            tlm = mul((1, 0, 0, 1, float(args[0]), float(args[1])), tlm)
            tm = tlm
        elif op == "Tm" and len(args) == 6:
            tm = tlm = tuple(float(a) for a in args)  # type: ignore[assignment]
        elif op in ("T*", "'", '"'):
            tlm = mul((1, 0, 0, 1, 0, -state.leading), tlm)
            tm = tlm
        if op in ("Tj", "TJ", "'", '"'):
            marks.fonts.add(state.font)  # set in, even invisibly (its glyphs are still in the file)
        if op in ("Tj", "TJ", "'", '"') and state.render_mode != 3:
            place = mul(tm, state.ctm)
            marks.texts.append({"size": state.size * scale_of(place), "inks": inks(state.fill),
                                "where": (place[4], place[5]), "font": state.font})
        if op == "Do" and args:
            _draw_xobject(resources, args[0], state, marks, depth)


def _graphics_state(resources: Any, name: Any, marks: Marks) -> None:
    gs = (resources or {}).get("/ExtGState", {}).get(str(name))
    if gs is None:
        return
    for key in ("/CA", "/ca"):
        if key in gs and float(gs[key]) < 1:
            marks.transparency.append(f"opacity {float(gs[key]):g}")
    if "/SMask" in gs and str(gs["/SMask"]) != "/None":
        marks.transparency.append("soft mask")
    if "/BM" in gs and str(gs["/BM"]) not in ("/Normal", "/Compatible"):
        marks.transparency.append(f"blend mode {gs['/BM']}")


def _place_image(marks: Marks, ctm: Matrix, width_px: int, height_px: int, space: str) -> None:
    across, down = math.hypot(ctm[0], ctm[1]), math.hypot(ctm[2], ctm[3])  # pt
    ppi = min(width_px / (across / 72) if across else math.inf, height_px / (down / 72) if down else math.inf)
    marks.images.append({"space": space, "ppi": ppi, "px": (width_px, height_px), "where": (ctm[4], ctm[5])})
    if space not in ("mask",):
        marks.spaces.add(space)


def _draw_xobject(resources: Any, name: Any, state: State, marks: Marks, depth: int) -> None:
    xobject = (resources or {}).get("/XObject", {}).get(str(name))
    if xobject is None:
        return
    subtype = str(xobject.get("/Subtype", ""))
    if subtype == "/Image":
        mask = bool(xobject.get("/ImageMask", False))
        space = "mask" if mask else space_kind(xobject.get("/ColorSpace"), resources)
        if "/SMask" in xobject:
            marks.transparency.append("picture with a soft mask (alpha)")
        _place_image(marks, state.ctm, int(xobject.get("/Width", 0)), int(xobject.get("/Height", 0)), space)
    elif subtype == "/Form" and depth < 12:
        if "/Group" in xobject and str(xobject.Group.get("/S", "")) == "/Transparency":
            marks.transparency.append("transparency group")
        matrix = tuple(float(v) for v in xobject.get("/Matrix", IDENTITY))
        inner = replace(state, ctm=mul(matrix, state.ctm))  # type: ignore[arg-type]
        follow(xobject, xobject.get("/Resources", resources), inner, marks, depth + 1)


# --- fonts, boxes ---------------------------------------------------------------------------


def font_problems(pdf: Any, used: list[set[str]]) -> tuple[list[str], list[str]]:
    """(every font's base name, the names of those not embedded), over all pages and forms;
    a font only listed in the resources, never set (`used`: the names each page sets text
    in), does not count."""
    seen: dict[str, bool] = {}

    def embedded(font: Any) -> bool:
        subtype = str(font.get("/Subtype", ""))
        if subtype == "/Type3":
            return True
        if subtype == "/Type0":
            font = font.DescendantFonts[0]
        descriptor = font.get("/FontDescriptor")
        return descriptor is not None and any(k in descriptor for k in ("/FontFile", "/FontFile2", "/FontFile3"))

    def walk(resources: Any, depth: int, names: set[str]) -> None:
        if resources is None or depth > 12:
            return
        for key, font in resources.get("/Font", {}).items():
            if key not in names:
                continue
            name = str(font.get("/BaseFont", font.get("/Name", "?"))).lstrip("/")
            seen[name] = seen.get(name, True) and embedded(font)
        for xobject in resources.get("/XObject", {}).values():
            if str(xobject.get("/Subtype", "")) == "/Form":
                walk(xobject.get("/Resources"), depth + 1, names)

    for page, names in zip(pdf.pages, used, strict=True):
        walk(page.get("/Resources"), 0, names)
    return sorted(seen), sorted(name for name, ok in seen.items() if not ok)


def box(page: Any, name: str, fallback: Any = None) -> tuple[float, float, float, float] | None:
    value = page.obj.get(name)
    if value is None:
        return fallback
    x0, y0, x1, y1 = (float(v) for v in value)
    return (min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1))


def mm(value: float) -> float:
    return round(value / PT_PER_MM, 2)


# --- one file -------------------------------------------------------------------------------


def preflight_pdf(path: Path, limits: Limits = DEFAULTS, name: str | None = None) -> FileReport:
    """Every check on one PDF."""
    import pikepdf

    report = FileReport(name or str(path))
    try:
        pdf = pikepdf.open(path)
    except (pikepdf.PdfError, OSError) as error:
        raise PnpgenError(f"{path}: not a PDF that can be read ({error})") from None
    with pdf:
        report.pages = len(pdf.pages)
        trims, used = _check_pages(pdf, report, limits)
        names, missing = font_problems(pdf, used)
        report.facts["fonts"] = names
        for font in missing:
            report.add("fonts", "fail", f"font {font} is not embedded: the shop's RIP would substitute it")
        if limits.vendor is not None:
            _vendor_pdf_rules(pdf, report, limits.vendor)
        cmyk_intent = any("/DestOutputProfile" in i and int(i.DestOutputProfile.get("/N", 0)) == 4
                          for i in pdf.Root.get("/OutputIntents", []))
    _check_colours(report, limits, cmyk_intent)
    _check_safe_zone(path, report, limits, trims)
    _check_ink(path, report, limits)
    return report


def _check_pages(pdf: Any, report: FileReport,
                 limits: Limits) -> tuple[list[tuple[float, float, float, float] | None], list[set[str]]]:
    """Boxes and bleed of every page, and what each page paints (colours, pictures, lines,
    text); returns the trims and the fonts each page sets text in."""
    sizes: set[str] = set()
    bleeds: list[float] = []
    spaces: set[str] = set()
    small: list[str] = []
    trims: list[tuple[float, float, float, float] | None] = []
    used: list[set[str]] = []
    for number, page in enumerate(pdf.pages, start=1):
        media = box(page, "/MediaBox")
        assert media is not None
        trim = box(page, "/TrimBox")
        bleed_box = box(page, "/BleedBox", box(page, "/CropBox", media))
        trims.append(trim)
        if trim is None:
            report.add("bleed", "fail", "no TrimBox: the file does not say where to cut, so it has no bleed", number)
            sizes.add(f"{mm(media[2] - media[0]):g} × {mm(media[3] - media[1]):g} mm page, no trim")
        else:
            assert bleed_box is not None
            bleed = min(trim[0] - bleed_box[0], trim[1] - bleed_box[1], bleed_box[2] - trim[2], bleed_box[3] - trim[3])
            bleeds.append(mm(bleed))
            sizes.add(f"{mm(trim[2] - trim[0]):g} × {mm(trim[3] - trim[1]):g} mm trim")
            if mm(bleed) + 0.05 < limits.bleed_mm:
                report.add("bleed", "fail", f"bleed {mm(bleed):g} mm, under the {limits.bleed_mm:g} mm asked", number)
        marks = Marks()
        follow(page.obj, page.get("/Resources"), State(), marks)
        used.append(marks.fonts)
        spaces |= marks.spaces
        for image in marks.images:
            ppi = image["ppi"]
            x, y = image["where"]
            at = f"{image['px'][0]}×{image['px'][1]} px picture at {mm(x):g}, {mm(y):g} mm"
            if ppi < limits.ppi * FAIL_PPI_SHARE:
                report.add("images", "fail", f"{at}: {ppi:.0f} ppi, under {limits.ppi * FAIL_PPI_SHARE:.0f}", number)
            elif ppi < limits.ppi - 0.5:
                report.add("images", "warn", f"{at}: {ppi:.0f} ppi, under {limits.ppi:.0f}", number)
            if image["space"] == "rgb" and limits.colour == "cmyk":
                report.add("colour", "fail", f"{at} is RGB in a CMYK file", number)
            if image["space"] == "cmyk" and limits.colour == "rgb":
                report.add("colour", "fail", f"{at} is CMYK; {_vendor_name(limits)} takes RGB only", number)
        thin = [w for w in marks.strokes if w[0] < limits.hairline_pt]
        if thin:
            width, where = min(thin)
            report.add("hairlines", "warn", f"{len(thin)} line(s) under {limits.hairline_pt:g} pt, the thinnest "
                       f"{width:.3f} pt at {mm(where[0]):g}, {mm(where[1]):g} mm: it may not print", number)
        for text in marks.texts:
            rich = text["inks"] > 1
            limit = limits.small_rich_text_pt if rich else limits.small_text_pt
            if text["size"] < limit - 0.01:
                kind = "text in several inks" if rich else "text"
                small.append(f"page {number}: {kind} {text['size']:.1f} pt at {mm(text['where'][0]):g}, "
                             f"{mm(text['where'][1]):g} mm")
        for what in sorted(set(marks.transparency)):
            severity = "fail" if limits.vendor is not None and limits.vendor.format == "pdf-x1a" else "warn"
            report.add("transparency", severity, f"{what} (PDF/X-1a allows no transparency)", number)
    if small:
        report.add("small text", "warn", f"{len(small)} text run(s) under {limits.small_text_pt:g} pt "
                   f"(or in several inks under {limits.small_rich_text_pt:g} pt), first: {small[0]}")
    report.facts.update(sizes=sorted(sizes), bleed_mm=min(bleeds) if bleeds else 0.0, colour_spaces=sorted(spaces))
    return trims, used


def _vendor_name(limits: Limits) -> str:
    return limits.vendor.name if limits.vendor is not None else "the shop"


def _check_colours(report: FileReport, limits: Limits, cmyk_intent: bool) -> None:
    spaces = set(report.facts.get("colour_spaces", []))
    if limits.colour == "cmyk" and "rgb" in spaces:
        report.add("colour", "fail", f"RGB colour in a CMYK file ({_vendor_name(limits)} asks for CMYK only)")
    elif limits.colour is None and "rgb" in spaces and ("cmyk" in spaces or cmyk_intent):
        report.add("colour", "fail", "RGB colour in a CMYK file (a CMYK output intent or CMYK colours beside it)")
    elif limits.colour is None and "rgb" in spaces:
        report.add("colour", "warn", "RGB only: the shop converts it to CMYK, and colours may shift")


def _check_safe_zone(path: Path, report: FileReport, limits: Limits,
                     trims: list[tuple[float, float, float, float] | None]) -> None:
    """Characters (PDFium's boxes) reaching into the safe zone, inside the trim by safe_mm."""
    import pypdfium2 as pdfium

    safe = (limits.safe_mm - SAFE_TOLERANCE_MM) * PT_PER_MM
    document = pdfium.PdfDocument(str(path))
    outside: list[tuple[float, str, float, float, int]] = []  # distance from the cut, glyph, where, page
    pages: set[int] = set()
    try:
        for index, trim in enumerate(trims):
            if trim is None:
                continue
            page = document[index]
            text = page.get_textpage()
            for char in range(text.count_chars()):
                glyph = text.get_text_range(char, 1)
                if not glyph.strip():
                    continue
                left, bottom, right, top = text.get_charbox(char)
                if left < trim[0] + safe or right > trim[2] - safe or bottom < trim[1] + safe or top > trim[3] - safe:
                    edge = min(left - trim[0], bottom - trim[1], trim[2] - right, trim[3] - top)
                    outside.append((edge, glyph, left - trim[0], bottom - trim[1], index + 1))
                    pages.add(index + 1)
            text.close()
            page.close()
    finally:
        document.close()
    if outside:
        edge, glyph, x, y, number = min(outside)
        report.add("safe zone", "warn", f"{len(outside)} character(s) on {len(pages)} page(s) inside the "
                   f"{limits.safe_mm:g} mm safe zone; the nearest, '{glyph}' on page {number}, {mm(edge):g} mm "
                   f"from the cut (at {mm(x):g}, {mm(y):g} mm from the trim's lower left)")


def _check_ink(path: Path, report: FileReport, limits: Limits) -> None:
    """Total ink of every page rasterised in CMYK at INK_DPI: the maximum and where."""
    import shutil

    import numpy as np

    from pnpgen.render.vendors.raster import distinct_pages, rasterise_cmyk, total_ink

    if shutil.which("gs") is None:
        report.add("ink", "warn", "not measured: Ghostscript (gs) is not installed")
        return
    worst = (0.0, 0, 0.0, 0.0)
    pages = sorted(set(distinct_pages(path)))  # a page drawing what an earlier one drew is measured once
    for number, image in zip(pages, rasterise_cmyk(path, INK_DPI, pages), strict=True):
        ink = total_ink(image)
        row, col = np.unravel_index(int(np.argmax(ink)), ink.shape)
        peak = float(ink[row, col])
        if peak > worst[0]:
            worst = (peak, number, col * 25.4 / INK_DPI, row * 25.4 / INK_DPI)
    peak, page, x, y = worst
    report.facts["max_ink_percent"] = round(peak, 1)
    where = f"page {page}, {x:.1f} mm from the left, {y:.1f} mm from the top"
    report.facts["max_ink_at"] = where
    if peak > limits.ink_limit + 0.5:
        report.add("ink", "fail", f"total ink {peak:.0f} %, over the {limits.ink_limit:g} % limit, at {where}", page)


def _vendor_pdf_rules(pdf: Any, report: FileReport, profile: Profile) -> None:
    """The shop's own rules for a PDF: PDF/X-1a structure and its product sizes."""
    if profile.format != "pdf-x1a":
        report.add("vendor", "warn", f"{profile.name} takes {profile.format.upper()} files, one per face "
                   f"(pnpgen build --vendor {profile.id}); this PDF is checked against its limits only")
        return
    version = str(pdf.docinfo.get("/GTS_PDFXVersion", ""))
    if not version.startswith("PDF/X-1"):
        report.add("vendor", "fail", f"not PDF/X-1a: GTS_PDFXVersion is '{version or 'missing'}'")
    metadata = bytes(pdf.Root.Metadata.read_bytes()) if "/Metadata" in pdf.Root else b""
    if version and version.encode() not in metadata:
        report.add("vendor", "fail", "the XMP metadata does not repeat GTS_PDFXVersion")
    intents = [i for i in pdf.Root.get("/OutputIntents", []) if str(i.get("/S", "")) == "/GTS_PDFX"]
    if not intents:
        report.add("vendor", "fail", "no GTS_PDFX output intent")
    if str(pdf.docinfo.get("/Trapped", "")) not in ("/True", "/False"):
        report.add("vendor", "fail", "/Trapped is not True or False")
    if pdf.pdf_version > "1.4":
        report.add("vendor", "fail", f"PDF {pdf.pdf_version}: PDF/X-1a:2003 is PDF 1.4 at most")
    sizes = {(round(p.size_px[0] / profile.ppi * 72, 1), round(p.size_px[1] / profile.ppi * 72, 1))
             for p in profile.products}
    sizes |= {(h, w) for w, h in sizes}
    for number, page in enumerate(pdf.pages, start=1):
        media = box(page, "/MediaBox")
        assert media is not None
        size = (round(media[2] - media[0], 1), round(media[3] - media[1], 1))
        if not any(abs(size[0] - w) <= 0.5 and abs(size[1] - h) <= 0.5 for w, h in sizes):
            report.add("vendor", "fail", f"page {mm(size[0]):g} × {mm(size[1]):g} mm is none of {profile.name}'s "
                       "products (with bleed)", number)
            break
    if len(profile.sides) == 2 and len(pdf.pages) % 2:
        report.add("vendor", "fail", f"{len(pdf.pages)} pages: {profile.name} wants pairs ({', '.join(profile.sides)})")


def preflight_png(path: Path, profile: Profile, name: str) -> FileReport:
    """A vendor's picture: one of its products' exact sizes, in its colour mode."""
    from PIL import Image

    report = FileReport(name, pages=1)
    with Image.open(path) as image:
        size, mode = image.size, image.mode
    report.facts.update(size_px=list(size), mode=mode)
    if (profile.colour == "rgb") != (mode in ("RGB", "RGBA", "P", "L")):
        report.add("vendor", "fail", f"{mode} picture; {profile.name} takes {profile.colour.upper()}")
    if all(size != p.size_px for p in profile.products):
        report.add("vendor", "fail", f"{size[0]} × {size[1]} px is none of {profile.name}'s products: "
                   + ", ".join(f"{p.size_px[0]} × {p.size_px[1]}" for p in profile.products))
    return report


# --- a game ---------------------------------------------------------------------------------


def print_files(content: GameContent, options: BuildOptions) -> Iterator[tuple[Path, str, list[str]]]:
    """The game's print files, built into options.out: the vendor's, else the print-shop PDFs;
    each with its build notes (the safe-zone warnings name component, element and mm)."""
    from pnpgen.games import rules_for_content
    from pnpgen.render.kit import TYPES, components, jobs

    rules = rules_for_content(content)
    folder = options.game_dir(content)
    if options.vendor is not None:
        from pnpgen.render.vendors.export import export_vendor

        for built in export_vendor(content, rules, options):
            if built.path.suffix in (".pdf", ".png"):
                yield built.path, built.path.relative_to(folder).as_posix(), built.notes
        return
    shop = replace(options, print_shop=True)
    for item in components(content):
        for job in jobs(content, rules, shop, item):
            for built in TYPES[str(item["type"])].render(item, job):
                yield built.path, built.path.relative_to(folder).as_posix(), built.notes


def preflight_game(content: GameContent, vendor: str | None, content_root: Path) -> list[FileReport]:
    """The game's print files built in a temporary folder and preflighted, and its colours
    checked for colour-blind players."""
    from pnpgen.render.colourvision import check_game

    limits = limits_for(vendor)
    reports: list[FileReport] = []
    said: set[str] = set()
    with tempfile.TemporaryDirectory(prefix="pnpgen-preflight-") as tmp:
        options = BuildOptions(out=Path(tmp), vendor=vendor, content_root=content_root)
        for path, name, notes in print_files(content, options):
            if path.suffix == ".png" and limits.vendor is not None:
                reports.append(preflight_png(path, limits.vendor, name))
            else:
                reports.append(preflight_pdf(path, limits, name))
            for note in notes:  # the content's own safe zone: 'file:line:col: component, element, mm'
                if note.startswith("warning: ") and "safe zone" in note and note not in said:
                    said.add(note)  # once, on the first file of its deck
                    reports[-1].add("safe zone", "warn", note[len("warning: "):])
    colours = FileReport(f"{content.id} (content colours)")
    from pnpgen.games import rules_for_content

    verdict = check_game(content, rules_for_content(content))
    colours.facts["colour_vision"] = verdict.detail
    for problem in verdict.problems:
        colours.add("colour vision", "fail", problem)
    reports.append(colours)
    return reports
