"""Page geometry and print engineering shared by every component type.

Rect is in points with the origin at the bottom-left corner of the paper, as ReportLab
draws. Component YAML gives millimetres; `Rect.mm` and `MM` convert. Everything a
printer needs lives here: page boxes (TrimBox, BleedBox), crop marks that stay in the
margins, the 50 mm "print at 100%" check ruler and the --guides proof overlay.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from reportlab.lib import colors
from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas

from pnpgen.content.game import GameContent
from pnpgen.content.schema import text_for
from pnpgen.content.yamlpos import YMap, where
from pnpgen.engine.protocol import Rules
from pnpgen.errors import ContentError, PnpgenError
from pnpgen.output import BuildOptions, BuiltFile
from pnpgen.render.fonts import SANS
from pnpgen.render.paper import paper_mm
from pnpgen.render.pdf import atomic_output, new_canvas
from pnpgen.render.text import TemplateRefused, Templates, text_values
from pnpgen.render.words import WORDS
from pnpgen.scene import EPS as EPS  # re-exported: the kit reads it from here
from pnpgen.scene import Rect

MM = mm  # points per millimetre

# Crop marks: how far from the bleed edge they start, and their longest length.
CROP_GAP = 1.0 * mm
CROP_LENGTH = 5.0 * mm
CROP_WIDTH = 0.25
MIN_MARK = 1.5 * mm  # a crop mark shorter than this is not drawn (a cut line keeps room for it: imposition)
# The check ruler: 50 mm long; RULER_HEIGHT is the room it needs above its baseline.
RULER_LENGTH = 50 * mm
RULER_HEIGHT = 4.2 * mm
# No mark (crop mark, ruler) comes nearer the paper edge than this: many inkjets and
# lasers cannot print the outer 5 mm, and a mark cut short there misleads.
EDGE = 5.0 * mm


MIN_PPI = 300  # below this, a picture in a print-shop file is reported (not refused)


def low_ppi_warnings(canvas: object, folder: Path) -> list[str]:
    """'warning: <image> prints at N ppi ...' for each picture a print-shop canvas drew
    under MIN_PPI, at its lowest resolution; named relative to the game `folder`."""
    low: dict[str, float] = canvas.__dict__.get("_pnpgen_low_ppi", {})

    def name(path: str) -> str:
        for root in (folder, folder.resolve()):
            if Path(path).is_relative_to(root):
                return Path(path).relative_to(root).as_posix()
        return path

    return [f"warning: {name(path)} prints at {ppi:.0f} ppi (under {MIN_PPI}): it will look soft; "
            f"give it {MIN_PPI / ppi:.1f}× the pixels" for path, ppi in sorted(low.items())]


Bleed = float | tuple[float, float]  # points: the same on every side, or (left/right, bottom/top)


def grown(rect: Rect, bleed: Bleed) -> Rect:
    """`rect` plus its bleed: the same on every side, or (x, y) for left/right and bottom/top."""
    bx, by = (bleed, bleed) if isinstance(bleed, int | float) else bleed
    return Rect(rect.x - bx, rect.y - by, rect.w + 2 * bx, rect.h + 2 * by)


def marked_bleed(page: Rect, block: Rect, bleed: float) -> tuple[float, float]:
    """The bleed (x, y, points) a home page keeps beside `block` so that every crop mark still
    finds room between it and the EDGE band (the bleed gives way, never the mark)."""
    room = EDGE + CROP_GAP + MIN_MARK
    space_x = min(block.x - page.x, page.right - block.right)
    space_y = min(block.y - page.y, page.top - block.top)
    return (max(0.0, min(bleed, space_x - room)), max(0.0, min(bleed, space_y - room)))


def union(rects: Sequence[Rect]) -> Rect:
    x0 = min(r.x for r in rects)
    y0 = min(r.y for r in rects)
    x1 = max(r.right for r in rects)
    y1 = max(r.top for r in rects)
    return Rect(x0, y0, x1 - x0, y1 - y0)


TEMPLATES_KEPT = 4_000  # texts the kit keeps parsed between jobs; past this (a long `watch`) it starts afresh
_kept = threading.local()


def shared_templates() -> Templates:
    """The kit's sandbox driver, one per thread: a text every card, component and language
    draws (a layout's `{{ }}`) is parsed and checked once, not once per job. It holds
    only parsed texts; each render starts its budgets afresh."""
    templates: Templates | None = getattr(_kept, "templates", None)
    if templates is None or len(templates.parsed) > TEMPLATES_KEPT:
        templates = _kept.templates = Templates()
    return templates


@dataclass
class KitJob:
    """One component build: the game, its rules, the build options and the language
    (None for a language-neutral component)."""

    content: GameContent
    rules: list[Rules[Any, Any]]
    options: BuildOptions
    lang: str | None = None
    contexts: dict[str, dict[str, Any]] = field(default_factory=dict, repr=False, compare=False)
    templates: Templates = field(default_factory=shared_templates, repr=False, compare=False)

    @property
    def text_lang(self) -> str:
        """The language text is written in (English for a language-neutral build)."""
        return self.lang or "en"

    def text(self, value: object) -> str:
        return str(value) if isinstance(value, int | float) else text_for(value, self.text_lang)

    def paper_mm(self, name: str | None = None, landscape: bool = False) -> tuple[float, float]:
        """Paper size in mm: the named paper, else the build's --paper."""
        return paper_mm(name or self.options.paper, landscape)

    def paper(self, name: str | None = None, landscape: bool = False) -> Rect:
        """The whole paper as a Rect in points."""
        w, h = self.paper_mm(name, landscape)
        return Rect.mm(0, 0, w, h)

    @property
    def game_dir(self) -> Path:
        return self.options.game_dir(self.content)

    @property
    def variant(self) -> str:
        """What the file name says this build is: 'print-shop' for a print shop's file
        (--print-shop); for a home file 'ink-saver' (--ink-saver) and 'proof' (--guides
        lines), joined by '-' when both; else ''."""
        if self.options.print_shop:
            return "print-shop"
        return "-".join(name for name, on in (("ink-saver", self.options.ink_saver), ("proof", self.options.guides))
                        if on)

    def home(self) -> KitJob:
        """The same job for the home-print files (a --print-shop build writes both)."""
        return replace(self, options=replace(self.options, print_shop=False))

    def out_path(self, component_id: str, suffix: str = "") -> Path:
        """build/<game>/<id>[-<suffix>][-<variant>][-<lang>].pdf (variant: print-shop, ink-saver, proof)"""
        name = (component_id + (f"-{suffix}" if suffix else "") + (f"-{self.variant}" if self.variant else "")
                + (f"-{self.lang}" if self.lang else ""))
        return self.game_dir / f"{name}.pdf"

    def preview_dir(self) -> Path:
        return self.game_dir / "preview"

    @property
    def values(self) -> dict[str, object]:
        """The values texts name (render/text.py: the game's, then the first rules'
        rulebook context) in this language, computed once per language (shared with
        in_lang copies)."""
        lang = self.text_lang
        if lang not in self.contexts:
            self.contexts[lang] = text_values(self.content, self.rules[0] if self.rules else None, lang)
        return self.contexts[lang]

    def in_lang(self, lang: str) -> KitJob:
        """The same job writing text in `lang` (for an element printed in a fixed language)."""
        return replace(self, lang=lang)

    def data_at(self, path: str, parent: object = None, key: object = None) -> Any:
        """The game.yaml value at a dotted path such as 'players.max' (list items by number)."""
        value: object = self.content.data
        for part in path.split("."):
            if isinstance(value, dict) and part in value:
                value = value[part]
            elif isinstance(value, list) and part.isdigit() and int(part) < len(value):
                value = value[int(part)]
            else:
                raise ContentError(f"'{path}' is not in {self.content.main_file.name} (no '{part}')",
                                   **where(parent, key, value=True))
        return value

    def label(self, component: object, card: str | None = None) -> str:
        """'game <id>, component <id>[, card <n>]': how build errors name their subject."""
        ident = component.get("id", "?") if isinstance(component, dict) else str(component)
        out = f"game {self.content.id}, component {ident}"
        return out + (f", card {card}" if card else "")


def problems_of(action: Callable[[], object]) -> list[str]:
    """A type's check: run `action` (a dry run) and return its first problem, if any. A
    refused template (or an old `{name}`) is an error, never a problem: it is raised."""
    try:
        action()
    except TemplateRefused:
        raise
    except PnpgenError as error:
        return [str(error)]
    return []


def component_title(component: YMap, job: KitJob) -> str:
    """The component's title in the job's language (both for a neutral build)."""
    title = component.get("title", component["id"])
    if job.lang:
        return text_for(title, job.lang)
    ja, en = text_for(title, "ja"), text_for(title, "en")
    return en if ja == en else f"{en} / {ja}"


def has_language_pair(value: object) -> bool:
    """True when a value holds a {ja, en} pair whose two texts differ."""
    if isinstance(value, dict):
        if set(value) <= {"ja", "en"} and len(value) == 2 and value["ja"] != value["en"]:
            return True
        return any(has_language_pair(v) for v in value.values())
    if isinstance(value, list):
        return any(has_language_pair(v) for v in value)
    return False


def write_pdf(job: KitJob, component: YMap, pagesize: tuple[float, float], draw: Callable[[Canvas], int],
              kind: str, notes: Sequence[str], suffix: str = "", duplex: str | None = None) -> BuiltFile:
    """The one PDF-writing tail of every component type: build/<game>/<id>[-<suffix>][-<lang>].pdf,
    written atomically (a failed build leaves no file), on a canvas with the bundled fonts and
    fixed metadata (the game's and component's title, game.yaml's `author:`; dates from
    SOURCE_DATE_EPOCH, else a fixed one, so rebuilds are byte-identical). `draw` draws the pages and
    returns how many. Viewers are asked to print at actual size (/PrintScaling /None) and,
    with `duplex` ('long' or 'short'), double-sided flipping on that edge."""
    path = job.out_path(str(component["id"]), suffix)
    if job.variant == "print-shop":
        kind = f"{kind} (print shop)"
    elif job.options.guides:
        kind = f"{kind} (PROOF, not for printing)"
    if job.options.ink_saver and job.variant != "print-shop":
        kind = f"{kind} (ink saver)"
    with atomic_output(path) as tmp:
        game = job.content.title(job.text_lang)
        title = f"{game}: {component_title(component, job)}"
        author = text_for(job.content.data.get("author", ""), job.text_lang)  # game.yaml `author:`
        canvas = new_canvas(tmp, pagesize, title)
        canvas.setAuthor(author)  # ReportLab's default is "anonymous"
        # a viewer's print dialog: actual size, never "fit to page"; a duplex deck's flip edge
        canvas.setViewerPreference("PrintScaling", "None")
        if duplex is not None:
            canvas.setViewerPreference("Duplex", "DuplexFlipShortEdge" if duplex == "short" else "DuplexFlipLongEdge")
        pages = draw(canvas)
        notes = [*notes, *low_ppi_warnings(canvas, job.content.main_file.parent)]
        canvas.save()
        if job.variant == "print-shop":
            from pnpgen.render.press import make_pdfx

            make_pdfx(tmp, title, author, lang=job.lang or "x-default")
    return BuiltFile(job.content.id, path, pages, kind, list(notes))


def open_canvas(path: Path, pagesize: tuple[float, float], title: str = "") -> Canvas:
    """A deterministic canvas with the bundled fonts (see render.pdf.new_canvas)."""
    return new_canvas(path, pagesize, title)


def set_page_boxes(canvas: Canvas, trim: Rect, bleed: Rect) -> None:
    """/TrimBox and /BleedBox of the current page (call before showPage)."""
    canvas.setTrimBox(trim.box())
    canvas.setBleedBox(bleed.box())


def crop_mark_lines(trims: Sequence[Rect], bleed: Bleed, page: Rect,
                    folds: Sequence[tuple[str, float]] = ()) -> list[tuple[float, float, float, float]]:
    """Crop marks as (x1, y1, x2, y2) segments: one per trim edge, on each side of the
    block of cards, in the margin only (from CROP_GAP beyond the bleed of every card to at
    most CROP_LENGTH, stopping EDGE short of the paper edge, where printers cannot print).
    A mark that finds no room is left out."""
    if not trims:
        return []
    block = grown(union(list(trims)), bleed)
    xs = sorted({round(v, 3) for t in trims for v in (t.x, t.right)} - {round(v, 3) for a, v in folds if a == "x"})
    ys = sorted({round(v, 3) for t in trims for v in (t.y, t.top)} - {round(v, 3) for a, v in folds if a == "y"})
    lines: list[tuple[float, float, float, float]] = []

    def span(start: float, end: float, outward: int) -> tuple[float, float] | None:
        """A mark from `start` outwards towards `end`, no longer than CROP_LENGTH; None if
        shorter than 1.5 mm (or `end` is not outwards at all)."""
        room = (end - start) * outward
        if room < MIN_MARK - 1e-6:
            return None
        return start, start + outward * min(CROP_LENGTH, room)

    sides = ((block.y - CROP_GAP, page.y + EDGE, True, -1), (block.top + CROP_GAP, page.top - EDGE, True, 1),
             (block.x - CROP_GAP, page.x + EDGE, False, -1), (block.right + CROP_GAP, page.right - EDGE, False, 1))
    for start, edge, vertical, outward in sides:
        mark = span(start, edge, outward)
        if mark is None:
            continue
        a, b = mark
        lines += [(x, a, x, b) for x in xs] if vertical else [(a, y, b, y) for y in ys]
    return lines


def draw_crop_marks(canvas: Canvas, trims: Sequence[Rect], bleed: Bleed, page: Rect) -> None:
    """Crop marks for a page of trims; never across any trim or bleed area."""
    canvas.saveState()
    canvas.setStrokeColor(colors.black)
    canvas.setLineWidth(CROP_WIDTH)
    for x1, y1, x2, y2 in crop_mark_lines(trims, bleed, page):
        canvas.line(x1, y1, x2, y2)
    canvas.restoreState()


def draw_check_ruler(canvas: Canvas, x: float, y: float, lang: str = "en", vertical: bool = False) -> None:
    """A 50 mm ruler from (x, y) to the right (upwards when `vertical`), ticks every 5 mm,
    labelled; printed at 100% it measures exactly 50 mm. Needs RULER_HEIGHT beside it
    (above it; left of it when vertical)."""
    canvas.saveState()
    canvas.translate(x, y)
    if vertical:
        canvas.rotate(90)
    canvas.setStrokeColor(colors.black)
    canvas.setFillColor(colors.black)
    canvas.setLineWidth(0.3)
    canvas.line(0, 0, RULER_LENGTH, 0)
    for i in range(11):
        tick = 1.6 * mm if i % 2 == 0 else 0.9 * mm
        canvas.line(i * 5 * mm, 0, i * 5 * mm, tick)
    canvas.setFont(SANS, 5)
    canvas.drawString(0.5 * mm, 2.2 * mm, WORDS("ruler", lang))
    canvas.restoreState()


def ruler_rect(x: float, y: float, vertical: bool) -> Rect:
    """The area the check ruler covers when drawn at (x, y)."""
    return Rect(x - RULER_HEIGHT, y, RULER_HEIGHT, RULER_LENGTH) if vertical else Rect(x, y, RULER_LENGTH, RULER_HEIGHT)


def place_ruler(page: Rect, block: Rect, marks: Sequence[tuple[float, float, float, float]] = (),
                edge: float = EDGE) -> tuple[float, float, bool] | None:
    """Where the check ruler goes (x, y, vertical): in a margin outside `block` (the bleed
    box of everything printed), at least `edge` from the paper's edge and clear of the crop
    marks; tried centred first, then sliding along the bottom, top, left and right margins.
    None when no margin has room."""
    candidates: list[tuple[float, float, bool]] = []
    steps = [0.0] + [s * k * mm for k in range(5, 150, 5) for s in (1, -1)]
    if block.y - page.y >= RULER_HEIGHT + edge + 0.5 * mm:
        y = page.y + max(edge, (block.y - page.y - RULER_HEIGHT) / 2)
        candidates += [(page.x + (page.w - RULER_LENGTH) / 2 + d, y, False) for d in steps]
    if page.top - block.top >= RULER_HEIGHT + edge + 0.5 * mm:
        y = block.top + max(0.5 * mm, (page.top - block.top - RULER_HEIGHT) / 2)
        candidates += [(page.x + (page.w - RULER_LENGTH) / 2 + d, y, False) for d in steps]
    for space, x in ((block.x - page.x, page.x + max(edge + RULER_HEIGHT, (block.x - page.x + RULER_HEIGHT) / 2)),
                     (page.right - block.right, block.right + max(RULER_HEIGHT + 0.5 * mm,
                                                                  (page.right - block.right + RULER_HEIGHT) / 2))):
        if space >= RULER_HEIGHT + edge + 0.5 * mm:
            candidates += [(x, page.y + (page.h - RULER_LENGTH) / 2 + d, True) for d in steps]
    inner = page.inset(edge)
    for x, y, vertical in candidates:
        area = ruler_rect(x, y, vertical)
        if inner.contains(area) and not area.overlaps(block) and not any(
                _touches(area, m) for m in marks):
            return x, y, vertical
    return None


def _touches(area: Rect, mark: tuple[float, float, float, float]) -> bool:
    x1, y1, x2, y2 = mark
    box = Rect(min(x1, x2), min(y1, y2), abs(x2 - x1), abs(y2 - y1)).outset(0.5 * mm)
    return area.overlaps(box)


def ruler_area(page: Rect, trims: Sequence[Rect], bleed: Bleed) -> list[Rect]:
    """Where draw_page_marks puts the check ruler on such a page (empty: nowhere)."""
    spot = place_ruler(page, grown(union(trims), bleed), crop_mark_lines(trims, bleed, page))
    return [] if spot is None else [ruler_rect(*spot)]


def draw_page_ruler(canvas: Canvas, page: Rect, block: Rect,
                    marks: Sequence[tuple[float, float, float, float]] = (), lang: str = "en") -> bool:
    """The check ruler in a free margin of the page; False if no margin had room."""
    spot = place_ruler(page, block, marks)
    if spot is None:
        return False
    draw_check_ruler(canvas, spot[0], spot[1], lang, vertical=spot[2])
    return True


def draw_page_marks(canvas: Canvas, page: Rect, trims: Sequence[Rect], bleed: Bleed, lang: str = "en",
                    crop_marks: bool = True, folds: Sequence[tuple[str, float]] = ()) -> None:
    """A page's crop marks (margins only) and check ruler. Pages laid out alike share one
    PDF form drawn once: smaller files, faster builds."""
    key = (page, tuple(trims), bleed, lang, crop_marks, tuple(folds))
    forms: dict[Any, str] = canvas.__dict__.setdefault("_pnpgen_marks", {})
    name = forms.get(key)
    if name is None:
        name = forms[key] = f"pnpgenMarks{len(forms)}"
        marks = crop_mark_lines(trims, bleed, page, folds) if crop_marks else []
        canvas.beginForm(name)
        canvas.setStrokeColor(colors.black)
        canvas.setLineWidth(CROP_WIDTH)
        for x1, y1, x2, y2 in marks:
            canvas.line(x1, y1, x2, y2)
        draw_page_ruler(canvas, page, grown(union(trims), bleed), marks, lang)
        canvas.endForm()
    canvas.doForm(name)


SLUG_SIZE = 7.0  # points, the largest proof slug


def _free_spans(low: float, high: float, cuts: Sequence[float], need: float) -> list[tuple[float, float]]:
    """Stretches of [low, high] between the `cuts` (crop mark lines), at least `need` long."""
    edges = [low, *sorted(c for c in cuts if low < c < high), high]
    return [(a + 1.0 * mm, b - 1.0 * mm) for a, b in zip(edges, edges[1:], strict=False) if b - a - 2 * mm >= need]


def proof_slug_spot(page: Rect, trims: Sequence[Rect], bleed: Bleed, width: float, size: float,
                    avoid: Sequence[Rect] = ()) -> tuple[float, float, bool] | None:
    """Where the proof slug's text goes (x, y of its centre line, vertical): in a margin
    outside every bleed, at least EDGE from the paper edge, between crop marks and clear of
    the ruler and captions (`avoid`); the top margin first, then the bottom, left and right, nearest the
    middle. None when no margin has room."""
    block = grown(union(trims), bleed)
    height = size * 1.2
    xs = [v for t in trims for v in (t.x, t.right)]
    ys = [v for t in trims for v in (t.y, t.top)]
    bands = ((block.top + 0.5 * mm, page.top - EDGE, False), (page.y + EDGE, block.y - 0.5 * mm, False),
             (page.x + EDGE, block.x - 0.5 * mm, True), (block.right + 0.5 * mm, page.right - EDGE, True))
    for low, high, vertical in bands:
        if high - low < height:
            continue
        middle = (low + high) / 2
        along = (page.y + EDGE, page.top - EDGE, ys) if vertical else (page.x + EDGE, page.right - EDGE, xs)
        spans = _free_spans(along[0], along[1], along[2], width)
        centre = (page.y + page.h / 2) if vertical else (page.x + page.w / 2)
        tries = sorted({min(max(centre + d, a + width / 2), b - width / 2) for a, b in spans
                        for d in [k * 2.5 * mm for k in range(-120, 121)]}, key=lambda c: abs(c - centre))
        for c in tries:
            area = (Rect(middle - height / 2, c - width / 2, height, width) if vertical
                    else Rect(c - width / 2, middle - height / 2, width, height))
            if not any(area.overlaps(other.outset(1 * mm)) for other in avoid):
                return (middle, c, True) if vertical else (c, middle, False)
    return None


def draw_proof_slug(canvas: Canvas, page: Rect, trims: Sequence[Rect], bleed: Bleed, lang: str,
                    avoid: Sequence[Rect] = ()) -> bool:
    """"PROOF — do not print" in a margin outside the trim (proof files, --guides), so a
    proof is not taken for the print copy; False when no margin had room."""
    return draw_margin_note(canvas, WORDS("proof_slug", lang), page, trims, bleed, avoid, GUIDE_TRIM)


def draw_margin_note(canvas: Canvas, text: str, page: Rect, trims: Sequence[Rect], bleed: Bleed,
                     avoid: Sequence[Rect] = (), colour: object = colors.black) -> bool:
    """One line of text in a free margin of the page (proof_slug_spot), at most SLUG_SIZE
    points; False when no margin had room."""
    spot = margin_note_spot(canvas, text, page, trims, bleed, avoid)
    if spot is not None:
        draw_note_at(canvas, text, spot, colour)
    return spot is not None


NoteSpot = tuple[float, float, bool, float]  # x, y of the text's centre line, vertical, size


def margin_note_spot(canvas: Canvas, text: str, page: Rect, trims: Sequence[Rect], bleed: Bleed,
                     avoid: Sequence[Rect] = ()) -> NoteSpot | None:
    """Where (and how large) draw_margin_note puts `text`; None when no margin has room."""
    for size in (SLUG_SIZE, 5.5, 4.5):
        spot = proof_slug_spot(page, trims, bleed, canvas.stringWidth(text, SANS, size), size, avoid)
        if spot is not None:
            return (*spot, size)
    return None


def draw_note_at(canvas: Canvas, text: str, spot: NoteSpot, colour: object = colors.black) -> None:
    x, y, vertical, size = spot
    canvas.saveState()
    canvas.setFillColor(colour)
    canvas.setFont(SANS, size)
    canvas.translate(x, y)
    if vertical:
        canvas.rotate(90)
    canvas.drawCentredString(0, -size * 0.35, text)
    canvas.restoreState()


CUT_SPOT = "CutContour"  # the spot colour print shops' cutters read the cut path from
CUT_WIDTH = 0.25  # points: the cut path's stroke
GUIDE_CUT = colors.Color(0.72, 0.72, 0.72)  # a home file's faint cut guide (rounded corners)


def draw_cut_path(canvas: Canvas, trim: Rect, radius: float, print_shop: bool) -> None:
    """The cut line of a card or tile (`radius` in points rounds its corners). A print-shop
    file strokes it in the Separation spot colour CutContour (alternate: 100% magenta),
    overprinting, so the art beneath is not knocked out and the shop's cutter, not its
    press, takes it. A home file draws it as a faint grey hairline: a guide for scissors
    or a corner punch."""
    canvas.saveState()
    if print_shop:
        canvas.setStrokeColor(colors.CMYKColorSep(0, 1, 0, 0, spotName=CUT_SPOT))
        canvas.setStrokeOverprint(True)
        canvas.setOverprintMask(True)
        canvas.setLineWidth(CUT_WIDTH)
    else:
        canvas.setStrokeColor(GUIDE_CUT)
        canvas.setLineWidth(0.2)
    if radius > 0:
        canvas.roundRect(trim.x, trim.y, trim.w, trim.h, radius, stroke=1, fill=0)
    else:
        canvas.rect(trim.x, trim.y, trim.w, trim.h, stroke=1, fill=0)
    canvas.restoreState()


GUIDE_TRIM = colors.Color(0.85, 0, 0.45)
GUIDE_BLEED = colors.Color(0, 0.6, 0.85)
GUIDE_SAFE = colors.Color(0, 0.6, 0.2)


def draw_guides(canvas: Canvas, trim: Rect, bleed: float, safe: float) -> None:
    """Proof mode overlay: bleed edge (blue), trim (magenta), safe zone (green dashes)."""
    canvas.saveState()
    canvas.setLineWidth(0.35)
    for rect, colour, dash in ((trim.outset(bleed), GUIDE_BLEED, None), (trim, GUIDE_TRIM, None),
                               (trim.inset(safe), GUIDE_SAFE, (2, 1.5))):
        canvas.setStrokeColor(colour)
        canvas.setDash(*dash) if dash else canvas.setDash()
        canvas.rect(rect.x, rect.y, rect.w, rect.h, stroke=1, fill=0)
    canvas.restoreState()
