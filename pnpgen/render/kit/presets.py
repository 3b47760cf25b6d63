"""Printer presets: the bleed and safe zone a kind of printer asks for, by name.

A component names one with `preset:`, a build with `--preset` (which wins over the
components' own `preset:`, so one content folder builds for any printer). A component's
explicit `bleed:` or `safe:` still wins over both. Boards and sheets keep their content at
least the preset's safe zone inside the trim (`padding` defaults to the larger of 4 mm and
the safe zone).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from reportlab.lib.units import mm

from pnpgen.content.yamlpos import where
from pnpgen.errors import BuildError, ContentError, PnpgenError
from pnpgen.render.kit.preview import Recorder, text_nearer_than


@dataclass(frozen=True)
class Preset:
    bleed: float  # mm of artwork beyond the cut
    safe: float  # mm inside the cut kept for nothing that must survive the cut
    about: str


PRESETS: dict[str, Preset] = {
    "standard": Preset(3.0, 3.0, "3 mm bleed and safe zone: card printers in Europe and Japan, poker 63 × 88 mm"),
    "us-eighth-inch": Preset(3.175, 3.175, "1/8 in (3.175 mm) bleed and safe zone: US card printers"),
    "large-format": Preset(5.0, 10.0, "5 mm bleed, 10 mm safe zone: boards and posters on a wide-format printer"),
}
DEFAULT = "standard"
DEFAULT_PADDING = 4.0  # mm, a board's or sheet's padding without a preset asking for more


def check_preset(name: str) -> Preset:
    """The preset called `name` (a --preset value); PnpgenError naming the presets otherwise."""
    if name not in PRESETS:
        raise PnpgenError(f"unknown preset '{name}'; presets: {', '.join(PRESETS)}")
    return PRESETS[name]


def preset_of(component: Any, build_preset: str | None) -> Preset:
    """The preset in force for a component: the build's --preset, else its `preset:`."""
    if build_preset:
        return check_preset(build_preset)
    name = component.get("preset", DEFAULT)
    if name not in PRESETS:  # the schema's Choice refuses it first; kept for direct callers
        raise ContentError(f"preset: unknown preset '{name}'; presets: {', '.join(PRESETS)}",
                           **where(component, "preset", value=True))
    return PRESETS[name]


def bleed_safe(component: Any, build_preset: str | None, print_shop: bool = False) -> tuple[float, float]:
    """(bleed, safe) in mm: the component's own keys, else its preset's. A print-shop file
    never has less bleed than its preset asks for (a shop that asks for 3 mm rejects 2 mm):
    a smaller `bleed:` (pieces packed tight on a home sheet) applies to home files only."""
    preset = preset_of(component, build_preset)
    bleed = float(component.get("bleed", preset.bleed))
    return (max(bleed, preset.bleed) if print_shop else bleed), float(component.get("safe", preset.safe))


def padding(component: Any, build_preset: str | None) -> float:
    """A board's or sheet's padding in mm: its own, else at least the preset's safe zone."""
    return float(component.get("padding", max(DEFAULT_PADDING, preset_of(component, build_preset).safe)))


def padding_problem(component: Any, build_preset: str | None) -> list[str]:
    """A board's or sheet's own `padding` narrower than its preset's safe zone: its text
    would come nearer the cut than the safe zone ('file:line:col: ...'); none otherwise."""
    if "padding" not in component:
        return []
    own, safe = float(component["padding"]), preset_of(component, build_preset).safe
    if own >= safe:
        return []
    return [str(ContentError(f"padding: {own:g} mm puts the content inside the {safe:g} mm safe zone; "
                             f"give at least {safe:g} mm", **where(component, "padding", value=True)))]


def drawn_text_problems(rec: Recorder, trim: tuple[float, float, float, float], safe: float, label: str,
                        place: object, key: str | None) -> list[str]:
    """Text drawn on `rec` (a board's labels and titles, a sheet's blocks) nearer the cut of
    `trim` (points) than `safe` mm: one problem at `place`'s `key` naming the nearest text
    and how near it comes, and how many more there are; none otherwise."""
    near = text_nearer_than(rec, trim, safe * mm)
    if not near:
        return []
    (text, gap), more = near[0], len(near) - 1
    said = text if len(text) <= 30 else text[:29] + "…"
    also = f" (and {more} more text{'s' if more > 1 else ''})" if more else ""
    return [str(BuildError(f"{label}: '{said}' comes {gap / mm:.1f} mm from the trim, inside the {safe:g} mm safe "
                           f"zone{also} (a larger padding, or smaller text)", **where(place, key)))]
