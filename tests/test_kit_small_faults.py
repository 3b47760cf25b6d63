"""Small print-kit faults of issue 15, each measured in a PDF or in the CLI's output:
board region labels legible on a knocked-out plate, a table caption kept inside its
column, and one overflow problem per card design (not per copy and language)."""

from __future__ import annotations

import shutil
import textwrap
from pathlib import Path
from typing import Any

from pypdf import PdfReader
from pypdf.generic import ContentStream
from reportlab.pdfbase.pdfmetrics import stringWidth

from pnpgen.build import build_game
from pnpgen.content.game import load_game
from pnpgen.output import BuildOptions
from pnpgen.render.fonts import SANS, setup_fonts
from tests.conftest import ROOT, CliRun
from tests.kit_pdf import game_yaml

GAME = game_yaml("tiny", "parts.yaml")


def build(tmp_path: Path, parts: str) -> Path:
    folder = tmp_path / "content" / "tiny"
    folder.mkdir(parents=True)
    (folder / "game.yaml").write_text(GAME, encoding="utf-8")
    (folder / "parts.yaml").write_text(textwrap.dedent(parts), encoding="utf-8")
    build_game(load_game(folder), BuildOptions(out=tmp_path / "b", langs=("ja",), content_root=folder.parent))
    return tmp_path / "b" / "tiny"


def rects(reader: PdfReader, page: int) -> list[tuple[int, str, tuple[float, ...], tuple[float, ...]]]:
    """(operator index, 'fill' or 'stroke', (x0, y0, x1, y1), fill colour) of each `re` painted
    on the page, in drawing order (no transforms: kit pages draw without any)."""
    ops = ContentStream(reader.pages[page].get_contents(), reader).operations
    found = []
    colour: tuple[float, ...] = (0.0,)
    pending: list[tuple[float, ...]] = []
    for index, (operands, op) in enumerate(ops):
        if op in (b"rg", b"g", b"k"):
            colour = tuple(float(v) for v in operands)
        elif op == b"re":
            x, y, w, h = (float(v) for v in operands)
            pending.append((min(x, x + w), min(y, y + h), max(x, x + w), max(y, y + h)))
        elif op in (b"f", b"f*", b"S", b"B", b"n"):
            kind = "fill" if op in (b"f", b"f*") else "stroke" if op == b"S" else "other"
            found += [(index, kind, box, colour) for box in pending]
            pending = []
    return found


def text_runs(reader: PdfReader, page: int) -> list[tuple[str, float, float, float]]:
    runs: list[tuple[str, float, float, float]] = []

    def visit(text: str, cm: Any, tm: Any, _font: Any, size: float) -> None:
        if text.strip():
            runs.append((text.strip(), tm[4] * cm[0] + tm[5] * cm[2] + cm[4], tm[4] * cm[1] + tm[5] * cm[3] + cm[5],
                         size))

    reader.pages[page].extract_text(visitor_text=visit)
    return runs


def test_region_label_is_legible_on_a_knocked_out_plate(tmp_path: Path) -> None:
    out = build(tmp_path, """\
        - type: board
          id: board
          title: Board
          grid: {columns: 6, rows: 6, cell: 20}
          regions:
            - {from: [1, 1], to: [3, 2], fill: "#fde2d8", border: "#e76f51", label: Fire lands}
        """)
    reader = PdfReader(out / "board.pdf")
    [(_, x, y, size)] = [run for run in text_runs(reader, 0) if run[0] == "Fire lands"]
    assert size >= 10  # was 9 pt on 20 mm cells: letters about 2 mm high
    painted = rects(reader, 0)
    last_grid_line = max(i for i, kind, _box, _c in painted if kind == "stroke")
    plates = [(i, box) for i, kind, box, colour in painted
              if kind == "fill" and colour == (1.0, 1.0, 1.0) and box[0] <= x and box[1] <= y + 1 <= box[3]]
    assert plates, "no white plate under the label"
    index, box = plates[-1]
    assert index > last_grid_line  # painted over the grid lines: none runs through the label
    setup_fonts()
    assert box[2] >= x + stringWidth("Fire lands", SANS, size) - 0.5  # the whole label on it


def test_a_table_caption_stays_inside_its_column(tmp_path: Path) -> None:
    out = build(tmp_path, """\
        - type: sheet
          id: scores
          title: Scores
          blocks:
            - table:
                columns:
                  - {header: 手番, width: 14}
                  - {header: 得点}
                rows:
                  - {label: "1"}
                  - {label: 最終, caption: 最終ラウンド, height: 9}
        """)
    reader = PdfReader(out / "scores-ja.pdf" if (out / "scores-ja.pdf").exists() else out / "scores.pdf")
    setup_fonts()
    [(_, x, y, size)] = [run for run in text_runs(reader, 0) if run[0] == "最終ラウンド"]
    cells = [box for _i, kind, box, _c in rects(reader, 0)
             if kind == "stroke" and box[0] <= x <= box[2] and box[1] <= y <= box[3]]
    cell = min(cells, key=lambda b: (b[2] - b[0]) * (b[3] - b[1]))  # the caption's own cell
    assert abs((cell[2] - cell[0]) - 14 * 72 / 25.4) < 0.5  # the 14 mm column
    assert x + stringWidth("最終ラウンド", SANS, size) <= cell[2] - 0.5  # did cross the column line


def test_one_overflow_problem_per_card_design(tmp_path: Path, run_pnpgen: CliRun) -> None:
    root = tmp_path / "content"
    shutil.copytree(ROOT / "tests" / "fixtures" / "kit-demo", root / "kit-demo")
    deck = root / "kit-demo" / "deck.yaml"
    text = deck.read_text(encoding="utf-8")
    old = '{text: "{{ text }}", x: 5, y: 53, w: 53, h: 27, size: 8, shrink: true}'
    assert old in text
    deck.write_text(text.replace(old, '{text: "{{ text }}", x: 5, y: 53, w: 53, h: 27, size: 30}'),
                    encoding="utf-8")
    code, out, err = run_pnpgen("validate", "kit-demo", "--content", str(root))
    lines = [line for line in (out + err).splitlines() if "text overflows" in line]
    designs = (root / "kit-demo" / "cards.csv").read_text(encoding="utf-8").strip().count("\n")
    assert code != 0 and len(lines) == designs == 20  # 60 cards × 2 languages made 120 lines
    assert "(and 3 more copies of this card)" in lines[0] and not lines[0].endswith(("(ja)", "(en)"))
