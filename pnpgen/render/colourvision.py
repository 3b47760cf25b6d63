"""Colour-vision check: the colours that tell game elements apart, seen as a player with
protanopia, deuteranopia or tritanopia would see them.

Where content declares such colours:
- a deck's cards: a card field holding colours ('#2b6cb0', team colours, card types) that
  differs between cards; the cards sharing one colour are one group;
- a legend: a mapping whose entries each have a `fill` (a terrain map's symbols);
- a list of marked cells or areas, each with a `fill` (a board's `highlights`).

Each colour is simulated with colorspacious (Machado, Oliveira and Fernandes 2009, full
severity) and two colours are compared in CAM02-UCS. A pair closer than THRESHOLD for
some deficiency is a problem unless the two differ by another cue: a printed card field
other than a colour that is constant within each group and differs between them (a team
letter, a shape mark), or a legend's pattern, mark, symbol, glyph or label.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, TypeVar

from pnpgen.content.game import GameContent
from pnpgen.content.yamlpos import Where, YList, YMap, where
from pnpgen.engine.protocol import Rules
from pnpgen.errors import ContentError, PnpgenError

S = TypeVar("S")
M = TypeVar("M")

THRESHOLD = 15.0
"""CAM02-UCS ΔE' under which two colours count as alike. 1 is a just-noticeable
difference side by side; two tokens across a table, named at a glance, need far more.
Measured: a bright red and green (#e53e3e, #38a169) are 11.9 apart with deuteranopia
(56.0 with normal vision); Dungeon War's red and green teams 13.1, its blue and green
7.4 with tritanopia: all under 15, and there the teams' shapes and letters tell them
apart. Its blue and red stay 39.4 or more apart."""
DEFICIENCIES = {"protanopia": "protanomaly", "deuteranopia": "deuteranomaly", "tritanopia": "tritanomaly"}
HEX = re.compile(r"#(?:[0-9a-fA-F]{6}|[0-9a-fA-F]{3})$")
CUE_KEYS = ("pattern", "mark", "symbol", "glyph", "label", "text", "shape", "letter", "icon", "image")
COLOUR_KEYS = ("fill", "colour", "color")


@dataclass(frozen=True)
class Swatch:
    colour: str  # '#rrggbb'
    name: str  # how a message names it: 'team R', 'L'
    cues: tuple[tuple[str, str], ...]  # the other cues, (key, value)
    where: Where


def rgb(colour: str) -> tuple[float, float, float]:
    text = colour.lstrip("#")
    if len(text) == 3:
        text = "".join(ch * 2 for ch in text)
    return (int(text[0:2], 16) / 255, int(text[2:4], 16) / 255, int(text[4:6], 16) / 255)


@lru_cache(maxsize=4096)
def seen_as(colour: str, deficiency: str) -> tuple[float, float, float]:
    """The colour as CAM02-UCS J'a'b', seen with `deficiency` (or 'normal')."""
    import numpy as np
    from colorspacious import cspace_convert

    value = np.array(rgb(colour))
    if deficiency != "normal":
        space = {"name": "sRGB1+CVD", "cvd_type": DEFICIENCIES[deficiency], "severity": 100}
        value = np.clip(cspace_convert(value, space, "sRGB1"), 0, 1)
    j, a, b = cspace_convert(value, "sRGB1", "CAM02-UCS")
    return (float(j), float(a), float(b))


def difference(first: str, second: str, deficiency: str) -> float:
    """ΔE' in CAM02-UCS between two colours as seen with `deficiency`."""
    p, q = seen_as(first, deficiency), seen_as(second, deficiency)
    return sum((x - y) ** 2 for x, y in zip(p, q, strict=True)) ** 0.5


def confusions(swatches: Sequence[Swatch], with_cues: bool = False) -> Iterator[tuple[Swatch, Swatch, str, float]]:
    """Pairs alike for some deficiency (the worst one) and with no other cue (`with_cues`:
    those told apart by another cue too)."""
    for i, first in enumerate(swatches):
        for second in swatches[i + 1:]:
            if first.colour.lower() == second.colour.lower():
                continue  # the same colour is not meant to tell them apart
            if set(first.cues) != set(second.cues) and not with_cues:
                continue  # a differing cue does
            worst = min((difference(first.colour, second.colour, d), d) for d in DEFICIENCIES)
            if worst[0] < THRESHOLD:
                yield first, second, worst[1], worst[0]


# --- where content declares the colours -----------------------------------------------------


def _text(value: object) -> str:
    if isinstance(value, dict):
        return str(value.get("en", next(iter(value.values()), "")))
    return str(value)


def deck_swatches(component: YMap, cards: Sequence[Any]) -> Iterator[tuple[str, list[Swatch]]]:
    """Per colour field of a deck's cards, one swatch per colour with the printed fields
    that are constant within its cards."""
    fields = sorted({k for card in cards for k, v in card.fields.items() if isinstance(v, str) and HEX.match(v)})
    for key in fields:
        groups: dict[str, list[Any]] = {}
        for card in cards:
            value = card.fields.get(key)
            if isinstance(value, str) and HEX.match(value):
                groups.setdefault(value.lower(), []).append(card)
        if len(groups) < 2:
            continue
        swatches = []
        for colour, members in groups.items():
            printed = repr(list(members[0].front)) + repr(list(members[0].back))
            cues = []
            for name in sorted(members[0].fields):
                value = members[0].fields[name]
                if name == key or (isinstance(value, str) and HEX.match(value)):
                    continue
                if not re.search(r"\{\{-?\s*" + re.escape(name) + r"\b", printed):
                    continue  # not printed: no cue
                if all(repr(m.fields.get(name)) == repr(value) for m in members):
                    cues.append((name, repr(value)))
            label = ", ".join(f"{n} {_text(members[0].fields[n])}" for n, _ in cues) or f"{len(members)} card(s)"
            swatches.append(Swatch(colour, f"{colour} ({label})", tuple(cues), members[0].location or where(component)))
        yield key, swatches


def legend_swatches(node: object) -> Iterator[tuple[str, list[Swatch]]]:
    """Legends (a mapping of entries with a fill) and lists of filled marks, anywhere in a
    component."""
    if isinstance(node, dict):
        entries = [(str(k), v) for k, v in node.items() if isinstance(v, dict) and _fill(v)]
        if len(entries) >= 2 and len(entries) == len(node):
            yield "legend", [_swatch(name, entry, node, name) for name, entry in entries]
        for value in node.values():
            if isinstance(value, dict | list):
                yield from legend_swatches(value)
    elif isinstance(node, list):
        marked = [(index, v) for index, v in enumerate(node) if isinstance(v, dict) and _fill(v) and "at" in v]
        if len(marked) >= 2:
            yield "marked cells", [_swatch(f"cells {v.get('at')}", v, node, i) for i, v in marked]
        for value in node:
            if isinstance(value, dict | list):
                yield from legend_swatches(value)


def _fill(entry: dict[str, Any]) -> str | None:
    for key in COLOUR_KEYS:
        value = entry.get(key)
        if isinstance(value, str) and HEX.match(value.strip()):
            return value.strip()
    return None


def _swatch(name: str, entry: dict[str, Any], parent: object, key: object) -> Swatch:
    cues = tuple((k, repr(entry[k])) for k in CUE_KEYS if k in entry)
    place = where(parent, key) if isinstance(parent, YMap | YList) else {}
    return Swatch(str(_fill(entry)), name, cues, place)


# --- the check ------------------------------------------------------------------------------


@dataclass
class Verdict:
    problems: list[str]  # 'file:line:col: component ...', one per pair alike with no other cue
    sets: int = 0  # colour sets read (a deck's colour field, a legend)
    pairs: int = 0  # pairs of different colours compared
    alike: dict[tuple[str, str, str], tuple[float, str]] = field(default_factory=dict)
    """pairs alike but told apart by another cue: (component, colour, colour) -> (ΔE, deficiency)"""

    @property
    def detail(self) -> str:
        told = ""
        if self.alike:
            closest = sorted(self.alike.items(), key=lambda item: item[1])[:3]
            told = (f"; {len(self.alike)} pair(s) alike but told apart by a shape, letter or pattern, closest: "
                    + ", ".join(f"{c} {a}/{b} {d:.1f} ({why})" for (c, a, b), (d, why) in closest))
        return (f"{self.sets} colour set(s), {self.pairs} pair(s) seen with protanopia, deuteranopia, tritanopia; "
                f"alike under ΔE {THRESHOLD:g} (CAM02-UCS){told}")


def check_game(content: GameContent, rules: list[Rules[S, M]]) -> Verdict:
    """Problems as 'file:line: component '<id>': ...', one per pair of colours a
    colour-blind player cannot tell apart and nothing else tells apart, and what was
    checked. `rules` are the folder's games (a deck's quantities may name their values)."""
    from pnpgen.output import BuildOptions
    from pnpgen.render.kit import components, deck
    from pnpgen.render.kit.page import KitJob

    try:
        items = components(content)
    except PnpgenError:
        return Verdict([])  # the components check reports it
    verdict = Verdict([])
    for item in items:
        found: list[tuple[str, list[Swatch]]] = list(legend_swatches(item))
        if item["type"] == "deck":
            try:
                cards = deck.expand_cards(item, KitJob(content, rules, BuildOptions(), "en"))
            except PnpgenError:
                cards = []
            found += list(deck_swatches(item, cards))
        for what, swatches in found:
            verdict.sets += 1
            colours = sorted({sw.colour.lower() for sw in swatches})
            verdict.pairs += len(colours) * (len(colours) - 1) // 2
            for first, second, deficiency, delta in confusions(swatches, with_cues=True):
                if set(first.cues) != set(second.cues):  # another cue tells them apart
                    a, b = sorted((first.colour.lower(), second.colour.lower()))
                    verdict.alike[(str(item["id"]), a, b)] = (delta, deficiency)
                    continue
                message = (f"component '{item['id']}', {what}: {first.name} and {second.name} look alike with "
                           f"{deficiency} (ΔE {delta:.1f} < {THRESHOLD:g}) and differ by no shape, letter or pattern")
                verdict.problems.append(str(ContentError(message, **(first.where or where(item)))))
    return verdict
