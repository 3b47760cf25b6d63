"""Bundled fonts, embedded as subsets: IPAex Gothic and Mincho (IPA Font License 1.0) for
Japanese, Liberation Sans and Serif (SIL Open Font License 1.1) for the Latin text of
English rulebooks.

IPAex covers Latin too, but draws “ ” ‘ ’ full-width (“stage’ s”), so English books are set
in Liberation; a character Liberation lacks (a Japanese name in the credits, ≦) falls back
to the IPAex face of the same kind (`with_fallback`). No unembedded base-14 font is ever
referenced.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from reportlab import rl_config
from reportlab.lib.fonts import addMapping
from reportlab.pdfbase import pdfmetrics
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


def with_fallback(frags: list[Any]) -> list[object]:
    """ReportLab paragraph fragments with the characters a Latin face lacks moved to its
    IPAex fallback (a fragment split into runs where coverage changes)."""
    out: list[object] = []
    for frag in frags:
        fallback = FALLBACK.get(getattr(frag, "fontName", ""))
        text = getattr(frag, "text", "")
        if fallback is None or not text or all(covers(frag.fontName, ch) for ch in text):
            out.append(frag)
            continue
        start = 0
        for i in range(1, len(text) + 1):
            if i == len(text) or covers(frag.fontName, text[i]) != covers(frag.fontName, text[start]):
                part = frag.clone(text=text[start:i])
                if not covers(frag.fontName, text[start]):
                    part.fontName = fallback
                out.append(part)
                start = i
    return out
