"""Decks: cards from a YAML list or a CSV file, front and back layouts, imposed on paper.

Format: docs/components/deck.md. Outputs, in build/<game>/:
  <id>[-<lang>].pdf             duplex (fronts page, then its backs page mirrored for the
                                 flip, ...) and a back-alignment calibration sheet at the end;
                                 or fold-over pages; or fronts only (a deck without `back`)
  <id>-proof[-<lang>].pdf        with --guides: the same with trim, bleed and safe-zone lines
  <id>-print-shop[-<lang>].pdf   with --print-shop: one card face per page with bleed, CMYK
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from reportlab.lib import colors
from reportlab.lib.units import mm
from reportlab.pdfbase.pdfmetrics import getAscentDescent
from reportlab.pdfgen.canvas import Canvas

from pnpgen.content.game import GameContent
from pnpgen.content.schema import Choice, Each, OneOf, Schema, Text
from pnpgen.content.yamlpos import YMap, load_yaml, where
from pnpgen.errors import BuildError, ContentError, PnpgenError
from pnpgen.limits import MAX_CARDS, MAX_COPIES, MAX_PER_PAGE, MAX_PREVIEW_SHAPES
from pnpgen.output import BuiltFile
from pnpgen.render.fonts import SANS
from pnpgen.render.kit.bounds import FONT, LENGTH, OFFSET, SIZE, Location, check_draws, check_pages
from pnpgen.render.kit.csvfile import field_pair, read_table
from pnpgen.render.kit.elements import (
    ElementContext,
    draw_elements,
    iter_elements,
    safe_breaches,
)
from pnpgen.render.kit.imposition import (
    CARD_SIZES,
    DEFAULT_MARGIN,
    Fold,
    Grid,
    best_fold,
    best_grid,
    card_size,
    flips_left_right,
)
from pnpgen.render.kit.layouts import BACK_SPEC, FACE_SPEC, LAYOUTS_SPEC, faces
from pnpgen.render.kit.page import (
    EDGE,
    GUIDE_BLEED,
    Bleed,
    KitJob,
    NoteSpot,
    Rect,
    draw_cut_path,
    draw_guides,
    draw_note_at,
    draw_page_marks,
    draw_proof_slug,
    grown,
    has_language_pair,
    margin_note_spot,
    ruler_area,
    set_page_boxes,
    union,
    write_pdf,
)
from pnpgen.render.kit.presets import PRESETS, bleed_safe
from pnpgen.render.kit.preview import Recorder, save_preview, tile_sheet
from pnpgen.render.kit.richtext import break_lines, tokenize
from pnpgen.render.kit.ruled import HEADER, PAD, Cell, PlainPaint, draw_cells, one_line
from pnpgen.render.kit.tiling import Box, Frame
from pnpgen.render.words import WORDS
from pnpgen.words import PLACEHOLDER

ICON = OneOf(str, {"shape?": Choice("circle", "rect", "rounded", "ellipse"), "fill?": str, "stroke?": str,
                   "radius?": float})
SCHEMA: Schema = {
    "type": str,
    "id": str,
    "title": Text,
    "size?": OneOf(Choice(*CARD_SIZES), {"width": float, "height": float}),
    "landscape?": bool,
    "paper?": str,
    "orientation?": Choice("auto", "portrait", "landscape"),
    "preset?": Choice(*PRESETS),
    "bleed?": float,
    "safe?": float,
    "gap?": float,
    "margin?": float,
    "layout?": Choice("duplex", "foldover"),
    "duplex?": Choice("long", "short"),
    "back_offset?": {"x?": float, "y?": float},
    "calibration?": bool,
    "crop_marks?": bool,
    "corner_radius?": OneOf(float, str),
    "cards?": Each(dict, min=1),
    "csv?": str,
    "cards_from?": Each({"file": str, "at": str, "fields?": dict}, min=1),
    "quantity?": str,
    "name_field?": str,
    "font_size?": float,
    "color?": str,
    "icons?": {"*": ICON},
    "layouts?": LAYOUTS_SPEC,
    "front": FACE_SPEC,
    "back?": BACK_SPEC,
}
QUANTITY = "quantity"
BOUNDS: dict[str, object] = {  # see bounds.py; quantities are checked as the cards are counted
    "size": {"width": SIZE, "height": SIZE},
    "bleed": LENGTH,
    "safe": LENGTH,
    "gap": LENGTH,
    "margin": LENGTH,
    "back_offset": {"x": OFFSET, "y": OFFSET},
    "font_size": FONT,
    "icons": {"*": {"radius": LENGTH}},
}


# --- settings -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Settings:
    card: tuple[float, float]  # mm
    paper: str
    orientation: str
    bleed: float  # mm
    safe: float
    gap: float
    margin: float
    layout: str  # duplex | foldover
    duplex: str  # long | short
    offset: tuple[float, float]  # mm, the back misalignment read on the calibration sheet
    calibration: bool
    crop_marks: bool
    corner: float = 0.0  # mm: the cut's corner radius (a dieline's rounded corners)


RADIUS = re.compile(r"\s*([0-9]+(?:\.[0-9]+)?)\s*mm\s*$")


def corner_radius(component: YMap, card: tuple[float, float]) -> float:
    """`corner_radius:` in mm (a number, or a length such as '3mm'); at most half the
    card's shorter side."""
    value = component.get("corner_radius", 0)
    if isinstance(value, str):
        match = RADIUS.match(value)
        if match is None:
            raise ContentError(f"corner_radius: '{value}' is not a length such as 3 or '3mm'",
                               **where(component, "corner_radius", value=True))
        value = float(match[1])
    radius = float(value)
    if not 0 <= radius <= min(card) / 2:
        raise ContentError(f"corner_radius: {radius:g} mm is not from 0 to half the card's shorter side "
                           f"({min(card) / 2:g} mm)", **where(component, "corner_radius", value=True))
    return radius


def settings(component: YMap, job: KitJob) -> Settings:
    size = component.get("size", "poker")
    dims = size if isinstance(size, str) else (float(size["width"]), float(size["height"]))
    card = card_size(dims, bool(component.get("landscape", False)))
    paper = str(component.get("paper", job.options.paper))
    job.paper_mm(paper)  # unknown paper: error now
    offset = component.get("back_offset") or {}
    lengths = {key: float(component.get(key, default)) for key, default in
               (("gap", 0.0), ("margin", DEFAULT_MARGIN))}  # bounded in BOUNDS
    lengths["bleed"], lengths["safe"] = bleed_safe(component, job.options.preset, job.options.print_shop)
    return Settings(card, paper, str(component.get("orientation", "auto")), lengths["bleed"], lengths["safe"],
                    lengths["gap"], lengths["margin"], str(component.get("layout", "duplex")),
                    str(component.get("duplex", "long")), (float(offset.get("x", 0)), float(offset.get("y", 0))),
                    bool(component.get("calibration", True)), bool(component.get("crop_marks", True)),
                    corner_radius(component, card))


def grid_of(component: YMap, s: Settings) -> Grid:
    grid = best_grid(s.paper, s.card, s.bleed, s.gap, s.orientation, s.margin, s.crop_marks)
    if grid.per_page == 0:
        raise ContentError(f"a {s.card[0]:g}×{s.card[1]:g} mm card with {s.bleed:g} mm bleed does not fit on "
                           f"{s.paper} paper", **where(component, "size" if "size" in component else "paper"))
    _check_per_page(component, s, grid.per_page)
    return grid


def fold_of(component: YMap, s: Settings) -> Fold:
    fold = best_fold(s.paper, s.card, s.bleed, s.gap, s.orientation, s.margin, s.crop_marks)
    if fold.per_page == 0:
        raise ContentError(f"a {s.card[0]:g}×{s.card[1]:g} mm card does not fit twice (front and back) on "
                           f"{s.paper} paper for a fold-over layout", **where(component, "layout", value=True))
    _check_per_page(component, s, fold.per_page)
    return fold


def _check_per_page(component: YMap, s: Settings, per_page: int) -> None:
    """Tiny cards: thousands of slots make thousands of crop marks and calibration targets."""
    if per_page > MAX_PER_PAGE:
        raise ContentError(f"a {s.card[0]:g}×{s.card[1]:g} mm card fits {per_page:,} times on one page; the limit is "
                           f"{MAX_PER_PAGE:,} cards per page", **where(component, "size" if "size" in component
                                                                        else "paper"))


# --- cards ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Card:
    fields: dict[str, Any]
    name: str  # how messages name the card: "12 'Fireball' (cards.csv:13)"
    location: Location = field(default_factory=Location)  # its CSV row or YAML item
    front: Sequence[object] = ()  # its layouts (layouts.py: chosen by a field, or the deck's one)
    back: Sequence[object] = ()


WHOLE = re.compile(r"\s*[0-9]+\s*$")


def _quantity(value: object, job: KitJob, location: Location, data: tuple[Any, Any] | None = None) -> int:
    """A card's copies, 0 to MAX_COPIES: a whole number or, when `data` (the YAML parent and
    key) is given, a game.yaml path such as 'players.max'."""
    source = ""
    if data is not None and isinstance(value, str) and value.strip() and not WHOLE.match(value):
        source = f"'{value.strip()}' is "
        value = job.data_at(value.strip(), *data)
    if value is None or value == "":
        return 1
    count = -1
    if isinstance(value, str) and WHOLE.match(value):
        count = int(value)
    elif isinstance(value, int) and not isinstance(value, bool):
        count = value
    elif isinstance(value, float) and value.is_integer():
        count = int(value)
    if count < 0:
        raise ContentError(f"{QUANTITY}: expected a whole number of copies, found '{value}'", **location)
    if count > MAX_COPIES:
        raise ContentError(f"{QUANTITY}: {source}{count:,} copies of one card; the limit is {MAX_COPIES:,}",
                           **location)
    return count


def csv_file(component: YMap, content: GameContent) -> tuple[Path, Path]:
    """The `csv:` file of a deck or table: its path, and its name as errors show it."""
    name = str(component["csv"])
    try:  # the refusal names the csv: key, not game.yaml
        path = content.path(name)
    except ContentError as error:
        raise ContentError(error.message, **where(component, "csv", value=True)) from None
    if path.is_dir():
        raise ContentError(f"csv: '{name}' is a folder, not a CSV file", **where(component, "csv", value=True))
    if not path.is_file():
        raise ContentError(f"csv: file not found: {name}", **where(component, "csv", value=True))
    return path, content.folder / name


def read_csv(component: YMap, job: KitJob) -> Iterator[tuple[dict[str, Any], int, Path]]:
    """Rows of the deck's CSV as fields (columns `x_ja` and `x_en` make the Text field `x`),
    with their line numbers and the file's name as errors show it."""
    path, shown = csv_file(component, job.content)
    table = read_table(path, shown)
    for cells, line in table.rows:
        fields: dict[str, Any] = {}
        for header, value in zip(table.header, cells, strict=True):
            fields[header] = value
            pair = field_pair(header)
            if pair:
                fields.setdefault(pair[0], {})[pair[1]] = value
        yield fields, line, shown


def cards_from(component: YMap, content: GameContent) -> Iterator[tuple[list[dict[str, Any]], dict[str, Any], str]]:
    """The cards of `cards_from:` entries: `{file: data.yaml, at: key.path, fields: {...}}`
    reads the list (or the one mapping) at `at` in a YAML file of the game folder, so that
    a deck prints the very rows a game's rules read; `fields` adds fields to each card."""
    for entry in component.get("cards_from") or []:
        path = content.path(str(entry["file"]), entry, "file")
        if not path.is_file():
            raise ContentError(f"cards_from: file not found: {entry['file']}", **where(entry, "file", value=True))
        node: object = load_yaml(path)
        for part in str(entry["at"]).split("."):
            if not isinstance(node, dict) or part not in node:
                raise ContentError(f"cards_from: {entry['file']} has nothing at '{entry['at']}'",
                                   **where(entry, "at", value=True))
            node = node[part]
        items = [node] if isinstance(node, dict) else node
        if not isinstance(items, list) or not all(isinstance(item, dict) for item in items):
            raise ContentError(f"cards_from: '{entry['at']}' in {entry['file']} is not a mapping or a list of "
                               "mappings (one per card)", **where(entry, "at", value=True))
        yield items, dict(entry.get("fields") or {}), str(entry["file"])


def expand_cards(component: YMap, job: KitJob) -> list[Card]:
    """Every card of the deck, copies included, in order: YAML cards, then CSV rows. Each
    card has the fields `copy` (1, 2, ... within its quantity) and `index` (in the deck).
    At most MAX_CARDS in all."""
    column = str(component.get("quantity", QUANTITY))
    name_field = component.get("name_field")
    sources: list[tuple[dict[str, Any], int, str, Location]] = []
    total = 0

    def count(fields: dict[str, Any], copies: int, where_from: str, location: Location) -> None:
        nonlocal total
        total += copies
        if total > MAX_CARDS:
            raise ContentError(f"{QUANTITY}: {copies:,} {'copy brings' if copies == 1 else 'copies bring'} the deck "
                               f"to {total:,} cards; the limit is {MAX_CARDS:,}", **location)
        sources.append((fields, copies, where_from, location))

    cards = component.get("cards") or []
    for number, item in enumerate(cards):
        fields = {k: v for k, v in item.items() if k != column}
        parent, key = (item, column) if column in item else (cards, number)
        location = where(parent, key, value=True)
        count(fields, _quantity(item.get(column), job, location, (parent, key)), f"{number + 1}", location)
    for items, extra, source in cards_from(component, job.content):
        for item in items:
            fields = {**extra, **{k: v for k, v in item.items() if k != column}}
            location = where(item, column if column in item else None, value=column in item)
            count(fields, _quantity(item.get(column), job, location), f"{source}:{location.get('line', '?')}", location)
    if "csv" in component:
        for fields, line, shown in read_csv(component, job):
            location = {"file": shown, "line": line}
            count(fields, _quantity(fields.pop(column, None), job, location), f"{shown.name}:{line}", location)
    out: list[Card] = []
    sides = faces(component, job.content)
    for fields, copies, where_from, location in sources:
        for copy in range(1, copies + 1):
            index = len(out) + 1
            full = {**fields, "copy": copy, "index": index}
            title = _card_title(full, name_field, job)
            name = f"{index}{f' {title!r}' if title else ''} ({where_from})"
            front = sides.front.layout(full, name, location)
            back = sides.back.layout(full, name, location) if sides.back else ()
            out.append(Card(full, name, location, front, back))
    if not out:
        raise ContentError("the deck has no cards (give 'cards', 'cards_from' or 'csv', with quantities above 0)",
                           **where(component, "cards" if "cards" in component else None))
    return out


def _card_title(fields: dict[str, Any], name_field: object, job: KitJob) -> str:
    for key in ([str(name_field)] if name_field else ["name", "title", "id"]):
        if key in fields and fields[key] not in (None, ""):
            return job.text(fields[key])
    return ""


def localized(component: YMap, content: GameContent) -> bool:
    """Built once per language when any card text, layout text or CSV column has ja/en forms,
    or a table comes from the rules (printed in the build's language), unless the element
    names its `lang`."""
    try:  # broken layouts are reported when the cards are read
        drawn = faces(component, content).elements()
    except PnpgenError:
        drawn = []
    layouts = [e for e in drawn if not (isinstance(e, dict) and "lang" in e)]  # an element in a fixed language
    if has_language_pair(layouts) or has_language_pair(component.get("cards") or []):
        return True
    try:  # a broken file is reported when the cards are read
        if any(has_language_pair(items) for items, _, _ in cards_from(component, content)):
            return True
    except PnpgenError:
        pass
    if any(kind == "table" and "from_rules" in element["table"] for kind, element in iter_elements(layouts)
           if isinstance(element, dict)):
        return True
    if "csv" in component:
        try:  # a broken CSV is reported when the cards are read
            path, shown = csv_file(component, content)
            header = read_table(path, shown).header
        except PnpgenError:
            return False
        return any(field_pair(h) for h in header)
    return False


# --- faces --------------------------------------------------------------------------------


def element_context(component: YMap, job: KitJob, card: Card, bleed: float, cmyk: bool = False) -> ElementContext:
    return ElementContext(
        job=job,
        label=job.label(component, card.name),
        fields=card.fields,
        icons=component.get("icons") or {},
        bleed=bleed,
        font_size=float(component.get("font_size", 9)),
        color=str(component.get("color", "#000000")),
        cmyk=cmyk,
    )


def draw_face(canvas: Canvas, layout: Sequence[object], trim: Rect, clip: Rect, ctx: ElementContext,
              turned: bool = False) -> None:
    """One card face inside `trim`, nothing drawn outside `clip`; `turned` rotates it by 180°."""
    canvas.saveState()
    path = canvas.beginPath()
    path.rect(clip.x, clip.y, clip.w, clip.h)
    canvas.clipPath(path, stroke=0, fill=0)
    if turned:
        canvas.translate(trim.x + trim.w / 2, trim.y + trim.h / 2)
        canvas.rotate(180)
        canvas.translate(-(trim.x + trim.w / 2), -(trim.y + trim.h / 2))
    draw_elements(canvas, layout, trim, ctx)
    canvas.restoreState()


def check_work(component: YMap, job: KitJob, s: Settings, cards: int, per_page: int,
               print_shop: bool = False) -> None:
    """The pages and drawings of the deck's file (or of its print-shop file) are within the
    limits: checked before anything is drawn."""
    sides = faces(component, job.content)
    back = sides.back is not None
    if print_shop:
        pages = cards * (2 if back else 1)
    elif s.layout == "foldover":
        pages = -(-cards // per_page)
    else:
        pages = -(-cards // per_page) * (2 if back else 1) + (2 if back and s.calibration else 0)
    elements = sides.largest()
    check_pages(pages, "the print-shop file" if print_shop else "the deck", where(component))
    check_draws(cards * elements, f"{cards:,} cards × {elements} layout elements", where(component))


def check(component: YMap, job: KitJob) -> list[str]:
    """Build-time problems: the card must fit the paper, every face must fit its text."""
    s = settings(component, job)
    per_page = grid_of(component, s).per_page if s.layout == "duplex" else fold_of(component, s).per_page
    problems: list[str] = []
    trim = Rect.mm(0, 0, *s.card)
    cards = expand_cards(component, job)
    check_work(component, job, s, len(cards), per_page)
    if job.options.print_shop:
        check_work(component, job, s, len(cards), 1, print_shop=True)
    # one problem per layout line: the first card that has it is named, and how many more
    # cards (or copies of that card) have the same problem there
    seen: dict[tuple[Any, ...], tuple[BuildError, set[tuple[Any, ...]], list[int]]] = {}
    for card in cards:
        ctx = element_context(component, job, card, s.bleed * mm)
        for layout in (card.front, card.back):
            try:
                draw_elements(None, layout, trim, ctx)
            except BuildError as error:
                key = (error.file, error.line, error.column, error.message.removeprefix(ctx.label))
                found = seen.setdefault(key, (error, set(), []))
                found[1].add((card.location.get("file"), card.location.get("line"), card.location.get("column")))
                found[2].append(int(card.fields["index"]))
                break
    for first, designs, indexes in seen.values():
        more = len(indexes) - 1
        if not more:
            problems.append(str(first))
        elif len(designs) == 1:
            problems.append(f"{first} (and {more} more {'copy' if more == 1 else 'copies'} of this card)")
        else:
            problems.append(f"{first} (and {more} more {'card' if more == 1 else 'cards'})")
    return problems


def safe_zone(component: YMap, job: KitJob) -> list[str]:
    """Text of any card face inside the safe zone (validate's problems; a build warns)."""
    return safe_problems(component, job, settings(component, job), expand_cards(component, job))


def safe_problems(component: YMap, job: KitJob, s: Settings, cards: Sequence[Card]) -> list[str]:
    """Text of any card face inside the safe zone (elements.safe_breaches), one line per
    element: its first card named, how many other card designs share the breach."""
    trim = Rect.mm(0, 0, *s.card)
    found: dict[str, tuple[str, int]] = {}
    for card in cards:
        if card.fields.get("copy") != 1:
            continue
        ctx = element_context(component, job, card, s.bleed * mm)
        for layout in (card.front, card.back):
            for breach in safe_breaches(layout, trim, ctx, s.safe * mm):
                place = breach.split(": ", 1)[0]
                first, count = found.get(place, (breach, 0))
                found[place] = (first, count + 1)
    return [first if count == 1 else f"{first} (and {count - 1} more card{'s' if count > 2 else ''})"
            for first, count in found.values()]


# --- pages --------------------------------------------------------------------------------


@dataclass
class Sheet:
    """What one page holds, for the page's crop marks, ruler and boxes."""

    page: Rect
    trims: list[Rect]
    bleed: Bleed  # points: every side, or (x, y) where the outer bleed gave way to crop marks
    folds: tuple[tuple[str, float], ...] = ()  # ("x" or "y", where) of fold lines: no crop mark there


def finish_page(canvas: Canvas, sheet: Sheet, s: Settings, lang: str, proof: bool = False) -> None:
    """Crop marks (margins only), the check ruler, TrimBox and BleedBox, the PROOF slug on a
    proof; next page."""
    draw_page_marks(canvas, sheet.page, sheet.trims, sheet.bleed, lang, s.crop_marks, sheet.folds)
    if proof:
        draw_proof_slug(canvas, sheet.page, sheet.trims, sheet.bleed, lang,
                        ruler_area(sheet.page, sheet.trims, sheet.bleed))
    block = union(sheet.trims)
    set_page_boxes(canvas, block, grown(block, sheet.bleed))
    canvas.showPage()


def back_shift(grid: Grid, s: Settings) -> tuple[float, float]:
    """How far the backs move on their page to cancel the offset read on the calibration
    sheet (x to the right, y upwards as seen from the front)."""
    dx, dy = -s.offset[0] * mm, -s.offset[1] * mm
    return (-dx, dy) if flips_left_right(grid.landscape, s.duplex) else (dx, -dy)


def shifted(rect: Rect, shift: tuple[float, float]) -> Rect:
    return Rect(rect.x + shift[0], rect.y + shift[1], rect.w, rect.h)


def render_duplex(canvas: Canvas, component: YMap, job: KitJob, s: Settings, cards: list[Card], grid: Grid) -> int:
    back = any(card.back for card in cards)
    pages = 0
    guides = job.options.guides
    shift = back_shift(grid, s)
    shared = back and shared_back(cards, job)
    for start in range(0, len(cards), grid.per_page):
        chunk = cards[start:start + grid.per_page]
        trims = [grid.trim(slot) for slot in range(len(chunk))]
        for slot, card in enumerate(chunk):
            ctx = element_context(component, job, card, grid.bleed)
            draw_face(canvas, card.front, trims[slot], grid.bleed_rect(slot), ctx)
            if s.corner:
                draw_cut_path(canvas, trims[slot], s.corner * mm, print_shop=False)
            if guides:
                draw_guides(canvas, trims[slot], min(grid.bleed, grid.gap / 2), s.safe * mm)
        if guides:
            _bleed_guide(canvas, grown(union(trims), grid.outer))
        finish_page(canvas, Sheet(grid.page, trims, grid.outer), s, job.text_lang, guides)
        pages += 1
        if not back:
            continue
        draw_backs(canvas, component, job, s, chunk, grid, shift, shared)
        finish_page(canvas, Sheet(grid.page, _back_trims(grid, s, len(chunk), shift), grid.outer), s,
                    job.text_lang, guides)
        pages += 1
    if back and s.calibration:
        pages += draw_calibration(canvas, grid, s, job.lang, guides, shifted_pages(cards, grid, job),
                                  job.out_path(str(component["id"]), SHIFTED).name)
    return pages


def _back_trims(grid: Grid, s: Settings, count: int, shift: tuple[float, float]) -> list[Rect]:
    return [shifted(grid.trim(grid.back_slot(slot, s.duplex)), shift) for slot in range(count)]


def draw_backs(canvas: Canvas, component: YMap, job: KitJob, s: Settings, chunk: Sequence[Card], grid: Grid,
               shift: tuple[float, float], shared: bool = False) -> None:
    """The backs of a page of cards, each behind its front, moved by `shift` (points). A
    `shared` back (the same for every card) is drawn once into a form and shown in each slot."""
    form = ""
    if shared:
        forms: dict[Any, str] = canvas.__dict__.setdefault("_pnpgen_backs", {})
        key = id(chunk[0].back)
        if key not in forms:
            forms[key] = f"pnpgenBack{len(forms)}"
            w, h = s.card[0] * mm, s.card[1] * mm
            canvas.beginForm(forms[key], -grid.bleed, -grid.bleed, w + grid.bleed, h + grid.bleed)
            draw_elements(canvas, chunk[0].back, Rect(0, 0, w, h),
                          element_context(component, job, chunk[0], grid.bleed))
            canvas.endForm()
        form = forms[key]
    for slot, (card, trim) in enumerate(zip(chunk, _back_trims(grid, s, len(chunk), shift), strict=True)):
        target = grid.back_slot(slot, s.duplex)
        clip = shifted(grid.bleed_rect(target), shift)
        if form:
            canvas.saveState()
            path = canvas.beginPath()
            path.rect(clip.x, clip.y, clip.w, clip.h)
            canvas.clipPath(path, stroke=0, fill=0)
            canvas.translate(trim.x, trim.y)
            canvas.doForm(form)
            canvas.restoreState()
        else:
            draw_face(canvas, card.back, trim, clip, element_context(component, job, card, grid.bleed))
        if s.corner:
            draw_cut_path(canvas, trim, s.corner * mm, print_shop=False)
        if job.options.guides:
            draw_guides(canvas, trim, min(grid.bleed, grid.gap / 2), s.safe * mm)


# Readings of the calibration sheet (mm, right and up +) that the backs-shifted file has
# pages for: every pair, so a player picks the backs that suit the printer without rebuilding.
SHIFTS = tuple(k * 0.25 for k in range(-4, 5))  # −1.0 … +1.0 mm: a 0.25 mm duplex offset is corrected
SHIFTED = "backs-shifted"  # the file's suffix: <id>-backs-shifted[-<lang>].pdf


def shift_readings() -> list[tuple[float, float]]:
    """(x, y) readings in the order of the backs-shifted file: rows from y +1 down to −1,
    each from x −1 to +1 (as the calibration sheet's table shows them)."""
    return [(x, y) for y in reversed(SHIFTS) for x in SHIFTS]


def shared_back(cards: Sequence[Card], job: KitJob) -> bool:
    """True when every card has the same back, drawn without card fields: one backs page
    then serves every sheet."""
    first = cards[0].back
    return all(card.back is first for card in cards) and not uses_card_fields(first, job)


def shifted_pages(cards: Sequence[Card], grid: Grid, job: KitJob) -> int:
    """Pages per reading in the backs-shifted file: one for a shared back, else every backs page."""
    return 1 if shared_back(cards, job) else -(-len(cards) // grid.per_page)


def render_shifted_backs(canvas: Canvas, component: YMap, job: KitJob, s: Settings, cards: list[Card],
                         grid: Grid) -> int:
    """<id>-backs-shifted: for each calibration reading, the backs pages moved to cancel it
    (on top of `back_offset`), labelled with the reading. A shared back needs one full page
    per reading, printed behind every fronts page."""
    per_reading = shifted_pages(cards, grid, job)
    if shared_back(cards, job):  # a full page of the shared back
        chunks = [(list(cards) * grid.per_page)[:grid.per_page]]
    else:
        chunks = [cards[start:start + grid.per_page] for start in range(0, len(cards), grid.per_page)]
    pages = 0
    total = len(shift_readings()) * per_reading
    base = back_shift(grid, s)
    notes = [WORDS("shifted_backs", job.text_lang, x=f"{rx:+.2f}", y=f"{ry:+.2f}", page=k + 1, count=total)
             for k, (rx, ry) in enumerate(r for r in shift_readings() for _ in chunks)]
    reach = max(grid.outer) + max(SHIFTS) * mm  # the backs move at most this far beyond their bleed
    forms: dict[int, tuple[str, list[Rect], NoteSpot | None]] = {}  # each backs page drawn once, as a form
    for rx, ry in shift_readings():
        reading = replace(s, offset=(s.offset[0] + rx, s.offset[1] + ry))
        shift = back_shift(grid, reading)
        for number, chunk in enumerate(chunks):
            if number not in forms:
                trims = _back_trims(grid, s, len(chunk), base)
                avoid = ruler_area(grid.page, trims, grid.outer)
                forms[number] = (f"pnpgenBacks{number}", trims,
                                 margin_note_spot(canvas, max(notes, key=len), grid.page, trims, reach, avoid))
                canvas.beginForm(forms[number][0], grid.page.x, grid.page.y, grid.page.right, grid.page.top)
                draw_backs(canvas, component, job, s, chunk, grid, base, shared_back(cards, job))
                canvas.endForm()
            name, trims, spot = forms[number]
            canvas.saveState()
            canvas.translate(shift[0] - base[0], shift[1] - base[1])
            canvas.doForm(name)
            canvas.restoreState()
            if spot is not None:
                draw_note_at(canvas, notes[pages], spot)
            # marks where the unmoved backs are (the cut is made from the fronts); boxes where they are
            draw_page_marks(canvas, grid.page, trims, grid.outer, job.text_lang, s.crop_marks)
            if job.options.guides:
                draw_proof_slug(canvas, grid.page, trims, reach, job.text_lang,
                                ruler_area(grid.page, trims, grid.outer))
            moved = union(_back_trims(grid, s, len(chunk), shift))
            set_page_boxes(canvas, moved, grown(moved, grid.outer))
            canvas.showPage()
            pages += 1
    return pages


def _bleed_guide(canvas: Canvas, rect: Rect) -> None:
    canvas.saveState()
    canvas.setStrokeColor(GUIDE_BLEED)
    canvas.setLineWidth(0.35)
    canvas.rect(rect.x, rect.y, rect.w, rect.h, stroke=1, fill=0)
    canvas.restoreState()


def render_foldover(canvas: Canvas, component: YMap, job: KitJob, s: Settings, cards: list[Card], fold: Fold) -> int:
    pages = 0
    for start in range(0, len(cards), fold.per_page):
        chunk = cards[start:start + fold.per_page]
        trims: list[Rect] = []
        for slot, card in enumerate(chunk):
            ctx = element_context(component, job, card, fold.grid.bleed)
            front, rear = fold.front(slot), fold.back(slot)
            draw_face(canvas, card.front, front, fold.front_bleed(slot), ctx)
            draw_face(canvas, card.back, rear, fold.back_bleed(slot), ctx, turned=not fold.vertical_fold)
            if s.corner:
                for trim in (front, rear):
                    draw_cut_path(canvas, trim, s.corner * mm, print_shop=False)
            if job.options.guides:
                for trim in (front, rear):
                    draw_guides(canvas, trim, 0, s.safe * mm)
            trims += [front, rear]
        _fold_marks(canvas, fold, grown(union(trims), fold.grid.outer), job.text_lang)
        x1, y1, _x2, _y2 = fold.fold_line
        line = ("x", x1) if fold.vertical_fold else ("y", y1)
        finish_page(canvas, Sheet(fold.page, trims, fold.grid.outer, (line,)), s, job.text_lang,
                    job.options.guides)
        pages += 1
    return pages


def _fold_marks(canvas: Canvas, fold: Fold, block: Rect, lang: str) -> None:
    """Dashed stubs of the fold line in the margins, labelled."""
    label = WORDS("fold", lang)
    x1, y1, x2, y2 = fold.fold_line
    canvas.saveState()
    canvas.setStrokeColor(colors.Color(0.4, 0.4, 0.4))
    canvas.setFillColor(colors.Color(0.4, 0.4, 0.4))
    canvas.setLineWidth(0.4)
    canvas.setDash(2, 1.5)
    canvas.setFont(SANS, 6)
    if fold.vertical_fold:
        for a, b in ((y1 + 2 * mm, block.y - 1 * mm), (block.top + 1 * mm, y2 - 2 * mm)):
            if b - a > 2 * mm:
                canvas.line(x1, a, x1, b)
        baseline = y2 - EDGE - getAscentDescent(SANS, 6)[0]  # its letters EDGE inside the paper (inkjets clip the rim)
        if block.top + 1 * mm < baseline - 6 * 0.25:
            canvas.drawCentredString(x1, baseline, label)
    else:
        for a, b in ((x1 + 2 * mm, block.x - 1 * mm), (block.right + 1 * mm, x2 - 2 * mm)):
            if b - a > 2 * mm:
                canvas.line(a, y1, b, y1)
    canvas.restoreState()


def draw_calibration(canvas: Canvas, grid: Grid, s: Settings, lang: str | None, proof: bool = False,
                     per_reading: int = 1, shifted_file: str = "") -> int:
    """Two pages: on the front a scale (±5 mm, ticks every 0.25 mm within ±1.5 mm) at the
    centre of every slot but those the instructions and the table of readings take, on the
    back a hairline cross at the mirrored centre. Printed duplex, each cross should sit on 0."""
    shift = back_shift(grid, s)
    langs = [lang] if lang else ["ja", "en"]
    lines = [line for code in langs
             for line in WORDS("calibration", code, edge=WORDS(f"edge_{s.duplex}", code),
                               file=shifted_file).split("\n")]
    text_slots = _calibration_text_slots(grid, lines)
    slots = [slot for slot in range(grid.per_page) if slot not in text_slots]
    for side in ("front", "back"):
        trims = []
        for slot in slots:
            target = grid.back_slot(slot, s.duplex) if side == "back" else slot
            trim = grid.trim(target) if side == "front" else shifted(grid.trim(target), shift)
            trims.append(trim)
            _calibration_target(canvas, trim, side)
        if side == "front":
            area = union([grid.trim(slot) for slot in text_slots])
            trims.append(area)
            _calibration_text(canvas, area, lines, per_reading)
        finish_page(canvas, Sheet(grid.page, trims, grid.outer), s, langs[-1], proof)
    return 2


CAL_SIZE = 5.0  # pt: the calibration sheet's instructions
CELL = (9 * mm, 3.4 * mm)  # the largest cell of the table of readings
MIN_CELL = (5.6 * mm, 2.6 * mm)  # the smallest that still reads at 4 pt


def _text_lines(lines: list[str], width: float) -> list[str]:
    return ["".join(t.text for t, _ in row.items) for line in lines
            for row in break_lines(tokenize(line, {}), SANS, CAL_SIZE, width)[0]]


def _calibration_text_height(lines: list[str], width: float) -> float:
    """Points the instructions and the table of readings need in a box `width` wide."""
    rows = len(SHIFTS) + 1
    return (len(_text_lines(lines, width - 4 * mm)) * CAL_SIZE * 1.3 + 4 * mm
            + rows * MIN_CELL[1] + 2 * mm)


def _calibration_text_slots(grid: Grid, lines: list[str]) -> list[int]:
    """The top-left block of slots (fewest first) that holds the instructions and the table of
    readings: slot 0 for a poker card, two slots for a 63 × 42 mm tile."""
    need_w = (len(SHIFTS) + 1) * MIN_CELL[0] + 4 * mm
    for count in range(1, grid.per_page + 1):
        for cols in range(1, min(count, grid.cols) + 1):
            if count % cols:
                continue
            rows = count // cols
            if rows > grid.rows:
                continue
            area = union([grid.trim(r * grid.cols + c) for r in range(rows) for c in range(cols)])
            if area.w >= need_w and area.h >= _calibration_text_height(lines, area.w):
                return [r * grid.cols + c for r in range(rows) for c in range(cols)]
    return list(range(grid.per_page))[:1]  # a card too small for it all: the first slot, as before


SCALE_OFFSET = 7 * mm  # the x scale runs this far below the slot's centre, the y scale this far right of it


def _calibration_target(canvas: Canvas, trim: Rect, side: str) -> None:
    """Front: a ring at the slot's centre, an x scale below it and a y scale right of it
    (±5 mm, ticks every 0.25 mm within ±1.5 mm), apart so that their fine ticks never
    cross. Back: a hairline cross and ring at the mirrored centre, long enough to reach
    both scales: its upright line reads x on the lower scale, its level line y on the right."""
    cx, cy = trim.x + trim.w / 2, trim.y + trim.h / 2
    canvas.saveState()
    canvas.setStrokeColor(colors.Color(0.6, 0.6, 0.6))
    canvas.setLineWidth(0.3)
    canvas.rect(trim.x, trim.y, trim.w, trim.h, stroke=1, fill=0)
    canvas.setStrokeColor(colors.black)
    canvas.setFillColor(colors.black)
    if side == "front":
        canvas.setFont(SANS, 4.5)
        canvas.setLineWidth(0.2)
        axis_y, axis_x = cy - SCALE_OFFSET, cx + SCALE_OFFSET
        canvas.line(cx - 5.5 * mm, axis_y, cx + 5.5 * mm, axis_y)
        canvas.line(axis_x, cy - 5.5 * mm, axis_x, cy + 5.5 * mm)
        canvas.circle(cx, cy, 1 * mm, stroke=1, fill=0)
        canvas.setLineWidth(0.12)  # ticks 0.25 mm apart stay apart
        for k in range(-20, 21):  # quarter millimetres
            if k % 4 == 0:
                tick = (1.8 if k % 20 == 0 or k == 0 else 1.2) * mm
            elif k % 2 == 0:
                tick = 0.8 * mm
            elif abs(k) <= 6:
                tick = 0.5 * mm  # quarter ticks within ±1.5 mm: a 0.25 mm offset reads off them
            else:
                continue
            d = k * 0.25 * mm
            canvas.line(cx + d, axis_y, cx + d, axis_y + tick)
            canvas.line(axis_x - tick, cy + d, axis_x, cy + d)
        for k in (-5, 0, 5):
            canvas.drawCentredString(cx + k * mm, axis_y - 2.2 * mm, f"{k:+d}" if k else "0 x")
            canvas.drawString(axis_x + 0.8 * mm, cy + k * mm - 1.5, f"{k:+d}" if k else "0 y")
    else:
        canvas.setLineWidth(0.12)  # a hairline: it covers no tick
        reach = SCALE_OFFSET + 2.5 * mm
        canvas.line(cx - reach, cy, cx + reach, cy)
        canvas.line(cx, cy - reach, cx, cy + reach)
        canvas.circle(cx, cy, 1 * mm, stroke=1, fill=0)
    canvas.restoreState()


def _calibration_text(canvas: Canvas, area: Rect, lines: list[str], per_reading: int) -> None:
    """Instructions at the top of `area` (the slots kept for them), the table of the
    backs-shifted file's pages by reading below."""
    canvas.saveState()
    canvas.setFont(SANS, CAL_SIZE)
    canvas.setFillColor(colors.black)
    y = area.top - 4 * mm
    for row in _text_lines(lines, area.w - 4 * mm):
        canvas.drawString(area.x + 2 * mm, y, row)
        y -= CAL_SIZE * 1.3
    canvas.restoreState()
    _reading_table(canvas, Rect(area.x, area.y, area.w, y - area.y), per_reading)


def _reading_table(canvas: Canvas, area: Rect, per_reading: int) -> None:
    """Rows y +1 … −1, columns x −1 … +1 (mm, 0.25 mm apart), each cell the page (or pages)
    of the backs-shifted file for that reading, as large as `area` allows; drawn as every kit
    table is (ruled.draw_cells), the readings' row and column shaded as headers."""
    cols = len(SHIFTS) + 1
    cell_w = max(MIN_CELL[0], min(CELL[0], (area.w - 4 * mm) / cols)) / mm
    cell_h = max(MIN_CELL[1], min(CELL[1], (area.h - 2 * mm) / cols)) / mm
    readings = shift_readings()
    last = len(readings) * per_reading
    widest = f"{last - per_reading + 1}–{last}" if per_reading > 1 else "+0.25"
    size = one_line(widest, 4.2, cell_w - 2 * PAD)
    grid = [["y \\ x"] + [f"{x:+.2f}" for x in SHIFTS]]
    for y in reversed(SHIFTS):
        firsts = [readings.index((x, y)) * per_reading + 1 for x in SHIFTS]
        grid.append([f"{y:+.2f}"] + [str(f) if per_reading == 1 else f"{f}–{f + per_reading - 1}" for f in firsts])
    placed = [(Cell(r, c, text, shade=HEADER if r == 0 or c == 0 else None, size=size),
               Box(c * cell_w, r * cell_h, cell_w, cell_h)) for r, row in enumerate(grid) for c, text in enumerate(row)]
    frame = Frame(area.x + (area.w - cols * cell_w * mm) / 2, area.top)
    draw_cells(canvas, frame, placed, Box(0, 0, cols * cell_w, cols * cell_h), PlainPaint())


def render_print_shop(canvas: Canvas, component: YMap, job: KitJob, s: Settings, cards: list[Card]) -> int:
    """One card face per page: the page is the card plus its bleed (BleedBox = MediaBox),
    TrimBox the card; fronts and backs alternate; CMYK; no marks, ruler or guides; the cut
    path (`corner_radius` rounding it) in the CutContour spot colour."""
    bleed = s.bleed * mm
    trim = Rect(bleed, bleed, s.card[0] * mm, s.card[1] * mm)
    page = trim.outset(bleed)
    pages = 0
    for card in cards:
        ctx = element_context(component, job, card, bleed, cmyk=True)
        for layout in (card.front, card.back) if card.back else (card.front,):
            draw_face(canvas, layout, trim, page, ctx)
            draw_cut_path(canvas, trim, s.corner * mm, print_shop=True)  # the dieline, for the shop's cutter
            set_page_boxes(canvas, trim, page)
            canvas.showPage()
            pages += 1
    return pages


# --- entry points ---------------------------------------------------------------------------


def render(component: YMap, job: KitJob) -> list[BuiltFile]:
    s = settings(component, job)
    cards = expand_cards(component, job)
    fold = fold_of(component, s) if s.layout == "foldover" else None
    grid = grid_of(component, s) if fold is None else fold.grid
    if job.options.print_shop:  # the print-shop pass: only the print-shop file
        check_work(component, job, s, len(cards), 1, print_shop=True)
        w, h = s.card[0] + 2 * s.bleed, s.card[1] + 2 * s.bleed
        return [write_pdf(job, component, (w * mm, h * mm),
                          lambda canvas: render_print_shop(canvas, component, job, s, cards),
                          "deck", [f"{len(cards)} cards", "one face per page, CMYK"])]
    check_work(component, job, s, len(cards), (fold or grid).per_page)
    has_back = any(card.back for card in cards)
    if fold is not None:
        page = fold.page
        note = f"fold-over, {fold.per_page} cards per page"
    else:
        page = grid.page
        note = (f"{grid.cols}×{grid.rows} per page; " + ("duplex, flip on the " + s.duplex + " edge"
                                                       if has_back else "fronts only"))

    def draw(canvas: Canvas) -> int:
        if fold is not None:
            return render_foldover(canvas, component, job, s, cards, fold)
        return render_duplex(canvas, component, job, s, cards, grid)

    duplex = s.duplex if fold is None and has_back else None
    warnings = [f"warning: {breach}" for breach in safe_problems(component, job, s, cards)]
    built = [write_pdf(job, component, (page.w, page.h), draw, "deck", [f"{len(cards)} cards", note, *warnings],
                       duplex=duplex)]
    if duplex is not None and s.calibration:
        per_reading = shifted_pages(cards, grid, job)
        check_pages(per_reading * len(shift_readings()), "the backs-shifted file", where(component))
        built.append(write_pdf(job, component, (page.w, page.h),
                               lambda canvas: render_shifted_backs(canvas, component, job, s, cards, grid),
                               "deck backs, moved for each calibration reading",
                               [f"{per_reading} page(s) per reading"], suffix=SHIFTED))
    return built


MAX_PREVIEW_CARDS = 60


def preview(component: YMap, job: KitJob) -> list[Path]:
    """<id>[-<lang>].svg: the first copy of every kind of card (front, then its back when
    backs differ), and the shared back once; PNG twin beside it."""
    s = settings(component, job)
    cards = [c for c in expand_cards(component, job) if c.fields.get("copy") == 1][:MAX_PREVIEW_CARDS]
    sides = faces(component, job.content)
    back = sides.back.fixed if sides.back and sides.back.fixed is not None else ()
    own_backs = sides.back is not None and (sides.back.fixed is None or uses_card_fields(back, job))
    w, h = s.card[0] * mm, s.card[1] * mm
    drawn: list[tuple[Recorder, str]] = []
    art_budget = [MAX_PREVIEW_SHAPES]

    def face(layout: Sequence[object], card: Card, caption: str) -> None:
        rec = Recorder(w, h, art_budget)
        draw_elements(rec, layout, Rect(0, 0, w, h), element_context(component, job, card, s.bleed * mm))  # type: ignore[arg-type]
        drawn.append((rec, caption))

    for card in cards:
        face(card.front, card, card.name)
        if own_backs:
            face(card.back, card, "back")
    if back and not own_backs:
        face(back, cards[0], "back (all cards)")
    sheet = tile_sheet(drawn, columns=6)
    name = Path(job.out_path(str(component["id"])).name).with_suffix(".svg")
    return [save_preview(sheet, job.preview_dir() / name)]


def uses_card_fields(layout: Sequence[object], job: KitJob) -> bool:
    """True when a layout names a card field (so each card has its own face); a layout
    with more than plain `{{ name }}` placeholders is taken to."""
    source = repr(list(layout))
    if "{%" in source or "{#" in source or source.count("{{") != len(PLACEHOLDER.findall(source)):
        return True
    names = set(PLACEHOLDER.findall(source))
    return bool(names - set(job.values))

__all__ = ["BOUNDS", "SCHEMA", "check", "localized", "preview", "render", "safe_zone"]
