"""JSON Schemas of the content files, for editors: generated from the specs that validate.

`pnpgen schema` writes one file per kind of content file into a folder (default
`schema/`): game.yaml, rulebook files, component files (a list of decks, boards and
sheets) and each component type alone, and worked-example files. Every part comes from the
spec the loader checks with (pnpgen.content.schema.json_schema): the common game keys, the
kit's component, element and block specs, the rulebook's file, section and block specs, the
worked examples' spec. What a spec leaves open (`Any_`) is filled in here with the spec
that checks it later (a deck's `front:` is a list of elements, a sheet's blocks nest); what
no spec can say (cross-references, text that overflows, an engine's own `rules:`) is left to
`pnpgen validate`, so an editor never flags a file the loader accepts.

A content file names its schema on its first line, for the YAML language server:
`# yaml-language-server: $schema=../../schema/game.schema.json`.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from pnpgen.content.game import COMMON_SCHEMA, SIMULATION_SCHEMA
from pnpgen.content.schema import Each, OneOf, Spec, json_schema
from pnpgen.examples import EXAMPLE_SCHEMA
from pnpgen.games import engines
from pnpgen.output import atomic_output
from pnpgen.render.kit import TYPES, type_module
from pnpgen.render.kit.blocks import BLOCKS
from pnpgen.render.kit.elements import ELEMENTS
from pnpgen.render.kit.layouts import NAMED
from pnpgen.render.rulebook.model import BLOCK_SPECS, FILE_SPEC, SECTION_SPEC

DIALECT = "https://json-schema.org/draft/2020-12/schema"
KINDS = ("game", "rulebook", "components", *TYPES, "layouts", "examples")
"""The kinds of content file, each written as <kind>.schema.json; besides them,
game-<engine>.schema.json for each installed engine: game.yaml with that engine's own
`rules:` and `simulation:` keys (a game.yaml names the one of its engine)."""

TITLES = {
    "game": "pnpgen game.yaml",
    "rulebook": "pnpgen rulebook file",
    "components": "pnpgen components file (a list of decks, boards and sheets)",
    "deck": "pnpgen deck component",
    "board": "pnpgen board component",
    "sheet": "pnpgen sheet component",
    "layouts": "pnpgen card layouts file (named layouts that decks share)",
    "examples": "pnpgen worked examples file",
}


def _one_of_kinds(specs: Mapping[str, Spec]) -> dict[str, Any]:
    """A mapping with exactly one main key of `specs` (an element, a block)."""
    return {"anyOf": [json_schema(spec) for spec in specs.values()]}


def _set(schema: dict[str, Any], key: str, value: dict[str, Any]) -> None:
    schema["properties"][key] = value


def _defs() -> dict[str, object]:
    """Shared parts: elements, sheet blocks (a row holds blocks), each component type."""
    element = _one_of_kinds(ELEMENTS)
    block = _one_of_kinds(BLOCKS)
    for option in block["anyOf"]:
        if "row" in option["properties"]:
            option["properties"]["row"]["items"] = {"$ref": "#/$defs/block"}
    defs: dict[str, object] = {"element": element, "block": block}
    for kind in TYPES:
        module = type_module(kind)
        if module is None:
            continue
        schema = json_schema(module.SCHEMA)
        _set(schema, "type", {"const": kind})
        props = schema["properties"]
        for key in ("front", "back", "decorations"):
            if key in props and props[key].get("type") == "array":  # a deck's are Ref('element')
                props[key]["items"] = {"$ref": "#/$defs/element"}
        if "blocks" in props:
            props["blocks"]["items"] = {"$ref": "#/$defs/block"}
        defs[kind] = schema
    return defs


def _component_list(defs: dict[str, Any]) -> dict[str, object]:
    return {"type": "array", "items": {"anyOf": [{"$ref": f"#/$defs/{kind}"} for kind in TYPES if kind in defs]}}


def _rulebook() -> dict[str, object]:
    schema = json_schema(FILE_SPEC)
    section = json_schema(SECTION_SPEC)
    section["properties"]["blocks"]["items"] = _one_of_kinds(BLOCK_SPECS)
    schema["properties"]["sections"]["items"] = section
    return schema


def schemas() -> dict[str, dict[str, Any]]:
    """Each kind's JSON Schema, by kind."""
    defs = _defs()
    example = json_schema(EXAMPLE_SCHEMA)
    game = json_schema(COMMON_SCHEMA)
    props = game["properties"]
    props["components"] = {"anyOf": [json_schema(str), json_schema(Each(str)), _component_list(defs)]}
    props["examples"] = json_schema(OneOf(str, Each(str)))
    props["examples"]["anyOf"].append({"type": "array", "items": example})
    props["rulebook"]["anyOf"][-1] = _rulebook()
    result: dict[str, dict[str, Any]] = {
        "game": game,
        "rulebook": _rulebook(),
        "components": _component_list(defs),
        **{kind: {"$ref": f"#/$defs/{kind}"} for kind in TYPES if kind in defs},
        "layouts": json_schema(NAMED),
        "examples": {"type": "array", "items": example},
    }
    titles = dict(TITLES)
    for name, point in engines().items():
        try:
            module = point.load()
        except Exception:  # noqa: BLE001 - a broken game package: validate names it; no schema for it
            continue
        if not hasattr(module, "RULES_SCHEMA"):
            continue
        engine_game = json.loads(json.dumps(game))
        engine_game["properties"]["engine"] = {"const": name}
        engine_game["properties"]["rules"] = json_schema(module.RULES_SCHEMA)
        engine_game["properties"]["simulation"] = json_schema(
            {**SIMULATION_SCHEMA, **getattr(module, "SIMULATION_SCHEMA", {})})
        engine_game["required"] = [*game["required"], "engine", "rules"]
        result[f"game-{name}"] = engine_game
        titles[f"game-{name}"] = f"pnpgen game.yaml of a {name} game"
    return {kind: {"$schema": DIALECT, "$id": f"{kind}.schema.json", "title": titles[kind], **schema,
                   "$defs": defs} for kind, schema in result.items()}


def schema_for_game(data: object, available: dict[str, Any]) -> str:
    """The kind of schema a game.yaml's data is checked by: its engine's, or the plain one."""
    engine = data.get("engine") if isinstance(data, dict) else None
    return f"game-{engine}" if f"game-{engine}" in available else "game"


def schema_text(schema: dict[str, Any]) -> str:
    return json.dumps(schema, indent=2, ensure_ascii=False, sort_keys=False) + "\n"


def write_schemas(folder: Path) -> list[Path]:
    """<kind>.schema.json for every kind into `folder` (atomically); the paths written."""
    paths = []
    for kind, schema in schemas().items():
        path = folder / f"{kind}.schema.json"
        with atomic_output(path) as tmp:
            tmp.write_text(schema_text(schema), encoding="utf-8")
        paths.append(path)
    return paths
