"""Bundled fonts: IPAex Gothic and Mincho (IPA Font License 1.0), embedded as subsets.

Both families cover Japanese and Latin text, so one font serves both languages and
no unembedded base-14 font is ever referenced.
"""

from __future__ import annotations

from pathlib import Path

from reportlab import rl_config
from reportlab.lib.fonts import addMapping
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont

FONT_DIR = Path(__file__).resolve().parent.parent / "fonts"
SANS = "IPAexGothic"
SERIF = "IPAexMincho"
FONT_FILES = {SANS: "ipaexg.ttf", SERIF: "ipaexm.ttf"}

_registered = False


def setup_fonts() -> None:
    """Register the bundled fonts and make ReportLab deterministic and base-14 free."""
    global _registered
    if _registered:
        return
    for name, file in FONT_FILES.items():
        pdfmetrics.registerFont(TTFont(name, str(FONT_DIR / file)))
        # No bold/italic cuts exist: map every style to the regular face.
        for bold in (0, 1):
            for italic in (0, 1):
                addMapping(name, bold, italic, name)
    rl_config.canvas_basefontname = SANS
    rl_config.invariant = 1  # fixed dates and ids: same input, same bytes
    _registered = True
