"""The stage race's numbers, read from game.yaml `rules:` (schema in RULES_SCHEMA)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from pnpgen.content.schema import Choice, Each, OneOf, Schema, Text, text_for
from pnpgen.content.yamlpos import where
from pnpgen.errors import ContentError

STAGE_SCHEMA: Schema = {
    "stage": int,
    "type": str,
    "boards": Each(Each(OneOf(int, str), min=2), min=1),
    "total_cost": int,
    "settle_ties?": bool,
    "note?": Text,
}

RULES_SCHEMA: Schema = {
    "time_unit": Text,
    "bonus_seconds": [int],
    "added_seconds": {"winners_turn": int, "extra_round": int, "not_finished": int},
    "recovery": {"dice": int, "max_dice": int},
    "retire": {"return_dice": int},
    "time_trial": {"seconds_per_roll": int, "start_every_rounds": int, "bonus": bool},
    "leader_colour": {"max_players": int, "swatch?": str},
    "stage_types": {"*": {"name": Text, "time_trial?": bool}},
    "board_sides": {"*": Text},
    "course": Each(STAGE_SCHEMA, min=1),
    "model": {
        "start_dice": int,
        "excluded_face": int,
        "keep_last_die": bool,
        "stage_start": Choice("rotate", "first_seat"),
        "cell_costs": {"*": Each(int, min=1)},
    },
}


@dataclass(frozen=True)
class Stage:
    number: int
    type: str
    boards: tuple[tuple[int, str], ...]
    total_cost: int
    time_trial: bool
    settle_ties: bool
    note: object  # Text or None


@dataclass(frozen=True)
class Model:
    """D-RR-1 stand-in race model parameters (simulation only)."""

    start_dice: int
    excluded_face: int
    keep_last_die: bool
    stage_start: str
    cell_costs: dict[str, tuple[int, ...]]

    def cells(self, stage: Stage) -> tuple[int, ...]:
        """The cell costs of a stage: the type's pattern repeated, the last cell trimmed."""
        pattern = self.cell_costs[stage.type]
        cells: list[int] = []
        left = stage.total_cost
        while left > 0:
            cost = min(pattern[len(cells) % len(pattern)], left)
            cells.append(cost)
            left -= cost
        return tuple(cells)


@dataclass(frozen=True)
class RaceConfig:
    unit: object  # Text
    bonus: tuple[int, ...]
    added_winners_turn: int
    added_extra_round: int
    added_not_finished: int
    recover_dice: int
    max_dice: int
    retire_dice: int
    tt_seconds_per_roll: int
    tt_start_every: int
    tt_bonus: bool
    leader_max_players: int
    leader_swatch: str  # the leader colour as pictures show it (#rrggbb)
    stage_types: dict[str, dict[str, object]]  # id: name (Text), time_trial?
    board_sides: dict[str, object]  # side: its name (Text)
    course: tuple[Stage, ...]
    model: Model

    def type_name(self, stage_type: str, lang: str) -> str:
        return text_for(self.stage_types[stage_type]["name"], lang)

    def unit_text(self, lang: str = "en") -> str:
        return text_for(self.unit, lang)

    def next_time_trial(self, after: int) -> Stage | None:
        """The first time-trial stage after stage number `after`."""
        return next((s for s in self.course if s.number > after and s.time_trial), None)


def load_config(rules: Any) -> RaceConfig:
    """Cross-checks beyond the schema: stage numbers, known types and sides, model costs."""
    types = rules["stage_types"]
    sides = rules["board_sides"]
    course: list[Stage] = []
    for index, entry in enumerate(rules["course"]):
        if entry["stage"] != index + 1:
            raise ContentError(
                f"course: stage {entry['stage']} is listed in place {index + 1}; number stages 1, 2, 3…",
                **where(entry, "stage", value=True),
            )
        if entry["type"] not in types:
            raise ContentError(
                f"course: unknown stage type '{entry['type']}' (types: {', '.join(types)})",
                **where(entry, "type", value=True),
            )
        for board in entry["boards"]:
            if len(board) != 2 or not isinstance(board[0], int) or board[1] not in sides:
                raise ContentError(
                    f"course: a board is [number, side] with a side from {', '.join(sides)}",
                    **where(entry, "boards", value=True),
                )
        course.append(
            Stage(
                number=entry["stage"],
                type=entry["type"],
                boards=tuple((int(b[0]), str(b[1])) for b in entry["boards"]),
                total_cost=entry["total_cost"],
                time_trial=bool(types[entry["type"]].get("time_trial", False)),
                settle_ties=bool(entry.get("settle_ties", False)),
                note=entry.get("note"),
            )
        )
    model = rules["model"]
    for stage_type in types:
        if stage_type not in model["cell_costs"]:
            raise ContentError(
                f"model.cell_costs: no cell costs for stage type '{stage_type}'",
                **where(model, "cell_costs"),
            )
    for stage_type, costs in model["cell_costs"].items():
        if any(not 1 <= c <= 6 for c in costs):
            raise ContentError(
                f"model.cell_costs.{stage_type}: every cost must be 1–6 so a single die can pay it",
                **where(model["cell_costs"], stage_type, value=True),
            )
    if not 1 <= model["start_dice"] <= rules["recovery"]["max_dice"]:
        raise ContentError(
            "model.start_dice must be between 1 and recovery.max_dice", **where(model, "start_dice")
        )
    added = rules["added_seconds"]
    tt = rules["time_trial"]
    return RaceConfig(
        unit=rules["time_unit"],
        bonus=tuple(rules["bonus_seconds"]),
        added_winners_turn=added["winners_turn"],
        added_extra_round=added["extra_round"],
        added_not_finished=added["not_finished"],
        recover_dice=rules["recovery"]["dice"],
        max_dice=rules["recovery"]["max_dice"],
        retire_dice=rules["retire"]["return_dice"],
        tt_seconds_per_roll=tt["seconds_per_roll"],
        tt_start_every=tt["start_every_rounds"],
        tt_bonus=tt["bonus"],
        leader_max_players=rules["leader_colour"]["max_players"],
        leader_swatch=_swatch(rules["leader_colour"]),
        stage_types=dict(types),
        board_sides=dict(sides),
        course=tuple(course),
        model=Model(
            start_dice=model["start_dice"],
            excluded_face=model["excluded_face"],
            keep_last_die=model["keep_last_die"],
            stage_start=model["stage_start"],
            cell_costs={k: tuple(v) for k, v in model["cell_costs"].items()},
        ),
    )


def _swatch(leader: dict[str, object]) -> str:
    """The leader colour's #rrggbb (a pale yellow when the YAML names none)."""
    value = str(leader.get("swatch", "#f5d327"))
    if not re.fullmatch(r"#[0-9a-fA-F]{6}", value):
        raise ContentError(f"swatch: expected a colour as #rrggbb, got '{value}'",
                           **where(leader, "swatch", value=True))
    return value
