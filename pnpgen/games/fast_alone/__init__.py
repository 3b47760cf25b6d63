"""Fast Alone: a collection of solo dice puzzles, two board sides each.

game.yaml `rules:` maps each puzzle to its data file (`growing-nine: growing-nine.yaml`).
The puzzle's module (`RULE_MODULES`) checks that file against its RULES_SCHEMA and
returns one Rules per board side, with ids 'fast-alone/<puzzle>-<side>'.
"""

from __future__ import annotations

import importlib
from typing import Any

from pnpgen.content.game import GameContent
from pnpgen.content.schema import Schema, check
from pnpgen.content.yamlpos import load_yaml, where
from pnpgen.engine.protocol import Rules
from pnpgen.errors import ContentError

RULE_MODULES = {
    "horizontal-vertical": "horizontal_vertical",
    "growing-nine": "growing_nine",
    "no-gaps": "no_gaps",
    "unification": "unification",
    "pairing-five": "pairing_five",
}

RULES_SCHEMA: Schema = {f"{key}?": str for key in RULE_MODULES}
SIMULATION_SCHEMA: Schema = {"difficulty_table?": str}  # the intro chapter's table, a file


def game_ids(content: GameContent) -> list[str]:
    """'<folder>/<puzzle>-<side>' for every side of every puzzle listed, read from the data
    files without building the games (pnpgen list)."""
    ids: list[str] = []
    for key, file_name in (content.data["rules"] or {}).items():
        sides = load_yaml(content.path(file_name)).get("sides") or {}
        ids += [f"{content.id}/{key}-{side}" for side in sides]
    return ids


def create(content: GameContent) -> list[Rules[Any, Any]]:
    listed = content.data["rules"]
    if not listed:
        raise ContentError("rules: list at least one puzzle and its data file", **where(content.data, "rules"))
    games: list[Rules[Any, Any]] = []
    for key, file_name in listed.items():
        module = importlib.import_module(f"{__name__}.{RULE_MODULES[key]}")
        data = load_yaml(content.path(file_name))
        check(data, module.RULES_SCHEMA, None, None, key)
        games += module.create(content, key, data)
    return games
