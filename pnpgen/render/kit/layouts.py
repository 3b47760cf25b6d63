"""Named card layouts, and a face chosen per card by one of its fields.

A deck's `layouts:` names layouts (lists of elements): inline as a mapping, in a YAML
file of the game folder (shared by several decks, or by the games of a collection), or a
list of both. `front:` and `back:` are each a list of elements (one layout for every
card), a layout's name, or a choice by field:

    front: {by: type, layouts: {ship: ship, storm: storm}, default: plain}

`by` names the field (a CSV column); `layouts` maps its values to layout names (or to
inline element lists); without `layouts` the value is itself the layout's name.
`default` serves a value not listed. Every name is checked before anything is drawn, and
a card whose value has no layout is an error naming its CSV or YAML line.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from pnpgen.content.game import GameContent
from pnpgen.content.schema import Any_, Each, OneOf, Ref, Schema, check
from pnpgen.content.yamlpos import YMap, load_yaml, where
from pnpgen.errors import ContentError
from pnpgen.render.kit.bounds import Location
from pnpgen.render.kit.elements import check_elements

ELEMENTS = Each(Ref("element", Any_), min=1)  # one layout: its elements
NAMED: Schema = {"*": ELEMENTS}  # name -> layout
LAYOUT = OneOf(str, ELEMENTS)  # a layout's name, or its elements inline
LAYOUTS_SPEC = OneOf(str, NAMED, Each(OneOf(str, NAMED), min=1))
BY_FIELD: Schema = {"by": str, "layouts?": {"*": LAYOUT}, "default?": LAYOUT}
FACE_SPEC = OneOf(ELEMENTS, str, BY_FIELD)
BACK_SPEC = OneOf(Each(Ref("element", Any_)), str, BY_FIELD)  # [] : no backs


@dataclass
class Face:
    """One side of the cards: a fixed layout, or one chosen by the field `by`."""

    side: str  # "front" | "back"
    fixed: Sequence[object] | None = None
    by: str = ""
    choices: dict[str, Sequence[object]] = field(default_factory=dict)
    default: Sequence[object] | None = None
    node: object = None  # the YAML `by:` mapping, for messages
    named: dict[str, Sequence[object]] = field(default_factory=dict)  # all named layouts (by: without layouts)

    def layout(self, fields: dict[str, Any], card: str, location: Location) -> Sequence[object]:
        """The elements of this side for a card (`card` names it in errors, at `location`)."""
        if self.fixed is not None:
            return self.fixed
        value = fields.get(self.by)
        if isinstance(value, dict):  # a ja/en field chooses by its English (else Japanese) text
            value = value.get("en") or value.get("ja")
        key = "" if value is None else str(value).strip()
        table = self.choices if self.choices else self.named
        if key in table:
            return table[key]
        if self.default is not None:
            return self.default
        if key == "":
            raise ContentError(f"card {card}: the field '{self.by}' that chooses its {self.side} layout is empty "
                               f"or missing (give it, or a '{self.side}: default:' layout)", **location)
        known = ", ".join(sorted(table)) or "none"
        hint = _close(key, table)
        raise ContentError(f"card {card}: {self.by} '{key}' has no {self.side} layout{hint}; "
                           f"{self.side} layouts: {known} (or give '{self.side}: default:')", **location)

    def all_layouts(self) -> list[Sequence[object]]:
        """Every layout this side may draw, each once."""
        found: list[Sequence[object]] = []
        candidates = [self.fixed] if self.fixed is not None else [
            *(self.choices.values() if self.choices else self.named.values()), self.default]
        for layout in candidates:
            if layout is not None and not any(layout is seen for seen in found):
                found.append(layout)
        return found


def _close(word: str, options: Iterable[str]) -> str:
    close = difflib.get_close_matches(word, list(options), n=1, cutoff=0.6)
    return f" (did you mean '{close[0]}'?)" if close else ""


def named_layouts(component: YMap, content: GameContent) -> dict[str, Sequence[object]]:
    """The deck's `layouts:`, inline and from files, checked (elements included). A name
    given twice is an error."""
    value = component.get("layouts")
    if value is None:
        return {}
    parts: list[tuple[Any, Any, Any]] = []  # (mapping or file name, its parent, its key)
    items = value if isinstance(value, list) else [value]
    for index, item in enumerate(items):
        parent, key = (value, index) if isinstance(value, list) else (component, "layouts")
        parts.append((item, parent, key))
    out: dict[str, Sequence[object]] = {}
    for item, parent, key in parts:
        if isinstance(item, str):
            path = content.path(item, parent, key)
            if not path.is_file():
                raise ContentError(f"layouts: file not found: {item}", **where(parent, key, value=True))
            loaded = load_yaml(path)
            check(loaded, NAMED, None, None, f"layouts file {item}")
            mapping = loaded
        else:
            mapping = item
        for name, elements in mapping.items():
            if name in out:
                raise ContentError(f"layouts: the layout '{name}' is named twice", **where(mapping, name))
            check_elements(elements, f"layouts.{name}")
            out[str(name)] = elements
    return out


def face(component: YMap, side: str, named: dict[str, Sequence[object]]) -> Face | None:
    """The deck's `front` or `back` (None for a deck without backs), names resolved."""
    value = component.get(side)
    if value is None or (side == "back" and value == []):
        return None

    def resolve(ref: object, parent: object, key: object, path: str) -> Sequence[object]:
        if isinstance(ref, list):
            check_elements(ref, path)
            return ref
        if ref in named:
            return named[ref]
        known = ", ".join(sorted(named)) or "none (add 'layouts:' to the deck)"
        raise ContentError(f"{path}: unknown layout '{ref}'{_close(str(ref), named)}; layouts: {known}",
                           **where(parent, key, value=True))

    if not isinstance(value, dict):
        return Face(side, fixed=resolve(value, component, side, side))
    choices = {str(k): resolve(v, value["layouts"], k, f"{side}.layouts.{k}")
               for k, v in (value.get("layouts") or {}).items()}
    default = resolve(value["default"], value, "default", f"{side}.default") if "default" in value else None
    if not choices and not named:
        raise ContentError(f"{side}: 'by: {value['by']}' needs 'layouts:' (in the deck, or here under "
                           f"'{side}: layouts:')", **where(value, "by"))
    return Face(side, by=str(value["by"]), choices=choices, default=default, node=value, named=named)


@dataclass
class Faces:
    front: Face
    back: Face | None

    def elements(self) -> list[object]:
        """Every element of every layout the deck may draw (for counts and language checks)."""
        sides = [self.front] + ([self.back] if self.back else [])
        return [e for side in sides for layout in side.all_layouts() for e in layout]

    def largest(self) -> int:
        """The most elements one card draws (front and back together)."""
        sides = [self.front] + ([self.back] if self.back else [])
        return sum(max(len(layout) for layout in side.all_layouts()) for side in sides)


def faces(component: YMap, content: GameContent) -> Faces:
    """The deck's front and back, every layout name checked."""
    named = named_layouts(component, content)
    front = face(component, "front", named)
    assert front is not None  # `front` is required by the schema
    return Faces(front, face(component, "back", named))
