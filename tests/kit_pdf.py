"""Reading print-kit PDFs back for tests: page boxes in mm, clip rectangles, stroked
segments with their line width, text with its position, embedded fonts (pypdf only); and
the game.yaml of a small test game."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pypdf import PdfReader
from pypdf.generic import ContentStream

MM = 72 / 25.4


def game_yaml(ident: str, components: str, title: str | None = None, players: tuple[int, int] = (2, 4)) -> str:
    """A small game's game.yaml: the keys every game needs, then `components: <components>`
    (a file, a list of files, or empty for YAML that follows)."""
    return (f"id: {ident}\ntitle: {title or ident.title()}\nplayers: {{min: {players[0]}, max: {players[1]}}}\n"
            f"time_minutes: 5\nversion: 1\ncomponents:{' ' + components if components else ''}\n")


def mm(value: float) -> float:
    return value / MM


def box_mm(box: Any) -> tuple[float, float, float, float]:
    """A pypdf RectangleObject as (x0, y0, x1, y1) in mm."""
    return tuple(round(float(v) / MM, 2) for v in (box.left, box.bottom, box.right, box.top))  # type: ignore[return-value]


@dataclass
class Segment:
    x1: float
    y1: float
    x2: float
    y2: float
    width: float  # line width, points


@dataclass
class PageDrawing:
    clips: list[tuple[float, float, float, float]]  # x, y, w, h in points, in drawing order
    segments: list[Segment]  # straight stroked lines (m ... l ... S)
    ops: list[tuple[list[Any], bytes]]


def drawing(reader: PdfReader, index: int) -> PageDrawing:
    """Clip rectangles (`re W n`) and stroked two-point lines of a page, in points,
    including those inside forms the page shows (`Do`; drawn with no transform). Only
    plain pages are read this way: no transforms are applied."""
    page = reader.pages[index]
    clips: list[tuple[float, float, float, float]] = []
    segments: list[Segment] = []
    all_ops: list[tuple[list[Any], bytes]] = []

    def walk(stream: Any, resources: Any, width: float) -> None:
        ops = ContentStream(stream, reader).operations
        all_ops.extend(ops)
        stack: list[float] = []
        pending: list[Any] = []
        path: list[tuple[float, float]] = []
        for operands, op in ops:
            if op == b"q":
                stack.append(width)
            elif op == b"Q":
                width = stack.pop()
            elif op == b"w":
                width = float(operands[0])
            elif op == b"re":
                pending = [float(v) for v in operands]
            elif op in (b"W", b"W*") and pending:
                clips.append(tuple(pending))  # type: ignore[arg-type]
            elif op == b"m":
                path = [(float(operands[0]), float(operands[1]))]
            elif op == b"l":
                path.append((float(operands[0]), float(operands[1])))
            elif op == b"S":
                if len(path) == 2:
                    (x1, y1), (x2, y2) = path
                    segments.append(Segment(x1, y1, x2, y2, width))
                path = []
            elif op == b"Do":
                xobject = resources["/XObject"][operands[0]].get_object()
                if xobject.get("/Subtype") == "/Form":
                    walk(xobject, xobject.get("/Resources", resources), width)

    walk(page.get_contents(), page["/Resources"], 1.0)
    return PageDrawing(clips, segments, all_ops)


def texts(reader: PdfReader, index: int) -> list[tuple[str, float, float]]:
    """(text, x, y) of every text run on a page, in points (text matrix x cm)."""
    found: list[tuple[str, float, float]] = []

    def visit(text: str, cm: Any, tm: Any, font: Any, size: Any) -> None:
        if text.strip():
            x = tm[4] * cm[0] + tm[5] * cm[2] + cm[4]
            y = tm[4] * cm[1] + tm[5] * cm[3] + cm[5]
            found.append((text.strip(), x, y))

    reader.pages[index].extract_text(visitor_text=visit)
    return found


def all_text(path: Path) -> str:
    reader = PdfReader(str(path))
    return "\n".join(page.extract_text() for page in reader.pages)


def unembedded_fonts(path: Path) -> list[str]:
    """Names of fonts used on any page without an embedded font program."""
    reader = PdfReader(str(path))
    missing: list[str] = []
    for page in reader.pages:
        fonts = page.get("/Resources", {}).get_object().get("/Font", {})
        for ref in fonts.values():
            font = ref.get_object()
            descriptor_owner = font["/DescendantFonts"][0].get_object() if "/DescendantFonts" in font else font
            descriptor = descriptor_owner.get("/FontDescriptor")
            descriptor = descriptor.get_object() if descriptor is not None else {}
            if not any(k in descriptor for k in ("/FontFile", "/FontFile2", "/FontFile3")):
                missing.append(str(font.get("/BaseFont")))
    return missing


def colour_operators(path: Path) -> set[str]:
    """The colour-setting operators used on any page (rg/RG RGB, k/K CMYK, g/G grey); a
    colour set in a Separation space (a spot colour such as the CutContour dieline) is
    'spot:<name>'."""
    reader = PdfReader(str(path))
    found: set[str] = set()
    seen: set[int] = set()

    def scan(content: Any, resources: Any) -> None:
        spaces = (resources or {}).get("/ColorSpace", {})
        current = {"fill": "", "stroke": ""}
        for operands, op in ContentStream(content, reader).operations:
            if op in (b"cs", b"CS"):
                space = spaces.get(str(operands[0])) if str(operands[0]) in spaces else None
                space = space.get_object() if space is not None else None
                name = f"spot:{str(space[1])[1:]}" if space is not None and space[0] == "/Separation" else ""
                current["fill" if op == b"cs" else "stroke"] = name
            elif op in (b"sc", b"scn", b"SC", b"SCN") and current["fill" if op in (b"sc", b"scn") else "stroke"]:
                found.add(current["fill" if op in (b"sc", b"scn") else "stroke"])
            elif op in (b"rg", b"RG", b"k", b"K", b"g", b"G", b"sc", b"scn", b"SC", b"SCN"):
                found.add(op.decode())
        for ref in (resources or {}).get("/XObject", {}).values():  # forms the content places
            form = ref.get_object()
            if form["/Subtype"] == "/Form" and id(form) not in seen:
                seen.add(id(form))
                scan(form, form.get("/Resources"))

    for page in reader.pages:
        scan(page.get_contents(), page["/Resources"])
    return found
