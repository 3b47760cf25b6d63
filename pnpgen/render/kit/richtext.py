"""Rich text for the print kit: the markup tokenizer, the line breaker (Japanese kinsoku
and English word breaks), fitting and shrinking text into a box, and painting it.

Markup: `**bold**`, `[#c03020]coloured[/]` (or a colour name), `:icon:` for an icon and
line breaks. Where lines may break and how they are filled is pnpgen.render.linebreak, the
rulebooks' line breaker too.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property, lru_cache
from typing import Any, NamedTuple, Protocol, TypeVar

from reportlab.lib import colors
from reportlab.pdfbase.pdfmetrics import getAscentDescent, stringWidth
from reportlab.pdfgen.canvas import Canvas

from pnpgen.limits import MAX_FONT_PT, MAX_SHRINK_STEPS
from pnpgen.render.kit.page import Rect
from pnpgen.render.linebreak import Piece, is_space, line_ranges, may_break, segments
from pnpgen.render.markup import Style, scan

LEADING = 1.25  # line height, times the font size


class Paint(Protocol):
    """What painting text needs from its caller: colours (CMYK for print-shop files) and icons."""

    def colour(self, spec: str) -> colors.Color: ...

    def icon(self, canvas: Canvas, name: str, area: Rect) -> None: ...


class Token(NamedTuple):
    kind: str  # word | space | icon | break
    text: str
    style: Style


TOKENS_KEPT_CHARS = 4000  # texts up to this long keep their tokens (a card's text is drawn, fitted, previewed...)


def tokenize(text: str, icons: Mapping[str, object]) -> list[Token]:
    """Rich text as tokens: words (a Latin word, or one Japanese character with the
    punctuation that may not be separated from it), spaces, icons and line breaks. Only
    the names of `icons` matter; a short text's tokens are made once (_kept_tokens)."""
    names = frozenset(icons)
    if len(text) <= TOKENS_KEPT_CHARS:
        return list(_kept_tokens(text, names))
    return _tokens(text, names)


@lru_cache(maxsize=8192)
def _kept_tokens(text: str, icons: frozenset[str]) -> tuple[Token, ...]:
    return tuple(_tokens(text, icons))


def _tokens(text: str, icons: frozenset[str]) -> list[Token]:
    tokens: list[Token] = []
    for run in scan(text, dict.fromkeys(icons)):
        if run.kind == "text":
            _plain(run.text, run.style, tokens)
        else:
            tokens.append(Token(run.kind, run.text, run.style))
    return _glue(tokens)


def _plain(text: str, style: Style, tokens: list[Token]) -> None:
    """Plain text as tokens where a line may break (linebreak.segments): spaces, Latin words
    whole, Japanese characters with the punctuation glued to them."""
    for piece in segments(text):
        if is_space(piece[0]):
            tokens.append(Token("space", " ", style))
        else:
            tokens.append(Token("word", piece, style))


def _glue(tokens: list[Token]) -> list[Token]:
    """Join neighbouring words of one style where no line may break between them (a word
    split by markup; kinsoku punctuation), so no line starts or ends with it."""
    out: list[Token] = []
    for token in tokens:
        if (token.kind == "word" and out and out[-1].kind == "word" and out[-1].style == token.style
                and not may_break(out[-1].text[-1], token.text[0])):
            out[-1] = Token("word", out[-1].text + token.text, token.style)
        else:
            out.append(token)
    return out


@dataclass
class Line:
    items: list[tuple[Token, float]]  # token and its width
    width: float


@lru_cache(maxsize=65536)
def text_width(text: str, font: str, size: float) -> float:
    return stringWidth(text, font, size)


def break_lines(tokens: Sequence[Token], font: str, size: float, width: float) -> tuple[list[Line], bool]:
    """Greedy line breaking (linebreak.line_ranges, the rulebooks' too); the flag is False when a
    token is wider than the line."""
    widths = [size if t.kind == "icon" else 0.0 if t.kind == "break" else text_width(t.text, font, size)
              for t in tokens]
    pieces = [Piece(w, "word" if t.kind in ("word", "icon") else t.kind) for t, w in zip(tokens, widths, strict=True)]
    lines = []
    for start, end in line_ranges(pieces, lambda _n: width):
        items = [(tokens[i], widths[i]) for i in range(start, end) if tokens[i].kind != "break"]
        lines.append(Line(items, sum(w for _t, w in items)))
    if not lines or (tokens and tokens[-1].kind == "break"):
        lines.append(Line([], 0.0))  # an empty text, or one ending in a line break: an empty line
    fits = all(w <= width + 1e-6 for p, w in zip(pieces, widths, strict=True) if p.kind == "word")
    return lines, fits


@dataclass
class TextLayout:
    lines: list[Line]
    font: str
    size: float
    leading: float

    @cached_property
    def bold(self) -> bool:
        return any(t.style.bold for line in self.lines for t, _w in line.items)

    @property
    def height(self) -> float:
        return len(self.lines) * self.size * self.leading


def fit_text(tokens: Sequence[Token], font: str, size: float, leading: float, area: Rect,
             shrink: bool, min_size: float) -> TextLayout | None:
    """The layout at `size`, or shrunk in 0.25 pt steps when `shrink`; None if it never fits."""

    def attempt(at: float) -> TextLayout | None:
        lines, fits = break_lines(tokens, font, at, area.w)
        layout = TextLayout(lines, font, at, leading)
        return layout if fits and layout.height <= area.h + 1e-6 else None

    return shrink_to_fit(attempt, size, min_size if shrink else math.inf, rounded=True, slack=1e-9)


T = TypeVar("T")


SHRINK_SIZES = int(4 * MAX_FONT_PT)  # 0.25 pt steps from the largest size


def shrink_to_fit(attempt: Callable[[float], T | None], size: float, min_size: float, rounded: bool,
                     slack: float) -> T | None:
    """`attempt(size)`, else attempt at the largest smaller size in 0.25 pt steps, down to
    `min_size` (inf: no shrinking), that succeeds; None if none does. A smaller size only
    fits better, so a bisection finds it: at most MAX_SHRINK_STEPS attempts whatever the
    input (a dozen for the 2,000 steps below MAX_FONT_PT)."""
    found = attempt(size)
    if found is not None:
        return found
    sizes: list[float] = []  # the sizes a step-by-step search would try, largest first
    while len(sizes) < SHRINK_SIZES and size - 0.25 >= min_size - slack:
        size = round(size - 0.25, 2) if rounded else size - 0.25
        sizes.append(size)
    if not sizes:
        return None
    best = attempt(sizes[-1])
    low, high = 0, len(sizes) - 1  # sizes[high] fits; the largest fitting size is in [low, high]
    for _ in range(MAX_SHRINK_STEPS - 2):
        if best is None or low >= high:
            break
        middle = (low + high) // 2
        fitted = attempt(sizes[middle])
        if fitted is None:
            low = middle + 1
        else:
            high, best = middle, fitted
    return best


@lru_cache(maxsize=4096)
def cached_layout(text: str, icons: tuple[str, ...], font: str, size: float, leading: float, width: float,
                  height: float, shrink: bool, min_size: float) -> TextLayout | None:
    """fit_text of a text, computed once for the many cards that share it (a shared back)."""
    return fit_text(tokenize(text, dict.fromkeys(icons)), font, size, leading, Rect(0, 0, width, height), shrink,
                    min_size)


def ink_rect(layout: TextLayout, area: Rect, align: str, valign: str) -> Rect:
    """Where draw_layout puts the text's letters inside `area`: the lines' widths as aligned,
    from the first line's ascent to the last line's descent (the font's, not each glyph's)."""
    size = layout.size
    ascent, descent = (v * size / 1000 for v in ascent_descent(layout.font))
    half_gap = (size * layout.leading - (ascent - descent)) / 2
    top = {"middle": area.top - (area.h - layout.height) / 2, "bottom": area.y + layout.height}.get(valign, area.top)
    lefts = [{"center": area.x + (area.w - line.width) / 2, "right": area.right - line.width}.get(align, area.x)
             for line in layout.lines]
    if not lefts:
        return Rect(area.x, area.top, 0, 0)
    x0 = min(lefts)
    x1 = max(x + line.width for x, line in zip(lefts, layout.lines, strict=True))
    first = top - half_gap
    last = top - (len(layout.lines) - 1) * size * layout.leading - half_gap - ascent + descent
    return Rect(x0, last, x1 - x0, first - last)


def draw_layout(canvas: Canvas, layout: TextLayout, area: Rect, align: str, valign: str,
                ctx: Paint, base_colour: str) -> None:
    """Paint a text layout inside `area`: one PDF text object, the font set once, colours
    and the bold render mode only where they change."""
    size = layout.size
    ascent, descent = (v * size / 1000 for v in ascent_descent(layout.font))
    half_gap = (size * layout.leading - (ascent - descent)) / 2
    if valign == "middle":
        top = area.top - (area.h - layout.height) / 2
    elif valign == "bottom":
        top = area.y + layout.height
    else:
        top = area.top
    bold = layout.bold
    if bold:
        canvas.saveState()
        canvas.setLineWidth(size * 0.035)  # the stroke that makes the one regular cut bolder
    writer = _TextWriter(canvas, layout, ctx, base_colour, bold)
    for index, line in enumerate(layout.lines):
        baseline = top - index * size * layout.leading - half_gap - ascent
        if align == "center":
            x = area.x + (area.w - line.width) / 2
        elif align == "right":
            x = area.right - line.width
        else:
            x = area.x
        run: list[str] = []
        run_x = x
        run_style: Style | None = None
        for token, w in line.items:
            if token.kind == "icon" or token.style != run_style:
                writer.run("".join(run), run_x, baseline, run_style)
                run, run_x, run_style = [], x, token.style
            if token.kind == "icon":
                writer.flush()
                ctx.icon(canvas, token.text, Rect(x, baseline + descent, w, w))
                run_style = None
            else:
                run.append(token.text)
            x += w
        writer.run("".join(run), run_x, baseline, run_style)
    writer.flush()
    if bold:
        canvas.restoreState()


class _TextWriter:
    def __init__(self, canvas: Canvas, layout: TextLayout, ctx: Paint, base_colour: str,
                 stroke: bool) -> None:
        self.canvas, self.layout, self.ctx, self.base, self.stroke = canvas, layout, ctx, base_colour, stroke
        self.obj: Any = None
        self.colour: str | None = None
        self.mode = 0

    def run(self, text: str, x: float, y: float, style: Style | None) -> None:
        if not text or style is None:
            return
        if self.obj is None:
            self.obj = self.canvas.beginText()
            self.obj.setFont(self.layout.font, self.layout.size)
            self.colour, self.mode = None, 0
        colour = style.colour or self.base
        if colour != self.colour:
            value = self.ctx.colour(colour)
            self.obj.setFillColor(value)
            if self.stroke:
                self.obj.setStrokeColor(value)
            self.colour = colour
        mode = 2 if style.bold else 0  # 2: fill and stroke
        if mode != self.mode:
            self.obj.setTextRenderMode(mode)
            self.mode = mode
        self.obj.setTextOrigin(x, y)
        self.obj.textOut(text)

    def flush(self) -> None:
        if self.obj is not None:
            self.canvas.drawText(self.obj)
            self.obj = None


@lru_cache(maxsize=8)
def ascent_descent(font: str) -> tuple[float, float]:
    ascent, descent = getAscentDescent(font, 1000)
    return ascent, descent
