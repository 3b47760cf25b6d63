"""A picture in words (alternative text for a screen reader), built from the scene itself
when the game writes none (Presentation.alt_text): its dice and their values, cells, tiles,
table rows, arrows and the words written on it. Never a placeholder: a scene with nothing
countable on it is described by its size."""

from __future__ import annotations

from pnpgen import scene as sc
from pnpgen.render.words import WORDS

MOST_LABELS = 40  # a chart's labels beyond this are summed up as "and N more"


def scene_alt(scene: sc.Scene, lang: str) -> str:
    """`scene` in words, in `lang`."""
    parts: list[str] = []
    dice = [s.note for s in scene.shapes if isinstance(s, sc.Rect) and s.role == "die" and s.note]
    if dice:
        parts.append(WORDS("alt_dice", lang, n=len(dice), faces=" ".join(dice)))
    for role in ("cell", "tile", "row"):
        count = scene.count(role)
        if count:
            parts.append(WORDS(f"alt_{role}s", lang, n=count))
    arrows = sum(1 for s in scene.shapes if isinstance(s, sc.Line) and s.arrow)
    if arrows:
        parts.append(WORDS("alt_arrows", lang, n=arrows))
    labels = list(dict.fromkeys(s.text.strip() for s in scene.shapes if isinstance(s, sc.Label) and s.text.strip()))
    if labels:
        shown = WORDS("alt_separator", lang).join(labels[:MOST_LABELS])
        if len(labels) > MOST_LABELS:
            shown += WORDS("alt_more", lang, n=len(labels) - MOST_LABELS)
        parts.append(WORDS("alt_labels", lang, labels=shown))
    if not parts:
        parts.append(WORDS("alt_size", lang, w=round(scene.width * 25.4 / 72), h=round(scene.height * 25.4 / 72)))
    return WORDS("alt_scene", lang, parts=WORDS("alt_join", lang).join(parts))
