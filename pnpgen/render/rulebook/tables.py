"""Rulebook tables that fit the width they are laid out in.

A table is built when it is laid out, for the width the frame gives it (`FitTable`), not
once for the page: the quick reference lays its content out narrower and scales it up to
fill its page (layout.FitPage), and a table sized for the page would then run past the
margin. Column widths (`column_widths`):

- a table whose text fits on one line per cell keeps its natural widths;
- a wider one wraps its cells: a column whose text is shorter than an even share keeps
  its natural width; the others get their widest unbreakable piece (a word, a number held
  by no-break spaces, a Japanese character with its kinsoku punctuation, as
  linebreak.KinsokuParagraph breaks lines) and share the rest of the width in proportion
  to what each lacks of its natural width;
- relative `widths` given by the book are shares of the width, but no column is made
  narrower than its widest piece while the pieces fit;
- only when even the widest pieces do not fit is the text set smaller (down to
  MIN_SCALE of its size); past that, words break inside, but nothing crosses the frame.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from reportlab.lib.styles import ParagraphStyle
from reportlab.platypus import Flowable, Table, TableStyle

from pnpgen.render.linebreak import KinsokuParagraph

PAD = 12.0 + 1.0  # pt per column: ReportLab's cell padding (6 each side), and 1 pt of slack
MIN_SCALE = 0.75  # the smallest a table's text is set to fit its longest words (of its size)


def column_widths(least: Sequence[float], natural: Sequence[float], width: float,
                  weights: Sequence[float] | None = None) -> list[float]:
    """Widths of columns whose text needs at least `least` and at most `natural` points
    (padding included) in a table `width` wide; `weights`, relative widths to share it by."""
    columns = len(least)
    if sum(least) >= width:  # even the widest pieces do not fit: in proportion to them
        return [width * piece / sum(least) for piece in least]
    if weights is None or len(weights) != columns or sum(weights) <= 0:
        if sum(natural) <= width:
            return list(natural)
        return _by_content(least, natural, width)
    kept: set[int] = set()  # columns held at their widest piece
    while True:
        free = [c for c in range(columns) if c not in kept]
        room = width - sum(least[c] for c in kept)
        share = sum(weights[c] for c in free)
        if not free or share <= 0:  # all at their widest piece: the rest by the weights
            spare = width - sum(least)
            return [least[c] + spare * weights[c] / sum(weights) for c in range(columns)]
        widths = [least[c] if c in kept else room * weights[c] / share for c in range(columns)]
        short = {c for c in free if widths[c] < least[c]}
        if not short:
            return widths
        kept |= short


def _by_content(least: Sequence[float], natural: Sequence[float], width: float) -> list[float]:
    """Columns too wide together: a column narrower than an even share of what is left keeps
    its natural width (a short word or number stays on one line, 'コスト' is not cut); the
    others get their widest piece and share the rest by how much each lacks of its natural
    width."""
    columns = range(len(least))
    whole: set[int] = set()
    while True:
        free = [c for c in columns if c not in whole]
        room = width - sum(natural[c] for c in whole)
        if sum(least[c] for c in free) > room:  # too generous: only the pieces are sure
            whole, free, room = set(), list(columns), width
            break
        fits = {c for c in free if natural[c] <= room / len(free)}
        if not fits:
            break
        whole |= fits
    lack = {c: max(natural[c] - least[c], 0.0) for c in free}
    spare = room - sum(least[c] for c in free)
    return [natural[c] if c in whole else least[c] + spare * lack[c] / (sum(lack.values()) or 1.0)
            for c in columns]


class FitTable(Flowable):
    """A table built for the width it is laid out in, by `build(width)`; it splits across
    pages as that table does. Built tables are kept by width (a quick reference tries a few).
    `least_width`: below it the table's text is set smaller or its words break (0: none)."""

    def __init__(self, build: Callable[[float], Table], space_before: float = 0.0,
                 space_after: float = 0.0, least_width: float = 0.0) -> None:
        super().__init__()
        self.build, self.least_width = build, least_width
        self.spaceBefore, self.spaceAfter = space_before, space_after
        self.hAlign = "LEFT"
        self._built: dict[float, Table] = {}
        self._current: Table | None = None

    def table(self, width: float) -> Table:
        key = round(width, 3)
        if key not in self._built:
            table = self.build(width)
            table.hAlign = "LEFT"
            table.spaceBefore, table.spaceAfter = self.spaceBefore, self.spaceAfter
            self._built[key] = table
        return self._built[key]

    def wrap(self, availWidth: float, availHeight: float) -> tuple[float, float]:  # noqa: N803
        self._current = self.table(availWidth)
        width, height = self._current.wrap(availWidth, availHeight)
        self.width, self.height = width, height
        return width, height

    def split(self, availWidth: float, availHeight: float) -> list[Flowable]:  # noqa: N803
        parts: list[Flowable] = self.table(availWidth).split(availWidth, availHeight)
        return parts

    def draw(self) -> None:
        assert self._current is not None, "drawn before it was laid out"
        self._current.drawOn(self.canv, 0, 0)


def text_table(cells: Sequence[Sequence[str]], styles: Sequence[ParagraphStyle], style: TableStyle,
               weights: Sequence[float] | None = None, **table: Any) -> FitTable:
    """A table of Paragraphs (`cells` in Paragraph markup, column c set in `styles[c]`)
    sized by `column_widths` for the width it is laid out in, its text set smaller only
    when its widest pieces do not fit. `table`: Table keywords (repeatRows, ...), and
    space_before / space_after."""
    space = {key: float(table.pop(key)) for key in ("space_before", "space_after") if key in table}

    def make(scale: float) -> list[list[KinsokuParagraph]]:
        def sized(c: int) -> ParagraphStyle:
            if scale == 1.0:
                return styles[c]
            base = styles[c]
            return ParagraphStyle(f"{base.name}-{scale:.3f}", parent=base, fontSize=base.fontSize * scale,
                                  leading=base.leading * scale)

        column_styles = [sized(c) for c in range(len(styles))]
        return [[KinsokuParagraph(cell, column_styles[c]) for c, cell in enumerate(row)] for row in cells]

    columns = max((len(row) for row in cells), default=0)
    least_text, natural_text = [0.0] * columns, [0.0] * columns
    for row in make(1.0):
        for c, paragraph in enumerate(row):
            least, natural = paragraph.extent()
            least_text[c], natural_text[c] = max(least_text[c], least), max(natural_text[c], natural)

    def build(width: float) -> Table:
        scale = 1.0
        if sum(least_text) + columns * PAD > width and sum(least_text) > 0:
            scale = max(MIN_SCALE, (width - columns * PAD) / sum(least_text))
        least = [w * scale + PAD for w in least_text]
        natural = [w * scale + PAD for w in natural_text]
        built = Table(make(scale), colWidths=column_widths(least, natural, width, weights), **table)
        built.setStyle(style)
        return built

    return FitTable(build, least_width=sum(least_text) + columns * PAD, **space)
