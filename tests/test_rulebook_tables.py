"""Rulebook tables fit the frame: Typst wraps a table wider than the page in its cells
(auto columns share the width by their content; words and equations held together stay
whole), in both languages (Japanese wraps between characters, with kinsoku). The quick
reference, scaled to fit its page when too long, keeps its tables inside the frame too.

Measured on the toy rulebook (tests/fixtures/rulebook-toy) with one wide table added to a
body section and to the quick reference, with and without relative `widths`."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from pnpgen.content.game import load_game
from pnpgen.output import BuildOptions
from pnpgen.render.rulebook import render_rulebooks
from pnpgen.render.rulebook.layout import MARGIN_TOP, MARGIN_X
from tests import pdfpages
from tests.test_rulebook import ToyRules, copy_toy
from tests.test_rulebook_typography import ink_right

TOLERANCE = 0.5  # pt: positions are written rounded
MARGIN = MARGIN_X
HEAD_PT = 8.01  # the running head, in the top margin, is set this size
# (a heading's ascenders rise above the frame's top, where Typst sets its cap height: a third
# of its size is allowed)

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
    return {f.path.stem.split("-")[-1]: f.path for f in built if f.path.stem.startswith("rulebook-")}


def outside(c: dict[str, Any], left: float, right: float, top: float) -> bool:
    """Is a character's ink left or right of the frame, or above it (not the running head)?"""
    return bool(c["x0"] < left or ink_right(c) > right or (c["top"] < top - c["size"] / 3 and c["size"] > HEAD_PT))


def pages_with(path: Path, text: str) -> list[Any]:
    return [page for page in pdfpages.pages(path) if text in (page.extract_text() or "").replace(" ", "")]


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_no_character_outside_the_frame(wide_books: dict[str, Path], lang: str) -> None:
    faults = []
    tables = 0
    for number, page in enumerate(pdfpages.pages(wide_books[lang]), 1):
        text = (page.extract_text() or "").replace(" ", "")
        tables += text.count("5G")  # the Magician's cost: once in each copy of the table
        left, right, top = MARGIN - TOLERANCE, page.width - MARGIN + TOLERANCE, MARGIN_TOP - TOLERANCE
        faults += [f"p{number} {c['text']!r} x {c['x0']:.1f}–{c['x1']:.1f} (frame {MARGIN:.1f}–"
                   f"{page.width - MARGIN:.1f}), top {c['top']:.1f}"
                   for c in page.chars if c["text"].strip() and outside(c, left, right, top)]
    assert tables == 3  # the wide table in the body, and twice on the quick reference
    assert faults == [], "\n".join(faults[:20])


def test_english_words_and_equations_are_not_broken(wide_books: dict[str, Path]) -> None:
    """Each column is at least as wide as its longest word: no word is cut inside, and an
    equation held together by no-break spaces stays on one line."""
    for page in pdfpages.pages(wide_books["en"]):
        text = page.extract_text() or ""
        if "Counterintelligence" not in text.replace("\n", ""):
            continue
        lines = [line["text"] for line in page.extract_text_lines()]
        joined = "\n".join(lines)
        for word in ("Counterintelligence", "orthogonally", "Cross-warp", "allowance", "Magician"):
            assert word in joined, (word, lines)
        assert re.search(r"10\s−\s2\s=\s8\ss", joined), lines


def test_dungeon_war_keeps_every_character_inside_the_frame(rulebook_pdfs: Any) -> None:
    """The shipped Dungeon War book (the session's build), both languages: no letter left
    of, right of or above the frame. (test_rulebook_typography measures the right margin of
    the other books; its quick reference once ran a table past the margin.)"""
    for lang, path in rulebook_pdfs["dungeon-war"].items():
        for number, page in enumerate(pdfpages.pages(path), 1):
            left, right, top = MARGIN - TOLERANCE, page.width - MARGIN + TOLERANCE, MARGIN_TOP - TOLERANCE
            out = [c["text"] for c in page.chars if c["text"].strip() and outside(c, left, right, top)]
            assert out == [], f"{lang} p{number}: {''.join(out)[:40]}"


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
