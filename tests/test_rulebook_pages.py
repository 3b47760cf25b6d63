"""Example boxes on the page and their captions (issue 27).

Typst measures each example box and the room left on its page (book.typ, may-split): a box
that fits stays whole; one that does not moves whole to the next page when this page is
already full enough (60 % of its text frame), else it runs on from here, its title with its
first line and each figure with its caption; a box taller than a page always runs on. A
caption that only repeats its example's title is left out, and the book lint names it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from pnpgen.booklint import CAPTION_KIND, check_players_book
from pnpgen.content.game import load_game
from pnpgen.examples import load_examples
from pnpgen.games import rules_for_content
from pnpgen.render.rulebook import typeset_document
from pnpgen.render.rulebook.layout import MARGIN_BOTTOM, MARGIN_TOP, Document, Writer
from pnpgen.render.rulebook.model import Resolver, load_book, repeats_title
from tests import pdfpages

CONTENT = Path(__file__).resolve().parents[1] / "content"
FRAME = 841.89 - MARGIN_TOP - MARGIN_BOTTOM  # the A4 text frame's height, pt


def block(height: float) -> bytes:
    """A grey picture `height` pt tall and 400 pt wide (an example's diagram, or filler)."""
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="400" height="{height}" '
            f'viewBox="0 0 400 {height}"><rect width="400" height="{height}" fill="#999999"/></svg>').encode()


def words(text: str) -> list[dict[str, Any]]:
    return [{"s": text}]


@pytest.fixture(scope="module")
def tree() -> dict[str, Any]:
    """A real book's tree (cover, fonts, paper), its body to be replaced."""
    content = load_game(CONTENT / "routou-dice")
    book = load_book(content)
    assert book is not None
    return Writer(book, Resolver(content, rules_for_content(content), "en", collect=False)).document().tree


def pages_of(tree: dict[str, Any], filler: float, figures: int) -> list[dict[str, Any]]:
    """The body pages (after the cover and the contents) of a book holding a heading, a
    picture `filler` pt tall, and an example box of `figures` 150 pt pictures with a line
    of text before each, then a closing paragraph: each page as its filled fraction and its text."""
    parts = []
    for n in range(figures):
        parts += [{"t": "p", "c": words(f"Step {n + 1} of the example.")},
                  {"t": "fig", "file": "fig.svg", "width": 400, "alt": "a grey block", "caption": None}]
    body = [{"t": "h", "level": 1, "text": words("Chapter"), "toc": True},
            {"t": "fig", "file": "filler.svg", "width": 400, "alt": "filler", "caption": None},
            {"t": "box", "accent": False, "title": words("Example title"), "c": parts},
            {"t": "p", "c": words("After the example.")}]
    pdf = typeset_document(Document({**tree, "body": body}, {"fig.svg": block(150), "filler.svg": block(filler)}))
    out = []
    for page in pdfpages.pages(pdf)[2:]:
        marks = [o["bottom"] for o in (*page.chars, *page.rects, *page.curves, *page.images)
                 if MARGIN_TOP < o["bottom"] <= page.height - MARGIN_BOTTOM + 1]
        out.append({"filled": (max(marks, default=MARGIN_TOP) - MARGIN_TOP) / FRAME,
                    "text": page.extract_text() or "",
                    "pictures": sum(abs(r["height"] - 150) < 1 for r in page.rects)})
    return out


def test_a_box_runs_on_rather_than_leave_the_page_half_empty(tree: dict[str, Any]) -> None:
    """40 % of the frame filled, a box of three pictures (about 75 %) after it: moved whole
    it would leave the page 60 % empty, so it starts here and runs on, title with its step 1."""
    pages = pages_of(tree, 0.4 * FRAME, 3)
    first = pages[0]
    assert "Example title" in first["text"] and "Step 1" in first["text"] and first["pictures"] == 2
    assert first["filled"] >= 0.9
    assert pages[1]["pictures"] == 1 and "After the example." in pages[1]["text"]


def test_a_box_moves_whole_when_the_page_is_full_enough(tree: dict[str, Any]) -> None:
    """70 % filled: the same box moves whole to the next page."""
    pages = pages_of(tree, 0.7 * FRAME, 3)
    assert "Example title" not in pages[0]["text"] and pages[0]["filled"] >= 0.6
    assert all(f"Step {n}" in pages[1]["text"] for n in (1, 2, 3)) and pages[1]["pictures"] == 3


def test_a_box_that_fits_stays_whole_and_one_taller_than_a_page_runs_on(tree: dict[str, Any]) -> None:
    small = pages_of(tree, 0.2 * FRAME, 2)  # 20 % + about 50 %: fits
    assert "Example title" in small[0]["text"] and "Step 2" in small[0]["text"]
    tall = pages_of(tree, 0.4 * FRAME, 6)  # six pictures: taller than the frame
    assert "Example title" in tall[0]["text"] and "Step 6" not in tall[0]["text"]
    assert "Step 6" in tall[1]["text"] or "Step 6" in tall[2]["text"]


def test_a_caption_repeating_the_title_is_left_out_and_linted() -> None:
    content = load_game(CONTENT / "routou-dice")
    rules = rules_for_content(content)
    example = next(e for e in load_examples(content) if "caption" in e and "state" in e and "text" in e)
    book = load_book(content)
    assert book is not None

    def caption() -> Any:
        writer = Writer(book, Resolver(content, rules, "en", collect=False))
        node = writer.example(example)
        return next(part for part in node["c"] if part["t"] == "fig")["caption"]

    assert caption() is not None
    example["caption"] = {"ja": example["title"]["ja"], "en": "The " + example["title"]["en"] + "."}
    assert caption() is None
    found = [p for p in check_players_book(content, rules) if CAPTION_KIND in p and example["title"]["en"] in p]
    assert len(found) == 1 and "game.yaml" in found[0], found  # en (the ja caption is the title itself)
    assert any(CAPTION_KIND in p and example["title"]["ja"] in p for p in check_players_book(content, rules))


@pytest.mark.parametrize(("caption", "title", "same"), [
    ("A small placement only in phase 2", "Small placement only in phase 2", True),
    ("five dice", "Example 1: Five dice.", True),
    ("郎党配置（小）は第2フェーズだけ", "例3：郎党配置（小）は第2フェーズだけ", True),
    ("In phase 1 a small placement is not allowed", "Small placement only in phase 2", False),
    ("Phase 2", "Small placement only in phase 2", False),
])
def test_repeats_title(caption: str, title: str, same: bool) -> None:
    assert repeats_title(caption, title) is same
