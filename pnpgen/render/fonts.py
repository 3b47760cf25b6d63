"""Bundled fonts, embedded as subsets: IPAex Gothic and Mincho (IPA Font License 1.0) for
Japanese, Liberation Sans and Serif, regular and bold (SIL Open Font License 1.1), for the
Latin text of English rulebooks.

IPAex covers Latin too, but draws “ ” ‘ ’ full-width (“stage’ s”), so English books are set
in Liberation; a character Liberation lacks (a Japanese name in the credits, ≦) falls back
to the IPAex face of the same kind (Typst's font list for the books; FALLBACK for the kit's
diagrams). ReportLab (the print kit) registers the regular faces here; Typst (the
rulebooks) reads every face in FONT_DIR. No unembedded base-14 font is ever referenced.
"""

from __future__ import annotations

from pathlib import Path

from reportlab import rl_config
from reportlab.lib.fonts import addMapping
from reportlab.pdfbase import pdfmetrics, ttfonts
from reportlab.pdfbase.ttfonts import TTFont

FONT_DIR = Path(__file__).resolve().parent.parent / "fonts"
SANS = "IPAexGothic"
SERIF = "IPAexMincho"
LATIN_SANS = "LiberationSans"
LATIN_SERIF = "LiberationSerif"
FONT_FILES = {SANS: "ipaexg.ttf", SERIF: "ipaexm.ttf", LATIN_SANS: "LiberationSans-Regular.ttf",
              LATIN_SERIF: "LiberationSerif-Regular.ttf"}
FALLBACK = {LATIN_SANS: SANS, LATIN_SERIF: SERIF}  # for the characters a Latin face lacks

_registered = False


def _string_width(font: TTFont, text: str | bytes, size: float, encoding: str = "utf8") -> float:
    """ReportLab's own Python width of a text in a TrueType font. rl_accel (a dependency:
    C number formatting and stream encoding, the same bytes, several times faster) sums
    widths in another order, a last-bit difference that can move a rasterised edge by a
    pixel; this keeps every width, so every output, what it is without it."""
    if isinstance(text, bytes):
        text = text.decode(encoding or "utf8")
    width = font.face.charWidths.get
    default = font.face.defaultWidth
    return 0.001 * size * sum(width(ord(u), default) for u in text)


ttfonts.instanceStringWidthTTF = _string_width  # what TTFont.stringWidth calls


def faces(lang: str) -> tuple[str, str]:
    """(serif, sans) for text in `lang`: Liberation for English, IPAex otherwise."""
    return (LATIN_SERIF, LATIN_SANS) if lang == "en" else (SERIF, SANS)


def setup_fonts() -> None:
    """Register the bundled fonts and make ReportLab deterministic and base-14 free."""
    global _registered
    if _registered:
        return
    for name, file in FONT_FILES.items():
        pdfmetrics.registerFont(TTFont(name, str(FONT_DIR / file)))
        # Only regular cuts are bundled: map every style to the regular face.
        for bold in (0, 1):
            for italic in (0, 1):
                addMapping(name, bold, italic, name)
    rl_config.canvas_basefontname = SANS
    rl_config.invariant = 1  # fixed dates and ids: same input, same bytes
    _registered = True


def covers(font: str, ch: str) -> bool:
    """Does the registered `font` have a glyph for `ch`?"""
    return ord(ch) in pdfmetrics.getFont(font).face.charToGlyph
