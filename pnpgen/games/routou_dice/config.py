"""ROUTOU DICE numbers, read from game.yaml `rules:` (schema in RULES_SCHEMA)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pnpgen.content.schema import Each, Schema
from pnpgen.content.yamlpos import where
from pnpgen.errors import ContentError

# The six actions, in the order the rulebook lists them, plus the whole-turn pass.
ACTIONS = ("large", "small", "move", "slash", "clone", "contract")
ACTION_KINDS = (*ACTIONS, "pass")

ACTION_SCHEMA: Schema = {"cost": int, "phases": Each(int, min=1), "dice?": int}

RULES_SCHEMA: Schema = {
    "board": {"columns": Each(int, min=2), "rows": Each(int, min=2)},
    "die_faces": int,  # faces of the d10: 0 .. die_faces-1
    "dice_per_player": int,
    "phases_per_turn": int,
    "actions": {name: ACTION_SCHEMA for name in ACTIONS},
    "zeros": {"stock": int, "destroy": int},
    "stock_cap": int,
    "kills_to_win": int,
    "line_to_win": int,
    "clone_min_part": int,
    "contract_fail_face": int,
    "tie_breaks": Each(str, min=1),
}

TIE_BREAKS = ("kills", "stock", "board_total", "second_player")


@dataclass(frozen=True)
class Config:
    columns: tuple[int, int]  # first and last column number (X)
    rows: tuple[int, int]  # first and last row number (Y)
    faces: int
    dice: int
    phases: int
    cost: dict[str, int]
    allowed_phases: dict[str, tuple[int, ...]]  # 1-based phase numbers an action may start in
    roll_dice: dict[str, int]  # dice rolled by large, small, contract
    zeros_stock: int
    zeros_destroy: int
    stock_cap: int
    kills_to_win: int
    line: int
    clone_min_part: int
    fail_face: int
    tie_breaks: tuple[str, ...]

    @property
    def width(self) -> int:
        return self.columns[1] - self.columns[0] + 1

    @property
    def height(self) -> int:
        return self.rows[1] - self.rows[0] + 1


def load_config(rules: Any) -> Config:
    def span(key: str) -> tuple[int, int]:
        low, high = rules["board"][key][0], rules["board"][key][-1]
        if len(rules["board"][key]) != 2 or not 0 <= low < high <= 9:
            raise ContentError(f"board {key}: give [first, last], single digits, first < last",
                               **where(rules["board"], key))
        return int(low), int(high)

    actions = rules["actions"]
    for name in ACTIONS:
        spec = actions[name]
        if spec["cost"] < 1 or any(not 1 <= p <= rules["phases_per_turn"] for p in spec["phases"]):
            raise ContentError(f"action {name}: cost and phases must fit a turn of "
                               f"{rules['phases_per_turn']} phases", **where(actions, name))
    for name in ("large", "small", "contract"):
        if "dice" not in actions[name]:
            raise ContentError(f"action {name}: say how many dice it rolls (dice:)", **where(actions, name))
    for word in rules["tie_breaks"]:
        if word not in TIE_BREAKS:
            raise ContentError(f"tie break '{word}' is not one of {', '.join(TIE_BREAKS)}",
                               **where(rules, "tie_breaks"))
    return Config(
        columns=span("columns"),
        rows=span("rows"),
        faces=int(rules["die_faces"]),
        dice=int(rules["dice_per_player"]),
        phases=int(rules["phases_per_turn"]),
        cost={n: int(actions[n]["cost"]) for n in ACTIONS},
        allowed_phases={n: tuple(int(p) for p in actions[n]["phases"]) for n in ACTIONS},
        roll_dice={n: int(actions[n]["dice"]) for n in ("large", "small", "contract")},
        zeros_stock=int(rules["zeros"]["stock"]),
        zeros_destroy=int(rules["zeros"]["destroy"]),
        stock_cap=int(rules["stock_cap"]),
        kills_to_win=int(rules["kills_to_win"]),
        line=int(rules["line_to_win"]),
        clone_min_part=int(rules["clone_min_part"]),
        fail_face=int(rules["contract_fail_face"]),
        tie_breaks=tuple(str(t) for t in rules["tie_breaks"]),
    )
