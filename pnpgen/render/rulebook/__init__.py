"""Rulebooks: one PDF per language from the game's rulebook YAML (docs/rulebook.md)."""

from __future__ import annotations

import re
from typing import Any

from reportlab.platypus.doctemplate import LayoutError

from pnpgen.content.game import GameContent
from pnpgen.content.schema import LANGS
from pnpgen.engine.protocol import Rules
from pnpgen.errors import BuildError, ContentError
from pnpgen.output import BuildOptions, BuiltFile
from pnpgen.render.paper import paper_points
from pnpgen.render.pdf import atomic_output
from pnpgen.render.rulebook.layout import Writer, write_pdf
from pnpgen.render.rulebook.model import Book, Resolver, load_book
from pnpgen.render.sandbox import TemplateRefused

__all__ = ["check_rulebook", "render_rulebooks", "load_book", "Book"]


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
            Writer(book, res, 500.0, 700.0).story()
        except TemplateRefused:
            raise
        except ContentError as err:  # pragma: no cover - collect mode reports, not raises
            res.problems.append(str(err))
        problems += [p for p in res.problems if p not in problems]
    return problems


def render_rulebooks(
    content: GameContent, rules_list: list[Rules[Any, Any]], options: BuildOptions
) -> list[BuiltFile]:
    """rulebook-<lang>.pdf for each language in the options, on the options' paper."""
    book = load_book(content)
    if book is None:
        return []
    for lang in options.langs:  # every language checked before any file is written
        Writer(book, Resolver(content, rules_list, lang, collect=False), 500.0, 700.0).story()
    built = []
    for lang in options.langs:
        path = options.game_dir(content) / f"rulebook-{lang}.pdf"
        res = Resolver(content, rules_list, lang, collect=False)
        with atomic_output(path) as tmp:
            try:
                pages = write_pdf(tmp, content, book, res, paper_points(options.paper))
            except LayoutError as err:
                raise BuildError(f"rulebook layout failed: {_layout_problem(err)}",
                                 content.main_file) from None
        built.append(BuiltFile(content.id, path, pages, "rulebook"))
    return built


def _layout_problem(err: LayoutError) -> str:
    """ReportLab's message without object addresses: which flowable, on which page."""
    found = re.search(r"<(\w+)@.*? too large on page (\d+)", str(err), re.S)
    if found is None:
        return str(err)
    return f"a {found[1].lower()} on page {found[2]} is taller than the page; shorten its text"
