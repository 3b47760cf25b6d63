"""Layout elements: text, shapes, images and small tables drawn inside a box.

A layout is a list of elements, each a mapping with one main key:

    - text: "**{{ name }}** costs :coin: {{ cost }}"   # rich text, see below
      size: 9                                  # points
    - shape: rounded                           # rect | rounded | circle | ellipse | line
      fill: "#f4e3c1"
      bleed: true                              # extend to the bleed edge
    - image: art/{{ id }}.svg                  # PNG or SVG, relative to the game folder
      fit: contain                             # contain | cover | stretch
    - table: {from_rules: scores}              # or rows: [[...], ...]

Positions `x`, `y`, `w`, `h` are millimetres from the box's top-left corner (y down);
an element without them fills the box. Every string may name card fields as `{{ field }}`.

`lang: ja` (or en) prints a text or table in that language whatever the build's language
(a bilingual card). Rich text: `**bold**`, `[#c03020]coloured[/]` (or a colour name), `:icon:` for an icon
declared in the component's `icons:` map, and line breaks. Japanese breaks between any two
characters (never before 、。」 and the like); English between words. Text that does not fit
its box is a BuildError naming the game, component and card, unless `shrink: true`, which
lowers the size (to `min_size`, 4 pt by default) until it fits.
"""

from __future__ import annotations

import difflib
import math
import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from reportlab.lib import colors
from reportlab.lib.units import mm
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas

from pnpgen.content.game import GameContent, PathRefused
from pnpgen.content.schema import Any_, Choice, Each, OneOf, Range, Schema, Text, check
from pnpgen.content.yamlpos import Where, where
from pnpgen.errors import BuildError, ContentError
from pnpgen.limits import MAX_LENGTH_MM
from pnpgen.render.colour import make_colour
from pnpgen.render.fonts import SANS, SERIF, setup_fonts
from pnpgen.render.kit.bounds import FONT, LENGTH, LINE_HEIGHT, OFFSET, SIZE
from pnpgen.render.kit.images import SUFFIXES as IMAGE_SUFFIXES
from pnpgen.render.kit.images import Image, check_image, draw_image_file
from pnpgen.render.kit.page import KitJob, Rect
from pnpgen.render.kit.richtext import (
    LEADING,
    TextLayout,
    ascent_descent,
    cached_layout,
    draw_layout,
    ink_rect,
    shrink_to_fit,
    text_width,
)
from pnpgen.render.kit.ruled import HEADER, PAD, PT, Cell, Ink, draw_cells
from pnpgen.render.kit.tiling import Box, Frame
from pnpgen.render.table import TableModel, UnknownTable, rules_table
from pnpgen.render.text import TemplateMistake, is_plain, refuse_old_placeholder
from pnpgen.words import PLACEHOLDER

FONTS = {"sans": SANS, "serif": SERIF}
Align = Choice("left", "center", "right")
VAlign = Choice("top", "middle", "bottom")
Number = OneOf(float, str)  # a number, or a `{{ field }}` giving one
POSITION: dict[str, Any] = {"x?": Number, "y?": Number, "w?": Number, "h?": Number, "bleed?": bool,
                            "upside_down?": bool, "safe?": bool}  # safe: off lets text into the safe zone

ELEMENTS: dict[str, Schema] = {
    "text": {
        "text": OneOf(Text, int, float), **POSITION, "size?": Number, "font?": Choice(*FONTS),
        "color?": str, "align?": Align, "valign?": VAlign, "leading?": float,
        "shrink?": bool, "min_size?": float, "padding?": float, "lang?": Choice("ja", "en"),
    },
    "shape": {
        "shape": Choice("rect", "rounded", "circle", "ellipse", "line"), **POSITION,
        "radius?": float, "fill?": str, "stroke?": str, "stroke_width?": float,
        "x2?": Number, "y2?": Number, "dash?": Each(float),
    },
    "image": {"image": str, **POSITION, "fit?": Choice("contain", "cover", "stretch")},
    "table": {
        "table": {"rows?": Each(Each(OneOf(Text, int, float)), min=1), "from_rules?": str},
        **POSITION, "size?": float, "header?": bool, "color?": str, "stroke?": str,
        "header_fill?": str, "shrink?": bool, "min_size?": float, "align?": Align, "lang?": Choice("ja", "en"),
    },
}
PATTERNS = ("none", "dots", "lines", "columns", "diagonal", "crosshatch", "grid", "waves", "checks")
SQUARE_CODE: Schema = {
    "fill?": str, "pattern?": Choice(*PATTERNS), "pattern_color?": str, "pattern_gap?": float,
    "label?": OneOf(Text, int, float), "label_color?": str, "label_size?": float, "label_fill?": str,
    "font?": Choice(*FONTS),
    "mark?": Choice("circle", "diamond", "cross"), "mark_color?": str,
    "glyph?": OneOf(Text, int, float), "glyph_color?": str, "glyph_size?": float,
}
ELEMENTS["squares"] = {
    "squares": str, **POSITION, "codes": {"*": SQUARE_CODE}, "walls?": str,
    "wall_kinds?": {"*": {"stroke?": str, "width?": float, "dash?": Each(float)}},
    "stroke?": str, "stroke_width?": float, "label_offset?": float,
}
ELEMENT_SCHEMA = Each(Any_)  # each item is checked by check_elements (one main key each)

DEFAULT_MIN_SIZE = 4.0


# --- context and colours ------------------------------------------------------------------


@dataclass
class ElementContext:
    """What elements need to draw one face: the job, how errors name it, `{{ field }}` values,
    the component's icons, the bleed (points) beyond the box, defaults."""

    job: KitJob
    label: str  # "game <g>, component <c>, card <n>"
    fields: Mapping[str, Any] = field(default_factory=dict)
    icons: Mapping[str, Any] = field(default_factory=dict)
    bleed: float = 0.0
    font_size: float = 9.0
    color: str = "#000000"
    cmyk: bool = False  # print-shop files: every colour in CMYK

    def colour(self, spec: str) -> colors.Color:
        return make_colour(spec, self.cmyk)

    def icon(self, canvas: Canvas, name: str, area: Rect) -> None:
        draw_icon(canvas, name, area, self)

    def value(self, name: str) -> object:
        """A `{{ name }}` value: a card field, else the job's values (render/text.py)."""
        if name in self.fields:
            return self.fields[name]
        return self.job.values.get(name, _MISSING)

    def known(self) -> list[str]:
        values = self.job.values
        return sorted({*self.fields, *(k for k, v in values.items() if isinstance(v, str | int | float))})

    def names(self) -> dict[str, object]:
        """The one context object a template renders with: the job's values, then the fields
        (a {ja, en} field in the job's language)."""
        fields = {k: self.job.text(v) if isinstance(v, dict) else v for k, v in self.fields.items()}
        return {**self.job.values, **fields}


_MISSING = object()


def fill_fields(text: str, ctx: ElementContext, parent: object = None, key: object = None) -> str:
    """`{{ field }}` replaced by card fields (Text fields in the job's language), then the
    job's values; a text with more than plain placeholders renders in the sandbox."""
    if "{" not in text:
        return text
    location = where(parent, key, value=True)
    refuse_old_placeholder(text, location)
    if is_plain(text):

        def sub(match: re.Match[str]) -> str:
            name = match.group(1)
            found = ctx.value(name)
            if found is _MISSING:
                raise _unknown(name, ctx, location)
            return ctx.job.text(found) if found is not None else ""

        return PLACEHOLDER.sub(sub, text)
    try:
        return ctx.job.templates.fill(text, ctx.names(), location)
    except TemplateMistake as err:
        if err.unknown is not None:
            raise _unknown(err.unknown, ctx, location) from None
        raise BuildError(f"{ctx.label}: {err.message}", **location) from None


def _unknown(name: str, ctx: ElementContext, location: Where) -> BuildError:
    names = ctx.known()
    close = difflib.get_close_matches(name, names, n=1, cutoff=0.6)
    hint = f" (did you mean '{close[0]}'?)" if close else ""
    return BuildError(f"{ctx.label}: unknown field '{{{{ {name} }}}}'{hint} (fields: {', '.join(names) or 'none'})",
                      **location)


def colour_of(element: Mapping[str, object], key: str, ctx: ElementContext, default: str | None = None) -> str:
    """The colour `element[key]` names (or `default`), `{{ field }}` filled in: a BuildError
    naming the card and the layout line when it is no colour (a CSV cell such as 'grean')."""
    value = element.get(key)
    spec = str(default) if value is None else fill_fields(str(value), ctx, element, key)
    try:
        make_colour(spec)
    except ValueError as error:
        raise BuildError(f"{ctx.label}: {key}: {error}", **where(element, key, value=True)) from None
    return spec


# --- checking -------------------------------------------------------------------------------


def main_key(item: object, kinds: Sequence[str], parent: object, key: object, path: str, noun: str, example: str,
             several: str = "several") -> str:
    """Which of `kinds` `item` is (its one main key, as elements and blocks have);
    ContentError with did-you-mean if none. `noun`: 'an element'; `example`: "'text:' or 'shape:'"."""
    if not isinstance(item, dict):
        raise ContentError(f"{path}: expected {noun} (a mapping such as {example})", **where(parent, key, value=True))
    found_kinds = [k for k in kinds if k in item]
    if len(found_kinds) != 1:
        first = next(iter(item), "")
        close = difflib.get_close_matches(str(first), list(kinds), n=1, cutoff=0.6)
        hint = f" (did you mean '{close[0]}'?)" if close and not found_kinds else ""
        found = f"{several}: " + ", ".join(found_kinds) if found_kinds else f"'{first}'{hint}"
        raise ContentError(f"{path}: {noun} is one of {', '.join(kinds)}; found {found}",
                           **where(item, first if first in item else None))
    return found_kinds[0]


def element_kind(element: object, parent: object, key: object, path: str) -> str:
    """Which element `element` is (its one main key); ContentError with did-you-mean if none."""
    return main_key(element, list(ELEMENTS), parent, key, path, "an element", "'text:' or 'shape:'")


def check_elements(elements: Sequence[object], path: str) -> None:
    """Schema check of a layout (ContentError at the first bad element)."""
    for index, element in enumerate(elements):
        here = f"{path}[{index}]"
        kind = element_kind(element, elements, index, here)
        check(element, ELEMENTS[kind], elements, index, here)
        assert isinstance(element, Mapping)  # check() refuses anything else
        for key in ("color", "fill", "stroke", "header_fill"):
            value = element.get(key)
            if isinstance(value, str) and "{" not in value:
                try:
                    make_colour(value)
                except ValueError as error:
                    raise ContentError(f"{here}.{key}: {error}", **where(element, key, value=True)) from None
        if kind == "table" and not {"rows", "from_rules"} & set(element["table"]):
            raise ContentError(f"{here}: a table needs 'rows' or 'from_rules'", **where(element, "table"))
        _check_numbers(element, here)


def _check_numbers(element: Mapping[str, Any], here: str) -> None:
    """Lengths, sizes and dashes within their ranges (a `{{ field }}` is checked when drawn)."""
    for key in RANGES:
        value = element.get(key)
        if isinstance(value, str) and "{" not in value:
            try:
                value = float(value)
            except ValueError:
                raise ContentError(f"{here}.{key}: '{value}' is not a number",
                                   **where(element, key, value=True)) from None
        if isinstance(value, int | float) and not isinstance(value, bool):
            problem = range_problem(element, key, float(value))
            if problem:
                raise ContentError(f"{here}.{key}: {problem}", **where(element, key, value=True))
    dash = element.get("dash")
    if isinstance(dash, list) and dash and (not all(0 <= d <= MAX_LENGTH_MM for d in dash) or sum(dash) <= 0):
        raise ContentError(f"{here}.dash: dashes are from 0 to {MAX_LENGTH_MM:g} mm, not all 0",
                           **where(element, "dash", value=True))


# --- geometry ---------------------------------------------------------------------------------


# The range of each number of an element: sizes and box sides more than 0 (a line's box may
# be flat), positions either way, everything finite.
RANGES: dict[str, Range] = {
    **dict.fromkeys(("x", "y", "x2", "y2"), OFFSET),
    **dict.fromkeys(("w", "h"), SIZE),
    **dict.fromkeys(("padding", "radius", "stroke_width", "label_offset"), LENGTH),
    **dict.fromkeys(("size", "min_size"), FONT),
    "leading": LINE_HEIGHT,
}


def range_problem(element: Mapping[str, object], key: str, value: float) -> str | None:
    """What is wrong with `value` for `key` (RANGES), or None."""
    flat_line = key in ("w", "h") and element.get("shape") == "line"
    return (LENGTH if flat_line else RANGES[key]).problem(value)


def _number(element: Mapping[str, Any], key: str, ctx: ElementContext, default: float) -> float:
    """A number of the element (or `default`), a `{{ field }}` filled in; checked against RANGES."""
    value = element.get(key)
    if value is None:
        number = default
    elif isinstance(value, int | float):
        number = float(value)
    else:
        text = fill_fields(str(value), ctx, element, key)
        try:
            number = float(text)
        except ValueError:
            raise BuildError(f"{ctx.label}: {key} '{text}' is not a number",
                             **where(element, key, value=True)) from None
    problem = range_problem(element, key, number) if key in RANGES else None
    if problem:
        raise BuildError(f"{ctx.label}: {key} {problem}", **where(element, key, value=True))
    return number


# element_rect of elements whose place names no field: (the element, kept alive so that its
# id is not reused, and x, y, w, h in mm) by (id, box size, bleed)
_PLACES: dict[tuple[int, float, float, float], tuple[Mapping[str, object], tuple[float, float, float, float]]] = {}
_PLACE_KEYS = ("x", "y", "w", "h")


def element_rect(element: Mapping[str, object], box: Rect, ctx: ElementContext) -> Rect:
    """Where an element sits: x, y, w, h in mm from the box's top-left; default the box
    (or the box plus its bleed with `bleed: true`). Worked out once per element and box size
    when its place names no card field (a deck draws each layout hundreds of times)."""
    key = (id(element), box.w, box.h, ctx.bleed)
    known = _PLACES.get(key)
    if known is not None and known[0] is element:
        x, y, w, h = known[1]
        return Rect(box.x + x * mm, box.top - (y + h) * mm, w * mm, h * mm)
    rect = _element_rect(element, box, ctx)
    if not any(isinstance(element.get(k), str) for k in _PLACE_KEYS) and len(_PLACES) < 100_000:
        _PLACES[key] = (element, ((rect.x - box.x) / mm, (box.top - rect.top) / mm, rect.w / mm, rect.h / mm))
    return rect


def _element_rect(element: Mapping[str, object], box: Rect, ctx: ElementContext) -> Rect:
    outer = box.outset(ctx.bleed) if element.get("bleed") else box
    x = _number(element, "x", ctx, (outer.x - box.x) / mm)
    y = _number(element, "y", ctx, (box.top - outer.top) / mm)
    if element.get("shape") != "line":  # a line's box may be flat: its end is x2, y2
        ends = (("w", "x", x, (outer.right - box.x) / mm), ("h", "y", y, (box.top - outer.y) / mm))
        for side, key, start, end in ends:
            if side not in element and start >= end:  # the default side would be 0 or less
                raise BuildError(f"{ctx.label}: {key} {start:g} mm starts past the end of its {end:g} mm box",
                                 **where(element, key, value=True))
    w = _number(element, "w", ctx, outer.w / mm - x + (outer.x - box.x) / mm)
    h = _number(element, "h", ctx, outer.h / mm - y + (box.top - outer.top) / mm)
    return Rect(box.x + x * mm, box.top - (y + h) * mm, w * mm, h * mm)


# --- rich text ------------------------------------------------------------------------------


def overflow_error(ctx: ElementContext, element: Mapping[str, object], text: str, area: Rect, key: str) -> BuildError:
    snippet = text.replace("\n", " ")
    snippet = snippet if len(snippet) <= 40 else snippet[:39] + "…"
    if element.get("shrink"):  # it shrank to min_size and still overflows
        floor = element.get("min_size", DEFAULT_MIN_SIZE)
        floor = f"{floor:g}" if isinstance(floor, int | float) else str(floor)
        fix = f"it does not fit even shrunk to {floor} pt: shorten it, enlarge the box or lower 'min_size'"
    else:
        fix = "shorten it, enlarge the box, lower the size or add 'shrink: true'"
    return BuildError(
        f"{ctx.label}: text overflows its {area.w / mm:.1f}×{area.h / mm:.1f} mm box: '{snippet}' ({fix})",
        **where(element, key, value=True),
    )


# --- icons and images -------------------------------------------------------------------------


class ImageNameProblem(BuildError):
    """What is wrong with an image's name (no place: the caller names where it is written)."""


def game_image(content: GameContent, name: str) -> Image:
    """The image file `name` of the game folder, checked (images.py): ImageNameProblem for
    the name (outside the folder, missing, a folder, not a picture), BuildError naming the
    file for what is inside it. Components and rulebooks both read pictures through it."""
    said = name.replace("\0", "\\0")
    said = said if len(said) <= 80 else said[:79] + "…"
    if "\0" in name or not name.strip():
        raise ImageNameProblem(f"image '{said}' is not a file name")
    try:
        path = content.path(name)
        exists, folder = path.exists(), path.is_dir()
    except PathRefused as refused:
        raise ImageNameProblem(f"image '{said}' {refused.problem}") from None
    except (OSError, ValueError):
        raise ImageNameProblem(f"image '{said}' is not a usable file name") from None
    if not exists:
        raise ImageNameProblem(f"image not found: {said}")
    if folder:
        raise ImageNameProblem(f"image '{said}' is a folder, not a file")
    if path.suffix.lower() not in IMAGE_SUFFIXES:
        raise ImageNameProblem(f"image '{said}' must be a .png, .jpg or .svg file")
    return check_image(path, str(content.folder / name), content.folder)


def image_file(ctx: ElementContext, name: str, parent: object, key: object) -> Image:
    """The image file `name` of the game folder, checked (game_image). Problems with the name
    point at `parent[key]`; problems inside the file name the file."""
    try:
        return game_image(ctx.job.content, name)
    except ImageNameProblem as problem:
        raise BuildError(f"{ctx.label}: {problem.message}", **where(parent, key, value=True)) from None


def draw_icon(canvas: Canvas, name: str, area: Rect, ctx: ElementContext) -> None:
    """An icon of the component's `icons:` map: an image file, or a shape mapping."""
    spec = ctx.icons[name]
    if isinstance(spec, str):
        draw_image_file(canvas, image_file(ctx, spec, ctx.icons, name), area, "contain", ctx.cmyk)
    else:
        element = {"shape": spec.get("shape", "circle"), "fill": spec.get("fill", ctx.color),
                   "stroke": spec.get("stroke"), "radius": spec.get("radius", 0.6)}
        draw_shape(canvas, element, area, ctx)


# --- shapes -------------------------------------------------------------------------------


def draw_shape(canvas: Canvas, element: Mapping[str, Any], area: Rect, ctx: ElementContext) -> None:
    """A shape; it sets the colours and width it uses (no state is saved: faster, and every
    element sets what it needs)."""
    kind = element["shape"]
    fill = element.get("fill")
    stroke = element.get("stroke")
    if kind != "line" and fill is None and stroke is None:
        fill = ctx.color
    if fill:
        canvas.setFillColor(ctx.colour(colour_of(element, "fill", ctx, fill)))
    if stroke or kind == "line":
        canvas.setStrokeColor(ctx.colour(colour_of(element, "stroke", ctx, ctx.color)))
        canvas.setLineWidth(_number(element, "stroke_width", ctx, 0.3) * mm)
    dash = element.get("dash")
    if dash:
        canvas.setDash([float(d) * mm for d in dash])
    paint = {"fill": 1 if fill else 0, "stroke": 1 if stroke or kind == "line" else 0}
    if kind == "rect":
        canvas.rect(area.x, area.y, area.w, area.h, **paint)
    elif kind == "rounded":
        radius = _number(element, "radius", ctx, 3) * mm
        canvas.roundRect(area.x, area.y, area.w, area.h, min(radius, area.w / 2, area.h / 2), **paint)
    elif kind == "circle":
        canvas.circle(area.x + area.w / 2, area.y + area.h / 2, min(area.w, area.h) / 2, **paint)
    elif kind == "ellipse":
        canvas.ellipse(area.x, area.y, area.right, area.top, **paint)
    else:  # line from (x, y) to (x2, y2); default the box's diagonal
        x2 = area.right if "x2" not in element else area.x + (_number(element, "x2", ctx, 0) - _number(
            element, "x", ctx, 0)) * mm
        y2 = area.y if "y2" not in element else area.top - (_number(element, "y2", ctx, 0) - _number(
            element, "y", ctx, 0)) * mm
        canvas.line(area.x, area.top, x2, y2)
    if dash:
        canvas.setDash([])


# --- tables -------------------------------------------------------------------------------


def table_model(element: Mapping[str, Any], ctx: ElementContext) -> TableModel:
    """The table of a `table:` element (or a sheet's `from_rules` table): the one the rules
    publish, or its `rows` with fields filled in; header first."""
    spec = element["table"]
    if "from_rules" in spec:
        name = str(spec["from_rules"])
        if not ctx.job.rules:
            raise BuildError(f"{ctx.label}: 'from_rules: {name}' needs a game with rules",
                             **where(spec, "from_rules", value=True))
        try:
            return rules_table(ctx.job.rules[0], name, ctx.job.text_lang)
        except UnknownTable:
            raise BuildError(f"{ctx.label}: the rules have no table '{name}'",
                             **where(spec, "from_rules", value=True)) from None
    return TableModel.of([[fill_fields(ctx.job.text(cell), ctx, row, i) for i, cell in enumerate(row)]
                          for row in spec["rows"]])


ROW = 1.6  # a table element's row height, times its text size


def draw_table(canvas: Canvas | None, element: Mapping[str, object], area: Rect, ctx: ElementContext) -> None:
    """A grid of one-line cells, drawn as every kit table is (ruled.draw_cells): columns as
    wide as their widest cell (spread over the width), rows of equal height, an optional
    shaded header row; the text shrinks (`shrink`) until the grid fits the box."""
    model = table_model(element, ctx).aligned(str(element.get("align", "center")))
    rows, cols = model.grid(), model.columns
    size = _number(element, "size", ctx, ctx.font_size)
    min_size = _number(element, "min_size", ctx, DEFAULT_MIN_SIZE) if element.get("shrink") else math.inf

    def attempt(at: float) -> tuple[float, list[float]] | None:
        natural = [max(text_width(r[c], SANS, at) for r in rows) + 2 * PAD * mm for c in range(cols)]
        fits = sum(natural) <= area.w + 1e-6 and at * ROW * len(rows) <= area.h + 1e-6
        return (at, natural) if fits else None

    fitted = shrink_to_fit(attempt, size, min_size, rounded=False, slack=0.0)
    if fitted is None:
        raise overflow_error(ctx, element, " | ".join(rows[0]), area, "table")
    size, natural = fitted
    ink = Ink(colour_of(element, "stroke", ctx, "#000000"), colour_of(element, "color", ctx, ctx.color))
    header_fill = colour_of(element, "header_fill", ctx, HEADER) if element.get("header", True) else None
    if canvas is None:
        return
    spare = (area.w - sum(natural)) / cols
    xs = [0.0]
    for n in natural:
        xs.append(xs[-1] + (n + spare) * PT)
    row_h = size * ROW * PT
    placed = [(Cell(r, c, text, shade=header_fill if r == 0 else None, align=model.align[c], size=size),
               Box(xs[c], r * row_h, xs[c + 1] - xs[c], row_h))
              for r, row in enumerate(rows) for c, text in enumerate(row)]
    draw_cells(canvas, Frame(area.x, area.top), placed, Box(0, 0, xs[-1], row_h * len(rows)), ctx, ink)



# --- the entry point ------------------------------------------------------------------------


def _text_layout(element: Mapping[str, object], area: Rect, ctx: ElementContext) -> tuple[TextLayout, Rect, str]:
    """A text element's laid-out lines, the area they go in and the text; BuildError on overflow."""
    raw = element["text"]
    text = fill_fields(ctx.job.text(raw), ctx, element, "text")
    pad = _number(element, "padding", ctx, 0) * mm
    inner = area.inset(pad)
    font = FONTS[str(element.get("font", "sans"))]
    size = _number(element, "size", ctx, ctx.font_size)
    leading = _number(element, "leading", ctx, LEADING)
    layout = cached_layout(text, tuple(sorted(ctx.icons)), font, size, leading, inner.w, inner.h,
                     bool(element.get("shrink")), _number(element, "min_size", ctx, DEFAULT_MIN_SIZE))
    if layout is None:
        raise overflow_error(ctx, element, text, inner, "text")
    return layout, inner, text


def _text_element(canvas: Canvas | None, element: Mapping[str, object], area: Rect, ctx: ElementContext) -> None:
    layout, inner, _text = _text_layout(element, area, ctx)
    colour = colour_of(element, "color", ctx, ctx.color)
    if canvas is not None:
        draw_layout(canvas, layout, inner, str(element.get("align", "left")), str(element.get("valign", "top")),
                    ctx, colour)


def _image_element(canvas: Canvas | None, element: Mapping[str, object], area: Rect, ctx: ElementContext) -> None:
    name = fill_fields(str(element["image"]), ctx, element, "image")
    image = image_file(ctx, name, element, "image")
    if canvas is not None:
        draw_image_file(canvas, image, area, str(element.get("fit", "contain")), ctx.cmyk)


def _shape_element(canvas: Canvas | None, element: Mapping[str, object], area: Rect, ctx: ElementContext) -> None:
    if canvas is not None:
        draw_shape(canvas, element, area, ctx)
        return
    for key in ("fill", "stroke"):  # a check: the colours this card's fields give
        if key in element:
            colour_of(element, key, ctx)


# --- squares --------------------------------------------------------------------------------


def square_rows(element: Mapping[str, Any], ctx: ElementContext) -> list[str]:
    """The rows of a `squares` element: its field holds a list of strings, or one string
    with rows split by '/' (a CSV cell); each character is one square's code."""
    name = str(element["squares"])
    value = ctx.value(name)
    if value is _MISSING:
        raise _unknown(name, ctx, where(element, "squares", value=True))
    rows = [str(r) for r in value] if isinstance(value, list) else str(value or "").split("/")
    rows = [r.strip() for r in rows if r.strip()]
    width = max((len(r) for r in rows), default=0)
    if not rows or any(len(r) != width for r in rows) or width * len(rows) > 10_000:
        raise BuildError(f"{ctx.label}: squares: field '{name}' must hold rows of equal length (at most 10,000 "
                         f"squares); found {rows!r}", **where(element, "squares", value=True))
    codes = element["codes"]
    unknown = sorted({c for r in rows for c in r} - set(codes))
    if unknown:
        raise BuildError(f"{ctx.label}: squares: code '{unknown[0]}' has no entry in 'codes' "
                         f"(codes: {', '.join(sorted(codes))})", **where(element, "codes"))
    return rows


def square_grid(area: Rect, rows: list[str]) -> tuple[float, float, float]:
    """Side of a square (points) and the grid's top-left corner: squares as large as fit, centred."""
    side = min(area.w / len(rows[0]), area.h / len(rows))
    left = area.x + (area.w - side * len(rows[0])) / 2
    top = area.top - (area.h - side * len(rows)) / 2
    return side, left, top


def _pattern(canvas: Canvas, kind: str, x: float, y: float, side: float, gap: float) -> None:
    """Lines, dots or checks inside the square (x, y) of `side` points, computed, not clipped."""
    steps = max(1, int(side // gap))
    step = side / steps
    if kind in ("lines", "grid"):
        for i in range(1, steps):
            canvas.line(x, y + i * step, x + side, y + i * step)
    if kind in ("columns", "grid"):
        for i in range(1, steps):
            canvas.line(x + i * step, y, x + i * step, y + side)
    if kind in ("diagonal", "crosshatch"):
        for i in range(1, 2 * steps):
            d = i * step  # the line x' + y' = d, inside the square
            canvas.line(x + max(0.0, d - side), y + min(side, d), x + min(side, d), y + max(0.0, d - side))
    if kind == "crosshatch":
        for i in range(1, 2 * steps):
            d = i * step - side  # the line y' - x' = d
            canvas.line(x + max(0.0, -d), y + max(0.0, d), x + min(side, side - d), y + min(side, side + d))
    if kind == "dots":
        for i in range(steps):
            for j in range(steps):
                if (i + j) % 2 == 0:
                    canvas.circle(x + (i + 0.5) * step, y + (j + 0.5) * step, step * 0.16, stroke=0, fill=1)
    if kind == "checks":
        for i in range(steps):
            for j in range(steps):
                if (i + j) % 2 == 0:
                    canvas.rect(x + i * step, y + j * step, step, step, stroke=0, fill=1)
    if kind == "waves":
        for i in range(1, steps):
            base = y + i * step
            points = [(x + k * step / 2, base + (step * 0.22 if k % 2 else -step * 0.22)) for k in range(2 * steps + 1)]
            for (x1, y1), (x2, y2) in zip(points, points[1:], strict=False):
                canvas.line(x1, y1, x2, y2)


def _mark(canvas: Canvas, kind: str, cx: float, cy: float, r: float) -> None:
    if kind == "circle":
        canvas.circle(cx, cy, r, stroke=1, fill=1)
    elif kind == "diamond":
        path = canvas.beginPath()
        path.moveTo(cx, cy + r)
        path.lineTo(cx + r * 0.7, cy)
        path.lineTo(cx, cy - r)
        path.lineTo(cx - r * 0.7, cy)
        path.close()
        canvas.drawPath(path, stroke=1, fill=1)
    else:  # cross
        canvas.line(cx - r, cy - r, cx + r, cy + r)
        canvas.line(cx - r, cy + r, cx + r, cy - r)


def square_text_place(element: Mapping[str, Any], spec: Mapping[str, Any], key: str, y: float,
                      side: float) -> tuple[float, float]:
    """(size, baseline) in points of a square's `label` or `glyph`, the square's bottom at
    `y`: a glyph centred a little above the middle, a label `label_offset` mm above the
    bottom edge (10 % of the side by default)."""
    if key == "glyph":
        size = float(spec.get("glyph_size", 14))
        return size, y + side * 0.58 - size * 0.35
    offset = float(element["label_offset"]) * mm if "label_offset" in element else side * 0.1
    return float(spec.get("label_size", 7)), y + offset


def square_texts(element: Mapping[str, Any], ctx: ElementContext, rows: list[str], key: str) -> dict[str, str]:
    """Each code's `label` or `glyph` text (fields filled), for the codes the rows use."""
    return {code: fill_fields(ctx.job.text(spec[key]) if isinstance(spec.get(key), dict)
                              else str(spec[key]), ctx, spec, key)
            for code, spec in element["codes"].items() if key in spec and any(code in row for row in rows)}


def _square_ink(element: Mapping[str, Any], area: Rect, ctx: ElementContext) -> Iterator[tuple[str, Rect]]:
    """Each label and glyph of a `squares` element and where its letters go (centred on
    the square, from the font's ascent to its descent), in points."""
    rows = square_rows(element, ctx)
    side, left, top = square_grid(area, rows)
    for key in ("label", "glyph"):
        texts = square_texts(element, ctx, rows, key)
        for r, row in enumerate(rows):
            for c, code in enumerate(row):
                if not texts.get(code):
                    continue
                spec = element["codes"][code]
                font = FONTS[str(spec.get("font", "sans"))]
                size, baseline = square_text_place(element, spec, key, top - (r + 1) * side, side)
                ascent, descent = (v * size / 1000 for v in ascent_descent(font))
                width = stringWidth(texts[code], font, size)
                centre = left + (c + 0.5) * side
                yield f"the {key} {quoted(texts[code])}", Rect(centre - width / 2, baseline + descent, width,
                                                               ascent - descent)


def _squares_element(canvas: Canvas | None, element: Mapping[str, Any], area: Rect, ctx: ElementContext) -> None:
    """A grid of squares from a card field: each code's fill, pattern, mark and label, grid
    lines, and walls on square edges from another field."""
    rows = square_rows(element, ctx)
    codes = element["codes"]
    labels = square_texts(element, ctx, rows, "label")
    glyphs = square_texts(element, ctx, rows, "glyph")
    walls = _walls(element, ctx, rows)
    fills = {code: colour_of(spec, "fill", ctx) for code, spec in codes.items()
             if spec.get("fill") and any(code in row for row in rows)}
    pattern_colours = {code: colour_of(spec, "pattern_color", ctx, "#444444") for code, spec in codes.items()
                       if any(code in row for row in rows)}
    stroke = colour_of(element, "stroke", ctx, "#555555")
    if canvas is None:
        return
    side, left, top = square_grid(area, rows)
    for r, row in enumerate(rows):
        for c, code in enumerate(row):
            spec = codes[code]
            x, y = left + c * side, top - (r + 1) * side
            if code in fills:
                canvas.setFillColor(ctx.colour(fills[code]))
                canvas.rect(x, y, side, side, stroke=0, fill=1)
            kind = str(spec.get("pattern", "none"))
            if kind != "none":
                colour = ctx.colour(pattern_colours[code])
                canvas.setStrokeColor(colour)
                canvas.setFillColor(colour)
                canvas.setLineWidth(0.35 * mm)
                _pattern(canvas, kind, x, y, side, float(spec.get("pattern_gap", 2.5)) * mm)
            if spec.get("mark"):
                canvas.setFillColor(ctx.colour(str(spec.get("mark_color", "#ffffff"))))
                canvas.setStrokeColor(ctx.colour("#000000"))
                canvas.setLineWidth(0.3 * mm)
                _mark(canvas, str(spec["mark"]), x + side / 2, y + side * 0.58, side * 0.22)
            if glyphs.get(code):
                size, baseline = square_text_place(element, spec, "glyph", y, side)
                canvas.setFillColor(ctx.colour(str(spec.get("glyph_color", "#000000"))))
                canvas.setFont(FONTS[str(spec.get("font", "sans"))], size)
                canvas.drawCentredString(x + side / 2, baseline, glyphs[code])
            if labels.get(code):
                size, baseline = square_text_place(element, spec, "label", y, side)
                font = FONTS[str(spec.get("font", "sans"))]
                if spec.get("label_fill"):  # a plate behind the label, readable over a pattern
                    width = stringWidth(labels[code], font, size) + 1.2 * mm
                    canvas.setFillColor(ctx.colour(str(spec["label_fill"])))
                    canvas.rect(x + (side - width) / 2, baseline - size * 0.3, width, size * 1.25,
                                stroke=0, fill=1)
                canvas.setFillColor(ctx.colour(str(spec.get("label_color", "#000000"))))
                canvas.setFont(font, size)
                canvas.drawCentredString(x + side / 2, baseline, labels[code])
    canvas.setStrokeColor(ctx.colour(stroke))
    canvas.setLineWidth(float(element.get("stroke_width", 0.25)) * mm)
    for r in range(len(rows) + 1):
        canvas.line(left, top - r * side, left + side * len(rows[0]), top - r * side)
    for c in range(len(rows[0]) + 1):
        canvas.line(left + c * side, top, left + c * side, top - side * len(rows))
    styles = element.get("wall_kinds") or {}
    for (r1, c1), (r2, c2), kind in walls:
        style = styles.get(kind) or {}
        canvas.setStrokeColor(ctx.colour(str(style.get("stroke", "#000000"))))
        canvas.setLineWidth(float(style.get("width", 1.2)) * mm)
        if style.get("dash"):
            canvas.setDash([float(d) * mm for d in style["dash"]])
        if r1 == r2:  # between columns c1 and c2: a vertical edge
            xe = left + max(c1, c2) * side
            canvas.line(xe, top - r1 * side, xe, top - (r1 + 1) * side)
        else:
            ye = top - max(r1, r2) * side
            canvas.line(left + c1 * side, ye, left + (c1 + 1) * side, ye)
        canvas.setDash([])


def _walls(element: Mapping[str, Any], ctx: ElementContext, rows: list[str]) -> list[tuple[tuple[int, int],
                                                                                        tuple[int, int], str]]:
    """Walls from the field named by `walls`: `{row: R, right_of: C, kind: k}` (the edge
    between columns C and C+1 of row R) or `{column: C, below: R, kind: k}`; 1-based."""
    if "walls" not in element:
        return []
    value = ctx.value(str(element["walls"]))
    if value is _MISSING or value in (None, ""):
        return []
    out = []
    kinds = element.get("wall_kinds") or {}
    for wall in value if isinstance(value, list) else []:
        try:
            if "right_of" in wall:
                a = (int(wall["row"]) - 1, int(wall["right_of"]) - 1)
                b = (a[0], a[1] + 1)
            else:
                a = (int(wall["below"]) - 1, int(wall["column"]) - 1)
                b = (a[0] + 1, a[1])
            kind = str(wall.get("kind", "wall"))
        except (KeyError, TypeError, ValueError):
            raise BuildError(f"{ctx.label}: squares: a wall is {{row, right_of}} or {{column, below}}, found "
                             f"{dict(wall)!r}", **where(element, "walls", value=True)) from None
        if not all(0 <= r < len(rows) and 0 <= c < len(rows[0]) for r, c in (a, b)):
            raise BuildError(f"{ctx.label}: squares: the wall {dict(wall)!r} is not between two squares",
                             **where(element, "walls", value=True))
        if kinds and kind not in kinds:
            raise BuildError(f"{ctx.label}: squares: wall kind '{kind}' is not in wall_kinds "
                             f"({', '.join(kinds)})", **where(element, "wall_kinds"))
        out.append((a, b, kind))
    return out


DRAW: dict[str, Callable[[Canvas | None, Mapping[str, Any], Rect, ElementContext], None]] = {
    "squares": _squares_element,
    "text": _text_element,
    "shape": _shape_element,
    "image": _image_element,
    "table": draw_table,
}


def safe_breaches(elements: Sequence[object], box: Rect, ctx: ElementContext, safe: float) -> list[str]:
    """Text (and tables) of a face nearer the trim `box` than `safe` points, unless the
    element says `safe: off`: one 'file:line:col: ...' each, naming how near it comes. A
    text is measured where its letters go (its lines as aligned), a table by its box."""
    setup_fonts()  # the letters are measured in the bundled faces
    inside = box.inset(safe)
    found: list[str] = []
    for kind, element in iter_elements(elements):
        if kind not in ("text", "table", "squares") or element.get("safe", True) is False:
            continue
        here = replace(ctx, job=ctx.job.in_lang(element["lang"])) if "lang" in element else ctx
        area = element_rect(element, box, here)
        inks: list[tuple[str, Rect]] = []
        if kind == "text":
            layout, inner, text = _text_layout(element, area, here)
            if not text.strip():
                continue
            inks.append((quoted(text.replace("\n", " ").replace("**", "")),
                         ink_rect(layout, inner, str(element.get("align", "left")), str(element.get("valign", "top")))))
        elif kind == "squares":  # each square's label and glyph
            inks += _square_ink(element, area, here)
        else:
            inks.append(("a table", area))
        outside = [(what, ink if not element.get("upside_down")  # turned half round about its box's centre
                    else Rect(area.x + area.right - ink.right, area.y + area.top - ink.top, ink.w, ink.h))
                   for what, ink in inks]
        outside = [(what, ink) for what, ink in outside if not inside.contains(ink)]
        if not outside:
            continue
        near, what = min((min(ink.x - box.x, box.right - ink.right, ink.y - box.y, box.top - ink.top) / mm, what)
                         for what, ink in outside)
        more = f" (and {len(outside) - 1} more of its labels)" if len(outside) > 1 else ""
        found.append(str(BuildError(
            f"{ctx.label}: {what} comes {near:.1f} mm from the trim, inside the {safe / mm:g} mm safe zone"
            f"{more} (move it inward, or give the element 'safe: off' if it may be cut)", **where(element, kind))))
    return found


def quoted(text: str) -> str:
    """A text as a problem quotes it: at most 30 characters."""
    return f"'{text}'" if len(text) <= 30 else f"'{text[:29]}…'"


def iter_elements(elements: Sequence[Any]) -> Iterator[tuple[str, Mapping[str, Any]]]:
    for element in elements:
        yield next(k for k in ELEMENTS if k in element), element


BACKGROUND = 0.85  # a filled shape covering this much of its face is its background (ink saver)
LIGHT = 0.6  # relative luminance above which ink-saver text or lines left on white paper are darkened
SAVER_TEXT = "#222222"
SAVER_LINE = "#888888"


def saves_ink(ctx: ElementContext) -> bool:
    """True for a home file built with --ink-saver (print-shop files keep every fill)."""
    return bool(getattr(ctx.job.options, "ink_saver", False)) and not ctx.cmyk


def _luminance(spec: str) -> float:
    colour = make_colour(spec)
    return 0.2126 * colour.red + 0.7152 * colour.green + 0.0722 * colour.blue


def ink_saver_element(element: Mapping[str, object], kind: str, area: Rect, box: Rect, ctx: ElementContext,
                      kept: list[Rect]) -> Mapping[str, Any] | None:
    """The element as --ink-saver draws it: a full-bleed fill (`bleed: true`) or a background
    (a fill over BACKGROUND of the face) loses its fill (None when nothing is left); light
    text or lines no longer on a kept fill (`kept`, the fills drawn so far) turn dark, so
    they stay readable on white paper. Art (pictures, squares, smaller shapes) is kept."""
    if kind == "shape" and element.get("fill") and element.get("shape") != "line":
        covers = area.w * area.h >= BACKGROUND * box.w * box.h
        if element.get("bleed") or covers:
            if not element.get("stroke"):
                return None
            element = {k: v for k, v in element.items() if k != "fill"}
        else:
            kept.append(area)
            return element
    key = {"text": "color", "shape": "stroke", "table": "color"}.get(kind)
    if key is None:
        return element
    spec = fill_fields(str(element.get(key, ctx.color)), ctx, element, key)
    centre = (area.x + area.w / 2, area.y + area.h / 2)
    on_fill = any(r.x <= centre[0] <= r.right and r.y <= centre[1] <= r.top for r in kept)
    if on_fill or _luminance(spec) <= LIGHT:
        return element
    return {**element, key: SAVER_TEXT if kind != "shape" else SAVER_LINE}


def draw_elements(canvas: Canvas | None, elements: Sequence[object], box: Rect, ctx: ElementContext) -> None:
    """Draw a layout inside `box` (points). With canvas None nothing is drawn but every
    check runs (fields, images, overflow): a build-time check of a face.
    Raises BuildError naming game, component and card (ctx.label) on overflow."""
    setup_fonts()
    if canvas is not None:
        canvas.saveState()  # elements set colours and widths freely: the caller's state survives
    saver = canvas is not None and saves_ink(ctx)
    kept: list[Rect] = []  # ink saver: the fills drawn so far
    for kind, element in iter_elements(elements):
        area = element_rect(element, box, ctx)
        if saver:
            changed = ink_saver_element(element, kind, area, box, ctx, kept)
            if changed is None:
                continue
            element = changed
        here = replace(ctx, job=ctx.job.in_lang(element["lang"])) if "lang" in element else ctx
        if canvas is not None and element.get("upside_down"):  # turned half round about its box's centre
            canvas.saveState()
            canvas.translate(area.x + area.w / 2, area.y + area.h / 2)
            canvas.rotate(180)
            canvas.translate(-(area.x + area.w / 2), -(area.y + area.h / 2))
            DRAW[kind](canvas, element, area, here)
            canvas.restoreState()
            continue
        DRAW[kind](canvas, element, area, here)
    if canvas is not None:
        canvas.restoreState()
