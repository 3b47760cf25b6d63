"""The print kit's line breaker (cards, sheets, boards; rulebooks are set by Typst, which
does its own kinsoku). Two pieces:

- where a line may break (`may_break`, `segments`): Japanese breaks between any two
  characters except before closing brackets, small kana, 。、 and the like (NO_START) and
  after opening brackets (NO_END): kinsoku; Latin text breaks at spaces only; a no-break
  space (U+00A0) never breaks;
- greedy filling (`fill`): pieces (unbreakable runs, spaces, forced breaks) into lines no
  wider than the measure. Nothing hangs past the measure: a 。 that does not fit takes the
  character before it to the next line.

The kit (kit/richtext.py) fills its tokens with it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import NamedTuple

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
