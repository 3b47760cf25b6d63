"""Build: every output of every game, written atomically under build/<game>/."""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from pnpgen import __version__
from pnpgen.content.game import GameContent
from pnpgen.engine.protocol import Rules
from pnpgen.errors import BuildError, PnpgenError
from pnpgen.games import rules_for_content
from pnpgen.output import (
    LANGS,
    BuildOptions,
    BuiltFile,
    OutputError,
    atomic_output,
    build_lock,
    check_source_date_epoch,
    clean_stale_parts,
    recording_writes,
    refuse_content_folder,
)
from pnpgen.render.kit import PartialBuild, render_components
from pnpgen.render.kit.presets import check_preset
from pnpgen.render.paper import paper_mm
from pnpgen.render.rulebook import render_rulebooks
from pnpgen.render.templates import render_template
from pnpgen.render.vendors import vendor_names

S = TypeVar("S")
M = TypeVar("M")

Renderer = Callable[[GameContent, list[Rules[S, M]], BuildOptions], list[BuiltFile]]


def renderers() -> list[Renderer]:
    """Everything a build produces, in order: rulebooks, then print-kit components."""
    return [render_rulebooks, render_components]


def check_options(options: BuildOptions) -> None:
    paper_mm(options.paper)
    if options.preset is not None:
        check_preset(options.preset)
    if not options.langs:
        raise BuildError(f"--lang names no language; languages: {', '.join(LANGS)}")
    for lang in options.langs:
        if lang not in LANGS:
            raise BuildError(f"unknown language '{lang}'; languages: {', '.join(LANGS)}")
    refuse_content_folder(options.out, options.content_root)
    check_source_date_epoch()
    if options.tts_base_url is not None:
        from pnpgen.render.kit.tts import check_base_url

        check_base_url(options.tts_base_url)
    if options.vendor is not None:
        from pnpgen.render.vendors import load_profile

        load_profile(options.vendor)


MANIFEST = ".pnpgen-build"
"""In build/<game>/: the files the game's last build wrote, one relative path a line; the
next build removes those it no longer writes (a build with --lang en after one with ja,en
leaves no -ja file behind), and nothing else (report files, a user's own notes stay)."""


class GameBuildFailed(BuildError):
    """A game's build wrote what it could (listed in its README.txt) but some parts failed:
    `built` the files written, `failures` one line each."""

    def __init__(self, game: str, built: list[BuiltFile], failures: list[str]) -> None:
        more = f" (and {len(failures) - 1} more failure{'s' if len(failures) > 2 else ''})" if len(failures) > 1 else ""
        super().__init__(failures[0] + more)
        self.game = game
        self.built = built
        self.failures = failures


def build_game(content: GameContent, options: BuildOptions) -> list[BuiltFile]:
    """Every output of the game, one build at a time per output folder (a second is refused).
    A part that fails (a rulebook, a component, a vendor's files) does not stop the rest: the
    folder still gets its README.txt listing what is there and what failed, then
    GameBuildFailed is raised."""
    with build_lock(options.game_dir(content)):
        return _build_game(content, options)


def _build_game(content: GameContent, options: BuildOptions) -> list[BuiltFile]:
    rules = rules_for_content(content)
    folder = options.game_dir(content)
    clean_stale_parts(folder)
    files: list[BuiltFile] = []
    failures: list[str] = []
    with recording_writes() as written:
        for render in renderers():
            try:
                files += render(content, rules, options)
            except PartialBuild as partial:
                files += partial.built
                failures += partial.failures
            except OutputError:
                raise
            except PnpgenError as error:
                failures.append(str(error))
        if options.vendor is not None:  # a print-on-demand shop's files (render/vendors/)
            from pnpgen.render.vendors.export import export_vendor

            try:
                files += export_vendor(content, rules, options)
            except PnpgenError as error:
                failures.append(str(error))
        listed = {f.path for f in files}
        files += [BuiltFile(content.id, p, 0, "file of a failed part") for p in written  # written before its
                  if p.suffix == ".pdf" and p not in listed and p.is_relative_to(folder) and p.is_file()]  # part failed
        if files:  # nothing built (refused at once): no folder, no README to make
            previews = [p for p in written if p.parent == folder / "preview"]
            files.append(write_release_notes(content, options, files, previews, failures))
    remove_stale_outputs(folder, written)
    if failures:
        raise GameBuildFailed(content.id, files, failures)
    return files


def remove_stale_outputs(folder: Path, written: list[Path]) -> list[Path]:
    """Remove what the folder's previous build wrote and this one did not; record this one's."""
    manifest = folder / MANIFEST
    now = sorted({p.relative_to(folder).as_posix() for p in written if p.is_relative_to(folder)})
    before: list[str] = []
    with contextlib.suppress(OSError, UnicodeDecodeError):
        before = manifest.read_text(encoding="utf-8").splitlines()
    removed: list[Path] = []
    for name in sorted(set(before) - set(now)):
        stale = folder / name
        if not name or ".." in Path(name).parts or Path(name).is_absolute() or not stale.is_file():
            continue  # only files this folder's builds made, never outside it
        with contextlib.suppress(OSError):
            stale.unlink()
            removed.append(stale)
    for sub in ("preview", "tts", *vendor_names()):
        for inner in [*sorted((folder / sub).rglob("*/"), reverse=True), folder / sub]:  # deck folders, tts/Mods/Images
            with contextlib.suppress(OSError):
                inner.rmdir()  # only when empty
    if now or before:
        with atomic_output(manifest) as tmp:
            tmp.write_text("".join(f"{name}\n" for name in now), encoding="utf-8")
    return removed


def write_release_notes(content: GameContent, options: BuildOptions, files: list[BuiltFile],
                        previews: list[Path] | None = None, failures: list[str] | None = None) -> BuiltFile:
    """README.txt beside the PDFs: what each file is and how to print it, the previews, the
    build's warnings and what failed (templates/release-notes.txt.j2). It lists exactly what
    the build wrote: earlier outputs no longer made are removed (remove_stale_outputs)."""
    from pnpgen.render.vendors.export import vendor_notes

    folder = options.game_dir(content)
    listed = [{"name": f.path.relative_to(folder).as_posix(), "pages": f.pages, "kind": f.kind}
              for f in files]
    text = render_template(
        "release-notes.txt.j2",
        title={lang: content.title(lang) for lang in LANGS},
        version=content.data["version"],
        pnpgen_version=__version__,
        paper=options.paper,
        files=listed,
        previews=sorted(p.relative_to(folder).as_posix() for p in previews or []),
        kinds={f.kind.split(" (")[0] for f in files},
        shop=any(f.kind.endswith("(print shop)") for f in files),
        proof=any("(PROOF" in f.kind for f in files),
        saver=any(f.kind.endswith("(ink saver)") for f in files),
        tts=any("(Tabletop Simulator)" in f.kind for f in files),
        warnings=[f"{f.path.relative_to(folder).as_posix()}: {n[9:]}" for f in files for n in f.notes
                  if n.startswith("warning: ")],
        failures=failures or [],
        vendors=vendor_notes(files),
    )
    path = folder / "README.txt"
    with atomic_output(path) as tmp:
        tmp.write_text(text, encoding="utf-8")
    return BuiltFile(content.id, path, 0, "release notes")
