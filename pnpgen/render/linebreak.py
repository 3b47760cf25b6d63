"""The one line breaker, for the print kit's texts and the rulebooks' paragraphs.

Two pieces, used by both:

- where a line may break (`may_break`, `segments`): Japanese breaks between any two
  characters except before closing brackets, small kana, 。、 and the like (NO_START) and
  after opening brackets (NO_END): kinsoku; Latin text breaks at spaces only; a no-break
  space (U+00A0) never breaks;
- greedy filling (`fill`): pieces (unbreakable runs, spaces, forced breaks) into lines no
  wider than the measure. Nothing hangs past the measure: a 。 that does not fit takes the
  character before it to the next line.

The kit (kit/richtext.py) fills its tokens with it; the rulebooks' Japanese paragraphs use
`KinsokuParagraph`, a ReportLab Paragraph whose CJK wrapping is this one (ReportLab's own
lets a line end in 「（ and hangs 。 up to a full em past the margin).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, NamedTuple

from reportlab.platypus.paragraph import (  # type: ignore[attr-defined]
    Paragraph,
    ParaLines,
    _handleBulletWidth,
    cjkU,
    makeCJKParaLine,
)

from pnpgen.render.fonts import with_fallback

# Never at the start of a line (JIS X 4051 classes 2-7 and small kana) / never at the end.
NO_START = frozenset(
    "、。，．・：；？！‼⁇⁈⁉ー－‐゠–〜～）」』】〕〉》〙〗］｝”’"
    "ぁぃぅぇぉっゃゅょゎゕゖァィゥェォッャュョヮヵヶㇰㇱㇲㇳㇴㇵㇶㇷㇸㇹㇺㇻㇼㇽㇾㇿ"
    "々〻ゝゞヽヾ…‥,.;:!?)]}%")
NO_END = frozenset("（「『【〔〈《〘〖［｛“‘([{")
NBSP = "\u00a0"


def is_cjk(ch: str) -> bool:
    """A Japanese (CJK) character: a line may break before or after it."""
    code = ord(ch)
    return (0x3000 <= code <= 0x30FF or 0x3400 <= code <= 0x9FFF or 0xF900 <= code <= 0xFAFF
            or 0xFF00 <= code <= 0xFFEF or 0x31F0 <= code <= 0x31FF)


def is_space(ch: str) -> bool:
    """A breaking space (a no-break space is not one)."""
    return ch != NBSP and ch.isspace()


def may_break(before: str, after: str) -> bool:
    """May a line break between these two characters?"""
    if after in NO_START or before in NO_END or NBSP in (before, after):
        return False
    if is_space(before) or is_space(after):
        return True
    return is_cjk(before) or is_cjk(after)  # never inside a Latin word


def segments(text: str) -> list[str]:
    """`text` cut at every place a line may break: runs of spaces, and the unbreakable runs
    between them (a Latin word, or a Japanese character with the punctuation glued to it)."""
    out: list[str] = []
    start = 0
    for i in range(1, len(text)):
        a, b = text[i - 1], text[i]
        if is_space(a) != is_space(b) or (not is_space(a) and may_break(a, b)):
            out.append(text[start:i])
            start = i
    if text:
        out.append(text[start:])
    return out


class Piece(NamedTuple):
    width: float
    kind: str  # word | space | break


def line_ranges(pieces: Sequence[Piece], measure: Callable[[int], float]) -> list[tuple[int, int]]:
    """Greedy filling: `(start, end)` index ranges of `pieces`, one per line, line `n` at
    most `measure(n)` wide. Spaces at a line's ends are dropped (a range never starts or ends
    with one); a `break` piece ends its line and belongs to it; a word wider than the
    measure gets a line of its own."""
    lines: list[tuple[int, int]] = []
    start: int | None = None  # the first word of the current line
    end = 0  # after its last word (or break)
    width = 0.0
    pending = 0.0  # spaces since the last word
    for index, piece in enumerate(pieces):
        if piece.kind == "break":
            lines.append((index if start is None else start, index + 1))
            start, width, pending = None, 0.0, 0.0
            continue
        if piece.kind == "space":
            if start is not None:
                pending += piece.width
            continue
        if start is not None and width + pending + piece.width > measure(len(lines)) + 1e-6:
            lines.append((start, end))
            start, width, pending = None, 0.0, 0.0
        if start is None:
            start, width = index, piece.width
        else:
            width += pending + piece.width
        pending = 0.0
        end = index + 1
    if start is not None:
        lines.append((start, end))
    return lines


def _balanced(pieces: Sequence[Piece], ranges: list[tuple[int, int]],
              measure: Callable[[int], float]) -> list[tuple[int, int]]:
    """A heading's lines made even (no lone kana or short fragment on its last line): the
    narrowest measure, down to half, that needs no more lines than the full one."""
    low, high = 0.5, 1.0
    best = ranges
    for _ in range(8):  # bisection on the share of the measure
        mid = (low + high) / 2

        def narrowed(n: int, share: float = mid) -> float:
            return measure(n) * share

        tried = line_ranges(pieces, narrowed)
        if len(tried) <= len(ranges):
            best, high = tried, mid
        else:
            low = mid
    return best


class KinsokuParagraph(Paragraph):
    """A Paragraph whose CJK wrapping (`wordWrap="CJK"`) is `fill` over `segments`: kinsoku
    on every line, no line past the measure. Other wrapping is ReportLab's. Characters its
    Latin face lacks are set in the IPAex fallback (fonts.with_fallback)."""

    def _setup(self, text: object, style: object, bulletText: object, frags: object, cleaner: object) -> None:  # noqa: N803
        super()._setup(text, style, bulletText, frags, cleaner)  # type: ignore[misc]
        if frags is None:  # parsed here (a split part's frags are its parent's, already done)
            self.frags = with_fallback(self.frags)  # type: ignore[has-type]

    def breakLinesCJK(self, maxWidths: Any) -> object:  # noqa: N802,N803 (ReportLab's names)
        if not isinstance(maxWidths, (list, tuple)):
            maxWidths = [maxWidths]  # noqa: N806
        if hasattr(self, "blPara") and getattr(self, "_splitpara", False):
            return self.blPara
        style = self.style
        self.height = 0
        _handleBulletWidth(self.bulletText, style, maxWidths)
        glyphs, parts, part_widths = self._glyphs()
        if not glyphs:
            return ParaLines(kind=0, fontSize=style.fontSize, fontName=style.fontName, textColor=style.textColor,
                             lines=[], ascent=style.fontSize, descent=-0.2 * style.fontSize)
        widest = max(maxWidths)
        pieces: list[Piece] = []
        spans: list[tuple[int, int]] = []  # glyph range of each piece
        start = 0
        for part, width in zip(parts, part_widths, strict=True):
            stop = start + len(part)
            run = glyphs[start:stop]
            if is_space(part[0]) and "\n" in part or (not is_space(part[0]) and width > widest):
                # a line break, or a word too long for the measure: one piece per glyph
                for offset, glyph in enumerate(run):
                    kind = "break" if part[offset] == "\n" else "space" if is_space(part[offset]) else "word"
                    pieces.append(Piece(glyph.width, kind))
                    spans.append((start + offset, start + offset + 1))
            else:
                pieces.append(Piece(width, "space" if is_space(part[0]) else "word"))
                spans.append((start, stop))
            start = stop
        calc_bounds = getattr(self, "autoLeading", getattr(style, "autoLeading", "")) not in ("", "off")

        def measure(n: int) -> float:
            return float(maxWidths[min(n, len(maxWidths) - 1)])

        ranges = line_ranges(pieces, measure)
        if getattr(style, "balance", False) and len(ranges) > 1:
            ranges = _balanced(pieces, ranges, measure)
        lines = []
        for number, (first, last) in enumerate(ranges):
            max_width = maxWidths[min(number, len(maxWidths) - 1)]
            run = glyphs[spans[first][0]:spans[last - 1][1]]
            line_break = pieces[last - 1].kind == "break"
            used = sum(piece.width for piece in pieces[first:last])
            lines.append(makeCJKParaLine(run, max_width, used, max_width - used, line_break, calc_bounds))
        return ParaLines(kind=1, lines=lines)

    def extent(self) -> tuple[float, float]:
        """(least, natural) width in points of the text: its widest unbreakable piece (a
        word, a number held by no-break spaces, a Japanese character with its punctuation),
        and its widest line when lines break only where the text breaks them."""
        _, parts, widths = self._glyphs()
        least = natural = line = 0.0
        for part, width in zip(parts, widths, strict=True):
            if is_space(part[0]) and "\n" in part:  # a forced line break
                natural, line = max(natural, line), 0.0
                continue
            line += width
            if not is_space(part[0]):
                least = max(least, width)
        return least, max(natural, line)

    def _glyphs(self) -> tuple[list[Any], list[str], list[float]]:
        """The paragraph's glyphs (with their frags and widths) and its `segments`, computed
        once: a table re-wraps its cells many times."""
        cached = getattr(self, "_kinsoku", None)
        if cached is not None and cached[0] is self.frags:
            return cached[1], cached[2], cached[3]
        glyphs: list[Any] = []
        for frag in self.frags:
            text = frag.text if hasattr(frag, "text") else "".join(getattr(frag, "words", []))
            if text:
                glyphs += [cjkU(ch, frag, "utf8") for ch in text]
            else:  # a line break or an image: an empty glyph carrying its frag
                glyphs.append(cjkU(text, frag, "utf8"))
        # an empty glyph is a line break ("\n": a space, so it never joins a word) or an image
        text = "".join(str(g) or ("\n" if hasattr(g.frag, "lineBreak") else "\ufffc") for g in glyphs)
        parts = segments(text)
        widths, start = [], 0
        for part in parts:
            widths.append(sum(g.width for g in glyphs[start:start + len(part)]))
            start += len(part)
        self._kinsoku = (self.frags, glyphs, parts, widths)
        return glyphs, parts, widths
