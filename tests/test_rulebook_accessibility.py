"""Every book (players' rulebook and companion, both languages, every shipped game) is a
tagged PDF/UA-1 document (issue 26), read back with pikepdf: structure tree, marked
content, language, title shown, the PDF/UA identifier in the XMP, alternative text on every
figure in the book's language, headings that never skip a level, header cells in every
table, running heads and page numbers as artifacts, bookmarks and a linked contents list."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pikepdf
import pytest

from tests.conftest import RULEBOOK_GAMES

DOCS = ["ja", "en", "companion-ja", "companion-en"]
CJK = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")


def structure(pdf: pikepdf.Pdf) -> list[tuple[str, pikepdf.Dictionary]]:
    """Every structure element (type, element), in document order."""
    out: list[tuple[str, pikepdf.Dictionary]] = []

    def walk(node: pikepdf.Dictionary) -> None:
        kids = node.get("/K")
        if kids is None:
            return
        for kid in list(kids) if isinstance(kids, pikepdf.Array) else [kids]:
            if isinstance(kid, pikepdf.Dictionary) and "/S" in kid:
                out.append((str(kid["/S"]), kid))
                walk(kid)

    walk(pdf.Root.StructTreeRoot)
    return out


def descendants(node: pikepdf.Dictionary) -> list[str]:
    found: list[str] = []
    kids = node.get("/K")
    for kid in (list(kids) if isinstance(kids, pikepdf.Array) else [kids]) if kids is not None else []:
        if isinstance(kid, pikepdf.Dictionary) and "/S" in kid:
            found.append(str(kid["/S"]))
            found += descendants(kid)
    return found


def page_stream(page: pikepdf.Page) -> bytes:
    contents = page.obj.Contents
    parts = list(contents) if isinstance(contents, pikepdf.Array) else [contents]
    return b"".join(part.read_bytes() for part in parts)


@pytest.fixture(scope="module")
def books(rulebook_pdfs: dict[str, dict[str, Path]]) -> dict[str, dict[str, Path]]:
    return rulebook_pdfs


@pytest.mark.parametrize("game", RULEBOOK_GAMES)
@pytest.mark.parametrize("doc", DOCS)
def test_tagged_pdf_ua(books: Any, game: str, doc: str) -> None:
    lang = doc.rsplit("-", 1)[-1]
    with pikepdf.open(books[game][doc]) as pdf:
        root = pdf.Root
        assert "/StructTreeRoot" in root
        assert bool(root.MarkInfo.Marked) is True
        assert "/Suspects" not in root.MarkInfo  # false is its default; poppler misreads a false
        assert str(root.Lang) == lang
        assert bool(root.ViewerPreferences.DisplayDocTitle) is True
        with pdf.open_metadata() as xmp:
            assert str(xmp.get("pdfuaid:part")) == "1"
            assert xmp.get("dc:title")
        elements = structure(pdf)
        kinds = [kind for kind, _ in elements]

        figures = [str(node.get("/Alt", "")) for kind, node in elements if kind == "/Figure"]
        assert all(alt.strip() for alt in figures), figures
        if not doc.startswith("companion"):
            assert figures, "a players' book with no diagram"
        for alt in figures:  # in the book's language
            assert bool(CJK.search(alt)) == (lang == "ja"), alt

        levels = [int(kind[2:]) for kind in kinds if re.fullmatch(r"/H\d", kind)]
        assert levels and levels[0] == 1
        skips = [(a, b) for a, b in zip(levels, levels[1:], strict=False) if b > a + 1]
        assert skips == []

        tables = [node for kind, node in elements if kind == "/Table"]
        assert tables
        assert all("/TH" in descendants(table) for table in tables)

        assert "/TOC" in kinds and "/Link" in descendants(next(n for k, n in elements if k == "/TOC"))
        assert len(pdf.open_outline().root) > 0  # bookmarks

        for number, page in enumerate(pdf.pages[1:], 2):  # the cover has no running head
            stream = page_stream(page)
            assert re.search(rb"/Artifact\s*<<[^>]*/Subtype\s*/Header", stream), f"p{number}: no header artifact"
            footer = re.search(rb"/Artifact\s*<<[^>]*/Subtype\s*/Footer[^>]*>>\s*BDC(.*?)EMC", stream, re.S)
            assert footer and re.search(rb"T[jJ]", footer[1]), f"p{number}: the page number is not an artifact"


def test_alt_text_is_written_from_the_state(books: Any) -> None:
    """Burning Desire's dice diagrams name the faces the dice show, before and after."""
    with pikepdf.open(books["burning-desire"]["en"]) as pdf:
        alts = [str(node.get("/Alt", "")) for kind, node in structure(pdf) if kind == "/Figure"]
    assert any(re.search(r"\b[1-6]( [1-6]){5}\b", alt) for alt in alts), alts
    assert any(alt.startswith("Before:") and "After:" in alt for alt in alts), alts


@pytest.mark.skipif(shutil.which("pdfinfo") is None, reason="poppler's pdfinfo is not installed")
def test_poppler_reads_the_books_without_a_complaint(books: Any) -> None:
    """Typst's /MarkInfo /Suspects false made pdfinfo and pdftoppm print "Syntax Error:
    Suspects object is wrong type (boolean)" (a poppler misreading; the entry is dropped)."""
    for game in ("burning-desire", "routou-dice"):
        for doc in ("ja", "companion-en"):
            done = subprocess.run(["pdfinfo", str(books[game][doc])], capture_output=True, text=True, check=True)
            assert done.stderr == "", (game, doc, done.stderr)
