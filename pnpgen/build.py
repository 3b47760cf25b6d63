"""Build: every output of every game, written atomically under build/<game>/."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pnpgen import __version__
from pnpgen.content.game import GameContent
from pnpgen.engine.protocol import Rules
from pnpgen.errors import BuildError
from pnpgen.games import rules_for_content
from pnpgen.output import (
    LANGS,
    BuildOptions,
    BuiltFile,
    atomic_output,
    check_source_date_epoch,
    clean_stale_parts,
    refuse_content_folder,
)
from pnpgen.render.kit import render_components
from pnpgen.render.paper import paper_mm
from pnpgen.render.rulebook import render_rulebooks
from pnpgen.render.templates import render_template

Renderer = Callable[[GameContent, list[Rules[Any, Any]], BuildOptions], list[BuiltFile]]


def renderers() -> list[Renderer]:
    """Everything a build produces, in order: rulebooks, then print-kit components."""
    return [render_rulebooks, render_components]


def check_options(options: BuildOptions) -> None:
    paper_mm(options.paper)
    if not options.langs:
        raise BuildError(f"--lang names no language; languages: {', '.join(LANGS)}")
    for lang in options.langs:
        if lang not in LANGS:
            raise BuildError(f"unknown language '{lang}'; languages: {', '.join(LANGS)}")
    refuse_content_folder(options.out, options.content_root)
    check_source_date_epoch()


def build_game(content: GameContent, options: BuildOptions) -> list[BuiltFile]:
    rules = rules_for_content(content)
    clean_stale_parts(options.game_dir(content))
    files: list[BuiltFile] = []
    for render in renderers():
        files += render(content, rules, options)
    if files:
        files.append(write_release_notes(content, options, files))
    return files


def write_release_notes(content: GameContent, options: BuildOptions, files: list[BuiltFile]) -> BuiltFile:
    """README.txt beside the PDFs: what each file is and how to print it (templates/release-notes.txt.j2)."""
    listed = [{"name": f.path.relative_to(options.game_dir(content)).as_posix(), "pages": f.pages, "kind": f.kind}
              for f in files]
    text = render_template(
        "release-notes.txt.j2",
        title={lang: content.title(lang) for lang in LANGS},
        version=content.data["version"],
        pnpgen_version=__version__,
        paper=options.paper,
        files=listed,
        kinds={f.kind for f in files},
    )
    path = options.game_dir(content) / "README.txt"
    with atomic_output(path) as tmp:
        tmp.write_text(text, encoding="utf-8")
    return BuiltFile(content.id, path, 0, "release notes")
