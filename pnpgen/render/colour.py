"""Colours: '#rrggbb', '#rgb', a colour name or 'cmyk(c, m, y, k)', and the RGB -> CMYK
conversion print-shop files use."""

from __future__ import annotations

import re
from functools import lru_cache

from reportlab.lib import colors

CMYK = re.compile(r"cmyk\(\s*([\d.]+)\s*,\s*([\d.]+)\s*,\s*([\d.]+)\s*,\s*([\d.]+)\s*\)$", re.IGNORECASE)


@lru_cache(maxsize=512)
def make_colour(spec: str, cmyk: bool = False) -> colors.Color:
    """'#rrggbb', '#rgb', a colour name or 'cmyk(c, m, y, k)' in percent. With `cmyk`
    (print-shop files) every colour is converted to CMYK."""
    text = spec.strip()
    found = CMYK.match(text)
    if found:
        c, m, y, k = (float(v) / 100 for v in found.groups())
        return colors.CMYKColor(c, m, y, k)
    if re.fullmatch(r"#[0-9a-fA-F]{3}", text):
        text = "#" + "".join(ch * 2 for ch in text[1:])
    try:
        colour = colors.HexColor(text) if text.startswith("#") else getattr(colors, text.lower())
    except (ValueError, AttributeError):
        raise ValueError(f"unknown colour '{spec}' (use #rrggbb, a colour name or cmyk(c, m, y, k))") from None
    if not isinstance(colour, colors.Color):
        raise ValueError(f"unknown colour '{spec}'")
    return to_cmyk(colour) if cmyk else colour


def to_cmyk(colour: colors.Color) -> colors.CMYKColor:
    """RGB -> press CMYK through the print-shop profile (render/press.py); greys in black
    ink only."""
    if isinstance(colour, colors.CMYKColor):
        return colour
    from pnpgen.render.press import rgb_to_cmyk

    return colors.CMYKColor(*rgb_to_cmyk(colour.red, colour.green, colour.blue))
