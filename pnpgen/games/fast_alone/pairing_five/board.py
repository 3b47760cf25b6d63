"""Pairing Five's board data in rules.yaml: its schema, and the areas of a side."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pnpgen.content.schema import Choice, Each, Schema, Text
from pnpgen.games.fast_alone.puzzle import content_error

CHANGES = ("down", "up", "flip", "shift", "any")  # effects that turn one unused die to a new face
EFFECTS = CHANGES + ("reroll", "reroll_same", "swap")

AREA_SCHEMA: Schema = {
    "label": str,
    "name": Text,
    "effect": Choice(*EFFECTS),
    "rule": str,
    "by?": int,
    "least?": int,
}

RULES_SCHEMA: Schema = {
    "dice": {"white": int, "faces": int},
    "sides": {"*": {"name": Text, "areas": Each(AREA_SCHEMA, min=2)}},
    "solver": {"depth": int, "exact_from": int, "misfit_cost": float},
    "difficulty": {"games": int, "bots": Each(str, min=1)},
}


@dataclass(frozen=True)
class Area:
    label: str
    name: object  # Text
    effect: str
    rule: str
    by: int  # shift: the step
    least: int  # reroll_same: dice of one face needed


def read_area(entry: Any, faces: int) -> Area:
    """One area of a side's list, its numbers checked against the dice's `faces`."""
    effect = str(entry["effect"])
    by = int(entry.get("by", 0))
    least = int(entry.get("least", 1))
    if effect == "shift" and not 1 <= by < faces:
        raise content_error(f"area {entry['label']}: a shift needs 'by' between 1 and {faces - 1}", entry,
                            "effect")
    if effect == "reroll_same" and least < 1:
        raise content_error(f"area {entry['label']}: 'least' must be at least 1", entry, "least")
    return Area(str(entry["label"]), entry["name"], effect, str(entry["rule"]), by, least)
