"""Print kit: decks, boards and sheets described in YAML, built without Python.

`game.yaml` `components:` names a YAML file (or a list of files whose lists are joined);
each item is one component with a `type`. Each type is a module (deck.py, board.py,
sheet.py) implementing ComponentType, registered in TYPES. Their parts, by concept:
elements.py (card and board elements), blocks.py (tables, checkboxes, text: sheets and
boards), richtext.py (markup, line breaking), colour.py, images.py, page.py (the job,
page furniture and the one PDF-writing tail, write_pdf), imposition.py and tiling.py
(placing cards and board tiles on paper), preview.py.

A component whose text differs by language is built once per language of the build
(`<id>-ja.pdf`, `<id>-en.pdf`); a language-neutral one once (`<id>.pdf`). `--print-shop`
adds `<id>-print-shop[-<lang>].pdf` beside those home-print files, never replacing them;
`--guides` names its files `<id>-proof[-<lang>].pdf`; `--ink-saver` adds `<id>-ink-saver[-<lang>].pdf`
beside the home files (`<id>-ink-saver-proof…` with --guides). `--tts` adds Tabletop Simulator card
sheets, board images and saved objects under `tts/` (tts.py).
"""

from __future__ import annotations

import difflib
import re
from dataclasses import replace
from pathlib import Path
from typing import Any, Protocol, TypeVar

from pnpgen.content.game import GameContent
from pnpgen.content.schema import check
from pnpgen.content.yamlpos import YMap, where
from pnpgen.engine.protocol import Rules
from pnpgen.errors import BuildError, ContentError, PnpgenError
from pnpgen.output import BuildOptions, BuiltFile, OutputError
from pnpgen.render.colour import check_colours
from pnpgen.render.kit import board, deck, sheet
from pnpgen.render.kit.bounds import check_bounds
from pnpgen.render.kit.page import KitJob
from pnpgen.render.kit.preview import Recorder, contact_sheet, save_preview, tile_sheet
from pnpgen.render.publishing import mockup
from pnpgen.render.text import TemplateRefused

S = TypeVar("S")
M = TypeVar("M")

SLUG = re.compile(r"[a-z0-9][a-z0-9-]*$")


class ComponentType(Protocol):
    """What a component type provides (a module such as deck.py)."""

    SCHEMA: dict[str, Any]  # its keys, checked here (did-you-mean)
    BOUNDS: dict[str, Any]  # its numbers' limits, checked here (bounds.py)

    def localized(self, component: YMap, content: GameContent) -> bool:
        """True when its printed text differs between languages (built once per language)."""
        ...

    def check(self, component: YMap, job: KitJob) -> list[str]:
        """Build-time problems (overflowing text, missing images, ...), as 'file:line:col: ...'."""
        ...

    def render(self, component: YMap, job: KitJob) -> list[BuiltFile]:
        """Its PDFs, each written by page.write_pdf."""
        ...

    def preview(self, component: YMap, job: KitJob) -> list[Path]:
        """Its SVG preview(s) (and PNG twins)."""
        ...


TYPES: dict[str, ComponentType] = {"deck": deck, "board": board, "sheet": sheet}


def type_module(kind: str) -> ComponentType | None:
    """The implementation of a component type (None for an unknown type)."""
    return TYPES.get(kind)


def components(content: GameContent) -> list[YMap]:
    """The game's components, schema-checked (ContentError at the first problem)."""
    items = content.component_items()
    seen: set[str] = set()
    for index, item in enumerate(items):
        path = f"components[{index}]"
        if not isinstance(item, dict) or "type" not in item:
            raise ContentError(f"{path}: a component is a mapping with a 'type' ({', '.join(TYPES)})",
                               **where(items, index, value=True))
        kind = item["type"]
        if kind not in TYPES:
            close = difflib.get_close_matches(str(kind), TYPES, n=1, cutoff=0.5)
            hint = f" (did you mean '{close[0]}'?)" if close else ""
            raise ContentError(f"{path}: unknown component type '{kind}'{hint}; types: {', '.join(TYPES)}",
                               **where(item, "type", value=True))
        ident = item.get("id")
        if not isinstance(ident, str) or not SLUG.match(ident):
            raise ContentError(f"{path}: 'id' must be a slug such as 'player-aid' (lower case, digits, '-')",
                               **where(item, "id" if "id" in item else None, value="id" in item))
        if ident in seen:
            raise ContentError(f"{path}: component id '{ident}' is used twice", **where(item, "id", value=True))
        seen.add(ident)
        check(item, TYPES[kind].SCHEMA, items, index, f"{path} ({ident})")
        check_bounds(item, TYPES[kind].BOUNDS)
        check_colours(item, f"{path} ({ident})")
    return list(items)


def component_names(content: GameContent) -> list[str]:
    """'<id> (<type>)' for `pnpgen list`; a broken components file lists nothing."""
    try:
        return [f"{c['id']} ({c['type']})" for c in components(content)]
    except PnpgenError:
        return []


def is_localized(component: YMap, content: GameContent) -> bool:
    """True when the component's printed text differs between Japanese and English: the
    type decides (`localized`)."""
    return TYPES[str(component["type"])].localized(component, content)


def component_rules(rules: list[Rules[Any, Any]], component: YMap) -> list[Rules[Any, Any]]:
    """The rules a component draws `{{ fields }}` and `from_rules` tables from: the first game,
    or the one its `game:` names (a collection's 'fast-alone/no-gaps-a', or 'no-gaps-a')."""
    name = component.get("game")
    if name is None:
        return rules
    for chosen in rules:
        if name in (chosen.id, chosen.id.split("/", 1)[-1]):
            return [chosen] + [r for r in rules if r is not chosen]
    known = ", ".join(r.id for r in rules) or "none (the game has no rules)"
    raise ContentError(f"game: '{name}' is not a game of this folder; games: {known}",
                       **where(component, "game", value=True))


def jobs(content: GameContent, rules: list[Rules[S, M]], options: BuildOptions,
         component: YMap) -> list[KitJob]:
    """One job per language for a localized component, else one language-neutral job."""
    rules = component_rules(rules, component)
    if is_localized(component, content):
        return [KitJob(content, rules, options, lang) for lang in options.langs]
    return [KitJob(content, rules, options, None)]


def check_components(content: GameContent, rules: list[Rules[S, M]],
                     options: BuildOptions | None = None) -> list[str]:
    """Problems as 'file:line:col: message': schema, then each type's build-time checks
    (overflowing text, missing images, ...) in every language. A refused template, or a
    placeholder of the old `{name}` syntax, is not a problem but an error: TemplateRefused.
    `rules` are the games the folder defines (the caller looks them up); `options` the
    build's (its paper and preset), A4 by default."""
    try:
        items = components(content)
    except PnpgenError as error:
        return [str(error)]
    problems: list[str] = []
    options = options or BuildOptions()
    for item in items:
        module = TYPES[str(item["type"])]
        found: dict[str | None, list[str]] = {}
        for job in jobs(content, rules, options, item):
            try:
                # the safe zone is checked once the component builds at all (a build only warns)
                found[job.lang] = module.check(item, job) or safe_zone(module, item, job)
            except TemplateRefused:  # a refused template (or an old `{name}`) is an error, not a problem
                raise
            except PnpgenError as error:
                found[job.lang] = [str(error)]
        problems += [p for p in _name_languages(found) if p not in problems]
    return problems


def safe_zone(module: ComponentType, component: YMap, job: KitJob) -> list[str]:
    """Text nearer the cut than the safe zone, or a padding narrower than it: problems for
    validate, not errors (a build prints them as warnings; watch rebuilds)."""
    check_safe = getattr(module, "safe_zone", None)
    return list(check_safe(component, job)) if check_safe is not None else []


# A problem of one card names its place and the card's source: 'deck.yaml:21:14: ...,
# card 3 'Ember' (cards.csv:2): ...'. The same place and card in another language (where
# the quoted text differs) is the same problem.
CARD_PROBLEM = re.compile(r"^(.*?:\d+(?::\d+)?): .*?, card \d+(?: '.*?')? \(([^()]*)\)")


def _problem_key(problem: str) -> str:
    match = CARD_PROBLEM.match(problem)
    return f"{match[1]}|{match[2]}" if match else problem


def _name_languages(found: dict[str | None, list[str]]) -> list[str]:
    """One list of problems from each language's: a problem every language has once (a
    card's problem at the same place in every language: said in the first language), any
    other once per language it has, naming the language ('... (en)')."""
    merged: list[str] = []
    keys = {lang: {_problem_key(p) for p in problems} for lang, problems in found.items()}
    said: set[str] = set()
    for lang, problems in found.items():
        for problem in problems:
            key = _problem_key(problem)
            everywhere = all(key in others for others in keys.values())
            if everywhere and key in said:
                continue
            said.add(key)
            text = problem if everywhere or lang is None else f"{problem} ({lang})"
            if text not in merged:
                merged.append(text)
    return merged


class PartialBuild(BuildError):
    """Some components failed while the others were built: `built` the files written,
    `failures` one line each ('file:line:col: message')."""

    def __init__(self, built: list[BuiltFile], failures: list[str]) -> None:
        more = f" (and {len(failures) - 1} more)" if len(failures) > 1 else ""
        super().__init__(failures[0] + more)
        self.built = built
        self.failures = failures


def render_components(
    content: GameContent, rules: list[Rules[S, M]], options: BuildOptions
) -> list[BuiltFile]:
    """Every component's PDFs (and SVG previews) under build/<game>/. A component that
    fails does not stop the others: PartialBuild at the end carries what was built and
    every failure."""
    built: list[BuiltFile] = []
    failures: list[str] = []
    failed: set[str] = set()
    for item in components(content):
        try:
            for job in jobs(content, rules, options, item):
                module = TYPES[str(item["type"])]
                # the print-shop file is added beside the home files, never replacing them; it
                # is made first, so a print-shop limit stops the component before any home file
                shop = module.render(item, job) if options.print_shop else []
                home = job.home()  # --ink-saver: its copies (named -ink-saver) beside the full-ink files
                full = module.render(item, replace(home, options=replace(home.options, ink_saver=False)))
                built += full + (module.render(item, home) if options.ink_saver else []) + shop
        except OutputError:
            raise
        except PnpgenError as error:
            failures.append(str(error))
            failed.add(str(item["id"]))
    plain = replace(options, print_shop=False, guides=False, ink_saver=False)  # previews and TTS: full ink
    render_previews(content, rules, plain, failed)
    if options.tts:
        built += render_tts(content, rules, plain, failed)
    if failures:
        raise PartialBuild(built, failures)
    return built


def render_tts(content: GameContent, rules: list[Rules[S, M]], options: BuildOptions,
               skip: set[str] | frozenset[str] = frozenset()) -> list[BuiltFile]:
    """Tabletop Simulator files of every deck and board, in every language of the build
    (build/<game>/tts/, tts.py); deck ids run on across the game's decks. Components in
    `skip` (ids of those that failed) are left out."""
    from pnpgen.render.kit import tts

    ids = tts.DeckIds()
    built: list[BuiltFile] = []
    for item in components(content):
        if item["id"] in skip:
            continue
        for job in jobs(content, rules, options, item):
            built += tts.export(item, job, ids)
    return built + tts.write_table(options.game_dir(content), content.title(options.langs[0]), content.id, ids,
                                   options.tts_base_url)


def render_previews(content: GameContent, rules: list[Rules[S, M]], options: BuildOptions,
                    skip: set[str] | frozenset[str] = frozenset()) -> list[Path]:
    """SVG (and PNG) previews of every component in every language of the build, and a
    PNG contact sheet of them in the first language (build/<game>/preview/); components in
    `skip` (ids of those that failed) are left out."""
    paths: list[Path] = []
    first: list[Path] = []
    for item in components(content):
        if item["id"] in skip:
            continue
        for index, job in enumerate(jobs(content, rules, options, item)):
            made = TYPES[str(item["type"])].preview(item, job)
            paths += made
            first += made if index == 0 else []
    for index, lang in enumerate(options.langs):
        made = mockup_previews(rules, options.game_dir(content) / "preview", lang)
        paths += made
        first += made if index == 0 else []
    if first:
        contact_sheet(first, options.game_dir(content) / "preview" / "contact-sheet.png")
    return paths


MOCKUP_SCALE = 3.0  # a scene's points per preview point: a table of 5 x 7 cards is about 1500 px wide


def mockup_previews(rules: list[Rules[S, M]], folder: Path, lang: str) -> list[Path]:
    """The full-table mock-up a game draws (Publishing.mockup) as a preview, table-<lang>.svg
    and its PNG twin; one per game of the content (a collection names each by its id)."""
    from pnpgen.render.diagram import draw_scene
    from pnpgen.render.fonts import setup_fonts

    setup_fonts()  # the labels' widths are measured in the bundled faces
    made: list[Path] = []
    for rule in rules:
        scene = mockup(rule, lang)
        if scene is None:
            continue
        rec = Recorder(scene.width * MOCKUP_SCALE, scene.height * MOCKUP_SCALE)
        rec.scale(MOCKUP_SCALE, MOCKUP_SCALE)
        draw_scene(rec, scene)  # type: ignore[arg-type]  # the recorder stands in for a canvas
        stem = "table" if len(rules) == 1 else f"table-{rule.id}"
        made.append(save_preview(tile_sheet([(rec, "")], columns=1), folder / f"{stem}-{lang}.svg"))
    return made
