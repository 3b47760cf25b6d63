"""Rulebooks: per language, the players' book and the companion (designer notes, referees),
set by Typst from the game's rulebook YAML (docs/rulebook.md)."""

from __future__ import annotations

import io
import json
import os
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from pnpgen.content.game import GameContent
from pnpgen.content.schema import LANGS
from pnpgen.engine.protocol import Rules
from pnpgen.errors import ContentError
from pnpgen.output import BuildOptions, BuiltFile
from pnpgen.render.paper import paper_points
from pnpgen.render.pdf import atomic_output
from pnpgen.render.rulebook.layout import Document, Writer
from pnpgen.render.rulebook.model import Book, Resolver, load_book
from pnpgen.render.sandbox import TemplateRefused
from pnpgen.render.typeset import TypesetError, compile_pdf

__all__ = ["check_rulebook", "render_rulebooks", "load_book", "Book", "PARTS", "typeset_document"]

TEMPLATE = Path(__file__).with_name("book.typ")
PARTS = ("rulebook", "companion")  # the players' book, and the designers' and referees' companion
KINDS = {"rulebook": "rulebook (players)", "companion": "rulebook companion (designer notes, referee's guide)"}


def check_rulebook(content: GameContent, rules_list: list[Rules[Any, Any]]) -> list[str]:
    """Every problem in the rulebook text and its references, as `file:line:col: problem`.
    A refused template is not a problem but an error: TemplateRefused is raised."""
    try:
        book = load_book(content)
    except ContentError as err:
        return [str(err)]
    if book is None:
        return []
    problems: list[str] = []
    for lang in LANGS:
        res = Resolver(content, rules_list, lang, collect=True)
        try:
            Writer(book, res, part="companion").document()  # lays out the players' book too
        except TemplateRefused:
            raise
        except ContentError as err:  # pragma: no cover - collect mode reports, not raises
            res.problems.append(str(err))
        problems += [p for p in res.problems if p not in problems]
    return problems


def typeset_document(document: Document) -> bytes:
    """The PDF of one document: our template and its data, compiled sealed (typeset.py)."""
    files = {"main.typ": TEMPLATE.read_bytes(),
             "book.json": json.dumps(document.tree, ensure_ascii=False, sort_keys=True).encode()}
    files.update(document.figures)
    return compile_pdf(files)


def with_boxes(pdf: bytes) -> tuple[bytes, int]:
    """The PDF with a /TrimBox and /BleedBox on every page (the whole page: no bleed; a print
    shop's preflight asks for a TrimBox), and its page count. The file ID is derived from the
    content, so rebuilds stay byte-identical.

    Typst writes /MarkInfo << /Marked true /Suspects false >>; poppler (pdfinfo, pdftoppm, up
    to 25.11) reads a boolean false there as the wrong type and prints "Syntax Error: Suspects
    object is wrong type (boolean)". False is the default (ISO 32000-1, table 321), so the
    entry is dropped: the same meaning, and no alarming line for whoever checks the file."""
    import pikepdf

    out = io.BytesIO()
    with pikepdf.open(io.BytesIO(pdf)) as doc:
        mark = doc.Root.get("/MarkInfo")
        if isinstance(mark, pikepdf.Dictionary) and mark.get("/Suspects") is False:
            del mark["/Suspects"]
        for page in doc.pages:
            page.obj.TrimBox = page.obj.BleedBox = page.obj.MediaBox
        doc.save(out, deterministic_id=True)
        return out.getvalue(), len(doc.pages)


def render_rulebooks(
    content: GameContent, rules_list: list[Rules[Any, Any]], options: BuildOptions
) -> list[BuiltFile]:
    """rulebook-<lang>.pdf and companion-<lang>.pdf for each language in the options, on the
    options' paper. Every document is laid out (and its text checked) before any is written."""
    book = load_book(content)
    if book is None:
        return []
    paper = paper_points(options.paper)
    documents = []
    for lang in options.langs:
        res = Resolver(content, rules_list, lang, collect=False)
        players = Writer(book, res, paper, "rulebook")
        documents.append((lang, "rulebook", players.document()))
        documents.append((lang, "companion", Writer(book, res, paper, "companion", players).document()))

    def typeset(item: tuple[str, str, Document]) -> bytes:
        lang, part, document = item
        try:
            return typeset_document(document)
        except TypesetError as err:
            raise TypesetError(f"{part}-{lang}.pdf: {err}", content.main_file) from None

    with ThreadPoolExecutor(max_workers=min(len(documents), os.cpu_count() or 1)) as pool:
        pdfs = list(pool.map(typeset, documents))  # each compile is a child process of its own
    built = []
    for (lang, part, _), pdf in zip(documents, pdfs, strict=True):
        path = options.game_dir(content) / f"{part}-{lang}.pdf"
        pdf, pages = with_boxes(pdf)
        with atomic_output(path) as tmp:
            tmp.write_bytes(pdf)
        built.append(BuiltFile(content.id, path, pages, KINDS[part]))
    return built
