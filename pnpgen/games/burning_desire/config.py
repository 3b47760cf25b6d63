"""Burning Desire's numbers, read from game.yaml `rules:` (schema in RULES_SCHEMA)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pnpgen.content.schema import Choice, Each, Schema, Text, text_for
from pnpgen.content.yamlpos import where
from pnpgen.errors import ContentError

COMBINATION_SCHEMA: Schema = {
    "id": str,
    "name": Text,
    "faces": Each(int, min=1),
    "points": Each(int, min=1),
    "bonus": Choice("per_die", "double"),
}

RULES_SCHEMA: Schema = {
    "main_dice": {"count": int, "faces": int},
    "bonus_die": {"faces": int},
    "multiplier_dice": Each({"name": str, "faces": Each(int, min=1)}, min=1),
    "rolls_per_turn": int,
    "combinations": Each(COMBINATION_SCHEMA, min=1),
    "bonus": {"per_die": int, "per_die_all_counted": int, "double_factor": int},
    "threshold": int,
    "gamble": {"on_reaching_threshold": bool, "in_final_round": bool},
}


@dataclass(frozen=True)
class Combination:
    id: str
    name: object  # Text
    faces: frozenset[int]
    points: tuple[int, ...]  # points for 1, 2, ... counted dice
    bonus: str  # "per_die" or "double"

    def title(self, lang: str) -> str:
        return text_for(self.name, lang)


@dataclass(frozen=True)
class MultiplierDie:
    name: str
    faces: tuple[int, ...]


@dataclass(frozen=True)
class Config:
    dice: int
    faces: int
    bonus_faces: int
    multipliers: tuple[MultiplierDie, ...]
    rolls: int
    combinations: tuple[Combination, ...]
    per_die: int
    per_die_all: int
    double_factor: int
    threshold: int
    gamble_on_reaching: bool
    gamble_in_final: bool

    def combination(self, cid: str) -> Combination | None:
        return next((c for c in self.combinations if c.id == cid), None)


def _fail(message: str, container: object, key: object) -> ContentError:
    return ContentError(f"rules.{message}", **where(container, key, value=True))


def load_config(rules: Any) -> Config:
    """Cross-checks beyond the schema: face ranges, table lengths, unique ids."""
    main = rules["main_dice"]
    if not 1 <= main["count"] <= 10:
        raise _fail("main_dice.count: between 1 and 10 dice", main, "count")
    if not 2 <= main["faces"] <= 20:
        raise _fail("main_dice.faces: between 2 and 20 faces", main, "faces")
    if rules["bonus_die"]["faces"] < 1:
        raise _fail("bonus_die.faces: at least 1 face", rules["bonus_die"], "faces")
    if rules["rolls_per_turn"] < 1:
        raise _fail("rolls_per_turn: at least 1 roll", rules, "rolls_per_turn")
    if rules["threshold"] < 1:
        raise _fail("threshold: must be positive", rules, "threshold")
    combos: list[Combination] = []
    for index, entry in enumerate(rules["combinations"]):
        label = f"combinations[{index}]"
        if entry["id"] in {c.id for c in combos} or not entry["id"] or " " in entry["id"]:
            raise _fail(f"{label}.id: '{entry['id']}' must be unique and without spaces", entry, "id")
        bad = [f for f in entry["faces"] if not 1 <= f <= main["faces"]]
        if bad:
            raise _fail(f"{label}.faces: {bad[0]} is not a face of a d{main['faces']}", entry, "faces")
        if len(entry["points"]) != main["count"]:
            raise _fail(
                f"{label}.points: {len(entry['points'])} values, need one per count 1..{main['count']}",
                entry, "points",
            )
        combos.append(Combination(entry["id"], entry["name"], frozenset(entry["faces"]),
                                  tuple(entry["points"]), entry["bonus"]))
    for index, die in enumerate(rules["multiplier_dice"]):
        if any(f < 0 for f in die["faces"]):
            raise _fail(f"multiplier_dice[{index}].faces: faces must be 0 or more", die, "faces")
    bonus = rules["bonus"]
    return Config(
        dice=main["count"],
        faces=main["faces"],
        bonus_faces=rules["bonus_die"]["faces"],
        multipliers=tuple(MultiplierDie(d["name"], tuple(d["faces"])) for d in rules["multiplier_dice"]),
        rolls=rules["rolls_per_turn"],
        combinations=tuple(combos),
        per_die=bonus["per_die"],
        per_die_all=bonus["per_die_all_counted"],
        double_factor=bonus["double_factor"],
        threshold=rules["threshold"],
        gamble_on_reaching=rules["gamble"]["on_reaching_threshold"],
        gamble_in_final=rules["gamble"]["in_final_round"],
    )
