"""Rulebook tables fit the frame: a table wider than the page is wrapped in its cells,
its columns share the width by their content (no column narrower than its longest word),
and its text is made smaller only when even the longest words cannot fit, in both
languages (Japanese wraps between characters, with kinsoku). The quick reference, scaled
to fill its page, lays its tables out for the scaled width, so they stay inside too.

Measured on the toy rulebook (tests/fixtures/rulebook-toy) with one wide table added to a
body section and to the quick reference, with and without relative `widths`."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pdfplumber
import pytest

from pnpgen.content.game import load_game
from pnpgen.output import BuildOptions
from pnpgen.render.rulebook import render_rulebooks
from pnpgen.render.rulebook.layout import MARGIN
from pnpgen.render.rulebook.tables import column_widths
from tests.test_rulebook import ToyRules, copy_toy

TOLERANCE = 0.5  # pt: positions are written rounded to 0.01 pt
MM = 72 / 25.4

WIDE = {
    "en": [["Piece", "Movement allowance", "Battle points", "Special abilities and notes", "Cost", "Example"],
           ["King Dragon", "Moves orthogonally, one square a step, never through a wall",
            "1D + 20 + crystals", "Never stops on waterway, swamp or lava; its action ends your turn", "—",
            "10 − 2 = 8 s"],
           ["Magician", "Cross-warp for 2G to any square in its row or column", "12",
            "Counterintelligence specialist", "5G", "3 points"]],
    "ja": [["駒", "移動力", "戦闘力", "特殊能力と注意点", "コスト", "例"],
           ["キングドラゴン", "縦横に1マスずつ移動し、味方の駒は通過できるが敵の駒に止まると接近戦になる。",
            "1D＋20＋クリスタル", "水路・毒沼・溶岩で止まれない。王が行動したら手番終了。", "—", "10 − 2 = 8 秒"],
           ["マジシャン", "十字ワープ（2G）で同じ列か行の好きなマスへ移動できる。", "12",
            "「ストップ！」の駒は通過できない。", "5G", "3 点"]],
}


class WideRules(ToyRules):
    """The toy game, also publishing a six-column table far wider than the page."""

    def rulebook_table(self, name: str, lang: str) -> list[list[str]]:
        if name == "wide":
            return WIDE[lang]
        return super().rulebook_table(name, lang)


@pytest.fixture(scope="module")
def wide_books(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """The toy rulebook (ja, en) with the wide table sized by its content in the body, and
    on the quick reference both by content and by relative widths."""
    folder = copy_toy(tmp_path_factory.mktemp("wide"))
    body = (folder / "rulebook.yaml").read_text(encoding="utf-8")
    body = body.replace("      - table: points\n", "      - table: wide\n      - table: points\n", 1)
    (folder / "rulebook.yaml").write_text(body, encoding="utf-8")
    back = (folder / "chapter2.yaml").read_text(encoding="utf-8")
    back = back.replace("      - table: points\n", "      - table: wide\n        widths: [1, 3, 2, 3, 1, 1]\n"
                        "      - table: wide\n", 1)
    (folder / "chapter2.yaml").write_text(back, encoding="utf-8")
    content = load_game(folder)
    built = render_rulebooks(content, [WideRules(content)], BuildOptions(out=folder.parent / "out", paper="A4"))
    return {f.path.stem.split("-")[-1]: f.path for f in built}


def pages_with(path: Path, text: str) -> list[Any]:
    with pdfplumber.open(path) as pdf:
        return [page for page in pdf.pages if text in (page.extract_text() or "").replace(" ", "")]


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_no_character_outside_the_frame(wide_books: dict[str, Path], lang: str) -> None:
    faults = []
    tables = 0
    with pdfplumber.open(wide_books[lang]) as pdf:
        for number, page in enumerate(pdf.pages, 1):
            text = (page.extract_text() or "").replace(" ", "")
            tables += text.count("5G")  # the Magician's cost: once in each copy of the table
            left, right, top = MARGIN - TOLERANCE, page.width - MARGIN + TOLERANCE, MARGIN - TOLERANCE
            faults += [f"p{number} {c['text']!r} x {c['x0']:.1f}–{c['x1']:.1f} (frame {MARGIN:.1f}–"
                       f"{page.width - MARGIN:.1f}), top {c['top']:.1f}"
                       for c in page.chars if c["text"].strip() and (c["x0"] < left or c["x1"] > right
                                                                     or c["top"] < top)]
    assert tables == 3  # the wide table in the body, and twice on the quick reference
    assert faults == [], "\n".join(faults[:20])


def test_english_words_and_equations_are_not_broken(wide_books: dict[str, Path]) -> None:
    """Each column is at least as wide as its longest word: no word is cut inside, and an
    equation held together by no-break spaces stays on one line."""
    with pdfplumber.open(wide_books["en"]) as pdf:
        for page in pdf.pages:
            text = page.extract_text() or ""
            if "Counterintelligence" not in text.replace("\n", ""):
                continue
            lines = [line["text"] for line in page.extract_text_lines()]
            joined = "\n".join(lines)
            for word in ("Counterintelligence", "orthogonally", "Cross-warp", "allowance", "Magician"):
                assert word in joined, (word, lines)
            assert re.search(r"10\s−\s2\s=\s8\ss", joined), lines


def test_quick_reference_tables_fill_the_frame_width(wide_books: dict[str, Path]) -> None:
    """On the quick reference the tables are as wide as the frame (scaled, not cut short
    or run past it): the rightmost rule of the tables lies at the right margin."""
    for lang, path in wide_books.items():
        page = pages_with(path, "5G")[-1]
        right = max(edge["x1"] for edge in page.edges if edge["orientation"] == "v")
        assert right == pytest.approx(page.width - MARGIN, abs=1.0), lang


def test_columns_share_the_width_by_content() -> None:
    # natural widths that fit are kept
    assert column_widths([20, 30], [50, 60], 200) == [50, 60]
    # too wide: each column gets its longest word and a share of the rest by what it lacks
    widths = column_widths([20, 40], [120, 240], 200)
    assert sum(widths) == pytest.approx(200) and widths[0] >= 20 and widths[1] >= 40
    assert (widths[0] - 20) / (widths[1] - 40) == pytest.approx(100 / 200)
    # relative widths are shares of the frame, but a column keeps its longest word
    assert column_widths([10, 10], [10, 10], 300, [1, 2]) == pytest.approx([100, 200])
    assert column_widths([150, 10, 10], [150, 10, 10], 300, [1, 1, 1]) == pytest.approx([150, 75, 75])
    # even the longest words do not fit: in proportion to them (words then break)
    assert column_widths([300, 100], [300, 100], 200) == pytest.approx([150, 50])


def test_dungeon_war_keeps_every_character_inside_the_frame(rulebook_pdfs: Any) -> None:
    """The shipped Dungeon War book (the session's build), both languages: no letter left
    of, right of or above the frame. (test_rulebook_typography measures the right margin of
    the other books; its quick reference once ran a table past the margin.)"""
    for lang, path in rulebook_pdfs["dungeon-war"].items():
        with pdfplumber.open(path) as pdf:
            for number, page in enumerate(pdf.pages, 1):
                left, right, top = MARGIN - TOLERANCE, page.width - MARGIN + TOLERANCE, MARGIN - TOLERANCE
                outside = [c["text"] for c in page.chars
                           if c["text"].strip() and (c["x0"] < left or c["x1"] > right or c["top"] < top)]
                assert outside == [], f"{lang} p{number}: {''.join(outside)[:40]}"


def draw_alone(path: Path, rows: list[list[str]], lang: str, width: float) -> None:
    """The table flowable alone, laid out `width` wide at MARGIN on an A4 page."""
    from reportlab.lib.pagesizes import A4
    from reportlab.pdfgen.canvas import Canvas

    from pnpgen.render.fonts import setup_fonts
    from pnpgen.render.rulebook.layout import Styles, grid_style, markup
    from pnpgen.render.rulebook.tables import text_table

    setup_fonts()
    cell = Styles(lang).cell
    table = text_table([[markup(c, lang) for c in row] for row in rows], [cell] * len(rows[0]),
                       grid_style([("GRID", (0, 0), (-1, -1), 0.5, "black")], lang))
    canvas = Canvas(str(path), pagesize=A4)
    _, height = table.wrap(width, A4[1])
    table.drawOn(canvas, MARGIN, A4[1] - MARGIN - height)
    canvas.save()


@pytest.mark.parametrize(("columns", "whole"), [(4, True), (6, True), (10, False)])
def test_text_is_set_smaller_only_when_the_longest_words_do_not_fit(tmp_path: Path, columns: int,
                                                                    whole: bool) -> None:
    """Columns of one long word each, 160 mm wide: four fit at the cell size; six do not,
    so the text is set smaller (between 0.75 and 1) and every word stays whole; ten do not
    fit even at the smallest size (0.75): the words break, but nothing crosses the frame."""
    from pnpgen.render.rulebook.layout import Styles

    width = 160 * MM
    word = "Counterintelligence"
    path = tmp_path / "alone.pdf"
    draw_alone(path, [[f"{word}{c}" for c in range(columns)], ["1"] * columns], "en", width)
    with pdfplumber.open(path) as pdf:
        page = pdf.pages[0]
        chars = [c for c in page.chars if c["text"].strip()]
        text = page.extract_text()
    assert chars and all(c["x0"] >= MARGIN - TOLERANCE and c["x1"] <= MARGIN + width + TOLERANCE for c in chars)
    sizes = {round(c["size"] / Styles("en").cell.fontSize, 3) for c in chars}
    assert len(sizes) == 1
    scale = sizes.pop()
    assert scale == {4: 1.0, 10: 0.75}.get(columns, scale) and 0.75 <= scale <= 1.0
    assert (0.75 < scale < 1.0) is (columns == 6)
    assert all((f"{word}{c}" in text) is whole for c in range(columns)), text


def test_japanese_cells_wrap_with_kinsoku(wide_books: dict[str, Path]) -> None:
    """The wide table's Japanese cells wrap between characters: no cell line starts with
    a closing bracket or 。、 nor ends with an opening bracket."""
    from pnpgen.render.linebreak import NO_END, NO_START
    from tests.test_rulebook_typography import segments

    lines = 0
    for page in pages_with(wide_books["ja"], "5G"):
        for run in segments(page):
            text = "".join(c["text"] for c in run)
            lines += 1
            assert text[0] not in NO_START and text[-1] not in NO_END, text
    assert lines > 30


def test_quick_reference_enlarges_boxes_and_drawings_within_the_frame(tmp_path: Path) -> None:
    """FitPage (the quick reference) lays its content out narrower and scales it up: a box
    holding a drawing made for the full width is laid out for the narrower width too (the
    drawing shrinks to its box), so nothing drawn crosses the frame after the enlargement."""
    from reportlab.lib.pagesizes import A4
    from reportlab.pdfgen.canvas import Canvas
    from reportlab.platypus import Table

    from pnpgen import scene as sc
    from pnpgen.render.diagram import drawing
    from pnpgen.render.rulebook.layout import FitPage
    from pnpgen.render.rulebook.tables import FitTable

    width = A4[0] - 2 * MARGIN
    art = drawing(sc.Scene(400, 60, (sc.Rect(0, 0, 400, 60, fill="#cccccc"),)), width - 16)
    assert art.wrap(width - 16, 1e6) == (400, 60) and art.wrap(200, 1e6) == (200, 30)

    def box(inner: float) -> Table:
        table = Table([[art]], colWidths=[inner])
        table.setStyle([("LEFTPADDING", (0, 0), (-1, -1), 8), ("RIGHTPADDING", (0, 0), (-1, -1), 8),
                        ("BOX", (0, 0), (-1, -1), 0.5, "black")])
        return table

    page = FitPage([FitTable(box)])
    _, height = page.wrap(width, 500)
    assert page.scale == pytest.approx(1.35)  # short content: enlarged as far as it goes
    path = tmp_path / "fit.pdf"
    canvas = Canvas(str(path), pagesize=A4)
    page.drawOn(canvas, MARGIN, A4[1] - MARGIN - height)
    canvas.save()
    with pdfplumber.open(path) as pdf:
        shapes = pdf.pages[0].rects + pdf.pages[0].lines
        assert shapes and all(s["x0"] >= MARGIN - TOLERANCE and s["x1"] <= MARGIN + width + TOLERANCE
                              for s in shapes)
        assert max(s["x1"] for s in shapes) == pytest.approx(MARGIN + width, abs=1)  # the box fills it
