"""One table drawer for the print kit (pnpgen.render.kit.ruled): a sheet's table block and a
card's table element come out of the PDF in the same look, read back from the page: cells
ruled at 0.5 pt, the whole table outlined at 1.2 pt, the header row shaded in the same colour."""

from __future__ import annotations

from pathlib import Path

from pypdf import PdfReader
from pypdf.generic import ContentStream
from reportlab.lib.colors import HexColor

from pnpgen.render.kit.ruled import HEADER, LINE_WIDTH, OUTLINE
from tests.test_kit_small_faults import build

PARTS = """\
- type: sheet
  id: scores
  title: Scores
  blocks:
    - table: {columns: [{header: Round, width: 20}, {header: Points}], rows: [{label: "1"}, {label: "2"}]}
- type: deck
  id: aid
  title: Aid
  size: poker
  cards:
    - {quantity: 1}
  front:
    - {table: {rows: [[Round, Points], ["1", ""], ["2", ""]]}, x: 4, y: 4, w: 50, h: 20, size: 7}
"""

Box = tuple[float, float, float, float]


def painted(path: Path) -> tuple[list[tuple[Box, float]], list[tuple[Box, tuple[float, ...]]]]:
    """The first page's stroked rectangles with their line widths, and its filled ones with
    their colours (kit pages draw without transforms)."""
    reader = PdfReader(path)
    width, colour, pending = 1.0, (0.0, 0.0, 0.0), []
    stroked: list[tuple[Box, float]] = []
    filled: list[tuple[Box, tuple[float, ...]]] = []
    for operands, op in ContentStream(reader.pages[0].get_contents(), reader).operations:
        if op == b"w":
            width = float(operands[0])
        elif op == b"rg":
            colour = tuple(round(float(v), 3) for v in operands)
        elif op == b"re":
            x, y, w, h = (float(v) for v in operands)
            pending.append((round(x, 2), round(y, 2), round(x + w, 2), round(y + h, 2)))
        elif op in (b"S", b"f", b"f*", b"n", b"B"):
            if op == b"S":
                stroked += [(box, width) for box in pending]
            elif op in (b"f", b"f*"):
                filled += [(box, colour) for box in pending]
            pending = []
    return stroked, filled


def look(path: Path) -> tuple[int, bool, bool]:
    """(cells ruled at LINE_WIDTH, one outline at OUTLINE round them all, header shaded HEADER)."""
    stroked, filled = painted(path)
    cells = [box for box, w in stroked if abs(w - LINE_WIDTH) < 1e-6]
    outlines = [box for box, w in stroked if abs(w - LINE_WIDTH * OUTLINE) < 1e-6]
    around = any(o[0] <= min(c[0] for c in cells) + 0.01 and o[2] >= max(c[2] for c in cells) - 0.01
                 and o[1] <= min(c[1] for c in cells) + 0.01 and o[3] >= max(c[3] for c in cells) - 0.01
                 for o in outlines)
    header = tuple(round(v, 3) for v in HexColor(HEADER).rgb())
    shaded = [box for box, colour in filled if colour == header]
    return len(cells), around, len(shaded) == 2  # Round and Points


def test_a_sheet_table_and_a_card_table_are_drawn_alike(tmp_path: Path) -> None:
    out = build(tmp_path, PARTS)
    sheet = next(out.glob("scores*.pdf"))
    card = out / "aid.pdf"
    assert look(sheet) == (6, True, True)  # 3 rows × 2 columns, header included
    assert look(card) == (6, True, True)
