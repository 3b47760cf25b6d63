"""Game modules, one per game, found by the `engine:` key of a game.yaml.

A game module (`pnpgen.games.<engine>`) exposes:
  RULES_SCHEMA   the schema of its `rules:` section (see pnpgen.content.schema)
  create(content) -> list[Rules]   one Rules per playable game it defines
                                   (a collection such as Fast Alone defines several,
                                   with ids like 'fast-alone/growing-nine-a')
"""

from __future__ import annotations

import importlib
from pathlib import Path
from types import ModuleType
from typing import Any

from pnpgen.content.game import GameContent, load_games
from pnpgen.content.schema import check
from pnpgen.content.yamlpos import where
from pnpgen.engine.protocol import Rules
from pnpgen.errors import ContentError, UnknownGame


def engine_module(content: GameContent) -> ModuleType:
    name = content.engine or ""
    if not name.isidentifier():
        raise ContentError(f"engine '{name}' is not a module name", **where(content.data, "engine"))
    try:
        return importlib.import_module(f"pnpgen.games.{name}")
    except ModuleNotFoundError as err:
        if err.name and err.name.startswith(f"pnpgen.games.{name}"):
            raise ContentError(
                f"no game engine named '{name}' in pnpgen.games",
                **where(content.data, "engine", value=True),
            ) from None
        raise


def rules_for_content(content: GameContent) -> list[Rules[Any, Any]]:
    """The games a content folder defines; none for a print-only folder (no `engine:`)."""
    if content.engine is None:
        if "rules" in content.data:
            problem = "rules: given, but no engine: key names the module that plays them"
            raise ContentError(problem, **where(content.data, "rules"))
        return []
    module = engine_module(content)
    if "rules" not in content.data:
        raise ContentError(f"engine '{content.engine}' needs a rules: section", content.main_file, 1, 1)
    check(content.data["rules"], module.RULES_SCHEMA, content.data, "rules", "rules")
    rules: list[Rules[Any, Any]] = module.create(content)
    return rules


def find_rules(root: Path, name: str) -> Rules[Any, Any]:
    """The Rules called `name` ('burning-desire', 'fast-alone/growing-nine-a', ...)."""
    (content,) = load_games(root, [name])
    rules = rules_for_content(content)
    by_id = {r.id: r for r in rules}
    if name in by_id:
        return by_id[name]
    if name == content.id and len(rules) == 1:
        return rules[0]
    if not rules:
        raise UnknownGame(f"'{name}' is print-only (no engine: in its game.yaml), so it has no rules to play", root)
    raise UnknownGame(
        f"'{name}' names no single game; choose one of: {', '.join(sorted(by_id))}", root
    )
