"""Colours: '#rrggbb', '#rgb', a colour name or 'cmyk(c, m, y, k)', and the RGB -> CMYK
conversion print-shop files use."""

from __future__ import annotations

import re
from functools import lru_cache

from reportlab.lib import colors

from pnpgen.content.yamlpos import where
from pnpgen.errors import ContentError

HEX = re.compile(r"#(?:[0-9a-fA-F]{3}){1,2}")
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
    if text.startswith("#") and not HEX.fullmatch(text):  # ReportLab would read '#38664' as some colour
        raise ValueError(f"unknown colour '{spec}': a hex colour is '#' and 6 (or 3) hex digits, "
                         f"such as #e76f51 or #e75")
    if len(text) == 4:
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


# The keys whose values are colours, in every component type's YAML (elements, board
# regions and cells, sheet blocks, icons); card data (`cards`, `cards_from`) may use these
# names for anything, and is checked where a layout draws it.
COLOUR_KEYS = frozenset({"color", "fill", "stroke", "border", "background", "header_fill", "pattern_color",
                         "label_color", "label_fill", "label_background", "mark_color", "glyph_color"})
CARD_DATA = frozenset({"cards", "cards_from"})


def check_colours(node: object, path: str = "") -> None:
    """Every colour a component names outright (no `{{ field }}` in it) is a colour:
    ContentError at the first that is not, naming its file and line. A colour that a card
    field gives is checked for each card as its faces are checked."""
    items = node.items() if isinstance(node, dict) else enumerate(node) if isinstance(node, list) else ()
    for key, value in items:
        here = f"{path}.{key}" if isinstance(node, dict) else f"{path}[{key}]"
        if isinstance(node, dict) and key in CARD_DATA:
            continue
        if isinstance(node, dict) and key in COLOUR_KEYS and isinstance(value, str) and "{" not in value:
            try:
                make_colour(value)
            except ValueError as error:
                raise ContentError(f"{here.lstrip('.')}: {error}", **where(node, key, value=True)) from None
        else:
            check_colours(value, here)
